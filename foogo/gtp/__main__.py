"""`python -m foogo.gtp [options]`: as `foogo gtp`."""

import sys

from .command import main

sys.exit(main())
