"""Columns from the native module as a polars DataFrame."""

from __future__ import annotations

import polars as pl

_DTYPES = {"int": pl.Int64, "float": pl.Float64, "str": pl.String}


def frame(columns) -> pl.DataFrame:
    """A DataFrame from ``(name, kind, values, valid)`` tuples: numpy arrays
    (or a list of str) and, where rows are missing, a numpy mask of the
    present ones. No per-row Python loop for numbers."""
    series = []
    for name, kind, values, valid in columns:
        s = pl.Series(name, values, dtype=_DTYPES[kind])
        if valid is not None:
            s = (
                pl.DataFrame({"v": s, "ok": pl.Series(valid, dtype=pl.Boolean)})
                .select(pl.when(pl.col("ok")).then(pl.col("v")).alias(name))
                .to_series()
            )
        series.append(s)
    return pl.DataFrame(series)
