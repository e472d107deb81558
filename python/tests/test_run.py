"""slasim.run: the same runs and stored rows as `slasim run`."""

import polars as pl
import pytest

import slasim
from conftest import cli, sqlite_columns, sqlite_rows


def test_default_run_is_the_job_table_slasim_run_stores(slasim_bin, tmp_path):
    db = tmp_path / "cli.sqlite"
    cli(slasim_bin, "run", "--db", db)
    expected = sqlite_rows(db, "SELECT * FROM jobs ORDER BY run_id, job")
    columns = sqlite_columns(db, "SELECT * FROM jobs")

    df = slasim.run()

    assert df.columns == columns
    assert df.shape == (len(expected), len(columns))
    # Row for row, value for value (NULL as None, reals to the bit).
    assert df.sort(["run_id", "job"]).rows() == expected
    # Column types follow the store's: integers stay integers.
    assert df.schema["job"] == pl.Int64
    assert df.schema["fee"] == pl.Float64
    assert df.schema["outcome"] == pl.String
    assert df["pof_calibrated"].null_count() == df.height


def test_runs_come_in_the_command_lines_order(slasim_bin):
    df = slasim.run(strategy=["heuristic-overbooking", "conservative-backfilling"], pof_max=0.3, batteries=2)
    runs = df.select("strategy", "battery").unique(maintain_order=True).rows()
    assert runs == [
        ("heuristic-overbooking", 0),
        ("heuristic-overbooking", 1),
        ("conservative-backfilling", 0),
        ("conservative-backfilling", 1),
    ]
    # Jobs by id within each run.
    for (_, group) in df.group_by("run_id", maintain_order=True):
        assert group["job"].to_list() == sorted(group["job"].to_list())


def test_settings_are_the_command_lines_flags(slasim_bin, tmp_path):
    db = tmp_path / "cli.sqlite"
    args = ["--strategy", "shortened-backfilling", "--pof-max", "0.3", "--pof-max", "0.5", "--batteries", "2",
            "--penalty-ratio", "2", "--failures", "none", "--seed", "7"]
    cli(slasim_bin, "run", *args, "--db", db)
    expected = sqlite_rows(db, "SELECT * FROM jobs ORDER BY run_id, job")
    df = slasim.run(strategy="shortened-backfilling", pof_max=[0.3, 0.5], batteries=2, penalty_ratio=2,
                    failures="none", seed=7)
    assert df.sort(["run_id", "job"]).rows() == expected
    assert set(df["strategy"]) == {"shortened-backfilling"}


def test_a_real_trace_classic_mode_whole_log(slasim_bin, traces, tmp_path):
    trace = traces / "swf" / "KTH-SP2-1996-2.1-cln.swf.gz"
    db = tmp_path / "cli.sqlite"
    cli(slasim_bin, "run", "--trace", trace, "--strategy", "easy", "--failures", "none", "--lenient", "--db", db)
    expected = sqlite_rows(db, "SELECT * FROM jobs ORDER BY run_id, job")
    df = slasim.run(trace=trace, strategy="easy", failures="none", lenient=True)
    assert df.height == len(expected) > 25_000
    assert df.sort(["run_id", "job"]).rows() == expected


def test_db_keeps_the_run_and_a_second_call_reads_it(tmp_path):
    db = tmp_path / "kept.sqlite"
    first = slasim.run(strategy="conservative-backfilling", batteries=1, db=db)
    assert db.is_file()
    stored = slasim.Store(db).query("SELECT count(*) AS n FROM jobs")["n"][0]
    assert stored == first.height
    again = slasim.run(strategy="conservative-backfilling", batteries=1, db=db)
    assert again.equals(first)
    assert slasim.Store(db).query("SELECT count(*) AS n FROM runs")["n"][0] == 1


def test_the_temporary_store_is_removed(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    slasim.run(strategy="conservative-backfilling", batteries=1)
    assert list(tmp_path.iterdir()) == []


def test_a_scheduler_that_takes_no_handle_is_refused():
    # In-process schedulers: tests/test_scheduler.py.
    with pytest.raises(slasim.SlasimError, match="cannot set the scheduler's `bs` handle"):
        slasim.run(scheduler=object())


def test_pandas():
    df = slasim.run(strategy="conservative-backfilling", batteries=1)
    pd = df.to_pandas()
    assert list(pd.columns) == df.columns
    assert len(pd) == df.height
    assert pd["fee"].sum() == pytest.approx(df["fee"].sum())


def test_exception_is_slasims():
    assert slasim.SlasimError.__module__ == "slasim"
    assert issubclass(slasim.SlasimError, Exception)


def test_config_is_a_dict_of_settings():
    a = slasim.run(config={"strategy": "conservative-backfilling", "batteries": 1})
    b = slasim.run(strategy="conservative-backfilling", config={"batteries": 1})
    assert a.equals(b)
    with pytest.raises(slasim.SlasimError, match="slasim.sweep"):
        slasim.run(config="configs/quick.toml")


def test_the_gil_is_released_while_simulating():
    import threading

    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    thread = threading.Thread(target=count)
    thread.start()
    try:
        before = ticks
        slasim.run(strategy=["heuristic-overbooking", "comprehensive-overbooking"], batteries=4)
        during = ticks - before
    finally:
        done.set()
        thread.join()
    # A Python thread runs while the simulation does (it would not advance
    # at all if the GIL were held).
    assert during > 10_000
