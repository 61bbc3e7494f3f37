"""pytest plugin (``-p broken_drivers.plugin``): registers every broken driver as ``broken-NAME``
(the slow ones of ``broken_drivers.slow`` too)."""

from __future__ import annotations

from aalis_memory.conformance.registry import add_registration
from broken_drivers import load_all, registration
from broken_drivers.slow import SLOW

for _entry in [*load_all().values(), *SLOW.values()]:
    add_registration(registration(_entry))
