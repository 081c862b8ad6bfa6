"""The validation benchmark (`nox -s bench`): messages/s of every way to validate, in one run.

    python bench/run.py [--count 20000] [--e2e-count 1000000] [--repeats 3] [--seed 20240601]

For the Docent union (docent/ChatMessage) and the Letta union (letta/LettaMessage), on a seeded
corpus (bench/corpus.py), in this process, each contender in turn within each repeat (median of
the repeats; gc collected before each timing):

- `jsonschema.validate` per message (the schema re-checked each call; on a small sample);
- a `Draft202012Validator` built once over the union (plain `oneOf`);
- the tag-dispatching jsonschema validator (`schemas.validator(name)`);
- the fast backend (jsonschema-rs, formats checked as the reference does);
- the generated Pydantic union, `TypeAdapter(...).validate_json` on the raw line;
- orjson parsing alone (the ceiling).

Then the command end to end, `chatschema validate --backend fast`, on a tenth of `--e2e-count` and
on `--e2e-count` Docent messages (100,000 and 1,000,000 by default) with about 1% bad lines, and on
`--e2e-count` all valid, each with --jobs 1 and --jobs 2: wall time and peak memory (resident set
of the command and its worker processes, summed, sampled every 10 ms). Numbers are printed, never
asserted.

Then the same file on Dask (chatschema.dask, the `dask` extra), when installed: on a LocalCluster
of 2 worker processes started once, `validate` + every problem brought back in input order, for
several block sizes, as a ratio of `--jobs 2`; and `chatschema validate --dask local --jobs 2`
end to end (cluster start-up included).

Last, explanations: `--backend fast --jobs 1` on `--explain-count` Docent messages all valid, 1%
bad, and all invalid (every role replaced by "bot"), each also with `--count-only`; rates as
ratios to the all-valid run and to orjson's parse-only rate.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import jsonschema
import orjson
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter, ValidationError

sys.path.insert(0, str(Path(__file__).parent))

from checkout import commit
from corpus import generate

from chatschema import schemas
from chatschema.validate.backends import fast_is_valid

UNIONS = ["docent/ChatMessage", "letta/LettaMessage"]


def timed(fn: Callable[[], int]) -> tuple[float, int]:
    gc.collect()
    start = time.perf_counter()
    rejected = fn()
    return time.perf_counter() - start, rejected


Contenders = dict[str, tuple[Callable[[], int], int]]


def _line_contenders(union: str, lines: list[bytes]) -> Contenders:
    """What reads raw lines: Pydantic's validate_json and the parser alone."""
    family, type_name = union.split("/")
    adapter: TypeAdapter[Any] = TypeAdapter(getattr(importlib.import_module(f"chatschema.{family}"), type_name))

    def pydantic() -> int:
        bad = 0
        validate_json = adapter.validate_json
        for line in lines:
            try:
                validate_json(line)
            except ValidationError:
                bad += 1
        return bad

    def parse_only() -> int:
        bad = 0
        loads = orjson.loads
        for line in lines:
            try:
                loads(line)
            except orjson.JSONDecodeError:
                bad += 1
        return bad

    def parse_only_no_gc() -> int:
        gc.disable()  # as the command's hot loop does
        try:
            return parse_only()
        finally:
            gc.enable()

    return {
        "Pydantic union validate_json (raw line)": (pydantic, len(lines)),
        "orjson parse only (raw line)": (parse_only, len(lines)),
        "orjson parse only, cycle collector off": (parse_only_no_gc, len(lines)),
    }


def _validator_contenders(union: str, parsed: list[Any]) -> Contenders:
    """What validates parsed messages: plain jsonschema, the registry's validators, the fast backend."""
    schema, registry, checker = schemas.schema(union), schemas.registry(), schemas.FORMAT_CHECKER
    naive_sample = parsed[:200]
    slow_sample = parsed[: min(len(parsed), 3000)]

    def naive() -> int:
        bad = 0
        for m in naive_sample:
            try:
                jsonschema.validate(m, schema, cls=Draft202012Validator, registry=registry, format_checker=checker)
            except jsonschema.ValidationError:
                bad += 1
        return bad

    def over(is_valid: Callable[[Any], bool], sample: Sequence[Any]) -> Callable[[], int]:
        return lambda: sum(1 for m in sample if not is_valid(m))

    plain, dispatch, fast = schemas.validator(union, dispatch=False), schemas.validator(union), fast_is_valid(union)
    return {
        "jsonschema.validate per message": (naive, len(naive_sample)),
        "Draft202012Validator, oneOf": (over(plain.is_valid, slow_sample), len(slow_sample)),
        "tag-dispatching jsonschema": (over(dispatch.is_valid, slow_sample), len(slow_sample)),
        "tag-dispatching jsonschema, whole corpus": (over(dispatch.is_valid, parsed), len(parsed)),
        "fast backend (jsonschema-rs)": (over(fast, parsed), len(parsed)),
    }


