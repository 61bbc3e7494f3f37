"""Where a module can be mutated, and the mutated module itself.

:func:`mutants` walks a module's AST in a fixed order and lists every mutation point; the same
walk with a target index (:func:`mutated_tree`) builds the mutant, so a mutant is named by its
module and index within one run and by :attr:`Mutant.key` across edits of the file.
Docstrings, annotations, decorators, imports and the messages of raised errors are never touched.
"""

from __future__ import annotations

import ast
import copy
import functools
import hashlib
from collections.abc import Callable, Iterator
from typing import Final

import attrs

#: Comparison swaps: each boundary or negation a reviewer would get wrong.
_COMPARE: Final[dict[type[ast.cmpop], type[ast.cmpop]]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
#: Arithmetic swaps (``|`` and ``&`` are left alone: here they build types and sets).
_BINARY: Final[dict[type[ast.operator], type[ast.operator]]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Add,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
}
#: Calls whose single argument passes through unchanged when the call is removed ("removed copy").
#: ``set()`` and ``tuple()`` are left alone: here they only speed up membership tests or fix a
#: return type, so removing them could never be told apart.
_UNWRAP: Final = frozenset(
    {
        "copy.deepcopy",
        "copy.copy",
        "deepcopy",
        "list",
        "dict",
        "sorted",
        "int",
        "float",
        "bool",
        "str",
        "reversed",
    }
)
#: Text swaps inside SQL statements (SELECT, UPDATE, DELETE, INSERT; schema text is left alone).
_SQL: Final = (
    (" DESC", " ASC"),
    ("archived = 0", "archived = 1"),
    ("archived = 1", "archived = 0"),
    ("control = 0", "control = 1"),
    (" >= ", " > "),
    (" > ", " >= "),
    ("ts, id", "ts"),
    ("ts DESC, id DESC", "ts DESC"),
    (" AND ", " OR "),
)
_SQL_VERBS: Final = ("SELECT ", "UPDATE ", "DELETE ", "INSERT ")


@attrs.frozen
class Mutant:
    """One mutation point of a module."""

    module: str
    index: int
    #: Qualified name of the enclosing function (``Class.method``), ``<module>`` at top level.
    function: str
    operator: str
    line: int
    original: str
    mutated: str
    #: How many earlier points of the same function have the same operator and texts.
    occurrence: int

    @property
    def key(self) -> str:
        """Stable across unrelated edits: no line numbers, only the function and the texts."""
        return f"{self.module}:{self.function}:{self.operator}:{self.original} -> {self.mutated}" + (
            f" #{self.occurrence}" if self.occurrence else ""
        )

    @property
    def short_id(self) -> str:
        return hashlib.sha1(self.key.encode()).hexdigest()[:10]


#: A mutation point: its operator name, the node it replaces, and how to build the replacement.
_Point = tuple[str, ast.AST, Callable[[], ast.AST | None]]


def _is_docstring(node: ast.stmt, body: list[ast.stmt]) -> bool:
    return (
        body
        and body[0] is node
        and isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ) is True


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return ""


def _swap_cmp(node: ast.Compare, i: int, new: type[ast.cmpop]) -> ast.AST:
    out = copy.deepcopy(node)
    out.ops[i] = new()
    return out


def _drop_operand(node: ast.BoolOp, i: int) -> ast.expr:
    rest = node.values[:i] + node.values[i + 1 :]
    return rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)


