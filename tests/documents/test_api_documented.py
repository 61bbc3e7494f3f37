"""Every public argument and field of the registration API is written down where a backend author
looks (issue 27): docs/contract.md's "Registering a driver" shows each with its exact type and
what it is for (generated from the source, so a field without a ``#:`` comment shows an empty
cell), and the README's "Registering your backend" has a row for each.

The names come from the code (``inspect.signature(memory_driver)``, ``attrs.fields``), never from
a list kept here: an argument or field added to the API fails these tests until it is documented.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

import aalis_memory.conformance as conformance
from aalis_memory.conformance import Capabilities, DriverContext, DriverRegistration, memory_driver
from aalis_memory.conformance.docgen import contract_doc

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / contract_doc.OUTPUT).read_text(encoding="utf-8")
README = (REPO / "README.md").read_text(encoding="utf-8")


def _annotation(hint: Any) -> str:
    return hint if isinstance(hint, str) else inspect.formatannotation(hint)


def arguments(register: Callable[..., Any], returned: type) -> dict[str, str]:
    """Every argument of ``register`` and every field of the ``returned`` registration, each with
    its type (the argument's when both have it)."""
    found = {field.name: _annotation(field.type) for field in attrs.fields(returned)}
    found |= {
        name: _annotation(param.annotation) for name, param in inspect.signature(register).parameters.items()
    }
    return found


def fields(cls: type) -> dict[str, str]:
    return {field.name: _annotation(field.type) for field in attrs.fields(cls)}


def section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of the same or a higher level."""
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n") + 1
    ends = [m.start() for m in re.finditer(rf"\n#{{1,{len(level)}}} ", text[start + 1 :])]
    return text[start : start + 1 + ends[0]] if ends else text[start:]


def rows(text: str) -> dict[str, list[str]]:
    """The cells after the first of each table row whose first cell is a `name`, by name."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        match = re.match(r"\| `(\w+)` \|(.*)\|\s*$", line)
        if match:
            cells = re.split(r"(?<!\\)\|", match.group(2))
            found.setdefault(match.group(1), [c.strip().replace("\\|", "|") for c in cells])
    return found


def undocumented(expected: Mapping[str, str | None], text: str, *, typed: bool = True) -> list[str]:
    """What ``text`` fails to say of each expected name: no table row, an empty description (the
    last cell) or, when ``typed``, a type other than the expected one (the cell after the name;
    an expected ``None``: any type, but one)."""
    found = rows(text)
    problems = []
    for name, hint in expected.items():
        cells = found.get(name)
        if cells is None:
            problems.append(f"{name}: no row")
            continue
        shown = cells[0].strip("`")
        if typed and ((hint is not None and shown != hint) or not shown):
            problems.append(f"{name}: type shown {shown!r}, not {hint!r}")
        if not cells[-1] or (typed and len(cells) < 2):
            problems.append(f"{name}: says nothing of what it is for")
    return problems


ARGUMENTS = "### `memory_driver` arguments"


# -- docs/contract.md: exact types, and what each is for -------------------------------------------


def test_every_memory_driver_argument_and_registration_field_is_documented() -> None:
    expected = arguments(memory_driver, DriverRegistration)
    assert {"name", "factory", "raw_metadata", "session_setup"} <= set(expected)
    assert undocumented(expected, section(DOC, ARGUMENTS)) == []


@pytest.mark.parametrize("cls", [DriverContext, Capabilities])
def test_every_field_is_documented(cls: type) -> None:
    assert undocumented(fields(cls), section(DOC, f"### {cls.__name__}")) == []


def test_every_type_alias_a_type_names_is_explained() -> None:
    """``RawMetadataHook | None`` says little until ``RawMetadataHook`` is spelled out."""
    named = " ".join(
        [
            *arguments(memory_driver, DriverRegistration).values(),
            *fields(DriverContext).values(),
            *fields(Capabilities).values(),
        ]
    )
    aliases = [
        a for a in contract_doc.type_aliases(DriverRegistration.__module__) if re.search(rf"\b{a}\b", named)
    ]
    assert "RawMetadataHook" in aliases
    explained = section(DOC, "### Types named above")
    for alias in aliases:
        line = next((x for x in explained.splitlines() if x.startswith(f"- `{alias}: ")), None)
        assert line is not None, f"{alias} is not spelled out"
        assert line.split("`: ", 1)[1:] != [""], f"{alias} says nothing"


def test_a_hook_that_may_be_async_says_so() -> None:
    found = rows(section(DOC, ARGUMENTS))
    for hook in ("raw_metadata", "crash_cleanup"):
        assert re.search(r"\basync\b", found[hook][-1]), hook


def test_every_export_is_documented() -> None:
    table = section(DOC, "### Everything `aalis_memory.conformance` exports")
    assert undocumented(dict.fromkeys(conformance.__all__), table, typed=False) == []


# -- README: a row for each --------------------------------------------------------------------------


def test_the_readme_has_a_row_for_every_argument_and_field() -> None:
    text = section(README, "## Registering your backend")
    expected: dict[str, str | None] = dict.fromkeys(arguments(memory_driver, DriverRegistration))
    assert undocumented(expected, text) == []
    for cls in (DriverContext, Capabilities):
        assert undocumented(dict.fromkeys(fields(cls)), text) == [], cls.__name__
    assert "docs/contract.md#registering-a-driver" in text


# -- the check fails when something is left out ------------------------------------------------------


@attrs.frozen(kw_only=True)
class _GrownContext(DriverContext):
    """A context with one field more than the documented one."""

    #: Documented in the source, so only a stale docs/contract.md lacks it.
    fresh: bool = False


@attrs.frozen
class _HalfSaid:
    #: What ``said`` is for.
    said: int
    unsaid: str = ""


def _grown_register() -> None:
    """``memory_driver`` with one argument more (its signature is set below)."""


_grown_register.__signature__ = inspect.signature(memory_driver).replace(  # type: ignore[attr-defined]
    parameters=[
        *inspect.signature(memory_driver).parameters.values(),
        inspect.Parameter(
            "fresh_store", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="FreshStore | None"
        ),
    ]
)


def test_a_field_or_argument_added_to_the_api_is_reported() -> None:
    assert undocumented(fields(_GrownContext), section(DOC, "### DriverContext")) == ["fresh: no row"]
    expected = arguments(_grown_register, DriverRegistration)
    assert undocumented(expected, section(DOC, ARGUMENTS)) == ["fresh_store: no row"]
    assert undocumented(dict.fromkeys(expected), section(README, "## Registering your backend")) == [
        "fresh_store: no row"
    ]


def test_a_field_without_a_comment_is_reported_once_generated() -> None:
    """The generated table shows a field the source leaves uncommented with an empty cell."""
    table = "\n".join(contract_doc.field_table(_HalfSaid, "Field"))
    assert undocumented(fields(_HalfSaid), table) == ["unsaid: says nothing of what it is for"]


def test_an_export_without_a_description_is_reported() -> None:
    text = "| Name | What |\n|---|---|\n| `said` | a thing |\n| `unsaid` |  |\n"
    assert undocumented(dict.fromkeys(["said", "unsaid", "absent"]), text, typed=False) == [
        "unsaid: says nothing of what it is for",
        "absent: no row",
    ]


def test_a_wrong_type_is_reported() -> None:
    text = "| Field | Type | What |\n|---|---|---|\n| `a` | `int \\| None` | it counts |\n"
    assert undocumented({"a": "int | None"}, text) == []
    assert undocumented({"a": "int"}, text) == ["a: type shown 'int | None', not 'int'"]
    assert undocumented({"a": None}, "| `a` | | it counts |\n") == ["a: type shown '', not None"]
