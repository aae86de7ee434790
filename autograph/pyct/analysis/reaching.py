"""Definitions that reach a point on every path: which names are certainly defined there.

A forward walk over one function body, starting from its parameters. An `if` keeps the names both
branches define; a loop body may run zero times, so a loop adds nothing; `return`, `raise`, `break`
and `continue` end a path (their successors are unreachable and constrain nothing). It annotates:

  * every compound statement with `Key.DEFINED_IN`: names defined on every path reaching it;
  * every read of a name defined on every path reaching it with `Key.DEFINED_HERE`.

Reads inside nested functions are left unmarked: they happen when the function is called.
"""
import gast

from autograph.pyct import anno
from autograph.pyct.analysis import scopes

_NESTED = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


def _meet(a, b):
    """Join of two paths; None stands for 'unreachable' (defines everything)."""
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _mark_reads(nodes, defined):
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, _NESTED):
            continue
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            if defined is None or node.id in defined:
                anno.setanno(node, anno.Key.DEFINED_HERE, True)
        stack.extend(gast.iter_child_nodes(node))


class _Reaching:

    def block(self, statements, defined):
        for statement in statements:
            defined = self.statement(statement, defined)
        return defined

    def statement(self, node, defined):
        handler = getattr(self, 'visit_' + type(node).__name__, None)
        if handler is not None:
            return handler(node, defined)
        if isinstance(node, _NESTED):
            _mark_reads(node.decorator_list, defined)
            return None if defined is None else defined | {node.name}
        _mark_reads([node], defined)
        return None if defined is None else defined | scopes.writes(node)

    def _ends_path(self, node, defined):
        _mark_reads([node], defined)
        return None

    visit_Return = visit_Raise = visit_Break = visit_Continue = _ends_path

    def _enter(self, node, defined):
        anno.setanno(node, anno.Key.DEFINED_IN, defined)

    def visit_If(self, node, defined):
        self._enter(node, defined)
        _mark_reads([node.test], defined)
        return _meet(self.block(node.body, defined), self.block(node.orelse, defined))

    def visit_While(self, node, defined):
        self._enter(node, defined)
        _mark_reads([node.test], defined)
        self.block(node.body, defined)
        self.block(node.orelse, defined)
        return defined

    def visit_For(self, node, defined):
        self._enter(node, defined)
        _mark_reads([node.iter], defined)
        inside = None if defined is None else defined | scopes.writes(node.target)
        self.block(node.body, inside)
        self.block(node.orelse, defined)
        return defined

    visit_AsyncFor = visit_For

    def visit_With(self, node, defined):
        self._enter(node, defined)
        _mark_reads(node.items, defined)
        inside = None if defined is None else defined | scopes.writes(node.items)
        return self.block(node.body, inside)

    visit_AsyncWith = visit_With

    def visit_Try(self, node, defined):
        self._enter(node, defined)
        result = self.block(node.orelse, self.block(node.body, defined))
        for handler in node.handlers:
            start = defined
            if defined is not None and handler.name is not None:
                start = defined | scopes.writes(handler.name)
            result = _meet(result, self.block(handler.body, start))
        if node.finalbody:
            # The finally block also runs after a partial body; only what reached the try is certain.
            self.block(node.finalbody, defined)
            return None if result is None else result | scopes.writes(node.finalbody)
        return result

    visit_TryStar = visit_Try


def resolve(function_node):
    """Annotates one function body (not its nested functions), starting from its parameters."""
    _Reaching().block(function_node.body, frozenset(scopes.parameters(function_node)))
