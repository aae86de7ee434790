"""DType properties and TF's conversion rules; TensorShape and TensorSpec.

Expected values come from numpy (finfo/iinfo, dtypes) or from TensorFlow 2's documented rules.
"""
import pickle

import numpy as np
import pytest

import defun as tf
from defun.core import dtypes
from defun.core.shapes import TensorShape, TensorSpec

FLOATS = [(tf.float16, np.float16), (tf.float32, np.float32), (tf.float64, np.float64)]
INTS = [(tf.int8, np.int8), (tf.int16, np.int16), (tf.int32, np.int32), (tf.int64, np.int64),
        (tf.uint8, np.uint8)]
COMPLEX = [(tf.complex64, np.complex64), (tf.complex128, np.complex128)]


# ------------------------------------------------------------------ DType

@pytest.mark.parametrize('dtype,np_type', FLOATS + INTS + COMPLEX + [(tf.bool, np.bool_)])
def test_dtype_name_and_numpy_type(dtype, np_type):
    assert dtype.name == np.dtype(np_type).name
    assert dtype.as_numpy_dtype is np_type
    assert tf.as_dtype(np_type) is dtype
    assert tf.as_dtype(np.dtype(np_type)) is dtype
    assert tf.as_dtype(dtype.name) is dtype
    assert tf.as_dtype(dtype) is dtype


@pytest.mark.parametrize('dtype,np_type', FLOATS + INTS + COMPLEX + [(tf.bool, np.bool_)])
def test_dtype_kind_properties(dtype, np_type):
    kind = np.dtype(np_type).kind
    assert dtype.is_floating == (kind == 'f')
    assert dtype.is_integer == (kind in 'iu')
    assert dtype.is_complex == (kind == 'c')
    assert dtype.is_bool == (kind == 'b')


@pytest.mark.parametrize('dtype,np_type', FLOATS)
def test_float_min_max(dtype, np_type):
    assert dtype.min == np.finfo(np_type).min
    assert dtype.max == np.finfo(np_type).max


@pytest.mark.parametrize('dtype,np_type', INTS)
def test_int_min_max(dtype, np_type):
    assert dtype.min == np.iinfo(np_type).min
    assert dtype.max == np.iinfo(np_type).max


def test_bool_min_max_and_string_has_none():
    assert tf.bool.min is False and tf.bool.max is True
    with pytest.raises(TypeError):
        tf.string.max
    with pytest.raises(TypeError):
        tf.complex64.min


def test_as_dtype_python_types_and_aliases():
    assert tf.as_dtype(float) is tf.float32
    assert tf.as_dtype(int) is tf.int32
    assert tf.as_dtype(bool) is tf.bool
    assert tf.as_dtype(str) is tf.string
    assert tf.as_dtype('double') is tf.float64
    assert tf.as_dtype('half') is tf.float16
    assert tf.as_dtype('float') is tf.float32  # TF's alias (numpy would say float64)


@pytest.mark.parametrize('bad', ['float31', 3.5, [1]])
def test_as_dtype_rejects_unknown(bad):
    with pytest.raises(TypeError):
        tf.as_dtype(bad)


def test_dtype_equality_hash_repr_pickle():
    assert tf.float32 == 'float32' and tf.float32 == np.float32
    assert tf.float32 != tf.float64 and tf.float32 != None  # noqa: E711
    assert tf.float32 != 'not a dtype'
    assert len({tf.float32, tf.as_dtype('float32'), tf.float64}) == 2
    assert repr(tf.float32) == 'tf.float32'
    assert str(tf.int64) == "<dtype: 'int64'>"
    assert pickle.loads(pickle.dumps(tf.int16)) is tf.int16
    assert tf.dtypes.float32 is tf.float32


# ------------------------------------------------------------------ conversion rules

@pytest.mark.parametrize('value,expected', [
    (1.5, tf.float32), ([1.0, 2.0], tf.float32), (3, tf.int32), ([1, 2], tf.int32),
    (True, tf.bool), (2 ** 31, tf.int64), (-(2 ** 31) - 1, tf.int64), ([1, 2 ** 40], tf.int64),
    (2 ** 31 - 1, tf.int32), (1 + 2j, tf.complex128), ([[1, 2], [3, 4]], tf.int32),
])
def test_python_values_follow_tf_rules(value, expected):
    t = tf.constant(value)
    assert t.dtype is expected
    np.testing.assert_array_equal(t.numpy(), np.asarray(value))
    assert t.shape.as_list() == list(np.shape(value))


@pytest.mark.parametrize('np_type', [np.float16, np.float64, np.int8, np.int64, np.uint8,
                                     np.bool_, np.complex64])
