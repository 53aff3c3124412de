#!/usr/bin/env python3
"""Head-to-head scores of a strength tournament, by kind of bot.

    python3 bots/strength/head_to_head.py results/strength-3p/games.jsonl

A bot named "expert-2" is a second copy of "expert": copies count as one kind,
and two copies are never paired. For each pair of kinds, the score of the
first against the second (a better placing is 1, an equal one 1/2, R7) over
every pair of seats they held at one table, not teammates (R10), with a 95%
interval that treats each deal (of one table, with all its seat rotations)
as one sample: the results of one deal are not independent. Then each kind's win
rate: the games its side won over the seats it held. A game that ended in a
stalemate (R7: no winner, players ranked by the stock they have left) counts
like any other; each pair's score over the stalled games alone is printed
beneath its line, and the share of games that stalled at the end.
"""
import collections
import itertools
import json
import math
import sys


def kind(name):
    return name.rsplit("-", 1)[0] if name.rsplit("-", 1)[-1].isdigit() else name


class Tally:
    """Every pair of kinds' results per deal, and the win counts, of one games.jsonl."""

    def __init__(self, path):
        self.per_deal = collections.defaultdict(lambda: collections.defaultdict(lambda: [0.0, 0]))
        self.stalled = collections.defaultdict(lambda: [0.0, 0])
        self.seats, self.wins = collections.Counter(), collections.Counter()
        self.games = self.stalled_games = 0
        for line in open(path, encoding="utf-8"):
            self.add(json.loads(line))

    def add(self, r):
        self.games += 1
        self.stalled_games += not r["winners"]
        bots, placing = [kind(b) for b in r["bots"]], r["placings"]
        team = {s: t for t, members in enumerate(r["teams"]) for s in members}
        deal = (r["table"], r["deal"])  # each table deals its own cards
        for s, b in enumerate(bots):
            self.seats[b] += 1
            self.wins[b] += s in r["winners"]
        for a, b in itertools.combinations(range(len(bots)), 2):
            if team[a] == team[b] or bots[a] == bots[b]:
                continue
            score = 1.0 if placing[a] < placing[b] else 0.5 if placing[a] == placing[b] else 0.0
            for x, y, v in ((a, b, score), (b, a, 1 - score)):
                cell = self.per_deal[(bots[x], bots[y])][deal]
                cell[0] += v
                cell[1] += 1
                if not r["winners"]:
                    self.stalled[(bots[x], bots[y])][0] += v
                    self.stalled[(bots[x], bots[y])][1] += 1

    def score(self, x, y):
        """x's score against y, the 95% half-width, results and deals."""
        deals = self.per_deal[(x, y)]
        total = sum(v for v, _ in deals.values())
        n = sum(k for _, k in deals.values())
        p, m = total / n, len(deals)
        # the variance of a ratio of sums over m independent deals
        var = sum((v - p * k) ** 2 for v, k in deals.values()) * m / (m - 1) / n**2 if m > 1 else 0
        return p, 1.96 * math.sqrt(var), n, m

    def stalled_score(self, x, y):
        """x's score against y over the stalled games alone, and its results (0: none)."""
        total, n = self.stalled[(x, y)]
        return (total / n if n else 0.0), n


def main(path):
    t = Tally(path)
    for x, y in sorted(t.per_deal):
        if x > y:
            continue
        p, half, n, m = t.score(x, y)
        print(f"{x} vs {y}: {100 * p:.1f}% +- {100 * half:.1f} "
              f"({100 * (p - half):.1f} to {100 * (p + half):.1f}; {n} results, {m} deals)")
        q, k = t.stalled_score(x, y)
        if k:
            print(f"  in stalemates: {100 * q:.1f}% ({k} results)")
    for b in sorted(t.seats, key=lambda b: -t.wins[b] / t.seats[b]):
        print(f"{b}: wins {t.wins[b]} of {t.seats[b]} seats, {100 * t.wins[b] / t.seats[b]:.1f}%")
    print(f"stalemates: {t.stalled_games} of {t.games} games, {100 * t.stalled_games / t.games:.1f}%")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: head_to_head.py GAMES.jsonl")
    main(sys.argv[1])
