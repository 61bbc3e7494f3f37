"""Deliberately broken implementations of the clearing helper ``clear_metadata_namespaces``.

The CLR-04..08 rules bind the helper, whoever ships it; the suite runs it over the store under
test through the ``aalis_clear_helper`` fixture, which a project overrides to have its own
implementation judged. Each helper here is the contract's with one behaviour changed, and
``tests/proofs/test_broken_helpers.py`` proves the suite fails exactly the rules it declares (a broken
store, by contrast, leaves these rules blocked by the store rule it breaks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

import attrs

from aalis_memory.clearing import ClearNamespaces, InfoLogger, unreadable_line
from aalis_memory.types import MetadataDel


@attrs.frozen
class BrokenHelper:
    name: str
    breaks: frozenset[str]
    helper: ClearNamespaces
    why: str


HELPERS: dict[str, BrokenHelper] = {}


def broken_helper(name: str, *rule_ids: str) -> Callable[[ClearNamespaces], ClearNamespaces]:
    def register(helper: ClearNamespaces) -> ClearNamespaces:
        why = (helper.__doc__ or "").strip().split("\n")[0]
        HELPERS[name] = BrokenHelper(name, frozenset(rule_ids), helper, why)
        return helper

    return register


async def _listed(memory: Any, namespace: str, *, use_keys: bool = True) -> tuple[list[str], list[str]]:
    """A namespace's keys to delete, and those of them list_metadata cannot read."""
    readable = [entry.key for entry in await memory.list_metadata(namespace)]
    list_keys = getattr(memory, "list_metadata_keys", None)
    if not (use_keys and callable(list_keys)):
        return readable, []
    keys = list(await list_keys(namespace))
    return keys, [f"{namespace}/{key}" for key in keys if key not in readable]


async def _gather(
    memory: Any, namespaces: Iterable[str], *, use_keys: bool = True
) -> tuple[dict[str, list[str]], list[str]]:
    """The keys to delete per namespace (in input order, each once), and the unreadable ones."""
    deleted: dict[str, list[str]] = {}
    unreadable: list[str] = []
    for namespace in dict.fromkeys(namespaces):
        deleted[namespace], bad = await _listed(memory, namespace, use_keys=use_keys)
        unreadable += bad
    return deleted, unreadable


async def _one_commit(memory: Any, deleted: dict[str, list[str]]) -> None:
    ops = [MetadataDel(namespace, key) for namespace, keys in deleted.items() for key in keys]
    if ops:
        await memory.commit_metadata(ops)


@broken_helper("commit-per-namespace", "CLR-04")
async def commit_per_namespace(
    memory: Any, namespaces: Iterable[str], logger: InfoLogger
) -> dict[str, list[str]]:
    """One commit_metadata per namespace. CLR-04: the entries go "in a single commit_metadata"."""
    deleted: dict[str, list[str]] = {}
    unreadable: list[str] = []
    for namespace in dict.fromkeys(namespaces):
        deleted[namespace], bad = await _listed(memory, namespace)
        unreadable += bad
        await _one_commit(memory, {namespace: deleted[namespace]})
    if unreadable:
        logger.info(unreadable_line(unreadable))
    return deleted


@broken_helper("namespaces-sorted", "CLR-05")
async def namespaces_sorted(
    memory: Any, namespaces: Iterable[str], logger: InfoLogger
) -> dict[str, list[str]]:
    """Returns the namespaces sorted by name. CLR-05: "namespaces in the order they were
    passed"."""
    deleted, unreadable = await _gather(memory, sorted(set(namespaces)))
    await _one_commit(memory, deleted)
    if unreadable:
        logger.info(unreadable_line(unreadable))
    return deleted


@broken_helper("ignores-list-keys", "CLR-06", "CLR-07")
async def ignores_list_keys(
    memory: Any, namespaces: Iterable[str], logger: InfoLogger
) -> dict[str, list[str]]:
    """Reads keys from list_metadata even when the store has list_metadata_keys. CLR-06: then
    "unreadable entries are deleted too"; CLR-07: deleting them "logs exactly one info line"."""
    deleted, _ = await _gather(memory, namespaces, use_keys=False)
    await _one_commit(memory, deleted)
    return deleted


@broken_helper("a-line-per-entry", "CLR-07")
async def a_line_per_entry(
    memory: Any, namespaces: Iterable[str], logger: InfoLogger
) -> dict[str, list[str]]:
    """Logs one info line per unreadable entry. CLR-07: "exactly one info line naming them"."""
    deleted, unreadable = await _gather(memory, namespaces)
    await _one_commit(memory, deleted)
    for name in unreadable:
        logger.info(unreadable_line([name]))
    return deleted


@broken_helper("fallback-logs", "CLR-08")
async def fallback_logs(memory: Any, namespaces: Iterable[str], logger: InfoLogger) -> dict[str, list[str]]:
    """Without list_metadata_keys, logs that it could not see unreadable entries. CLR-08: in the
    fallback they are "neither returned nor logged"."""
    deleted, unreadable = await _gather(memory, namespaces)
    await _one_commit(memory, deleted)
    if unreadable:
        logger.info(unreadable_line(unreadable))
    elif not callable(getattr(memory, "list_metadata_keys", None)):
        logger.info("no list_metadata_keys: unreadable metadata entries, if any, were kept")
    return deleted


#: The fixture a run of one broken helper overrides (its conftest.py).
CONFTEST: Final = """import pytest

from broken_helpers import HELPERS


@pytest.fixture
def aalis_clear_helper():
    return HELPERS[{name!r}].helper
"""
