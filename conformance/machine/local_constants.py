"""The machine's histories drawn without Hypothesis's "local constants".

Hypothesis mixes into about one draw in twenty a literal found in the source of the modules it
takes for the project's own (any module outside site-packages and outside test files), scanned
at the first draw of a process and cached under ``.hypothesis/constants`` in the working folder.
For the machine that made the derandomized histories depend on where the kit is installed (its
modules are "local" in a checkout installed with ``pip install -e``, not in a wheel), on the
author's own modules, and on which modules a run had imported when it drew (``-k`` changes
that): the same driver could meet other histories in another folder or selection. The scan
also cost about 0.5 s in every new folder, most of an author's first run of a small driver.

While the machine draws, the local constants are empty; the constants Hypothesis ships (the
global ones) stay. Hypothesis offers no setting for this: the one private function it calls for
them is replaced for the length of the run and put back, and the constants it cached from them
are dropped on the way in and out, so a project's own Hypothesis tests in the same process keep
theirs. ``tests/kit/test_machine_shape.py`` fails when a Hypothesis release moves that function.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, Final

from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants

#: The private function Hypothesis gets the local constants from.
HOOK: Final = "_get_local_constants"


@contextlib.contextmanager
def without_local_constants() -> Iterator[None]:
    """Draws inside the block see no local constants."""
    original: Any = getattr(providers, HOOK, None)
    if original is None:  # a Hypothesis without them: nothing to take away
        yield
        return
    empty = Constants()
    providers.CONSTANTS_CACHE.cache.clear()
    setattr(providers, HOOK, lambda: empty)
    try:
        yield
    finally:
        setattr(providers, HOOK, original)
        providers.CONSTANTS_CACHE.cache.clear()


__all__ = ["HOOK", "without_local_constants"]
