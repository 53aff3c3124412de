#!/usr/bin/env bash
# Scale of shards, merge and report: a 64-bot round robin of the minimal bot
# (tests/arena/bench_bot; 2 players, duplicate deals: 2,016 tables, 4,032
# games a deal) split into 8 shards.
#   bash tests/arena/bench_shards.sh BUILD [WORKDIR]
#
# 1. Plays 3 deals (12,096 games, stock 1) for real: the 8 shards one after
#    the other, each with -j 2.
# 2. For 100k and 1M records, makes larger shard directories of the same
#    tournament with more deals by copying those records to the later deals
#    (id and deal relabelled, each kept in the shard the partition gives it;
#    the replay packs they name hard-linked), so that merge and report read and write as many
#    records, replays and bytes as a tournament of that size would.
# 3. For 10k (the real shards), 100k and 1M: time and peak RSS of `merge`,
#    of `report` of the merged directory, and of `report` over the 8 shard
#    directories (/usr/bin/time).
set -euo pipefail
build=$(cd "$1" && pwd)
arena=$build/arena/skipbo-arena
bot=$build/tests/arena/bench_bot
work=${2:-$(mktemp -d /tmp/skipbo-bench-shards.XXXXXX)}
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cd "$work"

tournament() { # deals
	python3 - "$bot" "$1" <<'EOF'
import json, sys
bots = [{"name": "b%02d" % i, "command": [sys.argv[1]]} for i in range(64)]
print(json.dumps({"name": "scale", "bots": bots, "players": 2, "deals": int(sys.argv[2]),
                  "duplicate": True, "rules": {"stock_size": 1}, "seed": "1"}))
EOF
}
measure() { # label command...
	/usr/bin/time -f "%e %M" -o time.txt "${@:2}" >/dev/null
	read -r secs kib <time.txt
	printf "%-34s %8.2f s  %8d KiB peak RSS\n" "$1" "$secs" "$kib"
}

tournament 3 >real.json
start=$(date +%s.%N)
for k in $(seq 8); do
	"$arena" run -q --no-report -j 2 --shard "$k/8" -o "real/shard-$k-of-8" real.json
done
echo "played 12,096 games in 8 shards in $(echo "$(date +%s.%N) - $start" | bc) s"

# Shards of the same tournament with more deals, from the real records.
grow() { # deals dir
	python3 - "$1" "$2" <<'EOF'
import json, os, re, sys
deals, out = int(sys.argv[1]), sys.argv[2]
head = re.compile(r'^\{"id":"t(\d+)-d(\d+)-r(\d+)","table":(\d+),"deal":(\d+),')
base = []   # (shard, table, deal, rotation, rest of line)
for k in range(1, 9):
    src = "real/shard-%d-of-8" % k
    for line in open(src + "/games.jsonl"):
        m = head.match(line)
        base.append((k - 1, m.group(1), int(m.group(2)), m.group(3), line[m.end():], src))
files = []
for k in range(1, 9):
    d = "%s/shard-%d-of-8" % (out, k)
    os.makedirs(d + "/replays")
    os.makedirs(d + "/logs")
    t = json.load(open("real/shard-%d-of-8/tournament.json" % k))
    t["deals"] = deals
    json.dump(t, open(d + "/tournament.json", "w"), indent="\t")
    files.append(open(d + "/games.jsonl", "w"))
for deal in range(deals):
    for shard, table, d0, rot, rest, src in base:
        if deal % 3 != d0:
            continue
        k = (shard - d0 + deal) % 8
        gid = "t%s-d%04d-r%s" % (table, deal, rot)
        files[k].write('{"id":"%s","table":%d,"deal":%d,%s' % (gid, int(table), deal, rest))
        # the record keeps its replay's location: the pack joins the shard once
        pack = re.search(r'"replay":"(replays/[0-9a-f]{16}\.jsonl\.zst)"', rest).group(1)
        to = "%s/shard-%d-of-8/%s" % (out, k + 1, pack)
        if not os.path.exists(to):
            os.link(src + "/" + pack, to)
for f in files:
    f.close()
EOF
}

for size in 10k 100k 1M; do
	case $size in
	10k) dir=real games=12,096 ;;
	100k) dir=g100k games=100,800; grow 25 "$dir" ;;
	1M) dir=g1M games=999,936; grow 248 "$dir" ;;
	esac
	echo "== $games records"
	measure "merge of 8 shards" "$arena" merge "m-$size" "$dir"/shard-*-of-8
	measure "report of the merged directory" "$arena" report -q "m-$size"
	mkdir "r-$size"
	measure "report over the 8 shards" "$arena" report -q -o "r-$size" "$dir"/shard-*-of-8
	python3 -c '
import json, sys
def ranking(j):
    keys = ("rank", "bot", "elo", "games", "wins", "points")
    return [{k: b[k] for k in keys} for b in j["bots"]], j["cross"]
a, b = (ranking(json.load(open(p))) for p in sys.argv[1:])
sys.exit(a != b)' "m-$size/ratings.json" "r-$size/ratings.json" ||
		echo "note: the two reports rank differently"
	rm -rf "m-$size" "r-$size"
	[ "$dir" = real ] || rm -rf "$dir"
done
