"""pytest plugin (``-p broken_drivers.plugin``): registers every broken driver as ``broken-NAME``
and every control of ``broken_drivers.controls`` as ``control-NAME``."""

from __future__ import annotations

from aalis_memory.conformance.registration.registry import add_registration
from broken_drivers import load_all, registration
from broken_drivers.controls import CONTROLS
from broken_drivers.controls import registration as control_registration

for _entry in load_all().values():
    add_registration(registration(_entry))
for _control in CONTROLS.values():
    add_registration(control_registration(_control))
