#!/usr/bin/env python3
"""test_report_browser.py ARENA MEDIUM EASY BADBOT FIXTURE_DIR ARTEFACTS

report.html in headless Chromium at 400 and 1400 px: no sideways overflow of
the page, every chart drawn, its box no wider than the page (a wider chart
scrolls inside it), every chart label 11 px or more, and at 400 x 800 px the
ranking on the first screen; for a tournament
where one bot never starts (badbot exit-at-start): the tournament's name and
settings in the header, the boxed warning naming that bot, its start faults
in the faults table and their reason with an example game, the game list (every faulted game, a sample of the
others, each linking to its viewer page, the filters); for records where one bot is far weaker than the
others: its point clipped and marked at the end of the Elo axis, so that the
others are not squeezed into a corner. Screenshots go to ARTEFACTS. Exit 77 (skipped) without chromium."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "game"))
import cdp  # noqa: E402

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


# Each chart's box (the element that scrolls it sideways, else the chart), the
# smallest label on screen in px (font size times the chart's scale), and
# where the ranking starts.
LAYOUT = r"""(function () {
  var de = document.documentElement, out = {overflow: de.scrollWidth - de.clientWidth, charts: []};
  document.querySelectorAll('svg').forEach(function (s) {
    var b = s.getBoundingClientRect(), box = s.parentElement, scale = s.getScreenCTM().a,
      small = Infinity;
    if (getComputedStyle(box).overflowX !== 'auto')
      box = s;
    s.querySelectorAll('text').forEach(function (t) {
      small = Math.min(small, parseFloat(getComputedStyle(t).fontSize) * scale);
    });
    out.charts.push({id: s.id, width: b.width, right: box.getBoundingClientRect().right,
                     height: b.height, label_px: small});
  });
  out.viewport = de.clientWidth;
  out.ranking_top = document.getElementById('ranking').getBoundingClientRect().top + scrollY;
  return out;
})()"""

LABEL_PX_MIN = 11
FIRST_SCREEN_PX = 800

# x of each Elo circle in percent of the chart's width (the plot runs from 6 to 94)
ELO_X = r"""(function () {
  var c = document.querySelectorAll('#elo-chart circle.elo');
  return Array.prototype.map.call(c, function (e) { return parseFloat(e.getAttribute('cx')); });
})()"""


def layout(b, name, shots, charts_expected):
    for width in (400, 1400):
        b.width(width, FIRST_SCREEN_PX)
        got = b.eval(LAYOUT)
        if got["ranking_top"] >= FIRST_SCREEN_PX:
            fail("%s at %d px: the ranking starts at %.0f px, below the first screen (%d px)" %
                 (name, width, got["ranking_top"], FIRST_SCREEN_PX))
        if got["overflow"] > 0:
            fail("%s at %d px: the page overflows sideways by %d px" % (name, width, got["overflow"]))
        ids = [c["id"] for c in got["charts"]]
        for want in charts_expected:
            if want not in ids:
                fail("%s at %d px: no chart #%s (%s)" % (name, width, want, ids))
        for c in got["charts"]:
            if c["width"] <= 0 or c["height"] <= 0:
                fail("%s at %d px: chart #%s not visible (%s)" % (name, width, c["id"], c))
            elif c["right"] > got["viewport"] + 0.5:
                fail("%s at %d px: chart #%s ends at %.0f px, past the page's %d" %
                     (name, width, c["id"], c["right"], got["viewport"]))
            if c["label_px"] < LABEL_PX_MIN:
                fail("%s at %d px: chart #%s has a label of %.1f px, under %d px" %
                     (name, width, c["id"], c["label_px"], LABEL_PX_MIN))
        b.screenshot(os.path.join(shots, "%s-%d.png" % (name, width)))


def outlier_games(path):
    """Three bots near each other and one that wins 1 game in 150 against each:
    its Elo lies far below the others' and must not squeeze them."""
    t = {"moves": 10, "mean_us": 50.0, "median_us": 40, "p99_us": 90, "max_us": 100,
         "cpu_mean_us": 40.0, "cpu_max_us": 90}
    n = 0
    with open(path, "w") as f:
        pairs = [("a", "b"), ("b", "c"), ("c", "a")] * 40 + \
            [(x, "weak") for x in "abc" for _ in range(150)]
        for k, (x, y) in enumerate(pairs):
            # a beats b, b beats c, c loses to a, each 3 times in 5
            lose_x = (k % 5 < 2) if y != "weak" else (k % 150 == 0)
            if (x, y) == ("c", "a"):
                lose_x = k % 5 >= 2
            win = 1 if lose_x else 0
            rec = {"id": "t0000-d%04d-r0" % n, "table": 0, "deal": n, "rotation": 0,
                   "seed": 1000 + n, "players": 2, "partnership": False, "teams": [[0], [1]],
                   "match": False, "games": 1, "bots": [x, y], "winners": [win],
                   "reason": "stock_emptied", "placings": [2, 1] if win else [1, 2],
                   "stock_left": [3, 0] if win else [0, 3], "scores": [0, 40] if win else [40, 0],
                   "turns": 20, "moves": 20, "time": [t, t], "faults": [],
                   "replay": "replays/t0000-d%04d-r0.json" % n}
            f.write(json.dumps(rec) + "\n")
            n += 1


