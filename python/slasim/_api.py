"""The package's functions: the command line's runs, sweeps, queries and
workloads, with its settings as keyword arguments and its messages."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Union

import polars as pl

from slasim import _slasim
from slasim._frame import frame
from slasim._slasim import SlasimError

PathLike = Union[str, "os.PathLike[str]"]


def _words(settings: Mapping[str, Any]) -> list[str]:
    """Keyword arguments as the command line's words: ``pof_max=0.3`` is
    ``--pof-max 0.3``, ``whole_log=True`` is ``--whole-log`` (False or None
    leaves the flag out), a list or tuple repeats the flag."""
    words: list[str] = []
    for key, value in settings.items():
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            words.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                words += [flag, _text(v)]
        else:
            words += [flag, _text(value)]
    return words


def _text(value: Any) -> str:
    if isinstance(value, float) and value == float("inf"):
        return "inf"
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def run(
    trace: Optional[PathLike] = None,
    strategy: Union[str, Iterable[str], None] = None,
    *,
    config: Optional[Mapping[str, Any]] = None,
    scheduler: Any = None,
    db: Optional[PathLike] = None,
    **settings: Any,
) -> pl.DataFrame:
    """The run ``slasim run`` does, with its flags as keyword arguments
    (``--pof-max 0.3`` is ``pof_max=0.3``); returns its stored job table
    (the store's ``jobs`` view: one row per job of each run).

    ``trace=None`` is the embedded synthetic workload, ``strategy=None``
    every strategy ``slasim run`` runs by default; ``config`` is a dict of
    settings, merged under the keyword arguments. ``scheduler`` is reserved
    for in-process Python schedulers. ``db=None`` stores the run
    in a temporary store, removed afterwards; with a path the run is stored
    there, as ``slasim run --db PATH`` does (and a run stored there already
    is read, not simulated again).

    ``scheduler``: an object whose callbacks make the decisions of the
    ``batsim`` strategy, in this process (see "In-process schedulers" in the
    book's page "From Python"). ``scheduler_name`` names it in the run's
    identity (default ``python:MODULE.CLASS``): give another name when the
    scheduler's code changes, or a run stored under the old one is read back.
    """
    if scheduler is not None:
        strategy = _scheduled_strategy(strategy)
        if settings.get("scheduler_command") is not None or settings.get("scheduler_endpoint") is not None:
            raise SlasimError("slasim.run(scheduler=…) is the scheduler: give no scheduler_command or scheduler_endpoint")
        if settings.get("scheduler_name") is None:
            kind = type(scheduler)
            settings = {**settings, "scheduler_name": f"python:{kind.__module__}.{kind.__qualname__}"}
        # The scheduler is called on this thread, one point at a time.
        if settings.get("jobs") not in (None, 1):
            raise SlasimError(
                "slasim.run(scheduler=…) calls the scheduler on this thread, one run at a time: give no jobs, or jobs=1"
            )
        settings = {**settings, "jobs": 1}
    if config is not None:
        if not isinstance(config, Mapping):
            raise SlasimError(
                "slasim.run(config=…) takes the settings as a dict (as keyword arguments do); "
                "to run an experiment config file use slasim.sweep(config)"
            )
        settings = {**config, **settings}
    words = []
    if trace is not None:
        words += ["--trace", _text(trace)]
    if strategy is not None:
        for s in [strategy] if isinstance(strategy, str) else strategy:
            words += ["--strategy", s]
    words += _words(settings)

    def run_into(path: str) -> pl.DataFrame:
        if scheduler is None:
            return frame(_slasim.run(words + ["--db", path]))
        return frame(_slasim.run_scheduled(words + ["--db", path], scheduler))

    if db is not None:
        return run_into(_text(db))
    with tempfile.TemporaryDirectory(prefix="slasim-run-") as tmp:
        return run_into(str(Path(tmp) / "run.sqlite"))


def _scheduled_strategy(strategy: Union[str, Iterable[str], None]) -> str:
    """The strategy of a run with an in-process scheduler: batsim's."""
    if strategy is None or strategy == "batsim" or list(strategy) == ["batsim"]:
        return "batsim"
    raise SlasimError(
        f"slasim.run(scheduler=…) runs the batsim strategy (the scheduler decides), not {strategy!r}"
    )


def sweep(
    config: PathLike,
    *,
    jobs: Optional[int] = None,
    db: Optional[PathLike] = None,
    **options: Any,
) -> pl.DataFrame:
    """``slasim sweep CONFIG --jobs N``: runs (or resumes) every point of the
    experiment config, stored in ``db`` (default ``slasim.sqlite``, or
    ``slasim.shard-i-of-N.sqlite`` with ``shard="i/N"``, as the command
    line's), and returns the stored points with their metrics: one row per
    point, from the table the report reads (``points`` for single-cluster
    configs, ``grid_points`` for Grid ones, ``provision_points`` for
    provisioning and pricing ones), in the config's order. Ctrl-C stops
    the dispatch of points; the points finished are kept, and the same call
    resumes.
    """
    words = [_text(config)] + _words({"jobs": jobs, "db": db, **options})
    return frame(_slasim.sweep(words))


class Store:
    """A slasim store (SQLite), read through ``slasim query``'s read-only guard."""

    def __init__(self, path: PathLike = "slasim.sqlite"):
        self.path = Path(path)

    def query(self, sql: str) -> pl.DataFrame:
        """One read-only SQL statement; a statement that writes, or one
        SQLite cannot prepare, raises SlasimError with the command line's
        message."""
        return frame(_slasim.query(str(self.path), sql))

    def export(self, dir: PathLike, *, force: bool = False) -> dict[str, int]:
        """``slasim export``: every table as ``dir/<table>.parquet``, plus
        ``provenance.parquet`` (settings, code version, trace and seed of every
        point). Written beside ``dir`` and renamed when complete; an existing
        ``dir`` raises SlasimError unless ``force``. Returns the rows of each file."""
        return dict(_slasim.export(str(self.path), _text(dir), force))

    def tables(self) -> list[str]:
        """The store's tables and views, by name."""
        names = self.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")
        return names["name"].to_list()

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"


def read_trace(path: Optional[PathLike] = None, *, prepared: bool = True, **settings: Any) -> pl.DataFrame:
    """The jobs of a workload: ``path=None`` is the embedded synthetic one.

    ``prepared=True`` prepares it as ``slasim run`` does with the same
    settings (``slasim trace prepare``: ``input_jobs``, ``batteries``,
    ``target_load``, ``whole_log``, …): one row per job of each battery, with
    its SLA (release, deadline, fee, penalty). ``prepared=False`` is the
    whole log as read: one row per SWF record, SWF's fields (only
    ``lenient`` and ``seed`` apply).
    """
    words = []
    if path is not None:
        words += ["--trace", _text(path)]
    if not prepared:
        other = sorted(set(settings) - {"lenient", "seed"})
        if other:
            raise SlasimError(
                f"read_trace(prepared=False) reads the whole log as it is; {', '.join(other)} "
                "prepare it: pass prepared=True"
            )
    words += _words(settings)
    return frame(_slasim.read_trace(words, prepared))
