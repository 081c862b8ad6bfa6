"""One error type for every problem codegen reports about the schemas."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class SchemaProblem:
    """A problem in one schema file, at one JSON location."""

    file: str
    pointer: str
    message: str
    rule: str = ""  # the lint rule that fired, shown in brackets, e.g. "ref-cycle"

    def __str__(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.file}: {self.pointer or '/'}: {self.message}{rule}"


class CodegenError(Exception):
    """Generation stopped; every problem found is listed, one per line."""

    def __init__(self, problems: list[SchemaProblem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def pointer(*parts: str | int) -> str:
    """Build a JSON Pointer (RFC 6901) from path parts."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
