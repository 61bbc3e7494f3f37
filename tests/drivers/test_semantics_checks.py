"""The reference drivers' shared argument checks refuse on their own what their docstrings name.

Each reference driver checks a cross-session query with ``check_query`` and builds its filter
with ``cross_session_filter``, which checks ``since_ts`` again (the broken drivers build the
filter alone). Through a driver the second check hides a gap in the first, so the first is
checked here directly.
"""

from __future__ import annotations

import math

import pytest

from aalis_memory.drivers import semantics as sem
from aalis_memory.types import RecentMessagesAcrossSessionsQuery as Query


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"since_ts": math.nan}, ValueError),
        ({"since_ts": "1000"}, TypeError),
        ({"since_ts": True}, TypeError),
        ({"since_ts": 2**63}, ValueError),
        ({"platform": 7}, TypeError),
    ],
)
def test_check_query_refuses_a_bad_field_itself(fields: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        sem.check_query(Query(limit=1, **fields))  # type: ignore[arg-type]


def test_check_query_returns_a_good_query() -> None:
    query = Query(limit=1, since_ts=0, platform="web", roles=["user"])
    assert sem.check_query(query) is query
