#!/usr/bin/env python3
"""bench_workers_poll.py URL TOKEN VERSION POLLERS SECONDS HOST_PID

POLLERS simulated workers, a thread each on a kept-alive connection, ask the
host for work (POST /api/work/lease) once a second for SECONDS seconds; a
lease they get they give back at once (POST .../release, "stopping"), so
its deals are handed out again. Prints the answers by status, the latency
of the asks (p50, p99, max; measured in this process, whose threads share
one interpreter, so the figures are an upper bound) and the host's CPU time
(utime + stime of /proc/HOST_PID/stat) over the window. Part of
bench_workers.sh; not a test."""
import collections
import http.client
import json
import os
import sys
import threading
import time

url, token, version = sys.argv[1], sys.argv[2], sys.argv[3]
pollers, seconds, host_pid = int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
addr, port = url[len("http://"):].rstrip("/").split(":")
headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
ask = json.dumps({"version": version, "cpus": 1, "jobs": 1, "bundles": []})
latencies, statuses = [], collections.Counter()
lock = threading.Lock()


def host_cpu():
    with open(f"/proc/{host_pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def poller(start, end):
    conn = http.client.HTTPConnection(addr, int(port), timeout=30)
    next_ask = start
    while True:
        time.sleep(max(0.0, next_ask - time.monotonic()))
        if time.monotonic() >= end:
            break
        t0 = time.monotonic()
        conn.request("POST", "/api/work/lease", ask, headers)
        r = conn.getresponse()
        body = r.read()
        dt = time.monotonic() - t0
        with lock:
            latencies.append(dt)
            statuses[r.status] += 1
        if r.status == 200:
            lease = json.loads(body)["lease"]
            conn.request("POST", f"/api/work/leases/{lease}/release",
                         json.dumps({"why": "stopping"}), headers)
            conn.getresponse().read()
        next_ask += 1.0


def main():
    start = time.monotonic() + 1.0
    end = start + seconds
    # the asks spread over the first second, as workers started at random times would
    threads = [threading.Thread(target=poller, args=(start + i / pollers, end))
               for i in range(pollers)]
    for t in threads:
        t.start()
    time.sleep(max(0.0, start - time.monotonic()))
    c0 = host_cpu()
    for t in threads:
        t.join()
    c1 = host_cpu()
    lat = sorted(latencies)
    q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000
    print(f"(c) {pollers} workers asking once a second for {seconds:.0f} s: {len(lat)} asks "
          f"({dict(statuses)}); latency p50 {q(0.5):.2f} ms, p99 {q(0.99):.2f} ms, "
          f"max {lat[-1] * 1000:.2f} ms; the host's CPU {c1 - c0:.2f} s = "
          f"{100 * (c1 - c0) / seconds:.1f}% of a CPU, {1e6 * (c1 - c0) / len(lat):.0f} us an ask")


main()
