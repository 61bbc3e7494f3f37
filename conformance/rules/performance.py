"""Performance rules: what a backend's calls cost as its data grows.

The documents say what each call returns, never what it costs. The kit reads one point of cost
they leave open: a call whose answer does not grow with the stored data should not get slower as
the data grows. A quick probe measures it in every run (a second or two per driver; a driver that
cannot afford it declares ``skip_quick_scaling`` and is reported ``not run``), the full probe with
``--memory-scaling`` (a minute or more); its failures are advisories like every SHOULD rule's.
"""

from aalis_memory.conformance.rules.rule import should

RULES = (
    should(
        "PERF-01",
        "A call whose result keeps its size as the data grows (get_history(s, 20), "
        "count_history, alone and right after a save, archive_span(s, 1), get_metadata) "
        "takes about as long on a large session as on a small one: its median time grows at "
        "most 5x from 1,000 to 50,000 messages (100 to 10,000 metadata keys). The quick probe "
        "run by default projects that growth from 100 and 8,000 messages (100 and 5,000 "
        "keys); --memory-scaling measures it.",
        point="what a call may cost as the stored data grows",
        argument="a host calls get_history and count_history on every turn of a conversation "
        "that only grows; a call that scans or copies the whole session gets slower "
        "with every message until the host stalls",
    ),
)
