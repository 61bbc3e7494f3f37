"""What a rule is: a stable ID, a level, where the documents say it, and a paraphrase."""

from __future__ import annotations

import enum

import attrs


class Level(enum.Enum):
    """MUST rules are stated by the documents; SHOULD rules are this project's reading of a
    silent point (READING_NOTES.md). A broken SHOULD is an advisory unless ``--memory-strict``."""

    MUST = "MUST"
    SHOULD = "SHOULD"


@attrs.frozen
class Rule:
    id: str
    level: Level
    source: str
    summary: str


@attrs.frozen
class OutOfScope:
    """A statement of the documents that is not a storage rule, with the reason it is not tested."""

    source: str
    statement: str
    reason: str


MUST = Level.MUST
SHOULD = Level.SHOULD
