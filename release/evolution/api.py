"""Code-level changes: the generated Python API (Pydantic classes and fields, TypedDicts, parse
functions) and the exported TypeScript types, read from `generated/` of each version.

Breaks users even when the wire format does not change: a removed or renamed class, a field whose
type or optionality changed, a parse function gone. Descriptions and docstrings are ignored.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MAJOR, MINOR = "major", "minor"
_MODULE_PREFIX = re.compile(r"\b[a-z_][a-z0-9_]*\.(?=[A-Z])")
_ANNOTATION_KWARGS = {"description", "title", "examples", "deprecated"}


@dataclass(frozen=True)
class ApiChange:
    """One change of the generated API; `bump` is what it needs (major: breaks some code)."""

    family: str
    what: str  # e.g. "Pydantic field UserMessage.role"
    change: str  # removed | added | changed | renamed
    detail: str
    bump: str
    # A TypeScript interface changed: each member changed, added or removed, one line each.
    members: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """What changed, as short as it is whole: the changed members of an interface, else `detail`."""
        return "; ".join(self.members) if self.members else self.detail


class _StripDocs(ast.NodeTransformer):
    def visit_Call(self, node: ast.Call) -> ast.AST:
        node.keywords = [k for k in node.keywords if k.arg not in _ANNOTATION_KWARGS]
        self.generic_visit(node)
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        # chatschema._types.Integer is an int to a type checker (it only also reads 1.0 as 1)
        return ast.Name("int", node.ctx) if node.id == "Integer" else node


def _text(node: ast.AST | None) -> str:
    if node is None:
        return ""
    return _MODULE_PREFIX.sub("", ast.unparse(_StripDocs().visit(node)))


def _field(stmt: ast.AnnAssign) -> str:
    """`annotation` plus `required` or `= default`, from a Pydantic field declaration."""
    value = stmt.value
    annotation = _text(stmt.annotation)
    if value is None:
        return f"{annotation} (required)"
    if isinstance(value, ast.Call) and _text(value.func) == "Field":
        default = next((k.value for k in value.keywords if k.arg in ("default", "default_factory")), None)
        if default is None and value.args:
            default = value.args[0]
        if default is None or (isinstance(default, ast.Constant) and default.value is Ellipsis):
            return f"{annotation} (required)"
        return f"{annotation} = {_text(default)}"
    return f"{annotation} = {_text(value)}"


def _python_entries(path: Path, kind: str) -> dict[str, str]:
    entries: dict[str, str] = {}
    functions: dict[str, list[ast.FunctionDef]] = {}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef):
            entries[f"{kind} {stmt.name}"] = "class"
            for item in stmt.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    desc = _field(item) if kind == "Pydantic class" else _text(item.annotation)
                    entries[f"{kind.split()[0]} field {stmt.name}.{item.target.id}"] = desc
        elif (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Call)
            and _text(stmt.value.func) == "TypeAliasType"
        ):
            for target in stmt.targets:
                if isinstance(target, ast.Name) and len(stmt.value.args) > 1:
                    entries[f"Pydantic type alias {target.id}"] = _text(stmt.value.args[1])
        elif (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and _text(stmt.annotation) == "TypeAlias"
        ):
            entries[f"TypedDict alias {stmt.target.id}"] = _text(stmt.value)
        elif isinstance(stmt, ast.FunctionDef) and kind == "function" and not stmt.name.startswith("_"):
            functions.setdefault(stmt.name, []).append(stmt)
    for name, definitions in functions.items():
        entries.update(_function_entries(name, definitions))
    return entries


def _signature(stmt: ast.FunctionDef) -> str:
    return f"({_text(stmt.args)}) -> {_text(stmt.returns)}"


def _function_entries(name: str, definitions: list[ast.FunctionDef]) -> dict[str, str]:
    """A function's signature. An overloaded function's API is its overloads: the first (the form
    a call written for a version without them selects) under the function's name, each other as
    `(overload N)`; the implementation after them adds nothing."""
    overloads = [d for d in definitions if any(_text(x) in ("overload", "typing.overload") for x in d.decorator_list)]
    if not overloads:
        return {f"function {name}": _signature(definitions[-1])}
    entries = {f"function {name}": _signature(overloads[0])}
    entries.update((f"function {name} (overload {i})", _signature(d)) for i, d in enumerate(overloads[1:], start=2))
    return entries


_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DECLARATION = re.compile(r"^export (?:declare )?(interface|type) (\w+)", re.M)


def _typescript_entries(path: Path, family: str) -> dict[str, str]:
    text = _COMMENTS.sub("", path.read_text(encoding="utf-8"))
    starts = list(_DECLARATION.finditer(text))
    entries: dict[str, str] = {}
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        name = match.group(2)
        if name.lower() == f"{family}schemas":  # the name -> type map: every type is reported on its own
            continue
        entries[f"TypeScript {match.group(1)} {name}"] = " ".join(text[match.start() : end].split())
    return entries


# Where a checkout keeps the generated Python package and TypeScript types: today's layout first,
# then the one before the runtime moved into the packages (generated/chatschema, generated/typescript).
LAYOUTS = (("chatschema", "npm/types"), ("generated/chatschema", "generated/typescript/types"))


def api_entries(root: Path, family: str) -> dict[str, str] | None:
    """Every public API entry of a family under `root`, or None if it was not generated."""
    found = next(((root / py, root / ts) for py, ts in LAYOUTS if (root / py / family).is_dir()), None)
    if found is None:
        return None
    package, types = found[0] / family, found[1]
    entries: dict[str, str] = {}
    for path in sorted((package / "models").glob("*.py")):
        entries.update(_python_entries(path, "Pydantic class"))
    for path in sorted((package / "typeddicts").glob("*.py")):
        entries.update(_python_entries(path, "TypedDict"))
    if (package / "__init__.py").is_file():
        entries.update(_python_entries(package / "__init__.py", "function"))
    ts = types / f"{family}.d.ts"
    if ts.is_file():
        entries.update(_typescript_entries(ts, family))
    return entries


def _members(entries: dict[str, str], kind: str, name: str) -> dict[str, str]:
    prefix = f"{kind.split()[0]} field {name}."
    return {k.removeprefix(prefix): v for k, v in entries.items() if k.startswith(prefix)}


def compare_api(family: str, old: dict[str, str], new: dict[str, str]) -> list[ApiChange]:
    """Every API entry removed, added or changed between two versions of a family."""
    out: list[ApiChange] = []
    removed, added = sorted(old.keys() - new.keys()), sorted(new.keys() - old.keys())
    renamed: set[str] = set()
    for gone in removed:  # a class that reappears under another name with the same members
        kind, _, name = gone.rpartition(" ")
        if old[gone] != "class" or not _members(old, kind, name):
            continue
        for new_key in added:
            new_kind, _, new_name = new_key.rpartition(" ")
            if (
                new_kind == kind
                and new[new_key] == "class"
                and _members(new, kind, new_name) == _members(old, kind, name)
            ):
                out.append(ApiChange(family, gone, "renamed", f"now {new_name}", MAJOR))
                renamed |= {gone, new_key}
                renamed |= {f"{kind.split()[0]} field {name}.{m}" for m in _members(old, kind, name)}
                renamed |= {f"{kind.split()[0]} field {new_name}.{m}" for m in _members(new, kind, new_name)}
                break
    for key in removed:
        if key not in renamed:
            out.append(ApiChange(family, key, "removed", old[key], MAJOR))
    for key in added:
        if key in renamed:
            continue
        required_field = " field " in key and (
            new[key].endswith("(required)") or (key.startswith("TypedDict") and "NotRequired[" not in new[key])
        )
        if required_field and not _owner_added(key, added):
            out.append(
                ApiChange(family, key, "added", f"{new[key]}: code building it without this field breaks", MAJOR)
            )
        else:
            out.append(ApiChange(family, key, "added", new[key], MINOR))
    for key in sorted(old.keys() & new.keys()):
        if old[key] == new[key]:
            continue
        loosened = old[key].endswith("(required)") and new[key].startswith(old[key].removesuffix(" (required)"))
        loosened = loosened or (key.startswith("function ") and widened(old[key], new[key]))
        members = member_changes(old[key], new[key]) if key.startswith("TypeScript interface ") else ()
        detail = f"{old[key]}  ->  {new[key]}"
        out.append(ApiChange(family, key, "changed", detail, MINOR if loosened else MAJOR, members))
    return out


def _parameters(signature: str) -> ast.arguments | None:
    try:
        definition = ast.parse(f"def f{signature}: pass").body[0]
    except SyntaxError:
        return None
    return definition.args if isinstance(definition, ast.FunctionDef) else None


def _members_of(annotation: ast.expr | None) -> set[str]:
    """The top-level members of a `|` union annotation, as text."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _members_of(annotation.left) | _members_of(annotation.right)
    return {_text(annotation)}


