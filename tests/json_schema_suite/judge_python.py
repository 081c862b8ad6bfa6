"""Run inside a scratch repository (its `chatschema` first on the path): verdicts of the Python sides.

`python judge_python.py sides` reads `[[schema name, payload], ...]` on stdin and prints, per side,
one verdict per payload. `python judge_python.py cli` reads `[[schema name, JSONL path, lines], ...]`
and prints one verdict per line of each file, from `chatschema validate` run once per file in this
one process (a process per group would take minutes). A verdict is true (valid), false (invalid) or
a string saying what went wrong instead.

Self-contained: the tests' own modules are not on this process's path.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import sys
from collections.abc import Callable
from typing import Any

Verdict = bool | str


def verdict(check: Callable[..., object], *args: Any) -> Verdict:
    """True if `check(*args)` returns a true value, False if false or if it raises a validation
    error (pydantic's), and "error: ..." for any other exception: a crash is never a verdict."""
    from pydantic import ValidationError

    try:
        return bool(check(*args))
    except ValidationError:
        return False
    except Exception as exc:  # reported as the side's answer, not raised: one crash must not hide the rest
        return f"error: {type(exc).__name__}: {str(exc)[:300]}"


def _adapters(module: str) -> Callable[[str, Any], object]:
    """A check `(type name, payload)` that validates with pydantic's TypeAdapter over the generated
    type of `module` (built once per type; a type that cannot be built raises for each payload)."""
    from pydantic import TypeAdapter

    found = importlib.import_module(module)
    built: dict[str, TypeAdapter[Any] | Exception] = {}

    def check(type_name: str, payload: Any) -> object:
        if type_name not in built:
            try:
                built[type_name] = TypeAdapter(getattr(found, type_name))
            except Exception as exc:  # raised again for each payload: every one of them gets the error
                built[type_name] = exc
        adapter = built[type_name]
        if isinstance(adapter, Exception):
            raise adapter
        adapter.validate_python(payload)
        return True

    return check


def sides(cases: list[tuple[str, Any]]) -> dict[str, list[Verdict]]:
    """Every Python side's verdict on every `(schema name, payload)`."""
    from chatschema import schemas
    from chatschema.validate import backends

    models, typeddicts = _adapters("chatschema.suite"), _adapters("chatschema.suite.typeddicts")
    out: dict[str, list[Verdict]] = {"jsonschema": [], "fast": [], "pydantic": [], "typeddict": []}
    fast = backends.fast_available()

    def reference(name: str, payload: Any) -> bool:
        return not schemas.violations(payload, name)

    def fast_backend(name: str, payload: Any) -> bool:
        return backends.fast_is_valid(name)(payload)

    for name, payload in cases:
        type_name = name.split("/", 1)[1]
        out["jsonschema"].append(verdict(reference, name, payload))
        out["fast"].append(verdict(fast_backend, name, payload) if fast else "unavailable")
        out["pydantic"].append(verdict(models, type_name, payload))
        out["typeddict"].append(verdict(typeddicts, type_name, payload))
    return out


def cli_run(name: str, path: str, lines: int) -> list[Verdict]:
    """`chatschema validate --schema NAME --format json PATH`: a verdict per line, from the records
    it prints (none for a valid line) and its exit status, which must agree with them."""
    from chatschema import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(["validate", "--schema", name, "--format", "json", "--quiet", path])
        except SystemExit as exc:  # argparse's usage errors
            status = exc.code if isinstance(exc.code, int) else 2
    if status not in (0, 1):
        return [f"exit status {status}: {err.getvalue().strip()[:300]}"] * lines
    records = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    if (status == 0) != (not records):
        return [f"exit status {status} with {len(records)} invalid line(s) reported"] * lines
    verdicts: list[Verdict] = [True] * lines
    for record in records:
        status_text = record["status"]
        verdicts[record["line"] - 1] = False if status_text == "invalid" else f"{status_text}: {record.get('reason')}"
    return verdicts


def main() -> None:
    """Read the cases on stdin, print the verdicts as JSON on stdout."""
    mode = sys.argv[1]
    cases = json.load(sys.stdin)
    if mode == "sides":
        result: Any = sides([(name, payload) for name, payload in cases])
    else:
        result = [cli_run(name, path, lines) for name, path, lines in cases]
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
