"""Bad input: a SlasimError with the message the command line prints, and
nothing stored."""

import pytest

import slasim
from conftest import cli

MALFORMED = """; MaxProcs: 16
1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1
2 10 0 100 4 -1 -1 4 200 -1 1 1 1 1
"""

BAD_CONFIG = """name = "bad"
[workload.synthetic]
seed = 1
[[sweep]]
[sweep.axes]
strategy = ["no-such-strategy"]
"""


def cli_error(slasim_bin, *args):
    result = cli(slasim_bin, *args, check=False)
    assert result.returncode == 1
    return result.stderr.strip()


def run_cases(tmp_path):
    bad = tmp_path / "bad.swf"
    bad.write_text(MALFORMED)
    missing = tmp_path / "missing.swf"
    return [
        ("unknown setting", dict(foo=1), ["--foo", "1"]),
        ("value not a number", dict(pof_max="x"), ["--pof-max", "x"]),
        ("value not in the list", dict(placement="worst-fit"), ["--placement", "worst-fit"]),
        ("unknown strategy", dict(strategy="nope"), ["--strategy", "nope"]),
        ("value out of range", dict(pof_max=1.5), ["--pof-max", "1.5"]),
        ("bad split", dict(batteries=30, battery_size=1000), ["--batteries", "30", "--battery-size", "1000"]),
        ("missing trace", dict(trace=missing), ["--trace", missing]),
        ("malformed trace", dict(trace=bad), ["--trace", bad]),
    ]


@pytest.mark.parametrize("case", range(8))
def test_run_errors_are_the_command_lines(case, slasim_bin, tmp_path):
    name, kwargs, flags = run_cases(tmp_path)[case]
    db = tmp_path / "s.sqlite"
    expected = cli_error(slasim_bin, "run", *flags, "--db", db)
    assert expected.startswith("error: "), name
    with pytest.raises(slasim.SlasimError) as e:
        slasim.run(db=db, **kwargs)
    assert "error: " + str(e.value) == expected, name
    # Nothing stored for a failed run.
    assert not db.exists() or slasim.Store(db).query("SELECT count(*) AS n FROM runs")["n"][0] == 0


def test_malformed_trace_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.swf"
    bad.write_text(MALFORMED)
    with pytest.raises(slasim.SlasimError, match=r"bad\.swf:3: expected 18 fields"):
        slasim.run(trace=bad, strategy="conservative-backfilling")


def test_config_errors_are_the_command_lines(slasim_bin, tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text(BAD_CONFIG)
    db = tmp_path / "s.sqlite"
    expected = cli_error(slasim_bin, "sweep", config, "--db", db)
    with pytest.raises(slasim.SlasimError) as e:
        slasim.sweep(config, db=db)
    assert "error: " + str(e.value) == expected
    assert "no-such-strategy" in str(e.value)
    assert not db.exists()


def test_missing_config(slasim_bin, tmp_path):
    expected = cli_error(slasim_bin, "sweep", tmp_path / "none.toml")
    with pytest.raises(slasim.SlasimError) as e:
        slasim.sweep(tmp_path / "none.toml")
    assert "error: " + str(e.value) == expected


def test_sweep_options_that_print_are_refused(repo):
    with pytest.raises(slasim.SlasimError, match="dry-run"):
        slasim.sweep(repo / "configs" / "quick.toml", dry_run=True)


def test_read_trace_errors(slasim_bin, tmp_path):
    expected = cli_error(slasim_bin, "trace", "prepare", "--trace", tmp_path / "missing.swf")
    with pytest.raises(slasim.SlasimError) as e:
        slasim.read_trace(tmp_path / "missing.swf")
    assert "error: " + str(e.value) == expected
