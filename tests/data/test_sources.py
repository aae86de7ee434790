"""tf.data sources: element_spec, reprs, cardinality and values, as recorded from TF 2.21."""
import collections

import numpy as np
import pytest

import defun as tf

D = tf.data.Dataset
P = collections.namedtuple('P', 'a b')


def spec(shape, dtype):
    return tf.TensorSpec(shape, dtype)


def test_from_tensor_slices_repr_and_values():
    ds = D.from_tensor_slices([1, 2, 3])
    # repr recorded from TF 2.21
    assert repr(ds) == ('<_TensorSliceDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, '
                        'name=None)>')
    assert int(ds.cardinality()) == 3 and len(ds) == 3
    assert [int(x) for x in ds] == [1, 2, 3]


def test_nested_structures():
    ds = D.from_tensor_slices(({'b': [1, 2], 'a': np.zeros((2, 3))}, P([1., 2.], [3, 4])))
    assert ds.element_spec == ({'b': spec([], tf.int32), 'a': spec([3], tf.float64)},
                               P(spec([], tf.float32), spec([], tf.int32)))
    # dicts keep their own key order in reprs (TF's)
    assert repr(ds.element_spec[0]).startswith("{'b': TensorSpec")
    first = next(iter(ds))
    assert isinstance(first[1], P) and float(first[1].a) == 1.0
    np.testing.assert_array_equal(first[0]['a'].numpy(), np.zeros(3))


def test_from_tensors_and_range():
    assert D.from_tensors([1, 2, 3]).element_spec == spec([3], tf.int32)
    assert repr(D.range(5)) == ('<_RangeDataset element_spec=TensorSpec(shape=(), '
                                'dtype=tf.int64, name=None)>')
    assert list(D.range(1, 10, 2).as_numpy_iterator()) == [1, 3, 5, 7, 9]
    assert int(D.range(1, 10, 2).cardinality()) == 5
    assert D.range(3, output_type=tf.int32).element_spec == spec([], tf.int32)
    assert list(D.range(5, 0, -2).as_numpy_iterator()) == [5, 3, 1]


def test_zip_structures_and_cardinality():
    z = D.zip((D.range(3), D.range(4)))
    assert int(z.cardinality()) == 3
    assert list(z.as_numpy_iterator()) == [(0, 0), (1, 1), (2, 2)]
    assert D.zip({'a': D.range(2), 'b': D.range(3)}).element_spec == {
        'a': spec([], tf.int64), 'b': spec([], tf.int64)}
    assert D.zip(D.range(2), D.range(3)).element_spec == (spec([], tf.int64),) * 2
    # values recorded from TF: finite with infinite -> finite; anything with unknown -> unknown
    assert int(D.zip(D.range(3), D.range(3).repeat()).cardinality()) == 3
    assert int(D.zip(D.range(3), D.range(3).filter(lambda x: True)).cardinality()) == -2


def test_from_generator():
    def gen(n):
        for i in range(int(n)):
            yield i, [i] * i
    ds = D.from_generator(gen, args=(3,), output_signature=(
        spec([], tf.int32), spec([None], tf.int32)))
    assert repr(ds).startswith('<_FlatMapDataset element_spec=(TensorSpec(shape=(), '
                               'dtype=tf.int32')
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    out = list(ds.as_numpy_iterator())
    assert [a for a, _ in out] == [0, 1, 2] and out[2][1].tolist() == [2, 2]
    # the generator is called again for each iteration
    assert len(list(ds)) == 3
    old = D.from_generator(lambda: iter([[1, 2]]), output_types=tf.int64, output_shapes=[2])
    assert old.element_spec == spec([2], tf.int64)


def test_constants():
    assert tf.data.AUTOTUNE == -1
    assert tf.data.INFINITE_CARDINALITY == -1
    assert tf.data.UNKNOWN_CARDINALITY == -2
    assert tf.data.experimental.AUTOTUNE == -1


def test_source_errors():
    # messages recorded from TF 2.21
    with pytest.raises(ValueError, match='Dimensions 2 and 3 are not compatible'):
        D.from_tensor_slices(([1, 2], [3, 4, 5]))
    with pytest.raises(ValueError, match='only supported for rank >= 1'):
        D.from_tensor_slices(1)
    with pytest.raises(TypeError, match='Inputs are expected to be'):
        D.zip((D.range(3), 1))
    with pytest.raises(TypeError, match='must be a Python callable'):
        D.from_generator(iter([1]), output_types=tf.int32)
    with pytest.raises(TypeError, match='output_signature'):
        D.from_generator(lambda: iter([1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match='step must be a non-zero'):
        D.range(0, 10, 0)


def test_generator_bad_elements():
    def bad_shape():
        yield [1, 2]

    def bad_structure():
        yield 1

    def bad_type():
        yield 'abc'
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'yielded an element of shape \(2,\)'):
        list(D.from_generator(bad_shape, output_signature=spec([], tf.int32)))
    with pytest.raises(tf.errors.InvalidArgumentError, match='did not match the expected structure'):
        list(D.from_generator(bad_structure, output_signature=(spec([], tf.int32),) * 2))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='could not be converted to the expected type. The expected type '
                             'was int32'):
        list(D.from_generator(bad_type, output_signature=spec([], tf.int32)))

    def floats():
        yield 1.5
    # TF converts with the declared dtype (recorded: 1.5 -> 1 for int32)
    assert list(D.from_generator(floats, output_signature=spec([], tf.int32))
                .as_numpy_iterator()) == [1]


def test_text_line_dataset(tmp_path):
    # the customization/basics tutorial's file; output recorded from TF 2.21
    path = tmp_path / 'lines.txt'
    path.write_text('Line 1\nLine 2\nLine 3\n  ')
    ds = tf.data.TextLineDataset(str(path))
    assert ds.element_spec == spec([], tf.string)
    batches = [b.numpy().tolist() for b in ds.batch(2)]
    assert batches == [[b'Line 1', b'Line 2'], [b'Line 3', b'  ']]
    with pytest.raises(tf.errors.NotFoundError):
        list(tf.data.TextLineDataset(str(tmp_path / 'missing.txt')))
