"""A sweep analysed in polars, notebook-style.

Runs the shipped quick sweep (52 points on the synthetic workload, seconds),
then asks its store and its points table the usual questions: which strategy
earns most, how sure we are of it, and what overbooking costs in late jobs.

    python python/examples/sweep_analysis.py [STORE]

Each "cell" below is a step one would run in a notebook.
"""

import sys
import tempfile
from pathlib import Path

import polars as pl

import slasim

REPO = Path(__file__).resolve().parents[2]

# %% Run (or resume) the sweep: one row per point, with its metrics.
store_path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp()) / "quick.sqlite"
points = slasim.sweep(REPO / "configs" / "quick.toml", db=store_path)
print(f"{points.height} points, {points.width} columns, stored in {store_path}")

# %% Gain per strategy and PoF_max under the PoF test: mean over the
# batteries, with a 95 % confidence interval (t ≈ 3.18 for 4 batteries).
pof = points.filter(pl.col("acceptance") == "pof")
gain = (
    pof.group_by("strategy", "pof_max")
    .agg(
        pl.len().alias("batteries"),
        pl.col("gain").mean().alias("gain"),
        (3.18 * pl.col("gain").std() / pl.len().sqrt()).alias("ci95"),
        pl.col("accepted").mean().alias("accepted"),
    )
    .sort("gain", descending=True)
)
with pl.Config(tbl_rows=20, float_precision=1, tbl_hide_dataframe_shape=True):
    print("\nGain under the PoF test, best first:")
    print(gain)

# %% The same store, job by job: what overbooking costs in failed jobs.
store = slasim.Store(store_path)
jobs = store.query(
    """SELECT strategy, overbooked, outcome, count(*) AS jobs, sum(fee) AS fees, sum(penalty) AS penalties
       FROM jobs WHERE accepted = 1 GROUP BY strategy, overbooked, outcome"""
)
late = (
    jobs.group_by("strategy", "overbooked")
    .agg(
        pl.col("jobs").sum(),
        (pl.col("jobs").filter(pl.col("outcome") == "failed").sum() / pl.col("jobs").sum()).alias("failed_share"),
        (pl.col("fees").sum() - pl.col("penalties").sum()).alias("net"),
    )
    .sort("strategy", "overbooked")
)
with pl.Config(tbl_rows=20, float_precision=3, tbl_hide_dataframe_shape=True):
    print("\nAccepted jobs by strategy, overbooked or not:")
    print(late)

# %% For pandas users: the same frame, converted (needs pyarrow).
try:
    print("\nAs pandas:", type(gain.to_pandas()).__name__)
except ModuleNotFoundError:
    print("\n(pandas or pyarrow not installed: to_pandas() skipped)")
