"""No module of the kit reads data back out of a result's text (issue 34).

A check's result is one typed record from the check to every report; its text is rendered from
the record's fields at the output. A module that takes a message, a skip reason, a note or a
detail apart again (``.startswith``, ``.removeprefix``, ``.partition``, a regular expression)
is reading a field that should have travelled as one: this scan fails on it.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[2] / "conformance"

#: Methods that take a string apart.
TAKERS: Final = frozenset(
    {"startswith", "endswith", "removeprefix", "removesuffix", "partition", "rpartition", "split", "rsplit"}
)
#: Names of a result's text.
TEXTS: Final = ("message", "reason", "note", "detail", "longrepr")

#: Legitimate uses, by module and the call's source, each with why it reads no result.
ALLOWED: Final = {
    # a driver's own exception text (never the kit's), cut to its first line for a case list
    ("checks.py", "str(exc).split(chr(10), 1)"),
    # the output's rendering itself: the check's own lines laid out around the rule's text (the
    # first under the rule's ID, the rest after its ground); no field is read from them
    ("failure_text.py", "detail.split('\\n', 1)"),
}


def _text_of(node: ast.AST) -> bool:
    """Whether ``node`` names a result's text (``outcome.message``, ``reason``, ...)."""
    source = ast.unparse(node)
    return any(word in source.lower() for word in TEXTS)


def offences(path: Path, root: Path = ROOT) -> list[str]:
    """Each call in ``path`` that takes a result's text apart, as ``file:line: source``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        func, source = node.func, ast.unparse(node)
        if any(path.name == name and call in source for name, call in ALLOWED):
            continue
        takes_apart = func.attr in TAKERS and _text_of(func.value)
        regex = isinstance(func.value, ast.Name) and func.value.id == "re" and any(map(_text_of, node.args))
        if takes_apart or regex:
            found.append(f"{path.relative_to(root)}:{node.lineno}: {source}")
    return found


def test_no_module_reads_a_field_back_out_of_a_result_text() -> None:
    found = [line for path in sorted(ROOT.rglob("*.py")) for line in offences(path, ROOT.parent)]
    assert not found, "text taken apart again (make it a field of the record):\n" + "\n".join(found)


def test_the_scan_sees_a_prefix_read_back(tmp_path: Path) -> None:
    """The scan can fail: the reading back the renovation removed is caught."""
    module = tmp_path / "old.py"  # what the kit did before
    module.write_text(
        "import re\n"
        "def f(reason, notes, outcome):\n"
        "    a = reason.startswith('unverified: ')\n"
        "    b = outcome.message.removeprefix('blocked by ')\n"
        "    c = re.search(r': (\\w+)\\(', notes[0] if notes else '')\n"
        "    d = exc.detail.partition('\\n')[0]\n"
    )
    found = offences(module, tmp_path)
    assert len(found) == 4, found
