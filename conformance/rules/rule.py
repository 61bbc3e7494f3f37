"""What a rule is: a stable ID, a level, its ground, whom it binds, a paraphrase, and the
methods it judges.

A rule must show why it exists without any file its user cannot open. A MUST rule cites the
exact words of a document (document, section, one short verbatim clause) so that a repository
test can prove the citation against the text; a SHOULD rule states the silent point it reads and
the one-line argument for its reading.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final

import attrs

from aalis_memory.conformance.rules.english import ENGLISH
from aalis_memory.service import OPTIONAL_METHODS, REQUIRED_METHODS

#: A citation is a clause, not a paragraph: longer phrases are refused.
MAX_PHRASE: Final = 60


class Level(enum.Enum):
    """MUST rules are stated by the documents; SHOULD rules are this project's reading of a point
    they leave open. A broken SHOULD is an advisory unless ``--memory-strict``."""

    MUST = "MUST"
    SHOULD = "SHOULD"


MUST = Level.MUST
SHOULD = Level.SHOULD


@attrs.frozen
class Document:
    """A document rules cite: its short name, its file, and its section headings in order."""

    name: str
    file: str
    sections: tuple[str, ...]


#: The two documents of the contract, by the short name citations use.
DOCUMENTS: Final[Mapping[str, Document]] = MappingProxyType(
    {
        "api-memory": Document(
            "api-memory",
            "api-memory.zh.md",
            (
                "概述",
                "核心方法",
                "消费方式",
                "跨会话取料的范围",
                "压缩服务",
                "触发判定",
                "钩子与贡献点",
                "记忆变更事件",
                "实现者",
                "相关",
            ),
        ),
        "plugin-memory-mongodb": Document(
            "plugin-memory-mongodb",
            "plugin-memory-mongodb.zh.md",
            ("概述", "插件声明", "配置", "特性"),
        ),
    }
)


def _document(_instance: object, _attribute: attrs.Attribute[str], value: str) -> None:
    if value not in DOCUMENTS:
        raise ValueError(f"unknown document {value!r}; known: {sorted(DOCUMENTS)}")


def _phrase(_instance: object, _attribute: attrs.Attribute[str], value: str) -> None:
    if not value.strip() or "\n" in value or len(value) > MAX_PHRASE:
        raise ValueError(f"a cited phrase is one clause of at most {MAX_PHRASE} characters: {value!r}")


@attrs.frozen
class Citation:
    """The exact words a rule rests on: ``phrase`` occurs verbatim in ``section`` of ``document``;
    ``english`` renders it, shown beside it wherever the phrase is shown."""

    document: str = attrs.field(validator=_document)
    section: str
    phrase: str = attrs.field(validator=_phrase)
    english: str

    def __attrs_post_init__(self) -> None:
        if self.section not in DOCUMENTS[self.document].sections:
            raise ValueError(f"{self.document} has no section {self.section!r}")
        if not self.english.strip() or "\n" in self.english:
            raise ValueError(
                f"the cited phrase {self.phrase!r} has no English rendering: add a one-line "
                "rendering to aalis_memory.conformance.rules.english.ENGLISH (or pass english=...)"
            )

    @property
    def where(self) -> str:
        return f"{self.document} §{self.section}"

    def quoted(self) -> str:
        """The phrase and its English: ``“原文” (the English)``."""
        return f"“{self.phrase}” ({self.english})"

    def render(self) -> str:
        return f"{self.where} {self.quoted()}"


@attrs.frozen
class Reading:
    """The kit's reading of a point the documents leave open, and why it reads it so."""

    #: What the documents leave open (the rule's summary says how the kit reads it).
    point: str
    #: One line: why this reading and not another.
    argument: str

    def render(self) -> str:
        return f"reading of a silent point ({self.point}): {self.argument}"


@attrs.frozen
class Binds:
    """Whom a rule binds. A rule stated only for one backend (the MongoDB document) binds another
    backend only where it declares the same ``feature``."""

    who: str
    #: The feature a backend must have for the rule to bind it (``None``: it binds all of ``who``).
    feature: str | None = None


#: Storage rules of api-memory: every MemoryService backend.
EVERY_BACKEND: Final = Binds("every backend")
#: Rules the MongoDB document states about its caps: other backends only where they have the cap.
RANGE_CAP: Final = Binds("backends with a range cap", feature="range cap")
CROSS_SESSION_CAP: Final = Binds("backends with a cross-session cap", feature="cross-session cap")
#: The MongoDB document's own configuration, storage and lifecycle: the kit's mongodb driver.
MONGODB_DRIVER: Final = Binds("the mongodb driver")
#: The compression service: every compression provider.
PROVIDERS: Final = Binds("every compression provider")
#: Plugins that keep data in metadata (the kit checks compression providers).
METADATA_KEEPERS: Final = Binds("plugins keeping data in metadata")
#: Pure helpers the contract defines (trigger arithmetic, clearing helpers), whoever ships them.
HELPERS: Final = Binds("the contract's helper functions")


def _cites(value: tuple[Citation, ...] | list[Citation]) -> tuple[Citation, ...]:
    return tuple(value)


