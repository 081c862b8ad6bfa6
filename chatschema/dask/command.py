"""`chatschema validate --dask ADDRESS|local`: the command's output and exit status, computed on a Dask cluster."""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from typing import TextIO

from chatschema.validate.report import Reporter, printable_name
from chatschema.validate.run import Options
from chatschema.validate.stop import exit_status

USAGE_ERROR = 2


def run_on_dask(args: argparse.Namespace, options: Options, reporter: Reporter, err: TextIO) -> int:
    """Validate `args.paths` on the cluster `args.dask` names; print as the command does; return its exit status."""
    try:
        from dask.utils import parse_bytes
        from distributed import KilledWorker

        from chatschema.dask.run import DEFAULT_BLOCK_SIZE, cluster, validate
    except ImportError:
        err.write(
            "chatschema validate: --dask needs the 'dask' extra (in a checkout: pip install '.[dask]'; from a wheel: pip install 'chatschema-<version>-py3-none-any.whl[dask]')\n"
        )
        return USAGE_ERROR
    try:
        block_size = parse_bytes(args.block_size) if args.block_size else DEFAULT_BLOCK_SIZE
    except ValueError:
        block_size = 0
    if block_size < 1:
        err.write(f"chatschema validate: --block-size: not a size in bytes: {args.block_size!r} (e.g. 64MiB)\n")
        return USAGE_ERROR
    show_progress, reporter.progress = reporter.progress, False  # Dask's progress bar, not the command's
    with ExitStack() as stack:
        try:
            client = stack.enter_context(cluster(args.dask, workers=args.jobs or 0))
        except (
            OSError,
            RuntimeError,
            ValueError,
            TypeError,
        ) as exc:  # a bad address, no scheduler, workers that fail to start
            err.write(f"chatschema validate: --dask {args.dask}: cannot reach or start the cluster: {exc}\n")
            return USAGE_ERROR
        try:
            if not args.quiet and client.dashboard_link:
                err.write(f"chatschema validate: Dask dashboard at {client.dashboard_link}\n")
            report = validate(
                args.paths,
                options.schema,
                client=client,
                block_size=block_size,
                backend=options.backend,
                families=options.families,
                each=args.each,
                max_bytes=args.max_bytes,
                max_depth=options.max_depth,
                unknown=options.unknown,
                progress_to=err if show_progress else None,
            )
            for error in report.errors:
                err.write(f"chatschema validate: {error}\n")
            for result in report.results():
                reporter.add(result)
            for source, counts in report.files.items():  # as the command says of a file with no message
                if counts.read == 0 and not args.each and not source.endswith(".json"):
                    err.write(f"chatschema validate: {printable_name(source)}: empty input, no message read\n")
        except (OSError, KilledWorker) as exc:  # the scheduler went away, or a block killed worker after worker
            err.write(f"chatschema validate: --dask {args.dask}: {exc}\n")
            return USAGE_ERROR
        except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM
            reporter.finish()
            return exit_status(stop)
    if args.quiet:
        reporter.out.flush()
    else:
        reporter.finish()
    if report.errors:
        return USAGE_ERROR
    return 0 if report.ok else 1
