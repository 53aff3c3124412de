#!/bin/sh
# test_report_html.sh DRIVER FIXTURE_DIR - make report.html from the fixture
# with `report` (DRIVER runs cmd_report) and open it in headless chromium:
# the DOM must hold the ranking rows and the chart elements, and a screenshot
# must show the drawn charts in their colours. Exit 77 (skip) without chromium.
set -u
driver=$1
fixture=$2

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "chromium not installed: skipped"
	exit 77
fi
py=$(command -v python3 || true)
[ -n "$py" ] || { echo "python3 not found"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/t" "$work/profile"
cp "$fixture/games.jsonl" "$work/t/"
"$driver" report --quiet "$work/t" || { echo "report failed"; exit 1; }

run_browser() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run \
		--user-data-dir="$work/profile" "$@" "file://$work/t/report.html" 2>"$work/browser.log"
}

fail=0
check_count() { # what pattern want
	got=$(grep -o "$2" "$work/dom.html" | wc -l)
	if [ "$got" -ne "$3" ]; then
		echo "DOM: $1: $got, want $3"
		fail=1
	fi
}

run_browser --dump-dom >"$work/dom.html" || { echo "chromium --dump-dom failed"; cat "$work/browser.log"; exit 1; }
bots=$(cut -d, -f1 "$fixture/expected_elo.csv" | tail -n +2 | wc -l)
check_count "ranking table" '<table id="ranking">' 1
check_count "ranking rows" '<tr><td>[0-9]*</td><td class="name">' "$bots"
check_count "Elo chart" '<svg id="elo-chart"' 1
check_count "Elo points" '<circle class="elo"' "$bots"
check_count "heat map cells" '<rect class="cell"' $((bots * (bots - 1)))
check_count "move-time bars" '<rect class="mean"' "$bots"
for name in $(cut -d, -f1 "$fixture/expected_elo.csv" | tail -n +2); do
	grep -q "<td class=\"name\">$name</td>" "$work/dom.html" || { echo "DOM: $name not in the ranking"; fail=1; }
done

run_browser --window-size=1000,2600 --screenshot="$work/shot.png" >/dev/null ||
	{ echo "chromium --screenshot failed"; cat "$work/browser.log"; exit 1; }
# Elo dots and interval lines, a heat-map cell (alpha 89% against foxtrot) and
# the diagonal, the move-time mean bars, p99 ticks and max dots.
"$py" "$(dirname "$0")/png_check.py" "$work/shot.png" \
	32,74,135 52,101,164 58,142,192:200 204,204,204:2000 115,210,22:500 245,121,0 204,0,0 || fail=1

[ "$fail" -eq 0 ] && echo "report.html renders: $bots ranking rows, charts drawn"
exit "$fail"
