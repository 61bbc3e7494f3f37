"""How the kit's own tests start a run of the kit in a subprocess, as an author would from a
folder of their own: pytest without its cache folder, quiet, without the header."""

from __future__ import annotations

import sys
from typing import Final

#: The command's start; each test adds its options (drivers, rules, report) after it.
KIT_PYTEST: Final = (sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-header")
