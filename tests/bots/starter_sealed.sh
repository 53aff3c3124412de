#!/bin/sh
# starter_sealed.sh ARENA STARTER_C KITS OUT - every starter kit that is
# installed (C, C++, Go, Java, JavaScript, Python, Rust; KITS is
# bots/starter) plays a tournament with "sandbox": "sealed" and no "system":
# the system files each bot sees are those its program needs, derived from its
# command and copied to memory (SECURITY.md). Every game recorded, none
# faulted, the run recorded as sealed. Then a bot that needs a file outside
# what is derived fails at its start with a fault naming "system". The built
# kits are built into OUT as starter_kit.sh builds them. A kit whose
# toolchain is missing is left out with the reason; skipped (exit 77,
# ctest's SKIP_RETURN_CODE) without bubblewrap or when fewer than two kits
# are installed.
set -eu
arena=$1 c_bot=$2 kits=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
. "$here/starter_build.sh"
skip() { echo "SKIP: $*" >&2; exit 77; }

command -v bwrap >/dev/null 2>&1 || skip "bwrap is not installed (Debian package bubblewrap)"
rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd) kits=$(cd "$kits" && pwd)

# a JSON array of the lines of $1
json_argv() {
	printf '%s\n' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g; s/.*/"&"/' | paste -sd, - | sed 's/.*/[&]/'
}

bots="" names=""
add_bot() {
	bots="$bots${bots:+,}{\"name\":\"$1\",\"command\":$(json_argv "$2")}"
	names="$names $1"
}
add_bot c "$c_bot"
if [ -x /usr/bin/python3 ]; then
	add_bot python "/usr/bin/python3
$kits/python/bot.py"
else
	echo "starter_sealed.sh: python left out: /usr/bin/python3 is not installed" >&2
fi
node=$(command -v node || true)
case $node in
/usr/*) add_bot javascript "$node
$kits/javascript/bot.js" ;;
*) echo "starter_sealed.sh: javascript left out: no node under /usr" >&2 ;;
esac
for lang in cpp go java rust; do
	status=0
	kit_build "$lang" "$kits/$lang" "$out/kit-$lang" || status=$?
	case $status in
	0) add_bot "$lang" "$kit_argv" ;;
	77) echo "starter_sealed.sh: $lang left out (above)" >&2 ;;
	*) echo "starter_sealed.sh: the $lang kit did not build" >&2; exit 1 ;;
	esac
done
# As root the sandbox runs bots as other uids: they must reach the kits and the output.
chmod -R a+rX "$out"
n=$(echo $names | wc -w)
[ "$n" -ge 2 ] || skip "fewer than two kits are installed:$names"

cat > "$out/t.json" <<JSON
{"name":"sealed-kits","players":2,"deals":1,"rules":{"stock_size":5},
 "bots":[$bots],
 "time":{"startup_ms":60000,"move_ms":30000,"game_ms":1800000},
 "sandbox":"sealed","output":"$out/run"}
JSON
"$arena" run --no-report "$out/t.json" > "$out/run.out" 2>&1 || {
	cat "$out/run.out" >&2
	exit 1
}
grep -q '"sandbox":[[:space:]]*"sealed"' "$out/run/tournament.json" || {
	echo "starter_sealed.sh: $out/run/tournament.json does not record a sealed run" >&2
	exit 1
}
# every pairing, one deal, two rotations
expected=$((n * (n - 1)))
games=$(wc -l < "$out/run/games.jsonl")
clean=$(grep -c '"faults":\[\]' "$out/run/games.jsonl" || true)
if [ "$games" -ne "$expected" ] || [ "$clean" -ne "$games" ]; then
	echo "starter_sealed.sh: $clean of $games sealed games without a fault ($expected expected):" >&2
	grep -o '"faults":\[{[^]]*' "$out/run/games.jsonl" | head -3 >&2
	exit 1
fi
grep -o 'sealed: [0-9]* files ([^)]*)' "$out/run.out" || true
echo "starter_sealed.sh: $games sealed games of$names, none faulted"

# A bot whose script reads a system file no program of its needs: its start fails, naming "system".
mkdir -p "$out/needy"
cat > "$out/needy/bot.sh" <<'SH'
#!/bin/sh
test -r /usr/share/common-licenses/GPL-3 || exit 3
exit 4
SH
chmod 755 "$out/needy/bot.sh"
if [ ! -r /usr/share/common-licenses/GPL-3 ]; then
	echo "starter_sealed.sh: no /usr/share/common-licenses/GPL-3 to leave out: the needy bot not played"
	exit 0
fi
"$arena" run --quiet --no-report --sandbox sealed --deals 1 --stock 5 --output "$out/needy-run" \
	--startup-ms 60000 --bot "needy=$out/needy/bot.sh" --bot "c=$c_bot" > "$out/needy.out" 2>&1 || true
# its own exit (3), with the words that name "system"
if ! grep -q 'exited with status 3 before its hello (it ran sealed[^)]*tournament.s \\"system\\"' \
	"$out/needy-run/games.jsonl" 2>/dev/null; then
	echo "starter_sealed.sh: the bot that needs a file left out was not told of \"system\":" >&2
	cat "$out/needy.out" >&2
	head -c 2000 "$out/needy-run/games.jsonl" >&2 || true
	exit 1
fi
echo "starter_sealed.sh: a bot needing a file outside the derived set is told to name it in \"system\""
