"""slasim.run(sla_machine=…): the same points and stored jobs as `slasim
sweep` of the same [sla_machine] config, on a slurm.conf's machine of unlike
nodes and on the v2023 pods' own."""

import pytest

import slasim
from conftest import cli, missing, sqlite_rows

CONF = "configs/slurm/gpu-machine.conf"


def config_file(path, strategies):
    path.write_text(
        'name = "by-hand"\nseed = 3\n[sla_machine]\n'
        f'conf = "{CONF}"\n'
        "synthetic = { days = 1.0, load = 1.2, users = 10, accounts = 2 }\n"
        'batteries = 2\nsla_terms = "uniform"\n'
        "overbooking = { pof_max = 0.3 }\n"
        '[[sweep]]\nname = "s"\n[sweep.axes]\n'
        f"strategy = {strategies!r}\n".replace("'", '"') + 'battery = "all"\n'
    )


def test_a_machine_run_stores_what_the_sweep_of_its_config_stores(repo, slasim_bin, tmp_path, monkeypatch):
    monkeypatch.chdir(repo)
    strategies = ["heuristic-overbooking", "comprehensive-overbooking", "slurm"]
    config_file(tmp_path / "c.toml", strategies)
    cli_db = tmp_path / "cli.sqlite"
    cli(slasim_bin, "sweep", tmp_path / "c.toml", "--db", cli_db, cwd=repo)
    sql = "SELECT p.strategy, p.battery, j.* FROM sla_machine_jobs j JOIN sla_machine_points p USING (point_id)"
    expected = sqlite_rows(cli_db, f"{sql} ORDER BY p.strategy, p.battery, j.job")

    db = tmp_path / "py.sqlite"
    df = slasim.run(
        strategy=strategies,
        sla_machine={
            "conf": CONF,
            "synthetic": {"days": 1.0, "load": 1.2, "users": 10, "accounts": 2},
            "batteries": 2,
            "sla_terms": "uniform",
            "overbooking": {"pof_max": 0.3},
        },
        seed=3,
        db=db,
    )
    # Points in the order they ran: each strategy's batteries in turn.
    assert df.select("strategy", "battery").unique(maintain_order=True).rows() == [
        ("heuristic-overbooking", 0),
        ("heuristic-overbooking", 1),
        ("comprehensive-overbooking", 0),
        ("comprehensive-overbooking", 1),
        ("slurm", 0),
        ("slurm", 1),
    ]
    got = df.drop("node_choice", "failures").sort(["strategy", "battery", "job"]).rows()
    assert got == expected
    assert df.filter(df["strategy"] == "slurm")["node_choice"].null_count() == df.filter(df["strategy"] == "slurm").height
    # The store names the config as the call did, not a file.
    names = sqlite_rows(db, "SELECT name, file FROM experiments")
    assert names == [("slasim.run", "slasim.run")]
    # A second call reads the stored points again.
    again = slasim.run(strategy=strategies, db=db, seed=3, sla_machine={
        "conf": CONF,
        "synthetic": {"days": 1.0, "load": 1.2, "users": 10, "accounts": 2},
        "batteries": 2,
        "sla_terms": "uniform",
        "overbooking": {"pof_max": 0.3},
    })
    assert again.equals(df)


def test_pods_on_their_node_list_through_config(traces):
    pods = traces / "gpu" / "alibaba" / "cluster-trace-gpu-v2023" / "openb_pod_list_default.csv.gz"
    if not pods.is_file():
        missing(f"{pods}: the v2023 pods are not in the traces directory")
    df = slasim.run(
        pods,
        "conservative-backfilling",
        config={"sla_machine": {"arrivals": "sampled", "jobs": 300, "load": 20000.0, "batteries": 2, "node_choice": "fragmentation"}},
    )
    assert df.select("strategy", "node_choice").unique().rows() == [("conservative-backfilling", "fragmentation")]
    assert sorted(df["battery"].unique().to_list()) == [0, 1]
    assert df.height == 600
    assert set(df["outcome"]) <= {"success", "rejected", "late"}


def test_what_a_machine_run_cannot_take_is_refused():
    with pytest.raises(slasim.SlasimError, match="node_choice are \\[sla_machine\\] settings"):
        slasim.run(sla_machine={"conf": CONF}, node_choice="best-fit")
    with pytest.raises(slasim.SlasimError, match="sla_machine.batteries = None"):
        slasim.run(sla_machine={"conf": CONF, "batteries": None})
    with pytest.raises(slasim.SlasimError, match="unknown field `nodez`"):
        slasim.run(sla_machine={"conf": CONF, "nodez": "x.csv"})
    with pytest.raises(slasim.SlasimError, match="sla_machine.overbooking.pof_max"):
        slasim.run(strategy="heuristic-overbooking", sla_machine={"conf": CONF, "overbooking": {"pof_max": 2.0}})
