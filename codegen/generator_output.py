"""datamodel-codegen's output for each family, from the cache where the generator's input is as it
was, descriptions aside (codegen/descriptions.py).

The generator reads each family's views with their descriptions replaced by placeholders, so its
output, cached per run as `dcg-models-<family>` and `dcg-typeddicts-<family>`, is keyed by everything
that run depends on except the descriptions, which are written back afterwards. The TypedDicts'
view holds no constraint (codegen/native.py), only whether a type has one (its check of the
schema): tightening a bound runs the models' generator alone. A family whose output holds a
placeholder where the generator's writing is not known runs again on the real text; either way
the result is what the generator writes from the real text.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from .cache import Cache, digest
from .descriptions import Placeholders, holds_placeholder_text
from .model import FamilyModel
from .pythongen import family_runs
from .warm import WarmGenerator

_KINDS = ("models", "typeddicts")  # the order of family_runs's runs


def _identity(runs: list[list[str]]) -> list[str]:
    """What a run's output depends on: its arguments but its folders, and its input files."""
    parts: list[str] = []
    for args in runs:
        source = Path(args[args.index("--input") + 1])
        flags = [a for i, a in enumerate(args) if args[i - 1 : i] not in (["--input"], ["--output"])]
        parts += [*flags, *(part for p in sorted(source.glob("*.json")) for part in (p.name, p.read_text("utf-8")))]
    return parts


def _read(folder: Path, prefix: str) -> dict[str, bytes]:
    return {prefix + p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _write(folder: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)


def write_generator_output(
    families: dict[str, FamilyModel],
    todo: list[str],
    inputs: Path,
    out: Path,
    generator: WarmGenerator,
    cache: Cache | None,
    stamp: str,
) -> None:
    """Write the generator's models and TypedDicts of each family in `todo` under `out/<family>/`."""
    placeholders: dict[str, Placeholders] = {}
    runs: list[list[str]] = []
    fresh: dict[tuple[str, str], str] = {}  # (family, kind) -> key of its entry
    for name in todo:
        family = families[name]
        hiding = None if any(holds_placeholder_text(f.contents) for f in family.files) else Placeholders()
        for kind, run in zip(_KINDS, family_runs(family, inputs / name, out / name, hiding), strict=True):
            key = digest(stamp, *_identity([run]))
            hit = (
                cache.get(f"dcg-{kind}-{name}", key, (f"{kind}/",))
                if cache is not None and hiding is not None
                else None
            )
            if hit is not None:
                _write(out / name, hit)
            else:
                runs.append(run)
                fresh[name, kind] = key
        if hiding is not None:
            placeholders[name] = hiding
    if runs:
        generator.run_all(runs)
    for (name, kind), key in fresh.items():
        if cache is not None and name in placeholders:
            cache.put(f"dcg-{kind}-{name}", key, _read(out / name / kind, f"{kind}/"))
    again = [name for name, hidden in placeholders.items() if not _restore(out / name, hidden)]
    if again:
        for name in again:
            shutil.rmtree(inputs / name)
            shutil.rmtree(out / name)
            (out / name).mkdir()
        generator.run_all([args for name in again for args in family_runs(families[name], inputs / name, out / name)])
    for name in todo:
        _expand_indenting_tabs(out / name)


def _restore(folder: Path, placeholders: Placeholders) -> bool:
    """Write the descriptions back into every module under `folder`; False if one cannot be."""
    restored: dict[Path, str] = {}
    for path in sorted(folder.rglob("*.py")):
        text = placeholders.restore_python(path.read_text(encoding="utf-8"))
        if text is None:
            return False
        restored[path] = text
    for path, text in restored.items():
        path.write_text(text, encoding="utf-8")
    return True


# White space that starts a line and holds a tab: in generated code, only a docstring's line can.
_INDENTING_TABS = re.compile(r"(?m)^[ \t]*\t[ \t]*")


def _expand_indenting_tabs(folder: Path) -> None:
    """Expand the tabs that indent a docstring's lines (a description's), as `inspect.cleandoc` reads
    them: ruff refuses indentation that mixes tabs and spaces, and formats only a class's docstring."""
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if (expanded := _INDENTING_TABS.sub(lambda m: m[0].expandtabs(), text)) != text:
            path.write_text(expanded, encoding="utf-8")
