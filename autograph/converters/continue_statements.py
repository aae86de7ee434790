"""`continue` becomes a guard flag reset at the top of each iteration.

    while test:
        continue_ = False
        ...; continue_ = True               # was: continue
        if not continue_: <rest of block>   # statements a continue skips are guarded

The flag is written before it is read in every iteration, so it is not a loop variable.
"""
import gast

from autograph.converters import break_statements
from autograph.pyct import origin
from autograph.pyct import templates
from autograph.pyct import transformer


class _Continues(transformer.Base):

    def _visit_loop(self, node):
        node = self.generic_visit(node)
        if not break_statements.contains(gast.Module(body=node.body, type_ignores=[]), gast.Continue):
            return node
        flag = self.ctx.namer.new_symbol('continue_')
        body = break_statements.guard_block(node.body, gast.Continue, flag)
        reset = origin.copy_location(templates.replace('flag = False', flag=flag), node)
        node.body = reset + body
        return node

    visit_While = visit_For = _visit_loop


def transform(node, ctx):
    return _Continues(ctx).visit_scope_body(node)
