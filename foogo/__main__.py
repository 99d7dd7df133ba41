"""`python -m foogo` is the `foogo` command."""

import sys

from .cli import main

sys.exit(main())
