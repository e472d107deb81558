"""`slasim export` / `slasim.Store(path).export(dir)`: every table as Parquet
with a provenance table, read back with polars and DuckDB and compared with
`slasim query` on the SQLite store."""

import hashlib

import polars as pl
import pytest

import slasim
from slasim import SlasimError
from conftest import cli, missing, sqlite_rows


@pytest.fixture(scope="module")
def duckdb():
    try:
        import duckdb
    except ImportError:
        missing("duckdb is not installed (tests/python/run.sh --install installs it)")
    return duckdb


@pytest.fixture(scope="module")
def chapter6(tmp_path_factory, traces):
    """A chapter-6 store: the planning strategies on KTH-SP2, two batteries."""
    db = tmp_path_factory.mktemp("ch6") / "ch6.sqlite"
    slasim.run(
        trace=traces / "swf" / "KTH-SP2-1996-2.1-cln.swf.gz",
        strategy=["conservative-backfilling", "heuristic-planning", "comprehensive-overbooking"],
        batteries=2,
        battery_size=100,
        db=db,
    )
    return slasim.Store(db)


@pytest.fixture(scope="module")
def slurm(tmp_path_factory, slasim_bin, repo):
    """A Slurm store: the synthetic Slurm workload on the GPU machine's conf."""
    db = tmp_path_factory.mktemp("slurm") / "slurm.sqlite"
    cli(slasim_bin, "slurm", "run", "--slurm-conf", repo / "configs" / "slurm" / "gpu-machine.conf", "--db", db)
    return slasim.Store(db)


def test_every_table_is_written_with_its_rows(chapter6, tmp_path):
    out = tmp_path / "ch6"
    written = chapter6.export(out)
    tables = [r[0] for r in sqlite_rows(chapter6.path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    # The store's provenance table is exported once, as provenance.parquet
    # with each point's experiments and settings added.
    assert "provenance" in tables
    assert sorted(written) == tables
    for table in tables:
        frame = pl.read_parquet(out / f"{table}.parquet")
        (count,) = sqlite_rows(chapter6.path, f'SELECT count(*) FROM "{table}"')[0]
        assert frame.height == count == written[table], table
    assert written["job_outcomes"] > 0


def test_three_queries_equal_slasim_query(chapter6, slurm, tmp_path, duckdb, slasim_bin):
    ch6, sl = tmp_path / "ch6", tmp_path / "slurm"
    chapter6.export(ch6)
    slurm.export(sl)
    con = duckdb.connect()
    # 1. Gain per strategy (chapter 6), from the outcomes joined to their runs.
    sql = (
        "SELECT r.strategy, count(*) AS jobs, sum(o.fee) - sum(o.penalty) AS gain "
        "FROM job_outcomes o JOIN runs r ON r.run_id = o.run_id GROUP BY r.strategy ORDER BY r.strategy"
    )
    expected = chapter6.query(sql)
    got = con.sql(sql.replace("job_outcomes o", f"'{ch6}/job_outcomes.parquet' o").replace("runs r", f"'{ch6}/runs.parquet' r")).pl()
    assert got["strategy"].to_list() == expected["strategy"].to_list()
    assert got["jobs"].to_list() == expected["jobs"].to_list()
    assert got["gain"].to_list() == pytest.approx(expected["gain"].to_list(), rel=1e-12)
    # 2. Slurm waits per partition, with polars' lazy API.
    expected = slurm.query(
        "SELECT partition, count(*) AS jobs, max(wait) AS max_wait FROM slurm_jobs GROUP BY partition ORDER BY partition"
    )
    got = (
        pl.scan_parquet(sl / "slurm_jobs.parquet")
        .group_by("partition")
        .agg(pl.len().cast(pl.Int64).alias("jobs"), pl.col("wait").max().alias("max_wait"))
        .sort("partition")
        .collect()
    )
    assert got.rows() == expected.rows()
    # 3. The Slurm points' figures, through DuckDB, equal the command line's CSV.
    sql = "SELECT point_id, jobs, mean_wait, backfilled FROM slurm_points ORDER BY point_id"
    printed = cli(slasim_bin, "query", "--db", slurm.path, "--csv", sql).stdout.strip().splitlines()
    got = con.sql(sql.replace("slurm_points", f"'{sl}/slurm_points.parquet'")).fetchall()
    assert printed[0] == "point_id,jobs,mean_wait,backfilled"
    rows = [line.split(",") for line in printed[1:]]
    assert len(rows) == len(got) > 0
    for text, row in zip(rows, got):
        # The command line prints reals to 6 decimals.
        assert [int(text[0]), int(text[1]), int(text[3])] == [row[0], row[1], row[3]]
        assert float(text[2]) == pytest.approx(row[2], abs=5e-7)


def test_provenance_names_settings_version_trace_and_seed(chapter6, traces, tmp_path):
    out = tmp_path / "p"
    chapter6.export(out)
    provenance = pl.read_parquet(out / "provenance.parquet")
    runs = chapter6.query("SELECT run_id, config, code_version, seed FROM runs ORDER BY run_id")
    assert provenance["point"].to_list() == runs["run_id"].to_list()
    assert provenance["points_table"].unique().to_list() == ["runs"]
    assert provenance["config"].to_list() == runs["config"].to_list()
    assert provenance["config_sha256"].to_list() == [hashlib.sha256(c.encode()).hexdigest() for c in runs["config"]]
    assert provenance["code_version"].to_list() == runs["code_version"].to_list()
    assert provenance["seed"].to_list() == runs["seed"].to_list()
    kth = (traces / "swf" / "KTH-SP2-1996-2.1-cln.swf.gz").read_bytes()
    assert provenance["trace_sha256"].unique().to_list() == [hashlib.sha256(kth).hexdigest()]
    experiments = pl.read_parquet(out / "experiments.parquet")["hash"].to_list()
    assert all(e in experiments for row in provenance["experiments"] for e in row.split(","))


def test_the_same_store_gives_the_same_bytes_and_nothing_half_written(chapter6, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    chapter6.export(a)
    chapter6.export(b)
    for f in a.iterdir():
        assert f.read_bytes() == (b / f.name).read_bytes(), f.name
    with pytest.raises(SlasimError, match="already exists"):
        chapter6.export(a)
    assert chapter6.export(a, force=True)["provenance"] > 0
    not_a_store = tmp_path / "x.sqlite"
    not_a_store.write_text("not a database")
    with pytest.raises(SlasimError, match="x.sqlite"):
        slasim.Store(not_a_store).export(tmp_path / "x")
    assert not (tmp_path / "x").exists() and not (tmp_path / ".x.part").exists()
