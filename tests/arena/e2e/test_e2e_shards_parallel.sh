#!/usr/bin/env bash
# A tournament split into 4 shards run by GNU parallel with -j 2 (the recipe of
# arena/CLUSTER.md): shard 2 is killed with SIGKILL in its first run, then
# re-run with --resume-failed from the job log and resumes; status over the
# shards, merge, and the merged directory's records and report equal those of
# the same tournament run on one machine (apart from timings). `report` over
# the shard directories ranks the same.
#   test_e2e_shards_parallel.sh ARENA BADBOT EASY MEDIUM HARD
# Exit 77 (skipped) when GNU parallel is not installed, saying so.
set -euo pipefail
arena=$1 badbot=$2 easy=$3 medium=$4 hard=$5
here=$(cd "$(dirname "$0")" && pwd)

if ! parallel --version 2>/dev/null | grep -q "GNU parallel"; then
	echo "SKIPPED: GNU parallel is not installed (Debian package \"parallel\"; ./setup.sh test installs it)"
	exit 77
fi
work=$(mktemp -d /tmp/skipbo-shards-parallel.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >t.json <<EOF
{ "name": "shards", "bots": [
  { "name": "easy", "command": ["$easy"] },
  { "name": "medium", "command": ["$medium"] },
  { "name": "hard", "command": ["$hard"] },
  { "name": "good", "command": ["$badbot", "good"] } ],
  "players": 2, "deals": 8, "duplicate": true, "rules": { "stock_size": 5 }, "seed": "2024" }
EOF

# One machine: every game.
# -j 1: the records in schedule order, as merge writes them (a report's intervals depend on the order)
"$arena" run -q -j 1 --no-pin -o whole t.json

# A shard's job; shard 2 is killed (SIGKILL) once it has recorded 3 games, in its first run only.
cat >shard.sh <<EOF
#!/usr/bin/env bash
k=\$1
if [ "\$k" = 2 ] && [ ! -e killed ]; then
	touch killed
	"$arena" run -q --no-pin --no-report --shard \$k/4 t.json &
	pid=\$!
	for _ in \$(seq 600); do
		[ "\$(cat results/shards/shard-2-of-4/games.jsonl 2>/dev/null | wc -l)" -ge 3 ] && break
		sleep 0.02
	done
	kill -9 \$pid
	wait \$pid || true
	wc -l <results/shards/shard-2-of-4/games.jsonl >killed
	exit 137
fi
exec "$arena" run --no-pin --no-report --shard \$k/4 t.json
EOF
chmod +x shard.sh

if parallel -j 2 --joblog jobs.log ./shard.sh ::: 1 2 3 4 >first.out 2>&1; then
	fail "the first parallel run succeeded although shard 2 was killed"
fi
at_kill=$(cat killed)
games2=$(grep -c . whole/games.jsonl)
[ "$at_kill" -ge 3 ] && [ "$at_kill" -lt $((games2 / 4)) ] ||
	fail "shard 2 had $at_kill games when killed; expected at least 3 and not all"
"$arena" status results/shards/shard-*-of-4 >status1.out && fail "status says complete: $(cat status1.out)"
grep -q "shard 2 of 4: $at_kill of " status1.out || fail "status of the killed shard: $(cat status1.out)"

# The failed job again, from the job log; it resumes where it was killed.
parallel -j 2 --joblog jobs.log --resume-failed ./shard.sh ::: 1 2 3 4 >second.out 2>&1 ||
	fail "re-running the failed shard: $(cat second.out)"
grep -q "resuming: $at_kill of " second.out || fail "shard 2 did not resume: $(cat second.out)"
[ "$(grep -c 'resuming' second.out)" = 1 ] || fail "more than the failed shard ran again"

"$arena" status results/shards/shard-*-of-4 >status2.out || fail "status: $(cat status2.out)"
grep -q "total: $games2 of $games2 games" status2.out || fail "status total: $(cat status2.out)"

# Merge with a shard missing is refused and names what is missing.
if "$arena" merge partial results/shards/shard-1-of-4 results/shards/shard-3-of-4 2>merge1.err; then
	fail "merge without shards 2 and 4 succeeded"
fi
grep -q "missing t.*(shard 2 of 4)" merge1.err || fail "missing games not listed: $(cat merge1.err)"
[ ! -e partial ] || fail "a refused merge wrote its output"

"$arena" merge merged results/shards/shard-*-of-4 >merge.out || fail "merge: $(cat merge.out)"
"$arena" report -q merged
"$arena" report -q whole
python3 "$here/compare_results.py" whole merged
python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for t in (a, b):
    for key in ("output", "concurrency", "started"):
        t.pop(key)
sys.exit(a != b)' whole/tournament.json merged/tournament.json ||
	fail "merged tournament.json differs from the one-machine run's (apart from output, -j and the start)"
# merged/replays holds exactly the packs its records name, and every game's replay re-checks
named=$(python3 -c 'import json, sys
print("\n".join(sorted({json.loads(l)["replay"] for l in open(sys.argv[1])})))' merged/games.jsonl)
[ "$named" = "$(cd merged && ls replays/* | sort)" ] || fail "merged packs: $(ls merged/replays)"
"$arena" replay --quiet merged >replay.out || fail "a merged replay does not re-check"
[ "$(grep -c ': ok$' replay.out)" = "$games2" ] || fail "merged replays: $(grep -c ': ok$' replay.out)"

# report over the shard directories, without merging: the same ranking.
mkdir byshards
"$arena" report -q -o byshards results/shards/shard-*-of-4
mkdir -p byshards_all && cat results/shards/shard-*-of-4/games.jsonl >byshards_all/games.jsonl
cp byshards/ratings.json byshards_all/
python3 "$here/compare_results.py" --ranking whole byshards_all

# A resume of the merged directory with the whole tournament finds every game played.
"$arena" run --no-pin --no-report -o merged t.json >resume.out
grep -q "resuming: $games2 of $games2" resume.out || fail "resume of merged: $(cat resume.out)"
echo "PASS: 4 shards by GNU parallel, one killed and re-run, merged = one machine ($games2 games)"
