"""pytest plugin (``-p broken_drivers.unwired``): broken drivers the suite can only partly judge
today, registered apart from ``BROKEN`` so the exact-rules test does not see them.

``broken-missing-clear-session`` lacks a required method: the REQ-01 test reports it, but the
plugin's store fixture also fails every other test of the driver. Once the fixture reports a
missing method under REQ-01 alone (the plugin's change), it moves into ``BROKEN``.
"""

from __future__ import annotations

from aalis_memory.conformance.registry import add_registration
from broken_drivers import registration
from broken_drivers.catalogue import MISSING_METHOD

add_registration(registration(MISSING_METHOD))
