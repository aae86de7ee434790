"""The conversion pipeline: a Python function in, a converted function (and its source) out.

`convert_function(fn)` parses `fn`, converts each scope of its tree innermost first (nested
functions and lambdas are converted in place, as part of their parent), and compiles the result with
the user's file name and lines. The compiled code is cached per code object, so each `def` is
converted once however many closures it creates; each closure gets its own function object.
"""
import types

import gast

from autograph.converters import asserts
from autograph.converters import break_statements
from autograph.converters import call_trees
from autograph.converters import conditional_expressions
from autograph.converters import continue_statements
from autograph.converters import control_flow
from autograph.converters import directives
from autograph.converters import lists
from autograph.converters import logical_expressions
from autograph.converters import return_statements
from autograph.converters import variables
from autograph.pyct import loader
from autograph.pyct import naming
from autograph.pyct import origin
from autograph.pyct import parser
from autograph.pyct import transformer

# Order matters: call_trees must see user calls before lambdas wrap them; return before break
# (a return in a loop becomes a break); logical after break/continue/return (they emit `not`);
# variables (`del`) just before control_flow, which carries what it writes; control_flow last, as
# it consumes the statements all others produce.
CONVERTERS = (directives, lists, call_trees, asserts, return_statements, break_statements,
              continue_statements, logical_expressions, conditional_expressions, variables,
              control_flow)
# Converters that run only when their optional feature is on (autograph.options), as in TF.
OPTIONAL = {lists: 'LISTS', asserts: 'ASSERT_STATEMENTS'}

AG_NAME = 'ag__'
_NESTED = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda)


class ConvertedCode:
    """The compiled result for one code object, and what is needed to instantiate and show it."""

    def __init__(self, code, tree, helper_codes, function_name):
        self.code = code
        self.tree = tree
        self.helper_codes = helper_codes
        self.function_name = function_name

    def source(self):
        return parser.unparse(self.tree)


def _direct_nested_scopes(node):
    """Nested functions and lambdas whose enclosing scope is `node`."""
    found = []
    stack = list(gast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        if isinstance(n, _NESTED):
            found.append(n)
            continue
        if isinstance(n, gast.ClassDef):
            continue  # methods of local classes are converted when called
        stack.extend(gast.iter_child_nodes(n))
    return found


def convert_tree(node, namer, filename, features=frozenset()):
    """Converts `node` (a FunctionDef or Lambda) and its nested scopes in place; returns it."""
    for nested in _direct_nested_scopes(node):
        convert_tree(nested, namer, filename, features)
    name = getattr(node, 'name', '<lambda>')
    ctx = transformer.Context(node, namer, filename, name, features)
    for converter in CONVERTERS:
        if OPTIONAL.get(converter, None) in (None, *features):
            node = converter.transform(node, ctx)
    return node


def convert_code(fn, features=frozenset()):
    """Parses and converts `fn` with the optional `features` turned on; returns a ConvertedCode.

    Raises parser.SourceUnavailableError.
    """
    node = parser.parse_entity(fn)
    filename = fn.__code__.co_filename
    origin.resolve(node, filename, fn.__name__)
    if not isinstance(node, gast.Lambda):
        node.decorator_list = []
    reserved = transformer.reserved_names(node, list(fn.__globals__) + list(fn.__code__.co_freevars)
                                          + [AG_NAME])
    namer = naming.Namer(reserved)
    node = convert_tree(node, namer, filename, features)
    free_names = [AG_NAME] + list(fn.__code__.co_freevars)
    code = loader.compile_function(node, filename, free_names)
    issued = namer.reserved - reserved
    helpers = {c for c in loader.code_objects(code) if c.co_name in issued}
    return ConvertedCode(code, node, helpers, fn.__name__)


def instantiate(converted, fn, ag_cell):
    """A function running converted code with `fn`'s globals, closure and defaults."""
    return loader.make_function(converted.code, fn, {AG_NAME: ag_cell})


def new_cell(value):
    return types.CellType(value)
