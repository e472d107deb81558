#!/usr/bin/env bash
# Opens a slasim HTML report in headless Chromium and checks that every table
# and plot the report lists is present in the rendered page; saves a
# screenshot next to it.
#
# Usage: tests/browser/check_report.sh [REPORT_DIR]
#        tests/browser/check_report.sh --install
# Without REPORT_DIR, it runs configs/quick.toml (single-cluster), the Grid
# configs coreservation-6.8 and -6.9, and short provisioning and pricing runs
# on CTC-SP2 into one fresh store and checks its report, in
# target/browser-check/. It uses target/release/slasim (building it if missing).
# Chromium is Debian's `chromium`, installed with .ci/apt-install when
# missing; `--install` only does that (exit 0 when Chromium is there). When
# it cannot be installed the check is skipped, or fails under CI=true (see
# .ci/skip.sh; SLASIM_CI_UNAVAILABLE=browser makes it so).
set -euo pipefail
cd "$(dirname "$0")/../.."
. .ci/skip.sh

browser="" why=""
# Finds Chromium, installing it when missing; else sets $why and fails.
prerequisites() {
    local candidate out
    if unavailable browser; then
        why="SLASIM_CI_UNAVAILABLE names browser: Chromium treated as not installable"; return 1
    fi
    for candidate in chromium chromium-browser; do
        if command -v "$candidate" >/dev/null 2>&1; then browser="$candidate"; return 0; fi
    done
    if ! out="$(.ci/apt-install chromium 2>&1)"; then
        why="Chromium is not installed (${out:-.ci/apt-install chromium failed})"; return 1
    fi
    command -v chromium >/dev/null 2>&1 || { why="chromium is still missing after .ci/apt-install chromium"; return 1; }
    browser=chromium
}
if ! prerequisites; then
    if [[ "${1:-}" == --install ]]; then echo "$why"; exit 1; fi
    skip_and_exit "browser check" "$why"
fi
if [[ "${1:-}" == --install ]]; then echo "browser check: $($browser --version 2>/dev/null | head -1)"; exit 0; fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# check REPORT_DIR: every listed table and plot rendered, and a screenshot.
check() {
report="$(cd "$1" && pwd)"
index="$report/index.html"
[[ -f "$index" ]] || { echo "browser check FAILED: $index does not exist"; return 1; }

flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --user-data-dir="$work/profile")
# The DOM as the browser built it (not the file's text), then a screenshot.
# Headless Chromium in a container now and then crashes at start-up
# (SIGSEGV before it loads anything): such a crash is retried, twice at most.
for attempt in 1 2 3; do
    status=0
    timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$index" >"$work/dom.html" 2>"$work/chromium.log" || status=$?
    [[ $status == 0 ]] && break
    if [[ $attempt == 3 || $status != 139 ]]; then
        echo "browser check FAILED: chromium could not load $index (exit $status, attempt $attempt)"
        cat "$work/chromium.log"; return 1
    fi
    echo "chromium crashed (exit $status) on attempt $attempt; retrying"
    rm -rf "$work/profile"
done
screenshot="$report/screenshot.png"
timeout 120 "$browser" "${flags[@]}" --window-size=1200,2400 --hide-scrollbars --screenshot="$screenshot" \
    "file://$index" >>"$work/chromium.log" 2>&1 || true

listed() { # the ids in <meta name="$1" content="a,b,…">
    sed -n "s/.*<meta name=\"$1\" content=\"\([^\"]*\)\".*/\1/p" "$work/dom.html" | tr ',' '\n' | sed '/^$/d'
}
# One element per line, so each table or figure can be checked on its own.
tr -d '\n' <"$work/dom.html" | sed 's/<table /\n<table /g; s/<figure /\n<figure /g; s/<\/table>/<\/table>\n/g; s/<\/figure>/<\/figure>\n/g' >"$work/elements"

failures=0
tables=0
while read -r id; do
    tables=$((tables + 1))
    element="$(grep -F "data-table=\"$id\"" "$work/elements" || true)"
    rows="$( (grep -o '<tr>' <<<"$element" || true) | wc -l)"
    if [[ -z "$element" || "$rows" -lt 2 ]]; then
        echo "MISSING table $id (rows: $rows)"; failures=$((failures + 1))
    else
        echo "ok  table $id: $((rows - 1)) rows"
    fi
