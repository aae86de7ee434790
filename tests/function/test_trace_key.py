"""TraceKey: one walk over the arguments builds the key; its methods answer what the cache and the
tracer ask (accepts, relax, render, placeholders, signature, Python-value matching)."""
import collections

import numpy as np

import defun as tf
from defun.core import context
from defun.graphs.funcgraph import FuncGraph
from defun.functions.trace_key import TENSOR, TraceKey
from defun.functions.trace_types import VariableSpec

Point = collections.namedtuple('Point', ['x', 'y'])


def build(*values, names=None):
    names = names or tuple(f'a{i}' for i in range(len(values)))
    return TraceKey.build(names, values)


def test_one_walk_gives_key_feeds_and_holders_in_leaf_order():
    t, s = tf.constant([1.0, 2.0]), tf.constant(3)
    obj = object()
    key, feeds, holders = build({'b': t, 'a': [s, 2]}, Point(np.float64(1.5), obj))
    # dict leaves in sorted key order, as nest.flatten: a's list first, then b.
    assert [f is s for f in feeds[:1]] == [True] and feeds[1] is t
    assert feeds[2].dtype == tf.float64 and feeds[2].shape == ()
    assert holders == [obj]
    assert len(key.leaves) == 5 and hash(key) == hash(build({'b': t, 'a': [s, 2]},
                                                           Point(np.float64(1.5), obj))[0])


def test_tensor_leaf_equals_the_hot_path_tuple():
    t = tf.constant([1.0, 2.0])
    key, _, _ = build(t)
    assert key.leaves[0] == (TENSOR, np.dtype('float32'), (2,))
    assert hash(key.leaves[0]) == hash((TENSOR, np.dtype('float32'), (2,)))
    assert key.tree == TraceKey.flat_tree(1)


def test_python_values_key_by_equality_and_structure_by_type():
    assert build(1)[0] == build(1.0)[0] == build(True)[0]
    assert build(2)[0] != build(3)[0]
    assert build([1, 2])[0] != build((1, 2))[0]
    assert build(Point(1, 2))[0] != build((1, 2))[0]
    assert build({'a': 1})[0] != build({'b': 1})[0]


def test_accepts_and_relax_follow_shapes():
    k2 = build(tf.zeros([2, 3]))[0]
    k4 = build(tf.zeros([4, 3]))[0]
    relaxed = k2.relax(k4)
    assert relaxed.leaves[0][2] == (None, 3)
    assert relaxed.accepts(k2) and relaxed.accepts(k4) and not k2.accepts(k4)
    assert k2.relax(build(tf.zeros([2, 3], tf.int32))[0]) is None
    assert build(1)[0].relax(build(2)[0]) is None


def test_render_and_describe_changes():
    old = build(tf.zeros([2]), 1, names=('x', 'n'))[0]
    new = build(tf.zeros([3]), 1, names=('x', 'n'))[0]
    assert old.describe_changes(new) == [
        ('x', 'TensorSpec(shape=(2,), dtype=tf.float32, name=None)',
         'TensorSpec(shape=(3,), dtype=tf.float32, name=None)')]
    nested = build({'k': [1, 'a']}, Point(None, 2.5), names=('d', 'p'))[0]
    assert nested.rendered() == [('d', "{'k': [1, 'a']}"), ('p', 'Point(None, 2.5)')]


def test_placeholders_and_signature_rebuild_the_arguments():
    values = [Point(tf.zeros([2]), 3), {'w': tf.constant(1)}]
    key, _, _ = TraceKey.build(('p', 'd'), values)
    graph = FuncGraph('g')
    with context.graph_mode(graph):
        traced, inputs = key.placeholders(values, graph)
    assert isinstance(traced[0], Point) and traced[0].y == 3
    assert [ph.op.name for ph in inputs] == ['p_0', 'd_w']
    assert traced[0].x is inputs[0] and traced[1]['w'] is inputs[1]
    shown = key.signature(values)
    assert shown[0] == Point(tf.TensorSpec([2], tf.float32, 'p_x'), 3)
    assert shown[1] == {'w': tf.TensorSpec([], tf.int32, 'd_w')}


def test_mismatch_names_the_parameter_whose_python_value_differs():
    key, _, _ = TraceKey.build(('x', 'n'), [tf.zeros([2]), [1, 2]])
    assert key.mismatch([tf.ones([2]), [1, 2]]) is None
    assert key.mismatch([tf.ones([2]), [1, 3]])[0] == 'n'
    assert key.mismatch([tf.ones([2]), (1, 2)])[0] == 'n'


def test_variables_key_by_spec_and_alias():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    ka, feeds, holders = build(a)
    assert ka == build(b)[0] and feeds == [a.handle] and holders == []
    assert ka.signature([a]) == [VariableSpec([], tf.float32, True, 0)]
    same, feeds, _ = build(a, a)
    assert same != build(a, b)[0] and len(feeds) == 1
    assert build(tf.Variable(1.0, trainable=False))[0] != ka
    assert build(tf.Variable([1.0]))[0] != ka
