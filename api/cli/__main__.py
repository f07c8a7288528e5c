"""`python -m api.cli …` is the `wordle-tournament` script."""

import sys

from api.cli import main

sys.exit(main())
