"""`python -m chatschema`: the same as the `chatschema` command."""

import sys

from chatschema.command import main

sys.exit(main())
