"""Composite names: `x.y`, `x['k']`, `x[0]`, `a.b.c` written as assignment targets.

Control flow must carry what a block writes through attributes and constant subscripts of objects
that exist before it, as it carries plain names (TF calls them composite symbols): `self.x = ...` in
a tensor `if` is an output of the cond, `d['k'] += 1` in a tensor loop a loop variable. A composite
counts only when every link is an attribute or a constant subscript of a root name, and the block
does not rebind the root (an object made inside the block is the block's own business).
"""
import copy

import gast

from autograph.pyct import anno

_NESTED = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


class Composite:
    """One composite target: its source text, root name, parent expression and last link."""

    def __init__(self, node, name, root):
        self.node = node
        self.name = name
        self.root = root

    @property
    def is_attribute(self):
        return isinstance(self.node, gast.Attribute)

    def parent(self):
        """A fresh Load of the expression holding the last link (`x['a']` of `x['a']['b']`)."""
        return loaded(self.node.value)

    def key(self):
        """The last link: the attribute name as a constant, or the subscript's constant."""
        if self.is_attribute:
            return gast.Constant(value=self.node.attr, kind=None)
        return copy.deepcopy(self.node.slice)

    def load(self):
        return loaded(self.node)


def loaded(node):
    """A deep copy of `node` with every context Load, its names marked as generated."""
    new = copy.deepcopy(node)
    for n in gast.walk(new):
        if hasattr(n, 'ctx'):
            n.ctx = gast.Load()
        if isinstance(n, gast.Name):
            anno.setanno(n, anno.Key.GENERATED, True)
    return new


def _text(node):
    """Source text of a composite chain (TF's spelling: x['k'], x[0], a.b), or None."""
    if isinstance(node, gast.Name):
        return node.id
    if isinstance(node, gast.Attribute):
        parent = _text(node.value)
        return None if parent is None else '%s.%s' % (parent, node.attr)
    if isinstance(node, gast.Subscript) and isinstance(node.slice, gast.Constant) and isinstance(
            node.slice.value, (str, int)) and not isinstance(node.slice.value, bool):
        parent = _text(node.value)
        return None if parent is None else '%s[%r]' % (parent, node.slice.value)
    return None


def _root(node):
    while isinstance(node, (gast.Attribute, gast.Subscript)):
        node = node.value
    return node.id if isinstance(node, gast.Name) else None


def _targets(statement):
    if isinstance(statement, gast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, (gast.AugAssign, gast.AnnAssign)):
        targets = [statement.target]
    else:
        return []
    flat = []
    while targets:
        t = targets.pop()
        if isinstance(t, (gast.Tuple, gast.List)):
            targets.extend(t.elts)
        elif isinstance(t, gast.Starred):
            targets.append(t.value)
        else:
            flat.append(t)
    return flat


def composite_writes(statements, rebound=frozenset()):
    """Composites assigned in `statements` (not in nested scopes), in source order, one per name.

    Composites whose root is in `rebound` (names the block itself binds) are left out.
    """
    found, seen = [], set()
    stack = list(reversed(statements))
    while stack:
        node = stack.pop()
        if isinstance(node, _NESTED):
            continue
        for target in _targets(node):
            if isinstance(target, gast.Name):
                continue
            name, root = _text(target), _root(target)
            if (name is None or root is None or root in rebound or name in seen
                    or anno.getanno(target, anno.Key.GENERATED, False)):
                continue
            seen.add(name)
            found.append(Composite(target, name, root))
        stack.extend(reversed([c for c in gast.iter_child_nodes(node)
                               if isinstance(c, (gast.stmt, gast.excepthandler))]))
    return found
