"""The mutants of a hand-written module: one small, plausible bug each, at a known place.

Python: a comparison flipped, `and`/`or` swapped, a `not` dropped, an integer moved by one, a
boolean swapped, a regex quantifier changed. Only the mutated expression is rewritten (in
parentheses, padded with the line breaks it spanned), so comments, layout and every other line
number stay as written: tracebacks and the coverage map point at the same lines.
JavaScript: `===`/`!==`, `<`/`<=`, `&&`/`||` and numbers, line by line.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    """One mutated module. `key` stays the same while the code around the mutant does not change."""

    module: str  # the hand-written module, relative to the repository
    line: int  # first line of the mutated expression in that module
    lines: tuple[int, ...]  # the lines whose execution runs the mutated expression (for test selection)
    at_import: bool  # evaluated once per process: module or class body, decorator, cached function
    description: str
    key: str
    source: str  # the whole mutated module
    # The mutated region's text (8 hex digits): the function around the mutant (else its statement)
    # in Python, the line and two either side in JavaScript, with the change applied. It stays while
    # the rest of the file moves, and changes with any edit of that region.
    digest: str = ""


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
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class _Site:
    node: ast.expr
    lines: tuple[int, ...]  # lines whose execution runs the node: its statement's, or a default's function body
    scope: ast.AST  # the innermost function, or else statement, holding the node: its key's anchor
    qualname: str
    at_import: bool


def _is_pattern(value: str | bytes) -> bool:
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    return "[" in text and _QUANTIFIER.search(text) is not None


def _mutable(node: ast.AST) -> bool:
    if isinstance(node, ast.Compare):
        return type(node.ops[0]) in _SWAP_CMP
    if isinstance(node, ast.BoolOp):
        return True
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.Not)
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool | int):
            return True
        return isinstance(value, str | bytes) and _is_pattern(value)
    return False


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _skipped(node: ast.AST) -> set[int]:
    """Never mutated: docstrings, annotations, `@overload` stubs, f-strings (their parts' positions are unreliable)."""
    skip: set[int] = set()
    for parent in ast.walk(node):
        if isinstance(parent, (*_DEFS, ast.Module)):
            body = parent.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0].value))
        annotations: list[ast.AST | None] = []
        if isinstance(parent, ast.AnnAssign):
            annotations.append(parent.annotation)
        if isinstance(parent, ast.arg):
            annotations.append(parent.annotation)
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
            annotations.append(parent.returns)
        if isinstance(parent, ast.JoinedStr):
            annotations.append(parent)
        if isinstance(parent, ast.FunctionDef) and any(_name(d) == "overload" for d in parent.decorator_list):
            annotations.append(parent)  # a typing stub, never run
        for annotation in annotations:
            if annotation is not None:
                skip.update(id(n) for n in ast.walk(annotation))
    return skip


_CACHES = {"cache", "lru_cache", "cached_property"}
# Methods Python (or pydantic) calls while a class statement runs: a subclass defined in another
# module (a generated model) runs them at its import, which coverage gives to no test.
_CLASS_HOOKS = {"__init_subclass__", "__pydantic_init_subclass__", "__set_name__"}


def _class_hooks(tree: ast.Module) -> list[ast.FunctionDef]:
    """The creation hooks of the module's classes (see _CLASS_HOOKS)."""
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    return [m for c in classes for m in c.body if isinstance(m, ast.FunctionDef) and m.name in _CLASS_HOOKS]


def _calls(node: ast.AST) -> set[str]:
    return {c.func.id for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}


def _run_once(tree: ast.Module) -> set[str]:
    """Top-level functions whose result is cached (`@cache`), and every top-level function they, or a
    class's creation hooks (`__init_subclass__`), call.

    Their lines run in the first test that needs them only (or while a module is imported), while
    every later test uses what they computed: for test selection they count as run at import.
    """
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    calls = {name: _calls(node) for name, node in defs.items()}
    todo = [n for n, node in defs.items() if any(_name(_called(d)) in _CACHES for d in node.decorator_list)]
    todo.extend(name for hook in _class_hooks(tree) for name in _calls(hook))
    found: set[str] = set()
    while todo:
        name = todo.pop()
        if name in defs and name not in found:
            found.add(name)
            todo.extend(calls[name])
    return found


def _called(node: ast.expr) -> ast.expr:
    return node.func if isinstance(node, ast.Call) else node


