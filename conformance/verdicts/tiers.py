"""What the reports say of a driver besides its rules: its declared tiers and the warnings
about them."""

from __future__ import annotations

from aalis_memory.conformance.registration import capability_fields, registry, tiers


def registration(driver: str) -> registry.DriverRegistration | None:
    try:
        return registry.get(driver)
    except LookupError:
        return None


def tier_line(driver: str) -> tuple[str, list[str]]:
    """The declared tiers of ``driver`` and the warnings about them (for ``provider@driver``:
    what the provider was run over)."""
    if "@" in driver:
        provider, over = driver.split("@", 1)
        return f"compression provider {provider}, over driver {over}", []
    found = registration(driver)
    if found is None:
        return "tiers unknown", []
    caps = found.capabilities
    return tiers.describe(caps), tiers.weaker_than_granted(caps, found.documented_backend)


def tier_cell(driver: str) -> str:
    """The Markdown matrix's tiers of ``driver``: every field of its capabilities, by name."""
    found = None if "@" in driver else registration(driver)
    return tier_line(driver)[0] if found is None else capability_fields.as_text(found.capabilities)


__all__ = ["registration", "tier_cell", "tier_line"]
