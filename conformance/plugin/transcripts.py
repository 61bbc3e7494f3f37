"""A failing test of a stdio driver names the transcript of its store and the command that
replays it (:mod:`aalis_memory.drivers.stdio.transcript`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from aalis_memory.conformance.harness.run_state import RUN_STATE
from aalis_memory.conformance.machine.failure import MachineFailure
from aalis_memory.conformance.verdicts import properties
from aalis_memory.conformance.verdicts.model import FAILED, Outcomes
from aalis_memory.drivers.stdio import transcript
from aalis_memory.drivers.stdio.transcript import Recorder


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test's store is opened: no line recorded so far is its transcript (issue 35: the
    CRASH-01 transcript said "this test's store" but held the store of the test before, since
    the crash tests open theirs elsewhere)."""
    if RUN_STATE in item.config.stash:
        for recorder in item.config.stash[RUN_STATE].recorders.values():
            recorder.begin()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failure of a stdio driver's test names the transcript of its store and the command that
    replays it (:mod:`aalis_memory.drivers.stdio.transcript`). It runs after the reporter
    judged the test, so the note goes into the judgement's message of each rule the failure fails
    (the record is replaced by its noted copy: nothing serialized is edited)."""
    outcome = yield
    driver = properties.driver_of(item)
    if driver is None:
        return
    recorders = item.config.stash[RUN_STATE].recorders
    if not recorders:
        return
    made: pytest.TestReport = outcome.get_result()
    try:
        _note_transcript(item, call, made, recorders)
    finally:
        if call.when == "call":
            for recorder in recorders.values():
                recorder.forget()


def _note_transcript(
    item: pytest.Item, call: pytest.CallInfo[None], made: pytest.TestReport, recorders: Mapping[str, Recorder]
) -> None:
    if call.excinfo is None or made.skipped:
        return
    index, outcomes = next(
        ((i, value) for i, (key, value) in enumerate(made.user_properties) if isinstance(value, Outcomes)),
        (None, None),
    )
    failing = outcomes is not None and any(one.verdict in FAILED for one in outcomes)
    if not failing and not made.failed:
        return
    driver = outcomes[0].driver if outcomes else properties.driver_of(item)
    exc = call.excinfo.value
    key = exc.reproduction if isinstance(exc, MachineFailure) else None
    recorder = recorders.get(str(driver))
    note = (
        None
        if recorder is None
        else transcript.failure_note(recorder, item.nodeid, _transcript_folder(item.config), key)
    )
    if note is None:
        return
    if index is not None and outcomes is not None:
        made.user_properties[index] = (properties.PROP_OUTCOMES, outcomes.noted(note))
    if isinstance(made.longrepr, str):
        made.longrepr += f"\n{note}"
    else:
        made.sections.append(("aalis-memory: reproduce over stdio", note))


def _transcript_folder(config: pytest.Config) -> Path:
    """Next to the first report asked for, else in pytest's temporary folder of the run."""
    reports: list[str] = config.getoption("--memory-report") or []
    if reports:
        first = Path(reports[0]).resolve()
        return first.with_name(f"{first.stem}-stdio-transcripts")
    factory = getattr(config, "_tmp_path_factory", None)
    base = Path(factory.getbasetemp()) if factory is not None else Path.cwd()
    return base / "aalis-memory-stdio-transcripts"
