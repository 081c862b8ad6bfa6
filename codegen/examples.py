"""The examples beside each family's schemas: `schemas/<family>/examples/`.

- `<Type>/valid/*.json` and `<Type>/invalid/*.json`: one payload each and the verdict it must get
  under `<family>/<Type>`. They are the test vectors of every language, the examples of the
  reference docs, and checked against every freshly generated tree before it is written.
- `<Type>/*.jsonl`: a sample file shipped in the package (`chatschema samples`), one message of
  that type per line, exactly one of them deliberately invalid.
- `streams/*.json` (Letta only): SSE bodies and the reassembly each must give, in Python and Node.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import CodegenError, SchemaProblem

EXAMPLES = "examples"
STREAMS = "streams"
VERDICTS = ("valid", "invalid")


@dataclass(frozen=True)
class Sample:
    """A sample file of one family, shipped as `chatschema/samples/<family>_<stem>.jsonl`."""

    family: str
    type_name: str
    source: Path  # relative to the repository root

    @property
    def schema_name(self) -> str:
        """The schema every line is meant for, e.g. `docent/ChatMessage`."""
        return f"{self.family}/{self.type_name}"

    @property
    def shipped_name(self) -> str:
        """The file name in the package, e.g. `docent_transcript.jsonl`."""
        return f"{self.family}_{self.source.name}"


def read_example(root: Path, path: Path) -> str:
    """An example's text; CodegenError naming the file if it cannot be read as UTF-8 or is not JSON."""
    from .load import parse_strict  # load imports this module

    rel = path.relative_to(root).as_posix()
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".jsonl":  # one message a line, blank lines skipped, as the command reads them
            for line in (line for line in text.splitlines() if line.strip()):
                parse_strict(line)
        else:
            parse_strict(text)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CodegenError([SchemaProblem(rel, "", f"not a readable JSON example: {exc}", "examples")]) from None
    return text


def examples_folder(root: Path, family: str) -> Path:
    """Where a family's examples live."""
    return root / "schemas" / family / EXAMPLES


def first_valid(root: Path, family: str, type_name: str) -> Path | None:
    """The first valid example of a type in name order (the one its reference docs show), if any."""
    folder = examples_folder(root, family) / type_name / "valid"
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    return files[0] if files else None


def samples(root: Path, families: dict[str, set[str]]) -> list[Sample]:
    """Every sample file of `families` (family -> its type names), in name order."""
    found = []
    for family in sorted(families):
        for path in sorted(examples_folder(root, family).glob("*/*.jsonl")):
            found.append(Sample(family, path.parent.name, path.relative_to(root)))
    return found


def _type_folder_problems(root: Path, family: str, folder: Path, types: set[str]) -> list[SchemaProblem]:
    rel = folder.relative_to(root).as_posix()
    if folder.name not in types:
        return [
            SchemaProblem(rel, "", f"no type {family}/{folder.name}: examples are filed under a type name", "examples")
        ]
    problems = []
    for entry in sorted(folder.iterdir()):
        shown = entry.relative_to(root).as_posix()
        if entry.is_dir() and entry.name in VERDICTS:
            strays = [p for p in sorted(entry.iterdir()) if p.suffix != ".json" or not p.is_file()]
            problems += [
                SchemaProblem(p.relative_to(root).as_posix(), "", "an example is one *.json file", "examples")
                for p in strays
            ]
        elif not (entry.is_file() and entry.suffix == ".jsonl"):
            problems.append(SchemaProblem(shown, "", "expected valid/, invalid/ or a *.jsonl sample file", "examples"))
    return problems


def layout_problems(root: Path, families: dict[str, set[str]]) -> list[SchemaProblem]:
    """What in the examples folders names no type, or is not where an example can be."""
    problems: list[SchemaProblem] = []
    for family, types in sorted(families.items()):
        folder = examples_folder(root, family)
        for entry in sorted(folder.iterdir()) if folder.is_dir() else []:
            if entry.name == STREAMS and entry.is_dir():
                continue
            if not entry.is_dir() or entry.is_symlink():
                problems.append(
                    SchemaProblem(
                        entry.relative_to(root).as_posix(), "", "expected a folder named after a type", "examples"
                    )
                )
                continue
            problems += _type_folder_problems(root, family, entry, types)
    return problems


def example_files(root: Path, families: set[str]) -> list[Path]:
    """Every example file of `families` where one can be (the others are layout problems), in name order."""
    found: list[Path] = []
    for family in sorted(families):
        folder = examples_folder(root, family)
        found += [p for verdict in VERDICTS for p in sorted(folder.glob(f"*/{verdict}/*.json"))]
        found += sorted(folder.glob("*/*.jsonl")) + sorted((folder / STREAMS).glob("*.json"))
    return sorted(p for p in found if p.is_file())


def unreadable_examples(root: Path, families: set[str]) -> list[SchemaProblem]:
    """One problem per example that is not UTF-8 JSON (a sample: a line that is not), found before
    anything is generated, so that a broken file is named at once, with every other one."""
    problems: list[SchemaProblem] = []
    for path in example_files(root, families):
        try:
            read_example(root, path)
        except CodegenError as exc:
            problems += exc.problems
    return problems
