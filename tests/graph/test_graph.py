"""Graph, Operation and graph tensors: TF's API, inference, names, scopes, folding, errors."""
import json

import numpy as np
import pytest

import defun as tf
from defun.core import error_helpers


def test_ops_are_added_with_inferred_dtype_and_shape():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name='x')
        y = tf.matmul(x, tf.ones([3, 4]))
        assert not tf.executing_eagerly()
    assert tf.executing_eagerly()
    assert y.dtype is tf.float32
    assert y.shape.as_list() == [None, 4]
    assert y.graph is g
    assert y.op in g.get_operations()
    assert g.get_operation_by_name('x').type == 'Placeholder'
    assert g.get_tensor_by_name(y.name) is y


def test_unique_names_follow_tf_style():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0)
        b = tf.constant(2.0)
        with tf.name_scope('block'):
            c = a + b
            d = a + b
    assert {a.op.name, b.op.name} == {'Const', 'Const_1'}
    assert c.op.name.startswith('block/') and d.op.name.startswith('block/')
    assert c.op.name != d.op.name


def test_operation_attributes_and_control_inputs():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2])
        s = tf.reduce_sum(x, axis=0)
        with tf.control_dependencies([s]):
            y = x * 2.0
    assert s.op.get_attr('axis') == (0,)
    assert s.op.inputs[0] is x
    assert y.op.control_inputs == (s.op,)
    with pytest.raises(ValueError):
        s.op.get_attr('nope')


def test_graph_tensor_as_bool_raises_type_error_naming_fix():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [])
        with pytest.raises(TypeError, match='AutoGraph|tf.cond'):
            bool(x > 0.0)
        with pytest.raises(AttributeError):
            x.numpy()


def test_get_static_value_reads_constants_and_known_shapes():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3])
        assert tf.get_static_value(tf.shape(x)).tolist() == [2, 3]
        assert tf.get_static_value(tf.constant(3) * 4) is None  # TF: Mul is not in its list
        assert tf.get_static_value(x) is None
        u = tf.compat.v1.placeholder(tf.float32, [None, 3])
        assert tf.get_static_value(tf.shape(u)) is None
    assert tf.get_static_value(tf.constant([1, 2])).tolist() == [1, 2]


def test_finalize_and_foreign_tensors():
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default():
        a = tf.constant(1.0)
    with g2.as_default():
        with pytest.raises(error_helpers.InaccessibleTensorError):
            a + 1.0
    g2.finalize()
    with g2.as_default(), pytest.raises(RuntimeError, match='finalized'):
        tf.constant(1.0)


def test_placeholder_is_graph_only():
    with pytest.raises(RuntimeError):
        tf.compat.v1.placeholder(tf.float32, [])


def test_init_scope_lifts_to_eager():
    g = tf.Graph()
    with g.as_default():
        with tf.init_scope():
            assert tf.executing_eagerly()
            c = tf.constant(2.0)
        assert not tf.executing_eagerly()
    assert c.numpy() == 2.0


def test_text_dot_and_graph_def():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None], name='x')
        tf.exp(x, name='e')
    text = g.as_text()
    assert 'e:0: float32[?] = Exp(x:0)' in text
    assert '"x" -> "e"' in g.as_dot()
    gd = g.as_graph_def()
    nodes = {n.name: n for n in gd.node}
    assert nodes['e'].op == 'Exp' and nodes['e'].input == ['x']
    json.loads(gd.to_json())


def test_graph_def_names_first_outputs_by_op_name():
    # TF 2.21's GraphDef of this graph: unstack ['Const'], mul ['unstack:1', 'mul/y'].
    g = tf.Graph()
    with g.as_default():
        parts = tf.unstack(tf.constant([1.0, 2.0]))
        tf.multiply(parts[1], 2.0, name='mul')
    nodes = {n.op: n for n in reversed(g.as_graph_def().node)}  # the first node of each op type
    assert nodes['Unpack'].input == [nodes['Const'].name]
    assert nodes['Mul'].input[0] == nodes['Unpack'].name + ':1'
    assert all(not i.endswith(':0') for i in nodes['Mul'].input)


def test_name_scope_is_a_no_op_eagerly():
    with tf.name_scope('outer') as scope:
        assert tf.constant(1.0).numpy() == 1.0
    assert scope == 'outer/'


def test_inference_error_is_clear():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3])
        y = tf.compat.v1.placeholder(tf.float32, [4, 5])
        with pytest.raises(ValueError, match='Matrix size-incompatible|incompatible'):
            tf.matmul(x, y)
        assert len(g.get_operations()) == 2  # the failed op was not added


def test_eager_use_of_a_graph_tensor_is_a_clear_error():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2])
    with pytest.raises(error_helpers.InaccessibleTensorError):
        tf.sin(x)
    assert np.isclose(tf.sin(tf.constant(0.0)).numpy(), 0.0)


def test_function_graph_outputs_leave_through_identity_ops():
    # TF 2.21 (the function guide): "[] -> a", "['a', 'a'] -> add", "['add'] -> Identity".
    @tf.function
    def double_strings(a):
        return a + a

    graph = double_strings.get_concrete_function(tf.TensorSpec(None, tf.string)).graph
    assert [(list(n.input), n.name) for n in graph.as_graph_def().node] == [
        ([], 'a'), (['a', 'a'], 'add'), (['add'], 'Identity')]

    @tf.function
    def two(x):
        return x, x * 2

    concrete = two.get_concrete_function(tf.constant(1.0))
    assert [t.name for t in concrete.outputs] == ['Identity:0', 'Identity_1:0']  # TF 2.21
    assert [float(t) for t in two(tf.constant(1.0))] == [1.0, 2.0]