def _sites(tree: ast.Module) -> list[_Site]:
    """Every mutable expression, in source order, with the statement and scope around it."""
    skip = _skipped(tree)
    once = _run_once(tree)
    hooks = {id(hook) for hook in _class_hooks(tree)}
    found: list[_Site] = []

    def visit(
        node: ast.AST,
        statement: ast.stmt | None,
        scope: ast.AST,
        qualname: str,
        at_import: bool,
        default_of: ast.AST | None = None,
    ) -> None:
        if isinstance(node, ast.stmt):
            statement = node
            if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
                scope = node  # outside functions, the statement itself anchors the keys of what it holds
        if isinstance(node, ast.expr) and id(node) not in skip and _mutable(node):
            assert statement is not None and node.end_lineno is not None
            lines = range(statement.lineno, node.end_lineno + 1)
            if default_of is not None:
                # A default value is seen only by calls that run the function's body.
                assert isinstance(default_of, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                assert default_of.end_lineno is not None
                first = default_of.body[0] if isinstance(default_of.body, list) else default_of.body
                lines = range(first.lineno, default_of.end_lineno + 1)
            found.append(_Site(node, tuple(lines), scope, qualname or "<module>", at_import and default_of is None))
        for field, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            for child in children:
                if not isinstance(child, ast.AST):
                    continue
                if isinstance(node, _DEFS) and field == "body":
                    name = f"{qualname}.{node.name}" if qualname else node.name
                    # A function's body runs when it is called; a class body at import, like the module's.
                    # A cached function's body, once per process: like import (see _run_once).
                    runs_at_import = (
                        isinstance(node, ast.ClassDef) or (qualname == "" and node.name in once) or id(node) in hooks
                    )
                    visit(child, statement, node, name, at_import and runs_at_import)
                elif isinstance(node, ast.Lambda) and field == "body":
                    visit(child, statement, scope, qualname, False)
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) and field == "args":
                    visit(child, statement, scope, qualname, at_import, node)
                else:
                    visit(child, statement, scope, qualname, at_import, default_of)

    visit(tree, None, tree, "", True)
    found.sort(key=lambda site: (site.node.lineno, site.node.col_offset))
    return found


def _mutate(node: ast.expr) -> tuple[ast.expr, str]:
    """A mutated copy of `node` and what was changed."""
    if isinstance(node, ast.Compare):
        old = node.ops[0]
        new = _SWAP_CMP[type(old)]()
        return ast.Compare(
            node.left, [new, *node.ops[1:]], node.comparators
        ), f"{type(old).__name__} -> {type(new).__name__}"
    if isinstance(node, ast.BoolOp):
        op: ast.boolop = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return ast.BoolOp(op, node.values), f"{type(node.op).__name__} -> {type(op).__name__}"
    if isinstance(node, ast.UnaryOp):
        # `+bool(x)`: the `not` dropped, the operand's truth value kept.
        return ast.UnaryOp(ast.UAdd(), ast.Call(ast.Name("bool", ast.Load()), [node.operand], [])), "not dropped"
    assert isinstance(node, ast.Constant)
    value = node.value
    if isinstance(value, bool):
        return ast.Constant(not value), f"{value} -> {not value}"
    if isinstance(value, int):
        return ast.Constant(value + 1), f"{value} -> {value + 1}"
    assert isinstance(value, str | bytes)
    pattern = value.decode("latin-1") if isinstance(value, bytes) else value
    match = _QUANTIFIER.search(pattern)
    assert match is not None
    new_quantifier = "*" if match.group() == "+" else "{0,%s}" % (match.group(1) or match.group(3) or "")
    mutated = pattern[: match.start()] + new_quantifier + pattern[match.end() :]
    constant = ast.Constant(mutated.encode("latin-1") if isinstance(value, bytes) else mutated)
    return constant, f"regex quantifier {match.group()!r} -> {new_quantifier!r}"


