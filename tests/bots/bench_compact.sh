#!/bin/sh
# Compact requests (protocol/PROTOCOL.md 4.2) against ordinary ones, in
# alternating rounds (figures in README.md "Performance"). Not a ctest test.
#
# usage: tests/bots/bench_compact.sh BUILD_DIR [ROUNDS]
#
# 1. bench_arena with two skipbo-easy, SKIPBO_COMPACT=1 then 0 each round,
#    then with two `badbot good-compact` and two `badbot good` (cJSON): mean
#    line to the bot and CPU per decision of the arena and the bots;
# 2. a tournament of two Python starter kits (80 games, stock 30, -j 1), both
#    asking for compact requests or both not: CPU of the whole run per
#    decision (/usr/bin/time) and the bots' own, as games.jsonl records it;
# 3. the Python kit's own work per request (parse, view, legal list, choice,
#    answer) in one process, over the requests of one game pair of that
#    tournament taken from --log-io transcripts, ordinary against compact.
set -eu
build=$(cd "$1" && pwd)
rounds=${2:-5}
kit=$(cd "$(dirname "$0")/../../bots/starter/python" && pwd)
work=$(mktemp -d /tmp/bench_compact.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "== skipbo-easy through bench_arena (3 s a round, CPU 0, stock 30)"
for i in $(seq "$rounds"); do
	for m in 1 0; do
		printf 'compact=%s: ' $m
		SKIPBO_COMPACT=$m "$build/tests/arena/bench_arena" 3 0 30 "$build/bots/skipbo-easy" |
			sed -n 's/.*: \([0-9]*\) decisions\/s.*/\1 decisions\/s,/p; s/.*line to the bot \([0-9]*\) bytes.*/\1 bytes to the bot,/p; s/.*CPU per decision: //p' |
			tr '\n' ' '
		echo
	done
done

echo "== badbot (cJSON) through bench_arena: good-compact, then good"
for i in $(seq "$rounds"); do
	for mode in good-compact good; do
		printf '%s: ' $mode
		"$build/tests/arena/bench_arena" 3 0 30 "$build/tests/badbots/badbot" $mode |
			sed -n 's/.*: \([0-9]*\) decisions\/s.*/\1 decisions\/s,/p; s/.*line to the bot \([0-9]*\) bytes.*/\1 bytes to the bot,/p; s/.*CPU per decision: //p' |
			tr '\n' ' '
		echo
	done
done

# write_tournament M DEALS OUTPUT: two Python kits with SKIPBO_COMPACT=M, into $work/t.json
write_tournament() {
	cat >"$work/t.json" <<JSON
{"name":"kit","bots":[
 {"name":"a","command":["python3","$kit/bot.py"],"env":{"SKIPBO_COMPACT":"$1"}},
 {"name":"b","command":["python3","$kit/bot.py"],"env":{"SKIPBO_COMPACT":"$1"}}],
 "players":2,"deals":$2,"rules":{"stock_size":30},"replays":"none","output":"$3"}
JSON
}
arena=$build/arena/skipbo-arena

echo "== two Python kits, 80 games a round"
for i in $(seq "$rounds"); do
	for m in 1 0; do
		rm -rf "$work/out"
		write_tournament $m 40 "$work/out"
		/usr/bin/time -o "$work/time.txt" -f "%e %U %S" "$arena" run -j 1 --quiet --no-report \
			"$work/t.json" 2>/dev/null
		python3 - "$work/out/games.jsonl" "$work/time.txt" $m <<'PY'
import json, sys
decisions = cpu = 0.0
for line in open(sys.argv[1]):
    for t in json.loads(line)["time"]:
        decisions += t["moves"]
        cpu += t["moves"] * t["cpu_mean_us"]
wall, user, system = map(float, open(sys.argv[2]).read().split())
print("compact=%s: %.0f decisions/s, CPU per decision %.1f us in all, bots %.1f us"
      % (sys.argv[3], decisions / wall, (user + system) * 1e6 / decisions, cpu / decisions))
PY
	done
done

echo "== the Python kit's own work per request, in process"
for m in 1 0; do
	write_tournament $m 1 "$work/io$m"
	"$arena" run -j 1 --quiet --no-report --log-io "$work/t.json" 2>/dev/null
	cat "$work/io$m"/io/* | sed -n 's/^[0-9.]* [ab] <- \({"type":"request".*\)/\1/p' >"$work/req$m.txt"
done
python3 - "$kit" "$work/req1.txt" "$work/req0.txt" "$rounds" <<'PY'
import json, sys, time
sys.path.insert(0, sys.argv[1])
import bot
sets = {"compact": open(sys.argv[2]).read().splitlines(),
        "ordinary": open(sys.argv[3]).read().splitlines()}
assert len(sets["compact"]) == len(sets["ordinary"]) > 0
times = {name: [] for name in sets}
for _ in range(int(sys.argv[4])):
    for name, lines in sets.items():
        start = time.process_time()
        for _ in range(20):
            for line in lines:
                msg = json.loads(line)
                move = bot.choose(bot.View(msg["view"]), bot.legal_moves(msg))
                json.dumps({"type": "move", "move": move}, separators=(",", ":"))
        times[name].append((time.process_time() - start) / 20 / len(lines) * 1e6)
for name, lines in sets.items():
    t = sorted(times[name])
    print("%s: %d requests of %.0f bytes on average, %.2f us per request (median; rounds %s)"
          % (name, len(lines), sum(map(len, lines)) / len(lines), t[len(t) // 2],
             " ".join("%.2f" % x for x in times[name])))
PY
