#!/bin/sh
# test_sprt_cmd.sh DRIVER STRONG WEAK - the sprt command with real bots:
# STRONG against WEAK must accept H1, STRONG against a copy of itself H0, each
# printing the LLR and the Wald bounds after every pair; the resource-limit
# options must reach the bot processes. No memory limit, so bots built with
# AddressSanitizer (which maps terabytes) can start.
set -u
driver=$1
strong=$2
weak=$3
fail=0
out=$(mktemp)
dir=$(mktemp -d)
# As root the sandbox runs bots as other uids, which must reach the probe below.
chmod 755 "$dir"
trap 'rm -f "$out"; rm -rf "$dir"' EXIT

"$driver" sprt -o "$dir/t1" --elo0 0 --elo1 50 --max-pairs 400 --move-ms 5000 --memory-mb 0 "$strong" "$weak" >"$out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '^result: H1 accepted' "$out"; then
	echo "strong against weak: exit $rc, want H1"; cat "$out"; fail=1
fi
grep -q '^pair .*LLR [-+][0-9.]*  bounds \[-2\.944, 2\.944\]$' "$out" ||
	{ echo "no per-pair LLR and bounds lines"; cat "$out"; fail=1; }

"$driver" sprt -o "$dir/t2" -q --elo0 0 --elo1 50 --max-pairs 400 --move-ms 5000 --memory-mb 0 "$strong" "$strong" >"$out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '^result: H0 accepted' "$out"; then
	echo "strong against itself: exit $rc, want H0"; cat "$out"; fail=1
fi

"$driver" sprt -o "$dir/t3" --elo0 10 --elo1 5 "$strong" "$weak" >"$out" 2>&1
[ $? -eq 2 ] || { echo "elo0 >= elo1 not refused with status 2"; fail=1; }
"$driver" sprt -o "$dir/t4" "$strong" >"$out" 2>&1
[ $? -eq 2 ] || { echo "one bot not refused with status 2"; fail=1; }

# Each run has its own output directory: the same command again would resume it.
# A bot that shows the limits it runs under on stderr (kept by --stderr, each line tagged
# [GAME pid PID]), then is STRONG. Unsandboxed, so that RLIMIT_NPROC is the number given (a
# sandbox sets one more, for bwrap's init: test_arena_options).
probe=$dir/limits-probe
printf '#!/bin/sh\ncat /proc/self/limits >&2\nexec "%s"\n' "$strong" >"$probe"
chmod +x "$probe"
"$driver" sprt -o "$dir/t5" -q --max-pairs 1 --stock 2 --cpu-seconds 7 --memory-mb 0 --open-files 64 \
	--processes 1000 --sandbox off --stderr "$dir/logs" "$probe" "$weak" >"$out" 2>&1
rc=$?
limits=$dir/logs/limits-probe.stderr
if [ "$rc" -ne 0 ] || ! grep -Eq '^\[[^]]*\] Max cpu time +7 +8 +seconds' "$limits" ||
	! grep -Eq '^\[[^]]*\] Max address space +unlimited' "$limits" ||
	! grep -Eq '^\[[^]]*\] Max open files +64 +64 ' "$limits" ||
	! grep -Eq '^\[[^]]*\] Max processes +1000 +1000 ' "$limits"; then
	echo "limits not passed to the bot: exit $rc"; cat "$out" "$limits"; fail=1
fi
# Without --stderr the bots' stderr is shown, labelled; --quiet-bots hides it.
"$driver" sprt -o "$dir/t6" -q --max-pairs 1 --stock 2 "$probe" "$weak" >"$out" 2>&1
grep -Eq '^\[limits-probe\] Max cpu time ' "$out" ||
	{ echo "the bot's stderr not shown labelled"; cat "$out"; fail=1; }
"$driver" sprt -o "$dir/t7" -q --quiet-bots --max-pairs 1 --stock 2 "$probe" "$weak" >"$out" 2>&1
! grep -q 'Max cpu time' "$out" || { echo "--quiet-bots did not hide the bot's stderr"; fail=1; }
"$driver" sprt -o "$dir/t8" --startup-ms 600001 "$strong" "$weak" >"$out" 2>&1
[ $? -eq 2 ] && grep -q 'startup-ms: expected an integer from 1 to 600000' "$out" ||
	{ echo "--startup-ms 600001 not refused with status 2"; cat "$out"; fail=1; }

[ "$fail" -eq 0 ] && echo "sprt: H1 against the weaker bot, H0 against itself, limits reach the bots, their stderr shown or not"
exit "$fail"
