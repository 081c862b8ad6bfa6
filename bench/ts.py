"""The npm package benchmark (`nox -s bench_ts`): the package of a baseline commit beside today's, in one run.

    python bench/ts.py [--baseline 4497fca] [--seconds 2] [--repeats 3] [--loads 7]

The baseline package is the npm package as committed at REV (generated/ is reproducible
from that commit's schemas and codegen, so it is taken from git as it is). Each package is
installed in a scratch project (tests/ts_project.py) and measured the same way:

- load: `require("chatschema")`, `import("chatschema")` and `require("chatschema/letta")` (when
  the package has it), each in a fresh Node process (median of `--loads`), and the first
  `isValid("letta/LettaMessage", ...)` after it (what compiles at run time);
- messages/s of `isValid` over the test vectors of letta/LettaMessage and docent/ChatMessage (valid
  and invalid) repeated for `--seconds` (median of `--repeats`, the packages taking turns): in Node
  per second of the process's CPU time (fairer on a shared machine), and in headless Chromium
  (bundled by esbuild, served with `script-src 'self'`; a package that needs eval is measured with
  'unsafe-eval' added, and said so) per second of wall time;
- bundle size: each family's entry point (the root entry when the package has none), the whole
  root entry and `isValid` alone from it, bundled for the browser by esbuild, minified, then
  gzip -9; a package that esbuild cannot bundle as it is, is bundled with loaders that drop its
  .md and .d.ts files, and said so.

Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT))

from codegen.typescript import node_executable  # noqa: E402 (after the path set-up)
from tests.csp_server import CSP, serve  # noqa: E402
from tests.ts_project import esbuild, make_project, run  # noqa: E402
from tests.vectors import all_vectors  # noqa: E402

HERE = Path(__file__).parent / "ts"
RUNNER = ROOT / "tests" / "browser" / "run.cjs"
CHROMIUM = "/usr/bin/chromium"
UNIONS = ["letta/LettaMessage", "docent/ChatMessage"]
FAMILIES = ["bridgic", "docent", "letta", "swarm"]
# What an old package needs to be bundled at all: its dynamic require() pulls in every file.
WORKAROUNDS = ["--loader:.md=empty", "--loader:.ts=empty"]


def baseline_package(rev: str, into: Path) -> Path:
    """The npm package as committed at `rev` (npm/, or generated/typescript before it moved), extracted under `into`."""
    for folder in ("npm", "generated/typescript"):
        listed = subprocess.run(
            ["git", "ls-tree", "--name-only", rev, folder], cwd=ROOT, capture_output=True, text=True
        )
        if listed.stdout.strip():
            break
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, folder], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / folder


def corpus() -> dict[str, list[Any]]:
    """Each union's test vectors, valid and invalid, as payloads."""
    return {u: [v.load() for v in all_vectors() if v.schema_name == u] for u in UNIONS}


def node_json(project: Path, *args: str) -> Any:
    """Run Node in the project; its stdout as JSON (the bench stops with Node's stderr if it fails)."""
    proc = run([node_executable(), *args], cwd=project)
    if proc.returncode != 0:
        raise SystemExit(f"bench: node {' '.join(args)} failed in {project}:\n{proc.stderr}")
    return json.loads(proc.stdout)


def load_times(project: Path, kind: str, specifier: str, loads: int) -> tuple[float, float]:
    """Median (load ms, first isValid ms) over `loads` fresh processes."""
    got = [node_json(project, "node.cjs", "load", kind, specifier, "corpus.json") for _ in range(loads)]
    return statistics.median(g["load_ms"] for g in got), statistics.median(g["first_ms"] for g in got)


def bundle(project: Path, entry_source: str, out: Path) -> tuple[int, int, bool]:
    """(minified bytes, gzip -9 bytes, needed the workarounds) of one entry bundled for the browser."""
    (project / "entry.js").write_text(entry_source, encoding="utf-8")
    proc = esbuild(project, "entry.js", out)
    workarounds = proc.returncode != 0
    if workarounds:
        proc = esbuild(project, "entry.js", out, *WORKAROUNDS)
        if proc.returncode != 0:
            raise SystemExit(f"bench: esbuild cannot bundle {entry_source!r}:\n{proc.stderr}")
    data = out.read_bytes()
    return len(data), len(gzip.compress(data, 9)), workarounds


def has_entry(package: Path, family: str) -> bool:
    """Whether the package has an entry point `chatschema/<family>` (an `exports` map entry)."""
    exports = json.loads((package / "package.json").read_text(encoding="utf-8")).get("exports", {})
    return isinstance(exports, dict) and f"./{family}" in exports


def entries(package: Path) -> dict[str, str]:
    """Apps to bundle: all of each family's entry point (the root entry for a package without them),
    all of the root entry, and `isValid` alone from the root entry (what tree shaking leaves)."""
    out = {}
    for family in FAMILIES:
        spec = f"chatschema/{family}" if has_entry(package, family) else "chatschema"
        out[family] = f'import * as m from "{spec}";\nglobalThis.m = m;\n'
    out["root entry, all"] = 'import * as m from "chatschema";\nglobalThis.m = m;\n'
    out["root entry, isValid only"] = 'import { isValid } from "chatschema";\nglobalThis.m = isValid;\n'
    return out


