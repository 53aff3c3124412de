#!/usr/bin/env python3
"""bench_serve.py ARENA BADBOT [ROUNDS [DEALS]]

What watching a tournament live costs it: the same tournament (4 `badbot
good`, 4 players, stock 10, DEALS deals of 4 rotations, `run -j 2 --quiet
--no-report --sandbox off`) played plainly and with `--serve 127.0.0.1:0`
watched by 10 clients that do what the dashboard does (every second the
tournament's summary, and the ranking and the first page of the game list
when its version changed), alternating, ROUNDS times each. Prints the games/s
of every run, the CPU time the run and its bots took per game (which other
load on the machine disturbs less than the wall time), and the medians; then
the same watching served by a `skipbo-arena serve DIR` process of its own,
whose CPU time is printed as a share of the run's (and its bots'). A benchmark run by hand for arena/README.md,
not a test."""
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def watch(url, stop, counts):
    """One client on one kept-alive connection, as a browser tab polls."""
    host, port = url[len("http://"):].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=5)
    version = None

    def get(path):
        conn.request("GET", path)
        body = conn.getresponse().read()
        counts[0] += 1
        return body

    while not stop.is_set():
        try:
            t = json.loads(get("/api/t/0"))
            if t["version"] != version:
                version = t["version"]
                get("/api/t/0/ranking")
                get("/api/t/0/games?limit=50")
        except (OSError, ValueError, KeyError, http.client.HTTPException):
            conn.close()
        stop.wait(1.0)
    conn.close()


def one_run(arena, badbot, out, deals, watched, separate=False, serve_cpu=None):
    args = [arena, "run", "--players", "4", "--stock", "10", "--deals", str(deals), "-j", "2",
            "-o", out, "--quiet", "--no-report", "--sandbox", "off"]
    for name in "abcd":
        args += ["--bot", "%s=%s good" % (name, badbot)]
    if watched:
        args += ["--serve", "127.0.0.1:0"]
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.monotonic()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    stop, counts, threads = threading.Event(), [0], []
    if watched:
        url = re.search(r"(http://[0-9.:]+)/", proc.stdout.readline()).group(1)
        threads = [threading.Thread(target=watch, args=(url, stop, counts)) for _ in range(10)]
        for t in threads:
            t.start()
    if separate:
        os.makedirs(out, exist_ok=True)
        server = subprocess.Popen([arena, "serve", "--listen", "127.0.0.1:0", out],
                                  stdout=subprocess.PIPE, text=True)
        url = re.search(r"(http://[0-9.:]+)/", server.stdout.readline()).group(1)
        threads = [threading.Thread(target=watch, args=(url, stop, counts)) for _ in range(10)]
        for t in threads:
            t.start()
    proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    if separate:
        with open("/proc/%d/stat" % server.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        serve_cpu[0] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        server.terminate()
        server.wait()
    proc.returncode = 0
    took = time.monotonic() - t0
    stop.set()
    for t in threads:
        t.join()
    with open(os.path.join(out, "games.jsonl")) as f:
        games = sum(1 for _ in f)
    cpu_us = 1e6 * (usage.ru_utime + usage.ru_stime) / games
    if serve_cpu is not None:
        serve_cpu[1] = usage.ru_utime + usage.ru_stime
    return games / took, cpu_us, counts[0]


def main():
    arena, badbot = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    deals = int(sys.argv[4]) if len(sys.argv) > 4 else 750
    tmp = tempfile.mkdtemp(prefix="bench-serve-")
    plain, watched, cpu = [], [], {False: [], True: []}
    try:
        for k in range(rounds):
            for is_watched in ((False, True) if k % 2 == 0 else (True, False)):
                rate, cpu_us, requests = one_run(arena, badbot, os.path.join(tmp, "t"), deals,
                                                 is_watched)
                (watched if is_watched else plain).append(rate)
                cpu[is_watched].append(cpu_us)
                print("round %d %-8s %7.1f games/s, CPU %6.1f us/game (run and bots)%s" %
                      (k + 1, "watched" if is_watched else "plain", rate, cpu_us,
                       ", %d requests" % requests if is_watched else ""), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        # the same watching served by a process of its own: its CPU against the run's
        shares = []
        for k in range(rounds):
            serve_cpu = [0.0, 0.0]
            _, _, requests = one_run(arena, badbot, os.path.join(tmp, "t"), deals, False,
                                     True, serve_cpu)
            shares.append(100 * serve_cpu[0] / serve_cpu[1])
            print("round %d separate serve: %.3f s CPU against the run's %.1f s: %.2f%%, "
                  "%d requests" % (k + 1, serve_cpu[0], serve_cpu[1], shares[-1], requests),
                  flush=True)
    p, w = statistics.median(plain), statistics.median(watched)
    cp, cw = statistics.median(cpu[False]), statistics.median(cpu[True])
    print("median: plain %.1f games/s, watched by 10 clients %.1f games/s: %+.2f%%" %
          (p, w, 100 * (w - p) / p))
    print("median CPU per game: plain %.1f us, watched %.1f us: %+.2f%%" %
          (cp, cw, 100 * (cw - cp) / cp))
    print("median CPU of a separate serve process, as a share of the run's: %.2f%%" %
          statistics.median(shares))
    return 0


if __name__ == "__main__":
    sys.exit(main())