def test_numpy_values_keep_their_dtype(np_type):
    a = np.arange(4).astype(np_type)
    assert tf.constant(a).dtype is tf.as_dtype(np_type)
    assert tf.constant(a[0]).dtype is tf.as_dtype(np_type)  # numpy scalars too


def test_requested_dtype_converts_and_never_truncates_python_floats():
    assert tf.constant(1, dtype=tf.float64).dtype is tf.float64
    assert tf.constant([1, 2], dtype=tf.float16).numpy().dtype == np.float16
    with pytest.raises(TypeError, match='int32'):
        tf.constant(1.5, dtype=tf.int32)
    with pytest.raises(ValueError, match='float64'):
        tf.convert_to_tensor(tf.constant(1.0), dtype=tf.float64)


# Expected values recorded with TensorFlow 2.21: Python ints within int64 wrap around to a
# narrower requested integer dtype (two's complement), both eagerly and in graphs.
@pytest.mark.parametrize('value,dtype,expected', [
    (300, tf.uint8, 44), (-1, tf.uint8, 255), (2 ** 31, tf.int32, -2 ** 31),
    (2 ** 32 + 5, tf.int32, 5), ([1, 300], tf.uint8, [1, 44]), (70000, tf.int16, 4464),
    (-1, tf.uint32, 4294967295), (2 ** 64 - 1, tf.uint64, 2 ** 64 - 1)])
def test_python_ints_wrap_to_the_requested_integer_dtype(value, dtype, expected):
    assert tf.constant(value, dtype=dtype).numpy().tolist() == expected


def test_python_int_operands_wrap_and_ints_beyond_int64_raise():
    # Recorded with TensorFlow 2.21.
    assert (tf.constant(1, tf.uint8) + 300).numpy() == 45
    assert (tf.constant(1) + 2 ** 31).numpy() == -2 ** 31 + 1
    assert (tf.constant([1, 2], dtype=tf.int64) + 2 ** 40).numpy().tolist() == [
        1 + 2 ** 40, 2 + 2 ** 40]
    assert tf.function(lambda x: x + 300)(tf.constant(1, tf.uint8)).numpy() == 45
    with pytest.raises(ValueError, match='out-of-range integer'):
        tf.constant(2 ** 63, dtype=tf.int64)
    with pytest.raises(TypeError, match='uint8'):
        tf.constant(300.0, dtype=tf.uint8)


@pytest.mark.parametrize('tensor_dtype', [tf.float16, tf.float64, tf.int8, tf.int64, tf.uint8])
def test_python_scalars_adopt_the_tensor_dtype(tensor_dtype):
    t = tf.constant(np.array([1, 2, 3], dtype=tensor_dtype.as_numpy_dtype))
    for result in (t + 1, 1 + t, t * 2, 2 * t, t - 1, 5 - t):
        assert result.dtype is tensor_dtype
    np.testing.assert_array_equal((3 - t).numpy(), 3 - t.numpy())


def test_python_float_with_int_tensor_raises():
    # TF 2.21 (recorded): eagerly `tensor + float` is the add op's InvalidArgumentError; the
    # other operators convert the number to the tensor's dtype first (TypeError).
    with pytest.raises(tf.errors.InvalidArgumentError, match='int32'):
        tf.constant([1, 2]) + 1.5
    with pytest.raises(TypeError, match='int32'):
        tf.constant([1, 2]) - 1.5
    with pytest.raises(TypeError):
        1.5 * tf.constant(2)


@pytest.mark.parametrize('a,b', [(tf.float32, tf.float64), (tf.int32, tf.int64),
                                 (tf.int32, tf.float32), (tf.float16, tf.float32)])
def test_two_tensors_of_different_dtypes_raise(a, b):
    x = tf.ones([2], dtype=a)
    y = tf.ones([2], dtype=b)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        x + y
    assert a.name in str(info.value) and b.name in str(info.value)
    assert not isinstance(info.value, ValueError)  # TF's hierarchy: an OpError only
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.multiply(x, y)


def test_numpy_array_with_tensor_keeps_tensor_semantics():
    t = tf.constant([1.0, 2.0])
    result = np.array([1.0, 1.0], dtype=np.float32) + t
    assert isinstance(result, tf.Tensor)
    np.testing.assert_allclose(result.numpy(), [2.0, 3.0])


# ------------------------------------------------------------------ TensorShape

