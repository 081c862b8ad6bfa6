"""Names every part of codegen shares: the draft, the `$id` scheme, the extension marker, `$ref` targets."""

from __future__ import annotations

ID_BASE = "https://chatschema.dev/schemas/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
# Marks a type or property that the project adds and the real system lacks; its value says why.
# Docs show it, and the conformance harness treats the real library's verdict on it as on an unknown key.
EXTENSION = "x-chatschema-extension"


def expected_id(family: str, file_name: str) -> str:
    """The `$id` a schema file must carry, derived from where it lives."""
    return f"{ID_BASE}{family}/{file_name}"


def ref_target_name(ref: str) -> str:
    """The `$defs` name a `$ref` of the form `[file.json]#/$defs/Name` points at."""
    return ref.rsplit("/", 1)[-1]


def ref_target_file(ref: str, current: str) -> str:
    """The file a `$ref` of the form `[file.json]#/$defs/Name` points into (`current` when it names none)."""
    target = ref.partition("#")[0]
    return target.rsplit("/", 1)[-1] or current
