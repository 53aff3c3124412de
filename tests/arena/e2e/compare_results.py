#!/usr/bin/env python3
"""compare_results.py [--ranking] A B: the two tournament directories hold the same results.

Every games.jsonl record alike apart from its timings ("time") and where its
replay is (the pack, offset and length differ from run to run: only whether
there is one counts), whatever the order of the lines, and ratings.json (the report's ratings, cross table,
likelihoods of superiority, paired statistics, seats, notes) alike apart from
move times. With --ranking, of ratings.json only the ranking (each bot's
rank, Elo, games, wins and points) and the cross table: what a report over
several directories shares with the report of their merge, whose
cluster-robust intervals depend on the order of the records.
Prints the first difference and exits 1; exits 0 when alike.
"""
import json
import sys


def records(d):
    out = {}
    with open(d + "/games.jsonl") as f:
        for n, line in enumerate(f, 1):
            r = json.loads(line)
            r.pop("time", None)
            r["replay"] = "replay" in r
            r.pop("replay_offset", None)
            r.pop("replay_line", None)
            if r["id"] in out:
                sys.exit(f"{d}/games.jsonl, line {n}: game {r['id']} recorded twice")
            out[r["id"]] = r
    return out


def untimed(v):
    if isinstance(v, dict):
        return {k: untimed(x) for k, x in v.items() if k != "time"}
    if isinstance(v, list):
        return [untimed(x) for x in v]
    return v


def ranking(j):
    keys = ("rank", "bot", "elo", "games", "wins", "points")
    return {"bots": [{k: b.get(k) for k in keys} for b in j["bots"]], "cross": j["cross"]}


def main():
    args = sys.argv[1:]
    only_ranking = args[0] == "--ranking"
    a, b = args[-2], args[-1]
    ra, rb = records(a), records(b)
    if ra.keys() != rb.keys():
        only = sorted(set(ra) ^ set(rb))
        sys.exit(f"games differ: {len(ra)} in {a}, {len(rb)} in {b}; e.g. {only[:5]}")
    for gid in sorted(ra):
        if ra[gid] != rb[gid]:
            sys.exit(f"game {gid} differs:\n  {a}: {ra[gid]}\n  {b}: {rb[gid]}")
    with open(a + "/ratings.json") as f:
        ja = untimed(json.load(f))
    with open(b + "/ratings.json") as f:
        jb = untimed(json.load(f))
    if only_ranking:
        ja, jb = ranking(ja), ranking(jb)
    for key in sorted(set(ja) | set(jb)):
        if ja.get(key) != jb.get(key):
            sys.exit(f"ratings.json differs in \"{key}\":\n  {a}: {ja.get(key)}\n  {b}: {jb.get(key)}")
    if not ja["bots"] or not ja["cross"]:
        sys.exit(f"{a}/ratings.json has no ranking or no cross table")
    print(f"alike: {len(ra)} records, {len(ja['bots'])} bots ranked")


main()