def _print_rates(union: str, contenders: Contenders, times: dict[str, list[float]]) -> dict[str, float]:
    rates = {}
    print(f"{'contender':45} {'messages':>9} {'median msg/s':>13}   runs (msg/s)")
    for name, (_, n) in contenders.items():
        rate = n / statistics.median(times[name])
        rates[name] = rate
        runs = " / ".join(f"{n / t:,.0f}" for t in times[name])
        print(f"{name:45} {n:>9,} {rate:>13,.0f}   {runs}")
    base = rates["Draft202012Validator, oneOf"]
    print(
        f"dispatch / oneOf: {rates['tag-dispatching jsonschema'] / base:.2f}x; "
        f"fast / oneOf: {rates['fast backend (jsonschema-rs)'] / base:,.0f}x; "
        f"orjson / oneOf: {rates['orjson parse only (raw line)'] / base:,.0f}x"
    )
    return rates


def measure(union: str, count: int, repeats: int, seed: int) -> dict[str, float]:
    """Messages/s of every contender on one union's corpus, round-robin over `repeats` runs."""
    lines = [line for line, _ in generate(union, count, seed)]
    parsed: list[Any] = []
    for line in lines:
        try:
            parsed.append(orjson.loads(line))
        except orjson.JSONDecodeError:
            pass
    gc.freeze()
    contenders = _validator_contenders(union, parsed)
    contenders.update(_line_contenders(union, lines))
    times: dict[str, list[float]] = {name: [] for name in contenders}
    rejected: dict[str, int] = {}
    for _ in range(repeats):
        for name, (fn, _n) in contenders.items():
            elapsed, bad = timed(fn)
            times[name].append(elapsed)
            rejected[name] = bad
    gc.unfreeze()
    # the validators must agree on the sample (Pydantic and the parser count malformed lines too)
    slow_sample = parsed[: min(len(parsed), 3000)]
    fast = fast_is_valid(union)
    fast_on_sample = sum(1 for m in slow_sample if not fast(m))
    print(
        f"\n## {union}: {len(lines):,} lines, {len(parsed):,} well-formed; rejected on the {len(slow_sample):,}-message "
        f"sample: oneOf {rejected['Draft202012Validator, oneOf']}, dispatch {rejected['tag-dispatching jsonschema']}, "
        f"fast {fast_on_sample}"
    )
    return _print_rates(union, contenders, times)


def _tree(pid: int) -> list[int]:
    found = [pid]
    for p in found:
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    found.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return found


def _rss(pids: list[int]) -> int:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            continue
    return total


def end_to_end(path: Path, count: int, jobs: int, *extra: str) -> tuple[float, float, str]:
    """(seconds, peak MB over the process tree, summary line) of one `chatschema validate` run."""
    cmd = [sys.executable, "-m", "chatschema", "validate", "--schema", "docent/ChatMessage", "--backend", "fast"]
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*cmd, "--jobs", str(jobs), *extra, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _rss(_tree(proc.pid)))
        time.sleep(0.01)
    elapsed = time.perf_counter() - start
    assert proc.stderr is not None
    summary = proc.stderr.read().decode().strip()
    return elapsed, peak / 1e6, summary


