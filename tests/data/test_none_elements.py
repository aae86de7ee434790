"""None inside tf.data elements (NoneTensorSpec), as TF 2.21 gives it: a leaf with no components,
kept through slicing, batching, map and iteration. Expected values recorded from TF."""
import numpy as np
import pytest

import defun as tf

D = tf.data.Dataset


def test_from_tensors_with_none_leaves():
    ds = D.from_tensors((tf.constant([1., 2.]), None))
    assert ds.element_spec == (tf.TensorSpec([2], tf.float32), tf.NoneTensorSpec())
    (a, b), = list(ds)
    assert a.numpy().tolist() == [1., 2.] and b is None
    ds = D.from_tensors({'a': None, 'b': tf.constant(1)})
    assert ds.element_spec == {'a': tf.NoneTensorSpec(), 'b': tf.TensorSpec([], tf.int32)}
    assert [(e['a'], int(e['b'])) for e in ds] == [(None, 1)]
    with pytest.raises(TypeError):     # TF: no components at all (InvalidArgumentError there)
        D.from_tensors(None)


def test_slices_batch_map_and_unbatch_keep_none():
    ds = D.from_tensor_slices((np.ones((4, 1)), None))
    assert ds.element_spec == (tf.TensorSpec([1], tf.float64), tf.NoneTensorSpec())
    batched = ds.batch(2)
    assert batched.element_spec == (tf.TensorSpec([None, 1], tf.float64), tf.NoneTensorSpec())
    first = next(iter(batched))
    assert first[0].shape == (2, 1) and first[1] is None
    mapped = D.from_tensors((tf.constant([1., 2.]), None)).map(lambda a, b: (a * 2, b))
    assert mapped.element_spec == (tf.TensorSpec([2], tf.float32), tf.NoneTensorSpec())
    assert [(a.numpy().tolist(), b) for a, b in mapped] == [([2., 4.], None)]
    rows = list(D.from_tensors((tf.constant([1., 2.]), None)).unbatch())
    assert [(float(a), b) for a, b in rows] == [(1.0, None), (2.0, None)]


def test_for_loop_in_a_function_over_elements_with_none():
    @tf.function
    def total(ds):
        out = tf.constant(0., tf.float64)
        for a, b in ds:
            out += tf.reduce_sum(a)
        return out
    assert float(total(D.from_tensor_slices((np.ones((4, 1)), None)))) == 4.0
