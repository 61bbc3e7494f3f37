"""No module of the ``aalis_memory`` package writes another module's module-level state (issue
28): what a run learns is one object handed to whatever needs it
(:mod:`aalis_memory.conformance.harness.run_state`), never globals one module sets for another to
read.

A module may keep state of its own, written by its own functions (the driver registry that
``@memory_driver`` fills, a cache): the check is on the writer's side. It flags, in module M, a
write through a name that leads to another package module T: rebinding ``T.NAME``, setting an
item or an attribute of ``T.NAME`` (or of a name imported from T), ``setattr``/``delattr`` on
one, or a mutating method (``append``, ``update``, ``clear``...) of a mutable container T binds
at module level. Names a function binds itself (its parameters, its locals) are its own.
"""

from __future__ import annotations

import ast
import textwrap
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

REPO: Final = Path(__file__).resolve().parents[2]

#: Methods that change the container they are called on.
MUTATORS: Final = frozenset(
    {
        "append",
        "extend",
        "insert",
        "remove",
        "pop",
        "popitem",
        "clear",
        "update",
        "setdefault",
        "add",
        "discard",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
        "appendleft",
        "extendleft",
        "sort",
        "reverse",
    }
)
#: Calls that make a mutable container.
CONTAINER_CALLS: Final = frozenset(
    {
        "dict",
        "list",
        "set",
        "bytearray",
        "defaultdict",
        "OrderedDict",
        "Counter",
        "deque",
        "WeakKeyDictionary",
        "WeakValueDictionary",
        "WeakSet",
        "ChainMap",
    }
)


def package_sources() -> dict[str, str]:
    """Every module of the installed package, by dotted name (the folders of pyproject.toml's
    ``package-dir``: each lists one package's own files)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    sources: dict[str, str] = {}
    for package, folder in config["tool"]["setuptools"]["package-dir"].items():
        for path in sorted((REPO / folder).glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            sources[name] = path.read_text(encoding="utf-8")
    return sources


def foreign_writes(sources: Mapping[str, str]) -> list[str]:
    """``module:line: what`` for each write of another module's module-level state."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    containers = {name: _containers(tree) for name, tree in trees.items()}
    found: list[str] = []
    for name, tree in trees.items():
        package = any(other.startswith(f"{name}.") for other in trees)
        writer = _Writes(name, set(trees), containers, _imports(name, package, tree))
        writer.visit(tree)
        found += [f"{name}:{line}: {what}" for line, what in writer.found]
    return found


def _containers(tree: ast.Module) -> set[str]:
    """The names a module binds at its top level to a mutable container."""
    names: set[str] = set()
    for node in _top_level(tree.body):
        if isinstance(node, ast.Assign) and _is_container(node.value):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif (
            isinstance(node, ast.AnnAssign)
            and node.value is not None
            and _is_container(node.value)
            and isinstance(node.target, ast.Name)
        ):
            names.add(node.target.id)
    return names


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The module's statements, those inside a top-level ``if``/``try``/``with`` included."""
    for node in body:
        yield node
        if isinstance(node, ast.If | ast.With):
            yield from _top_level(node.body)
            yield from _top_level(getattr(node, "orelse", []))
        elif isinstance(node, ast.Try):
            for block in (
                node.body,
                node.orelse,
                node.finalbody,
                *(handler.body for handler in node.handlers),
            ):
                yield from _top_level(block)


def _is_container(value: ast.expr) -> bool:
    if isinstance(value, ast.Dict | ast.List | ast.Set | ast.DictComp | ast.ListComp | ast.SetComp):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        called = (
            func.id if isinstance(func, ast.Name) else (func.attr if isinstance(func, ast.Attribute) else "")
        )
        return called in CONTAINER_CALLS
    return False


def _imports(module: str, is_package: bool, tree: ast.Module) -> dict[str, str]:
    """Local name -> the dotted name it stands for, for every import of the module (relative
    ones start from ``module`` itself when it is a package's ``__init__``)."""
    package = module if is_package else module.rpartition(".")[0]
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname is not None:
                    bound[alias.asname] = alias.name
                else:
                    head = alias.name.partition(".")[0]
                    bound[head] = head
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{base}.{alias.name}"
    return bound


