"""Tests of the static analyses: scopes, liveness, reaching definitions."""
import gast

from autograph.pyct import anno
from autograph.pyct import parser
from autograph.pyct.analysis import liveness
from autograph.pyct.analysis import reaching
from autograph.pyct.analysis import scopes


def _function(source):
    return parser.parse_str(source).body[0]


def test_scopes_reads_and_writes():
    found = scopes.activity(gast.parse('a = b + c\nd.e = f\ng[h] += 1\nfor i in j: pass').body)
    assert found.writes == {'a', 'i'}
    assert found.reads == {'b', 'c', 'd', 'f', 'g', 'h', 'j'}


def test_scopes_nested_function_contributes_free_reads_and_nonlocal_writes():
    body = gast.parse('''
def inner(p):
    nonlocal n
    n = p + q
    local = 1
    return local
''').body
    found = scopes.activity(body)
    assert found.writes == {'inner', 'n'}
    assert found.reads == {'q'}


def test_scopes_comprehension_targets_are_local():
    found = scopes.activity(gast.parse('r = [x * y for x in xs]').body)
    assert found.reads == {'y', 'xs'}
    assert found.writes == {'r'}


def test_liveness_of_if_outputs():
    fn = _function('''
def f(x):
    if x:
        y = 1
        tmp = 2
    else:
        y = 2
    return y
''')
    liveness.resolve(fn)
    assert anno.getanno(fn.body[0], anno.Key.LIVE_OUT) == {'y'}


def test_liveness_loop_head_includes_carried_variables():
    fn = _function('''
def f(n):
    s = 0
    i = 0
    while i < n:
        t = i * 2
        s += t
        i += 1
    return s
''')
    liveness.resolve(fn)
    loop = fn.body[2]
    assert anno.getanno(loop, anno.Key.LIVE_IN) == {'i', 'n', 's'}
    assert anno.getanno(loop, anno.Key.LIVE_OUT) == {'s'}


def test_liveness_for_target_not_live_at_head():
    fn = _function('''
def f(xs):
    total = 0
    for x in xs:
        total += x
    return total
''')
    liveness.resolve(fn)
    assert anno.getanno(fn.body[1], anno.Key.LIVE_IN) == {'total'}


def test_reaching_definitions_join_of_branches():
    fn = _function('''
def f(c):
    if c:
        a = 1
        b = 1
    else:
        a = 2
    if a:
        pass
    return b
''')
    reaching.resolve(fn)
    assert anno.getanno(fn.body[1], anno.Key.DEFINED_IN) == {'c', 'a'}
    read_b = fn.body[2].value
    assert not anno.getanno(read_b, anno.Key.DEFINED_HERE, False)
    read_a = fn.body[1].test
    assert anno.getanno(read_a, anno.Key.DEFINED_HERE)


def test_reaching_definitions_return_ends_a_path():
    fn = _function('''
def f(c):
    if c:
        return 0
    else:
        a = 1
    return a
''')
    reaching.resolve(fn)
    assert anno.getanno(fn.body[1].value, anno.Key.DEFINED_HERE)


def test_reaching_definitions_loop_body_may_not_run():
    fn = _function('''
def f(n):
    for i in range(n):
        last = i
    return last
''')
    reaching.resolve(fn)
    assert not anno.getanno(fn.body[1].value, anno.Key.DEFINED_HERE, False)
