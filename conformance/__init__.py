"""The conformance kit: register a driver, run ``pytest --memory-driver=NAME``.

Only the names in ``__all__`` are promised; the rest of the package is the kit's machinery.
"""

from aalis_memory.conformance.checks import ConformanceFailure
from aalis_memory.conformance.registration.registry import (
    Capabilities,
    DriverContext,
    DriverRegistration,
    RawMetadataKind,
    memory_driver,
)
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.registration.tiers import UngrantedTier

__all__ = [
    "Capabilities",
    "ConformanceFailure",
    "DriverContext",
    "DriverRegistration",
    "RawMetadataKind",
    "UngrantedTier",
    "memory_driver",
    "requires",
]
