#!/usr/bin/env bash
# The readers of a tournament's replays (TOURNAMENT.md, "Replays"): replay of a
# pack (every game re-checked and named by its id, a tampered one named), of a
# tournament directory through its records (--id, an unknown id, a game
# without replay), --render and --move with one game, --html pages where the
# report links them, play --from a directory or a pack, a pack with an orphan
# frame and a cut-off tail (records still read), and a replay file of one
# game, plain or pretty-printed. Needs only badbot.
#   test_e2e_replay_packs.sh ARENA BADBOT
set -euo pipefail
arena=$1 badbot=$2
work=$(mktemp -d /tmp/skipbo-packs.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
oks() { grep -c ': ok' "$1" || true; }

tournament() { # name replays
	cat <<EOF
{ "name": "$1", "bots": [
  { "name": "a", "command": ["$badbot", "good"] },
  { "name": "b", "command": ["$badbot", "good"] } ],
  "players": 2, "deals": 2, "rules": { "stock_size": 3 }, "seed": "9", "replays": "$2" }
EOF
}
tournament all all >all.json
tournament none none >none.json
"$arena" run -q -j 1 --no-pin --no-report -o out all.json
"$arena" run -q -j 1 --no-pin --no-report -o bare none.json
pack=$(ls out/replays/*.jsonl.zst)
[ "$(echo "$pack" | wc -l)" = 1 ] || fail "one worker, one pack: $pack"
id2=$(sed -n 2p out/games.jsonl | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')

# A pack: every game re-checked, each named by its id.
"$arena" replay -q "$pack" >ok.txt || fail "replay of a pack: $(cat ok.txt)"
[ "$(oks ok.txt)" = 4 ] || fail "replay of a pack: $(cat ok.txt)"
grep -q "^$pack, game $id2: ok" ok.txt || fail "a pack's game not named: $(cat ok.txt)"

# A tampered game of a pack (another seed, so another deck): named, the others pass.
# The pack is made as the arena makes one: a frame a game, each recording its size.
zstd -dcq "$pack" | python3 -c '
import sys
lines = sys.stdin.read().splitlines(True)
lines[1] = lines[1].replace("\"seed\":\"", "\"seed\":\"1", 1)
for n, line in enumerate(lines):
    open("game%d.json" % n, "w").write(line)'
for n in 0 1 2 3; do zstd -qc "game$n.json"; done >tampered.jsonl.zst
status=0
"$arena" replay -q tampered.jsonl.zst >ok.txt 2>err.txt || status=$?
[ "$status" = 1 ] || fail "a tampered pack: exit status $status"
grep -q "\"tampered.jsonl.zst\", game $id2: " err.txt || fail "tampered game not named: $(cat err.txt)"
[ "$(oks ok.txt)" = 3 ] || fail "the untampered games of the pack: $(cat ok.txt)"

# A directory, through its records; --id selects; an unknown id and a game without replay.
"$arena" replay -q out >ok.txt || fail "replay DIR: $(cat ok.txt)"
[ "$(oks ok.txt)" = 4 ] || fail "replay DIR: $(cat ok.txt)"
"$arena" replay -q --id "$id2" out >ok.txt || fail "replay --id: $(cat ok.txt)"
[ "$(cat ok.txt)" = "out, game $id2: ok" ] || fail "replay --id: $(cat ok.txt)"
status=0
"$arena" replay -q --id t0000-d0099-r0 --id "$id2" out >ok.txt 2>err.txt || status=$?
[ "$status" = 1 ] || fail "an unknown --id: exit status $status"
grep -q 'no game t0000-d0099-r0 in "out/games.jsonl"' err.txt || fail "unknown id: $(cat err.txt)"
[ "$(oks ok.txt)" = 1 ] || fail "the known --id beside an unknown one: $(cat ok.txt)"
status=0
"$arena" replay -q --id "$id2" bare 2>err.txt || status=$?
[ "$status" = 1 ] || fail "a game without replay: exit status $status"
grep -q "game $id2 in \"bare/games.jsonl\" has no replay: the tournament's \"replays\" is \"none\"" \
	err.txt || fail "a game without replay: $(cat err.txt)"

# --render, --turn and --move show one game: of several, bad usage naming --id.
for show in --render "--move 3" "--turn 2"; do
	for src in out "$pack"; do
		status=0
		"$arena" replay $show "$src" >/dev/null 2>err.txt || status=$?
		[ "$status" = 2 ] || fail "$show $src: exit status $status"
		grep -q -- "holds 4 games: .* named with --id" err.txt || fail "$show $src: $(cat err.txt)"
	done
	"$arena" replay $show --id "$id2" out >show.txt || fail "$show --id DIR: $(cat show.txt)"
	"$arena" replay $show --id "$id2" "$pack" >show2.txt || fail "$show --id PACK"
	grep -q "seat 0" show.txt || fail "$show --id DIR printed no table: $(cat show.txt)"
	[ "$(sed '$d' show.txt)" = "$(sed '$d' show2.txt)" ] || fail "$show: DIR and PACK differ"
done

# --html: a directory's pages where the report links them; -o for one game or several.
"$arena" replay --html out >/dev/null || fail "replay --html DIR"
for id in $(python3 -c 'import json, sys; [print(json.loads(l)["id"]) for l in open(sys.argv[1])]' \
	out/games.jsonl); do
	grep -q '<script id="replay"' "out/replays/$id.html" || fail "no page out/replays/$id.html"
done
"$arena" replay --html -o one.html --id "$id2" out >/dev/null || fail "replay --html -o FILE --id"
grep -q "\"id\":\"$id2\"" one.html || fail "one.html is not game $id2's page"
"$arena" replay --html -o pages "$pack" >/dev/null || fail "replay --html -o DIR PACK"
[ "$(ls pages | wc -l)" = 4 ] && [ -e "pages/$id2.html" ] || fail "pages: $(ls pages)"

# play --from a directory or a pack and --id; without --id, the choice is asked for.
"$arena" play --from out --id "$id2" --move 5 "$badbot good" "$badbot good" >play.txt ||
	fail "play --from DIR --id: $(cat play.txt)"
grep -q "decisions replayed" play.txt || fail "play --from DIR --id: $(cat play.txt)"
"$arena" play --from "$pack" --id "$id2" "$badbot good" "$badbot good" \
	>/dev/null || fail "play --from PACK --id"
status=0
"$arena" play --from out "$badbot good" "$badbot good" 2>err.txt || status=$?
[ "$status" = 1 ] && grep -q '"out" is a tournament directory: name a game (--id ID)' err.txt ||
	fail "play --from DIR without --id: $status $(cat err.txt)"
status=0
"$arena" play --from tampered.jsonl.zst "$badbot good" "$badbot good" 2>err.txt || status=$?
[ "$status" = 1 ] && grep -q 'holds 4 replays: name a game (--id ID)' err.txt ||
	fail "play --from PACK without --id: $status $(cat err.txt)"

# An orphan frame (a game never recorded) and a cut-off tail after the last record's frame:
# the records still read, the orphan is not among them; the pack alone is refused, named.
# the first frame: up to where the next one starts (the offsets the records give), or the end
first=$(python3 -c '
import json, os, sys
starts = sorted({json.loads(l)["replay_offset"] for l in open("out/games.jsonl")} | {os.path.getsize(sys.argv[1])})
print(starts[1] if starts[0] == 0 else 0)' "$pack")
[ "$first" -gt 0 ] || fail "no frame at the start of the pack"
head -c "$first" "$pack" >frame.zst
cat frame.zst >>"$pack"
intact=$(stat -c %s "$pack")
head -c 20 frame.zst >>"$pack"
"$arena" replay -q out >ok.txt || fail "replay DIR after a crash's tail: $(cat ok.txt)"
[ "$(oks ok.txt)" = 4 ] || fail "replay DIR after a crash's tail: $(cat ok.txt)"
# the pack alone: the tail named with where it starts, every game before it still checked
status=0
"$arena" replay -q "$pack" >ok.txt 2>err.txt || status=$?
[ "$status" = 1 ] && grep -q "\"$pack\": damaged or cut off from byte $intact (of" err.txt ||
	fail "a cut-off pack: $status $(cat err.txt)"
[ "$(oks ok.txt)" = $((4 + $(zstd -dcq frame.zst | wc -l))) ] ||
	fail "a cut-off pack's whole games: $(cat ok.txt)"

# A replay file of one game, as play --replay writes it: plain, pretty-printed, compressed.
zstd -dcq frame.zst | head -n 1 >one.json
zstd -q one.json -o one.json.zst
python3 -c 'import json, sys; json.dump(json.load(open("one.json")), sys.stdout, indent=2)' >pretty.json
"$arena" replay -q one.json pretty.json one.json.zst >ok.txt || fail "replay FILE: $(cat ok.txt)"
[ "$(cat ok.txt)" = "one.json: ok
pretty.json: ok
one.json.zst: ok" ] || fail "replay FILE: $(cat ok.txt)"
"$arena" replay --html pretty.json >/dev/null && [ -e pretty.html ] || fail "replay --html FILE"
echo "PASS: replays of packs, directories and files"
