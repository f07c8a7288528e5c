"""`python -m api.local` (what `make run` runs): see api/local/run.py."""

import sys

from api.local.run import main

sys.exit(main())
