"""The package's functions: the command line's runs, sweeps, queries and
workloads, with its settings as keyword arguments and its messages."""

from __future__ import annotations

import json
import math
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
    sla_machine: Optional[Mapping[str, Any]] = None,
    **settings: Any,
) -> pl.DataFrame:
    """The run ``slasim run`` does, with its flags as keyword arguments
    (``--pof-max 0.3`` is ``pof_max=0.3``); returns its stored job table
    (the store's ``jobs`` view: one row per job of each run).

    ``sla_machine``: a machine of unlike nodes instead (or ``config``'s
    ``"sla_machine"`` key): the dict is the config's ``[sla_machine]``
    table (a GPU trace's pods and node list, or a ``slurm.conf`` with a
    sacct dump or the synthetic workload; the book's page "SLA planning on
    a GPU machine"). Every battery runs under each ``strategy`` (a strategy
    on the machine, or ``"slurm"``), or under the table's ``strategy``;
    ``trace`` is its ``trace``. Only ``jobs`` (threads), ``seed`` and ``db``
    are taken beside it. Returns the stored ``sla_machine_jobs`` of every
    point, each row with its point's ``strategy``, ``node_choice``,
    ``failures`` and ``battery``, points in the order they ran.

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
    if sla_machine is None and config is not None and isinstance(config, Mapping) and "sla_machine" in config:
        config = dict(config)
        sla_machine = config.pop("sla_machine")
        if config:
            raise SlasimError(
                f"slasim.run(config=…): beside sla_machine, {', '.join(sorted(config))} belong in its table"
            )
        config = None
    if sla_machine is not None:
        if scheduler is not None or config is not None:
            raise SlasimError("slasim.run(sla_machine=…) takes no scheduler and no other config")
        return _run_machine(sla_machine, trace, strategy, db, settings)
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


def _run_machine(
    table: Mapping[str, Any],
    trace: Optional[PathLike],
    strategy: Union[str, Iterable[str], None],
    db: Optional[PathLike],
    settings: Mapping[str, Any],
) -> pl.DataFrame:
    """``slasim.run(sla_machine=…)``: the table's points swept as one config
    (named ``slasim.run`` in the store), their jobs returned."""
    if not isinstance(table, Mapping):
        raise SlasimError("slasim.run(sla_machine=…) takes the [sla_machine] settings as a dict")
    other = sorted(set(settings) - {"jobs", "seed"})
    if other:
        raise SlasimError(
            f"slasim.run(sla_machine=…): {', '.join(other)} are [sla_machine] settings: give them in its dict"
        )
    table = dict(table)
    if trace is not None:
        table["trace"] = trace
    # Each strategy's batteries in turn: the first axis varies slowest.
    axes: dict[str, Any] = {}
    if strategy is not None:
        table.pop("strategy", None)
        axes["strategy"] = [strategy] if isinstance(strategy, str) else list(strategy)
    if "battery" not in table:
        axes["battery"] = "all"
    lines = ['name = "slasim.run"']
    if settings.get("seed") is not None:
        lines.append(f"seed = {_toml(settings['seed'], 'seed')}")
    lines.append("[sla_machine]")
    lines += [f"{_key(k)} = {_toml(v, 'sla_machine.' + str(k))}" for k, v in table.items()]
    lines += ["[[sweep]]", 'name = "run"', "[sweep.axes]"]
    lines += [f"{_key(k)} = {_toml(v, k)}" for k, v in axes.items()]
    text = "\n".join(lines) + "\n"

    def run_into(path: str) -> pl.DataFrame:
        words = _words({"jobs": settings.get("jobs"), "db": path})
        points = frame(_slasim.sweep_text("slasim.run", text, words))
        ids = points["point_id"].to_list()
        jobs = Store(path).query(
            "SELECT p.strategy, p.node_choice, p.failures, p.battery, j.* FROM sla_machine_jobs j "
            f"JOIN sla_machine_points p USING (point_id) WHERE j.point_id IN ({', '.join(map(str, ids))}) "
            "ORDER BY j.point_id, j.job"
        )
        order = pl.DataFrame({"point_id": ids, "_order": list(range(len(ids)))}, schema={"point_id": pl.Int64, "_order": pl.Int64})
        return jobs.join(order, on="point_id", how="left").sort(["_order", "job"]).drop("_order")

    if db is not None:
        return run_into(_text(db))
    with tempfile.TemporaryDirectory(prefix="slasim-run-") as tmp:
        return run_into(str(Path(tmp) / "run.sqlite"))


def _key(key: Any) -> str:
    """A TOML key, quoted."""
    return json.dumps(str(key))


def _toml(value: Any, where: str) -> str:
    """A setting's value as TOML: strings, paths, booleans, numbers, lists
    and dicts (inline tables); None or another type is refused, named."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, (str, os.PathLike)):
        return json.dumps(os.fspath(value))
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_toml(v, f'{where}.{k}')}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v, where) for v in value) + "]"
    raise SlasimError(f"slasim.run(sla_machine=…): {where} = {value!r} is not a setting's value")


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
