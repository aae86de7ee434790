"""cond, case, switch_case: eager and compiled results, tracing, errors, graph text, gradients."""
import numpy as np
import pytest

import defun as tf
from tests.control_flow.util import both_modes, check_gradients, check_second_order


@pytest.mark.parametrize('mode', ['eager', 'compiled'])
def test_cond_picks_the_branch_at_run_time(mode):
    def f(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x)
    f = dict(both_modes(f))[mode]
    np.testing.assert_allclose(f(tf.constant([1.0, 2.0])).numpy(), [2.0, 4.0])
    np.testing.assert_allclose(f(tf.constant([-1.0, -2.0])).numpy(), [1.0, 2.0])


def test_branches_are_traced_once_into_their_own_graphs():
    traced = []

    @tf.function
    def f(p, x):
        return tf.cond(p, lambda: traced.append('t') or x + 1.0, lambda: traced.append('f') or x)
    assert float(f(tf.constant(True), tf.constant(1.0))) == 2.0
    assert float(f(tf.constant(False), tf.constant(1.0))) == 1.0
    assert sorted(traced) == ['f', 't']
    graph = f.get_concrete_function(tf.constant(True), tf.constant(1.0)).graph
    ops = [op for op in graph.get_operations() if op.type.endswith('If')]
    assert len(ops) == 1 and ops[0].type == 'StatelessIf'
    text = graph.as_text()
    assert 'then_branch:' in text and 'else_branch:' in text
    nested = text.split('then_branch:')[1].split('else_branch:')[0]
    assert any(line.startswith('    ') and 'AddV2' in line for line in nested.splitlines())


def test_python_bool_and_constant_predicates_in_a_graph_as_tf():
    # TF's cond_v2 refuses a Python bool predicate, and builds the If op (tracing both branches)
    # for a constant one; only eagerly is the chosen branch simply called.
    calls = []

    @tf.function
    def f(x):
        return tf.cond(True, lambda: x, lambda: x * 0.0)
    with pytest.raises(TypeError, match='Python bool'):
        f(tf.constant(1.0))

    @tf.function
    def g(x):
        return tf.cond(tf.constant(False), lambda: calls.append('then') or x * 0.0,
                       lambda: calls.append('else') or x + 1.0)
    assert float(g(tf.constant(1.0))) == 2.0
    assert calls == ['then', 'else']
    graph = g.get_concrete_function(tf.constant(1.0)).graph
    assert [op for op in graph.get_operations() if op.type.endswith('If')]
    assert float(tf.cond(True, lambda: calls.append('eager') or 1.0, lambda: 2.0)) == 1.0
    assert calls == ['then', 'else', 'eager']


def test_nested_structures_none_and_python_numbers_as_outputs():
    @tf.function
    def f(p, x):
        return tf.cond(p, lambda: {'a': x, 'b': (x * 2.0, 1)}, lambda: {'a': -x, 'b': (x, 2)})
    r = f(tf.constant(False), tf.constant(3.0))
    assert float(r['a']) == -3.0 and float(r['b'][0]) == 3.0 and int(r['b'][1]) == 2

    @tf.function
    def g(p):
        return tf.cond(p, lambda: None, lambda: None)
    assert g(tf.constant(True)) is None


def test_differing_branch_shapes_give_the_most_specific_compatible_shape():
    @tf.function
    def f(p):
        r = tf.cond(p, lambda: tf.zeros([2, 3]), lambda: tf.ones([4, 3]))
        assert r.shape.as_list() == [None, 3]
        return r
    assert f(tf.constant(False)).shape == (4, 3)


def test_mismatched_branches_raise_type_error_naming_the_branches():
    @tf.function
    def dtypes(x):
        return tf.cond(x > 0, lambda: {'v': tf.constant(1.0)}, lambda: {'v': tf.constant(1)})
    with pytest.raises(TypeError, match=r"\['v'\] of true_fn has dtype float32.*false_fn"):
        dtypes(tf.constant(1))

    @tf.function
    def structure(x):
        return tf.cond(x > 0, lambda: (x, x), lambda: x)
    with pytest.raises(TypeError, match='same number, type, and overall structure'):
        structure(tf.constant(1))


def test_predicate_must_be_a_boolean_scalar():
    @tf.function
    def f(x):
        return tf.cond(x, lambda: x, lambda: x)
    with pytest.raises(TypeError, match='boolean'):
        f(tf.constant(1.0))

    @tf.function
    def g(x):
        return tf.cond(x > 0, lambda: x, lambda: x)
    with pytest.raises(ValueError, match='scalar'):
        g(tf.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match='callable'):
        tf.cond(True, 1, lambda: 2)


