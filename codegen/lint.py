"""Check the schemas against the project's conventions before anything is generated.

Every problem is collected (not just the first), each naming its file, JSON location and rule.
The files are first checked against the 2020-12 meta-schema; only valid schemas go on to the
rules, which read the files and their resolved model (codegen/model.py), one function per rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from jsonschema import Draft202012Validator

from . import lint_limits, lint_refs, lint_rules
from .errors import SchemaProblem, pointer
from .lint_context import Context, build_registry
from .lint_patterns import Memo, compiled_patterns, pattern_problems, portable_patterns
from .load import SchemaFile
from .model import FamilyModel, build_models

__all__ = ["RULES", "Memo", "build_registry", "lint", "meta_problems", "pattern_problems"]

Rule = Callable[[Context], Iterator[SchemaProblem]]
# Every rule that runs once the files are valid 2020-12 schemas, in the order they report.
RULES: tuple[Rule, ...] = (
    lint_rules.file_header,
    lint_rules.type_names,
    lint_rules.type_annotations,
    lint_rules.property_names,
    lint_rules.printable_text,
    lint_rules.extension_markers,
    lint_rules.supported_keywords,
    lint_rules.named_inline,
    lint_rules.ref_form,
    lint_rules.whole_steps,
    lint_rules.object_types,
    lint_rules.required_names,
    lint_rules.empty_enums,
    portable_patterns,
    lint_rules.formats,
    lint_refs.module_clashes,
    lint_refs.resolved_refs,
    lint_refs.unions,
    lint_refs.ref_cycles,
    lint_limits.limits,
)


def lint(
    files: list[SchemaFile], memo: Memo | None = None, models: Mapping[str, FamilyModel] | None = None
) -> list[SchemaProblem]:
    """Return every convention problem in `files`; an empty list means generation may go on.

    `memo` remembers what depends on one file or one pattern alone (the meta-schema check, the
    ECMAScript compile), so that an edit re-checks only what it touched. `models` is the files'
    resolved model, if already built.
    """
    problems = meta_problems(files, memo)
    if problems:
        return problems  # every other check reads the schemas' shapes: not before they are valid
    context = Context(tuple(files), models if models is not None else build_models(files))
    for rule in RULES:
        problems.extend(rule(context))
    problems.extend(compiled_patterns(context, memo))
    return problems


def meta_problems(files: list[SchemaFile], memo: Memo | None = None) -> list[SchemaProblem]:
    """Each file checked against the 2020-12 meta-schema (remembered per file text in `memo`)."""
    meta = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    problems: list[SchemaProblem] = []
    for f in files:
        unit = f"meta-{f.family}-{f.path.stem}"
        if memo is not None and memo.known(unit, f.text):
            continue
        errors = list(meta.iter_errors(f.contents))
        problems += [
            SchemaProblem(str(f.path), pointer(*err.absolute_path), f"not a valid 2020-12 schema: {err.message}")
            for err in errors
        ]
        if memo is not None and not errors:
            memo.remember(unit, f.text)
    return problems
