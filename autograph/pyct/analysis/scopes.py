"""Which simple names a piece of code reads and writes.

Only plain names count (`x`, not `x.y` or `x[0]`: writing through an attribute or an index reads the
root name). Nested functions, lambdas, classes and comprehensions are their own scopes: from outside,
a nested function contributes its name as a write and the names it reads from the enclosing scope
(its free names) as reads, plus any name it declares `nonlocal` and assigns.
"""
import gast


def _parameters(arguments):
    params = list(arguments.posonlyargs) + list(arguments.args) + list(arguments.kwonlyargs)
    params += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return {p.id for p in params}


class Activity(gast.NodeVisitor):
    """Collects `reads` and `writes` of the nodes it visits, treating nested scopes as opaque."""

    def __init__(self):
        self.reads = set()
        self.writes = set()
        self.nonlocals = set()
        self.globals = set()

    def visit_Name(self, node):
        if isinstance(node.ctx, gast.Load):
            self.reads.add(node.id)
        else:
            self.writes.add(node.id)

    def visit_AugAssign(self, node):
        if isinstance(node.target, gast.Name):
            self.reads.add(node.target.id)
        self.generic_visit(node)

    def visit_Nonlocal(self, node):
        self.nonlocals.update(node.names)

    def visit_Global(self, node):
        self.globals.update(node.names)

    def visit_alias(self, node):
        self.writes.add((node.asname or node.name).split('.')[0])

    def _nested(self, params, body_nodes, outer_nodes):
        """Adds the effect of a nested scope: its free reads, and its nonlocal writes."""
        for n in outer_nodes:
            self.visit(n)
        inner = Activity()
        for n in body_nodes:
            inner.visit(n)
        local = (inner.writes | params) - inner.nonlocals - inner.globals
        self.reads.update(inner.reads - local)
        self.writes.update(inner.writes & inner.nonlocals)

    def visit_FunctionDef(self, node):
        self._nested(_parameters(node.args), node.body,
                     node.decorator_list + node.args.defaults
                     + [d for d in node.args.kw_defaults if d is not None])
        self.writes.add(node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        self._nested(_parameters(node.args), [node.body],
                     node.args.defaults + [d for d in node.args.kw_defaults if d is not None])

    def visit_ClassDef(self, node):
        self._nested(set(), node.body, node.decorator_list + node.bases + node.keywords)
        self.writes.add(node.name)

    def _visit_comprehension(self, node):
        # The first iterable is evaluated in the enclosing scope; targets are local to the comprehension.
        inner = Activity()
        for generator in node.generators:
            inner.visit(generator)
        elements = [node.key, node.value] if isinstance(node, gast.DictComp) else [node.elt]
        for n in elements:
            inner.visit(n)
        targets = set()
        for generator in node.generators:
            targets |= {n.id for n in gast.walk(generator.target) if isinstance(n, gast.Name)}
        self.reads.update(inner.reads - targets)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _visit_comprehension


def activity(nodes):
    """Returns the Activity of a node or a list of nodes."""
    result = Activity()
    for node in nodes if isinstance(nodes, list) else [nodes]:
        result.visit(node)
    return result


def reads(nodes):
    return activity(nodes).reads


def writes(nodes):
    """Names (re)bound by the nodes in their own scope (not names they only declare global)."""
    found = activity(nodes)
    return found.writes - found.globals


def parameters(function_node):
    """The parameter names of a FunctionDef or Lambda."""
    return _parameters(function_node.args)


def declared(function_body):
    """(global names, nonlocal names) declared directly in a function body (not in nested scopes)."""
    found = activity(function_body)
    return found.globals, found.nonlocals
