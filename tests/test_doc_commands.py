"""Every shell command and Python snippet in README.md and docs/ (every page, at any depth) runs as
written and prints what the docs show (tests/doc_commands.py says how blocks are marked), so the docs
cannot drift from the code. Shell commands run from the checkout root with the test environment's
`bin/` first on PATH (where `chatschema` is installed); Python blocks run in that environment's python.

Blocks marked `session <name>` run only when the environment variable CHATSCHEMA_DOC_SESSION names
that session (`nox -s docs_slow` sets it); otherwise they are reported as deferred to it, and the
blocks of the normal suite are the ones left out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.doc_commands import Block, MarkerError, difference, matches, shell_blocks

ROOT = Path(__file__).parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# Named by their path in the checkout: README.md and docs/README.md share a file name.
BLOCKS = [block for doc in DOCUMENTS for block in shell_blocks(doc, doc.relative_to(ROOT).as_posix())]
SESSION_VARIABLE = "CHATSCHEMA_DOC_SESSION"
# Printed between two python blocks of one interpreter, to cut the output into the blocks'.
_BETWEEN = "\x00doc-test: next block\x00"
_DRIVER = f"""
import json, sys
namespace = {{"__name__": "__main__"}}
for index, (path, code) in enumerate(json.loads(sys.argv[1])):
    if index:
        print({_BETWEEN!r}, flush=True)
    exec(compile(code, path, "exec"), namespace)
"""


def _environment() -> dict[str, str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr reach the pipe in the order they are written
    env.pop(SESSION_VARIABLE, None)  # a suite that a block starts (nox -s tests) defers again
    return env


def _run(argv: list[str]) -> tuple[int, str]:
    proc = subprocess.run(
        argv, cwd=ROOT, env=_environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False
    )
    return proc.returncode, proc.stdout


def run_block(block: Block) -> tuple[list[str], str]:
    """Run a block as the docs say; return the lines it printed (stdout and stderr, in order) and, when
    a command's exit status is not the docs', what went wrong ("" when every status is right)."""
    if block.lang == "python":
        chain = block.chain()
        code = json.dumps([[b.name or b.path.name, b.code] for b in chain])
        status, printed = _run([sys.executable, "-c", _DRIVER, code])
        printed = printed.split(_BETWEEN + "\n")[-1] if len(chain) > 1 else printed
        wrong = f"the script exited {status}, the docs say {block.exit_code}" if status != block.exit_code else ""
        return printed.splitlines(), wrong
    lines: list[str] = []
    for command in block.commands:
        status, printed = _run(["bash", "-o", "pipefail", "-c", command])
        lines += printed.splitlines()
        if status != block.exit_code:
            return lines, f"`{command}` exited {status}, the docs say {block.exit_code}"
    return lines, ""


def check_block(block: Block) -> None:
    """Run a block; fail, with what it printed, when an exit status or the output shown is not the docs'."""
    assert block.commands or block.code.strip(), f"{block.id}: an empty block"
    printed, wrong = run_block(block)
    assert not wrong, f"{block.id}: {wrong}\n" + "\n".join(printed)
    if block.output is not None:
        assert matches(block.output, printed), (
            f"{block.id}: the output shown is not what the block prints\n{difference(block.output, printed)}"
        )


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_block(block: Block) -> None:
    session = os.environ.get(SESSION_VARIABLE, "")
    if block.session != session:
        pytest.skip(
            f"{block.id}: deferred to nox -s {block.session}" if block.session else f"{block.id}: in the normal suite"
        )
    check_block(block)


def test_the_user_quick_start_runs() -> None:
    quick = [b for b in BLOCKS if b.path == ROOT / "README.md" and "chatschema samples --validate" in b.commands]
    assert quick and not quick[0].session and quick[0].output is not None


def test_every_page_is_collected() -> None:
    """Every Markdown page under docs/ is read for blocks, and the README and the guides have some."""
    pages = {p for p in (ROOT / "docs").rglob("*") if p.suffix.lower() in {".md", ".markdown"}}
    assert pages <= set(DOCUMENTS), f"pages the doc test does not read: {sorted(map(str, pages - set(DOCUMENTS)))}"
    read = {b.path for b in BLOCKS}
    assert ROOT / "README.md" in read and any(ROOT / "docs" in path.parents for path in read)
    assert len({b.id for b in BLOCKS}) == len(BLOCKS)
    assert {b.lang for b in BLOCKS} == {"shell", "python"}


