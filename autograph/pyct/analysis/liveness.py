"""Liveness: which names may still be read later, computed backwards over one function body.

The analysis walks statements in reverse, following the structure of the code (if/else joins, loops
iterated to a fixed point, break to the loop exit, continue to the loop head, return to the function
exit). It annotates:

  * every compound statement (if, while, for, with, try) with `Key.LIVE_OUT`: names live just after it;
  * every loop with `Key.LIVE_IN`: names live at its head, each time its condition is tested (for a
    `for`, before its target is assigned; its `Key.EXTRA_TEST` is read there).

Nested functions are opaque: the names they read from outside count as read where they are defined.
"""
import gast

from autograph.pyct import anno
from autograph.pyct.analysis import scopes

_LOOPS = (gast.While, gast.For, gast.AsyncFor)


class _Liveness:

    def __init__(self):
        # Stack of (live after the loop, live at the loop head) for break and continue.
        self.loops = []

    def block(self, statements, live_after):
        live = set(live_after)
        for statement in reversed(statements):
            live = self.statement(statement, live)
        return live

    def statement(self, node, live_after):
        handler = getattr(self, 'visit_' + type(node).__name__, None)
        if handler is not None:
            return handler(node, set(live_after))
        found = scopes.activity(node)
        return (live_after - found.writes) | found.reads

    def visit_Return(self, node, live_after):
        return scopes.reads(node.value) if node.value is not None else set()

    def visit_Raise(self, node, live_after):
        return scopes.reads([n for n in (node.exc, node.cause) if n is not None])

    def visit_Break(self, node, live_after):
        return set(self.loops[-1][0]) if self.loops else set()

    def visit_Continue(self, node, live_after):
        return set(self.loops[-1][1]) if self.loops else set()

    def visit_If(self, node, live_after):
        anno.setanno(node, anno.Key.LIVE_OUT, frozenset(live_after))
        return (scopes.reads(node.test) | self.block(node.body, live_after)
                | self.block(node.orelse, live_after))

    def _loop(self, node, live_after, head_extra, target_writes):
        """Iterates head liveness to a fixed point; returns live at the loop head."""
        anno.setanno(node, anno.Key.LIVE_OUT, frozenset(live_after))
        else_in = self.block(node.orelse, live_after)
        head = set(else_in) | head_extra
        while True:
            self.loops.append((live_after, head))
            body_in = self.block(node.body, head)
            self.loops.pop()
            new_head = set(else_in) | head_extra | (body_in - target_writes)
            if new_head == head:
                break
            head = new_head
        anno.setanno(node, anno.Key.LIVE_IN, frozenset(head))
        return head

    def visit_While(self, node, live_after):
        return self._loop(node, live_after, scopes.reads(node.test), set())

    def visit_For(self, node, live_after):
        target = scopes.activity(node.target)
        # The extra test (the negated break flag, see break_statements) runs at the head too.
        extra_test = anno.getanno(node, anno.Key.EXTRA_TEST)
        head_reads = target.reads | (scopes.reads(extra_test) if extra_test is not None else set())
        head = self._loop(node, live_after, head_reads, target.writes)
        return head | scopes.reads(node.iter)

    visit_AsyncFor = visit_For

    def visit_With(self, node, live_after):
        anno.setanno(node, anno.Key.LIVE_OUT, frozenset(live_after))
        items = scopes.activity(node.items)
        return (self.block(node.body, live_after) - items.writes) | items.reads

    visit_AsyncWith = visit_With

    def visit_Try(self, node, live_after):
        anno.setanno(node, anno.Key.LIVE_OUT, frozenset(live_after))
        final_in = self.block(node.finalbody, live_after)
        else_in = self.block(node.orelse, final_in)
        handlers_in = set()
        for handler in node.handlers:
            handlers_in |= self.block(handler.body, final_in)
            if handler.type is not None:
                handlers_in |= scopes.reads(handler.type)
        # An exception may leave the body anywhere, so what the handlers need is live throughout it.
        return self.block(node.body, else_in | handlers_in) | handlers_in

    visit_TryStar = visit_Try


def resolve(function_node):
    """Annotates the statements of one function body (not of its nested functions)."""
    body = function_node.body if isinstance(function_node.body, list) else []
    _Liveness().block(body, set())
