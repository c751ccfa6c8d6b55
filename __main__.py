"""`python -m pzc`: the same command line as `pzc`."""

import sys

from .cli import main

sys.exit(main())
