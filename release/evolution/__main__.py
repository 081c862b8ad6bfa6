"""`python -m release.evolution [BASE]`: the schema-evolution diff and version gate."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
