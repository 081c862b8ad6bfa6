"""Render the package files that datamodel-code-generator does not write, with jinja2."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from . import escape
from .model import FamilyModel, NamedType

TEMPLATES = Path(__file__).parent / "templates"


def _only_escaped(value: Any) -> Any:
    """Refuse to render a string that did not pass an escaper (see codegen/escape.py)."""
    if isinstance(value, str) and not isinstance(value, escape.Escaped):
        raise TypeError(f"template output {value[:60]!r} was not escaped: pipe it through an escaper filter")
    return value


_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES),
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    autoescape=False,
    finalize=_only_escaped,
)
_env.filters.update(
    py=escape.py_literal,
    docstring=escape.py_docstring,
    ident=escape.py_identifier,
    js=escape.js_string,
    md=escape.md_text,
    md_line=escape.md_line,
    md_cell=escape.md_cell,
    md_code=escape.md_code,
    md_code_cell=lambda v: escape.md_code(v, in_table=True),
    md_fence=escape.md_fence,
    plain=escape.plain,
    json=lambda v: json.dumps(v, ensure_ascii=False),
)


def snake(name: str) -> str:
    """`DocentChatMessage` -> `docent_chat_message`."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


@dataclass(frozen=True)
class UnionView:
    """What the templates need to know about one tagged union."""

    name: str
    tag: str
    branches: list[str]
    tags: str
    tag_values: list[str]

    @property
    def snake(self) -> str:
        return snake(self.name)

    @property
    def parse(self) -> str:
        return f"parse_{self.snake}"

    @property
    def unknown(self) -> str:
        """The class of its unknown variants (chatschema.unknown)."""
        return f"Unknown{self.name}"


@dataclass(frozen=True)
class FamilyView:
    """What the templates need to know about one family."""

    name: str
    imports: list[tuple[str, list[str]]]
    unions: list[UnionView]

    @property
    def type_names(self) -> list[str]:
        return sorted(n for _, names in self.imports for n in names)

    @property
    def exports(self) -> list[str]:
        parse = [u.parse for u in self.unions] + [f"{u.parse}_json" for u in self.unions]
        return sorted(self.type_names + parse + [u.unknown for u in self.unions])


def _union_view(t: NamedType) -> UnionView:
    return UnionView(
        t.name,
        t.tag or "",
        [b.type_name for b in t.branches],
        ", ".join(repr(b.tag_value) for b in t.branches),
        [str(b.tag_value) for b in t.branches],
    )


def family_view(family: FamilyModel) -> FamilyView:
    """Group a family's types by generated module, in schema order."""
    modules: dict[str, list[str]] = {}
    for t in family.types.values():
        modules.setdefault(t.module, []).append(t.name)
    imports = [(m, sorted(names)) for m, names in sorted(modules.items())]
    return FamilyView(family.name, imports, [_union_view(t) for t in family.unions])


def render(template: str, **context: Any) -> str:
    """Render one template of codegen/templates."""
    return _env.get_template(template).render(**context)


def shipped_schema(family: str, name: str, contents: dict[str, Any]) -> str:
    """The copy of a schema shipped in the package: the source plus a do-not-edit `$comment`."""
    comment = f"Generated copy of schemas/{family}/{name}: do not edit; edit the source and run `nox -s generate`."
    return json.dumps({"$comment": comment, **contents}, indent=2, ensure_ascii=False) + "\n"
