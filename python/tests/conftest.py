"""Shared fixtures: the repository, the `slasim` binary the Python results
are compared with, and the traces directory.

A prerequisite that is missing makes its tests fail under CI (CI set, as
.ci/skip.sh reads it) and skip elsewhere: a green CI run means they ran.
"""

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# The traces directory as an absolute path, for the tests and for the package
# itself: slasim's default (`../shared/data/traces`) is relative to the working
# directory, and the tests run from target/ (so that the installed package is
# imported), where it would name nothing. A run with LANL failures reads the
# failure log from here too.
os.environ["SLASIM_TRACE_DIR"] = str(
    Path(os.environ.get("SLASIM_TRACE_DIR", REPO.parent / "shared" / "data" / "traces")).resolve()
)


def in_ci() -> bool:
    value = os.environ.get("CI", "")
    return value not in ("", "0") and value.lower() != "false"


def missing(what: str):
    """Fails under CI, skips elsewhere."""
    if in_ci():
        pytest.fail(f"{what} (CI is set: a test that cannot run is a failure)")
    pytest.skip(what)


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def slasim_bin() -> Path:
    """The command line built from the same sources (`cargo build --release`;
    `SLASIM_BIN` overrides)."""
    path = Path(os.environ.get("SLASIM_BIN", REPO / "target" / "release" / "slasim"))
    if not path.is_file():
        found = shutil.which("slasim")
        if found is None:
            missing(f"{path}: no slasim binary (run `cargo build --release --locked` first)")
        path = Path(found)
    return path


@pytest.fixture(scope="session")
def traces() -> Path:
    """The traces directory (SLASIM_TRACE_DIR, else ../shared/data/traces
    beside the repository)."""
    path = Path(os.environ["SLASIM_TRACE_DIR"])
    if not (path / "swf").is_dir():
        missing(f"{path}/swf: no traces (set SLASIM_TRACE_DIR)")
    return path


def cli(slasim_bin: Path, *args, check=True, cwd=None) -> subprocess.CompletedProcess:
    """Runs the command line; its output as text."""
    return subprocess.run([str(slasim_bin), *map(str, args)], capture_output=True, text=True, check=check, cwd=cwd)


def sqlite_rows(db: Path, sql: str) -> list[tuple]:
    """Rows straight from SQLite (not through slasim), for comparisons."""
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def sqlite_columns(db: Path, sql: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [d[0] for d in conn.execute(sql).description]
