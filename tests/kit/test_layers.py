"""The rooms of the installed package and the one direction its imports run: a module imports its
own room and the rooms above it in :data:`ROOMS`, never one below, and no modules import each
other in a circle.

Read statically (``ast``, no module is imported), so the test sees every import, those inside a
function too: an import placed in a function to dodge a cycle is still the cycle. Imports under
``if TYPE_CHECKING:`` never run and are left out; a function-level import must say why it is
there in a comment on its line or the line above (an optional dependency such as pymongo, a
command that alone needs a heavy room).
"""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import attrs
import pytest

ROOT: Final = Path(__file__).resolve().parents[2]


@attrs.frozen
class Room:
    name: str
    #: The packages or modules it holds: a module is in the room of the longest one it is, or
    #: is inside.
    holds: tuple[str, ...]
    why: str


#: The rooms, in the order a result travels: a room may import the rooms above it, never one
#: below. The README's layout table lists them in the same order.
ROOMS: Final = (
    Room("contract", ("aalis_memory",), "the contract itself: every other room is about it"),
    Room("rules", ("aalis_memory.conformance.rules",), "the catalogue and the states a verdict takes"),
    Room(
        "steps",
        ("aalis_memory.conformance.steps",),
        "a test's call under test, the steps around it and the rules they stand on",
    ),
    Room(
        "properties",
        ("aalis_memory.conformance.item_properties",),
        "what a test hands the judging besides its checks (the machine's counts, the probe's notes)",
    ),
    Room(
        "checks",
        (
            "aalis_memory.conformance.checks",
            "aalis_memory.conformance.json_values",
            "aalis_memory.conformance.values",
            "aalis_memory.conformance.differences",
            "aalis_memory.conformance.pairing",
            "aalis_memory.conformance.failure_text",
        ),
        "a test's assertions, each naming its rule, and how a value reads in a failure",
    ),
    Room("registration", ("aalis_memory.conformance.registration",), "what a driver declares"),
    Room("suites", ("aalis_memory.conformance.suites",), "where the suite packages are"),
    Room("package", ("aalis_memory.conformance",), "the kit's public names, from the rooms above"),
    Room(
        "harness",
        ("aalis_memory.conformance.harness",),
        "around every driver call: the guarded store, the run's state, the watchdog",
    ),
    Room(
        "drivers",
        ("aalis_memory.drivers", "aalis_memory.fixtures"),
        "the reference and stdio drivers and their test servers, registered with registration",
    ),
    Room("probes", ("aalis_memory.conformance.probes",), "running a driver harder"),
    Room("machine", ("aalis_memory.conformance.machine",), "the state machine over the contract's model"),
    Room("suite", ("aalis_memory.conformance.suite",), "the tests, the state machine's among them"),
    Room("verdicts", ("aalis_memory.conformance.verdicts",), "judging a test's outcomes, and the reports"),
    Room(
        "compression",
        ("aalis_memory.conformance.compression",),
        "the reference compression provider and the provider kit: its suite and its plugin",
    ),
    Room("plugin", ("aalis_memory.conformance.plugin",), "the pytest plugin: it wires every room above"),
    Room("docgen", ("aalis_memory.conformance.docgen",), "the generated documents and the rule CLI"),
    Room("main", ("aalis_memory.conformance.__main__",), "python -m aalis_memory.conformance"),
)

#: Imports that still run back up, each with the reason it waits; the test fails once one is gone,
#: so the list only shrinks. Empty: every room imports only the rooms above it.
WAITING: Final[dict[tuple[str, str], str]] = {}