def _splice(lines: list[bytes], node: ast.expr, text: str) -> str:
    """The module with `node`'s text (positions are UTF-8 byte offsets) replaced by `(text)` spanning as many lines."""
    assert node.end_lineno is not None and node.end_col_offset is not None
    first, last = node.lineno - 1, node.end_lineno - 1
    replacement = ("(" + text + "\n" * (last - first) + ")").encode()
    spliced = lines[first][: node.col_offset] + replacement + lines[last][node.end_col_offset :]
    return b"".join([*lines[:first], spliced, *lines[last + 1 :]]).decode()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def region_digest(region: list[str], offset: int, column: int, description: str) -> str:
    """The digest of a mutated region: its lines (change applied), where in them the change is, and what it is."""
    text = "\n".join([description, f"{offset}:{column}", *region])
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def _region(scope: ast.AST) -> tuple[int, int]:
    """First and last line of the code a Python mutant's digest covers: its function (decorators
    included) or statement; of a class, its header (a mutant in the class body has its own statement)."""
    first = getattr(scope, "lineno", 1)
    last = getattr(scope, "end_lineno", None) or first
    if isinstance(scope, _DEFS):
        first = min([first, *(d.lineno for d in scope.decorator_list)])
        if isinstance(scope, ast.ClassDef):
            last = max(scope.lineno, scope.body[0].lineno - 1)
    return first, last


def python_mutants(module: str, source: str) -> Iterator[Mutant]:
    """Every mutant of the Python module `module` whose text is `source`, in source order."""
    tree = ast.parse(source)
    lines = source.encode().splitlines(keepends=True)
    ordinal: dict[tuple[str, str], int] = {}
    for site in _sites(tree):
        mutated, description = _mutate(site.node)
        text = _splice(lines, site.node, ast.unparse(mutated))
        compile(text, module, "exec")  # a splice that does not compile is a bug here, not a mutant
        scope_key = f"{site.qualname}@{_digest(ast.get_source_segment(source, site.scope) or '')}"
        # The n-th change of this kind inside its scope: stable while that scope's text is unchanged.
        count = ordinal[(scope_key, description)] = ordinal.get((scope_key, description), -1) + 1
        first, last = _region(site.scope)
        region = text.split("\n")[first - 1 : last]
        digest = region_digest(region, site.node.lineno - first, site.node.col_offset, description)
        yield Mutant(
            module=module,
            line=site.node.lineno,
            lines=site.lines,
            at_import=site.at_import,
            description=description,
            key=f"{module}:{scope_key}:{count}:{description}",
            source=text,
            digest=digest,
        )


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


def js_mutants(module: str, source: str) -> Iterator[Mutant]:
    """Every mutant of the JavaScript module `module` whose text is `source`, line by line."""
    lines = source.split("\n")
    ordinal: dict[str, int] = {}
    for number, text in enumerate(lines, 1):
        stripped = text.strip()
        if stripped.startswith(("//", "*", "/*")) or ("=>" in stripped and stripped.endswith("=> {")):
            continue
        comment = text.find(" // ")  # a comment after the code: not code to mutate
        for index, (pattern, replacement) in enumerate(_JS):
            for match in pattern.finditer(text):
                if text[: match.start()].count('"') % 2 or text[: match.start()].count("`") % 2:
                    continue  # inside a string
                if 0 <= comment < match.start():
                    continue
                new = replacement if replacement is not None else str(int(match.group(1)) + 1)
                mutated = text[: match.start()] + new + text[match.end() :]
                description = f"{match.group()!r} -> {new!r}"
                stem = f"{module}:{_digest(text)}:{index}:{match.start()}:{description}"
                count = ordinal[stem] = ordinal.get(stem, -1) + 1  # identical lines elsewhere
                start = max(number - 3, 0)
                region = [*lines[start : number - 1], mutated, *lines[number : number + 2]]
                digest = region_digest(region, number - 1 - start, match.start(), description)
                yield Mutant(
                    module=module,
                    line=number,
                    lines=(number,),
                    at_import=False,  # V8 counts a module's top-level lines as run: the tests that loaded it
                    description=description,
                    key=f"{stem}:{count}",
                    source="\n".join([*lines[: number - 1], mutated, *lines[number:]]),
                    digest=digest,
                )


def mutants(module: str, source: str) -> list[Mutant]:
    """The mutants of `module` (Python or JavaScript, by its suffix), each with a digest of its own."""
    found = list(js_mutants(module, source) if module.endswith(".js") else python_mutants(module, source))
    seen: dict[str, int] = {}
    for index, mutant in enumerate(found):
        # The same region twice in a file (identical lines): the later ones numbered in file order.
        count = seen[mutant.digest] = seen.get(mutant.digest, -1) + 1
        if count:
            digest = hashlib.sha256(f"{mutant.digest}:{count}".encode()).hexdigest()[:8]
            found[index] = dataclasses.replace(mutant, digest=digest)
    return found
