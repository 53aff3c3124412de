#!/usr/bin/env python3
"""test_serve_http.py ARENA EASY MEDIUM BADBOT

`skipbo-arena serve` over HTTP (urllib and raw sockets only): the index finds
every tournament and the shards of one as a set, never one behind a symbolic
link; status codes (200, 400, 404, 405 with Allow); no traversal (`..`,
encoded slashes and dots, a replays/ that links outside: 403); a Host of
another name refused (DNS rebinding: 403); a torn last
line is left out until it is whole, then counted; the status of each shard;
the game list paged and filtered; the JSON-lines stream; one replay and its
viewer page; an SPRT's LLR, bounds, decision and pairs, as `sprt` printed
them, growing as its records arrive; 50 clients at once; 1,000 idle connections held open while it
still answers; the command's refusals; `run --serve` serving its own
directory while it runs, with the replay of its newest game. Bounded to about a minute."""
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_fixture as fx  # noqa: E402

failures = fx.Failures()
check = failures.check


def raw(port, request):
    """Send request bytes as they are; the status code and the body."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(request)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/") else 0
    return status, head.decode("latin-1"), body


def build(tmp, arena):
    a, b, outside = (os.path.join(tmp, d) for d in ("a", "b", "outside"))
    os.makedirs(outside)
    t1 = os.path.join(a, "t1")
    arena.run(t1, 8, bots=["easy=" + arena.easy, "medium=" + arena.medium,
                           "ghost=" + arena.badbot + " exit-at-start"], ok=(0, 3))
    for k in (1, 2):
        arena.run(os.path.join(b, "s", "shard-%d-of-2" % k), 4, "--shard", "%d/2" % k,
                  "--seed", "7")
    torn = os.path.join(a, "torn")
    shutil.copytree(t1, torn)
    with open(os.path.join(torn, "games.jsonl"), "rb+") as f:
        data = f.read()
        f.truncate(len(data) - 40)
    evil = os.path.join(a, "evil")
    shutil.copytree(t1, evil)
    shutil.move(os.path.join(evil, "replays"), os.path.join(outside, "replays"))
    os.symlink(os.path.join(outside, "replays"), os.path.join(evil, "replays"))
    shutil.copytree(t1, os.path.join(outside, "hidden"))
    os.symlink(outside, os.path.join(a, "link"))
    fx.hostile_copy(t1, os.path.join(a, "hostile"))
    return t1, torn, evil, data[len(data) - 40:]


def entries_by_dir(url):
    got = fx.get_json(url + "/api/tournaments")["tournaments"]
    return {os.path.basename(t["dirs"][0]) if t["kind"] == "tournament" else "shards": t
            for t in got}


def test_index(url, tmp):
    byname = entries_by_dir(url)
    check(set(byname) == {"t1", "torn", "evil", "hostile", "shards"},
          "index: expected t1, torn, evil, hostile and one shard set, got %s" % sorted(byname))
    s = byname.get("shards", {})
    check(len(s.get("dirs", [])) == 2 and s.get("state") == "finished",
          "the two shards make one finished set: %s" % s)
    if s:
        shards = fx.get_json("%s/api/t/%d/shards" % (url, s["id"]))["shards"]
        check(sorted((x["shard"], x["shards"], x["games"] == x["scheduled"]) for x in shards)
              == [(1, 2, True), (2, 2, True)], "the status of each shard: %s" % shards)
    t1 = byname.get("t1", {})
    check(t1.get("state") == "finished" and t1.get("games") == t1.get("scheduled") == 48,
          "t1 finished, 48 of 48: %s" % t1)
    check(not any("hidden" in d for t in byname.values() for d in t["dirs"]),
          "a tournament behind a symbolic link is not served")
    return byname


def test_codes(url, port, t1):
    base = "%s/api/t/%d" % (url, t1)
    for path, want in [("/", 200), ("/t/%d" % t1, 200), ("/t/%d/bot/0" % t1, 200),
                       ("/api/tournaments", 200), ("/api/t/%d" % t1, 200),
                       ("/api/t/%d/ranking" % t1, 200), ("/api/t/%d/shards" % t1, 200),
                       ("/api/t/%d/bot/0" % t1, 200), ("/api/t/%d/bot/99" % t1, 404),
                       ("/api/t/999", 404), ("/t/999", 404), ("/nothing", 404),
                       ("/api/t/%d/games?limit=1001" % t1, 400),
                       ("/api/t/%d/games?fault=bogus" % t1, 400),
                       ("/api/t/%d/games?offset=-1" % t1, 400),
                       ("/api/t/%d/game/100000/replay" % t1, 404),
                       ("/api/t/%d/games.jsonl?from=x" % t1, 400)]:
        status, headers, body = fx.get(url + path)
        check(status == want, "GET %s: %d, expected %d (%r)" % (path, status, want, body[:100]))
        check(headers.get("X-Content-Type-Options") == "nosniff", "%s: no nosniff" % path)
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        status, head, _ = raw(port, ("%s /api/t/%d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n"
                                     "Connection: close\r\n\r\n{}" % (method, t1)).encode())
        check(status == 405 and "Allow: GET, HEAD" in head,
              "%s: %d, expected 405 with Allow (%s)" % (method, status, head))
    status, head, body = raw(port, b"HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    check(status == 200 and body == b"", "HEAD /: %d, %d body bytes" % (status, len(body)))
    for path in ["/../../../../etc/passwd", "/t/%d/../../../etc/passwd" % t1,
                 "/t/%d/..%%2f..%%2f..%%2fetc%%2fpasswd" % t1, "/%2e%2e/%2e%2e/etc/passwd",
                 "/api/t/%d/game/..%%2F..%%2Fgames.jsonl/replay" % t1,
                 "/api/t/%d/game/0%%2F..%%2F1/replay" % t1, "/api/t/%d%%2Fgames" % t1,
                 "/api/t/%d/games.jsonl%%00" % t1, "/t/%d/game/-1" % t1,
                 "/api/t/%d/game/+1/replay" % t1, "//etc/passwd", "/api/t/0x0"]:
        status, _, body = raw(port, ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                                     % path).encode())
        check(status in (400, 404) and b"root:" not in body,
              "GET %s: %d, expected 400 or 404" % (path, status))
    check(fx.get(base + "/ranking")[0] == 200, "ranking after the attempts")
    for host, want in [("evil.example", 403), ("127.0.0.1.evil.example", 403),
                       ("localhost:%d" % port, 200), ("LOCALHOST", 200)]:
        status, _, _ = raw(port, ("GET /api/t/%d HTTP/1.1\r\nHost: %s\r\nConnection: close"
                                  "\r\n\r\n" % (t1, host)).encode())
        check(status == want, "Host: %s: %d, expected %d" % (host, status, want))


def test_games(url, t1):
    base = "%s/api/t/%d" % (url, t1)
    ranking = fx.get_json(base + "/ranking")
    names = {b["name"]: b["index"] for b in ranking["bots"]}
    check(set(names) == {"easy", "medium", "ghost"}, "ranking bots: %s" % sorted(names))
    pages, offset = [], 0
    while True:
        page = fx.get_json(base + "/games?limit=7&offset=%d&order=oldest" % offset)
        pages += page["games"]
        if not page["games"]:
            break
        offset += page["listed"]
    check(len(pages) == 48 and [g["n"] for g in pages] == list(range(48)),
          "paged by 7 oldest first: every game once, in order (%d)" % len(pages))
    newest = fx.get_json(base + "/games?limit=3")
    check([g["n"] for g in newest["games"]] == [47, 46, 45], "newest first by default")
    ghost = fx.get_json(base + "/games?limit=1000&fault=start")
    check(ghost["matching"] == 32 and all("ghost" in g["record"]["bots"]
                                          for g in ghost["games"]),
          "fault=start: the 32 games of the bot that never started (%d)" % ghost["matching"])
    vs = fx.get_json(base + "/games?limit=1000&bot=%d&vs=%d" % (names["easy"], names["medium"]))
    check(vs["matching"] == 16 and all(set(g["record"]["bots"]) == {"easy", "medium"}
                                       for g in vs["games"]), "bot and vs filter: %d" %
          vs["matching"])
    status, headers, body = fx.get(base + "/games.jsonl")
    lines = body.decode().splitlines()
    check(status == 200 and len(lines) == 48 and all(json.loads(x)["id"] for x in lines),
          "games.jsonl: 48 JSON lines (%d)" % len(lines))
    tail = fx.get(base + "/games.jsonl?from=40")[2].decode().splitlines()
    check(tail == lines[40:], "games.jsonl?from=40: the last 8 lines")
    replay = fx.get_json(base + "/game/0/replay")
    check(replay.get("format") == "skipbo-replay" and replay.get("id") == pages[0]["record"]["id"],
          "the replay of game 0")
    status, headers, body = fx.get("%s/t/%d/game/0" % (url, t1))
    check(status == 200 and b'id="replay"' in body and "text/html" in headers["Content-Type"],
          "the viewer page of game 0")
    bot = fx.get_json(base + "/bot/%d" % names["medium"])
    check({o["name"] for o in bot["opponents"]} == {"easy", "ghost"} and bot["seats"],
          "bot page: opponents and seats")


def test_evil_and_hostile(url, byname):
    evil = byname["evil"]["id"]
    status, _, body = fx.get("%s/api/t/%d/game/0/replay" % (url, evil))
    check(status == 403 and b"skipbo-replay" not in body,
          "a replay through a replays/ that links outside: %d, expected 403" % status)
    h = fx.get_json("%s/api/t/%d/ranking" % (url, byname["hostile"]["id"]))
    check(fx.HOSTILE in [b["name"] for b in h["bots"]], "a bot name with markup kept as text")


def test_torn(url, byname, torn_dir, rest):
    tid = byname["torn"]["id"]
    summary = fx.get_json("%s/api/t/%d" % (url, tid))
    check(summary["games"] == 47 and summary["shards"][0]["torn_bytes"] > 0,
          "a torn last line: 47 games and the torn bytes counted (%s)" % summary["shards"])
    check(fx.get_json("%s/api/t/%d/ranking" % (url, tid))["records"] == 47,
          "the ranking leaves the torn line out")
    with open(os.path.join(torn_dir, "games.jsonl"), "ab") as f:
        f.write(rest)
    # counted live: never, were the file read only once
    fx.wait_for("the line made whole", lambda: fx.get_json(
        "%s/api/t/%d" % (url, tid))["games"] == 48)


def test_concurrent(url, t1):
    errors = []

    def client(k):
        for i in range(20):
            path = ["/api/t/%d" % t1, "/api/t/%d/ranking" % t1, "/api/t/%d/games?limit=20" % t1,
                    "/", "/api/t/%d/game/%d/replay" % (t1, (k + i) % 48)][i % 5]
            status = fx.get(url + path)[0]
            if status != 200:
                errors.append((path, status))

    threads = [threading.Thread(target=client, args=(k,)) for k in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    check(not errors, "50 clients at once: %s" % errors[:5])


def test_idle(url, port):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        print("skip: 1,000 idle connections need an open-file limit above 1200")
        return
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    idle = []
    try:
        for _ in range(1000):
            s = socket.socket()
            s.settimeout(10)
            s.connect(("127.0.0.1", port))
            idle.append(s)
        t0 = time.monotonic()
        status = fx.get(url + "/api/tournaments")[0]
        took = time.monotonic() - t0
        # served while they hold their slots: blocked, it would wait for their idle
        # timeout (SERVE_IDLE_S, 60 s); the bound is far above a loaded machine's delay
        check(status == 200 and took < 30,
              "with 1,000 idle connections open: %d in %.2f s" % (status, took))
    finally:
        for s in idle:
            s.close()


def test_run_serve(arena, tmp):
    out = os.path.join(tmp, "live")
    proc = arena.run(out, 200, "--serve", "127.0.0.1:0", wait=False)
    try:
        url = fx.url_of_run(proc)
        seen = fx.wait_for("run --serve to list its tournament", lambda: [
            t for t in fx.get_json(url + "/api/tournaments")["tournaments"]
            if t["games"] > 0])
        check(seen[0]["dirs"] == [out], "run --serve serves its output directory")
        # the newest game's replay, from a pack still being written
        newest = fx.get_json(url + "/api/t/0/games?limit=1")["games"][0]["n"]
        status, _, body = fx.get("%s/api/t/0/game/%d/replay" % (url, newest))
        check(status == 200 and b"skipbo-replay" in body,
              "the replay of the newest game while the run goes on: %d" % status)
    finally:
        proc.terminate()
        proc.wait(timeout=120)


def sprt_final(text):
    """(pairs, llr, decision) of the "final" and "result" lines `sprt` prints."""
    m = re.search(r"^final +(\d+) .* LLR ([-+][0-9.]+) ", text, re.M)
    r = re.search(r"^result: (H0|H1|undecided)", text, re.M)
    return int(m.group(1)), float(m.group(2)), {"undecided": None}.get(r.group(1), r.group(1))


def test_sprt(arena, tmp):
    """An SPRT directory: the summary's "sprt" says what `sprt` printed; a copy whose
    games.jsonl grows line by line shows the test growing to the same end."""
    full, growing = os.path.join(tmp, "sprt", "full"), os.path.join(tmp, "sprt", "growing")
    r = subprocess.run([arena.arena, "sprt", "-q", "--seed", "3", "--elo0", "0", "--elo1", "50",
                        "--max-pairs", "100", "--stock", "5", "-o", full, "--sandbox", "off",
                        "--memory-mb", "0", arena.medium, arena.easy],
                       capture_output=True, text=True, timeout=120)
    pairs, llr, decision = sprt_final(r.stdout)
    os.makedirs(growing)
    shutil.copy(os.path.join(full, "tournament.json"), growing)
    with open(os.path.join(full, "games.jsonl")) as f:
        lines = f.readlines()
    # deal 0's pair and deal 1's first game first (the order plays rotations in phases)
    first = [next(line for line in lines if json.loads(line)["id"] == gid)
             for gid in ("t0000-d0000-r0", "t0000-d0000-r1", "t0000-d0001-r0")]
    lines = first + [line for line in lines if line not in first]
    with open(os.path.join(growing, "games.jsonl"), "w") as f:
        f.writelines(lines[:3])
    server = fx.Server(arena.arena, [os.path.join(tmp, "sprt")])
    try:
        byname = entries_by_dir(server.url)
        got = fx.get_json("%s/api/t/%d" % (server.url, byname["full"]["id"]))["sprt"]
        check(got is not None and got["pairs"] == pairs and abs(got["llr"] - llr) < 5e-4 and
              got["decision"] == decision and got["elo1"] == 50 and
              abs(got["upper"] - 2.944439) < 1e-5 and abs(got["lower"] + 2.944439) < 1e-5,
              "the SPRT as sprt printed it (%d pairs, LLR %g, %s): %r" % (pairs, llr, decision,
                                                                         got))
        check(byname["full"]["state"] == "finished",
              "a decided SPRT is finished before its last deal: %r" % byname["full"])
        gid = byname["growing"]["id"]
        early = fx.get_json("%s/api/t/%d" % (server.url, gid))["sprt"]
        check(early["pairs"] == 1 and early["pending_games"] == 1 and early["decision"] is None,
              "three games: one pair counted, one game waiting: %r" % early)
        with open(os.path.join(growing, "games.jsonl"), "a") as f:
            f.writelines(lines[3:])
        late = fx.wait_for("the growing SPRT to reach the end", lambda: (lambda t: t if
                           t["pairs"] == pairs else None)(
            fx.get_json("%s/api/t/%d" % (server.url, gid))["sprt"]))
        check(late and abs(late["llr"] - llr) < 5e-4 and late["decision"] == decision,
              "the growing SPRT ends as sprt did: %r" % late)
    finally:
        server.stop()


def test_cli(arena_path, tmp, port):
    """Refusals: no directory (2), one that is none (1), a bad address (1), a port in use (1)."""
    for args, want, says in [([], 2, "expected at least one DIR"),
                             ([os.path.join(tmp, "nothing")], 1, "not a directory"),
                             (["--listen", "127.0.0.1", tmp], 1, "expected ADDR:PORT"),
                             (["--listen", "127.0.0.1:%d" % port, tmp], 1,
                              "Address already in use (another program has that port: name "
                              "another with --listen, or let the system choose a free one "
                              "with --listen 127.0.0.1:0)")]:
        r = subprocess.run([arena_path, "serve"] + args, capture_output=True, text=True,
                           timeout=120)
        check(r.returncode == want and says in r.stderr,
              "serve %s: exit %d, expected %d saying %r (%r)" % (" ".join(args), r.returncode,
                                                               want, says, r.stderr))


def main():
    arena = fx.Arena(*sys.argv[1:5])
    tmp = tempfile.mkdtemp(prefix="serve-http-")
    server = None
    try:
        t1, torn, _, rest = build(tmp, arena)
        server = fx.Server(arena.arena, [os.path.join(tmp, "a"), os.path.join(tmp, "b")])
        byname = test_index(server.url, tmp)
        tid = byname["t1"]["id"]
        test_codes(server.url, server.port, tid)
        test_games(server.url, tid)
        check(fx.get_json("%s/api/t/%d" % (server.url, tid))["sprt"] is None,
              "a tournament that is no SPRT has \"sprt\": null")
        test_evil_and_hostile(server.url, byname)
        test_torn(server.url, byname, torn, rest)
        test_concurrent(server.url, tid)
        test_idle(server.url, server.port)
        test_cli(arena.arena, tmp, server.port)
        check(server.stop() == 0, "serve exits 0 on SIGTERM")
        server = None
        test_run_serve(arena, tmp)
        test_sprt(arena, tmp)
    finally:
        if server:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return failures.status()


if __name__ == "__main__":
    sys.exit(main())
