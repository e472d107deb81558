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
