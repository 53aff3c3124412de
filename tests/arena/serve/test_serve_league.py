#!/usr/bin/env python3
"""test_serve_league.py ARENA EASY MEDIUM BADBOT

`skipbo-arena serve` on a league's directory (arena/LEAGUE.md), played with
the built bots (serve_fixture.make_league), checked field by field:
- the index and the summary say "league", with games today (those after the
  last refit on record before midnight) and no end (no ETA);
- every entry's state (playing, held, suspended, retired), why, and lineage
  (b@2 follows b);
- the ranking pins the anchors at league.jsonc's Elo, and every entry's Elo
  and the verdict are those of `skipbo-arena report DIR`;
- the chart of report.html's league section is served;
- a refused edit of league.jsonc is shown with its errors, the anchors stay
  pinned (the last good file, as the league plays on with it), and it goes
  once the file loads again."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_fixture as fx  # noqa: E402

failures = fx.Failures()
check = failures.check


def report_of(arena, league, out):
    """ratings.json of `report DIR`, and the verdict line it prints first."""
    text = subprocess.run([arena, "report", "-o", out, league], timeout=60, check=True,
                          stdout=subprocess.PIPE, text=True).stdout
    with open(os.path.join(out, "ratings.json")) as f:
        return json.load(f), text


def entries(url):
    return {x["name"]: x for x in fx.get_json(url)["league"]["entries"]}


def check_entries(url):
    got = entries(url)
    want = {"a": ("retired", None, 1), "b": ("retired", None, 1), "b@2": ("playing", "b", 2),
            "h": ("held", None, 1), "z": ("suspended", None, 1),
            "skipbo-medium": ("playing", None, 1), "skipbo-easy": ("playing", None, 1)}
    check(sorted(got) == sorted(want), "entries: %s" % sorted(got))
    for name, (state, previous, version) in want.items():
        x = got.get(name, {})
        check(x.get("state") == state, "%s: state %r, expected %r" % (name, x.get("state"), state))
        check(x.get("previous") == previous, "%s: previous %r" % (name, x.get("previous")))
        check(x.get("version") == version, "%s: version %r" % (name, x.get("version")))
    why = {n: (got.get(n) or {}).get("why") or "" for n in want}
    check("b@2" in why["b"], "b's why names its new version: %r" % why["b"])
    check("changed" in why["h"] and "/h" in why["h"], "h's why says its file changed: %r"
          % why["h"])
    check("start" in why["z"], "z's why names its start faults: %r" % why["z"])
    check(why["b@2"] == "" and why["skipbo-medium"] == "", "entries in play have no why")
    anchors = {n: got[n]["anchor_elo"] for n in got if got[n]["anchor"]}
    check(anchors == {"skipbo-medium": 0, "skipbo-easy": -1000}, "anchors: %s" % anchors)


def check_ranking(url, rep, printed):
    r = fx.get_json(url + "/ranking")
    mine = {b["name"]: b for b in r["bots"]}
    theirs = {b["bot"]: b for b in rep["bots"]}
    check(sorted(mine) == sorted(theirs), "ranked: %s, report: %s" % (sorted(mine),
                                                                        sorted(theirs)))
    for name, b in theirs.items():
        elo = b["elo_bound_value"] if b["elo_bound"] else b["elo"]
        got = mine.get(name, {}).get("elo")
        check(got is not None and abs(got - elo) < 0.02,
              "%s: Elo %s on the dashboard, %s in the report" % (name, got, elo))
        check(mine.get(name, {}).get("rank") == b["pool_rank"], "%s: rank %s, report %s"
              % (name, mine.get(name, {}).get("rank"), b["pool_rank"]))
    check(mine["skipbo-medium"]["elo"] == 0 and mine["skipbo-medium"]["anchor"],
          "skipbo-medium is not pinned at 0: %s" % mine["skipbo-medium"])
    check(not mine["b@2"]["anchor"], "b@2 is not an anchor")
    # report prints its verdict first, when the games allow one (a leader rated by
    # the prior alone has none): the dashboard says the same, or nothing with it
    said = [line for line in printed.splitlines() if " leads " in line]
    check((r["verdict"] or None) == (said[0] if said else None),
          "the verdict %r is not report's:\n%s" % (r["verdict"], printed[:400]))
    return r


def main():
    arena = fx.Arena(*sys.argv[1:5])
    tmp = tempfile.mkdtemp(prefix="serve-league-")
    server = None
    try:
        league = os.path.join(tmp, "leagues", "club")
        bins = fx.make_league(arena, league)
        rep, printed = report_of(arena.arena, league, os.path.join(tmp, "report"))
        # the first run's refits dated two days back: its games are not today's
        history = os.path.join(league, "history.jsonl")
        with open(history) as f:
            lines = [json.loads(line) for line in f]
        check(len(lines) >= 2, "history lines: %d" % len(lines))
        first_run = [x for x in lines if x["games"] <= 40]
        for x in first_run:
            x["time"] -= 2 * 86400
        with open(history, "w") as f:
            f.writelines(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)
        before = first_run[-1]["games"] if first_run else 0
        server = fx.Server(arena.arena, [os.path.join(tmp, "leagues")])
        index = fx.get_json(server.url + "/api/tournaments")["tournaments"]
        check(len(index) == 1 and index[0]["kind"] == "league", "index: %s" % index)
        url = server.url + "/api/t/%d" % index[0]["id"]
        t = fx.get_json(url)
        games = sum(1 for _ in open(os.path.join(league, "games.jsonl")))
        check(t["kind"] == "league" and t["games"] == games, "summary: %s games of %d"
              % (t["games"], games))
        check(before > 0 and t["games_today"] == games - before,
              "games today: %s of %d, %d of them before today" % (t["games_today"], games,
                                                                  before))
        check(t["eta_s"] is None and t["state"] != "finished", "a league has no end: %s %s"
              % (t["state"], t["eta_s"]))
        check(t["league"]["refused"] is None, "refused: %r" % t["league"]["refused"])
        check(t["league"]["history_lines"] >= 2, "history lines: %s"
              % t["league"]["history_lines"])
        check("%" not in json.dumps(t), "a percentage in the summary")
        check_entries(url)
        check_ranking(url, rep, printed)
        status, headers, body = fx.get(url + "/league/chart")
        check(status == 200 and b'<svg id="league-history"' in body and b"b@2" in body,
              "the chart: HTTP %d %r" % (status, body[:200]))
        status, _, _ = fx.get(server.url + "/api/t/99/league/chart")
        check(status == 404, "the chart of no entry: HTTP %d" % status)

        # A refused edit: shown with its errors, the last good anchors kept; fixed: gone.
        path = os.path.join(league, "league.jsonc")
        with open(path, "w") as f:
            f.write(fx.league_file(bins, 100, floor='"two"'))
        refused = fx.wait_for("the refused edit", lambda: fx.get_json(url)["league"]["refused"])
        check("league.jsonc:" in refused and "league.floor" in refused,
              "the refused edit's errors: %r" % refused)
        pinned = {b["name"]: b["elo"] for b in fx.get_json(url + "/ranking")["bots"]
                  if b["anchor"]}
        check(pinned == {"skipbo-medium": 0, "skipbo-easy": -1000},
              "anchors while an edit is refused: %s" % pinned)
        with open(path, "w") as f:
            f.write(fx.league_file(bins, 100))
        fx.wait_for("the edit taken", lambda: fx.get_json(url)["league"]["refused"] is None)

        # `league --serve`: the league's own page while it plays on, and a clean stop
        with open(path, "w") as f:
            f.write(fx.league_file(bins, 1000000))
        proc = subprocess.Popen([arena.arena, "league", "--serve", "127.0.0.1:0", league],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            live = fx.url_of_run(proc)
            grown = fx.wait_for("league --serve to show its new games", lambda: [
                t for t in fx.get_json(live + "/api/tournaments")["tournaments"]
                if t["kind"] == "league" and t["games"] > games], timeout=120)
            check(grown[0]["dirs"] == [league], "league --serve serves its directory: %s"
                  % grown[0]["dirs"])
        finally:
            proc.terminate()
            said = proc.communicate(timeout=120)[0]
        check(proc.returncode == 0 and "league: stopped" in said,
              "league --serve stopped by SIGTERM: exit %s, %r" % (proc.returncode, said[-300:]))
    finally:
        if server:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return failures.status()


if __name__ == "__main__":
    sys.exit(main())
