"""`assert test, message` becomes `ag__.assert_stmt(test, lambda: message)`.

On a graph tensor the operator adds an assertion op; otherwise it raises AssertionError exactly like
the statement (the message is evaluated only when the assertion fails).
"""
import gast

from autograph.pyct import origin
from autograph.pyct import templates
from autograph.pyct import transformer


class _Asserts(transformer.Base):

    def visit_Assert(self, node):
        node = self.generic_visit(node)
        message = node.msg if node.msg is not None else gast.Constant(value=None, kind=None)
        new = templates.replace('ag__.assert_stmt(test, lambda: message)',
                                test=node.test, message=message)
        return origin.copy_location(new, node)


def transform(node, ctx):
    return _Asserts(ctx).visit_scope_body(node)
