"""Performance rules: what a backend's calls cost as its data grows (checked only on request).

The documents say what each call returns, never what it costs. The kit reads one point of cost
they leave open: a call whose answer does not grow with the stored data should not get slower as
the data grows. It is measured only with ``--memory-scaling`` (timings need a quiet machine and
a few minutes), and its failures are advisories like every SHOULD rule's.
"""

from aalis_memory.conformance.rules.rule import should

RULES = (
    should("PERF-01",
           "A call whose result keeps its size as the data grows (get_history(s, 20), "
           "count_history, alone and right after a save, archive_span(s, 1), get_metadata) "
           "takes about as long on a large "
           "session as on a small one (by default 50,000 and 1,000 messages; 10,000 and 100 "
           "metadata keys): its median time grows at most 5x.",
           point="what a call may cost as the stored data grows",
           argument="a host calls get_history and count_history on every turn of a conversation "
                    "that only grows; a call that scans or copies the whole session gets slower "
                    "with every message until the host stalls"),
)
