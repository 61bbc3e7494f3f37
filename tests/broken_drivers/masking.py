"""A MUST bug behind SHOULD quirks (issue 9, point 1): the state machine must not stop at the quirks.

Each driver keeps ``count_history`` in a counter that ``delete_messages_by_timestamps`` forgets to
lower (COUNT-01, MUST). The second also drops ``images``/``audios`` (MSG-02, SHOULD) and the third
also answers ``[]`` for a negative limit instead of raising (LIM-06, SHOULD). In the default,
non-strict mode a SHOULD divergence is an advisory and the run goes on, so all three must still
end with COUNT-01 failing (``tests/proofs/test_state_machine_no_masking.py``). The fourth raises on a
deletion by an empty list (DEL-02, SHOULD): tolerating DEL-02 must stop only the empty lists,
never the deletions that leave the count stale.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.service import Limit
from aalis_memory.types import Message
from broken_drivers import broken
from broken_drivers.messages import DeleteEmptyListRaises, KeepIgnored

#: The declared rules of each driver, for the test that runs them in the default mode.
STALE_COUNT: tuple[str, ...] = ("COUNT-01",)
#: No example test reads count_history after a deletion: only the state machine sees the bug.
MACHINE_ONLY: tuple[str, ...] = ("COUNT-01",)
PLUS_DROPPED_MEDIA: tuple[str, ...] = (*STALE_COUNT, "MSG-02")
PLUS_LENIENT_LIMITS: tuple[str, ...] = (*PLUS_DROPPED_MEDIA, "LIM-06")
PLUS_EMPTY_DELETE_RAISES: tuple[str, ...] = (*STALE_COUNT, "DEL-02")
#: What ``keep-ignored`` (broken_drivers/messages.py) breaks: ARCH-02 alone ("positions listed
#: in keep stay active"). The other archive rules' tests pass a keep list only to reach their
#: own words, and stand on ARCH-02 for what it keeps (blocked by it here, never failed).
KEEP_IGNORED: tuple[str, ...] = ("ARCH-02",)


class StaleCount(InMemoryMemory):
    """count_history adds what a subclass's writes ``forget`` to lower: a counter column nobody
    decremented. Clearing resets it, as a clear drops the column's rows."""

    def __init__(self, **kwargs: int) -> None:
        super().__init__(**kwargs)
        #: Conversation messages removed from the active history but still counted, per session.
        self._forgotten: dict[str, int] = {}

    def forget(self, session_id: str, gone: int) -> None:
        self._forgotten[session_id] = self._forgotten.get(session_id, 0) + gone

    async def count_history(self, session_id: str) -> int:
        return await super().count_history(session_id) + self._forgotten.get(session_id, 0)

    async def clear_session(self, session_id: str) -> None:
        self._forgotten.pop(session_id, None)
        await super().clear_session(session_id)

    async def clear_all(self) -> None:
        self._forgotten.clear()
        await super().clear_all()


@broken("count-stale-after-delete", *STALE_COUNT, examples_miss=MACHINE_ONLY)
class CountStaleAfterDelete(StaleCount):
    """count_history still counts the conversation messages that delete_messages_by_timestamps removed."""

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        doomed = set(timestamps)
        self.forget(
            session_id,
            sem.count_conversation(
                s.message for s in self._active(session_id) if s.message.timestamp in doomed
            ),
        )
        return await super().delete_messages_by_timestamps(session_id, timestamps)


@broken("count-stale-drops-media", *PLUS_DROPPED_MEDIA, examples_miss=MACHINE_ONLY)
class CountStaleDropsMedia(CountStaleAfterDelete):
    """The stale count, and images/audios are not stored."""

    async def save_message(self, session_id: str, message: Message) -> None:
        await super().save_message(session_id, attrs.evolve(message, images=None, audios=None))


def _lenient(limit: Limit) -> Limit:
    """A negative limit read as 0: an empty answer instead of ValueError."""
    return 0 if isinstance(limit, int | float) and not isinstance(limit, bool) and limit < 0 else limit


@broken("count-stale-lenient-limits", *PLUS_LENIENT_LIMITS, examples_miss=MACHINE_ONLY)
class CountStaleLenientLimits(CountStaleDropsMedia):
    """The stale count, dropped images/audios, and a negative limit answers [] instead of raising."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_history(session_id, _lenient(limit))

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_full_history(session_id, _lenient(limit))


@broken("count-stale-empty-delete-raises", *PLUS_EMPTY_DELETE_RAISES, examples_miss=MACHINE_ONLY)
class CountStaleEmptyDeleteRaises(DeleteEmptyListRaises, CountStaleAfterDelete):
    """The stale count, and a deletion by an empty list raises (`timestamp IN ()`)."""


#: Two MUST bugs in one history, the state machine meeting either one first: an archive that
#: ignores its keep positions (ARCH-02, as ``keep-ignored`` declares it) and a count_history
#: that archive_span forgets to lower (COUNT-01). The machine must report both, not only the
#: first (issue 21); the example tests fail both too.
STALE_COUNT_KEEP_IGNORED: tuple[str, ...] = (*KEEP_IGNORED, "COUNT-01")


@broken("count-stale-after-archive-keep-ignored", *STALE_COUNT_KEEP_IGNORED)
class CountStaleAfterArchiveKeepIgnored(KeepIgnored, StaleCount):
    """archive_span archives the whole span, keep list or not, and count_history still counts
    the conversation messages it archived."""

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        before = sem.count_conversation(s.message for s in self._active(session_id))
        archived = await super().archive_span(session_id, count, keep)
        after = sem.count_conversation(s.message for s in self._active(session_id))
        self.forget(session_id, before - after)
        return archived