def _accepts(old: ast.arg, new: ast.arg) -> bool:
    return old.arg == new.arg and _members_of(old.annotation) <= _members_of(new.annotation)


def widened(old: str, new: str) -> bool:
    """Whether a function signature `new` takes every call `old` took, and returns the same: the same
    positional parameters, each accepting at least what it did, and only keyword-only parameters
    with a default added (`(data: A) -> R` to `(data: A | B, *, mode: M = 'x') -> R`)."""
    a, b = _parameters(old.split(" -> ")[0]), _parameters(new.split(" -> ")[0])
    if a is None or b is None or old.split(" -> ", 1)[1:] != new.split(" -> ", 1)[1:]:
        return False
    old_positional, new_positional = [*a.posonlyargs, *a.args], [*b.posonlyargs, *b.args]
    if len(old_positional) != len(new_positional) or len(a.defaults) > len(b.defaults):
        return False
    if _text(a.vararg) != _text(b.vararg) or _text(a.kwarg) != _text(b.kwarg):
        return False
    if not all(_accepts(x, y) for x, y in zip(old_positional, new_positional, strict=True)):
        return False
    new_keywords = {arg.arg: (arg, default) for arg, default in zip(b.kwonlyargs, b.kw_defaults, strict=True)}
    for arg, default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        found = new_keywords.pop(arg.arg, None)
        if found is None or not _accepts(arg, found[0]) or (default is not None and found[1] is None):
            return False
    return all(default is not None for _, default in new_keywords.values())


