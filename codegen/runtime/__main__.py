"""`python -m chatschema`: the same as the `chatschema` command."""

import sys

from chatschema.cli import main

sys.exit(main())