done < <(listed slasim-tables)
plots=0
while read -r id; do
    plots=$((plots + 1))
    element="$(grep -F "data-plot=\"$id\"" "$work/elements" || true)"
    if [[ -z "$element" ]] || ! grep -q '<svg' <<<"$element" || ! grep -q '<polyline\|<path\|<circle' <<<"$element"; then
        echo "MISSING plot $id"; failures=$((failures + 1))
    else
        echo "ok  plot $id"
    fi
done < <(listed slasim-plots)

gantts=0
while read -r id; do
    gantts=$((gantts + 1))
    element="$(grep -F "data-gantt=\"$id\"" "$work/elements" || true)"
    bars="$( (grep -o '<rect class="bar' <<<"$element" || true) | wc -l)"
    if [[ -z "$element" || "$bars" -lt 1 ]]; then
        echo "MISSING gantt $id (bars: $bars)"; failures=$((failures + 1))
    else
        echo "ok  gantt $id: $bars bars"
        page="$report/plots/$id.html"
        timeout 120 "$browser" "${flags[@]}" --window-size=1300,900 --hide-scrollbars \
            --screenshot="$report/$id.png" "file://$page" >>"$work/chromium.log" 2>&1 || true
        [[ -s "$report/$id.png" ]] || { echo "MISSING screenshot of gantt $id"; failures=$((failures + 1)); }
    fi
done < <(listed slasim-gantts)

if [[ "$tables" -eq 0 || "$plots" -eq 0 ]]; then
    echo "browser check FAILED: the page lists $tables tables and $plots plots"; return 1
fi
if [[ ! -s "$screenshot" ]]; then
    echo "browser check FAILED: no screenshot"; cat "$work/chromium.log"; return 1
fi
if [[ "$failures" -gt 0 ]]; then
    echo "browser check FAILED: $failures of $((tables + plots)) elements missing in $index"; return 1
fi
echo "report $report passed: $tables tables, $plots plots and $gantts Gantt charts rendered by $("$browser" --version 2>/dev/null | head -1); screenshot $screenshot"
}

if [[ $# -ge 1 ]]; then
    check "$1"
    exit
fi
[[ -x target/release/slasim ]] || cargo build --release --locked
rm -rf target/browser-check && mkdir -p target/browser-check
# One store holding all four point kinds: single-cluster (quick), Grid
# (coreservation-6.8 and -6.9), provisioning (greedy and MOGA on CTC-SP2) and
# pricing (five days of CTC-SP2); one report of it.
db=target/browser-check/all.sqlite
for config in quick coreservation-6.8 coreservation-6.9; do
    target/release/slasim sweep "configs/$config.toml" --db "$db" --no-progress
done
ctc=(--trace CTC-SP2-1996-3.1-cln.swf.gz --capacity 430)
# A CTC-SP2 battery with node failures, for its Gantt chart.
target/release/slasim run --trace CTC-SP2-1996-3.1-cln.swf.gz --strategy heuristic-overbooking --pof-max 0.3 \
    --batteries 1 --battery-size 400 --failures poisson --seed 3 --db "$db" >/dev/null
for method in greedy moga; do
    target/release/slasim provision run --method "$method" "${ctc[@]}" --submissions 4 \
        --alpha 0 --alpha 0.5 --alpha 1 --db "$db" >/dev/null
done
target/release/slasim provision price "${ctc[@]}" --days 5 --alpha 0 --alpha 0.5 --alpha 1 --db "$db" >/dev/null
target/release/slasim report --db "$db" --out target/browser-check/all >/dev/null
check target/browser-check/all
for table in aggregates grid-summary provisioning pricing; do
    grep -q "data-table=\"$table\"" target/browser-check/all/index.html \
        || { echo "browser check FAILED: the report has no $table table"; exit 1; }
done
# Gantt charts of the synthetic and CTC-SP2 runs, a Grid run and a provisioning run.
count="$(sed -n 's/.*<meta name="slasim-gantts" content="\([^"]*\)".*/\1/p' target/browser-check/all/index.html | tr ',' '\n' | sed '/^$/d' | wc -l)"
[[ "$count" -ge 4 ]] || { echo "browser check FAILED: $count Gantt charts, expected 4"; exit 1; }
echo "browser check passed: one report of a store holding single-cluster, Grid, provisioning and pricing points"
