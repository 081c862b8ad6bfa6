"""A small mutation-testing runner (`nox -s mutation`): how many plausible bugs do the tests catch?

    python -m tests.mutation [--module codegen/runtime/jsontext.py ...] [--max 30] [--seed 1] [-- PYTEST ARGS]

Each mutant is one small change to one hand-written module (a comparison flipped, `and`/`or`
swapped, a `not` dropped, a constant moved by one, `True`/`False` swapped, `is`/`in` negated, a
regex quantifier changed; in JavaScript, `===`/`!==`, `<`/`<=`, `&&`/`||` and numbers), applied to a
copy of the generated package (`generated/chatschema` or `generated/typescript`). The tests then
run against that copy (PYTHONPATH / CHATSCHEMA_TS_PACKAGE); a mutant is killed if they fail. The
score is printed per module. `--max` samples that many mutants per module (seeded), since every
mutant costs a test run; survivors are listed with their line so they can be judged.
mutmut was not used: it rewrites modules in place under `mutants/` and runs the tests against its
own import path, while the tests here import the installed, generated package.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MODULES = [
    "codegen/runtime/jsontext.py",
    "codegen/runtime/schemas/__init__.py",
    "codegen/runtime/validate/backends.py",
    "codegen/runtime/validate/reader.py",
    "codegen/runtime/validate/run.py",
    "codegen/runtime/validate/report.py",
    "codegen/runtime/cli.py",
    "codegen/typescript_runtime/core.js",
]
DEFAULT_TESTS = ["tests/hostile", "tests/test_cli.py", "tests/test_api.py", "tests/test_dispatch.py"]
NODE_TESTS = ["tests/hostile/test_node.py", "tests/test_typescript.py"]


@dataclass(frozen=True)
class Mutant:
    module: str
    line: int
    description: str
    source: str  # the whole mutated module


_SWAP_CMP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_QUANTIFIER = re.compile(r"\+|\{(\d+)\}|\{(\d+),(\d*)\}")


def _sites(tree: ast.AST) -> Iterator[tuple[ast.AST, str]]:
    """Every (node, kind) that can be mutated; docstrings and type annotations are left alone."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Module):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0].value))
        if isinstance(node, ast.AnnAssign):
            skip.update(id(n) for n in ast.walk(node.annotation))
        if isinstance(node, ast.arg) and node.annotation is not None:
            skip.update(id(n) for n in ast.walk(node.annotation))
        if isinstance(node, ast.FunctionDef) and node.returns is not None:
            skip.update(id(n) for n in ast.walk(node.returns))
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Compare) and type(node.ops[0]) in _SWAP_CMP:
            yield node, "compare"
        elif isinstance(node, ast.BoolOp):
            yield node, "boolop"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "not"
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            yield node, "bool"
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, "int"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str | bytes) and _is_pattern(node.value):
            yield node, "regex"


def _is_pattern(value: str | bytes) -> bool:
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    return "[" in text and _QUANTIFIER.search(text) is not None


def _apply(tree: ast.Module, index: int) -> tuple[int, str] | None:
    """Mutate the `index`-th site of `tree` in place; (line, description), or None if it cannot be."""
    node, _ = list(_sites(tree))[index]
    line = getattr(node, "lineno", 0)
    if isinstance(node, ast.Compare):
        old = node.ops[0]
        node.ops[0] = _SWAP_CMP[type(old)]()
        return line, f"{type(old).__name__} -> {type(node.ops[0]).__name__}"
    if isinstance(node, ast.BoolOp):
        old_op = node.op
        node.op = ast.Or() if isinstance(old_op, ast.And) else ast.And()
        return line, f"{type(old_op).__name__} -> {type(node.op).__name__}"
    if isinstance(node, ast.UnaryOp):
        node.op = ast.UAdd()  # `+x` for a bool: the `not` dropped, the value's truth kept
        node.operand = ast.Call(ast.Name("bool", ast.Load()), [node.operand], [])
        return line, "not dropped"
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            node.value = not value
            return line, f"{value} -> {not value}"
        if isinstance(value, int):
            node.value = value + 1
            return line, f"{value} -> {value + 1}"
        if not isinstance(value, str | bytes):
            return None
        pattern = value.decode("latin-1") if isinstance(value, bytes) else value
        match = _QUANTIFIER.search(pattern)
        if match is None:
            return None
        new = "*" if match.group() == "+" else "{0,%s}" % (match.group(1) or match.group(3) or "")
        mutated = pattern[: match.start()] + new + pattern[match.end() :]
        node.value = mutated.encode("latin-1") if isinstance(value, bytes) else mutated
        return line, f"regex quantifier {match.group()!r} -> {new!r}"
    return None


def python_mutants(module: str) -> Iterator[Mutant]:
    source = (ROOT / module).read_text(encoding="utf-8")
    count = len(list(_sites(ast.parse(source))))
    for index in range(count):
        tree = ast.parse(source)
        applied = _apply(tree, index)
        if applied is not None:
            yield Mutant(module, applied[0], applied[1], ast.unparse(tree))


