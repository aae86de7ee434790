"""The eager Tensor's Python protocol: printing, numpy interop, conversions, hashing, operators, and
the errors bad conversions raise. numpy is the oracle for every value."""
import operator

import numpy as np
import pytest

import defun as tf


# ------------------------------------------------------------------ printing

def test_str_of_scalar_is_tf_format():
    assert str(tf.constant(3.0)) == 'tf.Tensor(3.0, shape=(), dtype=float32)'
    assert str(tf.constant(7)) == 'tf.Tensor(7, shape=(), dtype=int32)'
    assert str(tf.constant(True)) == 'tf.Tensor(True, shape=(), dtype=bool)'


def test_str_of_vector_uses_numpy_printout():
    a = np.array([1.5, 2.0, -3.0], np.float32)
    assert str(tf.constant(a)) == f'tf.Tensor({a}, shape=(3,), dtype=float32)'


def test_format_is_the_numpy_values_format_as_in_tf():
    # EagerTensor.__format__ formats the numpy value: f'{t}' is not str(t).
    a = np.array([1.5, 2.0], np.float32)
    assert f'{tf.constant(a)}' == str(a)
    assert f'{tf.constant(2.5):.2f}' == '2.50' and f'{tf.constant(7):>3}' == '  7'
    with pytest.raises(TypeError):
        f'{tf.constant(a):.2f}'


def test_str_and_repr_of_matrix_start_the_value_on_a_new_line():
    # TF puts a multi-line numpy printout on its own lines.
    a = np.array([[1.5, 2.0], [3.0, 4.0]], np.float32)
    t = tf.constant(a)
    assert str(t) == f'tf.Tensor(\n{a}, shape=(2, 2), dtype=float32)'
    assert repr(t) == f'<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\n{a!r}>'


def test_repr_uses_numpy_repr():
    a = np.array([1, 2], np.int64)
    assert repr(tf.constant(a)) == f'<tf.Tensor: shape=(2,), dtype=int64, numpy={a!r}>'
    # Scalars as TF 2.21 prints them (recorded): repr shows the Python value, str numpy's text.
    assert repr(tf.constant(np.float32(2.5))) == '<tf.Tensor: shape=(), dtype=float32, numpy=2.5>'
    assert repr(tf.constant(0.1)) == ('<tf.Tensor: shape=(), dtype=float32, '
                                      'numpy=0.10000000149011612>')
    assert str(tf.constant(0.1)) == 'tf.Tensor(0.1, shape=(), dtype=float32)'
    assert repr(tf.constant(True)) == '<tf.Tensor: shape=(), dtype=bool, numpy=True>'


def test_format_of_scalar_uses_its_value():
    assert f'{tf.constant(2.5):.2f}' == '2.50'


# ------------------------------------------------------------------ numpy interop

def test_numpy_returns_a_copy_and_scalars_for_rank_0():
    a = np.array([1.0, 2.0], np.float32)
    t = tf.constant(a)
    out = t.numpy()
    out[0] = 99.0
    np.testing.assert_array_equal(t.numpy(), a)
    a[1] = 42.0  # the tensor does not alias its source array in a way that changes it
    assert tf.constant(5.0).numpy() == np.float32(5.0)
    assert np.ndim(tf.constant(5.0).numpy()) == 0
    assert isinstance(tf.constant(5.0).numpy(), np.float32)


def test_array_protocol():
    t = tf.constant([[1, 2], [3, 4]])
    a = np.asarray(t)
    assert a.dtype == np.int32 and a.shape == (2, 2)
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    np.testing.assert_array_equal(np.array(t) * 2, [[2, 4], [6, 8]])
    assert float(np.sum(tf.constant([1.0, 2.0]))) == 3.0


def test_np_array_of_a_tensor_is_a_copy():
    t = tf.constant([1.0, 2.0])
    a = np.array(t)
    a[0] = 99.0
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0])
    b = np.array(t, dtype=np.float64)
    b[1] = 7.0
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0])


def test_shape_dtype_ndim_device_and_eager_only_attributes():
    t = tf.zeros([2, 3, 4], dtype=tf.float64)
    assert t.shape == [2, 3, 4] and t.get_shape() == [2, 3, 4]
    assert t.ndim == 3 and t.dtype is tf.float64
    assert 'CPU' in t.device
    for attr in ('name', 'op', 'graph'):
        with pytest.raises(AttributeError, match='eager'):
            getattr(t, attr)


# ------------------------------------------------------------------ Python conversions

def test_bool_float_int_index_of_scalars():
    assert bool(tf.constant(True)) is True and bool(tf.constant(0.0)) is False
    assert float(tf.constant(2.5)) == 2.5
    assert int(tf.constant(7)) == 7 and int(tf.constant(7.9)) == 7
    assert [10, 20, 30][tf.constant(2)] == 30
    assert range(10)[tf.constant(3, dtype=tf.int64)] == 3
    assert operator.index(tf.constant(4)) == 4
    assert complex(tf.constant(1 + 2j)) == 1 + 2j


