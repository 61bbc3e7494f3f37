"""A transcript belongs to its own test (issue 35: the CRASH-01 transcript said "this test's
store" but held the store of the test before; the crash tests open their stores in a child
process and a reopened session, never on the recorded one)."""

from __future__ import annotations

from pathlib import Path

from aalis_memory.drivers.stdio.transcript import Recorder, failure_note


def _test_with_a_store(recorder: Recorder, marker: str) -> None:
    recorder.begin()
    recorder.sent("open", f'{{"method":"open","id":"{marker}"}}')
    recorder.got(f'{{"id":"{marker}","result":{{"handle":"h"}}}}')


def test_a_test_that_opened_no_store_has_no_transcript(tmp_path: Path) -> None:
    recorder = Recorder("stdio:d", ["adapter"], None)
    _test_with_a_store(recorder, "earlier")
    recorder.sent("close", '{"method":"close"}')
    recorder.forget()
    recorder.begin()  # a crash test: its stores are opened elsewhere
    assert (
        failure_note(recorder, "crash.py::test_acknowledged_writes_survive_sigkill", tmp_path, None) is None
    )


def test_a_transcript_holds_its_own_test_s_store_only(tmp_path: Path) -> None:
    recorder = Recorder("stdio:d", ["adapter"], None)
    _test_with_a_store(recorder, "earlier")
    recorder.forget()
    # the earlier test's store was never closed (its adapter hung): the next test starts afresh
    _test_with_a_store(recorder, "mine")
    note = failure_note(recorder, "metadata.py::test_mine", tmp_path, None)
    assert note is not None
    written = next(tmp_path.iterdir()).read_text(encoding="utf-8")
    assert '"mine"' in written
    assert '"earlier"' not in written
