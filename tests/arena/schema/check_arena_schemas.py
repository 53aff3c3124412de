"""Validate what the arena reads and writes against arena/schema/ with a real JSON Schema
validator (Debian's python3-jsonschema), and check that broken documents are rejected.

usage: check_arena_schemas.py ARENA BOTS_DIR BADBOT SCHEMA_DIR PROTOCOL_SCHEMA_DIR JSONC...

Runs two small tournaments with the built ARENA: a 2-player gauntlet of BOTS_DIR/skipbo-easy
against skipbo-medium, BADBOT answering illegal moves, BADBOT exiting before its hello and
BADBOT writing on stderr, with --log-io (stderr beside each decision), from a file that
carries a "$schema" key, and a 4-player partnership R9 match tournament run as a
shard. Every tournament.json, games.jsonl line and replay must be valid against its schema
(a tournament.json but a shard's against the tournament file's too, as run reads it again),
every JSONC file given (comments and trailing commas stripped) against the tournament file's
(demo.jsonc with a "$schema" path to it, as any other "$schema" must be), and each mutation
of a valid document in BROKEN must be rejected.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema

BROKEN = [
    # (schema, what, path, value): the document at path set to value (DELETE removes it)
    ("tournament", "no bots", ["bots"], "DELETE"),
    ("tournament", "a misspelt key", ["plyers"], 2),
    ("tournament", "7 players", ["players"], 7),
    ("tournament", "0 deals", ["deals"], 0),
    ("tournament", "an empty command", ["bots", 0, "command"], []),
    ("tournament", "a bot name with a '/'", ["bots", 0, "name"], "../x"),
    ("tournament", "a bot key misspelt", ["bots", 0, "comand"], ["x"]),
    ("tournament", "an unknown mode", ["rules", "mode"], "duel"),
    ("tournament", "a stock of 31", ["rules", "stock_size"], 31),
    ("tournament", "a fraction", ["time", "move_ms"], 1.5),
    ("tournament", "a sandbox mode only tournament.json has", ["sandbox"], "mixed"),
    ("tournament", "a hexadecimal seed", ["seed"], "0x10"),
    ("tournament", "a negative limit", ["limits", "memory_mb"], -1),
    ("tournament", "an env name with '='", ["bots", 0, "env"], {"A=B": "c"}),
    ("tournament", "a gauntlet without challengers", ["challengers"], "DELETE"),
    ("tournament", "an unknown format", ["format"], "swiss"),
    ("tournament", "a challenger named twice", ["challengers"], ["easy", "easy"]),
    ("tournament", "challengers of a round robin", ["format"], "round-robin"),
    ("resolved", "no seed", ["seed"], "DELETE"),
    ("resolved", "an integer seed", ["seed"], 7),
    ("resolved", "an unresolved sandbox", ["sandbox"], "auto"),
    ("resolved", "a relative command", ["bots", 0, "command", 0], "bots/easy"),
    ("resolved", "a bot without limits", ["bots", 0, "limits"], "DELETE"),
    ("resolved", "a shard 1/", ["shard"], "1/"),
    ("resolved", "a format without its challengers", ["challengers"], "DELETE"),
    ("resolved", "a round robin's format written", ["format"], "round-robin"),
    ("resolved", "a program without its digest", ["programs", "easy", 0, "sha256"], "DELETE"),
    ("resolved", "a short digest", ["programs", "easy", 0, "sha256"], "abc"),
    ("resolved", "a relative program", ["programs", "easy", 0, "file"], "skipbo-easy"),
    ("record", "no id", ["id"], "DELETE"),
    ("record", "an id of another form", ["id"], "game-7"),
    ("record", "a placing 0", ["placings", 0], 0),
    ("record", "an unknown end reason", ["reason"], "won"),
    ("record", "a seat 6", ["winners"], [6]),
    ("record", "one seat of bots", ["bots"], ["easy"]),
    ("record", "a negative score", ["scores", 0], -5),
    ("record", "a time without moves", ["time", 0, "moves"], "DELETE"),
    ("record", "an unknown fault kind", ["faults", 0, "kind"], "crash"),
    ("record", "a fault without its bot", ["faults", 0, "bot"], "DELETE"),
    ("record", "an extra key", ["comment"], "hi"),
    ("record", "a seed as a string", ["seed"], "123"),
    ("record", "a pack without replay_line", ["replay_line"], "DELETE"),
    ("record", "a pack without replay_offset", ["replay_offset"], "DELETE"),
    ("record", "a negative replay_offset", ["replay_offset"], -1),
    ("record", "a negative replay_line", ["replay_line"], -1),
    ("record", "a replay_offset as a string", ["replay_offset"], "0"),
    ("record", "a frame in a game's own file", ["replay"], "replays/t0000-d0000-r0.json.zst"),
    ("record", "a pack outside replays/", ["replay"], "../0123456789abcdef.jsonl.zst"),
    ("record", "a pack's name not 16 hex digits", ["replay"], "replays/0123.jsonl.zst"),
    ("replay", "another format", ["format"], "replay"),
    ("replay", "version 2", ["version"], 2),
    ("replay", "a card 13 in the deck", ["games", 0, "deck", 0], 13),
    ("replay", "161 cards", ["games", 0, "deck"], "DROP_LAST"),
    ("replay", "no games", ["games"], []),
    ("replay", "an unknown event", ["games", 0, "events", 0, "type"], "jump"),
    ("replay", "a stock_top without its owner", ["games", 0, "events", 0, "owner"], "DELETE"),
    ("replay", "an event with a key of another", ["games", 0, "events", 0, "pile"], 1),
    ("replay", "an integer seed", ["seed"], 6791897765849424158),
    ("replay", "a result without placings", ["result", "placings"], "DELETE"),
    ("replay", "a decision's stderr as lines", ["games", 0, "events", "STDERR", "stderr"],
     ["chatty: started"]),
    ("replay", "stderr on a draw", ["games", 0, "events", "DRAW", "stderr"], "x"),
]


def load_validators(schema_dirs):
    store = {}
    for schema_dir in schema_dirs:
        for name in sorted(os.listdir(schema_dir)):
            if name.endswith(".schema.json"):
                with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                    schema = json.load(f)
                jsonschema.Draft202012Validator.check_schema(schema)
                store[schema["$id"]] = schema

    def validator(name):
        schema = next(s for s in store.values() if s["$id"].endswith("/arena/v1/" + name))
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return jsonschema.Draft202012Validator(schema, resolver=resolver)

    return {"tournament": validator("tournament.schema.json"),
            "resolved": validator("tournament-resolved.schema.json"),
            "record": validator("game-record.schema.json"),
            "replay": validator("replay.schema.json")}


def check(validators, kind, doc, where):
    errors = sorted(validators[kind].iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        sys.exit(f"{where}: invalid against the {kind} schema at {list(e.path)}: {e.message}")


def strip_jsonc(text):
    """The JSON of a JSONC text: comments blanked outside strings, trailing commas dropped."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.index("*/", i + 2) + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        elif c == ",":
            j = i + 1
            while j < n and (text[j].isspace() or text.startswith("//", j) or text.startswith("/*", j)):
                if text.startswith("//", j):
                    j = text.find("\n", j) if "\n" in text[j:] else n
                elif text.startswith("/*", j):
                    j = text.index("*/", j + 2) + 2
                else:
                    j += 1
            if j >= n or text[j] not in "]}":
                out.append(c)
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def run_tournament(arena, work, name, doc, args):
    path = os.path.join(work, name + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    out = os.path.join(work, name)
    proc = subprocess.run([arena, "run", "-q", "-o", out, *args, path], capture_output=True,
                          text=True, check=False)
    # 3: every game recorded, a bot never started (the one that exits before its hello)
    if proc.returncode not in (0, 3):
        sys.exit(f"skipbo-arena run {name} failed ({proc.returncode}):\n{proc.stderr}")
    return out


def run_league(arena, work, badbot):
    """A league of a few games: its directory is read like a tournament's."""
    out = os.path.join(work, "league")
    os.mkdir(out)
    with open(os.path.join(out, "league.jsonc"), "w", encoding="utf-8") as f:
        json.dump({"name": "league", "bots": [{"name": "good", "command": [badbot, "good"]}],
                   "rules": {"stock_size": 3},
                   "league": {"anchors": {"skipbo-medium": 0}, "max_games": 4}}, f)
    # a new version, good@2 (another copy of the program), then more games: "NAME@K" in
    # tournament.json and the records
    copy = os.path.join(work, "good2")
    shutil.copy(badbot, copy)
    os.chmod(work, 0o755)  # as root the sandbox's uids must reach the copy
    for cmd in ([arena, "league", "-j", "1", out], [arena, "league", "add", out, f"good={copy} good"],
                [arena, "league", "-j", "1", out]):
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            sys.exit(f"{' '.join(cmd[1:3])} failed ({proc.returncode}):\n{proc.stderr}")
        with open(os.path.join(out, "league.jsonc"), "r+", encoding="utf-8") as f:
            doc = json.load(f)
            doc["league"]["max_games"] = 8
            f.seek(0)
            json.dump(doc, f)
            f.truncate()
    with open(os.path.join(out, "games.jsonl"), encoding="utf-8") as f:
        if '"good@2"' not in f.read():
            sys.exit("the league's new version good@2 never played")
    return out


def validate_output(validators, out, seen):
    with open(os.path.join(out, "tournament.json"), encoding="utf-8") as f:
        resolved = json.load(f)
    check(validators, "resolved", resolved, out + "/tournament.json")
    # `run DIR/tournament.json` runs it again, a shard's and a league's aside (CLUSTER.md,
    # LEAGUE.md)
    if "shard" not in resolved and "league" not in resolved:
        check(validators, "tournament", resolved, out + "/tournament.json as a tournament file")
    seen["tournament.json"] += 1
    with open(os.path.join(out, "games.jsonl"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        record = json.loads(line)
        check(validators, "record", record, f"{out}/games.jsonl:{n}")
        seen["records"] += 1
        seen["faults"] |= {fault["kind"] for fault in record["faults"]}
        seen["modes"].add((record["players"], record["partnership"], record["match"]))
        replay = read_replay(out, record)
        check(validators, "replay", replay, f"{out}/{record['replay']}")
        seen["replays"] += 1
        for game in replay["games"]:
            seen["events"] |= {event["type"] for event in game["events"]}
    return lines


def read_replay(out, record):
    """A record's replay as JSON: its line of the frame at its offset in a pack (the frames
    after it only add lines), or an older run's file of the game's own."""
    path = os.path.join(out, record["replay"])
    with open(path, "rb") as f:
        f.seek(record.get("replay_offset", 0))
        data = f.read()
    if path.endswith(".zst"):
        data = subprocess.run(["zstd", "-dcq"], input=data, check=True,
                              capture_output=True).stdout
    if "replay_line" in record:
        data = data.splitlines()[record["replay_line"]]
    return json.loads(data)


def mutate(doc, path, value):
    doc = copy.deepcopy(doc)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if value == "DELETE":
        del parent[path[-1]]
    elif value == "DROP_LAST":
        parent[path[-1]].pop()
    else:
        parent[path[-1]] = value
    return doc


def main():
    arena, bots_dir, badbot, schema_dir, protocol_schema_dir = map(os.path.abspath, sys.argv[1:6])
    jsonc_files = sys.argv[6:]
    validators = load_validators([schema_dir, protocol_schema_dir])
    seen = {"tournament.json": 0, "records": 0, "replays": 0, "faults": set(), "modes": set(),
            "events": set()}

    with tempfile.TemporaryDirectory() as work:
        easy = os.path.join(bots_dir, "skipbo-easy")
        medium = os.path.join(bots_dir, "skipbo-medium")
        duel = {"$schema": os.path.join(schema_dir, "tournament.schema.json"), "name": "duel",
                "bots": [{"name": "easy", "command": [easy]},
                         {"name": "medium", "command": [medium], "env": {"LC_ALL": "C"}},
                         {"name": "illegal", "command": [badbot, "illegal"]},
                         {"name": "nostart", "command": [badbot, "exit-at-start"],
                          "limits": {"memory_mb": 0}},
                         {"name": "chatty", "command": [badbot, "chatty"]}],
                "format": "gauntlet", "challengers": ["easy"],
                "players": 2, "deals": 2, "rules": {"stock_size": 5}, "seed": 7,
                "time": {"move_ms": 5000, "game_ms": 60000}, "limits": {"processes": 0}}
        teams = {"name": "teams",
                 "bots": [{"name": "easy", "command": [easy]},
                          {"name": "medium", "command": [medium]},
                          {"name": "easy2", "command": [easy]},
                          {"name": "good", "command": [badbot, "good"]}],
                 "players": 4, "deals": 2, "duplicate": False,
                 "rules": {"stock_size": 2, "partnership": True, "mode": "match"},
                 "seed": "18446744073709551615"}
        for doc in (duel, teams):
            check(validators, "tournament", doc, doc["name"] + ".json")
        duel_out = run_tournament(arena, work, "duel", duel, ["--log-io"])
        teams_out = run_tournament(arena, work, "teams", teams, ["--shard", "1/2"])
        duel_lines = validate_output(validators, duel_out, seen)
        record = json.loads(next(line for line in duel_lines if '"faults":[{' in line))
        chatty = json.loads(next(line for line in duel_lines if '"chatty"' in line))
        validate_output(validators, teams_out, seen)
        league_out = run_league(arena, work, badbot)
        validate_output(validators, league_out, seen)
        with open(os.path.join(league_out, "tournament.json"), encoding="utf-8") as f:
            if "league" not in json.load(f):
                sys.exit("a league's tournament.json without \"league\"")
        replay = read_replay(duel_out, record)
        chatty_replay = read_replay(duel_out, chatty)
        with open(os.path.join(teams_out, "tournament.json"), encoding="utf-8") as f:
            resolved = json.load(f)
        with open(os.path.join(duel_out, "tournament.json"), encoding="utf-8") as f:
            gauntlet = json.load(f)

    # The runs must cover what the schemas describe, or the test proves little.
    want_events = {"stock_top", "turn", "draw", "play", "complete", "discard", "removed", "end"}
    if not want_events <= seen["events"]:
        sys.exit(f"the replays never showed {sorted(want_events - seen['events'])}")
    if not {"illegal", "start"} <= seen["faults"]:
        sys.exit(f"the records never showed the faults illegal and start: {seen['faults']}")
    if (4, True, True) not in seen["modes"] or "shard" not in resolved:
        sys.exit("no record of a partnership match, or no shard's tournament.json")
    if gauntlet.get("challengers") != ["easy"] or "easy" not in resolved.get("programs", {}):
        sys.exit("no gauntlet's tournament.json, or no \"programs\" in tournament.json")
    events = chatty_replay["games"][0]["events"]
    if not any("chatty: request" in e.get("stderr", "") for e in events):
        sys.exit("run --log-io kept no stderr beside a decision of the chatty bot")

    files = 0
    schema_file = os.path.join(schema_dir, "tournament.schema.json")
    for path in jsonc_files:
        with open(path, encoding="utf-8") as f:
            doc = json.loads(strip_jsonc(f.read()))
        check(validators, "tournament", doc, path)
        # "$schema", where editors look: a path from the file's directory to the schema
        pointer = doc.get("$schema")
        if pointer is None and os.path.basename(path) == "demo.jsonc":
            sys.exit(f"{path}: no \"$schema\" for editors")
        if pointer is not None and not (
                os.path.exists(os.path.join(os.path.dirname(path), pointer)) and
                os.path.samefile(os.path.join(os.path.dirname(path), pointer), schema_file)):
            sys.exit(f"{path}: \"$schema\": \"{pointer}\" is not {schema_file}")
        files += 1
    if not any(os.path.basename(path) == "demo.jsonc" for path in jsonc_files):
        sys.exit("demo.jsonc not among the JSONC files given")

    originals = {"tournament": duel, "resolved": gauntlet, "record": record,
                 "replay": chatty_replay}
    marks = {"STDERR": next(i for i, e in enumerate(events) if "stderr" in e),
             "DRAW": next(i for i, e in enumerate(events) if e["type"] == "draw")}
    # an older run's record: the replay in a file of the game's own, no offset
    own = {k: v for k, v in record.items() if k not in ("replay_offset", "replay_line")}
    for name in (".json.zst", ".json"):
        own["replay"] = "replays/" + record["id"] + name
        check(validators, "record", own, f"a record of an older run ({own['replay']})")
    for kind, what, path, value in BROKEN:
        path = [marks.get(key, key) if isinstance(key, str) else key for key in path]
        if validators[kind].is_valid(mutate(originals[kind], path, value)):
            sys.exit(f"{kind} with {what} ({path} = {value!r}): accepted but must be rejected")

    print(f"valid: {seen['tournament.json']} tournament.json, {seen['records']} games.jsonl "
          f"records, {seen['replays']} replays, {files} JSONC files; rejected: {len(BROKEN)} "
          f"broken documents")


if __name__ == "__main__":
    main()
