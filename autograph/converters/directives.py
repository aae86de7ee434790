"""Loop directives: `set_loop_options(...)` calls at the top level of a loop body.

The call is removed from the body and its keyword arguments are recorded on the loop (as
`Key.LOOP_OPTIONS`), for the control-flow converter to pass to the loop operator. The call is
recognised by name (`set_loop_options`, however it is reached: `tf.autograph.experimental.
set_loop_options`, `autograph.experimental.set_loop_options`, ...); at run time outside a converted
loop it does nothing, as in TensorFlow.
"""
import gast

from autograph.pyct import anno
from autograph.pyct import transformer

DIRECTIVE = 'set_loop_options'


def _is_directive(statement):
    if not isinstance(statement, gast.Expr) or not isinstance(statement.value, gast.Call):
        return False
    func = statement.value.func
    name = func.attr if isinstance(func, gast.Attribute) else getattr(func, 'id', None)
    return name == DIRECTIVE


class _Directives(transformer.Base):

    def _visit_loop(self, node):
        keywords = []
        body = []
        for statement in node.body:
            if _is_directive(statement):
                if statement.value.args:
                    raise ValueError('%s takes keyword arguments only (line %d)'
                                     % (DIRECTIVE, statement.lineno))
                keywords.extend(statement.value.keywords)
            else:
                body.append(statement)
        node.body = body or [gast.Pass()]
        if keywords:
            anno.setanno(node, anno.Key.LOOP_OPTIONS, keywords)
        return self.generic_visit(node)

    visit_While = visit_For = _visit_loop


def transform(node, ctx):
    return _Directives(ctx).visit_scope_body(node)
