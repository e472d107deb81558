"""slasim.sweep: `slasim sweep CONFIG`, its stored points returned."""

import slasim
from conftest import cli, sqlite_columns, sqlite_rows


def test_quick_sweep_returns_the_points_table(repo, slasim_bin, tmp_path):
    config = repo / "configs" / "quick.toml"
    cli_db = tmp_path / "cli.sqlite"
    cli(slasim_bin, "sweep", config, "--db", cli_db, "--jobs", "2")
    expected = sqlite_rows(cli_db, "SELECT * FROM points ORDER BY run_id")

    db = tmp_path / "py.sqlite"
    df = slasim.sweep(config, jobs=2, db=db)
    assert df.columns == sqlite_columns(cli_db, "SELECT * FROM points")
    assert df.height == len(expected) == 52
    # wall_seconds differs from run to run; everything else is the same.
    wall = df.columns.index("wall_seconds") if "wall_seconds" in df.columns else None

    def strip(rows):
        return [tuple(v for k, v in enumerate(r) if k != wall) for r in rows]

    assert strip(df.sort("run_id").rows()) == strip(expected)
    # The same store the command line writes: its query reads it.
    out = cli(slasim_bin, "query", "--db", db, "SELECT count(*) FROM points").stdout
    assert "52" in out


def test_sweep_resumes(repo, tmp_path):
    config = repo / "configs" / "quick.toml"
    db = tmp_path / "s.sqlite"
    first = slasim.sweep(config, db=db, jobs=1)
    runs = slasim.Store(db).query("SELECT count(*) AS n FROM runs")["n"][0]
    second = slasim.sweep(config, db=db)
    assert second.equals(first)
    assert slasim.Store(db).query("SELECT count(*) AS n FROM runs")["n"][0] == runs


def test_shard(repo, tmp_path):
    config = repo / "configs" / "quick.toml"
    df = slasim.sweep(config, db=tmp_path / "a.sqlite", shard="1/4")
    assert df.height == 13


def test_default_store_is_the_command_lines(repo, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    df = slasim.sweep(repo / "configs" / "quick.toml", shard="2/4")
    assert (tmp_path / "slasim.shard-2-of-4.sqlite").is_file()
    assert df.height == 13
