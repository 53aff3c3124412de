#!/usr/bin/env python3
"""What a league played by workers must leave (test_e2e_workers_slurm.sh,
tests/arena/host/test_host_liars.py):
  workers_check.py deals DIR       every deal of DIR/games.jsonl has all its
                                   rotations, unless workers.jsonl parked it
  workers_check.py ranking DIR ONE each entry's 95% interval in DIR/ratings.json
                                   meets its interval in ONE/ratings.json: the
                                   two leagues play different deals, so their
                                   estimates differ by chance; intervals apart
                                   happen by chance about 1 time in 200
Exit 0, or 1 after saying what is wrong."""
import collections
import json
import sys


def records(d):
    with open(f"{d}/games.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def parked(d):
    deals = set()
    try:
        with open(f"{d}/workers.jsonl", encoding="utf-8") as f:
            for line in f:
                e = json.loads(line)
                if e.get("event") == "parked":
                    deals.add(str(e.get("deal")))
    except FileNotFoundError:
        pass
    return deals


def deals(d):
    rotations = collections.defaultdict(set)
    players = 0
    for r in records(d):
        table, deal, rotation = r["id"].split("-")
        rotations[f"{table}-{deal}"].add(rotation)
        players = max(players, len(r["bots"]))
    out = parked(d)
    torn = sorted(k for k, v in rotations.items() if len(v) != players and k not in out)
    if torn:
        print(f"deals without all {players} rotations: {torn[:5]}; parked: {sorted(out)[:5]}")
        return 1
    print(f"{len(rotations)} deals, each whole; {len(out)} parked")
    return 0


def ratings(d):
    with open(f"{d}/ratings.json", encoding="utf-8") as f:
        return {b["bot"]: b for b in json.load(f)["bots"]}


def ranking(d, one_dir):
    w, one = ratings(d), ratings(one_dir)
    bad = []
    for name, b in one.items():
        if name not in w:
            bad.append(f"{name} is not ranked in {d}")
        elif b.get("elo_lo") is None or w[name].get("elo_lo") is None:
            continue  # an anchor, fixed; or a rating set by the prior alone
        elif w[name]["elo_lo"] > b["elo_hi"] or b["elo_lo"] > w[name]["elo_hi"]:
            bad.append(f"{name}: [{w[name]['elo_lo']:.0f}, {w[name]['elo_hi']:.0f}] in {d}, "
                       f"apart from [{b['elo_lo']:.0f}, {b['elo_hi']:.0f}] of {one_dir}")
    for line in bad:
        print(line)
    print(d, {n: round(b["elo"]) for n, b in w.items()},
          one_dir, {n: round(b["elo"]) for n, b in one.items()})
    return 1 if bad else 0


if sys.argv[1] == "deals":
    sys.exit(deals(sys.argv[2]))
sys.exit(ranking(sys.argv[2], sys.argv[3]))
