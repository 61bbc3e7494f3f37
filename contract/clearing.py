"""The ``memory:clear`` helpers of api-memory §钩子与贡献点.

``clear_all`` never touches metadata, so every plugin that keeps metadata clears its own
namespaces from a ``memory:clear`` middleware; these helpers make that one call, and tell
dependants whether the message history really went.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Literal, NotRequired, Protocol, TypeAlias, TypedDict, runtime_checkable

import attrs

from aalis_memory.service import MemoryService
from aalis_memory.types import JsonObject, MetadataDel

#: The clear type of the message history (a result row with this type reports on it).
CONTEXT_TYPE: Final = "context"
#: How many unreadable entries the info line names before it only counts the rest.
LOG_NAMED_MAX: Final = 10

ClearScope: TypeAlias = Literal["session", "all"]
#: A display text: a plain string or a host text object (an i18n reference).
Text: TypeAlias = str | JsonObject


def _text(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, str | dict):
        raise TypeError(f"{attribute.name} must be a str or a text object, got {value!r}")


def _str(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{attribute.name} must be a str, got {value!r}")


def _optional_str(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None:
        _str(instance, attribute, value)


def _bool(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{attribute.name} must be a bool, got {value!r}")


def _scope(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value not in ("session", "all"):
        raise ValueError(f"{attribute.name} must be 'session' or 'all', got {value!r}")


def _str_tuple(value: Iterable[str] | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str | bytes):
        raise TypeError(f"types must be a list of type names, not a single string: {value!r}")
    items = tuple(value)
    if not all(isinstance(item, str) for item in items):
        raise TypeError(f"types must hold str type names, got {items!r}")
    return items


class ClearResultJson(TypedDict):
    """A result row in the TypeScript shape."""

    source: str
    type: NotRequired[str]
    success: bool
    message: Text


class ClearContextJson(TypedDict):
    """The ``memory:clear`` hook context in the TypeScript shape (camelCase)."""

    scope: ClearScope
    types: NotRequired[list[str]]
    sessionId: NotRequired[str]
    results: list[ClearResultJson]


@attrs.frozen(kw_only=True)
class ClearResult:
    """One row a clearing participant pushes; ``message`` states success or failure itself."""

    source: str = attrs.field(validator=_str)
    success: bool = attrs.field(validator=_bool)
    message: Text = attrs.field(validator=_text)
    #: The clear type this row reports on (``"context"`` for the message history).
    type: str | None = attrs.field(default=None, validator=_optional_str)

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> ClearResult:
        if not isinstance(row, Mapping):
            raise TypeError(f"a result row must be an object, got {row!r}")
        return cls(
            source=row.get("source"),  # type: ignore[arg-type]  # validated by attrs
            success=row.get("success"),  # type: ignore[arg-type]
            message=row.get("message"),  # type: ignore[arg-type]
            type=row.get("type"),
        )


def _results(value: Iterable[ClearResult | Mapping[str, Any]]) -> tuple[ClearResult, ...]:
    if isinstance(value, str | bytes | Mapping):
        raise TypeError(f"results must be a list of rows, got {value!r}")
    return tuple(r if isinstance(r, ClearResult) else ClearResult.from_json(r) for r in value)


@attrs.frozen(kw_only=True)
class ClearContext:
    """The ``memory:clear`` context: what was asked to be cleared and what each party reported."""

    scope: ClearScope = attrs.field(validator=_scope)
    results: tuple[ClearResult, ...] = attrs.field(factory=tuple, converter=_results)
    #: Clear types asked for; ``None`` means every type.
    types: tuple[str, ...] | None = attrs.field(default=None, converter=_str_tuple)
    session_id: str | None = attrs.field(default=None, validator=_optional_str)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClearContext:
        if not isinstance(data, Mapping):
            raise TypeError(f"a memory:clear context must be an object, got {data!r}")
        return cls(
            scope=data.get("scope"),  # type: ignore[arg-type]  # validated by attrs
            results=data.get("results", ()),
            types=data.get("types"),
            session_id=data.get("sessionId"),
        )


def history_cleared(data: ClearContext | ClearContextJson | Mapping[str, Any]) -> bool:
    """Did this clear remove the message history? Dependants act only on ``True``.

    The history must have been asked for (no types, or ``"context"`` among them), at least one
    ``context`` row must report on it, and every such row must have succeeded.
    """
    context = data if isinstance(data, ClearContext) else ClearContext.from_json(data)
    if context.types is not None and CONTEXT_TYPE not in context.types:
        return False
    rows = [row for row in context.results if row.type == CONTEXT_TYPE]
    return bool(rows) and all(row.success for row in rows)


class InfoLogger(Protocol):
    """The one logging call the helpers make (``logging.Logger`` fits)."""

    def info(self, msg: str, /, *args: Any) -> Any: ...


def _namespaces(namespaces: Iterable[str]) -> list[str]:
    if isinstance(namespaces, str | bytes):
        raise TypeError(f"namespaces must be a list of names, not a single string: {namespaces!r}")
    unique: list[str] = []
    for namespace in namespaces:
        if not isinstance(namespace, str):
            raise TypeError(f"a namespace must be a str, got {namespace!r}")
        if namespace not in unique:
            unique.append(namespace)
    return unique


def unreadable_line(unreadable: Sequence[str]) -> str:
    """The info line naming unreadable entries (``namespace/key``), the first few then a count."""
    named = ", ".join(unreadable[:LOG_NAMED_MAX])
    more = len(unreadable) - LOG_NAMED_MAX
    tail = f" and {more} more" if more > 0 else ""
    return f"cleared {len(unreadable)} unreadable metadata entries: {named}{tail}"


#: The shape of :func:`clear_metadata_namespaces` (the kit judges any implementation of it).
ClearNamespaces: TypeAlias = Callable[
    [MemoryService, Iterable[str], InfoLogger], Awaitable[dict[str, list[str]]]
]


async def clear_metadata_namespaces(
    memory: MemoryService, namespaces: Iterable[str], logger: InfoLogger
) -> dict[str, list[str]]:
    """Delete every entry of ``namespaces`` in one ``commit_metadata``.

    Returns the deleted keys per namespace, namespaces in input order (a repeated name once).
    With ``list_metadata_keys`` unreadable entries are deleted too and named in one info line;
    without it the keys come from ``list_metadata``, which cannot see them, so they stay.
    """
    names = _namespaces(namespaces)
    list_keys = getattr(memory, "list_metadata_keys", None)
    deleted: dict[str, list[str]] = {}
    unreadable: list[str] = []
    for namespace in names:
        if callable(list_keys):
            keys = list(await list_keys(namespace))
            readable = {entry.key for entry in await memory.list_metadata(namespace)}
            unreadable.extend(f"{namespace}/{key}" for key in keys if key not in readable)
        else:
            keys = [entry.key for entry in await memory.list_metadata(namespace)]
        deleted[namespace] = keys
    ops = [MetadataDel(namespace, key) for namespace, keys in deleted.items() for key in keys]
    if ops:
        await memory.commit_metadata(ops)
    if unreadable:
        logger.info(unreadable_line(unreadable))
    return deleted


@attrs.frozen(kw_only=True)
class ClearTypeContribution:
    """A ``memory:clear-type`` contribution: the type name (``/clear -t``) and its label."""

    id: str = attrs.field(validator=_str)
    label: Text = attrs.field(validator=_text)


class ClearTypeRegistry:
    """The collected clear types, in collection order; the first registrant names a type."""

    def __init__(self, contributions: Iterable[ClearTypeContribution] = ()) -> None:
        self._labels: dict[str, Text] = {}
        for contribution in contributions:
            self.add(contribution)

    def add(self, contribution: ClearTypeContribution) -> None:
        if not isinstance(contribution, ClearTypeContribution):
            raise TypeError(f"expected a ClearTypeContribution, got {contribution!r}")
        self._labels.setdefault(contribution.id, contribution.label)

    def __contains__(self, type_id: object) -> bool:
        return type_id in self._labels

    def label(self, type_id: str) -> Text:
        """The display name; an unregistered type raises ``KeyError``."""
        return self._labels[type_id]

    def ids(self) -> list[str]:
        """Registered type names in collection order (what the help text lists)."""
        return list(self._labels)

    def unknown(self, types: Iterable[str]) -> list[str]:
        """Requested types nobody registered (``/clear`` refuses them)."""
        return [t for t in _str_tuple(types) or () if t not in self._labels]


@runtime_checkable
class ClearParticipant(Protocol):
    """A plugin that keeps data in metadata and so takes part in ``memory:clear``.

    ``clear_types`` are its ``memory:clear-type`` contributions; ``on_clear`` runs after the
    history was cleared (after ``next()``) and clears its namespaces by the context's scope and
    types, answering with one row tagged with its type, success or not (``None`` when the clear
    asked for none of its types).
    """

    @property
    def clear_types(self) -> Sequence[ClearTypeContribution]: ...

    async def on_clear(self, context: ClearContext) -> ClearResult | None: ...


def handled_types(results: Iterable[ClearResult]) -> set[str]:
    """Types some result row names, successful or not: only those have a handler."""
    return {row.type for row in _results(results) if row.type is not None}


def unhandled_types(context: ClearContext) -> list[str]:
    """Explicitly requested types no result row names (the receipt reports them as unhandled)."""
    handled = handled_types(context.results)
    return [t for t in context.types or () if t not in handled]


__all__ = [
    "CONTEXT_TYPE",
    "LOG_NAMED_MAX",
    "ClearContext",
    "ClearContextJson",
    "ClearNamespaces",
    "ClearParticipant",
    "ClearResult",
    "ClearResultJson",
    "ClearScope",
    "ClearTypeContribution",
    "ClearTypeRegistry",
    "InfoLogger",
    "Text",
    "clear_metadata_namespaces",
    "handled_types",
    "history_cleared",
    "unhandled_types",
    "unreadable_line",
]
