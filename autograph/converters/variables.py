"""`del x` of a local name becomes `x = ag__.Undefined('x')`.

A deletion is then a write like any other, so a tensor `if` or loop carries it as state: a branch
that deletes a variable used after the `if` fails as one that never assigned it would ("'x' must
also be initialized in the else branch"), and reading a deleted name raises UnboundLocalError (the
reads of deleted names all go through `ag__.ld`, see control_flow). Deleting an attribute, an item,
or a global / nonlocal name stays a `del`.
"""
import gast

from autograph.pyct import origin
from autograph.pyct import templates
from autograph.pyct import transformer


class _Variables(transformer.Base):

    def visit_Delete(self, node):
        local = [t for t in node.targets if isinstance(t, gast.Name)
                 and t.id not in self.ctx.globals and t.id not in self.ctx.nonlocals]
        kept = [t for t in node.targets if not any(t is l for l in local)]
        new = [gast.Delete(targets=kept)] if kept else []
        for target in local:
            self.ctx.deleted.add(target.id)
            new += templates.replace('name = ag__.Undefined(label)', name=target.id,
                                     label=gast.Constant(value=target.id, kind=None))
        return origin.copy_location(new, node)


def transform(node, ctx):
    if isinstance(node, gast.Lambda):
        return node
    return _Variables(ctx).visit_scope_body(node)
