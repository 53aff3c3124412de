#!/usr/bin/env python3
"""compare_results.py A B: the two tournament directories hold the same results.

Every games.jsonl record alike apart from its timings ("time"), whatever the
order of the lines, and ratings.json (the report's ratings, cross table,
likelihoods of superiority, paired statistics and seats) alike apart from
move times. Prints the first difference and exits 1; exits 0 when alike.
"""
import json
import sys


def records(d):
    out = {}
    with open(d + "/games.jsonl") as f:
        for n, line in enumerate(f, 1):
            r = json.loads(line)
            r.pop("time", None)
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


def main():
    a, b = sys.argv[1], sys.argv[2]
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
    # "fit" names the worst-fitting pair; a pair and its mirror (B against A) fit
    # equally badly, and which of the two is named may follow the records' order
    for j in (ja, jb):
        fit = j.get("fit")
        if isinstance(fit, dict) and "bot" in fit and "opponent" in fit:
            j["fit"] = {"pair": sorted([fit["bot"], fit["opponent"]]),
                        "results": fit.get("results"), "pairs": fit.get("pairs"),
                        "abs_z": abs(fit.get("z", 0)), "p_adjusted": fit.get("p_adjusted")}
    for key in sorted(set(ja) | set(jb)):
        if ja.get(key) != jb.get(key):
            sys.exit(f"ratings.json differs in \"{key}\":\n  {a}: {ja.get(key)}\n  {b}: {jb.get(key)}")
    if not ja["bots"] or not ja["cross"]:
        sys.exit(f"{a}/ratings.json has no ranking or no cross table")
    print(f"alike: {len(ra)} records, {len(ja['bots'])} bots ranked")


main()