def test_tensor_shape_known_and_unknown():
    s = TensorShape([2, None, 3])
    assert s.rank == 3 and s.ndims == 3 and len(s) == 3
    assert s.as_list() == [2, None, 3]
    assert s[1] is None and s[0] == 2 and s[-1] == 3
    assert s[1:].as_list() == [None, 3]
    assert not s.is_fully_defined() and s.num_elements() is None
    assert TensorShape([2, 3]).num_elements() == 6
    assert TensorShape([]).rank == 0 and TensorShape([]).num_elements() == 1
    unknown = TensorShape(None)
    assert unknown.rank is None and unknown.dims is None
    with pytest.raises(ValueError):
        unknown.as_list()
    with pytest.raises(ValueError):
        len(unknown)
    assert str(TensorShape([2, None])) == '(2, None)'
    assert str(TensorShape([4])) == '(4,)'
    assert repr(TensorShape([2, None])) == 'TensorShape([2, None])'
    assert TensorShape([2, 3]) == [2, 3] and TensorShape([2, 3]) != [3, 2]
    assert hash(TensorShape([2, 3])) == hash(TensorShape((2, 3)))


def test_tensor_shape_rejects_bad_dims():
    with pytest.raises(TypeError):
        TensorShape([2.5])
    with pytest.raises(ValueError):
        TensorShape([-1])


@pytest.mark.parametrize('a,b,compatible', [
    ([2, 3], [2, 3], True), ([2, 3], [2, None], True), ([None, None], [5, 7], True),
    ([2, 3], [3, 2], False), ([2, 3], [2, 3, 1], False), (None, [1, 2, 3], True),
    ([2], None, True), ([], [], True), ([], [1], False),
])
def test_is_compatible_with(a, b, compatible):
    assert TensorShape(a).is_compatible_with(TensorShape(b)) is compatible
    assert TensorShape(b).is_compatible_with(a) is compatible


def test_merge_with():
    assert TensorShape([2, None]).merge_with([None, 3]).as_list() == [2, 3]
    assert TensorShape(None).merge_with([1, None]).as_list() == [1, None]
    assert TensorShape([1, None]).merge_with(None).as_list() == [1, None]
    with pytest.raises(ValueError):
        TensorShape([2, 3]).merge_with([3, 3])
    with pytest.raises(ValueError):
        TensorShape([2]).merge_with([2, 1])


def test_most_specific_compatible_shape():
    msc = TensorShape([2, 3, None]).most_specific_compatible_shape
    assert msc([2, 4, 5]).as_list() == [2, None, None]
    assert msc([2, 3, 1]).as_list() == [2, 3, None]
    assert msc([2, 3]).rank is None
    assert TensorShape(None).most_specific_compatible_shape([1]).rank is None


def test_tensor_shape_of_tensor_matches_numpy():
    a = np.zeros((2, 0, 3), np.float32)
    assert tf.constant(a).shape.as_list() == list(a.shape)
    assert tf.constant(a).shape.rank == a.ndim == tf.constant(a).ndim


# ------------------------------------------------------------------ TensorSpec

def test_tensor_spec_hashing_and_equality():
    a = TensorSpec([None, 3], tf.float32)
    b = TensorSpec([None, 3], 'float32')
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != TensorSpec([None, 3], tf.float64)
    assert a != TensorSpec([None, 3], tf.float32, name='x')
    assert a != TensorSpec([2, 3], tf.float32)
    assert TensorSpec([]).dtype is tf.float32  # the default dtype
    assert tf.TensorSpec is TensorSpec


def test_tensor_spec_is_compatible_with():
    spec = TensorSpec([None, 3], tf.float32)
    assert spec.is_compatible_with(tf.zeros([5, 3]))
    assert spec.is_compatible_with(TensorSpec([2, 3], tf.float32))
    assert spec.is_compatible_with(TensorSpec(None, tf.float32))
    assert not spec.is_compatible_with(tf.zeros([5, 4]))
    assert not spec.is_compatible_with(tf.zeros([5, 3], dtype=tf.float64))
    assert not spec.is_compatible_with(3.0)


def test_tensor_spec_from_tensor():
    t = tf.constant(np.zeros((4, 2), np.int64))
    spec = TensorSpec.from_tensor(t)
    assert spec.shape.as_list() == [4, 2] and spec.dtype is tf.int64 and spec.name is None
    assert TensorSpec.from_tensor(t, name='x').name == 'x'
    assert spec.is_compatible_with(t)
    assert 'int64' in repr(spec)


def test_dtypes_module_rules_are_consistent_with_registry():
    # Every numpy dtype we map back to a DType round-trips.
    for d in dtypes.ALL:  # (bfloat16 and the like have numpy dtypes only with ml_dtypes)
        if d.has_numpy_dtype and d.np_dtype.kind != 'O':
            assert dtypes.from_numpy(d.np_dtype) is d


def test_tensorshape_plus_concatenates():
    # Expected shapes recorded by running the same expressions on TensorFlow 2.21.
    s = TensorShape([1, 2])
    assert (s + TensorShape([3])).as_list() == [1, 2, 3]
    assert (s + [4]).as_list() == [1, 2, 4]
    assert ([5] + s).as_list() == [5, 1, 2]
    assert (s + (None,)).as_list() == [1, 2, None]
    assert (TensorShape(None) + s).rank is None