def game_list(b, out):
    """6 tables of 6 games: dead's 18 games all have a start fault and are all
    listed, the 3 other tables show their first 3 each; every link opens a page."""
    rows = b.eval("Array.prototype.map.call(document.querySelectorAll('#games tbody tr'),"
                  "function (r) { var a = r.querySelector('a');"
                  " return {faults: r.dataset.faults.trim(), href: a ? a.href : null,"
                  " text: r.textContent}; })")
    if len(rows) != 27:
        fail("game list: %d rows, want 18 faulted + 3 x 3 sampled" % len(rows))
    if sum(1 for r in rows if r["faults"] == "start") != 18:
        fail("game list: not every game with a start fault is listed: %r" % rows)
    for r in rows:
        if not r["href"] or not r["href"].startswith("file://") or \
                not os.path.isfile(r["href"][len("file://"):]):
            fail("game list: %r does not link to an existing viewer page" % r)
    # every row: its game, bots, result, reason, turns and faults
    cells = b.eval("Array.prototype.map.call(document.querySelectorAll('#games tbody tr'),"
                   "function (r) { return Array.prototype.map.call(r.cells,"
                   " function (c) { return c.textContent; }); })")
    for c in cells:
        if len(c) != 6 or len(c[1].split(", ")) != 2 or \
                not (c[2].endswith(" won") or c[2] == "no winner") or \
                c[3] not in ("stock_emptied", "stalemate", "turn_cap", "forfeit") or \
                not c[4].isdigit() or (c[3] == "forfeit") != c[5].startswith("dead: start "):
            fail("game list: the row %r lacks its bots, result, reason, turns or faults" % c)
    b.eval("var f = document.getElementById('f-fault'); f.value = 'start';"
           "f.dispatchEvent(new Event('input'))")
    shown = b.eval("document.querySelectorAll('#games tbody tr:not([hidden])').length")
    if shown != 18:
        fail("game list: the fault filter 'start' shows %d rows, want 18" % shown)
    b.eval("var f = document.getElementById('f-fault'); f.value = '';"
           "f.dispatchEvent(new Event('input')); var i = document.getElementById('f-bot');"
           "i.value = 'medium'; i.dispatchEvent(new Event('input'));"
           "var s = document.getElementById('f-result'); s.value = 'won';"
           "s.dispatchEvent(new Event('input'))")
    shown = b.eval("Array.prototype.map.call(document.querySelectorAll("
                   "'#games tbody tr:not([hidden])'), function (r) { return r.dataset.winners; })")
    if not shown or any(w.split() != ["medium"] for w in shown):
        fail("game list: the filter medium + won shows %r" % shown)
    note = b.eval("document.getElementById('games-note').textContent")
    if not note.startswith("27 games listed") or "9 more" not in note:
        fail("game list: the note says %r" % note)


