"""Check that the generated examples in PROTOCOL.md are exactly what the code produces.

usage: check_transcript.py GEN_TRANSCRIPT PROTOCOL_MD [--write]

Each block is a fenced block between <!-- NAME:begin --> and <!-- NAME:end -->
in PROTOCOL_MD, and is the output of GEN_TRANSCRIPT (games played in process
through the protocol library and the engine) with the block's arguments:
  transcript  the complete game of section 10
  forfeit     the game_end of a game won by forfeit (section 4, game_end)
With --write the blocks are replaced by the fresh output instead.
"""
import subprocess
import sys

BLOCKS = [("transcript", "text", []), ("forfeit", "json", ["--forfeit"])]


def block_span(text, doc, name, lang):
    begin = f"<!-- {name}:begin -->\n```{lang}\n"
    end = f"```\n<!-- {name}:end -->"
    start = text.find(begin)
    stop = text.find(end, start)
    if start < 0 or stop < 0:
        sys.exit(f"{doc}: no {name} block ({begin!r} ... {end!r})")
    return start + len(begin), stop


def main():
    gen, doc = sys.argv[1:3]
    write = sys.argv[3:] == ["--write"]
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    counts = []
    for name, lang, args in BLOCKS:
        fresh = subprocess.run([gen] + args, check=True, capture_output=True, text=True).stdout
        start, end = block_span(text, doc, name, lang)
        if write:
            text = text[:start] + fresh + text[end:]
            continue
        if text[start:end] != fresh:
            old = text[start:end].splitlines()
            new = fresh.splitlines()
            for i, (a, b) in enumerate(zip(old + [""] * len(new), new + [""] * len(old))):
                if a != b:
                    sys.exit(f"{doc}: {name} line {i + 1} differs from the code's output:\n"
                             f"  doc:  {a[:200]}\n  code: {b[:200]}\n"
                             f"regenerate with: {sys.argv[0]} {gen} {doc} --write")
        counts.append(f"{name} {len(fresh.splitlines())} lines")
    if write:
        with open(doc, "w", encoding="utf-8") as f:
            f.write(text)
        return
    print("generated examples match: " + ", ".join(counts))


if __name__ == "__main__":
    main()
