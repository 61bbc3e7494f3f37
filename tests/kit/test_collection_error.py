"""A test module that fails to import is pytest's collection error, reported as such: the kit's
reporter never raises on it (its report has no ``user_properties``; the kit's status hook once
died on it with an AttributeError after pytest's summary)."""

from __future__ import annotations

import pytest


def test_a_collection_error_does_not_crash_the_reporter(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\n")  # never this repository's configuration
    pytester.makepyfile(test_broken_import="import a_module_that_is_not_there\n\ndef test_x():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--memory-driver=inmemory", "-k", "x")
    output = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.INTERRUPTED, output
    assert "ModuleNotFoundError" in output, output
    assert "Traceback (most recent call last)" not in output, output
    assert "AttributeError" not in output, output