@attrs.frozen
class Import:
    importer: str
    imported: str
    path: Path
    line: int
    text: str

    def where(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


def _packages() -> list[str]:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    return list(setuptools["packages"])


def _modules() -> dict[str, Path]:
    """Every module of the installed package, by name (found, not imported)."""
    modules: dict[str, Path] = {}
    for package in _packages():
        spec = importlib.util.find_spec(package)
        assert spec is not None, package
        assert spec.submodule_search_locations, package
        for folder in map(Path, spec.submodule_search_locations):
            for file in sorted(folder.glob("*.py")):
                modules[package if file.stem == "__init__" else f"{package}.{file.stem}"] = file
    return modules


MODULES: Final = _modules()


def room_of(module: str) -> Room:
    held = [(len(h), room) for room in ROOMS for h in room.holds if module == h or module.startswith(h + ".")]
    assert held, f"{module} is in no room of ROOMS"
    return max(held, key=lambda pair: pair[0])[1]


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, in_function: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking(child):
            yield from (pair for orelse in child.orelse for pair in _walk_one(orelse, in_function))
            continue
        yield from _walk_one(child, in_function)


def _walk_one(node: ast.AST, in_function: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node, in_function
        return
    inner = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
    yield from _walk(node, inner)


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The kit's modules an import statement loads: a submodule when it names one, else the
    package or module it names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = module.split(".")
            if MODULES[module].name != "__init__.py":
                parts = parts[:-1]
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
    found = []
    for name in names:
        while name not in MODULES and "." in name:
            name = name.rsplit(".", 1)[0]
        if name in MODULES and name not in found:
            found.append(name)
    return found


def _says_why(comment: str) -> bool:
    """A comment with words in it besides a linter's or a type checker's directive."""
    return bool(re.search(r"[a-z]{3}", _DIRECTIVE.sub("", comment)))


_DIRECTIVE: Final = re.compile(r"noqa(: *[A-Z0-9, ]+)?|type: *ignore(\[[^\]]*\])?")


def _imports() -> tuple[list[Import], list[Import]]:
    """Every import of one of the kit's modules by another, and the function-level ones whose
    line (or the line above) carries no comment saying why."""
    imports: list[Import] = []
    unexplained: list[Import] = []
    for module, path in MODULES.items():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node, in_function in _walk(ast.parse(source, str(path)), False):
            text = lines[node.lineno - 1].strip()
            for target in _targets(module, node):
                if target == module:
                    continue
                found = Import(module, target, path, node.lineno, text)
                imports.append(found)
                above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
                if in_function and not (
                    _says_why(text.partition("#")[2]) or _says_why(above[1:] if above.startswith("#") else "")
                ):
                    unexplained.append(found)
    return imports, unexplained


IMPORTS, UNEXPLAINED = _imports()


def test_every_package_is_read() -> None:
    """A package folder missing from ``packages`` would be left out of the graph (and the wheel)."""
    packages = set(_packages())
    for package in packages:
        spec = importlib.util.find_spec(package)
        assert spec is not None
        assert spec.submodule_search_locations
        for folder in map(Path, spec.submodule_search_locations):
            for init in folder.glob("*/__init__.py"):
                assert f"{package}.{init.parent.name}" in packages, init.parent


def test_every_module_has_a_room() -> None:
    assert len(MODULES) > 100
    rooms = {room_of(module).name for module in MODULES}
    assert rooms == {room.name for room in ROOMS}, "a room that holds nothing"


def test_no_import_runs_back_up() -> None:
    order = {room.name: index for index, room in enumerate(ROOMS)}
    upward = [i for i in IMPORTS if order[room_of(i.imported).name] > order[room_of(i.importer).name]]
    found = {(i.importer, i.imported) for i in upward}
    lines = [
        f"{i.where()}\n    {i.importer} ({room_of(i.importer).name}) imports {i.imported} "
        f"({room_of(i.imported).name}, below it)"
        for i in upward
        if (i.importer, i.imported) not in WAITING
    ]
    assert not lines, "imports that run back up the rooms' order:\n" + "\n".join(lines)
    gone = sorted(set(WAITING) - found)
    assert not gone, f"no longer imported, remove from WAITING: {gone}"


def test_no_import_cycle() -> None:
    graph: dict[str, list[Import]] = {}
    for i in IMPORTS:
        graph.setdefault(i.importer, []).append(i)
    cycles: list[list[Import]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[Import] = []

    def visit(module: str) -> None:
        state[module] = 1
        for edge in graph.get(module, []):
            if state.get(edge.imported) == 1:
                start = next(n for n, e in enumerate(path) if e.importer == edge.imported) if path else 0
                cycles.append([*path[start:], edge])
            elif edge.imported not in state:
                path.append(edge)
                visit(edge.imported)
                path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    text = "\n\n".join("\n".join(f"  {e.importer} -> {e.imported}  ({e.where()})" for e in c) for c in cycles)
    assert not cycles, f"modules that import each other in a circle:\n{text}"


def test_function_level_imports_say_why() -> None:
    lines = [f"{i.where()}  ({i.importer} -> {i.imported})" for i in UNEXPLAINED]
    assert not lines, (
        "imports inside a function, without a comment saying why (move them to the top, or "
        "say why they must wait):\n" + "\n".join(lines)
    )


def test_the_readme_lists_the_rooms_in_their_order() -> None:
    """The README's layout table is where a newcomer reads the order: the installed rows (those
    with an import name) name the rooms in the order of :data:`ROOMS`."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    packages = {folder: package for package, folder in setuptools["package-dir"].items()}
    table = (ROOT / "README.md").read_text(encoding="utf-8").split("## Layout", 1)[1].split("\n## ", 1)[0]
    seen: list[str] = []
    for shown in re.findall(r"^\| `([^`]+)` \| `", table, re.MULTILINE):
        path = Path(shown.rstrip("/"))
        module = f"{packages[str(path.parent)]}.{path.stem}" if path.suffix == ".py" else packages[str(path)]
        room = room_of(module).name
        if room not in seen:
            seen.append(room)
    assert seen == [room.name for room in ROOMS]


@pytest.mark.parametrize(
    ("module", "room"),
    [
        ("aalis_memory.types", "contract"),
        ("aalis_memory.conformance.checks", "checks"),
        ("aalis_memory.conformance", "package"),
        ("aalis_memory.conformance.suite.history", "suite"),
        ("aalis_memory.drivers.stdio.client", "drivers"),
        ("aalis_memory.fixtures.mongodb_server", "drivers"),
        ("aalis_memory.conformance.compression.summary", "compression"),
    ],
)
def test_rooms_are_found_by_the_longest_name(module: str, room: str) -> None:
    assert room_of(module).name == room