def dask_runs(path: Path, count: int, jobs2_rate: float, block_sizes: list[str], repeats: int) -> None:
    """chatschema.dask on a 2-worker LocalCluster, against the command's `--jobs 2` rate measured above."""
    try:
        from dask.utils import format_bytes, parse_bytes

        from chatschema.dask import cluster, validate
    except ImportError:
        print("\n## Dask: not installed (pip install '.[dask]'), skipped")
        return
    print(
        f"\n## chatschema.dask, backend fast, LocalCluster of 2 worker processes (1 thread each), {count:,} messages; "
        f"cluster already running; median of {repeats}; `--jobs 2` did {jobs2_rate:,.0f} msg/s"
    )
    print(
        f"{'block size':>10} {'blocks':>6} {'seconds':>8} {'msg/s':>10} {'per worker':>10} {'x --jobs 2':>10}   runs (s)"
    )
    started = time.perf_counter()
    with cluster("local", workers=2, dashboard_address=":0") as client:
        print(f"(cluster start-up: {time.perf_counter() - started:.2f} s)")
        for size in block_sizes:
            times = []
            blocks = 0
            for _ in range(repeats):
                start = time.perf_counter()
                report = validate(
                    str(path), "docent/ChatMessage", client=client, backend="fast", block_size=parse_bytes(size)
                )
                problems = sum(len(r.problems) for r in report.results())
                times.append(time.perf_counter() - start)
                blocks = len(report.blocks)
                assert report.total.read == count and problems == report.total.invalid + report.total.malformed
                report.release()
            elapsed = statistics.median(times)
            rate = count / elapsed
            runs = " / ".join(f"{t:.2f}" for t in times)
            print(
                f"{format_bytes(parse_bytes(size)):>10} {blocks:>6} {elapsed:>8.2f} {rate:>10,.0f} {rate / 2:>10,.0f} "
                f"{rate / jobs2_rate:>10.2f}   {runs}"
            )
        for size in block_sizes:
            print(task_profile(client, path, parse_bytes(size)))
    cmd = [sys.executable, "-m", "chatschema", "validate", "--schema", "docent/ChatMessage", "--backend", "fast"]
    start = time.perf_counter()
    proc = subprocess.run(
        [*cmd, "--dask", "local", "--jobs", "2", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    elapsed = time.perf_counter() - start
    summary = proc.stderr.decode().strip().splitlines()[-1].removeprefix("chatschema validate: ")
    print(
        f"chatschema validate --dask local --jobs 2, end to end (cluster start-up included): {elapsed:.2f} s, "
        f"{count / elapsed:,.0f} msg/s, {count / elapsed / jobs2_rate:.2f} x --jobs 2; {summary}"
    )


def task_profile(client: Any, path: Path, block_size: int) -> str:
    """Where one more run's time goes, from Dask's task stream: each worker's busy time by action
    (compute, transfer, deserialize...), the lead before the first task starts (the graph built
    and sent, the blocks placed), the tail after the last ends (counts gathered, problems brought
    back), and what is left: the workers idle between tasks (scheduling)."""
    from distributed import get_task_stream

    from chatschema.dask import validate

    with get_task_stream(client) as stream:
        start = time.time()
        report = validate(str(path), "docent/ChatMessage", client=client, backend="fast", block_size=block_size)
        sum(len(r.problems) for r in report.results())
        end = time.time()
        report.release()
    busy: dict[str, float] = {}
    for record in stream.data:
        for span in record["startstops"]:
            busy[span["action"]] = busy.get(span["action"], 0.0) + span["stop"] - span["start"]
    spans = [span for record in stream.data for span in record["startstops"]]
    lead = min(span["start"] for span in spans) - start
    tail = end - max(span["stop"] for span in spans)
    workers = len(client.scheduler_info()["workers"])
    capacity = workers * (end - start)
    idle = capacity - sum(busy.values()) - workers * (lead + tail)
    tasks = len(stream.data)
    actions = ", ".join(f"{action} {seconds:.2f} s" for action, seconds in sorted(busy.items(), key=lambda a: -a[1]))
    return (
        f"per-task profile, {block_size >> 20} MiB blocks: {tasks} tasks in {end - start:.2f} s on {workers} workers "
        f"({capacity:.2f} worker-s): {actions} (compute {busy.get('compute', 0.0) / tasks * 1e3:.1f} ms a task); "
        f"lead {lead:.2f} s and tail {tail:.2f} s with the workers waiting; idle between tasks {idle:.2f} worker-s"
    )


def _small_corpora(tmp: Path, count: int, seed: int) -> dict[str, Path]:
    """Short user messages (~60 bytes), all valid and all with an unknown role: explaining costs the
    most against checking there, per byte."""
    rng = random.Random(seed)
    paths = {"small, all valid": tmp / "small-valid.jsonl", "small, all invalid (role)": tmp / "small-bot.jsonl"}
    with open(paths["small, all valid"], "wb") as valid, open(paths["small, all invalid (role)"], "wb") as bot:
        for i in range(count):
            message = {"role": "user", "content": f"message {i} about {rng.choice(['weather', 'code', 'cats'])}"}
            valid.write(orjson.dumps(message) + b"\n")
            bot.write(orjson.dumps({**message, "role": "bot"}) + b"\n")
    return paths


def explanations(tmp: Path, count: int, seed: int, ceiling: float) -> None:
    """All-valid, 1%-bad and all-invalid corpora, explained and counted only (`--count-only`); then
    short messages, all valid and all invalid. `x valid`: against the all-valid run of its group."""
    corpora = {"all valid": tmp / "valid.jsonl", "1% bad": tmp / "bad1.jsonl", "all invalid (role)": tmp / "bot.jsonl"}
    with open(corpora["all valid"], "wb") as valid, open(corpora["all invalid (role)"], "wb") as bot:
        for line, _ in generate("docent/ChatMessage", count, seed, bad_rate=0.0):
            valid.write(line + b"\n")
            bot.write(orjson.dumps({**orjson.loads(line), "role": "bot"}) + b"\n")
    with open(corpora["1% bad"], "wb") as bad:
        for line, _ in generate("docent/ChatMessage", count, seed):
            bad.write(line + b"\n")
    print(f"\n## explanations: --backend fast --jobs 1, {count:,} Docent messages per corpus")
    print(f"{'corpus':>26} {'mode':>12} {'seconds':>8} {'msg/s':>10} {'x valid':>8} {'x orjson':>9}   summary")
    for group in (corpora, _small_corpora(tmp, count, seed)):
        base = 0.0
        for label, path in group.items():
            for mode in ("explained", "count-only"):
                elapsed, _, summary = end_to_end(path, count, 1, *(["--count-only"] if mode == "count-only" else []))
                rate = count / elapsed
                base = base or rate
                print(
                    f"{label:>26} {mode:>12} {elapsed:>8.2f} {rate:>10,.0f} {rate / base:>8.2f} {rate / ceiling:>9.2f}   "
                    f"{summary.removeprefix('chatschema validate: ')}"
                )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=20_000, help="in-memory corpus size per union")
    parser.add_argument("--e2e-count", type=int, default=1_000_000, help="messages for the end-to-end run")
    parser.add_argument("--explain-count", type=int, default=200_000, help="messages per explanation corpus")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--dask-block-sizes", default="8MiB,16MiB,32MiB,128MiB", help="Dask block sizes to compare")
    args = parser.parse_args()
    print(
        f"# chatschema validation benchmark at {commit()} (seed {args.seed}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.2f})"
    )
    rates = {union: measure(union, args.count, args.repeats, args.seed) for union in UNIONS}
    with tempfile.TemporaryDirectory(prefix="chatschema-bench-") as tmp:
        sizes = sorted({max(args.e2e_count // 10, 1), args.e2e_count})  # peak memory is compared across them
        files: dict[tuple[str, int], Path] = {}  # (corpus, messages) -> file
        for corpus, n, bad_rate in [*(("1% bad", n, 0.01) for n in sizes), ("all valid", sizes[-1], 0.0)]:
            path = Path(tmp) / f"docent-{corpus.replace(' ', '-').replace('%', '')}-{n}.jsonl"
            with open(path, "wb") as f:
                for line, _ in generate("docent/ChatMessage", n, args.seed, bad_rate=bad_rate):
                    f.write(line + b"\n")
            files[corpus, n] = path
        os.sync()  # no write-back of the fresh files during the timed runs
        for path in files.values():  # and a warm page cache, as for any file read twice
            with open(path, "rb") as f:
                while f.read(1 << 23):
                    pass
        ceiling = rates["docent/ChatMessage"]["orjson parse only (raw line)"]
        strict = rates["docent/ChatMessage"]["orjson parse only, cycle collector off"]
        print(
            f"\n## chatschema validate --schema docent/ChatMessage --backend fast, end to end "
            f"(orjson parse-only ceiling: {ceiling:,.0f} msg/s; {strict:,.0f} with the cycle collector off)"
        )
        print(
            f"{'corpus':>9} {'messages':>10} {'jobs':>4} {'seconds':>8} {'msg/s':>10} {'x orjson':>9} {'x no-gc':>8} "
            f"{'peak MB':>8}   summary"
        )
        jobs2_rate = 0.0
        largest = sizes[-1]
        for (corpus, n), path in files.items():
            for jobs in (1, 2):
                elapsed, peak, summary = end_to_end(path, n, jobs)
                rate = n / elapsed
                if (corpus, n, jobs) == ("1% bad", largest, 2):
                    jobs2_rate = rate
                print(
                    f"{corpus:>9} {n:>10,} {jobs:>4} {elapsed:>8.2f} {rate:>10,.0f} {rate / ceiling:>9.0%} "
                    f"{rate / strict:>8.0%} {peak:>8.1f}   {summary.removeprefix('chatschema validate: ')}"
                )
        dask_runs(files["1% bad", largest], largest, jobs2_rate, args.dask_block_sizes.split(","), args.repeats)
        explanations(Path(tmp), args.explain_count, args.seed, ceiling)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
