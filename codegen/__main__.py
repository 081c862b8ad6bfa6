"""`python -m codegen`: regenerate generated/ from schemas/, check it is current, lint the schemas, or diff them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .cache import CACHE_DIR, Cache
from .diff.cli import add_diff_parser, run_diff
from .errors import CodegenError
from .generate import build, diff, read_tree, verify, write_tree
from .load import load_schemas
from .typescript import node_modules, setup_node


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="repository root (default: .)")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="regenerate generated/ from schemas/")
    gen.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff if generated/ is stale")
    gen.add_argument(
        "--no-cache", action="store_true", help=f"rebuild every family (ignore and do not update {CACHE_DIR}/)"
    )
    sub.add_parser("lint", help="check the schemas against the project's conventions")
    add_diff_parser(sub)
    node = sub.add_parser("setup-node", help="install the pinned Node tooling (npm ci in codegen/node)")
    node.add_argument("--force", action="store_true", help="reinstall even if node_modules is present")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    root: Path = args.root.resolve()
    if args.command == "lint":
        return _lint(root)
    if args.command == "diff":
        return run_diff(args, root)
    if args.command == "setup-node":
        return _setup_node(args.force)
    return _generate(root, check=args.check, no_cache=args.no_cache)


def _lint(root: Path) -> int:
    from .lint import lint  # jsonschema and its meta-schemas: loaded only when lint runs

    files, problems = load_schemas(root)
    problems += lint(files)
    for problem in sorted(problems):
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def _setup_node(force: bool) -> int:
    try:
        setup_node(force=force)
    except RuntimeError as exc:
        print(f"codegen: {exc}", file=sys.stderr)
        return 1
    print(f"codegen: Node tooling installed in {node_modules()}")
    return 0


def _generate(root: Path, check: bool, no_cache: bool) -> int:
    try:
        tree = build(root, None if no_cache else Cache(root / CACHE_DIR))
    except CodegenError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"codegen: {len(exc.problems)} schema problem(s); generated/ left unchanged", file=sys.stderr)
        return 1
    except RuntimeError as exc:
        print(f"codegen: {exc}\ncodegen: generated/ left unchanged", file=sys.stderr)
        return 1
    target = root / "generated"
    current = read_tree(target)
    changes = diff(current, tree)
    if check:
        if changes:
            sys.stdout.writelines(changes)
            print("codegen: generated/ is stale; run `nox -s generate`", file=sys.stderr)
            return 1
        print("codegen: generated/ is up to date")
        return 0
    if changes:
        try:
            changed = {p for p in current.keys() | tree.keys() if current.get(p) != tree.get(p)}
            write_tree(target, tree, verify=lambda staging: verify(root, staging, changed))
        except RuntimeError as exc:
            print(f"codegen: {exc}\ncodegen: generated/ left unchanged", file=sys.stderr)
            return 1
        print(f"codegen: wrote generated/ ({len(tree)} files)")
    else:
        print("codegen: generated/ already up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