@pytest.mark.parametrize('mode', ['eager', 'compiled'])
def test_case_and_switch_case(mode):
    def f(x, i):
        c = tf.case([(x < 0, lambda: tf.constant(-1)), (x < 10, lambda: tf.constant(1))],
                    default=lambda: tf.constant(100))
        s = tf.switch_case(i, [lambda: x * 10, lambda: x * 20], default=lambda: x * 0)
        d = tf.switch_case(i, {0: lambda: x, 1: lambda: x + 1})
        return c, s, d
    f = dict(both_modes(f))[mode]
    for x, i, expected in [(-3, 0, (-1, -30, -3)), (3, 1, (1, 60, 4)), (30, 7, (100, 0, 31))]:
        assert [int(v) for v in f(tf.constant(x), tf.constant(i))] == list(expected)


def test_switch_case_builds_one_case_op():
    @tf.function
    def f(i, x):
        return tf.switch_case(i, [lambda: x, lambda: x * 2.0, lambda: x * 3.0])
    graph = f.get_concrete_function(tf.constant(0), tf.constant(1.0)).graph
    assert [op.type for op in graph.get_operations() if 'Case' in op.type] == ['StatelessCase']
    assert [float(f(tf.constant(i), tf.constant(1.0))) for i in (0, 1, 2, -1, 9)] == \
        [1.0, 2.0, 3.0, 3.0, 3.0]
    with pytest.raises(TypeError, match='int32 or int64'):
        f(tf.constant(1.0), tf.constant(1.0))


def test_stateful_branches_make_a_stateful_op():
    v = tf.Variable(1.0)

    @tf.function
    def f(p):
        tf.cond(p, lambda: v.assign_add(1.0), lambda: v.assign_sub(1.0))
        return v.read_value()
    assert float(f(tf.constant(True))) == 2.0
    assert float(f(tf.constant(False))) == 1.0
    graph = f.get_concrete_function(tf.constant(True)).graph
    assert [op.type for op in graph.get_operations() if op.type.endswith('If')] == ['If']


def _branchy(x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: x * x * x + tf.sin(x), lambda: tf.exp(x) * 3.0)


@pytest.mark.parametrize('x', [np.array([0.3, 1.2]), np.array([-0.7, 0.1])])
def test_cond_gradient_every_way(x):
    check_gradients(_branchy, x)


@pytest.mark.parametrize('x', [np.array([0.3, 1.2]), np.array([-0.7, 0.1])])
def test_cond_second_order(x):
    check_second_order(_branchy, x)


def test_case_gradient_and_captured_outer_tensor():
    def f(x):
        w = x * 2.0
        return tf.switch_case(tf.cast(tf.reduce_sum(x) > 0, tf.int32),
                              [lambda: tf.sin(w), lambda: w * x, lambda: x])
    check_gradients(f, np.array([0.4, 0.5]))
    check_gradients(f, np.array([-0.4, 0.1]))
    check_second_order(f, np.array([0.4, 0.5]))


def test_gradient_with_respect_to_a_variable_read_in_a_branch():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(p):
        with tf.GradientTape() as tape:
            y = tf.cond(p, lambda: tf.reduce_sum(v * v), lambda: tf.constant(0.0))
        return tape.gradient(y, v)
    np.testing.assert_allclose(f(tf.constant(True)).numpy(), [2.0, 4.0])
    np.testing.assert_allclose(f(tf.constant(False)).numpy(), [0.0, 0.0])


def test_gradient_op_is_a_cond_over_the_branch_gradients():
    @tf.function
    def f(x):
        y = tf.cond(x > 0.0, lambda: x * x, lambda: -3.0 * x)
        return tf.gradients(y, x)[0]
    graph = f.get_concrete_function(tf.constant(1.0)).graph
    ifs = [op for op in graph.get_operations() if op.type.endswith('If')]
    assert len(ifs) == 2
    forward, backward = ifs
    assert backward.inputs[0] is forward.inputs[0]  # the same predicate


def test_case_and_switch_case_refuse_python_predicates_and_indices_as_tf():
    # TF: tf.case verifies each pred is a Tensor (allow_python_preds=False); switch_case needs a
    # Tensor branch_index. Eagerly too.
    with pytest.raises(TypeError, match='pred must be a Tensor'):
        tf.case([(True, lambda: tf.constant(1))], default=lambda: tf.constant(2))
    with pytest.raises(TypeError, match='branch_index'):
        tf.switch_case(1, [lambda: tf.constant(1), lambda: tf.constant(2)])
    assert int(tf.switch_case(tf.constant(1), [lambda: tf.constant(1), lambda: tf.constant(2)])) == 2
