"""Return from anywhere, rewritten to a single exit at the end of the function.

Branch and loop bodies become nested functions, so a `return` inside them cannot leave the user's
function. This converter stores the value instead (`retval_ = value; do_return = True`) and makes
the code after it unreachable by construction:

  * after an `if` where only one branch can fall through, the rest of the block moves into that
    branch (so `if c: return a` / `return b` becomes an if/else that sets `retval_` on both sides,
    which a tensor condition needs); as in TF, only into that branch, not further into an `if`
    nested there (an `elif` that returns without an `else` is refused under a tensor condition);
  * otherwise the rest is guarded by `if not do_return:`;
  * inside a loop, the return also breaks out (`break`, handled by break_statements), and code after
    an inner loop that may have returned starts with `if do_return: break`.

`retval_` starts as `ag__.UndefinedReturnValue()` and the function ends with
`return ag__.retval(retval_)` (None if no return ran). Returns at the top level of the body are left
as they are. A body that may fall off its end gets an explicit `return None` there, so that every
path sets `retval_`: a tensor `if` or loop may then stand in zeros for a value that is not set yet
on one path (see autograph.operators.control_flow), as no such stand-in can reach the caller.
"""
import gast

from autograph.pyct import origin
from autograph.pyct import templates

_LOOPS = (gast.While, gast.For)
_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


def _contains_return(node):
    """True when the statement `node` returns from the current scope (nested defs don't count)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, gast.Return):
            return True
        if isinstance(n, _SCOPES):
            continue
        stack.extend(gast.iter_child_nodes(n))
    return False


def always_returns(statements):
    """True when every path through `statements` ends in return or raise."""
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, (gast.Return, gast.Raise)):
        return True
    if isinstance(last, gast.If):
        return always_returns(last.body) and always_returns(last.orelse)
    if isinstance(last, gast.With):
        return always_returns(last.body)
    if isinstance(last, gast.Try):
        if always_returns(last.finalbody):
            return True
        return (always_returns(last.body + last.orelse)
                and all(always_returns(h.body) for h in last.handlers))
    return any(isinstance(s, (gast.Return, gast.Raise)) for s in statements)


class _Returns:

    def __init__(self, retval, do_return):
        self.retval = retval
        self.do_return = do_return

    def block(self, statements, top, in_loop, barrier=None):
        """The converted `statements`. Those from index `barrier` on followed the `if` whose
        branch this is: as in TF's rewrite, an `if` before them does not take them into its
        branches (they run after it, guarded, so its tensor form lacks a return on one side)."""
        barrier = len(statements) if barrier is None else barrier
        out = []
        for i, statement in enumerate(statements):
            if not _contains_return(statement):
                out.append(statement)
                continue
            rest = statements[i + 1:]
            if isinstance(statement, gast.Return):
                out.extend([statement] if top else self._store(statement, in_loop))
                return out
            if isinstance(statement, gast.If):
                cut = barrier if i < barrier else len(statements)
                rest = self._if(statement, statements[i + 1:cut], statements[cut:], in_loop)
            elif isinstance(statement, _LOOPS):
                statement.body = self.block(statement.body, False, True)
                statement.orelse = self.block(statement.orelse, False, in_loop)
            else:
                self._nested_blocks(statement, in_loop)
            out.append(statement)
            # After an inner loop that returned, the enclosing loop must stop too.
            if rest or (in_loop and isinstance(statement, _LOOPS)):
                out.extend(self._guard(self.block(rest, False, in_loop), in_loop, statement))
            return out
        return out

    def _if(self, statement, movable, fixed, in_loop):
        """Converts an `if` that may return; returns the statements still to run after it. Where
        only one branch can fall through, the `movable` statements after it move into that
        branch; `fixed` ones (after an enclosing `if`) stay after it."""
        body_returns = always_returns(statement.body)
        else_returns = always_returns(statement.orelse)
        body, orelse = statement.body, statement.orelse
        body_barrier = else_barrier = None
        rest = movable + fixed
        if movable and body_returns != else_returns:
            if body_returns:
                else_barrier, orelse = len(orelse), orelse + movable
            else:
                body_barrier, body = len(body), body + movable
            rest = fixed
        elif body_returns and else_returns:
            rest = []
        statement.body = self.block(body, False, in_loop, body_barrier)
        statement.orelse = self.block(orelse, False, in_loop, else_barrier)
        return rest

    def _nested_blocks(self, statement, in_loop):
        for field in ('body', 'orelse', 'finalbody'):
            if getattr(statement, field, None):
                setattr(statement, field, self.block(getattr(statement, field), False, in_loop))
        for handler in getattr(statement, 'handlers', ()):
            handler.body = self.block(handler.body, False, in_loop)

    def _store(self, node, in_loop):
        value = node.value if node.value is not None else gast.Constant(value=None, kind=None)
        # The value first: if computing it raises (and the exception is caught), nothing returned.
        new = templates.replace('retval = value\ndo_return = True',
                                do_return=self.do_return, retval=self.retval, value=value)
        if in_loop:
            new.append(gast.Break())
        return origin.copy_location(new, node)

    def _guard(self, rest, in_loop, after):
        if in_loop:
            # Leave the enclosing loop too; break_statements guards what follows.
            new = templates.replace('if do_return:\n    break', do_return=self.do_return)
            return origin.copy_location(new, after) + rest
        new = templates.replace('if not do_return:\n    rest', do_return=self.do_return, rest=rest)
        return origin.copy_location(new, after)


def transform(node, ctx):
    if isinstance(node, gast.Lambda):
        return node
    nested = [s for s in node.body if _contains_return(s) and not isinstance(s, gast.Return)]
    if not nested:
        return node
    retval = ctx.namer.new_symbol('retval_')
    do_return = ctx.namer.new_symbol('do_return')
    if not always_returns(node.body):
        # Falling off the end returns None: make that a return too. Then a path that returns a
        # value under a tensor condition meets the None of the path that does not, and the
        # operators raise (as TF does), rather than hand back the zero standing in for it.
        node.body = node.body + origin.copy_location([gast.Return(value=None)], node.body[-1])
    body = _Returns(retval, do_return).block(node.body, True, False)
    prologue = templates.replace('do_return = False\nretval = ag__.UndefinedReturnValue(label)',
                                 do_return=do_return, retval=retval,
                                 label=gast.Constant(value=retval, kind=None))
    if not isinstance(body[-1], gast.Return):
        body += templates.replace('return ag__.retval(value)', value=retval)
    node.body = origin.copy_location(prologue, node.body[0]) + origin.copy_location(body, node.body[-1])
    return node