def test_index_of_float_tensor_raises_type_error():
    with pytest.raises(TypeError, match='float32'):
        [1, 2][tf.constant(1.0)]


def test_bool_of_many_elements_raises():
    with pytest.raises(ValueError, match='ambiguous'):
        bool(tf.constant([1.0, 2.0]))


def test_len_and_iter():
    a = np.arange(6, dtype=np.float32).reshape(3, 2)
    t = tf.constant(a)
    assert len(t) == 3
    rows = list(t)
    assert len(rows) == 3 and all(isinstance(r, tf.Tensor) for r in rows)
    for r, expected in zip(rows, a):
        np.testing.assert_array_equal(r.numpy(), expected)
    with pytest.raises(TypeError):
        len(tf.constant(1.0))
    with pytest.raises(TypeError):
        iter(tf.constant(1.0))


def test_ref_is_a_hashable_identity_key_for_tensors_and_variables():
    t, v = tf.constant([1.0, 2.0]), tf.Variable(1.0)
    keys = {t.ref(): 't', v.ref(): 'v'}
    assert keys[t.ref()] == 't' and keys[v.experimental_ref()] == 'v'
    assert t.ref().deref() is t and tf.constant([1.0, 2.0]).ref() not in keys


def test_unhashable_while_eq_is_elementwise():
    # TF 2.21: hashing a tensor raises TypeError (use ref()); == and != are elementwise.
    a = tf.constant([1.0, 2.0])
    b = tf.constant([1.0, 3.0])
    with pytest.raises(TypeError, match='Tensor is unhashable'):
        {a: 'a'}
    d = {a.ref(): 'a', b.ref(): 'b'}
    assert d[a.ref()] == 'a' and d[b.ref()] == 'b'
    eq = a == b
    assert isinstance(eq, tf.Tensor) and eq.dtype is tf.bool
    np.testing.assert_array_equal(eq.numpy(), [True, False])
    np.testing.assert_array_equal((a != b).numpy(), [False, True])


# ------------------------------------------------------------------ operators

X = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
Y = np.array([2.0, 0.5, -3.0], np.float32)

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow,
          operator.floordiv, operator.mod]


@pytest.mark.parametrize('op', BINARY, ids=lambda f: f.__name__)
def test_binary_operators_match_numpy(op):
    x, y = (np.abs(X), Y) if op is operator.pow else (X, Y)
    expected = op(x, y)
    result = op(tf.constant(x), tf.constant(y))
    assert result.dtype is tf.float32 and result.shape == expected.shape
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize('op', BINARY, ids=lambda f: f.__name__)
def test_python_scalars_on_both_sides(op):
    x = np.abs(X) + 0.5
    for scalar in (2, 2.5):
        left = op(tf.constant(x), scalar)
        right = op(scalar, tf.constant(x))
        assert left.dtype is tf.float32 and right.dtype is tf.float32
        np.testing.assert_allclose(left.numpy(), op(x, np.float32(scalar)), rtol=1e-6)
        np.testing.assert_allclose(right.numpy(), op(np.float32(scalar), x), rtol=1e-6)


