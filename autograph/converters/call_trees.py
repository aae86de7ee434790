"""Calls: `f(a, *b, k=c, **d)` becomes `ag__.converted_call(f, (a, *b), {'k': c, **d})`.

`converted_call` decides at run time whether `f` is user code to convert (recursively), a builtin
AutoGraph overloads (print, range, len, enumerate, zip, ...), or something to call as is. Calls the
converters themselves generated (to `ag__`) are left alone, and so are the few builtins that
inspect their caller's frame (`super()`, `locals()`, ...), which only work when called directly.
`print` stays Python's print (it runs at trace time, as in TF) unless the BUILTIN_FUNCTIONS feature
asks for its overload (which prints tensors' values at every call).
"""
import gast

from autograph.pyct import origin
from autograph.pyct import templates
from autograph.pyct import transformer

_FRAME_BUILTINS = frozenset(['super', 'locals', 'globals', 'vars', 'eval', 'exec', 'dir'])


def _root_name(node):
    while isinstance(node, (gast.Attribute, gast.Call, gast.Subscript)):
        node = node.value if not isinstance(node, gast.Call) else node.func
    return node.id if isinstance(node, gast.Name) else None


class _CallTrees(transformer.Base):

    def visit_Call(self, node):
        node = self.generic_visit(node)
        if _root_name(node.func) == 'ag__':
            return node
        if isinstance(node.func, gast.Name) and node.func.id in _FRAME_BUILTINS:
            return node
        if (isinstance(node.func, gast.Name) and node.func.id == 'print'
                and not self.ctx.uses('BUILTIN_FUNCTIONS')):
            return node
        args = gast.Tuple(elts=list(node.args), ctx=gast.Load())
        if node.keywords:
            keys = [gast.Constant(value=k.arg, kind=None) if k.arg is not None else None
                    for k in node.keywords]
            kwargs = gast.Dict(keys=keys, values=[k.value for k in node.keywords])
        else:
            kwargs = gast.Constant(value=None, kind=None)
        new = templates.replace_as_expression('ag__.converted_call(func, args, kwargs)',
                                              func=node.func, args=args, kwargs=kwargs)
        return origin.copy_location(new, node)


def transform(node, ctx):
    return _CallTrees(ctx).visit_scope_body(node)
