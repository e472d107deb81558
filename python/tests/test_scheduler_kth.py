"""The pybatsim-style FCFS of examples/fcfs_scheduler.py, run in-process on
the whole KTH-SP2 log, starts every job when the built-in `fcfs` does."""

import pathlib
import sys

import slasim

TRACE = "KTH-SP2-1996-2.1-cln.swf.gz"
EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def test_fcfs_in_process_gives_the_builtin_fcfs_starts_on_kth(traces):
    trace = str(traces / "swf" / TRACE)
    sys.path.insert(0, str(EXAMPLES))
    try:
        from fcfs_scheduler import FcfsScheduler
    finally:
        sys.path.remove(str(EXAMPLES))
    ours = slasim.run(trace, scheduler=FcfsScheduler(), lenient=True)
    builtin = slasim.run(trace, "fcfs", lenient=True)
    assert ours.height == builtin.height > 28_000
    assert ours["job"].to_list() == builtin["job"].to_list()
    pairs = zip(ours["job"].to_list(), ours["actual_start"].to_list(), builtin["actual_start"].to_list())
    different = [(j, a, b) for j, a, b in pairs if a != b]
    assert not different, f"{len(different)} jobs start elsewhere, the first: {different[:5]}"
    assert ours["outcome"].to_list() == builtin["outcome"].to_list()
