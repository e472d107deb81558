"""Cost of a scheduler decision in process and over the Batsim bridge.

The whole KTH-SP2 log is scheduled first come, first served three ways,
each through `slasim.run` (same settings, same store): by the built-in
`fcfs`; by python/examples/fcfs_scheduler.py in process; and, with
`--bridge PYBATSIM` (the `pybatsim` launcher of a venv with pybatsim 3.2.1,
see .ci/pip-install-batsim), by examples/batsim/fcfs.py, the same logic on
pybatsim's API, over ZeroMQ. Each figure is the median of `--runs` runs; the
time per exchange (one per instant with events, plus the first and the
last) is the run's time beyond the built-in `fcfs`'s, divided by the
exchanges, so it holds the scheduler's own Python and its transport.

    python benches/scheduler.py [--trace PATH] [--runs 5] [--bridge PYBATSIM]
"""

import argparse
import os
import pathlib
import statistics
import sys
import time

import slasim

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "examples"))
from fcfs_scheduler import FcfsScheduler  # noqa: E402


class Counted(FcfsScheduler):
    """The example, counting exchanges (on_no_more_events ends each)."""

    exchanges = 0

    def on_no_more_events(self):
        Counted.exchanges += 1
        super().on_no_more_events()


def median_seconds(runs, call):
    times = []
    for _ in range(runs):
        clock = time.perf_counter()
        call()
        times.append(time.perf_counter() - clock)
    return statistics.median(times), times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = pathlib.Path(os.environ.get("SLASIM_TRACE_DIR", ".")) / "swf" / "KTH-SP2-1996-2.1-cln.swf.gz"
    parser.add_argument("--trace", default=str(default))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bridge", help="the pybatsim launcher, to measure the bridge too")
    args = parser.parse_args()
    settings = dict(lenient=True, failures="none")

    slasim.run(args.trace, scheduler=Counted(), **settings)
    exchanges = Counted.exchanges
    builtin, bt = median_seconds(args.runs, lambda: slasim.run(args.trace, "fcfs", **settings))
    inproc, it = median_seconds(args.runs, lambda: slasim.run(args.trace, scheduler=FcfsScheduler(), **settings))
    print(f"exchanges: {exchanges}")
    print(f"built-in fcfs: {builtin:.3f} s  {[round(t, 3) for t in bt]}")
    print(f"in process:    {inproc:.3f} s  {[round(t, 3) for t in it]}  "
          f"{(inproc - builtin) / exchanges * 1e6:.1f} µs an exchange")
    if args.bridge:
        script = HERE.parent.parent / "examples" / "batsim" / "fcfs.py"
        command = f"{args.bridge} {script} -s tcp://127.0.0.1:{{port}} -v warning"
        bridge, brt = median_seconds(
            args.runs, lambda: slasim.run(args.trace, "batsim", scheduler_command=command, **settings)
        )
        print(f"bridge:        {bridge:.3f} s  {[round(t, 3) for t in brt]}  "
              f"{(bridge - builtin) / exchanges * 1e6:.1f} µs an exchange")


if __name__ == "__main__":
    main()
