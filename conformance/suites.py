"""The kit's test suites: each a package of test modules, collected from where it is installed.

The storage suite judges a driver; the provider suite, in the compression package it belongs to,
judges a compression provider over one. The plugin collects both the same way
(:mod:`.plugin.collection`), the rule CLI and SPEC_MAP.md read their tests from them. Kept free
of pytest so that those tools load quickly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import attrs

#: The installed ``aalis_memory.conformance`` package and its folder.
PACKAGE: Final = "aalis_memory.conformance"
ROOT: Final = Path(__file__).resolve().parent


@attrs.frozen
class Suite:
    """A suite package inside ``aalis_memory.conformance``, by its import name."""

    package: str

    @property
    def folder(self) -> Path:
        return ROOT.joinpath(*self.package.removeprefix(f"{PACKAGE}.").split("."))


#: The storage suite: collected when a driver is selected (``--memory-driver``).
STORAGE: Final = Suite(f"{PACKAGE}.suite")
#: The provider suite: collected when a compression provider is selected as well
#: (``--memory-compression-provider``; :mod:`.compression.plugin` hides it otherwise).
PROVIDER: Final = Suite(f"{PACKAGE}.compression.suite")
SUITES: Final = (STORAGE, PROVIDER)


def suite_of(folder: Path) -> Suite | None:
    """The suite whose modules sit directly in ``folder`` (a resolved path), if any."""
    return next((suite for suite in SUITES if suite.folder == folder), None)
