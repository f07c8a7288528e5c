"""Settings for every suite."""

from __future__ import annotations

import os

from hypothesis import settings

# CI runs the same examples every time (a red build always means a change broke something);
# developers' runs explore new examples and keep failures in .hypothesis/.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