def browser_rates(project: Path) -> tuple[dict[str, float], str]:
    """isValid's rates in headless Chromium, and the policy they were measured under."""
    site = project / "site"
    for policy in (CSP, f"{CSP} 'unsafe-eval'"):
        with serve(site, policy) as base:
            request = {"executable": CHROMIUM, "pages": [{"url": base, "global": "__bench"}], "timeout_ms": 600000}
            proc = run([node_executable(), "run.cjs"], cwd=project, stdin=json.dumps(request))
        if proc.returncode != 0:
            raise SystemExit(f"bench: the browser run failed:\n{proc.stderr}")
        page = json.loads(proc.stdout)[0]
        if "error" not in page["result"] and not page["csp_violations"]:
            return page["result"], policy
    raise SystemExit(f"bench: the package fails in the browser: {page}")


def prepare(package: Path, work: Path, seconds: float) -> Path:
    """A scratch project with `package` installed, the corpus, the bench scripts and the page's site in it."""
    project = make_project(work / "project", package=package, sources=HERE)
    (project / "corpus.json").write_text(json.dumps(corpus()), encoding="utf-8")
    (project / "run.cjs").write_bytes(RUNNER.read_bytes())
    site = project / "site"
    site.mkdir()
    if esbuild(project, "page.js", site / "page.js").returncode != 0:
        esbuild(project, "page.js", site / "page.js", *WORKAROUNDS)
    (site / "index.html").write_bytes((HERE / "index.html").read_bytes())
    (site / "csp.js").write_bytes((ROOT / "tests" / "browser" / "csp.js").read_bytes())
    (site / "corpus.json").write_text(json.dumps({"corpus": corpus(), "seconds": seconds}), encoding="utf-8")
    return project


def measure(projects: dict[str, Path], args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Every figure of every package; the rates round-robin over the packages, `--repeats` times (median)."""
    out: dict[str, dict[str, Any]] = {name: {} for name in projects}
    for name, project in projects.items():
        package = project / "node_modules" / "chatschema"
        for kind in ("cjs", "esm"):
            out[name][f"load_{kind}"], out[name][f"first_{kind}"] = load_times(project, kind, "chatschema", args.loads)
        if has_entry(package, "letta"):
            out[name]["load_letta"], out[name]["first_letta"] = load_times(
                project, "cjs", "chatschema/letta", args.loads
            )
        apps = entries(package)
        out[name]["bundles"] = {
            label: bundle(project, source, project / f"bundle-{i}.js") for i, (label, source) in enumerate(apps.items())
        }
    rates: dict[str, dict[str, list[dict[str, float]]]] = {name: {"node": [], "browser": []} for name in projects}
    for _ in range(args.repeats):
        for name, project in projects.items():
            rates[name]["node"].append(node_json(project, "node.cjs", "rate", "corpus.json", str(args.seconds)))
            if Path(CHROMIUM).is_file():
                got, out[name]["policy"] = browser_rates(project)
                rates[name]["browser"].append(got)
    for name in projects:
        for place, runs in rates[name].items():
            if runs:
                out[name][place] = {u: statistics.median(r[u] for r in runs) for u in UNIONS}
    return out


def report(columns: dict[str, dict[str, Any]]) -> None:
    """Print the figures as one Markdown table, a column per package, then the rate ratios."""
    names = list(columns)
    rows: list[tuple[str, list[str]]] = []
    for kind, label in (
        ("cjs", "require('chatschema')"),
        ("esm", "import('chatschema')"),
        ("letta", "require('chatschema/letta')"),
    ):
        for what in ("load", "first"):
            cells = [f"{columns[n][f'{what}_{kind}']:.1f}" if f"{what}_{kind}" in columns[n] else "-" for n in names]
            rows.append((f"{what}, {label} (ms)" if what == "load" else f"first isValid after {label} (ms)", cells))
    for union in UNIONS:
        rows.append((f"isValid msg/s (CPU time), Node, {union}", [f"{columns[n]['node'][union]:,.0f}" for n in names]))
    for union in UNIONS:
        cells = [f"{columns[n]['browser'][union]:,.0f}" if "browser" in columns[n] else "-" for n in names]
        rows.append((f"isValid msg/s (wall time), Chromium, {union}", cells))
    rows.append(("browser policy", [columns[n].get("policy", "no Chromium") for n in names]))
    for family in columns[names[-1]]["bundles"]:
        cells = []
        for n in names:
            got = columns[n]["bundles"].get(family)
            mark = " *" if got is not None and got[2] else ""
            cells.append("-" if got is None else f"{got[0] / 1000:.1f} kB / {got[1] / 1000:.1f} kB gz{mark}")
        what = family if family.startswith("root") else f"{family} entry point (root entry if none)"
        rows.append((f"bundle, {what}: minified / gzip", cells))
    print("| | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for label, cells in rows:
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("\n* bundled with " + " ".join(WORKAROUNDS) + " (esbuild fails on that package as it is)")
    first, last = columns[names[0]], columns[names[-1]]
    for place in ("node", "browser"):
        for union in UNIONS:
            if place in first and place in last:
                print(f"isValid in {place}, {union}: {last[place][union] / first[place][union]:.2f}x the baseline")


def main() -> None:
    """Measure the baseline's package and today's, then print them side by side."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="4497fca", help="the commit whose package is the baseline")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of isValid per union and place")
    parser.add_argument("--repeats", type=int, default=3, help="rate measurements per package, round-robin (median)")
    parser.add_argument("--loads", type=int, default=7, help="fresh Node processes per load time (median)")
    args = parser.parse_args()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        packages = {
            f"baseline {args.baseline}": baseline_package(args.baseline, work / "baseline-src"),
            f"now {head.strip()}": ROOT / "npm",
        }
        projects = {
            name: prepare(package, work / str(i), args.seconds) for i, (name, package) in enumerate(packages.items())
        }
        columns = measure(projects, args)
    report(columns)


if __name__ == "__main__":
    main()
