"""Build code from templates written as real Python.

A template is ordinary source in which some names are placeholders. `replace(template, **values)`
parses it and substitutes each placeholder by what `values` gives for it:

  * a str: a name (in the same load/store context as the placeholder);
  * a gast expression or statement: a copy of it (its context fixed to the placeholder's);
  * a list: spliced where the placeholder stands alone in a list (statement bodies, call arguments,
    function parameters, tuple elements, `nonlocal` names; an empty list removes a `nonlocal`).

Nodes that come from the template text carry no line numbers (the caller copies the origin of the
user code they stand for); nodes passed in keep theirs.
"""
import copy
import textwrap

import gast

from autograph.pyct import anno

_LOCATION_FIELDS = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')


def _strip_locations(tree):
    for node in gast.walk(tree):
        for field in _LOCATION_FIELDS:
            if hasattr(node, field):
                setattr(node, field, None)
        anno.setanno(node, anno.Key.GENERATED, True)


def _set_ctx(node, ctx_type):
    """Gives a substituted target the context of the placeholder it replaces."""
    if isinstance(node, (gast.Name, gast.Attribute, gast.Subscript, gast.Starred)):
        node.ctx = ctx_type()
    if isinstance(node, (gast.Tuple, gast.List)):
        node.ctx = ctx_type()
        for elt in node.elts:
            _set_ctx(elt, ctx_type)
    if isinstance(node, gast.Starred):
        _set_ctx(node.value, ctx_type)
    return node


def _as_node(value, ctx_type):
    if isinstance(value, str):
        node = gast.Name(id=value, ctx=ctx_type(), annotation=None, type_comment=None)
        anno.setanno(node, anno.Key.GENERATED, True)
        return node
    if isinstance(value, gast.AST):
        node = copy.deepcopy(value)
        return _set_ctx(node, ctx_type) if isinstance(node, gast.expr) else node
    raise ValueError('cannot substitute %r into a template' % (value,))


class _Replacer(gast.NodeTransformer):

    def __init__(self, values):
        self.values = values

    def _placeholder(self, node):
        """The list a lone placeholder element stands for, or None."""
        if isinstance(node, gast.Name) and isinstance(self.values.get(node.id), list):
            return [_as_node(v, type(node.ctx)) for v in self.values[node.id]]
        if (isinstance(node, gast.Expr) and isinstance(node.value, gast.Name)
                and node.value.id in self.values):
            value = self.values[node.value.id]
            values = value if isinstance(value, list) else [value]
            if all(isinstance(v, gast.stmt) for v in values):
                return [copy.deepcopy(v) for v in values]
        return None

    def generic_visit(self, node):
        for field, old in gast.iter_fields(node):
            if isinstance(old, list):
                new = []
                for item in old:
                    spliced = self._placeholder(item)
                    if spliced is not None:
                        new.extend(spliced)
                    elif isinstance(item, gast.AST):
                        item = self.visit(item)
                        if item is not None:
                            new.extend(item if isinstance(item, list) else [item])
                    else:
                        new.append(item)
                setattr(node, field, new)
            elif isinstance(old, gast.AST):
                setattr(node, field, self.visit(old))
        return node

    def visit_Name(self, node):
        if node.id not in self.values:
            return node
        return _as_node(self.values[node.id], type(node.ctx))

    def visit_FunctionDef(self, node):
        if isinstance(self.values.get(node.name), str):
            node.name = self.values[node.name]
        return self.generic_visit(node)

    def _visit_declaration(self, node):
        names = []
        for name in node.names:
            value = self.values.get(name, name)
            names.extend(value if isinstance(value, list) else [value])
        if not names:
            return None
        node.names = names
        return node

    visit_Nonlocal = _visit_declaration
    visit_Global = _visit_declaration


def replace(template, **values):
    """Returns the list of statements of `template` with placeholders substituted."""
    module = gast.parse(textwrap.dedent(template))
    _strip_locations(module)
    module = _Replacer(values).visit(module)
    return module.body


def replace_as_expression(template, **values):
    """Like replace, for a template that is a single expression; returns the expression node."""
    body = replace(template, **values)
    if len(body) != 1 or not isinstance(body[0], gast.Expr):
        raise ValueError('template is not a single expression: %r' % template)
    return body[0].value


def name_tuple(names):
    """A gast tuple of string constants, e.g. the symbol names passed to the runtime operators."""
    elts = [gast.Constant(value=n, kind=None) for n in names]
    return gast.Tuple(elts=elts, ctx=gast.Load())
