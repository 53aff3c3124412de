#!/bin/sh
# starter_sealed.sh ARENA STARTER_C PYTHON_BOT JAVA_KIT OUT - the C, Python
# and Java starter kits play a tournament with "sandbox": "sealed", where
# the system directories they see are a copy in memory (SECURITY.md): every
# game recorded, none faulted. "system" names what the three need, no more:
# /usr/bin, the libraries, Python's standard library, the JDK and /etc
# (arena/TOURNAMENT.md, `system`). The Java kit is built into OUT. Skipped
# (exit 77, ctest's SKIP_RETURN_CODE) with the reason, never passed, without
# bubblewrap, /usr/bin/python3 or a JDK.
set -eu
arena=$1 c_bot=$2 py_bot=$3 java_kit=$4 out=$5
skip() { echo "SKIP: $*" >&2; exit 77; }

command -v bwrap >/dev/null 2>&1 || skip "bwrap is not installed (Debian package bubblewrap)"
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is not installed (Debian package python3)"
command -v javac >/dev/null 2>&1 || skip "javac is not installed (Debian package default-jdk-headless)"
java=$(readlink -f "$(command -v java)")
case $java in
/usr/lib/jvm/*/bin/java) jdk=${java%/bin/java} ;;
*) skip "java is not a JDK under /usr/lib/jvm ($java)" ;;
esac
stdlib=$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')

rm -rf "$out" && mkdir -p "$out/java"
out=$(cd "$out" && pwd)
# As root the sandbox runs bots as other uids: they must reach the kit and the output.
chmod 755 "$out" "$out/java"
javac -d "$out/java" "$java_kit/Bot.java"
cat > "$out/t.json" <<JSON
{"name":"sealed-kits","players":2,"deals":1,"rules":{"stock_size":5},
 "bots":[
  {"name":"c","command":["$c_bot"]},
  {"name":"python","command":["/usr/bin/python3","$py_bot"]},
  {"name":"java","command":["/usr/bin/java","-Xmx256m","-XX:CompressedClassSpaceSize=64m",
   "-XX:ReservedCodeCacheSize=64m","-XX:+UseSerialGC","-cp","$out/java","Bot"]}],
 "time":{"startup_ms":60000,"move_ms":30000,"game_ms":1800000},
 "sandbox":"sealed","output":"$out/run",
 "system":["/usr/bin","/usr/lib/x86_64-linux-gnu","/usr/lib64","$stdlib","$jdk","/etc"]}
JSON
"$arena" run --quiet --no-report "$out/t.json"
grep -q '"sandbox":[[:space:]]*"sealed"' "$out/run/tournament.json" || {
	echo "starter_sealed.sh: $out/run/tournament.json does not record a sealed run" >&2
	exit 1
}
# 3 pairings x 1 deal x 2 rotations
games=$(wc -l < "$out/run/games.jsonl")
clean=$(grep -c '"faults":\[\]' "$out/run/games.jsonl" || true)
if [ "$games" -ne 6 ] || [ "$clean" -ne "$games" ]; then
	echo "starter_sealed.sh: $clean of $games sealed games without a fault (6 expected):" >&2
	grep -o '"faults":\[{[^]]*' "$out/run/games.jsonl" | head -3 >&2
	exit 1
fi
echo "starter_sealed.sh: $games sealed games of the C, Python and Java kits, none faulted"
