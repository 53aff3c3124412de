"""Validate real answers of `skipbo-arena serve` against arena/schema/serve-api.schema.json
(each endpoint's $defs entry), its stream's lines against game-record.schema.json and a
replay against replay.schema.json, with Debian's python3-jsonschema; and check that a few
broken answers are rejected.

usage: check_serve_schemas.py ARENA EASY MEDIUM BADBOT SCHEMA_DIR PROTOCOL_SCHEMA_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "serve"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_fixture as fx  # noqa: E402
from check_arena_schemas import mutate  # noqa: E402

BROKEN = [
    ("ranking", "a bot without a name", ["bots", 0, "name"], "DELETE"),
    ("ranking", "a fault kind unknown", ["bots", 0, "faults", "odd"], 1),
    ("tournament", "an unknown state", ["state"], "paused"),
    ("tournament", "a negative game count", ["games"], -1),
    ("games", "a record that is a string", ["games", 0, "record"], "{}"),
    ("tournaments", "no directories", ["tournaments", 0, "dirs"], []),
    ("league", "an entry of an unknown state", ["league", "entries", 0, "state"], "active"),
    ("league", "an entry without its lineage", ["league", "entries", 0, "previous"], "DELETE"),
]


def main():
    arena = fx.Arena(*sys.argv[1:5])
    schema_dir, protocol_dir = sys.argv[5], sys.argv[6]
    store = {}
    for d in (schema_dir, protocol_dir):
        for name in os.listdir(d):
            if name.endswith(".schema.json"):
                with open(os.path.join(d, name)) as f:
                    doc = json.load(f)
                jsonschema.Draft202012Validator.check_schema(doc)
                store[doc["$id"]] = doc
    api_id = "https://skipbo-arena.invalid/arena/v1/serve-api.schema.json"
    by_name = dict((os.path.basename(i), i) for i in store)

    def validator(ref):
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": ref}
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return jsonschema.Draft202012Validator(schema, resolver=resolver)

    failures = []
    tmp = tempfile.mkdtemp(prefix="serve-schemas-")
    server = None
    try:
        t1 = os.path.join(tmp, "a", "t1")
        arena.run(t1, 4, bots=["easy=" + arena.easy, "medium=" + arena.medium,
                               "ghost=" + arena.badbot + " exit-at-start"], ok=(0, 3))
        server = fx.Server(arena.arena, [os.path.join(tmp, "a")])
        base = server.url + "/api/t/0"
        docs = {"tournaments": fx.get_json(server.url + "/api/tournaments"),
                "tournament": fx.get_json(base), "shards": fx.get_json(base + "/shards"),
                "ranking": fx.get_json(base + "/ranking"), "bot": fx.get_json(base + "/bot/0"),
                "games": fx.get_json(base + "/games?fault=any&limit=5"),
                "error": json.loads(fx.get(base + "/bot/99")[2])}
        for name, doc in docs.items():
            for e in validator(api_id + "#/$defs/" + name).iter_errors(doc):
                failures.append("%s: %s at %s" % (name, e.message, list(e.absolute_path)))
        record = validator(by_name["game-record.schema.json"])
        for line in fx.get(base + "/games.jsonl")[2].decode().splitlines():
            for e in record.iter_errors(json.loads(line)):
                failures.append("games.jsonl: %s" % e.message)
        for e in validator(by_name["replay.schema.json"]).iter_errors(
                fx.get_json(base + "/game/0/replay")):
            failures.append("replay: %s" % e.message)
        # an SPRT's directory: its summary with "sprt", its tournament.json with "sprt"
        sprt_dir = os.path.join(tmp, "b", "sprt")
        subprocess.run([arena.arena, "sprt", "-q", "--seed", "5", "--max-pairs", "3", "--stock",
                        "3", "--sandbox", "off", "-o", sprt_dir, arena.medium, arena.easy],
                       stdout=subprocess.DEVNULL, timeout=60, check=True)
        sprt_server = fx.Server(arena.arena, [os.path.join(tmp, "b")])
        try:
            doc = fx.get_json(sprt_server.url + "/api/t/0")
        finally:
            sprt_server.stop()
        if not doc.get("sprt"):
            failures.append("the SPRT's summary has no \"sprt\": %r" % doc)
        for e in validator(api_id + "#/$defs/tournament").iter_errors(doc):
            failures.append("sprt summary: %s at %s" % (e.message, list(e.absolute_path)))
        with open(os.path.join(sprt_dir, "tournament.json")) as f:
            for e in validator(by_name["tournament-resolved.schema.json"]).iter_errors(
                    json.load(f)):
                failures.append("sprt tournament.json: %s" % e.message)
        # a league's directory: its summary with "league", its ranking with anchors fixed
        fx.make_league(arena, os.path.join(tmp, "c", "club"))
        league_server = fx.Server(arena.arena, [os.path.join(tmp, "c")])
        try:
            league = {"tournaments": fx.get_json(league_server.url + "/api/tournaments"),
                      "tournament": fx.get_json(league_server.url + "/api/t/0"),
                      "ranking": fx.get_json(league_server.url + "/api/t/0/ranking")}
        finally:
            league_server.stop()
        if not (league["tournament"].get("league") or {}).get("entries"):
            failures.append("the league's summary has no entries: %r" % league["tournament"])
        for name, doc in league.items():
            for e in validator(api_id + "#/$defs/" + name).iter_errors(doc):
                failures.append("league %s: %s at %s" % (name, e.message, list(e.absolute_path)))
        docs["league"] = league["tournament"]
        for name, what, path, value in BROKEN:
            schema = "tournament" if name == "league" else name
            if validator(api_id + "#/$defs/" + schema).is_valid(mutate(docs[name], path, value)):
                failures.append("%s with %s is accepted" % (name, what))
    finally:
        if server:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
