"""The generated metadata steps: saves, reads, deletes, unreadable entries and batched commits.

Like the message steps, each one calls the driver and the model, compares, re-lists every
namespace, and credits the rules the comparison depended on; a tolerated rule turns off the
inputs only it decides.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, cast

import attrs

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.harness.adapters import plant_raw
from aalis_memory.conformance.machine.attribution import (
    commit_exercises,
    commit_rules,
)
from aalis_memory.conformance.machine.contract_model import ContractModel
from aalis_memory.conformance.machine.copies import copied
from aalis_memory.conformance.machine.core import MUTATION_MARKERS, MachineCore, Results, leaked
from aalis_memory.conformance.machine.failure import MachineFailure, Raised
from aalis_memory.conformance.machine.inputs import (
    NAMESPACES,
    bad_payload,
    plain_payload,
)
from aalis_memory.conformance.machine.metadata_state import MetadataChecks
from aalis_memory.conformance.machine.snippets import CallerMutates, Planted, Step
from aalis_memory.types import JsonObject, MetadataDel, MetadataEntry, MetadataOp, MetadataPut


class MetadataSteps:
    """The metadata half of the machine's steps."""

    def __init__(self, core: MachineCore, listings: MetadataChecks) -> None:
        self.core = core
        self.listings = listings

    def payload(self, data: JsonObject) -> JsonObject:
        """``data`` as generated, or with lists for tuples once META-07 is tolerated."""
        return plain_payload(data) if "META-07" in self.core.tolerance else data

    def save_metadata(self, namespace: str, key: str, data: JsonObject, bad: str | None) -> None:
        if bad is not None:
            if "META-08" in self.core.tolerance:
                return
            self.core.expect_error(
                ["META-08"],
                self.core.call("save_metadata", namespace, key, bad_payload(bad)),
                (TypeError, ValueError),
            )
            self.listings.check_metadata(["META-08"], lead=["META-08"])  # nothing may have changed
            self.core.credit({"META-08"})
            return
        self.store_metadata(namespace, key, data)

    def store_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        """Save one entry everywhere, the caller then reusing its object (META-06), and check
        every namespace."""
        data = self.payload(data)
        mutate = "META-06" not in self.core.tolerance
        self.core.clock.tick()
        self.core.model.save_metadata(namespace, key, copied(data))
        self.core.metadata.note_put(namespace, key, copied(data))
        passed = copied(data)
        args = (namespace, key, copied(data))
        self.core.history.script.append(
            CallerMutates("save_metadata", args, marker=MUTATION_MARKERS[0])
            if mutate
            else Step("save_metadata", args)
        )
        results: Results = []
        for opened in self.core.stores.opened:
            mine = copied(passed)
            try:
                value = self.core.stores.run(opened.store.save_metadata(namespace, key, mine))
            except Exception as exc:
                value = Raised(type(exc), str(exc))
            if mutate:
                mine[MUTATION_MARKERS[0]] = True  # META-06: must not reach storage
            results.append((opened.name, value))
        self.core.expect_value(["META-01"], results, None)
        self.listings.check_metadata(["META-01", "META-06"])
        self.core.credit({"META-01", *(["META-06"] if mutate else [])})

    def get_metadata(self, namespace: str, key: str) -> None:
        if key in self.core.model.unreadable_keys(namespace):
            return  # what reading an unreadable entry gives is not specified
        mutate = "META-06" not in self.core.tolerance
        expected = self.core.model.get_metadata(namespace, key)
        results = self.core.call("get_metadata", namespace, key)
        if mutate:
            self.core.history.script[-1] = CallerMutates(
                "get_metadata", (namespace, key), marker=MUTATION_MARKERS[1]
            )
        lead = ["META-06"] if any(leaked(actual) for _, actual in results) else []
        self.listings.expect_data([*lead, "META-01"], results, expected)
        alike = (namespace, key) in self.core.metadata.alike and "META-07" not in self.core.tolerance
        self.core.credit({"META-01", *(["META-07"] if alike else [])})
        if not mutate:
            return
        for _driver, actual in results:
            if isinstance(actual, dict):
                actual[MUTATION_MARKERS[1]] = True  # META-06: must not reach storage
        with self.core.checking("get_metadata", namespace, key) as again:
            self.listings.expect_data(["META-06"], again, expected, faithful=False)
        if expected is not None:
            self.core.credit({"META-06"})

    def delete_metadata(self, namespace: str, key: str) -> None:
        stored = self.core.model.get_metadata(
            namespace, key
        ) is not None or key in self.core.model.unreadable_keys(namespace)
        if not stored and "META-11" in self.core.tolerance:
            return
        rules = ["META-03"] if stored else ["META-11"]  # META-11: a missing key is a no-op
        self.core.model.delete_metadata(namespace, key)
        self.core.metadata.note_gone(namespace, key)
        self.core.expect_value(rules, self.core.call("delete_metadata", namespace, key), None)
        self.listings.check_metadata(rules)
        self.core.credit(rules)

    def plant_unreadable(self, namespace: str, key: str, kind: str, then_del: bool) -> None:
        """An entry no read can decode, planted around the API: listings skip it (META-09), its
        key is still listed (META-10), and a batch del removes it (COMMIT-06)."""
        for target, opened in zip(self.core.targets, self.core.stores.opened, strict=True):
            # the precondition checked every target has a hook
            planted = self.core.stores.run(
                plant_raw(target.registration, opened.store, namespace, key, cast(Any, kind))
            )
            if not planted:
                return  # the backend cannot hold this kind: nothing changed
        self.core.history.script.append(Planted("plant", (namespace, key, kind)))
        self.core.model.plant_unreadable(namespace, key)
        self.core.metadata.note_gone(namespace, key)
        self.listings.check_metadata(["META-09"])
        if then_del and "COMMIT-06" not in self.core.tolerance:
            batch: list[MetadataOp] = [MetadataDel(namespace, key)]
            self.core.model.commit_metadata(batch)
            self.core.expect_value(["COMMIT-06"], self.core.call("commit_metadata", batch), None)
            self.listings.check_metadata(["COMMIT-06"])
            self.core.credit({"COMMIT-06"})

    def batch_of(self, ops: list[tuple[str, str, str, JsonObject]]) -> list[MetadataOp]:
        """The generated ops as a batch, without what the tolerated rules alone decide: dels of
        keys that are not stored (COMMIT-03) or unreadable (COMMIT-06)."""
        batch: list[MetadataOp] = []
        present = {(ns, k) for ns in NAMESPACES for k in self.core.model.list_metadata_keys(ns)}
        for kind, ns, key, data in ops:
            if kind == "put":
                batch.append(MetadataPut(ns, key, self.payload(data)))
                present.add((ns, key))
                continue
            if "COMMIT-03" in self.core.tolerance and (ns, key) not in present:
                continue
            if "COMMIT-06" in self.core.tolerance and key in self.core.model.unreadable_keys(ns):
                continue
            batch.append(MetadataDel(ns, key))
            present.discard((ns, key))
        return batch

    def commit_metadata(
        self,
        ops: list[tuple[str, str, str, JsonObject]],
        bad_at: int | None,
        bad: str,
        echo: bool = False,
    ) -> None:
        """A batch; with ``echo`` its first op's key comes back at the end with the other kind of
        op (a del after a put, a put after a del), so the order of ops decides (COMMIT-01)."""
        if echo and ops:
            kind, ns, key, data = ops[0]
            ops = [*ops, ("del" if kind == "put" else "put", ns, key, data)]
        batch = self.batch_of(ops)
        refused_rule = self.core.declared.refused_batch
        if (
            bad_at is not None
            and refused_rule is not None
            and not {refused_rule, "META-08"} & self.core.tolerance.rules
        ):
            batch.insert(min(bad_at, len(batch)), MetadataPut(NAMESPACES[1], "bad", bad_payload(bad)))
        if not batch and "COMMIT-03" in self.core.tolerance:
            return
        self.core.clock.tick()
        spaces = sorted({op.namespace for op in batch})
        #: The model before the batch, to test afterwards whether the driver confused namespaces.
        before = copy.deepcopy(self.core.model) if len(spaces) > 1 else None
        missing_del = any(
            isinstance(op, MetadataDel) and self.core.model.get_metadata(op.namespace, op.key) is None
            for op in batch
        )
        try:
            self.core.model.commit_metadata(copied(batch))
            rejected = False
        except (TypeError, ValueError):
            rejected = True
        unreadable = any(
            isinstance(op, MetadataDel) and op.key in self.core.model.unreadable_keys(op.namespace)
            for op in batch
        )
        write = self.core.call_watched(
            "commit_metadata",
            (batch,),
            [Step("list_metadata", (ns,)) for ns in spaces],
            self.core.declared.atomic_metadata,
        )
        lead: list[str] = []
        if rejected:
            self.refused(write.results)
            # a refused batch changes nothing: any change is its fault (only a batch sent a bad
            # payload is refused, and it is sent one only when ``refused_rule`` names its rule)
            rules = lead = [refused_rule or "META-08"]
        else:
            first = "COMMIT-06" if unreadable else "COMMIT-03" if missing_del else "COMMIT-01"
            self.core.expect_value([first], write.results, None)
            rules = [*(["COMMIT-06"] if unreadable else []), *commit_rules(batch)]
        try:
            self.listings.check_metadata(rules, lead)
        except MachineFailure as failure:
            if not rejected and before is not None and self.namespaces_confused(batch, before):
                raise self.core.blame.disagreement(
                    ["COMMIT-02", *failure.involved], failure.driver or "", failure.what, rediagnosed=failure
                ) from None
            raise
        if rejected:
            # The state held: what is left is the error's type (META-08), or another op's error.
            errors = ["COMMIT-03", "META-08"] if missing_del else ["META-08"]
            self.core.expect_error(errors, write.results, (TypeError, ValueError))
        else:
            for op in batch:
                if isinstance(op, MetadataPut):
                    self.core.metadata.note_put(op.namespace, op.key, op.data)
                else:
                    self.core.metadata.note_gone(op.namespace, op.key)
        self.core.expect_whole(["COMMIT-05"], write)
        self.core.credit(
            commit_exercises(
                batch,
                rejected=rejected,
                missing_del=missing_del,
                unreadable_del=unreadable,
                refused=refused_rule,
            )
        )
        if rejected:
            self.core.credit({"META-08"})

    def refused(self, results: Results) -> None:
        """A batch holding a payload JSON cannot hold must raise (META-08: accepting it is that
        rule's failure alone; what a batch that raised leaves is COMMIT-04's or COMMIT-07's, by
        tier). The call is then recorded as raising what it raised, so a reproduction goes on
        past it to the listing that shows what the refused batch applied."""
        call = self.core.history.script[-1].call()
        for driver, actual in results:
            if not isinstance(actual, Raised):
                raise self.core.blame.disagreement(
                    ["META-08"],
                    driver,
                    f"{call}: a payload JSON cannot hold was "
                    f"accepted: expected TypeError or ValueError, returned "
                    f"{describe(actual)}",
                )
        errors: tuple[type[BaseException], ...] = (TypeError, ValueError)
        for _driver, actual in results:
            if isinstance(actual, Raised) and not issubclass(actual.error, errors):
                errors = (*errors, actual.error)
        self.core.history.script[-1] = attrs.evolve(self.core.history.script[-1], errors=errors)

    def namespaces_confused(self, batch: Sequence[MetadataOp], before: ContractModel) -> bool:
        """After a listing failed: whether the batch wrote across namespaces wrongly (COMMIT-02:
        each op writes its own namespace) rather than applying its ops in the wrong order. Yes
        if a store holds an entry the model lacks where the batch had no business (a namespace
        it put nothing into, a key it wrote in another namespace), data the batch put under the
        same key elsewhere, or exactly what the batch gives with every op in one namespace."""
        spaces = sorted({op.namespace for op in batch})
        untouched = set(NAMESPACES) - {op.namespace for op in batch if isinstance(op, MetadataPut)}
        collapsed: list[dict[str, list[tuple[str, JsonObject]]]] = []
        for space in spaces:
            model = copy.deepcopy(before)
            try:
                model.commit_metadata([attrs.evolve(op, namespace=space) for op in batch])
            except (TypeError, ValueError):
                continue
            collapsed.append({ns: [(e.key, e.data) for e in model.list_metadata(ns)] for ns in NAMESPACES})
        for opened in self.core.stores.opened:
            seen: dict[str, list[tuple[str, JsonObject]]] = {}
            for namespace in NAMESPACES:
                listing = self.core.stores.probe(opened.name, "list_metadata", namespace)
                if not isinstance(listing, list):
                    return False
                seen[namespace] = [(e.key, e.data) for e in listing if isinstance(e, MetadataEntry)]
                stored = {e.key: e.data for e in self.core.model.list_metadata(namespace)}
                elsewhere = [op for op in batch if op.namespace != namespace]
                for key, data in seen[namespace]:
                    if key not in stored and (
                        namespace in untouched or any(op.key == key for op in elsewhere)
                    ):
                        return True
                    if (
                        key in stored
                        and data != stored[key]
                        and any(
                            isinstance(op, MetadataPut) and op.key == key and op.data == data
                            for op in elsewhere
                        )
                    ):
                        return True
            if seen in collapsed:
                return True
        return False


__all__ = ["MetadataSteps"]
