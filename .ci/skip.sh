# shellcheck shell=bash
# Sourced by .ci/run, the installers in .ci/ and the check scripts in tests/:
# what a check does when its prerequisites are missing and cannot be installed.
#
# Outside CI it is skipped and says so; under CI (the variable CI set to
# anything but "", "0" or "false", as CI services set it) it is a failure: a
# green CI run means every check ran. Each skip is appended to
# $SLASIM_SKIP_LOG when set; .ci/run prints that file last.
#
# SLASIM_CI_UNAVAILABLE=pybatsim,browser,book,slurm,slurm-accounting,slurm-cluster,python (or
# `all`) makes those checks treat their prerequisites as missing and
# uninstallable, to try these paths in seconds without uninstalling anything.

# True under CI.
in_ci() { [[ -n "${CI:-}" && "${CI}" != 0 && "${CI,,}" != false ]]; }

# unavailable CHECK: true when SLASIM_CI_UNAVAILABLE names CHECK (or is `all`).
unavailable() {
    local list=",${SLASIM_CI_UNAVAILABLE:-},"
    [[ "$list" == *",$1,"* || "$list" == *",all,"* ]]
}

# skip CHECK REASON: says CHECK did not run and why, and records it.
# Status 0 outside CI, 1 under CI.
skip() {
    local verdict=SKIPPED status=0
    if in_ci; then verdict=FAILED status=1; fi
    echo "$1 $verdict: $2"
    if ((status)); then echo "($1: CI=$CI, so a check that cannot run is a failure)"; fi
    if [[ -n "${SLASIM_SKIP_LOG:-}" ]]; then printf '%-8s %s: %s\n' "$verdict" "$1" "$2" >>"$SLASIM_SKIP_LOG"; fi
    return "$status"
}

# skip_and_exit CHECK REASON: skip, then exit 0 outside CI, 1 under CI.
skip_and_exit() {
    skip "$@" && exit 0
    exit 1
}
