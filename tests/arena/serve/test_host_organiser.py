"""test_host_organiser.py - the organiser's powers over a hosted competition
and its private games, over real HTTP (port 0):
- public_games false: the game list, games.jsonl, a replay and its viewer page
  show a game only to the author of an entry that played it and to
  organisers; to others the list is empty and a game is 404; the ranking
  stays public;
- POST /api/freeze and /api/unfreeze: refused to authors (403), submissions
  refused while frozen, the freeze kept across a restart of host;
- POST /api/authors/NAME/disable: refused to authors, the author's token
  refused from then on, their submissions disabled and entries retired;
- GET /api/entries/NAME and its /stderr: an entry's rating history, its
  faults by kind with a reproduce line that, run, deals the faulty game
  again, and its stderr log, to its author and organisers only (others 404);
- POST /api/challenges: of one's own entry only, queued, limited per pair of
  entries in 24 hours (429 with Retry-After, also after a restart), readable
  by its author and organisers.
    test_host_organiser.py ARENA BADBOT"""
import http.client
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from host_fixture import (Host, check, entered_bots, failures, make_competition,  # noqa: E402
                          valid)

arena, badbot = (os.path.abspath(a) for a in sys.argv[1:3])
work = tempfile.mkdtemp(prefix="skipbo-organiser.")
os.chmod(work, 0o755)
def req(host, method, path, body=None, token=None, schema=None):
    """One request: (status, body as text); a JSON answer checked against schema."""
    headers = {"Content-Type": "application/octet-stream"}
    if token:
        headers["Authorization"] = "Bearer " + token
    c = http.client.HTTPConnection("127.0.0.1", host.port, timeout=60)
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read().decode("utf-8", "replace")
    c.close()
    if r.headers.get("Content-Type") == "application/json":
        valid(json.loads(data), "error" if r.status >= 400 else schema)
    return r.status, data


def error_of(text):
    try:
        return json.loads(text)["error"]
    except (ValueError, KeyError):
        return ""


def tiny_archive():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        data = b"print('hi')\n"
        info = tarfile.TarInfo("bot.py")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


C = os.path.join(work, "C")
tokens = make_competition(arena, badbot, C, {"public_games": False},
                          {"alice": [], "bob": [], "carol": [], "org": ["--organiser"]})
alice, bob, carol, org = tokens["alice"], tokens["bob"], tokens["carol"], tokens["org"]
# two entries that play from the start: alice's "a" talks on stderr, bob's "b" moves
# illegally
entered_bots(C, {"a": ("alice", [badbot, "chatty"]), "b": ("bob", [badbot, "illegal"])})

