"""Moved: the reference compression provider is :mod:`aalis_memory.drivers.summary`, beside the
other reference implementations (``aalis_memory`` holds the contract only).

Importing this old path still works and warns; it will be removed in 0.2.
"""

import warnings

from aalis_memory.drivers.summary import *  # noqa: F403 - the whole public API, unchanged
from aalis_memory.drivers.summary import __all__ as __all__

warnings.warn(
    "aalis_memory.summary moved to aalis_memory.drivers.summary; the old path goes in 0.2",
    DeprecationWarning,
    stacklevel=2,
)
