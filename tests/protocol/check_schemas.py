"""Validate real protocol traffic against protocol/schema/ with a real JSON
Schema validator (Debian's python3-jsonschema), and check that known-bad
messages are rejected.

usage: check_schemas.py GEN_TRANSCRIPT SCHEMA_DIR BAD_MESSAGES [PROTOCOL_MD]

GEN_TRANSCRIPT --traffic N plays N varied games in process (2-6 players,
partnership, random answers, answers without "card", faults) and prints every
line as "arena<TAB>json" or "bot<TAB>json". Every line must be valid against
arena-to-bot.schema.json or bot-to-arena.schema.json. BAD_MESSAGES holds
"arena|bot<TAB>json" lines (and # comments), each of which must be rejected.
Every ```json example of PROTOCOL_MD (a message, a move, a compact move or an
event) must be valid too. The odd seats of the traffic ask for compact requests.
"""
import re
import json
import os
import subprocess
import sys

import jsonschema

GAMES = 7


def load_validators(schema_dir):
    store = {}
    for name in sorted(os.listdir(schema_dir)):
        if not name.endswith(".schema.json"):
            continue
        with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        store[schema["$id"]] = schema
    validators = {}
    base = next(iter(store))
    base = base[:base.rindex("/") + 1]
    for part in ("event", "move", "compact_move"):
        schema = {"$id": base + part + "-example", "$ref": "defs.schema.json#/$defs/" + part}
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        validators[part] = jsonschema.Draft202012Validator(schema, resolver=resolver)
    for direction, name in (("arena", "arena-to-bot"), ("bot", "bot-to-arena")):
        schema = next(s for s in store.values() if s["$id"].endswith("/" + name + ".schema.json"))
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        validators[direction] = jsonschema.Draft202012Validator(schema, resolver=resolver)
    return validators


def main():
    gen, schema_dir, bad_path = sys.argv[1:4]
    validators = load_validators(schema_dir)

    out = subprocess.run([gen, "--traffic", str(GAMES)], check=True, capture_output=True,
                         text=True).stdout
    counts = {}
    seen_types = set()
    for n, line in enumerate(out.splitlines(), 1):
        direction, text = line.split("\t", 1)
        msg = json.loads(text)
        errors = sorted(validators[direction].iter_errors(msg), key=lambda e: e.path)
        if errors:
            e = errors[0]
            sys.exit(f"traffic line {n} ({direction}) invalid at {list(e.path)}: {e.message}\n{text}")
        counts[direction] = counts.get(direction, 0) + 1
        seen_types.add((direction, msg["type"]))
        for ev in msg.get("events", []):
            seen_types.add(("event", ev["type"]))
        if "discard_any" in msg:
            seen_types.add(("compact request", msg["discard_any"]))
        if "compact_legal" in msg.get("features", []):
            seen_types.add(("bot", "hello asking for compact_legal"))
    # The traffic must cover every message and event type, or the test proves little.
    want = {("arena", t) for t in ("hello", "game_start", "request", "game_end", "quit")}
    want |= {("bot", t) for t in ("hello", "move", "hello asking for compact_legal")}
    want |= {("compact request", True), ("compact request", False)}
    want |= {("event", t) for t in ("turn", "draw", "play", "stock_top", "complete", "discard",
                                    "refill", "removed")}
    missing = want - seen_types
    if missing:
        sys.exit(f"traffic never showed {sorted(missing)}")

    rejected = 0
    with open(bad_path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            direction, text = line.split("\t", 1)
            if validators[direction].is_valid(json.loads(text)):
                sys.exit(f"{bad_path}:{n}: accepted but must be rejected: {text}")
            rejected += 1
    examples = 0
    if len(sys.argv) > 4:
        with open(sys.argv[4], encoding="utf-8") as f:
            doc = f.read()
        for block in re.findall(r"\n```json\n(.*?)\n```", doc, re.S):
            msg = json.loads(block)
            if isinstance(msg, list):
                kind = "compact_move"
            elif "action" in msg:
                kind = "move"
            elif msg["type"] == "move" or (msg["type"] == "hello" and "name" in msg):
                kind = "bot"
            elif msg["type"] in ("hello", "game_start", "request", "game_end", "quit"):
                kind = "arena"
            else:
                kind = "event"
            errors = list(validators[kind].iter_errors(msg))
            if errors:
                sys.exit(f"PROTOCOL.md example invalid ({kind}) at {list(errors[0].path)}: "
                         f"{errors[0].message}\n{block}")
            examples += 1
    print(f"valid: {counts.get('arena', 0)} arena lines, {counts.get('bot', 0)} bot lines, "
          f"{examples} PROTOCOL.md examples; rejected: {rejected} bad messages")


if __name__ == "__main__":
    main()
