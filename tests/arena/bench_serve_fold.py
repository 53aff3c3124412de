#!/usr/bin/env python3
"""bench_serve_fold.py ARENA [RECORDS]

A ranking over RECORDS (default 1,000,000) records, served from the
incremental fold: a games.jsonl of that many 2-player records of 8 bots (the
tournament.json of a real run beside it) is served by `skipbo-arena serve`;
printed are the first reading (once, at start), the median time of a
/ranking request, how long 1,000 records appended take to be in the ranking
(refresh: only the new bytes read, then a refit), and, side by side, what
reading every record again costs (`skipbo-arena report`, what a server
without the fold would do per request), and the server's peak RSS. A
benchmark run by hand for arena/README.md, not a test."""
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "serve"))
import serve_fixture as fx  # noqa: E402

BOTS = ["b%d" % i for i in range(8)]


def records(rng, start, count):
    out = []
    for k in range(start, start + count):
        a, b = rng.sample(BOTS, 2)
        win = 0 if rng.random() < 0.5 + 0.05 * (BOTS.index(b) - BOTS.index(a)) else 1
        out.append(json.dumps({
            "id": "t%04d-d%07d-r%d" % (k % 28, k // 56, k // 28 % 2), "table": k % 28,
            "deal": k // 56, "rotation": k // 28 % 2, "seed": k, "players": 2,
            "partnership": False, "teams": [[0], [1]], "match": False, "games": 1,
            "bots": [a, b], "winners": [win], "reason": "stock_emptied",
            "placings": [1, 2] if win == 0 else [2, 1],
            "stock_left": [0, 3] if win == 0 else [3, 0],
            "scores": [30, 0] if win == 0 else [0, 30], "turns": 40, "moves": 120,
            "time": [{"moves": 60, "mean_us": 20.0, "median_us": 18, "p99_us": 50,
                      "max_us": 90}] * 2, "faults": []}, separators=(",", ":")))
    return "\n".join(out) + "\n"


def main():
    arena = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    tmp = tempfile.mkdtemp(prefix="bench-fold-")
    rng = random.Random(7)
    server = None
    try:
        d = os.path.join(tmp, "big")
        os.makedirs(d)
        with open(os.path.join(d, "games.jsonl"), "w") as f:
            for start in range(0, n, 10000):
                f.write(records(rng, start, min(10000, n - start)))
        # a tournament.json for it: a real run's, resolved
        small = os.path.join(tmp, "small")
        bot = os.path.join(os.path.dirname(arena), "..", "bots", "skipbo-easy")
        subprocess.run([arena, "run", "--deals", "1", "--stock", "1", "-o", small, "--quiet",
                        "--no-report", "--sandbox", "off", "--bot", "x=" + bot, "--bot",
                        "y=" + bot], check=True, stdout=subprocess.DEVNULL)
        shutil.copy(os.path.join(small, "tournament.json"), d)
        size = os.path.getsize(os.path.join(d, "games.jsonl"))
        t0 = time.monotonic()
        server = fx.Server(arena, [d])
        url = server.url + "/api/t/0"
        ranking = fx.get_json(url + "/ranking", timeout=600)
        first = time.monotonic() - t0
        assert ranking["records"] == n, ranking["records"]
        times = []
        for _ in range(100):
            t = time.monotonic()
            fx.get_json(url + "/ranking")
            times.append(time.monotonic() - t)
        with open(os.path.join(d, "games.jsonl"), "a") as f:
            f.write(records(rng, n, 1000))
        t = time.monotonic()
        fx.wait_for("the appended records", lambda: fx.get_json(url + "/ranking")["records"]
                    == n + 1000, timeout=60, step=0.01)
        appended = time.monotonic() - t
        t = time.monotonic()
        subprocess.run([arena, "report", "-o", os.path.join(tmp, "report"), d], check=True,
                       stdout=subprocess.DEVNULL)
        full = time.monotonic() - t
        with open("/proc/%d/status" % server.proc.pid) as f:
            rss = [x for x in f if x.startswith("VmHWM")][0].split()[1]
        print("%d records (%.0f MB): first reading %.2f s (once, at start)" %
              (n, size / 1e6, first))
        print("/ranking request: median %.2f ms, max %.2f ms (100 requests)" %
              (1e3 * statistics.median(times), 1e3 * max(times)))
        print("1,000 records appended: in the ranking after %.0f ms" % (1e3 * appended))
        print("reading every record again (skipbo-arena report): %.2f s" % full)
        print("serve peak RSS: %s KiB" % rss)
    finally:
        if server:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
