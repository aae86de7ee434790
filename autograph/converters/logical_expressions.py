"""`and`, `or`, `not` and chained comparisons, as calls that keep short-circuiting.

    a and b and c   ->  ag__.and_(a, lambda: ag__.and_(b, lambda: c))
    a or b          ->  ag__.or_(a, lambda: b)
    not a           ->  ag__.not_(a)
    0 < x < 10      ->  ag__.and_(0 < x, lambda: x < 10)

On Python values the operators return exactly what the Python expression would (the deciding
operand); on tensors they build a `cond` so the right side still runs only when needed. A chained
comparison is split only when its middle operands are plain names, attributes or constants, which
can be evaluated twice without a visible difference; other chains are left as they are.
"""
import gast

from autograph.pyct import origin
from autograph.pyct import templates
from autograph.pyct import transformer

_SIMPLE = (gast.Name, gast.Constant, gast.Attribute)


class _Logical(transformer.Base):

    def visit_BoolOp(self, node):
        node = self.generic_visit(node)
        name = 'ag__.and_' if isinstance(node.op, gast.And) else 'ag__.or_'
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = templates.replace_as_expression(
                name + '(left, lambda: right)', left=value, right=result)
        return origin.copy_location(result, node)

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        if not isinstance(node.op, gast.Not):
            return node
        new = templates.replace_as_expression('ag__.not_(operand)', operand=node.operand)
        return origin.copy_location(new, node)

    def visit_Compare(self, node):
        node = self.generic_visit(node)
        if len(node.ops) < 2 or not all(isinstance(c, _SIMPLE) for c in node.comparators[:-1]):
            return node
        operands = [node.left] + list(node.comparators)
        parts = [gast.Compare(left=operands[i], ops=[op], comparators=[operands[i + 1]])
                 for i, op in enumerate(node.ops)]
        result = parts[-1]
        for part in reversed(parts[:-1]):
            result = templates.replace_as_expression('ag__.and_(left, lambda: right)',
                                                     left=part, right=result)
        return origin.copy_location(result, node)


def transform(node, ctx):
    return _Logical(ctx).visit_scope_body(node)