host = Host(arena, C, os.path.join(work, "host.out"))
try:
    tid, games = None, {}
    for _ in range(600):  # a hang guard far above the first game's time
        time.sleep(0.2)
        if tid is None:
            s, t = req(host, "GET", "/api/tournaments")
            listed = json.loads(t)["tournaments"] if s == 200 else []
            tid = listed[0]["id"] if listed else None
            continue
        s, t = req(host, "GET", "/api/t/%d/games" % tid, token=org, schema="games")
        games = json.loads(t) if s == 200 else {}
        if any("a" in g["record"]["bots"] for g in games.get("games", [])):
            break
    check(games.get("matching", 0) >= 1, "the organiser sees no game: %s" % games)
    # a game of alice's entry (the league's anchor plays too, where it is installed)
    n = next((g["n"] for g in games.get("games", []) if "a" in g["record"]["bots"]), 0)
    replay, page = "/api/t/%d/game/%d/replay" % (tid, n), "/t/%d/game/%d" % (tid, n)

    # the author of an entry that played and the organiser see the game
    for who, token in (("org", org), ("alice", alice)):
        s, t = req(host, "GET", "/api/t/%d/games" % tid, token=token, schema="games")
        check(s == 200 and json.loads(t)["matching"] >= 1, "%s's game list: %s" % (who, t))
        s, t = req(host, "GET", replay, token=token)
        check(s == 200, "%s's replay: %d %s" % (who, s, t[:200]))
        s, t = req(host, "GET", page, token=token)
        check(s == 200 and "<html" in t.lower(), "%s's viewer page: %d" % (who, s))
        s, t = req(host, "GET", "/api/t/%d/games.jsonl" % tid, token=token)
        check(s == 200 and t.count("\n") >= 1, "%s's games.jsonl: %d %r" % (who, s, t[:100]))
    # anyone else: no game, each one 404 as one that does not exist; the ranking public
    for who, token in (("a visitor", None), ("carol", carol)):
        s, t = req(host, "GET", "/api/t/%d/games" % tid, token=token, schema="games")
        check(s == 200 and json.loads(t)["matching"] == 0 and not json.loads(t)["games"],
              "%s's game list: %s" % (who, t[:300]))
        s, t = req(host, "GET", replay, token=token)
        check(s == 404, "%s's replay: %d %s" % (who, s, t[:200]))
        s, t = req(host, "GET", page, token=token)
        check(s == 404, "%s's viewer page: %d" % (who, s))
        s, t = req(host, "GET", "/api/t/%d/games.jsonl" % tid, token=token)
        check(s == 200 and t == "", "%s's games.jsonl: %d %r" % (who, s, t[:100]))
        s, t = req(host, "GET", "/api/t/%d/ranking" % tid, token=token, schema="ranking")
        check(s == 200 and len(json.loads(t)["bots"]) >= 2, "%s's ranking: %s" % (who, t[:300]))

    # an entry's page: its history, faults with a reproduce line, stderr; its author's only
    doc = {}
    for _ in range(600):
        s, t = req(host, "GET", "/api/entries/b", token=bob, schema="entry")
        doc = json.loads(t) if s == 200 else {}
        if doc.get("faults") and doc.get("history"):
            break
        time.sleep(0.2)
    check(doc.get("entry") == "b" and doc.get("stderr") == "/api/entries/b/stderr",
          "bob's entry b: %s" % doc)
    check(len(doc.get("history", [])) >= 1 and doc["history"][-1]["games"] >= 1,
          "b's rating history: %s" % doc.get("history"))
    fault = doc["faults"][0] if doc.get("faults") else {}
    check(fault.get("kind") == "illegal" and fault.get("count", 0) >= 1 and
          fault.get("reproduce", "").startswith("skipbo-arena play --game-id ") and
          (" -- %s illegal" % badbot) in fault.get("reproduce", ""), "b's faults: %s" % doc)
    if fault.get("reproduce"):
        r = subprocess.run(arena + fault["reproduce"][len("skipbo-arena"):], shell=True,
                           capture_output=True, text=True, timeout=120)
        check("illegal" in r.stdout + r.stderr, "b's reproduce line, run: %d %s %s" % (
              r.returncode, r.stdout[-500:], r.stderr[-500:]))
    s, t = req(host, "GET", "/api/entries/a", token=alice, schema="entry")
    check(s == 200 and json.loads(t)["faults"] == [], "alice's entry a: %d %s" % (s, t))
    s, t = req(host, "GET", "/api/entries/a/stderr", token=alice)
    check(s == 200 and "chatty: started" in t, "a's stderr: %d %r" % (s, t[:200]))
    s, t = req(host, "GET", "/api/entries/a", token=org, schema="entry")
    check(s == 200, "the organiser's view of a: %d %s" % (s, t))
    for who, token, path in (("bob", bob, "/api/entries/a"), ("bob", bob, "/api/entries/a/stderr"),
                             ("carol", carol, "/api/entries/b"), ("org", org, "/api/entries/zz")):
        s, t = req(host, "GET", path, token=token)
        check(s == 404 and "no entry" in error_of(t), "%s's %s: %d %s" % (who, path, s, t))
    s, t = req(host, "GET", "/api/entries/a")
    check(s == 401, "a visitor's entry page: %d %s" % (s, t))

    # challenges: of one's own entry, limited per pair (either order) in 24 hours
    def challenge(token, body):
        c = http.client.HTTPConnection("127.0.0.1", host.port, timeout=60)
        c.request("POST", "/api/challenges", body=json.dumps(body),
                  headers={"Authorization": "Bearer " + token,
                           "Content-Type": "application/json"})
        r = c.getresponse()
        data = r.read().decode()
        c.close()
        valid(json.loads(data), "challenge_asked" if r.status == 202 else "error")
        return r.status, r.headers.get("Retry-After"), data

    for i in range(1, 4):
        s, retry, t = challenge(alice, {"bot": "a", "opponent": "b", "deals": 2})
        check(s == 202 and json.loads(t) == {"id": i, "state": "queued",
                                             "url": "/api/challenges/%d" % i},
              "challenge %d: %d %s" % (i, s, t))
    for who, token, body in (("alice", alice, {"bot": "a", "opponent": "b"}),
                             ("bob", bob, {"bot": "b", "opponent": "a", "deals": 1})):
        s, retry, t = challenge(token, body)
        check(s == 429 and int(retry or 0) > 0 and "challenges_per_pair_day" in error_of(t),
              "%s's 4th challenge of a and b: %d %s %s" % (who, s, retry, t))
    s, retry, t = challenge(alice, {"bot": "b", "opponent": "a"})
    check(s == 403 and "no entry of yours" in error_of(t), "another's entry: %d %s" % (s, t))
    s, retry, t = challenge(alice, {"bot": "a", "opponent": "zz"})
    check(s == 400 and "opponent" in error_of(t), "an unknown opponent: %d %s" % (s, t))
    s, retry, t = challenge(alice, {"bot": "a", "opponent": "b", "deals": 0})
    check(s == 400 and "deals" in error_of(t), "deals 0: %d %s" % (s, t))
    s, t = req(host, "GET", "/api/challenges/1", token=alice, schema="challenge")
    doc = json.loads(t) if s == 200 else {}
    check(doc.get("state") in ("queued", "played") and doc.get("opponent") == "b" and
          doc.get("play", "").startswith("skipbo-arena league challenge --deals 2 "),
          "challenge 1: %d %s" % (s, t))
    # host plays them, one at a time: 2 deals, each in both seatings
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        s, t = req(host, "GET", "/api/challenges/3", token=alice, schema="challenge")
        if s != 200 or json.loads(t).get("state") != "queued":
            break
        time.sleep(0.5)
    for i in range(1, 4):
        s, t = req(host, "GET", "/api/challenges/%d" % i, token=alice, schema="challenge")
        doc = json.loads(t) if s == 200 else {}
        check(doc.get("state") == "played" and doc.get("games") == 4 and
              len(doc.get("won", [])) == 2 and sum(doc["won"]) <= 4,
              "challenge %d played: %d %s" % (i, s, t))
    s, t = req(host, "GET", "/api/challenges/1", token=carol)
    check(s == 404, "carol reads alice's challenge: %d %s" % (s, t))
    s, t = req(host, "GET", "/api/challenges/1", token=org, schema="challenge")
    check(s == 200, "the organiser reads a challenge: %d %s" % (s, t))

    # the freeze: the organiser's only, durable across a restart
    s, t = req(host, "POST", "/api/freeze", token=bob)
    check(s == 403 and "only an organiser freezes" in error_of(t), "bob's freeze: %d %s" % (s, t))
    s, t = req(host, "POST", "/api/freeze", token=org, schema="frozen")
    check(s == 200 and json.loads(t) == {"frozen": True}, "the freeze: %d %s" % (s, t))
    s, t = req(host, "POST", "/api/bots/c/submissions", tiny_archive(), token=carol)
    check(s == 403 and "frozen" in error_of(t), "a submission while frozen: %d %s" % (s, t))
    check(host.stop() == 0, "host did not stop with status 0")
    host = Host(arena, C, os.path.join(work, "host.out"))
    s, t = req(host, "POST", "/api/bots/c/submissions", tiny_archive(), token=carol)
    check(s == 403 and "frozen" in error_of(t), "frozen after a restart: %d %s" % (s, t))
    s, retry, t = challenge(alice, {"bot": "a", "opponent": "b"})
    check(s == 429, "the challenges' limit after a restart: %d %s" % (s, t))
    s, t = req(host, "POST", "/api/unfreeze", token=alice)
    check(s == 403, "alice's unfreeze: %d %s" % (s, t))
    s, t = req(host, "POST", "/api/unfreeze", token=org, schema="frozen")
    check(s == 200 and json.loads(t) == {"frozen": False}, "the unfreeze: %d %s" % (s, t))
    s, t = req(host, "POST", "/api/bots/c/submissions", tiny_archive(), token=carol,
               schema="received")
    check(s == 202, "a submission after the unfreeze: %d %s" % (s, t))

    # disabling an author: the organiser's only; token refused, entries retired
    s, t = req(host, "POST", "/api/authors/alice/disable", token=bob)
    check(s == 403 and "only an organiser" in error_of(t), "bob disables alice: %d %s" % (s, t))
    s, t = req(host, "POST", "/api/authors/nobody/disable", token=org)
    check(s == 404 and "no live author" in error_of(t), "an unknown author: %d %s" % (s, t))
    s, t = req(host, "POST", "/api/authors/alice/disable", token=org, schema="author_disabled")
    check(s == 200 and json.loads(t) == {"author": "alice", "state": "disabled",
                                         "submissions": 1}, "alice disabled: %d %s" % (s, t))
    s, t = req(host, "GET", "/api/me", token=alice)
    check(s == 401, "alice's token after the disable: %d %s" % (s, t))
    s, t = req(host, "GET", "/api/submissions/1", token=org, schema="submission")
    check(s == 200 and json.loads(t)["disabled"] and "alice was disabled" in json.loads(t)["why"],
          "alice's submission after the disable: %s" % t)
    with open(os.path.join(C, "entries.jsonl")) as f:
        retired = [json.loads(x) for x in f if '"retire' in x]
    check(any("alice was disabled" in json.dumps(e) for e in retired),
          "the entry a not retired: %s" % retired)
finally:
    status = host.stop()
check(status == 0, "host's exit status: %d; %s" % (status, open(host.log).read()[-2000:]))
if failures:
    print("%d failed; work dir kept: %s" % (len(failures), work))
    sys.exit(1)
shutil.rmtree(work, ignore_errors=True)
print("ok")
