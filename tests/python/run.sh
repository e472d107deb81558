#!/usr/bin/env bash
# The Python package's tests: builds the package with `pip install ./python`
# into a virtual environment at target/python-venv and runs pytest on
# python/tests (they compare with the slasim binary of target/release, which
# `cargo test --release` builds first, and read the real traces).
#
# Usage: tests/python/run.sh [--install]
# `--install` only installs the test prerequisites from PyPI (pytest, polars,
# numpy, gymnasium, pandas, pyarrow, duckdb, minari, pillow) and exits 0 when they are there. The
# package itself is built by the check, with CARGO_TARGET_DIR=target so that
# it shares the release build of the Rust tests. When the prerequisites
# cannot be installed the check is skipped, or fails under CI=true (see
# .ci/skip.sh; SLASIM_CI_UNAVAILABLE=python makes it so).
set -euo pipefail
cd "$(dirname "$0")/../.."
. .ci/skip.sh
venv="$PWD/target/python-venv"
log="${TMPDIR:-/tmp}/slasim-pip-install-python.log"
py="$venv/bin/python"
why=""
# Minari 0.5.4 imports pillow without declaring it.
requirements=(pytest polars numpy gymnasium pandas pyarrow duckdb minari==0.5.4 pillow)
check() { [[ -x "$py" ]] && "$py" -c 'import pytest, polars, numpy, gymnasium, pandas, pyarrow, duckdb, minari, PIL' >/dev/null 2>&1; }
# Installs the prerequisites when missing; else sets $why and fails.
prerequisites() {
    if unavailable python; then
        why="SLASIM_CI_UNAVAILABLE names python: the Python test prerequisites treated as not installable"; return 1
    fi
    check && return 0
    if ! command -v python3 >/dev/null 2>&1; then
        why="no python3 on this machine: cannot run the Python package's tests"; return 1
    fi
    mkdir -p target
    if ! { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet --upgrade pip &&
        "$venv/bin/pip" install --quiet "${requirements[@]}"; } >>"$log" 2>&1 || ! check; then
        why="could not install ${requirements[*]} into $venv (needs python3-venv and PyPI; pip's output: $log)"; return 1
    fi
}
if ! prerequisites; then
    if [[ "${1:-}" == --install ]]; then echo "$why"; exit 1; fi
    skip_and_exit "python tests" "$why"
fi
if [[ "${1:-}" == --install ]]; then
    echo "python tests: $("$py" --version), $("$py" -c 'import polars; print("polars", polars.__version__)')"
    exit 0
fi
# A fresh build of the package as a user installs it (pip fetches maturin).
start=$SECONDS
CARGO_TARGET_DIR="$PWD/target" "$venv/bin/pip" install --quiet --force-reinstall --no-deps ./python
echo "python tests: pip install ./python took $((SECONDS - start)) s"
export SLASIM_BIN="${SLASIM_BIN:-$PWD/target/release/slasim}"
[[ -x "$SLASIM_BIN" ]] || cargo build --release --locked --bin slasim
# From outside python/ so that the installed package, not the sources, is imported.
cd target
"$py" -m pytest -q ../python/tests
