"""Compile a converted function tree into a code object, and rebuild a function from it.

The converted tree is compiled with the user's file name and its (user) line numbers, inside a
factory function that declares `ag__` and the original free variables as locals: that makes them
free variables of the converted code, so the new function can be given the original closure cells
(seeing later rebinding exactly as the original does) plus a cell holding the runtime module.
"""
import ast
import types

import gast

_LOCATION_FIELDS = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')


def _drop_empty_locations(tree):
    for node in ast.walk(tree):
        for field in _LOCATION_FIELDS:
            if field in getattr(node, '_attributes', ()) and getattr(node, field, 0) is None:
                delattr(node, field)


def _clamp_locations(tree):
    """Makes every node's end at or after its start (generated nodes mix inherited positions)."""
    for node in ast.walk(tree):
        if 'end_lineno' not in getattr(node, '_attributes', ()):
            continue
        if (node.end_lineno, node.end_col_offset) < (node.lineno, node.col_offset):
            node.end_lineno, node.end_col_offset = node.lineno, node.col_offset


def _factory(node, free_names):
    """gast Module: def factory(): <free names> = None; <node>; return <function>."""
    lineno = node.lineno
    body = [gast.Assign(targets=[gast.Name(id=n, ctx=gast.Store(), annotation=None, type_comment=None)],
                        value=gast.Constant(value=None, kind=None), type_comment=None)
            for n in free_names]
    if isinstance(node, gast.Lambda):
        body.append(gast.Return(value=node))
    else:
        if node.name not in free_names:
            # Without this, the def would make the function's own name (used by recursive
            # calls) a local of the factory, and so a free variable of the converted code.
            body.insert(0, gast.Global(names=[node.name]))
        body.append(node)
        body.append(gast.Return(value=gast.Name(id=node.name, ctx=gast.Load(), annotation=None,
                                                type_comment=None)))
    factory = gast.FunctionDef(
        name='autograph_factory', args=gast.arguments(args=[], posonlyargs=[], vararg=None,
                                                      kwonlyargs=[], kw_defaults=[], kwarg=None,
                                                      defaults=[]),
        body=body, decorator_list=[], returns=None, type_comment=None, type_params=[])
    # Generated statements of the factory inherit this location from it (fix_missing_locations).
    factory.lineno, factory.col_offset = lineno, 0
    factory.end_lineno, factory.end_col_offset = node.end_lineno, node.end_col_offset
    return gast.Module(body=[factory], type_ignores=[])


def compile_function(node, filename, free_names):
    """Returns the code object of the function defined by the gast `node`."""
    module = gast.gast_to_ast(_factory(node, free_names))
    _drop_empty_locations(module)
    ast.fix_missing_locations(module)
    _clamp_locations(module)
    module_code = compile(module, filename, 'exec', dont_inherit=True)
    factory_code = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    name = '<lambda>' if isinstance(node, gast.Lambda) else node.name
    return next(c for c in factory_code.co_consts
                if isinstance(c, types.CodeType) and c.co_name == name)


def make_function(code, original, cells):
    """A function running `code` with `original`'s globals, defaults and metadata.

    `cells` maps free-variable names to cells; names missing from it take `original`'s cells.
    """
    closure_of = dict(zip(original.__code__.co_freevars, original.__closure__ or ()))
    closure_of.update(cells)
    closure = tuple(closure_of[name] for name in code.co_freevars)
    fn = types.FunctionType(code, original.__globals__, original.__name__,
                            original.__defaults__, closure or None)
    fn.__kwdefaults__ = original.__kwdefaults__
    fn.__qualname__ = original.__qualname__
    fn.__doc__ = original.__doc__
    fn.__module__ = original.__module__
    fn.__annotations__ = dict(getattr(original, '__annotations__', {}) or {})
    return fn


def code_objects(code):
    """`code` and every code object nested in it."""
    found = [code]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found.extend(code_objects(const))
    return found