def _owner_added(field_key: str, added: list[str]) -> bool:
    kind, _, qualified = field_key.partition(" field ")
    owner = qualified.split(".")[0]
    return f"{'Pydantic class' if kind == 'Pydantic' else 'TypedDict'} {owner}" in added


_OPEN, _CLOSE = "([{<", ")]}>"


def _top_level(text: str, separator: str) -> Iterator[int]:
    """The offsets of `separator` in `text` outside brackets and string literals."""
    depth, quote = 0, ""
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote and text[i - 1] != "\\" else quote
        elif c in "\"'`":
            quote = c
        elif c in _OPEN:
            depth += 1
        elif c in _CLOSE and not (c == ">" and text[i - 1] == "="):  # `=>` closes nothing
            depth -= 1
        elif c == separator and depth == 0:
            yield i


def _interface(text: str) -> tuple[str, dict[str, str]] | None:
    """An interface's heading (`export interface X extends Y`) and its members by name, from its
    one-line entry text; None when it does not read as one."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        return None
    body = text[start + 1 : end]
    cuts = [-1, *_top_level(body, ";"), len(body)]
    members: dict[str, str] = {}
    for a, b in itertools.pairwise(cuts):
        member = body[a + 1 : b].strip()
        if member:
            colon = next(_top_level(member, ":"), len(member))
            members[member[:colon].strip().removesuffix("?")] = member
    return text[:start].strip(), members


def member_changes(old: str, new: str) -> tuple[str, ...]:
    """The members of an interface that changed between two entry texts, one line each
    (`x?: string | null  ->  x: string | null`, `member added: y: number`), in declaration order;
    empty when either text does not read as an interface."""
    a, b = _interface(old), _interface(new)
    if a is None or b is None:
        return ()
    out = [f"{a[0]}  ->  {b[0]}"] if a[0] != b[0] else []
    for name, member in a[1].items():
        if name not in b[1]:
            out.append(f"member removed: {member}")
        elif b[1][name] != member:
            out.append(f"{member}  ->  {b[1][name]}")
    out += [f"member added: {member}" for name, member in b[1].items() if name not in a[1]]
    return tuple(out)
