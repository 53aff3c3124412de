#!/usr/bin/env bash
# merge and status on shards run one after the other: what merge refuses (a
# shard of another tournament, a game recorded twice with different results,
# missing games unless --partial), what it accepts (the same tournament at
# other paths, a game recorded twice alike), the replays a merge carries (the
# packs its records name, shards of an older run with a file per game, a pack
# gone), status of partial and complete shards, and a resume of a shard or of
# the whole tournament into a shard's directory being refused. Needs only badbot.
#   test_e2e_merge.sh ARENA BADBOT
set -euo pipefail
arena=$1 badbot=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/skipbo-merge.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

tournament() { # name seed bot-directory
	cat <<EOF
{ "name": "$1", "bots": [
  { "name": "a", "command": ["$3/badbot", "good"] },
  { "name": "b", "command": ["$3/badbot", "good"] },
  { "name": "c", "command": ["$3/badbot", "good"] } ],
  "players": 2, "deals": 5, "duplicate": true, "rules": { "stock_size": 3 }, "seed": "$2" }
EOF
}
mkdir bin other
cp "$badbot" bin/badbot
cp "$badbot" other/badbot
tournament m 5 "$work/bin" >t.json
tournament m 5 "$work/other" >t-other-path.json
tournament m 6 "$work/bin" >t-other-seed.json

"$arena" run -q -j 1 --no-pin -o whole t.json # in schedule order, as merge writes
games=$(grep -c . whole/games.jsonl)
[ "$games" = 30 ] || fail "the whole tournament has $games games, expected 3 tables x 5 deals x 2"

# A bad --shard is bad usage (status 2), named, and nothing is played or written.
for bad in 0/3 4/3 3 x/3 1/0 2/3x; do
	status=0
	"$arena" run -q --no-pin --shard "$bad" t.json 2>err.txt || status=$?
	[ "$status" = 2 ] || fail "--shard $bad: exit status $status, expected 2"
	grep -q -- "--shard" err.txt || fail "--shard $bad: $(cat err.txt)"
done
[ ! -e results ] || fail "a bad --shard wrote $(ls results/m)"

"$arena" run -q --no-pin --shard 1/3 t.json
"$arena" run -q --no-pin --shard 2/3 t-other-path.json
"$arena" run -q --no-pin --shard 3/3 -o seed6 t-other-seed.json

# A directory of another tournament (another seed) is refused, named.
"$arena" merge out results/m/shard-1-of-3 seed6 2>err.txt && fail "merge of two seeds succeeded"
grep -q '"seed6" is not a shard of the tournament' err.txt || fail "wrong refusal: $(cat err.txt)"
[ ! -e out ] || fail "a refused merge wrote its output"

# Shard 3 missing: listed, refused, and written with --partial.
"$arena" merge out results/m/shard-*-of-3 2>err.txt && fail "merge with shard 3 missing succeeded"
grep -q "(shard 3 of 3)" err.txt || fail "missing games not named: $(cat err.txt)"
grep -q "games are missing; nothing written" err.txt || fail "no refusal: $(cat err.txt)"
"$arena" merge --partial part results/m/shard-*-of-3 >/dev/null 2>&1 || fail "merge --partial"
n=$(grep -c . part/games.jsonl)
"$arena" status part >status.txt && fail "status calls a partial merge complete"
grep -q "whole tournament: $n of 30 games" status.txt || fail "status: $(cat status.txt)"
# the whole tournament resumes a partial merge: it plays exactly the missing games
"$arena" run --no-pin --no-report -o part t.json >resume.txt
grep -q "resuming: $n of 30" resume.txt || fail "resume of a partial merge: $(cat resume.txt)"

# A shard directory refuses another shard and the whole tournament.
"$arena" run -q --no-pin --shard 2/3 -o results/m/shard-1-of-3 t.json 2>err.txt &&
	fail "shard 2 ran in shard 1's directory"
grep -q "holds a different tournament" err.txt || fail "wrong refusal: $(cat err.txt)"
"$arena" run -q --no-pin -o results/m/shard-1-of-3 t.json 2>/dev/null &&
	fail "the whole tournament ran in shard 1's directory"

"$arena" run -q --no-pin --shard 3/3 t.json
"$arena" status results/m/shard-*-of-3 >status.txt || fail "status: $(cat status.txt)"
grep -q "total: 30 of 30 games" status.txt || fail "status: $(cat status.txt)"
[ "$(grep -c ', complete' status.txt)" = 3 ] || fail "status: $(cat status.txt)"

# The same game in two directories: alike (timings aside) is merged once; different is refused.
mkdir -p again
cp -r results/m/shard-1-of-3 again/dup
python3 - again/dup/games.jsonl <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for r in lines:
    for t in r["time"]:
        t["mean_us"] += 1000
with open(sys.argv[1], "w") as f:
    f.writelines(json.dumps(r, separators=(",", ":")) + "\n" for r in lines)
EOF
"$arena" merge merged results/m/shard-*-of-3 again/dup >merge.txt || fail "merge with alike duplicates"
grep -q "recorded twice and alike" merge.txt || fail "merge: $(cat merge.txt)"
[ "$(grep -c . merged/games.jsonl)" = 30 ] || fail "merged holds $(grep -c . merged/games.jsonl) records"
"$arena" report -q merged
"$arena" report -q whole
python3 "$here/compare_results.py" whole merged

