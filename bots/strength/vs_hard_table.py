#!/usr/bin/env python3
"""The "expert against hard" table of bots/README.md, from the vs-hard-* tournaments.

    python3 bots/strength/vs_hard_table.py results/vs-hard-2p results/vs-hard-2p-r3 ...

One markdown row per output directory, in the order given: players, stock
(R3: 0 is the default, 30 cards with 2-4 players and 20 with 5-6), games,
expert's score against hard with its 95% interval clustered by deal (as
head_to_head.py), the share of games that stalled (R7) and expert's score
over those alone, each kind's win rate, and expert's CPU time per move
(the mean over its moves, the largest of any move), from the records.
"""
import json
import os
import sys

from head_to_head import Tally, kind


def cpu(path):
    """Expert's mean CPU µs per move over every move it made, and its largest."""
    moves = total = worst = 0
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        for name, t in zip(r["bots"], r["time"]):
            if kind(name) == "expert" and t["moves"]:
                moves += t["moves"]
                total += t["cpu_mean_us"] * t["moves"]
                worst = max(worst, t["cpu_max_us"])
    return (total / moves if moves else 0.0), worst


def row(directory):
    games = os.path.join(directory, "games.jsonl")
    with open(os.path.join(directory, "tournament.json"), encoding="utf-8") as f:
        spec = json.load(f)
    players, stock = spec["players"], spec["rules"]["stock_size"]
    stock = stock or (30 if players <= 4 else 20)
    t = Tally(games)
    p, half, _, _ = t.score("expert", "hard")
    q, k = t.stalled_score("expert", "hard")
    stalled = f"{100 * t.stalled_games / t.games:.1f}%"
    in_stalled = f"{100 * q:.1f}" if k else "-"
    mean, worst = cpu(games)
    win = {b: 100 * t.wins[b] / t.seats[b] for b in ("expert", "hard")}
    return (f"| {players} | {stock} | {t.games} | {100 * p:.1f} ± {100 * half:.1f} | {stalled} | "
            f"{in_stalled} | {win['expert']:.1f} / {win['hard']:.1f} | {mean / 1000:.2f} / {worst / 1000:.0f} | "
            f"`{os.path.basename(os.path.normpath(directory))}` |")


def main(directories):
    print("| players | stock | games | expert vs hard | stalled | expert vs hard in stalled games "
          "| win % expert / hard | expert CPU ms per move, mean / max | file |")
    print("|---:|---:|---:|:---|---:|---:|:---|:---|:---|")
    for d in directories:
        print(row(d))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: vs_hard_table.py RESULTS_DIR...")
    main(sys.argv[1:])
