"""slasim from Python: runs, sweeps and stores as polars DataFrames,
in-process schedulers, and Gymnasium environments stepped in Rust.

See the book's page "From Python" (docs/src/guide/python.md).
"""

from slasim._slasim import Job, SchedulerHandle, SlasimError, version
from slasim._api import Store, read_trace, run, sweep

__all__ = ["Job", "SchedulerHandle", "SlasimError", "Store", "read_trace", "run", "sweep", "version"]
