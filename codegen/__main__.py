"""`python -m codegen`: regenerate the generated files from schemas/, check they are current, or lint the schemas.

Generated files live in chatschema/ and npm/ (beside the hand-written runtime) and in generated/.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .cache import CACHE_DIR, Cache
from .warm import WarmGenerator, WarmVerifier

# The rest of codegen is imported in the functions that need it: `generate` starts its warm
# generator process (codegen/warm.py) first, and that process need not inherit it.


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="repository root (default: .)")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="regenerate every generated file from schemas/")
    gen.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 with a diff if a generated file is stale"
    )
    gen.add_argument(
        "--no-cache", action="store_true", help=f"rebuild every family (ignore and do not update {CACHE_DIR}/)"
    )
    sub.add_parser("lint", help="check the schemas against the project's conventions")
    node = sub.add_parser("setup-node", help="install the pinned Node tooling (npm ci in codegen/node)")
    node.add_argument("--force", action="store_true", help="reinstall even if node_modules is present")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    root: Path = args.root.resolve()
    if args.command != "setup-node" and not root.is_dir():
        # else every schema would be reported missing, as if the repository had none
        reason = "not a directory" if root.exists() else "no such directory"
        shown = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in str(args.root))  # one line, no escapes
        print(f"python -m codegen: --root {shown}: {reason}", file=sys.stderr)
        return 2
    if args.command == "lint":
        return _lint(root)
    if args.command == "setup-node":
        return _setup_node(args.force)
    generator = WarmGenerator()  # first, while the rest of codegen is imported (codegen/warm.py)
    cache = None if args.no_cache else Cache(root / CACHE_DIR)
    if args.check:
        return _check(root, cache, generator)
    verifier = WarmVerifier()  # a fork too: before any thread
    try:
        return _generate(root, cache, generator, verifier)
    finally:
        verifier.close()


def _lint(root: Path) -> int:
    from .lint import lint  # jsonschema and its meta-schemas: loaded only when lint runs
    from .load import load_schemas

    files, problems = load_schemas(root)
    try:
        # a file that did not load would make every $ref to it dangle: its own problem comes first, alone
        problems = problems or lint(files)
    except RuntimeError as exc:  # the Node tooling the pattern checks need: npm missing, `npm ci` failed
        print(f"codegen: {exc}", file=sys.stderr)
        return 1
    for problem in sorted(problems):
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def _setup_node(force: bool) -> int:
    from .typescript import node_modules, setup_node

    try:
        setup_node(force=force)
    except RuntimeError as exc:
        print(f"codegen: {exc}", file=sys.stderr)
        return 1
    print(f"codegen: Node tooling installed in {node_modules()}")
    return 0


def _build(root: Path, cache: Cache | None, generator: WarmGenerator) -> dict[str, bytes] | None:
    """The new generated files, or None after printing why there are none."""
    from .errors import CodegenError
    from .generate import build

    try:
        return build(root, cache, generator)
    except CodegenError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"codegen: {len(exc.problems)} schema problem(s); generated files left unchanged", file=sys.stderr)
    except RuntimeError as exc:
        print(f"codegen: {exc}\ncodegen: generated files left unchanged", file=sys.stderr)
    return None


def _check(root: Path, cache: Cache | None, generator: WarmGenerator) -> int:
    """`generate --check`: exit 1 with a diff if a generated file is stale."""
    from .generate import diff, read_tree

    tree = _build(root, cache, generator)
    if tree is None:
        return 1
    changes = diff(read_tree(root), tree)
    if changes:
        sys.stdout.writelines(changes)
        print("codegen: generated files are stale; run `nox -s generate`", file=sys.stderr)
        return 1
    print("codegen: generated files are up to date")
    return 0


def _generate(root: Path, cache: Cache | None, generator: WarmGenerator, verifier: WarmVerifier) -> int:
    """`generate`: prove the new files against the examples (in `verifier`), then write those that changed."""
    from .generate import example_stats, families_of, read_tree, validation_keys, verification_keys, verify, write_tree

    tree = _build(root, cache, generator)
    if tree is None:
        return 1
    current = read_tree(root)
    changed = {p for p in current.keys() | tree.keys() if current.get(p) != tree.get(p)}
    # Each family's examples are checked against the tree even when no file changes (an edited
    # example); a family whose files, examples and runtime passed together once is not checked again.
    stats = example_stats(root, families_of(tree))
    keys = verification_keys(root, tree, stats)
    todo = {f for f, key in keys.items() if cache is None or cache.get(f"verified-{f}", key) is None}
    if not changed and not todo:
        print("codegen: generated files already up to date")
        return 0
    # Of those, a family whose schemas and examples are, for validation, as they were when they passed
    # (a description edited), needs no run-time compile or example verdict again.
    validation = validation_keys(root, tree, todo, stats)
    validated = {
        f for f, key in validation.items() if cache is not None and cache.get(f"validated-{f}", key) is not None
    }
    try:
        write_tree(
            root,
            tree,
            verify=lambda staging: verify(root, staging, changed, todo, validated, verifier),
            current=current,
        )
    except RuntimeError as exc:
        print(f"codegen: {exc}\ncodegen: generated files left unchanged", file=sys.stderr)
        return 1
    if cache is not None:
        for family in sorted(todo):
            cache.put(f"verified-{family}", keys[family], {})
            cache.put(f"validated-{family}", validation[family], {})
    if changed:
        print(f"codegen: wrote {len(changed)} of {len(tree)} generated files")
    else:
        print("codegen: generated files already up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
