"""`break` becomes a guard flag; loop `else` clauses become code after the loop.

For a loop whose body breaks (not counting nested loops):

    break_ = False
    while not break_ and test:          # for loops: the flag goes to `Key.EXTRA_TEST`
        ...; break_ = True               # was: break
        if not break_: <rest of block>   # statements a break may skip are guarded
    if not break_: <else clause>

The flag is tested before the loop's own condition so that, as in Python, the condition is not
evaluated again after a break.
"""
import gast

from autograph.pyct import anno
from autograph.pyct import origin
from autograph.pyct import templates
from autograph.pyct import transformer

_LOOPS = (gast.While, gast.For)
_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


def contains(node, kind):
    """True when `node` holds a `kind` statement bound to the current loop (not a nested one)."""
    stack = list(gast.iter_child_nodes(node)) if isinstance(node, _LOOPS) else [node]
    while stack:
        n = stack.pop()
        if isinstance(n, kind):
            return True
        if isinstance(n, _LOOPS + _SCOPES):
            continue
        stack.extend(gast.iter_child_nodes(n))
    return False


def guard_block(statements, kind, flag):
    """Replaces `kind` statements by `flag = True` and guards what they may skip."""
    out = []
    for i, statement in enumerate(statements):
        if isinstance(statement, kind):
            out.extend(origin.copy_location(templates.replace('flag = True', flag=flag), statement))
            return out
        if not contains(statement, kind) or isinstance(statement, _LOOPS):
            out.append(statement)
            continue
        for field in ('body', 'orelse', 'finalbody'):
            if getattr(statement, field, None):
                setattr(statement, field, guard_block(getattr(statement, field), kind, flag))
        for handler in getattr(statement, 'handlers', ()):
            handler.body = guard_block(handler.body, kind, flag)
        out.append(statement)
        rest = statements[i + 1:]
        if rest:
            guard = templates.replace('if not flag:\n    rest', flag=flag,
                                      rest=guard_block(rest, kind, flag))
            out.extend(origin.copy_location(guard, statement))
        return out
    return out


class _Breaks(transformer.Base):

    def _visit_loop(self, node):
        if node.orelse and not self.ctx.uses('LOOP_ELSE'):
            kind = 'while' if isinstance(node, gast.While) else 'for'
            raise NotImplementedError(
                '%s/else statement not supported: AutoGraph converts the else clause of a loop only'
                ' with the LOOP_ELSE feature (experimental_autograph_options)' % kind)
        node = self.generic_visit(node)
        orelse, node.orelse = node.orelse, []
        if not contains(node, gast.Break):
            return [node] + orelse
        flag = self.ctx.namer.new_symbol('break_')
        node.body = guard_block(node.body, gast.Break, flag)
        if isinstance(node, gast.While):
            node.test = templates.replace_as_expression('not flag and test', flag=flag, test=node.test)
        else:
            anno.setanno(node, anno.Key.EXTRA_TEST,
                         templates.replace_as_expression('ag__.not_(flag)', flag=flag))
        before = origin.copy_location(templates.replace('flag = False', flag=flag), node)
        after = []
        if orelse:
            after = origin.copy_location(
                templates.replace('if not flag:\n    orelse', flag=flag, orelse=orelse), node)
        return before + [node] + after

    visit_While = visit_For = _visit_loop


def transform(node, ctx):
    return _Breaks(ctx).visit_scope_body(node)
