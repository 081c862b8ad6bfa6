"""The `chatschema schemas` and `chatschema samples` commands, and the installed version."""

from __future__ import annotations

import argparse
import json
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version
from typing import BinaryIO, TextIO

from chatschema import schemas
from chatschema.samples import samples

USAGE_ERROR = 2


def version() -> str:
    """The installed distribution's version (pyproject.toml's), or "unknown" when run from a source tree."""
    try:
        return _dist_version("chatschema")
    except PackageNotFoundError:
        return "unknown (not installed)"


def _unknown_families(command: str, families: list[str], err: TextIO) -> bool:
    unknown = [f for f in families if f not in schemas.families()]
    if unknown:
        err.write(
            f"chatschema {command}: unknown family {', '.join(unknown)}; known: {', '.join(schemas.families())}\n"
        )
    return bool(unknown)


def list_schemas(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """`chatschema schemas [--family F] [--format json]`: the schema names, one per line or as JSON."""
    if _unknown_families("schemas", args.family, err):
        return USAGE_ERROR
    unions = schemas.unions()
    names = [n for n in schemas.names() if not args.family or n.split("/")[0] in args.family]
    if args.format == "json":
        records = [
            {
                "name": name,
                "family": name.split("/")[0],
                "type": name.split("/")[1],
                "$id": schemas.schema_id(name),
                "tagged_union": name in unions,
            }
            for name in names
        ]
        out.write(json.dumps(records, indent=2) + "\n")
    else:
        out.write("".join(f"{name}\n" for name in names))
    return 0


def list_samples(args: argparse.Namespace, stdin: BinaryIO, out: TextIO, err: TextIO) -> int:
    """`chatschema samples [--family F] [--validate]`: the shipped sample files, or validate each
    against its schema (the output and exit status of `chatschema validate`)."""
    if _unknown_families("samples", args.family, err):
        return USAGE_ERROR
    found = samples(tuple(args.family))
    if not args.validate:
        width = max((len(schema) for schema, _ in found), default=0)
        out.write("".join(f"{schema:<{width}}  {path}\n" for schema, path in found))
        return 0
    from chatschema.cli import _parser, validate  # the validate command itself, not a copy of it

    status = 0
    for schema, path in found:
        # One validate run per file: each file has its own schema and its own summary line.
        run_args = _parser().parse_args(["validate", "--schema", schema, str(path)])
        status = max(status, validate(run_args, stdin, out, err))
        out.flush()
    return status
