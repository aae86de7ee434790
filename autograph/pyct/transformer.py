"""The base class of converters and the per-function conversion context.

A converter rewrites one function at a time. Nested functions and lambdas are converted on their own
(innermost first) by the driver in `autograph.impl`, so converters never descend into them: each
sees a single scope, which is what the analyses describe.
"""
import gast

from autograph.pyct import anno
from autograph.pyct import naming
from autograph.pyct.analysis import scopes

_NESTED = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


class Context:
    """What converters know about the function being converted.

    Attributes:
      namer: issues fresh names that collide with nothing the function can see.
      filename: the user's file; function_name: the user's function.
      globals, nonlocals: names the function declares `global` / `nonlocal`.
      parameters: the function's parameter names.
      features: names of the optional conversions turned on (autograph.options.Feature values).
      deleted: local names the function `del`etes (filled by the variables converter).
    """

    def __init__(self, node, namer, filename, function_name, features=frozenset()):
        self.features = frozenset(features)
        self.deleted = set()
        self.namer = namer
        self.filename = filename
        self.function_name = function_name
        if isinstance(node, gast.Lambda):
            self.globals, self.nonlocals = set(), set()
        else:
            self.globals, self.nonlocals = scopes.declared(node.body)
        self.parameters = scopes.parameters(node)

    def uses(self, feature):
        return feature in self.features


class Base(gast.NodeTransformer):
    """A NodeTransformer that stays in the current scope and handles statement lists."""

    def __init__(self, ctx):
        self.ctx = ctx

    def visit_block(self, statements):
        """Visits a list of statements; a visit may return None, a node or a list of nodes."""
        result = []
        for statement in statements:
            new = self.visit(statement)
            if new is None:
                continue
            result.extend(new if isinstance(new, list) else [new])
        return result

    def generic_visit(self, node):
        for field, old in gast.iter_fields(node):
            if isinstance(old, list) and old and isinstance(old[0], gast.stmt):
                setattr(node, field, self.visit_block(old))
            elif isinstance(old, list):
                setattr(node, field, [self.visit(n) if isinstance(n, gast.AST) else n for n in old])
            elif isinstance(old, gast.AST):
                setattr(node, field, self.visit(old))
        return node

    def visit_scope_body(self, node):
        """Entry point: visits the body of the function being converted (not nested ones)."""
        if isinstance(node, gast.Lambda):
            node.body = self.visit(node.body)
        else:
            node.body = self.visit_block(node.body)
        return node

    def _stay_in_scope(self, node):
        # Decorators and defaults are evaluated in this scope; bodies belong to the nested one.
        # Lambdas the converters generated (for and/or, conditional expressions, ...) wrap user
        # expressions of this scope, so later converters must see inside them.
        if isinstance(node, gast.Lambda) and is_generated(node):
            node.body = self.visit(node.body)
            return node
        if isinstance(node, gast.Lambda):
            node.args = self.visit(node.args)
        elif isinstance(node, gast.ClassDef):
            node.bases = [self.visit(b) for b in node.bases]
            node.decorator_list = [self.visit(d) for d in node.decorator_list]
        else:
            node.args = self.visit(node.args)
            node.decorator_list = [self.visit(d) for d in node.decorator_list]
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = _stay_in_scope


def is_generated(node):
    return anno.getanno(node, anno.Key.GENERATED, False)


def reserved_names(node, extra=()):
    """Names a namer must avoid for this tree: all it mentions plus `extra`."""
    return naming.names_in(node) | set(extra)
