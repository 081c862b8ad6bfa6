"""`python -m tests.json_schema_suite`: run the suite through every artefact and print what became of
each group and every disagreement, without pytest (the same work as the tests' fixture)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.json_schema_suite.harness import load_groups
from tests.json_schema_suite.judges import ARTEFACTS, run_suite
from tests.json_schema_suite.report import disagreements, refusal_lines, summary


def main() -> int:
    """Print the report; exit 1 if any artefact disagrees or any group failed generation."""
    with tempfile.TemporaryDirectory() as scratch:
        outcome = run_suite(load_groups(), Path(scratch))
    print(summary(outcome))
    sections = {
        "not relocatable": [f"{outcome.groups[n].label}: {why}" for n, why in outcome.skipped.items()],
        "refused by lint": refusal_lines(outcome),
        "crashed lint": [f"{outcome.groups[n].label}: {why}" for n, why in outcome.crashed.items()],
        "failed generation": [f"{outcome.groups[n].label}: {why}" for n, why in outcome.failed.items()],
        "judges that failed": [f"{a}: {why}" for a, why in outcome.broken.items()],
        **{f"disagreements of {a}": [str(d) for d in disagreements(outcome, a)] for a in ARTEFACTS},
    }
    for title, lines in sections.items():
        print(f"\n## {title} ({len(lines)})", *lines, sep="\n")
    bad = outcome.failed or outcome.crashed or outcome.broken or any(disagreements(outcome, a) for a in ARTEFACTS)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
