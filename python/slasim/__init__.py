"""slasim from Python: runs, sweeps and stores as polars DataFrames,
in-process schedulers, and Gymnasium environments stepped in Rust.

See the book's page "From Python" (docs/src/guide/python.md).
"""

from slasim._slasim import InvalidActionError, Job, SchedulerHandle, SlasimError, version
from slasim._api import Store, read_trace, run, sweep
from slasim import admission as _admission
from slasim import gym as _gym

# The Gymnasium environments: slasim/RLScheduler-v0, slasim/JobPicking-v0, slasim/SlaAdmission-v0.
_gym.register()
_admission.register()

__all__ = [
    "InvalidActionError",
    "Job",
    "SchedulerHandle",
    "SlasimError",
    "Store",
    "read_trace",
    "run",
    "sweep",
    "version",
]
