"""`a if test else b` becomes `ag__.if_exp(test, lambda: a, lambda: b)`.

Only the chosen side runs for a Python test; a tensor test builds a `cond` over both sides.
"""

from autograph.pyct import origin
from autograph.pyct import templates
from autograph.pyct import transformer


class _ConditionalExpressions(transformer.Base):

    def visit_IfExp(self, node):
        node = self.generic_visit(node)
        new = templates.replace_as_expression(
            'ag__.if_exp(test, lambda: body, lambda: orelse)',
            test=node.test, body=node.body, orelse=node.orelse)
        return origin.copy_location(new, node)


def transform(node, ctx):
    return _ConditionalExpressions(ctx).visit_scope_body(node)