def _subjects(value: Iterable[str] | None) -> frozenset[str] | None:
    if value is None:
        return None
    methods = frozenset(value)
    unknown = sorted(methods.difference(REQUIRED_METHODS, OPTIONAL_METHODS))
    if unknown:
        raise ValueError(f"subjects name no contract method: {unknown}")
    return methods


@attrs.frozen
class Rule:
    """One checkable statement. ``source`` names where it comes from in a few words; ``cites``
    (MUST) and ``reading`` (SHOULD) are its ground, shown in SPEC_MAP.md and in every failure."""

    id: str
    level: Level
    source: str
    summary: str
    cites: tuple[Citation, ...] = attrs.field(default=(), converter=_cites)
    reading: Reading | None = None
    binds: Binds = EVERY_BACKEND
    #: Whether the rule is about the order of what a read returns. Every other rule compares
    #: the records a read returned without their order (see ``checks.expect_equal``): a
    #: history in the wrong order breaks the order rules alone.
    judges_order: bool = False
    #: The contract methods whose calls the rule judges: in its tests a call of any other method
    #: is a step, which blocks the test when it fails (see ``conformance.steps``). ``None``: every
    #: call is under test (hostile input, concurrency); empty: none is, the rule is about kit
    #: code run over the store (the clearing helper).
    subjects: frozenset[str] | None = attrs.field(default=None, converter=_subjects)
    #: Whether the state machine judges the rule: its generated histories may blame it and
    #: report it checked (its suite test names every such rule).
    machine: bool = False
    #: Whether the rule fixes which messages a window read of its subjects returns, besides its
    #: limit (a window the state machine finds wrong may be its fault).
    window: bool = False
    #: Whether the rule says what a read of its subjects returns for a limit of math.inf.
    infinity: bool = False

    def ground(self) -> str:
        """The ground on one line: the cited words, or the reading and its argument."""
        parts = [c.render() for c in self.cites]
        if self.reading is not None:
            parts.append(self.reading.render())
        return "; ".join(parts) or f"(no ground given; source: {self.source})"

    def binding(self) -> str:
        """Whom the rule binds, as SPEC_MAP.md shows it."""
        return self.binds.who


def cite(document: str, section: str, phrase: str, english: str | None = None) -> Citation:
    """The words ``phrase`` of ``section`` of ``document``. Its English rendering is ``english``,
    or by default the one kept for the phrase in :mod:`aalis_memory.conformance.rules.english`;
    a phrase with neither is refused (every cited phrase is shown with its English)."""
    return Citation(document, section, phrase, ENGLISH.get(phrase, "") if english is None else english)


def _where(cites: tuple[Citation, ...]) -> str:
    return "; ".join(dict.fromkeys(c.where for c in cites))


def must(
    rule_id: str,
    summary: str,
    *cites: Citation,
    binds: Binds = EVERY_BACKEND,
    subjects: Iterable[str] | None = None,
    machine: bool = False,
    window: bool = False,
    infinity: bool = False,
) -> Rule:
    """A rule the documents state; ``cites`` are the words it rests on (at least one),
    ``subjects`` the methods it judges (see :attr:`Rule.subjects`), ``machine``, ``window`` and
    ``infinity`` as :class:`Rule`'s."""
    if not cites:
        raise ValueError(f"MUST rule {rule_id} needs the words it rests on")
    return Rule(
        rule_id,
        MUST,
        _where(cites),
        summary,
        cites=cites,
        binds=binds,
        subjects=subjects,
        machine=machine,
        window=window,
        infinity=infinity,
    )


def should(
    rule_id: str,
    summary: str,
    *,
    point: str,
    argument: str,
    cites: tuple[Citation, ...] = (),
    binds: Binds = EVERY_BACKEND,
    subjects: Iterable[str] | None = None,
    machine: bool = False,
    window: bool = False,
    infinity: bool = False,
) -> Rule:
    """A reading of a silent point: ``summary`` is the reading, ``point`` what the documents leave
    open, ``argument`` why; ``cites`` the nearby words it builds on, if any; ``subjects``,
    ``machine``, ``window`` and ``infinity`` as for :func:`must`."""
    source = "; ".join(filter(None, [_where(cites), "this project's reading"]))
    return Rule(
        rule_id,
        SHOULD,
        source,
        summary,
        cites=cites,
        reading=Reading(point, argument),
        binds=binds,
        subjects=subjects,
        machine=machine,
        window=window,
        infinity=infinity,
    )


def ordered(rule: Rule) -> Rule:
    """``rule``, marked as one whose words are about the order of a read's records."""
    return attrs.evolve(rule, judges_order=True)


@attrs.frozen
class OutOfScope:
    """A statement of the documents that is not checked, with the reason."""

    source: str
    statement: str
    reason: str


__all__ = [
    "CROSS_SESSION_CAP",
    "DOCUMENTS",
    "EVERY_BACKEND",
    "HELPERS",
    "MAX_PHRASE",
    "METADATA_KEEPERS",
    "MONGODB_DRIVER",
    "MUST",
    "PROVIDERS",
    "RANGE_CAP",
    "SHOULD",
    "Binds",
    "Citation",
    "Document",
    "Level",
    "OutOfScope",
    "Reading",
    "Rule",
    "cite",
    "must",
    "ordered",
    "should",
]