def test_every_deferred_block_has_a_session_that_runs_it() -> None:
    """A block left out of the normal suite names a nox session that sets CHATSCHEMA_DOC_SESSION to run it."""
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    for session in {b.session for b in BLOCKS} - {""}:
        assert f"def {session}(" in noxfile and SESSION_VARIABLE in noxfile, f"no `nox -s {session}` runs its blocks"


GUIDE = """Intro.

<!-- doc-test: session docs_slow -->
```sh
pip install x  # comment
```

<!-- doc-test: exit 1 -->
```console
$ false
# a comment

$ exit 1
```
<!-- doc-test: output -->
```
shown
```

```python
x = 1
```

```ts
const y = 2;
```

<!-- doc-test: continues -->
<!-- doc-test: exit 1 -->
```python
print(x)
raise SystemExit(1)
```

```bash
true
```
"""


def test_markers(tmp_path: Path) -> None:
    doc = tmp_path / "guide.md"
    doc.write_text(GUIDE, encoding="utf-8")
    slow, fail, first, second, plain = shell_blocks(doc)
    assert (slow.session, slow.commands, slow.line, slow.id) == (
        "docs_slow",
        ["pip install x  # comment"],
        4,
        "guide.md:4",
    )
    assert shell_blocks(doc, "docs/guide.md")[0].id == "docs/guide.md:4"
    assert (fail.exit_code, fail.commands, fail.output) == (1, ["false", "exit 1"], ["shown"])
    assert (first.lang, first.continues, first.code.splitlines()[first.line]) == ("python", None, "x = 1")
    assert (second.continues, second.exit_code, second.chain()) == (first, 1, [first, second])
    assert (plain.session, plain.exit_code, plain.commands, plain.output) == ("", 0, ["true"], None)
    for text, error in [
        ("<!-- doc-test: sometimes -->\n```sh\ntrue\n```\n", "guide.md:1: unknown doc-test marker 'sometimes'"),
        ("<!-- doc-test: skip: slow -->\n```sh\ntrue\n```\n", "guide.md:1: no block is skipped"),
        ("<!-- doc-test: exit 2 -->\n```json\n{}\n```\n", "marker on a json block"),
        ("<!-- doc-test: continues -->\n```python\nx\n```\n", "`continues` needs a python block after another"),
        ("```sh\ntrue\n```\n<!-- doc-test: output -->\n```text\nx\n```\n", "an output block must be unlabelled"),
    ]:
        doc.write_text(text, encoding="utf-8")
        with pytest.raises(MarkerError, match=error):
            shell_blocks(doc)


def test_matches() -> None:
    printed = ["chatschema validate: 5 read, 4 valid in 0.01s (450 msg/s)", "done"]
    assert matches(["chatschema validate: 5 read, 4 valid in …s (… msg/s)", "done", ""], printed)
    assert not matches(["chatschema validate: 6 read, 5 valid in …s (… msg/s)", "done"], printed)
    assert not matches(["chatschema validate: 5 read, 4 valid in …s (… msg/s)"], printed)  # a line left out
    assert not matches(["done", "chatschema validate: 5 read, 4 valid in …s (… msg/s)"], printed)  # out of order
    assert matches(["…", "done"], printed) and matches(["Traceback:", "…", "Error: x"], ["Traceback:", "Error: x"])
    assert not matches(["a …"], ["a "]) and matches(["a …"], ["a b"])


def test_a_block_fails_on_a_wrong_status_or_output(tmp_path: Path) -> None:
    """The doc test itself: a wrong exit status, a wrong number or a missing stderr line fails the block."""
    doc = tmp_path / "guide.md"
    doc.write_text(
        "```sh\necho out; echo err >&2\n```\n<!-- doc-test: output -->\n```\nout\nerr\n```\n\n"
        "```sh\nexit 3\n```\n\n```python\nprint(5, 'read')\n```\n<!-- doc-test: output -->\n```\n6 read\n```\n\n"
        "<!-- doc-test: exit 1 -->\n```python\nimport sys\nprint('x', file=sys.stderr)\nsys.exit(1)\n```\n"
        "<!-- doc-test: output -->\n```\nx\n```\n\n"
        "```sh\necho out; echo err >&2\n```\n<!-- doc-test: output -->\n```\nout\n```\n",
        encoding="utf-8",
    )
    good, status, number, python, stderr = shell_blocks(doc)
    check_block(good)
    check_block(python)
    for bad, pattern in [
        (status, r"`exit 3` exited 3, the docs say 0"),
        (number, r"-6 read\n\s*\+5 read"),
        (stderr, r"\+err"),
    ]:
        with pytest.raises(AssertionError, match=pattern):
            check_block(bad)
    python.exit_code = 0
    with pytest.raises(AssertionError, match="the script exited 1, the docs say 0"):
        check_block(python)
