#!/bin/sh
# human_tmux.sh ARENA HUMAN EASY - the human player in a real 80x24 terminal
# (tmux): `skipbo-arena play --no-timeout` against the easy bot, keys sent as
# a person types them, the screen captured and checked: the board at the top,
# the help, the numbered list, a legal move played, an illegal one refused
# with the reason, resigning after a confirmation, and the end of input
# resigning. Skipped (exit 77) without tmux.
set -eu
arena=$1 human=$2 easy=$3
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux is not installed (Debian package tmux)" >&2; exit 77; }
dir=$(mktemp -d)
n=0
sock="$dir/tmux.$n.sock"
cleanup() { tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; echo "--- the screen:" >&2; screen >&2; exit 1; }

# The deal of seed 3 (R3): your stock top is 1, your hand SB 1 2 8 9. The
# arena's sandbox has no terminal for the player, hence --sandbox off.
start() {
	# a server of its own each time: a server still exiting on the old socket
	# would take the new session down with it ("server exited unexpectedly")
	tmux -S "$sock" kill-server 2>/dev/null || true
	n=$((n + 1))
	sock="$dir/tmux.$n.sock"
	tmux -S "$sock" new-session -d -x 80 -y 24 \
		"'$arena' play --no-timeout --sandbox off --seed 3 '$human' '$easy'; echo ARENA-EXIT \$?; sleep 120"
}
screen() { tmux -S "$sock" capture-pane -p -t 0; }
keys() { tmux -S "$sock" send-keys -t 0 -l "$1"; tmux -S "$sock" send-keys -t 0 Enter; }
# Wait up to 10 s for text on the screen.
expect() {
	i=0
	while ! screen | grep -qF -- "$1"; do
		i=$((i + 1))
		[ $i -le 100 ] || fail "\"$1\" not on the screen after 10 s"
		sleep 0.1
	done
}
# the easy bot is called by its hello, "easy"
board_on_top() {
	screen | head -1 | grep -q '^Skip-Bo ' || fail "the board is not at the top of the screen"
	for t in "Building piles:" "discard piles 0 to 3, each bottom to top" "* you   " "  easy  " "Your hand:"; do
		screen | grep -qF -- "$t" || fail "the board lacks \"$t\""
	done
}

start
expect "Your move (? help, l list):"
board_on_top
for t in "* you           1       30    5" "  easy          SB      30    0" "Your hand: SB 1 2 8 9"; do
	screen | grep -qF -- "$t" || fail "the deal is not shown: no \"$t\""
done

keys "?"
expect "your stock card onto building pile 2"
expect "discard the 9 on your discard pile 3"
board_on_top

keys "l"
expect " 1) s 0"
expect "32) d 9 3"
board_on_top

keys "h 2 1"
expect "Not played: building pile 1 is empty: it takes a 1 or SB, not 2."
keys "d 7 1"
expect "Not played: you have no 7 in your hand."
keys "s 5"
expect "Not played: \"s 5\" is not a move I know"
board_on_top

keys "h 1 1"
expect "Building piles:   0: empty   1: 1 "
screen | grep -qF "Your hand: SB 2 8 9" || fail "the 1 did not leave the hand"
keys "s 2"
expect "* you           3       29"

keys "q"
expect "Resign this game? (y/n)"
keys "n"
sleep 0.3
! screen | grep -qF "Resign this game?" || fail "the question stays after n"
board_on_top
keys "q"
expect "Resign this game? (y/n)"
keys "y"
expect "You resigned this game."
expect "ARENA-EXIT"
screen | grep -qF "winners: easy (seat 1)" || fail "the arena did not give the game to the easy bot"
# (-J: a long result line is one line, not cut where the terminal wrapped it)
! tmux -S "$sock" capture-pane -p -J -t 0 | grep -qF " us  median " || fail "the arena's move times in microseconds are shown to the person"
screen | grep -qF "  seat 1 easy " || fail "no result line for the easy bot"

# The end of input (Ctrl-D at the prompt) resigns and says so.
start
expect "Your move (? help, l list):"
tmux -S "$sock" send-keys -t 0 C-d
expect "End of input: you resign this game."
expect "ARENA-EXIT"
echo "PASS"
