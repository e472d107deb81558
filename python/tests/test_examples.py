"""The examples in python/examples run as shipped."""

import subprocess
import sys


def test_sweep_analysis(repo, tmp_path):
    store = tmp_path / "quick.sqlite"
    result = subprocess.run(
        [sys.executable, str(repo / "python" / "examples" / "sweep_analysis.py"), str(store)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert "52 points" in result.stdout
    assert "Gain under the PoF test" in result.stdout
    assert "heuristic-overbooking" in result.stdout
    assert store.is_file()


def test_policy_loops(repo, traces):
    """The SJF policy loop earns exactly RLScheduler's SJF baseline."""
    trace = traces / "swf" / "SDSC-SP2-1998-4.2-cln.swf.gz"
    result = subprocess.run(
        [sys.executable, str(repo / "python" / "examples" / "policy_loops.py"), str(trace), "3"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if "baselines" in line]
    assert [line.split(":")[0].strip() for line in lines] == ["random", "sjf"], result.stdout
    sjf = lines[1]
    mean = float(sjf.split("mean reward")[1].split()[0])
    baseline = float(sjf.split("SJF")[1].split(",")[0])
    assert mean == baseline, sjf
    assert "over 256 episodes of the vector environment" in result.stdout
