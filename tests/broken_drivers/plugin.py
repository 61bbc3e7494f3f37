"""pytest plugin (``-p broken_drivers.plugin``): registers every broken driver as ``broken-NAME``."""

from __future__ import annotations

from aalis_memory.conformance.registry import add_registration
from broken_drivers import load_all, registration

for _entry in load_all().values():
    add_registration(registration(_entry))
