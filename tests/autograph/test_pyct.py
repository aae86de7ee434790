"""Tests of the pyct toolkit: parser, templates, naming, annotations, origin, loader."""
import types

import gast
import pytest

from autograph.pyct import anno
from autograph.pyct import loader
from autograph.pyct import naming
from autograph.pyct import origin
from autograph.pyct import parser
from autograph.pyct import templates


def test_parse_function_keeps_user_lines():
    def f(x):
        return x + 1
    node = parser.parse_entity(f)
    assert isinstance(node, gast.FunctionDef) and node.name == 'f'
    assert node.lineno == f.__code__.co_firstlineno
    assert node.body[0].lineno == f.__code__.co_firstlineno + 1


def test_parse_method_is_dedented():
    class C:
        def method(self, x):
            if x:
                return 1
            return 2
    node = parser.parse_entity(C.method)
    assert [type(s).__name__ for s in node.body] == ['If', 'Return']
    assert node.col_offset == 8


def test_parse_picks_the_right_lambda():
    fs = (lambda: 1, lambda: 2)  # noqa: E731
    nodes = [parser.parse_entity(f) for f in fs]
    assert [n.body.value for n in nodes] == [1, 2]


_KEPT = []


def _keep(value):
    _KEPT.append(value)
    return lambda fn: fn  # noqa: E731


@_keep(lambda: 'in a decorator')  # noqa: E731
def _decorated():
    return None


def test_parse_finds_lambdas_in_decorators_and_nested_blocks():
    # Lambdas are found in the file's statements that span their line, decorators included, and
    # come back as gast nodes located in the file.
    node = parser.parse_entity(_KEPT[0])
    assert isinstance(node, gast.Lambda) and node.body.value == 'in a decorator'

    class Holder:
        def method(self):
            return [(lambda y: y * 3) for _ in range(1)][0]  # noqa: E731
    inner = Holder().method()
    node = parser.parse_entity(inner)
    assert isinstance(node, gast.Lambda) and isinstance(node.body, gast.BinOp)
    assert node.lineno == inner.__code__.co_firstlineno and node.col_offset > 8


def test_parse_unavailable_source():
    namespace = {}
    exec('def g(x):\n    return x\n', namespace)
    with pytest.raises(parser.SourceUnavailableError):
        parser.parse_entity(namespace['g'])


def test_unparse_round_trip():
    module = parser.parse_str('def f(a, *b, k=1):\n    return [i for i in b if i > a]\n')
    assert 'def f(a, *b, k=1):' in parser.unparse(module.body[0])


def test_templates_replace_names_lists_and_nonlocals():
    body = gast.parse('y = 1\nz = 2').body
    new = templates.replace('''
def fn_name(params):
    nonlocal names
    body
    return target
''', fn_name='helper', params=['a', 'b'], names=['y', 'z'], body=body, target='y')
    source = parser.unparse(new)
    assert 'def helper(a, b):' in source
    assert 'nonlocal y, z' in source
    assert 'y = 1' in source and 'return y' in source


def test_templates_empty_nonlocal_is_removed():
    new = templates.replace('def f():\n    nonlocal names\n    pass', names=[])
    assert 'nonlocal' not in parser.unparse(new)


def test_templates_fix_store_context():
    target = gast.parse('(a, b)').body[0].value
    new = templates.replace('target = value', target=target, value='c')
    assert isinstance(new[0].targets[0].ctx, gast.Store)
    assert all(isinstance(e.ctx, gast.Store) for e in new[0].targets[0].elts)


def test_namer_avoids_reserved_and_issued():
    namer = naming.Namer(['x', 'if_body'])
    assert namer.new_symbol('if_body') == 'if_body_1'
    assert namer.new_symbol('if_body') == 'if_body_2'
    assert namer.new_symbol('x_') == 'x_'


def test_names_in_collects_everything():
    tree = gast.parse('import a.b as c\ndef f(p):\n    global g\n    return p.q')
    assert {'c', 'f', 'p', 'g'} <= naming.names_in(tree)


def test_annotations():
    node = gast.Name(id='x', ctx=gast.Load(), annotation=None, type_comment=None)
    assert not anno.hasanno(node, anno.Key.LIVE_OUT)
    anno.setanno(node, anno.Key.LIVE_OUT, frozenset(['x']))
    other = gast.Pass()
    anno.copyanno(node, other, anno.Key.LIVE_OUT)
    assert anno.getanno(other, anno.Key.LIVE_OUT) == {'x'}
    anno.delanno(node, anno.Key.LIVE_OUT)
    assert anno.getanno(node, anno.Key.LIVE_OUT, 'none') == 'none'
    assert 'live right after' in anno.Key.LIVE_OUT.value


def test_origin_source_map_points_at_user_lines():
    def f(x):
        y = x * 2
        return y
    node = parser.parse_entity(f)
    origin.resolve(node, f.__code__.co_filename, 'f')
    source = parser.unparse(node)
    mapping = origin.source_map(node, source)
    first = f.__code__.co_firstlineno
    assert mapping[2].lineno == first + 1 and mapping[2].source_line == 'y = x * 2'
    assert mapping[3].lineno == first + 2


def test_loader_uses_original_closure_cells():
    scale = 2

    def f(x):
        return x * scale
    node = parser.parse_entity(f)
    code = loader.compile_function(node, f.__code__.co_filename, ['ag__', 'scale'])
    g = loader.make_function(code, f, {'ag__': types.CellType(None)})
    assert g(3) == 6
    scale = 5  # noqa: F841  (rebinding is seen through the shared cell)
    assert g(3) == 15
    assert g.__code__.co_filename == f.__code__.co_filename
