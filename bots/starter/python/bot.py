#!/usr/bin/env python3
"""A Skip-Bo bot to start from: Python 3, standard library only.

The arena starts this program and talks to it over stdin/stdout, one JSON
object per line (protocol/PROTOCOL.md). Anything you print to stdout goes to
the arena, so log with log() (stderr) instead. Run it with:

    skipbo-arena play bots/starter/python/bot.py skipbo-easy

The policy below is deliberately simple: play the stock card when you can,
else play any non-wild card, else discard. Make it smarter in choose().
"""
import json
import os
import sys

NAME = "starter-python"
WILD = 0  # cards are 1..12, and 0 for the SKIP-BO wild
# Compact requests (PROTOCOL.md 4.2) are about a third shorter to read;
# SKIPBO_COMPACT=0 in the environment asks for the ordinary ones instead.
COMPACT = os.environ.get("SKIPBO_COMPACT") != "0"


def log(*args):
    """Write to stderr: the arena keeps it in results/<tournament>/logs/."""
    print(NAME + ":", *args, file=sys.stderr, flush=True)


def send(message):
    """One JSON object per line; flush, or the arena waits for nothing."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class Player:
    """One seat at the table, as everyone can see it."""

    def __init__(self, p):
        self.seat = p["seat"]
        self.stock_size = p["stock_size"]
        self.stock_top = p.get("stock_top")  # None when the stock is empty
        self.hand_size = p.get("hand_size", 0)
        # Four discard piles, each listed bottom first: pile[-1] is the top.
        self.discards = p.get("discards", [[], [], [], []])
        self.removed = p.get("removed", False)

    def discard_top(self, pile):
        return self.discards[pile][-1] if self.discards[pile] else None


class View:
    """What this bot sees when it must move (the request's "view")."""

    def __init__(self, v):
        self.seat = v["seat"]
        self.hand = v["hand"]  # sorted, e.g. [0, 3, 7, 7, 12]
        self.players = [Player(p) for p in v["players"]]
        # A building pile's value is the number on top (0 = empty); the next
        # card must be value + 1, or a wild.
        self.building = [b["value"] for b in v["building"]]
        self.draw_pile = v.get("draw_pile", 0)

    @property
    def me(self):
        return self.players[self.seat]


def legal_moves(request):
    """The request's legal moves as move objects, whichever form the arena sent."""
    if "discard_any" not in request:  # the ordinary form: objects already
        return request["legal"]
    moves = []
    for a in request["legal"]:  # the compact form: arrays named by a[0]
        if a[0] == "hand":
            moves.append({"action": "play", "from": "hand", "card": a[1], "to": a[2]})
        elif a[0] == "stock":
            moves.append({"action": "play", "from": "stock", "seat": a[1], "card": a[2],
                          "to": a[3]})
        elif a[0] == "discard":
            moves.append({"action": "play", "from": "discard", "seat": a[1], "pile": a[2],
                          "card": a[3], "to": a[4]})
        else:
            moves.append({"action": "pass"})
    if request["discard_any"]:
        # Any hand card may go on any of our 4 discard piles (R4).
        for card in sorted(set(request["view"]["hand"])):
            moves += [{"action": "discard", "card": card, "pile": p} for p in range(4)]
    return moves


def choose(view, legal):
    """Pick one move from the legal list. Echoing an element of it is always right."""
    # 1. The stock card first: emptying your stock is how you win.
    for move in legal:
        if move["action"] == "play" and move["from"] == "stock":
            return move
    # 2. Any play that does not spend a wild (wilds are worth keeping).
    for move in legal:
        if move["action"] == "play" and move.get("card") != WILD:
            return move
    # 3. Discard, which ends the turn: the highest non-wild card, onto a pile
    #    whose top is the same card or one higher (so it can be played later),
    #    else onto an empty pile, else onto pile 0.
    discards = [m for m in legal if m["action"] == "discard"]
    if discards:
        cards = [m["card"] for m in discards if m["card"] != WILD] or [WILD]
        card = max(cards)

        def fit(m):
            top = view.me.discard_top(m["pile"])
            if top in (card, card + 1):
                return 0
            return 1 if top is None else 2

        return min((m for m in discards if m["card"] == card), key=fit)
    # 4. Nothing else is left: a "pass" (only legal with an empty hand).
    return legal[0]


def main():
    for line in sys.stdin:  # ends at EOF: the arena closed our stdin
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            log("not JSON, ignored:", line[:80])
            continue
        if not isinstance(msg, dict):
            continue
        kind = msg.get("type")
        if kind == "hello":
            hello = {"type": "hello", "protocol": 1, "name": NAME, "version": "1.0"}
            if COMPACT:
                hello["features"] = ["compact_legal"]
            send(hello)
        elif kind == "game_start":
            log("game", msg["game"], "seat", msg["seat"], "of", msg["players"])
        elif kind == "request":
            # "events" lists what happened since our last request; this bot
            # does not need them, but a smarter one can track the game there.
            view = View(msg["view"])
            send({"type": "move", "move": choose(view, legal_moves(msg))})
        elif kind == "game_end":
            log("game", msg["game"], "over:", msg.get("reason"), "winners", msg.get("winners"))
        elif kind == "quit":
            break
        # Any other message type is new to this bot: ignore it.


if __name__ == "__main__":
    main()
