"""Moved: the reference provider's planning is :mod:`aalis_memory.drivers.summary_plan`.

Importing this old path still works and warns; it will be removed in 0.2.
"""

import warnings

from aalis_memory.drivers.summary_plan import *  # noqa: F403 - the whole public API, unchanged
from aalis_memory.drivers.summary_plan import __all__ as __all__

warnings.warn(
    "aalis_memory.summary_plan moved to aalis_memory.drivers.summary_plan; the old path goes in 0.2",
    DeprecationWarning,
    stacklevel=2,
)
