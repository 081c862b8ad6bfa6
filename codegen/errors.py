"""One error type for every problem codegen reports about the schemas."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class SchemaProblem:
    """A problem in one schema file, at one JSON location."""

    file: str
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.pointer or '/'}: {self.message}"


class CodegenError(Exception):
    """Generation stopped; every problem found is listed, one per line."""

    def __init__(self, problems: list[SchemaProblem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def pointer(*parts: str | int) -> str:
    """Build a JSON Pointer (RFC 6901) from path parts."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