_JS = [
    (re.compile(r"==="), "!=="),
    (re.compile(r"!=="), "==="),
    (re.compile(r"(?<![<=>!])<(?![<=])"), "<="),
    (re.compile(r"(?<![<=>!=])>(?![>=])"), ">="),
    (re.compile(r"<="), "<"),
    (re.compile(r">="), ">"),
    (re.compile(r"&&"), "||"),
    (re.compile(r"\|\|"), "&&"),
    (re.compile(r"(?<![\w.])(\d+)(?![\w.])"), None),  # a number, plus one
]


def js_mutants(module: str) -> Iterator[Mutant]:
    source = (ROOT / module).read_text(encoding="utf-8")
    lines = source.split("\n")
    for number, text in enumerate(lines, 1):
        stripped = text.strip()
        if stripped.startswith(("//", "*", "/*")) or ("=>" in stripped and stripped.endswith("=> {")):
            continue
        for pattern, replacement in _JS:
            for match in pattern.finditer(text):
                if text[: match.start()].count('"') % 2 or text[: match.start()].count("`") % 2:
                    continue  # inside a string
                new = replacement if replacement is not None else str(int(match.group(1)) + 1)
                mutated = text[: match.start()] + new + text[match.end() :]
                out = "\n".join([*lines[: number - 1], mutated, *lines[number:]])
                yield Mutant(module, number, f"{match.group()!r} -> {new!r}", out)


def _target(module: str, work: Path) -> Path:
    if module.startswith("codegen/runtime/"):
        return work / "chatschema" / module.removeprefix("codegen/runtime/")
    # the package's modules are ES modules under esm/, each with a CommonJS build at the root
    return work / "typescript" / "esm" / module.removeprefix("codegen/typescript_runtime/")


def _commonjs_build(esm: Path, work: Path) -> None:
    """Rebuild the CommonJS file of a mutated ES module, as codegen does (esbuild, pinned)."""
    from codegen.typescript import NodeJob

    rel = esm.relative_to(work / "typescript" / "esm").as_posix()
    cjs = work / "typescript" / rel
    built = NodeJob("standalone.cjs", {"validators": {}, "modules": {rel: esm.read_text(encoding="utf-8")}}).result()
    header = cjs.read_text(encoding="utf-8").split("\n", 1)[0]
    cjs.write_text(f'{header}\n"use strict";\n{built["cjs"][rel]}', encoding="utf-8")


def run_mutant(mutant: Mutant, tests: list[str], pytest_args: list[str], timeout: float) -> bool:
    """Whether the tests kill the mutant (fail or time out)."""
    with tempfile.TemporaryDirectory(prefix="chatschema-mutant-") as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "generated" / "chatschema", work / "chatschema")
        shutil.copytree(ROOT / "generated" / "typescript", work / "typescript", symlinks=True)
        target = _target(mutant.module, work)
        header = target.read_text(encoding="utf-8").split("\n", 1)[0]
        target.write_text(f"{header}\n{mutant.source}", encoding="utf-8")
        if mutant.module.startswith("codegen/typescript_runtime/"):
            _commonjs_build(target, work)
        env = {**os.environ, "PYTHONPATH": str(work), "CHATSCHEMA_TS_PACKAGE": str(work / "typescript")}
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *pytest_args, *tests]
        try:
            proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return True
        return proc.returncode != 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", action="append", help="a hand-written module (repeat); default: the runtime's")
    parser.add_argument("--max", type=int, default=30, help="mutants sampled per module (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per mutant's test run")
    parser.add_argument("--tests", nargs="*", help="test paths (default: the validation tests)")
    parser.add_argument("pytest_args", nargs="*", help="after --: extra pytest arguments")
    args = parser.parse_args()
    modules = args.module or DEFAULT_MODULES
    rng = random.Random(args.seed)
    scores: list[tuple[str, int, int]] = []
    for module in modules:
        is_js = module.endswith(".js")
        mutants = list(js_mutants(module) if is_js else python_mutants(module))
        total = len(mutants)
        if args.max and len(mutants) > args.max:
            mutants = sorted(rng.sample(mutants, args.max), key=lambda m: m.line)
        tests = args.tests or (NODE_TESTS if is_js else DEFAULT_TESTS)
        print(f"## {module}: {len(mutants)} of {total} mutants, tests {' '.join(tests)}", flush=True)
        killed = 0
        for mutant in mutants:
            start = time.perf_counter()
            dead = run_mutant(mutant, tests, args.pytest_args, args.timeout)
            killed += dead
            verdict = "killed" if dead else "SURVIVED"
            print(
                f"  {verdict:8} {module}:{mutant.line}: {mutant.description} ({time.perf_counter() - start:.0f}s)",
                flush=True,
            )
        scores.append((module, killed, len(mutants)))
    print("\n## score per module (killed / mutants run)")
    for module, killed, count in scores:
        share = f"{killed / count:.0%}" if count else "-"
        print(f"{module:45} {killed:4} / {count:<4} {share}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