def _expression_points(node: ast.expr) -> Iterator[_Point]:
    """The points of one expression node (its children are visited by the walk)."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            swapped = _COMPARE.get(type(op))
            if swapped is not None:
                yield "compare", node, functools.partial(_swap_cmp, node, i, swapped)
    elif isinstance(node, ast.BinOp):
        new_op = _BINARY.get(type(node.op))
        if new_op is not None:
            yield "arithmetic", node, lambda: ast.BinOp(node.left, new_op(), node.right)
    elif isinstance(node, ast.BoolOp):
        other: ast.boolop = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield "boolean", node, lambda: ast.BoolOp(other, node.values)
        for i in range(len(node.values)):
            yield "drop-operand", node, functools.partial(_drop_operand, node, i)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        yield "unary", node, lambda: node.operand
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            yield "constant", node, lambda: ast.Constant(not value)
        elif isinstance(value, int):
            yield "constant", node, lambda: ast.Constant(1 if value == 0 else 0 if value == 1 else value + 1)
        elif isinstance(value, str) and value.lstrip().upper().startswith(_SQL_VERBS):
            for old, replacement in _SQL:
                if old in value:
                    yield "sql", node, functools.partial(ast.Constant, value.replace(old, replacement))
    elif isinstance(node, ast.Call) and not node.keywords:
        name = _call_name(node)
        if name in _UNWRAP and len(node.args) == 1 and not isinstance(node.args[0], ast.Starred):
            yield "unwrap", node, lambda: node.args[0]
        elif name in ("min", "max") and len(node.args) == 2:
            flipped = "max" if name == "min" else "min"
            yield "min-max", node, lambda: ast.Call(ast.Name(flipped, ast.Load()), node.args, [])
    elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        bounds = node.slice
        for bound in ("lower", "upper"):
            if getattr(bounds, bound) is not None:

                def without(bound: str = bound) -> ast.AST:
                    out = copy.deepcopy(node)
                    assert isinstance(out.slice, ast.Slice)
                    setattr(out.slice, bound, None)
                    return out

                yield "slice", node, without


def _statement_points(node: ast.stmt, body: list[ast.stmt]) -> Iterator[_Point]:
    removable = isinstance(node, ast.Raise | ast.AugAssign | ast.Break | ast.Continue | ast.Delete)
    if isinstance(node, ast.Expr):
        removable = not _is_docstring(node, body) and not (
            isinstance(node.value, ast.Constant) and node.value.value is Ellipsis
        )
    if isinstance(node, ast.Assign):
        removable = all(isinstance(t, ast.Attribute | ast.Subscript) for t in node.targets)
    if removable:
        yield "remove", node, lambda: ast.Pass()
    if isinstance(node, ast.If) and not node.orelse:
        yield "skip-branch", node, lambda: ast.If(ast.Constant(False), node.body, [])


#: Fields never walked: types, decorators, and the text of messages.
_SKIPPED_FIELDS: Final = frozenset({"annotation", "returns", "decorator_list", "type_comment"})


def _walk(node: ast.AST, scope: str, body: list[ast.stmt] | None = None) -> Iterator[tuple[str, _Point]]:
    """Every point under ``node`` in source order, with the qualified name of its function."""
    if isinstance(node, ast.Import | ast.ImportFrom | ast.JoinedStr):
        return
    if isinstance(node, ast.Raise):  # its removal only; the message is not the behaviour
        for point in _statement_points(node, body or []):
            yield scope, point
        return
    if isinstance(node, ast.If) and _is_type_checking(node.test):
        return
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        scope = node.name if scope == "<module>" else f"{scope}.{node.name}"
    if isinstance(node, ast.stmt):
        for point in _statement_points(node, body or []):
            yield scope, point
    elif isinstance(node, ast.expr):
        for point in _expression_points(node):
            yield scope, point
    for field, value in ast.iter_fields(node):
        if field in _SKIPPED_FIELDS:
            continue
        if isinstance(value, list):
            statements = [v for v in value if isinstance(v, ast.stmt)]
            for item in value:
                if isinstance(item, ast.AST) and not (
                    isinstance(item, ast.stmt) and _is_docstring(item, statements)
                ):
                    yield from _walk(item, scope, statements)
        elif isinstance(value, ast.AST):
            yield from _walk(value, scope, body)


def _is_type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


def _module_points(tree: ast.Module) -> Iterator[tuple[str, _Point]]:
    for statement in tree.body:
        if _is_docstring(statement, tree.body) or _is_dunder_all(statement):
            continue
        yield from _walk(statement, "<module>", tree.body)


def _is_dunder_all(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == "__all__" for t in statement.targets
    )


def _text(source: str, node: ast.AST) -> str:
    segment = ast.get_source_segment(source, node)
    text = segment if segment is not None else ast.unparse(node)
    return " ".join(text.split())


def mutants(module: str, source: str) -> list[Mutant]:
    """Every mutant of ``source`` in walk order (``module`` is the label used in keys)."""
    tree = ast.parse(source)
    found: list[Mutant] = []
    seen: dict[tuple[str, str, str, str], int] = {}
    for index, (scope, (operator, node, build)) in enumerate(_module_points(tree)):
        replacement = build()
        if isinstance(node, ast.If) and isinstance(replacement, ast.If):  # skip-branch
            original, mutated = f"if {_text(source, node.test)}:", "if False:"
        elif replacement is None:
            raise AssertionError(f"operator {operator} built nothing")
        else:
            original = _text(source, node)
            mutated = " ".join(ast.unparse(replacement).split())
        identity = (scope, operator, original, mutated)
        occurrence = seen.get(identity, 0)
        seen[identity] = occurrence + 1
        found.append(
            Mutant(module, index, scope, operator, getattr(node, "lineno", 0), original, mutated, occurrence)
        )
    return found


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST, replacement: ast.AST) -> None:
        self.target = target
        self.replacement = replacement

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return ast.copy_location(self.replacement, node)
        result: ast.AST = self.generic_visit(node)
        return result


def mutated_tree(source: str, index: int) -> ast.Module:
    """The module with mutant ``index`` applied, line numbers kept for tracebacks."""
    tree = ast.parse(source)
    for position, (_scope, (_operator, node, build)) in enumerate(_module_points(tree)):
        if position == index:
            replacement = build()
            assert replacement is not None
            new = _Replace(node, replacement).visit(tree)
            assert isinstance(new, ast.Module)
            return ast.fix_missing_locations(new)
    raise IndexError(f"no mutant {index} (the module has {position + 1} points)")
