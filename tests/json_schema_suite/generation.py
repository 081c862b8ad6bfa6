"""Generate the lint-accepted groups as one family, and find which groups make generation fail.

The generator stops at its first failure, and some of its tools (ajv's standalone step,
json-schema-to-typescript) name no type when they fail. So a failure that names a group (`G<n>`,
`G<n>V`, `G<n>D<k>`) blames it; one that does not is tried on suspects, each alone: first the groups
ajv itself refuses to compile (ajv_probe.cjs, run once, on the first such failure), then those whose
schema holds a word of the complaint; failing that, the set is bisected. A group is only ever
blamed for a failure the real generator gave on a set holding it.
"""

from __future__ import annotations

import json
import queue
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from codegen.layout import copy_runtime
from codegen.names import expected_id
from tests.codegen_cli import run_codegen
from tests.json_schema_suite.harness import FAMILY, FILE, write_family
from tests.node import node_env

ROOT = Path(__file__).parent.parent.parent
HERE = Path(__file__).parent
WORKERS = 2  # the machine's cores: a generator run keeps one busy
SUSPECTS = 16  # at most this many groups tried alone per unexplained failure (more are bisected)
Result = tuple[bool, str]  # generated, and the generator's output


def scratch_repository(root: Path) -> None:
    """A repository holding only the runtime (and the project's settings), ready for the family."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    copy_runtime({FAMILY}, root)


class Generator:
    """Runs the generator on sets of groups: in the main scratch repository, or, for several sets at
    once, in worker repositories beside it."""

    def __init__(self, scratch: Path, accepted: dict[int, dict[str, Any]]) -> None:
        self.accepted = accepted
        self.root = scratch / "repo"
        self.texts = {n: json.dumps(defs, ensure_ascii=False) for n, defs in accepted.items()}
        self._hints: dict[int, str] | None = None  # ajv's refusals, once asked for
        self._workers: queue.Queue[Path] = queue.Queue()
        for root in [self.root, *(scratch / f"worker{i}" for i in range(WORKERS))]:
            scratch_repository(root)
        for i in range(WORKERS):
            self._workers.put(scratch / f"worker{i}")

    def run(self, numbers: list[int], root: Path | None = None) -> Result:
        """Write these groups as the family (in the main repository unless told) and generate."""
        where = root or self.root
        write_family(where, {name: schema for n in numbers for name, schema in self.accepted[n].items()})
        proc = run_codegen(where, "generate", cwd=where)
        return proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr

    def each(self, sets: list[list[int]]) -> list[Result]:
        """Generate every set on its own, WORKERS at a time."""

        def one(numbers: list[int]) -> Result:
            root = self._workers.get()
            try:
                return self.run(numbers, root)
            finally:
                self._workers.put(root)

        with ThreadPoolExecutor(WORKERS) as pool:
            return list(pool.map(one, sets))

    def hinted(self, numbers: list[int]) -> list[int]:
        """The groups among `numbers` that ajv refuses to compile and that were not tried yet (each
        is tried once)."""
        if self._hints is None:
            defs = {str(n): self.accepted[n] for n in sorted(self.accepted)}
            proc = subprocess.run(
                [shutil.which("node") or "node", str(HERE / "ajv_probe.cjs")],
                input=json.dumps({"id": expected_id(FAMILY, FILE), "groups": defs}),
                capture_output=True,
                text=True,
                env=node_env(),
                check=False,
            )
            assert proc.returncode == 0, proc.stderr  # a broken probe would only slow the search: say so
            self._hints = {int(n): why for n, why in json.loads(proc.stdout).items()}
        found = [n for n in numbers if n in self._hints]
        for n in found:
            del self._hints[n]
        return found


def partition(gen: Generator) -> tuple[list[int], dict[int, str]]:
    """The groups that generate together (generated last in the main repository, which then holds
    them) and those that make generation fail, each with the generator's complaint."""
    good, failed = sorted(gen.accepted), {}
    while good:
        ok, output = gen.run(good)
        if ok:
            break
        culprits = _named(good, output) or _alone(gen, gen.hinted(good)) or _suspected(gen, good, output)
        culprits = culprits or _bisected(gen, good, output)
        failed.update(culprits)
        good = [n for n in good if n not in culprits]
    return good, failed


def _named(numbers: list[int], output: str) -> dict[int, str]:
    return {n: excerpt(output) for n in numbers if re.search(rf"\bG{n}(?:V|D[0-9]+)?\b", output)}


def _suspected(gen: Generator, numbers: list[int], output: str) -> dict[int, str]:
    """The groups that fail alone among those whose schema holds a word of the complaint as a JSON
    string (a keyword, a property name, a `$ref`): its quoted words if any group holds one, else its
    other words, the rarest first."""
    complaint = excerpt(output)
    quoted = set(re.findall(r"[\"']([^\"'\s]{1,80})[\"']", complaint))
    for words in (quoted, set(re.findall(r"[\w$#/.~-]+", complaint)) - quoted):
        holders = [{n for n in numbers if f'"{word}"' in gen.texts[n]} for word in words]
        suspects: set[int] = set()
        for found in sorted((h for h in holders if h), key=len):
            if not suspects or len(suspects | found) <= SUSPECTS:
                suspects |= found
        culprits = _alone(gen, sorted(suspects))
        if culprits:
            return culprits
    return {}


def _alone(gen: Generator, suspects: list[int]) -> dict[int, str]:
    """The suspects that fail when generated alone, with the generator's complaint."""
    results = gen.each([[n] for n in suspects])
    return {n: excerpt(out) for n, (ok, out) in zip(suspects, results, strict=True) if not ok}


def _bisected(gen: Generator, numbers: list[int], output: str) -> dict[int, str]:
    """The culprits of the halves of `numbers` that fail on their own (both halves at once), or all
    of `numbers` when neither half fails alone."""
    if len(numbers) == 1:
        return {numbers[0]: excerpt(output)}
    halves = [numbers[: len(numbers) // 2], numbers[len(numbers) // 2 :]]
    found: dict[int, str] = {}
    for half, (ok, out) in zip(halves, gen.each(halves), strict=True):
        if not ok:
            found.update(_named(half, out) or _bisected(gen, half, out))
    return found or {n: "generates in either half, fails with all: " + excerpt(output) for n in numbers}


def excerpt(output: str) -> str:
    """The generator's complaint without the stack frames that follow it."""
    lines = [line for line in output.splitlines() if line.strip() and not line.lstrip().startswith("at ")]
    return "\n".join(lines)[:1500]
