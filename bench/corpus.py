"""A seeded, realistic JSONL corpus of one family's messages, for the validation benchmark.

    python bench/corpus.py --union docent/ChatMessage --count 100000 --out /tmp/docent.jsonl

Every message type of the union appears: each message starts from a valid test vector of a
branch (schemas/<family>/examples), its text fields get texts from tens to thousands of characters (log-uniform,
with non-ASCII, emoji, quotes, backslashes and newlines) and fresh ids. About 1% of the lines are
bad: half invalid (unknown tag, a required key removed, a value of the wrong type), half malformed
(cut off, NaN, not UTF-8). The same seed gives the same file.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from chatschema import schemas
from chatschema.validate.backends import fast_is_valid

SCHEMAS = Path(__file__).parent.parent / "schemas"
TEXT_KEYS = {"content", "text", "reasoning", "summary", "tool_return", "hidden_reasoning", "message", "signature"}
ID_KEYS = {"id", "otid", "tool_call_id", "step_id", "run_id", "sender_id"}
WORDS = "the a tool call result model user agent weather Tokyo 22°C déjà-vu naïve 東京 данные 🙂 🚀 \"quoted\" back\\slash {braces} [list] x=1; print('hi')".split()


def _texts(rng: random.Random, n: int = 4000) -> list[str]:
    out = []
    for _ in range(n):
        length = int(math.exp(rng.uniform(math.log(20), math.log(4000))))
        words: list[str] = []
        size = 0
        while size < length:
            word = rng.choice(WORDS)
            if rng.random() < 0.03:
                word += "\n"
            words.append(word)
            size += len(word) + 1
        out.append(" ".join(words)[:length])
    return out


def _examples(name: str) -> Path:
    """The examples folder of `<family>/<Type>`."""
    family, type_name = name.split("/")
    return SCHEMAS / family / "examples" / type_name


def templates(union: str) -> dict[str, list[Any]]:
    """Tag value -> valid payloads of that branch, from the test vectors."""
    u = schemas.unions()[union]
    family = union.split("/")[0]
    found: dict[str, list[Any]] = {}
    for value, branch in u.branches.items():
        paths = sorted(_examples(branch).glob("valid/*.json"))
        paths += [
            p for p in sorted(_examples(union).glob("valid/*.json")) if json.loads(p.read_bytes()).get(u.tag) == value
        ]
        found[value] = [json.loads(p.read_bytes()) for p in paths if p.parts[-5] == family]
        found[value] = [t for t in found[value] if isinstance(t, dict) and t.get(u.tag, value) == value]
        for t in found[value]:
            t[u.tag] = value
    return {k: v for k, v in found.items() if v}


def _refresh(node: Any, rng: random.Random, texts: list[str]) -> Any:
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k in TEXT_KEYS and isinstance(v, str):
                out[k] = rng.choice(texts)
            elif k in ID_KEYS and isinstance(v, str):
                out[k] = f"{k}-{rng.getrandbits(64):016x}"
            else:
                out[k] = _refresh(v, rng, texts)
        return out
    if isinstance(node, list):
        return [_refresh(v, rng, texts) for v in node]
    return node


def _invalid(message: dict[str, Any], tag: str, rng: random.Random) -> dict[str, Any]:
    bad = copy.deepcopy(message)
    kind = rng.randrange(3)
    if kind == 0:
        bad[tag] = rng.choice(["bot", "developer", "System", "function", "assistant_msg"])
    elif kind == 1:
        bad.pop(tag if len(bad) == 1 else rng.choice([k for k in bad if k != tag]))
        bad.pop(tag, None) if rng.random() < 0.2 else None
    else:
        key = rng.choice(list(bad))
        bad[key] = rng.choice([123, [1, 2], {"x": 1}, True]) if not isinstance(bad[key], int) else "7"
    return bad


def _malformed(line: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(3)
    if kind == 0:
        return line[: max(1, len(line) // 2)]
    if kind == 1:
        return line[:-1] + b',"score":NaN}'
    return line[:-1] + b',"bytes":"\xff\xfe"}'


def generate(union: str, count: int, seed: int = 20240601, bad_rate: float = 0.01) -> Iterator[tuple[bytes, str]]:
    """(line, kind) pairs; kind is "valid", "invalid" or "malformed"."""
    rng = random.Random(seed)
    texts = _texts(rng)
    by_tag = templates(union)
    tags = sorted(by_tag)
    tag = schemas.unions()[union].tag
    check = fast_is_valid(union)
    is_valid = schemas.validator(union).is_valid
    for _ in range(count):
        value = rng.choice(tags)
        message = _refresh(rng.choice(by_tag[value]), rng, texts)
        if not check(message):  # a refreshed field broke a constraint: keep the template as it was
            message = copy.deepcopy(rng.choice(by_tag[value]))
        roll = rng.random()
        if roll < bad_rate / 2:
            bad = _invalid(message, tag, rng)
            if not is_valid(bad):
                yield orjson.dumps(bad), "invalid"
                continue
        elif roll < bad_rate:
            yield _malformed(orjson.dumps(message), rng), "malformed"
            continue
        yield orjson.dumps(message), "valid"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--union", default="docent/ChatMessage")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    counts = {"valid": 0, "invalid": 0, "malformed": 0}
    with open(args.out, "wb") as f:
        for line, kind in generate(args.union, args.count, args.seed):
            f.write(line + b"\n")
            counts[kind] += 1
    print(f"{args.out}: {counts}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
