"""Helpers for the autograph tests: apply chosen converters to a function and load the result."""
import types

from autograph import impl
from autograph.pyct import loader
from autograph.pyct import naming
from autograph.pyct import origin
from autograph.pyct import parser
from autograph.pyct import transformer


def convert_with(fn, *converters, features=frozenset()):
    """Returns (converted function, its source) with only `converters` applied, in that order
    (with the optional `features` turned on)."""
    node = parser.parse_entity(fn)
    origin.resolve(node, fn.__code__.co_filename, fn.__name__)
    node.decorator_list = []
    namer = naming.Namer(transformer.reserved_names(node, list(fn.__globals__) + ['ag__']))
    ctx = transformer.Context(node, namer, fn.__code__.co_filename, fn.__name__, features)
    for converter in converters:
        node = converter.transform(node, ctx)
    source = parser.unparse(node)
    code = loader.compile_function(node, fn.__code__.co_filename,
                                   ['ag__'] + list(fn.__code__.co_freevars))
    converted = loader.make_function(code, fn, {'ag__': types.CellType(impl.AG)})
    return converted, source
