"""The contract is readable from the package: every method of the protocol says which rules it
answers to, by IDs that exist (a renamed or retired rule cannot linger in a docstring)."""

from __future__ import annotations

import fnmatch
import inspect
import re

import pytest

from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.service import OPTIONAL_METHODS, REQUIRED_METHODS, FullMemoryService

RULE_REF = re.compile(r"\b([A-Z]+-(?:\d\d|\*))(?:\.\.([A-Z]+-\d\d))?")


@pytest.mark.parametrize("method", REQUIRED_METHODS + OPTIONAL_METHODS)
def test_each_method_names_its_rules(method: str) -> None:
    doc = inspect.getdoc(getattr(FullMemoryService, method)) or ""
    named = RULE_REF.findall(doc)
    assert named, f"MemoryService.{method} has no docstring naming its rules"
    for first, last in named:
        for rule in (first, last) if last else (first,):
            assert fnmatch.filter(CATALOGUE, rule), f"{method} names {rule}, not in the catalogue"