class _Writes(ast.NodeVisitor):
    """Collects one module's writes of other modules' state, scope by scope."""

    def __init__(
        self, module: str, modules: set[str], containers: Mapping[str, set[str]], imports: Mapping[str, str]
    ) -> None:
        self.module = module
        self.modules = modules
        self.containers = containers
        self.imports = imports
        self.scopes: list[set[str]] = []
        self.found: list[tuple[int, str]] = []

    # -- scopes: names a function binds are its own ---------------------------------------

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        arguments = node.args
        own = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
        own |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
        declared = {name for n in ast.walk(node) if isinstance(n, ast.Global) for name in n.names}
        own |= {
            n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        } - declared
        self.scopes.append(own)
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    # -- writes -------------------------------------------------------------------------

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Store | ast.Del):
            owner = self._owner(node)
            if owner is not None and len(owner[1]) == 1:
                self._flag(node, f"rebinds {owner[0]}.{owner[1][0]}")
            elif owner is not None:
                self._flag(node, f"sets attribute {node.attr} of {owner[0]}.{owner[1][0]}")
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, ast.Store | ast.Del):
            owner = self._owner(node.value)
            if owner is not None:
                self._flag(node, f"sets an item of {owner[0]}.{'.'.join(owner[1])}")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in MUTATORS:
            owner = self._owner(func.value)
            if (
                owner is not None
                and len(owner[1]) == 1
                and owner[1][0] in self.containers.get(owner[0], set())
            ):
                self._flag(node, f"calls {func.attr} on {owner[0]}.{owner[1][0]}")
        elif isinstance(func, ast.Name) and func.id in ("setattr", "delattr") and node.args:
            owner = self._owner(node.args[0])
            if owner is not None:
                self._flag(node, f"{func.id} on {owner[0]}.{'.'.join(owner[1])}")
        self.generic_visit(node)

    def _owner(self, expr: ast.expr) -> tuple[str, list[str]] | None:
        """(another package module, the names after it) when ``expr`` leads into it."""
        names: list[str] = []
        while isinstance(expr, ast.Attribute):
            names.insert(0, expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name) or any(expr.id in scope for scope in self.scopes):
            return None
        target = self.imports.get(expr.id)
        if target is None:
            return None
        dotted = [*target.split("."), *names]
        for cut in range(len(dotted) - 1, 0, -1):
            module = ".".join(dotted[:cut])
            if module in self.modules:
                return None if module == self.module else (module, dotted[cut:])
        return None

    def _flag(self, node: ast.AST, what: str) -> None:
        self.found.append((getattr(node, "lineno", 0), what))


def test_no_module_writes_another_modules_state() -> None:
    assert foreign_writes(package_sources()) == []


def test_the_check_sees_every_kind_of_foreign_write() -> None:
    """Each way of writing another module's state is flagged, and a module's own state, a
    registry filled through its own function and a local that shadows an import are not."""
    own = textwrap.dedent("""
        STATE: dict[str, int] = {}
        SEEN = set()
        HOOK = None

        class Box:
            value = 0

        BOX = Box()

        def register(name):
            STATE[name] = 1

        def reset():
            global HOOK
            HOOK = None
            STATE.clear()
    """)
    other = textwrap.dedent("""
        from pkg import own
        from pkg.own import BOX, SEEN, STATE, Box, register
        import pkg.own as alias

        own.HOOK = print                  # 1 rebinds
        STATE["x"] = 2                    # 2 an item
        del alias.STATE["x"]              # 3 an item, through an alias
        SEEN.add("x")                     # 4 a container's mutator
        BOX.value = 3                     # 5 an attribute of a module-level object
        Box.value = 4                     # 6 an attribute of a class
        setattr(own.BOX, "value", 5)      # 7 setattr

        def f(STATE, own):
            STATE["y"] = 1                # a parameter: the function's own
            own.HOOK = 2

        def g():
            register("z")                 # through the module's own function: fine
            BOX.method()                  # not a mutator
            seen = {*SEEN}
            seen.add("y")
            return STATE.get("x")         # a read
    """)
    found = foreign_writes({"pkg": "", "pkg.own": own, "pkg.other": other})
    assert [line.split(": ", 1)[1] for line in found] == [
        "rebinds pkg.own.HOOK",
        "sets an item of pkg.own.STATE",
        "sets an item of pkg.own.STATE",
        "calls add on pkg.own.SEEN",
        "sets attribute value of pkg.own.BOX",
        "sets attribute value of pkg.own.Box",
        "setattr on pkg.own.BOX",
    ], found
    assert all(line.startswith("pkg.other:") for line in found)
