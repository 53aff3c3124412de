#!/bin/sh
# test_report_golden.sh ARENA GOLDEN_DIR RATING_FIXTURE_DIR [--update]
#
# The report files of fixed records are the committed ones, byte for byte:
# `skipbo-arena report` of each case (GOLDEN_DIR/faults: a round robin with
# faults; GOLDEN_DIR/gauntlet: a 3-player gauntlet; the rating fixture: 1,800
# records of 2 to 4 players) gives GOLDEN_DIR/expected/CASE/{report.md,
# report.html,ratings.csv,ratings.json}.expected. Only the two lines of report.html that
# name the clock and the version ("last game recorded", "report made") are
# masked. After a deliberate change to a report, regenerate the expected files
# with --update and review the diff:
#   tests/arena/records/test_report_golden.sh build/arena/skipbo-arena \
#     tests/arena/records/golden tests/arena/ratings/fixture --update
set -u
arena=$1 golden=$2 fixture=$3 update=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

mask() { # file
	sed -e 's#^<dt>last game recorded</dt><dd>.*#<dt>last game recorded</dt><dd>(masked)</dd>#' \
	    -e 's#^<dt>report made</dt><dd>.*#<dt>report made</dt><dd>(masked)</dd>#' "$1"
}

for case in faults gauntlet fixture; do
	# the directory's name is in the reports: the same one every time
	dir=$work/$case/tournament
	mkdir -p "$dir"
	if [ "$case" = fixture ]; then
		cp "$fixture/games.jsonl" "$dir/"
	else
		cp "$golden/$case/games.jsonl" "$golden/$case/tournament.json" "$dir/"
	fi
	(cd "$work/$case" && "$arena" report --quiet tournament) || { echo "$case: report failed"; fail=1; continue; }
	mkdir -p "$golden/expected/$case"
	for f in report.md report.html ratings.csv ratings.json; do
		mask "$dir/$f" >"$work/$case/$f.masked"
		if [ "$update" = --update ]; then
			cp "$work/$case/$f.masked" "$golden/expected/$case/$f.expected"
		elif ! cmp -s "$work/$case/$f.masked" "$golden/expected/$case/$f.expected"; then
			echo "$case/$f differs from the golden file:"
			diff "$golden/expected/$case/$f.expected" "$work/$case/$f.masked" | head -20
			fail=1
		fi
	done
done
[ "$fail" = 0 ] && echo "reports match the golden files"
exit "$fail"
