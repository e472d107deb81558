"""slasim.Store: `slasim query`'s read-only guard, results as DataFrames."""

import pytest

import slasim
from conftest import sqlite_rows


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    db = tmp_path_factory.mktemp("store") / "s.sqlite"
    slasim.run(strategy=["conservative-backfilling", "heuristic-overbooking"], batteries=2, pof_max=0.3, db=db)
    return slasim.Store(db)


def test_query(store):
    df = store.query("SELECT strategy, count(*) AS jobs, sum(fee) - sum(penalty) AS gain FROM jobs GROUP BY strategy ORDER BY strategy")
    assert df.columns == ["strategy", "jobs", "gain"]
    expected = sqlite_rows(store.path, "SELECT strategy, count(*), sum(fee) - sum(penalty) FROM jobs GROUP BY strategy ORDER BY strategy")
    # Python's SQLite may sum in another order (another version): reals to 1e-12.
    assert [r[:2] for r in df.rows()] == [r[:2] for r in expected]
    assert df["gain"].to_list() == pytest.approx([r[2] for r in expected], rel=1e-12)


def test_types_and_nulls(store):
    df = store.query("SELECT 1 AS i, 1.5 AS r, 'x' AS t, NULL AS n, CASE WHEN 1 THEN 2 ELSE 2.5 END AS mixed")
    assert df.dtypes == [slasim_int(), slasim_float(), slasim_str(), slasim_int(), slasim_int()]
    df = store.query("SELECT actual_start FROM jobs WHERE accepted = 0 LIMIT 3")
    assert df["actual_start"].null_count() == df.height == 3
    # A column of integers and reals is reals; of numbers and text, text.
    df = store.query("SELECT 1 AS a UNION ALL SELECT 2.5")
    assert df["a"].to_list() == [1.0, 2.5]
    df = store.query("SELECT 1 AS a UNION ALL SELECT 'x'")
    assert df["a"].to_list() == ["1", "x"]
    # An empty result keeps its columns, typed by the descriptors.
    df = store.query("SELECT fee, strategy, job FROM jobs WHERE 0")
    assert df.height == 0
    assert df.dtypes == [slasim_float(), slasim_str(), slasim_int()]


def slasim_int():
    import polars as pl
    return pl.Int64


def slasim_float():
    import polars as pl
    return pl.Float64


def slasim_str():
    import polars as pl
    return pl.String


def test_tables(store):
    tables = store.tables()
    assert {"runs", "job_outcomes", "points", "jobs"} <= set(tables)


def test_writes_are_refused(store):
    before = sqlite_rows(store.path, "SELECT count(*) FROM runs")
    for sql in ["DELETE FROM runs", "DROP TABLE runs", "INSERT INTO runs (run_id) VALUES (1)", "CREATE TABLE x (a)"]:
        with pytest.raises(slasim.SlasimError, match="read-only|refus|write"):
            store.query(sql)
    assert sqlite_rows(store.path, "SELECT count(*) FROM runs") == before


def test_malformed_sql_names_the_store(store):
    with pytest.raises(slasim.SlasimError, match="syntax error") as e:
        store.query("SELEC strategy FROM jobs")
    assert str(store.path) in str(e.value)
    with pytest.raises(slasim.SlasimError, match="no such column"):
        store.query("SELECT nonsense FROM jobs")


def test_missing_store(tmp_path):
    with pytest.raises(slasim.SlasimError, match="nope.sqlite"):
        slasim.Store(tmp_path / "nope.sqlite").query("SELECT 1")
    assert not (tmp_path / "nope.sqlite").exists()