def test_integer_operators_match_numpy():
    a = np.array([7, -7, 9, 2], np.int32)
    b = np.array([2, 3, -4, 5], np.int32)
    ta, tb = tf.constant(a), tf.constant(b)
    np.testing.assert_array_equal((ta // tb).numpy(), a // b)
    np.testing.assert_array_equal((ta % tb).numpy(), a % b)
    np.testing.assert_array_equal((ta * 3).numpy(), a * 3)
    np.testing.assert_array_equal((-ta).numpy(), -a)
    np.testing.assert_array_equal(abs(ta).numpy(), np.abs(a))
    # TF's truediv of int32 gives float64.
    div = ta / tb
    assert div.dtype is tf.float64
    np.testing.assert_allclose(div.numpy(), a / b)


def test_matmul_operator():
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    b = np.arange(12, dtype=np.float64).reshape(3, 4)
    np.testing.assert_allclose((tf.constant(a) @ tf.constant(b)).numpy(), a @ b)
    np.testing.assert_allclose((a @ tf.constant(b)).numpy(), a @ b)


def test_unary_operators():
    t = tf.constant(X)
    np.testing.assert_array_equal((-t).numpy(), -X)
    np.testing.assert_array_equal(abs(t).numpy(), np.abs(X))
    np.testing.assert_array_equal((+t).numpy(), X)


@pytest.mark.parametrize('op', [operator.lt, operator.le, operator.gt, operator.ge, operator.eq,
                                operator.ne], ids=lambda f: f.__name__)
def test_comparisons_match_numpy(op):
    result = op(tf.constant(X), tf.constant(Y))
    assert result.dtype is tf.bool
    np.testing.assert_array_equal(result.numpy(), op(X, Y))
    np.testing.assert_array_equal(op(tf.constant(X), 1.5).numpy(), op(X, np.float32(1.5)))


def test_logical_operators_on_bool():
    p = np.array([True, True, False, False])
    q = np.array([True, False, True, False])
    tp, tq = tf.constant(p), tf.constant(q)
    np.testing.assert_array_equal((tp & tq).numpy(), p & q)
    np.testing.assert_array_equal((tp | tq).numpy(), p | q)
    np.testing.assert_array_equal((tp ^ tq).numpy(), p ^ q)
    np.testing.assert_array_equal((~tp).numpy(), ~p)
    np.testing.assert_array_equal((tp & True).numpy(), p & True)


@pytest.mark.parametrize('index', [
    1, -1, slice(None, None, -1), slice(1, None, 2), (Ellipsis, 0), (None, Ellipsis),
    (slice(None), None, -2), (0, slice(None, 2)), (-2, Ellipsis, None),
], ids=repr)
def test_getitem_matches_numpy(index):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    result = tf.constant(a)[index]
    np.testing.assert_array_equal(result.numpy(), a[index])
    assert result.shape.as_tuple() == a[index].shape


def test_getitem_out_of_range_names_the_shape():
    with pytest.raises((IndexError, tf.errors.InvalidArgumentError)) as info:
        tf.constant([1.0, 2.0, 3.0])[3]
    assert '3' in str(info.value)


# ------------------------------------------------------------------ bad conversions

def test_unconvertible_python_object_raises_tf_classes():
    # TF 2.21: eager conversion raises ValueError; building a graph, TypeError (None: ValueError).
    with pytest.raises(ValueError, match=r'Attempt to convert a value \(None\) with an '
                                         r'unsupported type'):
        tf.constant(None)
    with pytest.raises(ValueError, match='unsupported type'):
        tf.constant([1.0, object()])
    with pytest.raises(ValueError, match="<class 'dict'>"):
        tf.convert_to_tensor({'a': 1})
    with pytest.raises(ValueError, match='Failed to convert a NumPy array'):
        tf.constant(np.array([object()]))
    with pytest.raises(ValueError, match='mixed types'):
        tf.constant([1, 'a'])
    with pytest.raises(ValueError, match='out-of-range integer'):
        tf.add(2 ** 70, 1.0)
    assert tf.add(1.0, 2 ** 70).dtype == tf.float32  # converts to the float operand's dtype
    with pytest.raises(TypeError, match='Failed to convert elements'):
        tf.function(lambda: tf.constant(object()))()
    with pytest.raises(ValueError, match='None values not supported'):
        tf.function(lambda: tf.abs(None))()
    with pytest.raises(TypeError, match='Failed to convert elements'):
        tf.function(lambda: tf.add(2 ** 70, 1.0))()


def test_ragged_list_raises_value_error():
    with pytest.raises(ValueError, match='non-rectangular'):
        tf.constant([[1, 2], [3]])


def test_binary_op_with_unconvertible_operand_names_the_op():
    # As TF 2.21: an object converts to nothing (ValueError); a string does not convert to the
    # tensor's dtype (TypeError), except for tf.add, which converts it to a string tensor that
    # the op refuses (InvalidArgumentError eagerly, TypeError in a graph).
    with pytest.raises(ValueError, match='add'):
        tf.constant([1.0]) + object()
    with pytest.raises(TypeError, match='multiply'):
        tf.multiply(tf.constant([1, 2]), 'text')
    with pytest.raises(tf.errors.InvalidArgumentError, match='add'):
        tf.add(tf.constant([1, 2]), 'text')
    with pytest.raises(TypeError, match='multiply'):
        tf.function(lambda: tf.multiply(tf.constant([1, 2]), 'text'))()


def test_shape_mismatch_names_op_and_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])
    message = str(info.value)
    assert '2' in message and '3' in message


def test_is_tensor_and_convert_to_tensor_identity():
    t = tf.constant(1.0)
    assert tf.is_tensor(t) and not tf.is_tensor(1.0) and not tf.is_tensor(np.ones(2))
    assert tf.convert_to_tensor(t) is t
    assert isinstance(t, tf.Tensor)


def test_list_of_tensors_is_packed():
    t = tf.convert_to_tensor([tf.constant(1.0), 2.0, tf.constant(3.0)])
    assert t.dtype is tf.float32
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0, 3.0])


def test_fully_known_tensor_shape_converts_as_tf():
    assert tf.convert_to_tensor(tf.TensorShape([2, 3])).numpy().tolist() == [2, 3]
    assert tf.convert_to_tensor(tf.TensorShape([2]), tf.int64).dtype == tf.int64
    assert tf.zeros(tf.ones([2, 2]).shape).shape == (2, 2)
    assert not tf.is_tensor(tf.TensorShape([1]))
    with pytest.raises(ValueError, match=r'partially known TensorShape \(None, 3\)'):
        tf.convert_to_tensor(tf.TensorShape([None, 3]))
