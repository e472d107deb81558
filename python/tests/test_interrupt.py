"""Ctrl-C: a run stops promptly, raises KeyboardInterrupt, and keeps the
runs it finished (the command line's first Ctrl-C)."""

import signal
import subprocess
import sys
import textwrap
import time

import slasim

# 16 runs of the whole CTC-SP2 log (about a second each here), one at a time.
SETTINGS = dict(
    strategy=["heuristic-overbooking", "comprehensive-overbooking"],
    pof_max=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
    whole_log=True,
    oracle_pdfs=True,
    jobs=1,
)

SCRIPT = textwrap.dedent(
    """
    import sys, slasim
    print("started", flush=True)
    try:
        slasim.run(trace=sys.argv[1], db=sys.argv[2], **eval(sys.argv[3]))
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
        sys.exit(42)
    print("finished", flush=True)
    """
)


def test_sigint_stops_a_long_run(traces, tmp_path):
    trace = traces / "swf" / "CTC-SP2-1996-3.1-cln.swf.gz"
    db = tmp_path / "s.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(trace), str(db), repr(SETTINGS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "started"
    time.sleep(4)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    stopped = time.monotonic() - sent
    assert proc.returncode == 42, (out, err)
    assert "KeyboardInterrupt" in out
    # Promptly: the run in flight finishes (one, with jobs=1), no other
    # starts.
    assert stopped < 10, stopped
    store = slasim.Store(db)
    runs = store.query("SELECT run_id, count(*) AS jobs FROM jobs GROUP BY run_id")
    assert 0 < runs.height < 16
    # Every stored run is whole (the trace's jobs), so the same call resumes.
    assert runs["jobs"].n_unique() == 1 and runs["jobs"][0] > 70_000
