"""User functions in tf.data (map, filter, flat_map, interleave, take_while, reduce): traced once
with AutoGraph, their structures and errors; expected values recorded from TF 2.21 or numpy."""
import collections

import numpy as np
import pytest

import defun as tf

D = tf.data.Dataset
P = collections.namedtuple('P', 'x y')


def spec(shape, dtype):
    return tf.TensorSpec(shape, dtype)


def values(ds):
    return [v.tolist() if isinstance(v, np.ndarray) else v for v in ds.as_numpy_iterator()]


def test_map_traces_once_and_runs_generated_code():
    traces = []

    def f(x):
        traces.append(1)
        if x > 2:              # AutoGraph: a tensor-dependent `if` becomes a cond
            return x * 10
        return x
    ds = D.range(5).map(f)
    assert len(traces) == 1
    assert values(ds) == [0, 1, 2, 30, 40] and values(ds) == [0, 1, 2, 30, 40]
    assert len(traces) == 1


def test_map_structures():
    ds = D.from_tensor_slices(([1, 2], [3, 4])).map(lambda a, b: a + b)   # tuples unpack
    assert values(ds) == [4, 6]
    d = D.from_tensor_slices({'a': [1], 'b': [2]}).map(lambda e: e['a'] * e['b'])
    assert values(d) == [2]
    # recorded from TF: a returned list is a tuple; a nested list is a tensor
    assert D.range(3).map(lambda x: [x, x + 1]).element_spec == (spec([], tf.int64),) * 2
    assert D.range(3).map(lambda x: (x, [x, x + 1])).element_spec == (
        spec([], tf.int64), spec([2], tf.int64))
    assert D.range(3).map(lambda x: 1).element_spec == spec([], tf.int32)
    nt = D.range(2).map(lambda x: P(x, {'z': tf.cast(x, tf.float32)}))
    out = list(nt)
    assert isinstance(out[1], P) and float(out[1].y['z']) == 1.0
    assert nt.map(lambda p: p.x + 1).element_spec == spec([], tf.int64)
    par = D.range(100).map(lambda x: x * x, num_parallel_calls=tf.data.AUTOTUNE)
    assert repr(par).startswith('<_ParallelMapDataset')
    assert values(par) == [i * i for i in range(100)]


def test_map_captures_variables_by_reference():
    v = tf.Variable(2, dtype=tf.int64)
    ds = D.range(3).map(lambda x: x * v)
    assert values(ds) == [0, 2, 4]
    v.assign(3)
    assert values(ds) == [0, 3, 6]


def test_map_errors():
    with pytest.raises(TypeError):
        D.from_tensor_slices(([1], [2])).map(lambda x: x)   # two components, one parameter
    with pytest.raises(TypeError, match='must return a value'):
        D.range(3).map(lambda x: None)
    # TF names the transformation: 'Error in user-defined function passed to MapDataset...'
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='user-defined function passed to MapDataset transformation'):
        list(D.range(3).map(lambda x: tf.gather(tf.constant([1, 2]), x)))

    def two_structures(x):
        if x > 1:
            return x, x
        return x
    with pytest.raises(TypeError, match='same nested structure'):
        D.range(3).map(two_structures)


def test_filter_take_while():
    assert values(D.range(10).filter(lambda x: x % 3 == 0)) == [0, 3, 6, 9]
    assert values(D.range(10).take_while(lambda x: x < 3)) == [0, 1, 2]
    # recorded from TF 2.21
    with pytest.raises(ValueError, match=r'must return a `tf.bool` scalar tensor, but its return '
                                         r'type is TensorSpec\(shape=\(\), dtype=tf.int64'):
        D.range(3).filter(lambda x: x)
    with pytest.raises(ValueError, match=r'TensorSpec\(shape=\(2,\), dtype=tf.bool'):
        D.range(3).filter(lambda x: tf.stack([x > 1, x > 2]))


def test_flat_map_and_interleave():
    fm = D.range(4).flat_map(lambda x: D.range(x))
    assert values(fm) == [0, 0, 1, 0, 1, 2]
    # orders recorded from TF 2.21
    il = D.range(4).interleave(lambda x: D.range(x), cycle_length=2, block_length=2)
    assert values(il) == [0, 0, 1, 0, 1, 2]
    il2 = D.range(1, 6).interleave(lambda x: D.from_tensors(x).repeat(x), cycle_length=2)
    assert values(il2) == [1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 4, 5, 5, 5, 5]
    with pytest.raises(TypeError, match='must return a `Dataset`'):
        D.range(3).flat_map(lambda x: x)


def test_reduce():
    assert int(D.range(5).reduce(np.int64(0), lambda s, x: s + x)) == 10
    d = D.range(3).reduce({'s': np.int64(0)}, lambda st, x: {'s': st['s'] + x})
    assert int(d['s']) == 3
    grown = D.range(3).reduce(tf.zeros([0], tf.int64), lambda st, x: tf.concat([st, [x]], 0))
    assert grown.numpy().tolist() == [0, 1, 2]     # state shape relaxed, as TF
    pair = D.from_tensor_slices(([1., 2.], [3., 4.])).reduce(0., lambda s, e: s + e[0] * e[1])
    assert float(pair) == 11.0
    # messages recorded from TF 2.21
    with pytest.raises(TypeError, match='int64'):
        D.range(3).reduce(0, lambda s, x: s + x)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r'\(initial_state=1, output=2\)'):
        D.range(3).reduce(np.int64(0), lambda s, x: (s, x))
    with pytest.raises(TypeError, match='The element types for the new state must match'):
        D.range(3).reduce(np.int64(0), lambda s, x: tf.cast(s, tf.float32))
