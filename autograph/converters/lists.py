"""List appends: `xs.append(v)` on a local list becomes `xs = ag__.list_append(xs, v)`.

Turning the mutation into an assignment makes `xs` visible to the analyses as a variable the loop
writes, so a tensor loop can carry it (as a TensorArray-backed list, see `operators.lists`). On a
Python list the operator appends in place and returns the same list, so aliasing is unchanged.
Only names local to the function are rewritten: a global or closure list is mutated in place.
"""
import gast

from autograph.pyct import origin
from autograph.pyct import templates
from autograph.pyct import transformer
from autograph.pyct.analysis import scopes


class _Lists(transformer.Base):

    def __init__(self, ctx, local_names):
        super().__init__(ctx)
        self.local_names = local_names

    def visit_Expr(self, node):
        call = node.value
        if (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
                and call.func.attr == 'append' and isinstance(call.func.value, gast.Name)
                and call.func.value.id in self.local_names
                and len(call.args) == 1 and not call.keywords
                and not isinstance(call.args[0], gast.Starred)):
            target = call.func.value.id
            new = templates.replace('target = ag__.list_append(target, value)',
                                    target=target, value=self.visit(call.args[0]))
            return origin.copy_location(new, node)
        return self.generic_visit(node)


def transform(node, ctx):
    if isinstance(node, gast.Lambda):
        return node
    local_names = (scopes.writes(node.body) | ctx.parameters) - ctx.globals - ctx.nonlocals
    return _Lists(ctx, local_names).visit_scope_body(node)
