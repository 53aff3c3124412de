#!/usr/bin/env python3
"""bots/strength/head_to_head.py on records whose scores are known by hand."""
import json
import os
import subprocess
import sys
import tempfile

SCRIPT = sys.argv[1]


def record(table, deal, rotation, bots, placings, winners, teams=None):
    teams = teams or [[s] for s in range(len(bots))]
    return {"table": table, "deal": deal, "rotation": rotation, "bots": bots,
            "placings": placings, "winners": winners, "teams": teams}


def run(records):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    try:
        return subprocess.run([sys.executable, SCRIPT, f.name], check=True,
                              capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)


def expect(out, line):
    if line not in out:
        sys.exit(f"expected the line\n  {line}\nin\n{out}")


# 2 players: expert wins 3 of 4 over two deals (each deal 1 of 2 or 2 of 2).
two = [record(0, 0, 0, ["expert", "hard"], [1, 2], [0]),
       record(0, 0, 1, ["hard", "expert"], [1, 2], [0]),
       record(0, 1, 0, ["expert", "hard"], [1, 2], [0]),
       record(0, 1, 1, ["hard", "expert"], [2, 1], [1])]
out = run(two)
# deal scores 1/2 and 2/2, p = 0.75: variance 2 * ((1-1.5)^2 + (2-1.5)^2) / 16 = 0.0625
expect(out, "expert vs hard: 75.0% +- 49.0 (26.0 to 124.0; 4 results, 2 deals)")
expect(out, "expert: wins 3 of 4 seats, 75.0%")
expect(out, "hard: wins 1 of 4 seats, 25.0%")
expect(out, "stalemates: 0 of 4 games, 0.0%")
if "in stalemates" in out:
    sys.exit(f"a score in stalemates without any stalled game:\n{out}")

# Copies are one kind and never paired; teammates (R10) are not paired; an equal
# placing is half; one table's deal 0 and another's are different deals.
four = [record(0, 0, 0, ["expert", "hard", "expert-2", "hard-2"], [1, 2, 1, 2], [0, 2],
               teams=[[0, 2], [1, 3]]),
        record(1, 0, 0, ["expert", "medium", "expert-2", "medium-2"], [1, 1, 1, 1], [],
               teams=[[0, 2], [1, 3]])]
out = run(four)
expect(out, "expert vs hard: 100.0% +- 0.0 (100.0 to 100.0; 4 results, 1 deals)")
expect(out, "expert vs medium: 50.0% +- 0.0 (50.0 to 50.0; 4 results, 1 deals)")
expect(out, "expert: wins 2 of 4 seats, 50.0%")
expect(out, "  in stalemates: 50.0% (4 results)")
expect(out, "stalemates: 1 of 2 games, 50.0%")
if "expert vs expert" in out or "hard vs medium" in out:
    sys.exit(f"copies or kinds that never met were paired:\n{out}")
print("ok")