# merged records are the shards' lines byte for byte (their replays' locations stay valid);
# OUT holds exactly the packs they name, once each, and every game's replay re-checks
python3 - merged/games.jsonl results/m/shard-*-of-3/games.jsonl again/dup/games.jsonl <<'EOF'
import json, os, sys
lines = set()
for p in sys.argv[2:]:
    lines |= set(open(p).read().splitlines())
merged = open(sys.argv[1]).read().splitlines()
changed = [l for l in merged if l not in lines]
if changed:
    sys.exit(f"merged records differ from the shards' lines: {changed[0]}")
named = {json.loads(l)["replay"] for l in merged}
held = {"replays/" + n for n in os.listdir("merged/replays")}
if named != held or not all(n.endswith(".jsonl.zst") for n in named):
    sys.exit(f"merged/replays holds {sorted(held)}, its records name {sorted(named)}")
EOF
"$arena" replay --quiet merged >replay.txt || fail "replay merged: $(cat replay.txt)"
[ "$(grep -c ': ok$' replay.txt)" = 30 ] || fail "replay merged: $(cat replay.txt)"

# Shards of an older run, a replay file per game and no offsets, merge alike, also with
# shards of today's packs.
python3 - results/m/shard-*-of-3 <<'EOF'
import json, os, shutil, subprocess, sys
for d in sys.argv[1:]:
    old = "old-" + os.path.basename(d)
    os.makedirs(old + "/replays")
    shutil.copy(d + "/tournament.json", old)
    with open(d + "/games.jsonl") as f, open(old + "/games.jsonl", "w") as out:
        for line in f:
            r = json.loads(line)
            with open(d + "/" + r["replay"], "rb") as pack:
                pack.seek(r.pop("replay_offset"))
                text = subprocess.run(["zstd", "-dcq"], input=pack.read(), check=True,
                                      capture_output=True).stdout
            doc = text.splitlines()[r.pop("replay_line")] + b"\n"
            r["replay"] = "replays/%s.json.zst" % r["id"]
            with open(old + "/" + r["replay"], "wb") as g:
                g.write(subprocess.run(["zstd", "-cq"], input=doc, check=True,
                                       capture_output=True).stdout)
            out.write(json.dumps(r, separators=(",", ":")) + "\n")
EOF
"$arena" merge old-merged old-shard-*-of-3 >/dev/null || fail "merge of an older run's shards"
cat old-shard-*-of-3/games.jsonl | sort >old-lines.txt
sort old-merged/games.jsonl | cmp -s - old-lines.txt || fail "merged old records changed"
[ "$(ls old-merged/replays | wc -l)" = 30 ] || fail "old merged replays: $(ls old-merged/replays)"
"$arena" replay --quiet old-merged >replay.txt || fail "replay old-merged: $(cat replay.txt)"
[ "$(grep -c ': ok$' replay.txt)" = 30 ] || fail "replay old-merged: $(cat replay.txt)"
"$arena" merge mixed old-shard-1-of-3 results/m/shard-2-of-3 results/m/shard-3-of-3 >/dev/null ||
	fail "merge of an older shard with packs"
"$arena" replay --quiet mixed >replay.txt || fail "replay mixed: $(cat replay.txt)"
[ "$(grep -c ': ok$' replay.txt)" = 30 ] || fail "replay mixed: $(cat replay.txt)"

# A record whose pack is gone: refused, naming the game and the file; nothing written.
cp -r results/m/shard-2-of-3 nopack
rm nopack/replays/*
"$arena" merge lost results/m/shard-1-of-3 nopack results/m/shard-3-of-3 2>err.txt &&
	fail "merged records whose pack is gone"
grep -q 'its replay "nopack/replays/.*" is missing' err.txt || fail "wrong refusal: $(cat err.txt)"
[ ! -e lost/games.jsonl ] || fail "a refused merge wrote games.jsonl"

python3 - again/dup/games.jsonl <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
lines[0]["scores"][0] += 5
with open(sys.argv[1], "w") as f:
    f.writelines(json.dumps(r, separators=(",", ":")) + "\n" for r in lines)
EOF
"$arena" merge bad results/m/shard-*-of-3 again/dup 2>err.txt && fail "disagreeing duplicates merged"
grep -q "is recorded differently in" err.txt || fail "wrong refusal: $(cat err.txt)"
[ ! -e bad ] || fail "a refused merge wrote its output"

# A tournament.json whose seed is not a decimal string (strtoull would take "-1") is refused.
cp -r results/m/shard-1-of-3 negative
python3 - negative/tournament.json <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
t["seed"] = "-1"
json.dump(t, open(sys.argv[1], "w"))
EOF
"$arena" status negative 2>err.txt && fail "status took seed -1"
grep -q 'tournament.json": seed: expected a decimal string' err.txt || fail "seed: $(cat err.txt)"

# OUT must be new.
"$arena" merge merged results/m/shard-*-of-3 2>err.txt && fail "merge over an existing directory"
grep -q "merge writes a new directory" err.txt || fail "wrong refusal: $(cat err.txt)"
echo "PASS: merge and status"