def main():
    arena, medium, easy, badbot, fixture, shots = map(os.path.abspath, sys.argv[1:7])
    path = cdp.find_chromium()
    if not path:
        print("chromium not installed (setup.sh test installs it): skipped")
        return 77
    signal.alarm(240)
    os.makedirs(shots, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="report-test-") as tmp:
        # the ratings fixture: 6 bots, 2- and 4-player games
        os.mkdir(os.path.join(tmp, "fixture"))
        shutil.copy(os.path.join(fixture, "games.jsonl"), os.path.join(tmp, "fixture"))
        subprocess.run([arena, "report", "--quiet", os.path.join(tmp, "fixture")], check=True,
                       stdout=subprocess.DEVNULL)
        os.mkdir(os.path.join(tmp, "outlier"))
        outlier_games(os.path.join(tmp, "outlier", "games.jsonl"))
        subprocess.run([arena, "report", "--quiet", os.path.join(tmp, "outlier")], check=True,
                       stdout=subprocess.DEVNULL)
        # a tournament where one bot never starts
        # (a fixed seed: the per-bot checks expect one ranking of medium and good)
        t = {"name": "never-started", "players": 2, "deals": 3, "duplicate": True, "seed": "1",
             "rules": {"stock_size": 3}, "time": {"move_ms": 20000, "game_ms": 600000},
             "sandbox": "off",
             "bots": [{"name": "medium", "command": [medium]}, {"name": "easy", "command": [easy]},
                      {"name": "good", "command": [badbot, "good"]},
                      {"name": "dead", "command": [badbot, "exit-at-start"]}]}
        with open(os.path.join(tmp, "t.json"), "w") as f:
            json.dump(t, f)
        out = os.path.join(tmp, "out")
        run = subprocess.run([arena, "run", "--quiet", "-j", "2", "--output", out,
                              os.path.join(tmp, "t.json")], capture_output=True, text=True)
        if not os.path.exists(os.path.join(out, "report.html")):
            fail("run wrote no report.html: %s" % run.stderr)
            return 1
        # viewer pages for every game (DIR/replays/ID.html), then the report again: its game
        # list links them
        subprocess.run([arena, "replay", "--html", out], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([arena, "report", "--quiet", out], check=True, stdout=subprocess.DEVNULL)
        b = cdp.Browser(path, os.path.join(tmp, "profile"))
        try:
            b.open("file://" + os.path.join(tmp, "fixture", "report.html"), 1400)
            layout(b, "fixture", shots, ["elo-chart", "cross-heatmap", "time-chart"])
            # colour-blind readers: every head-to-head cell prints its value
            cells = b.eval("Array.prototype.map.call(document.querySelectorAll("
                           "'#cross-heatmap rect.cell'), function (c) { var t = c.nextElementSibling;"
                           " return t && t.tagName === 'text' ? t.textContent : null; })")
            if not cells or any(not c or not c.endswith("%") for c in cells):
                fail("fixture: a heat-map cell without its value printed: %r" % cells)
            b.open("file://" + os.path.join(tmp, "outlier", "report.html"), 1400)
            layout(b, "outlier", shots, ["elo-chart", "cross-heatmap", "time-chart"])
            b.width(1400)
            weak = b.eval("Array.prototype.filter.call(document.querySelectorAll('#ranking tr'),"
                          "function (r) { return r.cells[1] && r.cells[1].textContent === 'weak'; })"
                          "[0].cells[2].textContent")
            ticks = b.eval("Array.prototype.map.call(document.querySelectorAll('#elo-chart > text'"
                           "), function (t) { return t.textContent; }).filter(function (t) {"
                           " return /^-?[0-9]+$/.test(t); }).map(Number)")
            marks = b.eval("Array.prototype.map.call(document.querySelectorAll("
                           "'#elo-chart path.clipped'), function (p) {"
                           " return p.nextElementSibling.textContent; })")
            if not ticks or min(ticks) <= float(weak):
                fail("outlier: the Elo axis (%r) reaches down to weak's %s" % (ticks, weak))
            if marks != ["%.0f off the axis" % float(weak)]:
                fail("outlier: weak (%s) is not marked off the axis: %r" % (weak, marks))
            xs = sorted(b.eval(ELO_X))
            if len(xs) != 4 or xs[-1] - xs[1] < 9:
                fail("outlier: the three others are squeezed together: circles at %r" % xs)
            b.open("file://" + os.path.join(out, "report.html"), 1400)
            layout(b, "never-started", shots, ["elo-chart", "cross-heatmap", "time-chart"])
            b.width(1400)
            h1 = b.eval("document.querySelector('h1').textContent")
            if "never-started" not in h1:
                fail("the title does not name the tournament: %r" % h1)
            settings = b.eval("document.getElementById('settings') ?"
                              " document.getElementById('settings').textContent : ''")
            for want in ("players per game2", "stock3 cards", "duplicate dealsyes",
                         "time per move20000 ms", "sandboxoff", " UTC by skipbo-arena "):
                if want not in settings:
                    fail("settings lack %r: %r" % (want, settings))
            warn = b.eval("Array.prototype.map.call(document.querySelectorAll('.never-started'),"
                          "function (p) { return p.textContent; })")
            if len(warn) != 1 or not warn[0].startswith("dead never started"):
                fail("the never-started warning: %r" % warn)
            first = b.eval("document.querySelector('body > h1').nextElementSibling.className")
            if "never-started" not in first:
                fail("the never-started warning is not right under the title (%r)" % first)
            row = b.eval("Array.prototype.map.call(document.querySelectorAll('#faults-table tr'),"
                         "function (r) { return r.textContent; })")
            if not any(r.startswith("dead") for r in row):
                fail("no faults row for dead: %r" % row)
            why = b.eval("Array.prototype.map.call(document.querySelectorAll('#fault-reasons tbody tr'),"
                         "function (r) { var a = r.cells[4].querySelector('a');"
                         " return [r.cells[0].textContent, r.cells[1].textContent,"
                         " r.cells[2].textContent, r.cells[3].textContent, a ? a.href : null]; })")
            if len(why) != 1 or why[0][:3] != ["dead", "start", "18"] or not why[0][3] or \
                    not why[0][4] or not os.path.isfile(why[0][4][len("file://"):]):
                fail("the reasons of dead's start faults, with an example game: %r" % why)
            game_list(b, out)
            quote = b.eval("var q = document.querySelector('p.quote'); q ? q.textContent : ''")
            if not quote.startswith("Which figure to quote: the Elo of the ranking"):
                fail("no sentence on which Elo to quote (duplicate deals were played): %r" % quote)
            per_bot = b.eval("Array.prototype.map.call(document.querySelectorAll('h3.bot'),"
                             "function (h) { var t = h.nextElementSibling.nextElementSibling;"
                             " return [h.textContent, Array.prototype.map.call("
                             "t.querySelectorAll('tbody tr'), function (r) {"
                             " return r.cells[0].textContent + ' ' + r.cells[2].textContent; })]; })")
            names = sorted(p[0] for p in per_bot)
            dead = [p[1] for p in per_bot if p[0] == "dead"]
            if names != ["dead", "easy", "good", "medium"] or \
                    dead != [["medium 0.0%", "good 0.0%", "easy 0.0%"]]:
                fail("per-bot sections: %r" % per_bot)
            xs = sorted(b.eval(ELO_X))
            # the three that played must use a third of the plot's 88%; dead is not rated
            if len(xs) != 3 or xs[-1] - xs[0] < 29:
                fail("the Elo chart squeezes the bots that played: circles at %r" % xs)
        finally:
            b.close()
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("report.html: no overflow at 400 and 1400 px, charts visible with labels of %d px or "
          "more, the ranking on the first screen, the bot that never started named first" %
          LABEL_PX_MIN)
    return 0


if __name__ == "__main__":
    sys.exit(main())
