"""slasim from Python: runs, sweeps and stores as polars DataFrames,
in-process schedulers, and Gymnasium environments stepped in Rust.

See the book's page "From Python" (docs/src/guide/python.md).
"""

from slasim._slasim import SlasimError, version
from slasim import admission as _admission  # registers slasim/SlaAdmission-v0

__all__ = ["SlasimError", "version"]
