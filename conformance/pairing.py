"""Saved messages paired with the ones a read returned, by identity rather than position: a field
check then compares each message with itself, whatever order the read returned them in."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aalis_memory.types import Message


def paired(saved: Sequence[Message], got: Sequence[Message]) -> list[tuple[Message, Message]]:
    """``saved`` each with the returned message that is most plainly the same one: an equal one,
    then the only one with its timestamp, then the only one with its content, then the rest in
    order."""
    left = list(got)
    pairs: dict[int, Message] = {}

    def take(index: int, found: Message) -> None:
        pairs[index] = found
        left.remove(found)

    for index, want in enumerate(saved):
        if want in left:
            take(index, want)
    keys: tuple[Callable[[Message], object], ...] = (lambda m: m.timestamp, lambda m: m.content)
    for key in keys:
        for index, want in enumerate(saved):
            if index in pairs:
                continue
            matches = [m for m in left if key(m) == key(want)]
            if len(matches) == 1:
                take(index, matches[0])
    for index in range(len(saved)):
        if index not in pairs:
            take(index, left[0])
    return [(saved[index], pairs[index]) for index in range(len(saved))]


__all__ = ["paired"]
