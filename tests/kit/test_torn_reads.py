"""A torn read's failure line shows the field that differed (issue 35: a list_metadata torn only
in ``updated_at`` printed a "saw" equal to "before", since a listing shows keys and data)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from aalis_memory.conformance.machine.snippets import Step
from aalis_memory.conformance.machine.stores import torn_lines
from aalis_memory.conformance.probes.concurrent_reads import watch_write
from aalis_memory.drivers.inmemory import InMemoryMemory, StoredMetadata
from aalis_memory.types import MetadataOp, MetadataPut


class StampsAfterwards(InMemoryMemory):
    """Writes a batch's data under the old stamps, then stamps its keys one by one, giving the
    loop away in between: a reader there sees one key's new updated_at beside another's old."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        old = {(ns, key): m.updated_at for ns, space in self._metadata.items() for key, m in space.items()}
        await super().commit_metadata(ops)
        stamps = {(ns, key): m.updated_at for ns, space in self._metadata.items() for key, m in space.items()}
        for (ns, key), stamp in old.items():
            space = self._metadata[ns]
            space[key] = StoredMetadata(space[key].text, stamp)
        for (ns, key), stamp in stamps.items():
            space = self._metadata[ns]
            space[key] = StoredMetadata(space[key].text, stamp)
            await asyncio.sleep(0)


def test_a_read_torn_in_updated_at_shows_it() -> None:
    async def scenario() -> list[str]:
        store = StampsAfterwards()
        await store.commit_metadata([MetadataPut("ns", key, {"v": 1}) for key in ("k1", "k2")])
        await asyncio.sleep(0.003)  # the overwrite's stamp is another millisecond's
        read = Step("list_metadata", ("ns",))
        watched = await watch_write(
            # the same data again: only the stamps change
            lambda: store.commit_metadata([MetadataPut("ns", key, {"v": 1}) for key in ("k1", "k2")]),
            [lambda: store.list_metadata("ns")],
        )
        return torn_lines([read], watched)

    lines = asyncio.run(scenario())
    assert lines, "the store tears no read: the test shows nothing"
    line = lines[0]
    # the read differs from before and after in updated_at alone: the line must show it
    assert line.count("updated_at") >= 2, line
    before, after = line.split("from before at ", 1)[1].split(", from after at ", 1)
    assert "updated_at" in before, line
    assert "updated_at" in after, line
