"""slasim.read_trace: a workload as read, or prepared as `slasim run` prepares it."""

import gzip

import pytest

import slasim
from conftest import cli


def test_synthetic_prepared_like_trace_prepare(slasim_bin, tmp_path):
    df = slasim.read_trace()
    out = cli(slasim_bin, "trace", "prepare").stdout
    # "batteries     10 × 1000 jobs"
    line = next(l for l in out.splitlines() if l.startswith("batteries"))
    count, size = int(line.split()[1]), int(line.split()[3])
    assert df.height == count * size
    assert df["battery"].unique().sort().to_list() == list(range(count))
    assert df.columns[:2] == ["battery", "job"]
    assert (df["deadline"] >= df["release"] + df["estimate"]).all()


def test_prepared_jobs_are_the_stored_battery_jobs(tmp_path):
    db = tmp_path / "s.sqlite"
    slasim.run(strategy="conservative-backfilling", batteries=2, db=db)
    stored = slasim.Store(db).query(
        "SELECT r.battery, b.* FROM battery_jobs b JOIN runs r USING (battery_key) ORDER BY r.battery, b.job"
    ).drop("battery_key")
    prepared = slasim.read_trace(batteries=2).drop("fee", "penalty")
    assert prepared.rows() == stored.rows()


def test_settings_prepare(slasim_bin):
    df = slasim.read_trace(batteries=3, battery_size=200, input_jobs=600)
    assert df.height == 600
    with pytest.raises(slasim.SlasimError, match="battery"):
        slasim.read_trace(batteries=3, battery_size=300, input_jobs=600)


def test_whole_log_as_read(traces, slasim_bin):
    path = traces / "swf" / "KTH-SP2-1996-2.1-cln.swf.gz"
    df = slasim.read_trace(path, prepared=False)
    with gzip.open(path, "rt") as f:
        records = [l.split() for l in f if l.strip() and not l.startswith(";")]
    assert df.height == len(records)
    assert df["job"].to_list()[:5] == [int(r[0]) for r in records[:5]]
    assert df["requested_time"].to_list() == [int(r[8]) for r in records]
    info = cli(slasim_bin, "trace", "info", path).stdout
    assert f"{df.height:,}".replace(",", " ") in info or str(df.height) in info.replace(",", "").replace(" ", "")


def test_whole_log_takes_no_preparation_settings():
    with pytest.raises(slasim.SlasimError, match="batteries"):
        slasim.read_trace(prepared=False, batteries=2)


def test_a_real_log_prepared_for_the_whole_log(traces):
    df = slasim.read_trace(traces / "swf" / "KTH-SP2-1996-2.1-cln.swf.gz", whole_log=True)
    assert df["battery"].unique().to_list() == [0]
    assert df.height > 25_000
