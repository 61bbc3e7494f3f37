"""The metadata state the machine checks after every step that may have changed it.

Every namespace is listed (and its keys, when the driver lists keys) and compared with the
model; ``updated_at`` must be integer epoch ms that grows on every overwrite and only then. Data
is compared as JSON values (True is not 1, a tuple and a list are one array, 2 and 2.0 one
number): a difference is META-01's or the step's. Then, unless META-07 is tolerated, the arrays'
Python types: a tuple handed back where a JSON round trip gives a list is META-07's. A listing
that differs is blamed on what the difference looks like: an unreadable entry listed (META-09), a
caller's mutation stored (META-06), the wrong order (META-04), data no call ever saved (META-01),
or the step that wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.json_values import json_difference
from aalis_memory.conformance.machine.attribution import listing_exercises
from aalis_memory.conformance.machine.bookkeeping import SeenStamp
from aalis_memory.conformance.machine.contract_model import ModelEntry
from aalis_memory.conformance.machine.core import MachineCore, Results, leaked
from aalis_memory.conformance.machine.failure import Raised
from aalis_memory.conformance.machine.inputs import NAMESPACES
from aalis_memory.types import MetadataEntry


def json_differs(actual: Any, expected: Any) -> str | None:
    """Where ``actual`` differs from ``expected`` as a JSON value (META-01), or ``None``."""
    return json_difference(actual, expected, arrays_alike=True)


def type_differs(actual: Any, expected: Any) -> str | None:
    """Where an array of ``actual`` is not of the type a JSON round trip reads (META-07)."""
    return json_difference(actual, expected)


def _pairs_differ(got: Sequence[tuple[str, Any]], want: Sequence[tuple[str, Any]], differs: Any) -> bool:
    return len(got) != len(want) or any(
        gk != wk or differs(gd, wd) is not None for (gk, gd), (wk, wd) in zip(got, want, strict=True)
    )


class MetadataChecks:
    """Listing checks of the metadata store."""

    def __init__(self, core: MachineCore) -> None:
        self.core = core

    def mangled(self, data: Any) -> bool:
        """Whether ``data`` is no payload ever handed over (as a JSON value)."""
        return all(json_differs(data, handed) is not None for handed in self.core.metadata.handed)

    def expect_data(
        self, rules: Sequence[str], results: Results, expected: Any, faithful: bool = True
    ) -> None:
        """Every driver must have returned ``expected`` as a JSON value (else ``rules``) and,
        when ``faithful`` and META-07 is not tolerated, with lists where JSON reads arrays."""
        call = self.core.history.script[-1].call()
        for driver, actual in results:
            if isinstance(actual, Raised):
                raise self.core.blame.disagreement(
                    rules,
                    driver,
                    f"{call}: expected {describe(expected)}, raised {actual.error.__name__}: {actual.text}",
                )
            difference = json_differs(actual, expected)
            if difference is not None:
                raise self.core.blame.disagreement(rules, driver, f"{call}: {difference}")
            difference = type_differs(actual, expected)
            if faithful and difference is not None and "META-07" not in self.core.tolerance:
                raise self.core.blame.disagreement(
                    ["META-07"], driver, f"{call}: {difference} (what a JSON round trip reads)"
                )

    def check_metadata(self, cause: Sequence[str], lead: Sequence[str] = ()) -> None:
        """Every namespace lists what the model holds (and updated_at moves as it must).

        ``lead``: rules a step diagnosed for certain (a batch that wrote across namespaces),
        blamed before what a listing alone suggests.
        """
        self.core.metadata.listed_unreadable = {
            (ns, key)
            for ns, key in self.core.metadata.listed_unreadable
            if key in self.core.model.unreadable_keys(ns)
        }
        for namespace in NAMESPACES:
            expected = self.core.model.list_metadata_versions(namespace)
            with self.core.checking("list_metadata", namespace) as results:
                for driver, actual in results:
                    self.check_listing(driver, namespace, expected, actual, cause, lead)
            unreadable = bool(self.core.model.unreadable_keys(namespace))
            others = any(self.core.model.list_metadata_keys(ns) for ns in NAMESPACES if ns != namespace)
            alike = "META-07" not in self.core.tolerance and any(
                (namespace, e.entry.key) in self.core.metadata.alike for e in expected
            )
            self.core.credit(listing_exercises([e.entry.data for e in expected], unreadable, others, alike))
            if "list_metadata_keys" in self.core.stores.methods:
                keys = self.core.model.list_metadata_keys(namespace)
                # A clear never touches metadata: any change after it is the clear's fault. So is
                # losing an unreadable key this listing showed before: the step lost it.
                clearing = any(r.startswith("CLEAR-") for r in cause)
                shown = {(namespace, key) for key in self.core.model.unreadable_keys(namespace)}
                rules = (
                    [*cause, "META-10"]
                    if clearing or (shown and shown <= self.core.metadata.listed_unreadable)
                    else ["META-10", *cause]
                )
                with self.core.checking("list_metadata_keys", namespace) as results:
                    self.core.expect_value([*lead, *rules], results, keys)
                self.core.metadata.listed_unreadable |= shown
                if unreadable:
                    self.core.credit({"META-10"})

    def check_listing(
        self,
        driver: str,
        namespace: str,
        expected: list[ModelEntry],
        actual: Any,
        cause: Sequence[str],
        lead: Sequence[str] = (),
    ) -> None:
        call = f"list_metadata({namespace!r})"
        want = [(e.entry.key, e.entry.data) for e in expected]
        unreadable = self.core.model.unreadable_keys(namespace)
        if isinstance(actual, Raised) or not isinstance(actual, list):
            corrupt = ["META-09"] if unreadable else []  # one bad entry broke the whole listing
            raise self.core.blame.disagreement(
                [*lead, *corrupt, "META-02", *cause], driver, f"{call}: got {describe(actual)}"
            )
        if "META-04" in self.core.tolerance:
            actual = sorted(actual, key=lambda e: str(getattr(e, "key", "")))
        got = [(e.key, e.data) for e in actual if isinstance(e, MetadataEntry)]
        if len(got) != len(actual) or _pairs_differ(got, want, json_differs):
            by_key = sorted(got, key=lambda pair: str(pair[0]))
            if any(key in unreadable for key, _ in got):
                rules = ["META-09", *cause]  # an unreadable entry was listed, not skipped
            elif any(leaked(data) for _, data in got):
                rules = ["META-06", *cause]  # a caller's mutation reached storage
            elif len(got) == len(actual) and by_key != got and not _pairs_differ(by_key, want, json_differs):
                rules = ["META-04", *cause]
            elif [k for k, _ in got] == [k for k, _ in want]:
                changed = [
                    d for (_, d), (_, w) in zip(got, want, strict=True) if json_differs(d, w) is not None
                ]
                # Data no call ever handed over was changed on its way (META-01); a payload
                # handed over for another entry or at another time was the step's doing.
                rules = ["META-01", *cause] if any(self.mangled(d) for d in changed) else [*cause, "META-01"]
            elif not self.entries_match(driver, namespace, {k for k, _ in got + want}):
                rules = [*cause, "META-02"]  # the stored entries diverged: the write's fault
            else:
                rules = ["META-02", *cause]  # get_metadata agrees: the listing is wrong
            raise self.core.blame.disagreement(
                [*lead, *rules], driver, f"{call}: expected {want!r}, got {got!r}"
            )
        if "META-07" not in self.core.tolerance and _pairs_differ(got, want, type_differs):
            raise self.core.blame.disagreement(
                ["META-07"],
                driver,
                f"{call}: expected {want!r}, got {got!r} "
                "(arrays come back as a JSON round trip reads them: lists)",
            )
        if "META-05" not in self.core.tolerance:
            self.check_stamps(driver, namespace, expected, actual, cause)

    def check_stamps(
        self,
        driver: str,
        namespace: str,
        expected: list[ModelEntry],
        actual: list[MetadataEntry],
        cause: Sequence[str],
    ) -> None:
        """META-05: updated_at is integer epoch ms and grows on every overwrite, only then."""
        call = f"list_metadata({namespace!r})"
        for model_entry, entry in zip(expected, actual, strict=False):
            ident = (driver, namespace, entry.key)
            if not isinstance(entry.updated_at, int) or isinstance(entry.updated_at, bool):
                raise self.core.blame.disagreement(
                    ["META-05"],
                    driver,
                    f"{call}: updated_at of {entry.key!r} is {entry.updated_at!r}, not integer epoch ms",
                )
            previous = self.core.metadata.seen_updated.get(ident)
            if previous is not None and previous.created == model_entry.created:
                stamp = previous.updated_at
                if model_entry.version > previous.version and entry.updated_at <= stamp:
                    previous.restore(self.core.history.script)
                    raise self.core.blame.disagreement(
                        ["META-05"],
                        driver,
                        f"{call}: {entry.key!r} was overwritten but updated_at "
                        f"stayed {entry.updated_at} (was {stamp})",
                    )
                if model_entry.version == previous.version and entry.updated_at != stamp:
                    rejected = [r for r in cause if r in ("COMMIT-04", "COMMIT-07", "META-08")]
                    previous.restore(self.core.history.script)
                    raise self.core.blame.disagreement(
                        [*rejected, "META-05"],
                        driver,
                        f"{call}: {entry.key!r} was not written but updated_at "
                        f"moved from {stamp} to {entry.updated_at}",
                    )
                if model_entry.version > previous.version:
                    self.core.credit({"META-05"})  # an overwrite, and its stamp grew
            self.core.metadata.seen_updated[ident] = SeenStamp(
                model_entry.created,
                model_entry.version,
                entry.updated_at,
                len(self.core.history.script) - 1,
                self.core.history.script[-1],
            )

    def entries_match(self, driver: str, namespace: str, keys: set[str]) -> bool:
        """Whether get_metadata of each key agrees with the model (probed after a failure)."""
        return all(
            json_differs(
                self.core.stores.probe(driver, "get_metadata", namespace, key),
                self.core.model.get_metadata(namespace, key),
            )
            is None
            for key in keys
        )


__all__ = ["MetadataChecks"]
