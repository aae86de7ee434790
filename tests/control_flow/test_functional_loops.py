"""map_fn, scan, foldl, foldr: against Python loops, eager and compiled, and their gradients."""
import numpy as np
import pytest

import defun as tf
from tests.control_flow.util import both_modes, check_gradients, check_second_order


@pytest.mark.parametrize('mode', ['eager', 'compiled'])
def test_map_fn(mode):
    def f(x, ints):
        rows = tf.map_fn(lambda r: tf.reduce_sum(r), x)
        pairs = tf.map_fn(lambda ab: ab[0] * ab[1], (ints, ints + 1), fn_output_signature=tf.int32)
        two = tf.map_fn(lambda v: (v, tf.cast(v, tf.float32) / 2), ints,
                        fn_output_signature=(tf.int32, tf.float32))
        return rows, pairs, two
    f = dict(both_modes(f))[mode]
    x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    rows, pairs, (a, b) = f(tf.constant(x), tf.constant([1, 2, 3]))
    assert rows.numpy().tolist() == [3.0, 7.0, 11.0]
    assert pairs.numpy().tolist() == [2, 6, 12]
    assert a.numpy().tolist() == [1, 2, 3] and b.numpy().tolist() == [0.5, 1.0, 1.5]


@pytest.mark.parametrize('mode', ['eager', 'compiled'])
def test_scan_and_folds_match_python(mode):
    def f(x):
        return (tf.scan(lambda a, v: a * 0.5 + v, x, initializer=tf.zeros([2])),
                tf.scan(lambda a, v: a + v, x[:, 0], reverse=True),
                tf.foldl(lambda a, v: a * 10.0 + v, x[:, 1]),
                tf.foldr(lambda a, v: a * 10.0 + v, x[:, 1]),
                tf.foldl(lambda a, v: a - v, x[:, 0], initializer=tf.constant(10.0)))
    f = dict(both_modes(f))[mode]
    x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    ema, rscan, fl, fr, init = f(tf.constant(x))
    np.testing.assert_allclose(ema.numpy(), [[1.0, 2.0], [3.5, 5.0], [6.75, 8.5]])
    assert rscan.numpy().tolist() == [9.0, 8.0, 5.0]
    assert float(fl) == 246.0 and float(fr) == 642.0 and float(init) == 1.0


def test_map_fn_errors():
    with pytest.raises(ValueError, match='scalars'):
        tf.map_fn(lambda v: v, tf.constant(1.0))
    with pytest.raises(ValueError, match='fn_output_signature'):
        tf.map_fn(lambda v: (v, v), tf.constant([1.0, 2.0]))


FNS = {
    'map_fn': lambda x: tf.map_fn(lambda v: v * v * v, x),
    'scan': lambda x: tf.scan(lambda a, v: a * v, x),
    'foldl': lambda x: tf.foldl(lambda a, v: a + v * v, x, initializer=tf.constant(0.0, x.dtype)),
    'foldr': lambda x: tf.foldr(lambda a, v: a * tf.sin(v), x),
}


@pytest.mark.parametrize('name', sorted(FNS))
def test_gradients(name):
    check_gradients(FNS[name], np.array([1.0, 2.0, 3.0]))


@pytest.mark.parametrize('name', ['map_fn', 'scan'])
def test_second_order(name):
    check_second_order(FNS[name], np.array([1.0, 2.0, 3.0]))


def test_map_fn_result_must_have_the_signature_structure():
    # TF checks fn's result against fn_output_signature (or elems): TypeError for another
    # sequence type, ValueError for another nesting.
    x = tf.constant([1.0, 2.0])
    with pytest.raises(TypeError):
        tf.map_fn(lambda t: {'s': t[0] + t[1]}, (x, x))
    with pytest.raises(ValueError):
        tf.map_fn(lambda t: (t, t), x)
    r = tf.map_fn(lambda t: {'s': t[0] + t[1]}, (x, x), fn_output_signature={'s': tf.float32})
    assert r['s'].numpy().tolist() == [2.0, 4.0]
