"""bfloat16 and TF's other low-precision types (float8_e4m3fn, float8_e5m2, int4, uint4).

Every expected value here was recorded with TensorFlow 2.21 (`/work/tfenv`), not with defun: TF
computes bfloat16 sums, means and matmuls in float32 and rounds once, but cumulative sums,
products and add_n step by step in bfloat16, and its activations by their formula with each
step rounded, so only TF's own values can say which. The values need ml_dtypes (TF's and JAX's
numpy types for them); without it the DTypes still exist and their tensors say what to install.
"""
import subprocess
import sys

import numpy as np
import pytest

import defun as tf

ml_dtypes = pytest.importorskip('ml_dtypes')

X = np.linspace(-2.5, 2.5, 21, dtype=np.float32)
Y = np.linspace(0.1, 3.0, 21, dtype=np.float32)
L = np.linspace(0.0, 1.0, 1000, dtype=np.float32)
A = np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5)
B = np.linspace(0, 2, 15, dtype=np.float32).reshape(5, 3)
W = np.linspace(-8, 8, 33, dtype=np.float32)

CASES = {
    'add': lambda x, y, l, a, b, w: x + y,
    'mul': lambda x, y, l, a, b, w: x * y,
    'div': lambda x, y, l, a, b, w: x / y,
    'exp': lambda x, y, l, a, b, w: tf.exp(x),
    'tanh': lambda x, y, l, a, b, w: tf.tanh(x),
    'sqrt': lambda x, y, l, a, b, w: tf.sqrt(y),
    'matmul': lambda x, y, l, a, b, w: tf.matmul(a, b),
    'sum': lambda x, y, l, a, b, w: tf.reduce_sum(l),
    'mean': lambda x, y, l, a, b, w: tf.reduce_mean(l),
    'cumsum_tail': lambda x, y, l, a, b, w: tf.math.cumsum(l)[-3:],
    'add_n': lambda x, y, l, a, b, w: tf.add_n([x, y, x]),
    'softmax': lambda x, y, l, a, b, w: tf.nn.softmax(a),
    'sigmoid': lambda x, y, l, a, b, w: tf.sigmoid(w),
    'softplus': lambda x, y, l, a, b, w: tf.nn.softplus(w),
    'elu': lambda x, y, l, a, b, w: tf.nn.elu(w),
    'selu': lambda x, y, l, a, b, w: tf.nn.selu(w),
    'leaky_relu': lambda x, y, l, a, b, w: tf.nn.leaky_relu(w),
    'range': lambda x, y, l, a, b, w: tf.range(0., 2., 0.3, dtype=tf.bfloat16),
    'segment_sum': lambda x, y, l, a, b, w: tf.math.unsorted_segment_sum(l, np.arange(1000) % 3, 3),
}

# TF 2.21's results (the same eagerly and from a tf.function).
TF_VALUES = {
    'add': [-2.40625, -2.0, -1.609375, -1.21875, -0.8203125, -0.42578125, -0.03125, 0.3671875,
            0.7578125, 1.15625, 1.546875, 1.9453125, 2.34375, 2.734375, 3.125, 3.53125, 3.921875,
            4.3125, 4.6875, 5.125, 5.5],
    'add_n': [-4.90625, -4.25, -3.609375, -2.96875, -2.3125, -1.671875, -1.03125, -0.3828125,
              0.2578125, 0.90625, 1.546875, 2.1875, 2.84375, 3.484375, 4.125, 4.78125, 5.4375,
              6.0625, 6.6875, 7.375, 8.0],
    'cumsum_tail': [256.0, 256.0, 256.0],
    'div': [-25.0, -9.1875, -5.125, -3.265625, -2.203125, -1.515625, -1.03125, -0.671875,
            -0.3984375, -0.177734375, 0.0, 0.1474609375, 0.271484375, 0.37890625, 0.470703125,
            0.546875, 0.62109375, 0.68359375, 0.73828125, 0.78515625, 0.83203125],
    'elu': [-1.0, -1.0, -1.0, -1.0, -0.99609375, -0.99609375, -0.9921875, -0.98828125, -0.98046875,
            -0.96875, -0.94921875, -0.91796875, -0.86328125, -0.77734375, -0.6328125, -0.39453125,
            0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0],
    'exp': [0.08203125, 0.10546875, 0.1357421875, 0.173828125, 0.22265625, 0.287109375, 0.3671875,
            0.47265625, 0.60546875, 0.77734375, 1.0, 1.28125, 1.6484375, 2.109375, 2.71875,
            3.484375, 4.46875, 5.75, 7.375, 9.5, 12.1875],
    'leaky_relu': [-1.6015625, -1.5, -1.3984375, -1.3046875, -1.203125, -1.1015625, -1.0,
                   -0.90234375, -0.80078125, -0.69921875, -0.6015625, -0.5, -0.400390625,
                   -0.30078125, -0.2001953125, -0.10009765625, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0,
                   3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0],
    'matmul': [-2.921875, -3.5, -4.0625, -0.67578125, -0.8671875, -1.0546875, 1.578125, 1.7734375,
               1.9609375, 3.828125, 4.40625, 4.96875],
    'mean': [0.5],
    'mul': [-0.25, -0.55078125, -0.78125, -0.9375, -1.015625, -1.03125, -0.96875, -0.8359375,
            -0.62890625, -0.3515625, 0.0, 0.423828125, 0.921875, 1.484375, 2.125, 2.84375, 3.625,
            4.5, 5.40625, 6.4375, 7.5],
       'range': [0.0, 0.30078125, 0.6015625, 0.90234375, 1.203125, 1.5, 1.8046875],
    'segment_sum': [168.0, 167.0, 167.0],
    'selu': [-1.7578125, -1.7578125, -1.7578125, -1.7578125, -1.75, -1.75, -1.7421875, -1.734375,
             -1.7265625, -1.703125, -1.671875, -1.6171875, -1.515625, -1.3671875, -1.109375,
             -0.6953125, 0.0, 0.5234375, 1.046875, 1.5703125, 2.09375, 2.625, 3.140625, 3.65625,
             4.1875, 4.71875, 5.25, 5.75, 6.28125, 6.8125, 7.3125, 7.84375, 8.375],
    'sigmoid': [0.000335693359375, 0.000553131103515625, 0.000911712646484375, 0.00150299072265625,
                0.002471923828125, 0.004058837890625, 0.006683349609375, 0.01104736328125,
                0.01806640625, 0.029296875, 0.047607421875, 0.076171875, 0.11962890625,
                0.1826171875, 0.26953125, 0.376953125, 0.5, 0.62109375, 0.73046875, 0.81640625,
                0.87890625, 0.92578125, 0.953125, 0.96875, 0.98046875, 0.98828125, 0.9921875,
                0.99609375, 1.0, 1.0, 1.0, 1.0, 1.0],
    'softmax': [0.16015625, 0.177734375, 0.1982421875, 0.2197265625, 0.244140625, 0.16015625,
                0.177734375, 0.1982421875, 0.2197265625, 0.244140625, 0.16015625, 0.177734375,
                0.1982421875, 0.2197265625, 0.244140625, 0.16015625, 0.177734375, 0.1982421875,
                0.2197265625, 0.244140625],
    'softplus': [0.000335693359375, 0.000553131103515625, 0.000911712646484375,
                 0.00150299072265625, 0.002471923828125, 0.00408935546875, 0.006744384765625,
                 0.0111083984375, 0.018310546875, 0.0301513671875, 0.0498046875, 0.07861328125,
                 0.126953125, 0.201171875, 0.3125, 0.47265625, 0.69140625, 0.97265625, 1.3125,
                 1.6953125, 2.125, 2.578125, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5,
                 8.0],
    'sqrt': [0.31640625, 0.494140625, 0.625, 0.73046875, 0.82421875, 0.90625, 0.984375, 1.0546875,
             1.125, 1.1875, 1.2421875, 1.3046875, 1.359375, 1.40625, 1.4609375, 1.5078125,
             1.5546875, 1.6015625, 1.640625, 1.6875, 1.734375],
    'sum': [500.0],
    'tanh': [-0.98828125, -0.9765625, -0.96484375, -0.94140625, -0.90625, -0.84765625, -0.76171875,
             -0.63671875, -0.462890625, -0.2451171875, 0.0, 0.2451171875, 0.462890625, 0.63671875,
             0.76171875, 0.84765625, 0.90625, 0.94140625, 0.96484375, 0.9765625, 0.98828125],
}


def _args():
    return [tf.cast(v, tf.bfloat16) for v in (X, Y, L, A, B, W)]


@pytest.mark.parametrize('graph', [False, True], ids=['eager', 'function'])
@pytest.mark.parametrize('name', sorted(CASES))
def test_values_are_tfs(name, graph):
    fn = tf.function(CASES[name]) if graph else CASES[name]
    out = fn(*_args())
    assert out.dtype == tf.bfloat16
    assert out.numpy().dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(out.numpy().astype(np.float64).ravel(), TF_VALUES[name])


# More ops, on small inputs (TF 2.21's values, the same eagerly and from a tf.function).
X2 = np.linspace(-2.5, 2.5, 12, dtype=np.float32)
Y2 = np.linspace(0.1, 3.0, 12, dtype=np.float32)
IMG = np.linspace(0, 1, 48, dtype=np.float32).reshape(1, 4, 4, 3)
K = np.linspace(-1, 1, 54, dtype=np.float32).reshape(3, 3, 3, 2)
CASES2 = {
    'pow': lambda x, y, a, i, k: tf.pow(y, x),
    'log': lambda x, y, a, i, k: tf.math.log(y),
    'rsqrt': lambda x, y, a, i, k: tf.math.rsqrt(y),
    'erf': lambda x, y, a, i, k: tf.math.erf(x),
    'gelu': lambda x, y, a, i, k: tf.nn.gelu(x),
    'floormod': lambda x, y, a, i, k: tf.math.floormod(x, y),
    'round': lambda x, y, a, i, k: tf.round(x * 3),
    'atan2': lambda x, y, a, i, k: tf.math.atan2(x, y),
    'squared_difference': lambda x, y, a, i, k: tf.math.squared_difference(x, y),
    'logsumexp': lambda x, y, a, i, k: tf.reduce_logsumexp(a, axis=1),
    'sum_axis0': lambda x, y, a, i, k: tf.reduce_sum(a, axis=0),
    'einsum': lambda x, y, a, i, k: tf.einsum('ij,kj->ik', a, a),
    'batch_matmul': lambda x, y, a, i, k: tf.matmul(tf.reshape(a, (2, 2, 5)), tf.reshape(a, (2, 5, 2))),
    'conv2d': lambda x, y, a, i, k: tf.nn.conv2d(i, k, 1, 'SAME'),
    'avg_pool': lambda x, y, a, i, k: tf.nn.avg_pool2d(i, 2, 2, 'VALID'),
    'max_pool': lambda x, y, a, i, k: tf.nn.max_pool2d(i, 2, 2, 'VALID'),
    'moments_variance': lambda x, y, a, i, k: tf.nn.moments(a, axes=[0])[1],
    'top_k': lambda x, y, a, i, k: tf.math.top_k(x * y, 4).values,
    'clip': lambda x, y, a, i, k: tf.clip_by_value(x, -0.5, 0.7),
    'where': lambda x, y, a, i, k: tf.where(x > 0, x, y),
    'cumprod': lambda x, y, a, i, k: tf.math.cumprod(y[:8]),
    'gather': lambda x, y, a, i, k: tf.gather(a, [3, 0], axis=1),
}

TF_VALUES2 = {
    'atan2': [-1.53125, -1.3984375, -1.1953125, -0.90625, -0.53515625, -0.158203125, 0.134765625,
              0.337890625, 0.474609375, 0.57421875, 0.64453125, 0.6953125],
    'avg_pool': [0.1591796875, 0.1806640625, 0.2021484375, 0.287109375, 0.30859375, 0.330078125,
                 0.671875, 0.69140625, 0.7109375, 0.796875, 0.8203125, 0.83984375],
    'batch_matmul': [2.5, 2.09375, 0.984375, 0.84765625, 0.84765625, 0.984375, 2.09375, 2.5],
    'clip': [-0.5, -0.5, -0.5, -0.5, -0.5, -0.2275390625, 0.2275390625, 0.68359375, 0.69921875,
             0.69921875, 0.69921875, 0.69921875],
    'conv2d': [1.515625, 1.6015625, 2.203125, 2.34375, 2.578125, 2.765625, 1.34375, 1.484375,
               2.6875, 2.90625, 3.234375, 3.578125, 3.203125, 3.625, 1.125, 1.421875, 3.125, 3.5,
               3.109375, 3.71875, 3.078125, 3.75, 0.51953125, 0.9921875, -1.4609375, -1.1484375,
               -3.703125, -3.203125, -4.09375, -3.578125, -4.0625, -3.6875],
    'cumprod': [0.10009765625, 0.036376953125, 0.0228271484375, 0.0203857421875, 0.0235595703125,
                0.033447265625, 0.05615234375, 0.109375],
    'einsum': [3.21875, 1.1484375, -0.9296875, -3.0, 1.1484375, 0.458984375, -0.236328125,
               -0.9296875, -0.9296875, -0.236328125, 0.458984375, 1.1484375, -3.0, -0.9296875,
               1.1484375, 3.21875],
    'erf': [-1.0, -0.99609375, -0.9765625, -0.890625, -0.66796875, -0.251953125, 0.251953125,
            0.66796875, 0.890625, 0.9765625, 0.99609375, 1.0],
    'floormod': [0.00244140625, 0.1328125, 0.29296875, 0.6484375, 0.47265625, 1.1953125,
                 0.2275390625, 0.68359375, 1.1328125, 1.59375, 2.046875, 2.5],
    'gather': [-0.68359375, -1.0, -0.158203125, -0.474609375, 0.369140625, 0.052734375, 0.89453125,
               0.578125],
    'gelu': [-0.015625, -0.0419921875, -0.0888671875, -0.146484375, -0.1689453125, -0.09326171875,
             0.1337890625, 0.515625, 0.98828125, 1.5078125, 2.0, 2.484375],
    'log': [-2.296875, -1.015625, -0.462890625, -0.11572265625, 0.1455078125, 0.3515625,
            0.51953125, 0.6640625, 0.7890625, 0.90234375, 1.0078125, 1.1015625],
    'logsumexp': [0.828125, 1.3515625, 1.8828125, 2.40625],
    'max_pool': [0.318359375, 0.33984375, 0.361328125, 0.447265625, 0.46875, 0.490234375, 0.828125,
                 0.8515625, 0.87109375, 0.95703125, 0.98046875, 1.0],
    'moments_variance': [0.345703125, 0.345703125, 0.345703125, 0.345703125, 0.345703125],
    'pow': [316.0, 7.9375, 2.09375, 1.140625, 0.90625, 0.921875, 1.125, 1.578125, 2.453125,
            4.21875, 7.84375, 15.5625],
    'round': [-8.0, -6.0, -5.0, -3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 5.0, 6.0, 8.0],
    'rsqrt': [3.15625, 1.65625, 1.2578125, 1.0625, 0.9296875, 0.83984375, 0.7734375, 0.71875,
              0.671875, 0.63671875, 0.60546875, 0.578125],
    'squared_difference': [6.71875, 5.78125, 4.9375, 4.125, 3.40625, 2.71875, 2.109375, 1.6015625,
                           1.1484375, 0.765625, 0.47265625, 0.25],
    'sum_axis0': [-0.84375, -0.421875, 0.0, 0.421875, 0.84375],
    'top_k': [7.5, 5.59375, 3.9375, 2.5],
    'where': [0.10009765625, 0.36328125, 0.62890625, 0.890625, 1.15625, 1.421875, 0.2275390625,
              0.68359375, 1.1328125, 1.59375, 2.046875, 2.5],
}


@pytest.mark.parametrize('graph', [False, True], ids=['eager', 'function'])
@pytest.mark.parametrize('name', sorted(CASES2))
def test_more_values_are_tfs(name, graph):
    fn = tf.function(CASES2[name]) if graph else CASES2[name]
    out = fn(*[tf.cast(v, tf.bfloat16) for v in (X2, Y2, A, IMG, K)])
    assert out.dtype == tf.bfloat16
    np.testing.assert_array_equal(out.numpy().astype(np.float64).ravel(), TF_VALUES2[name])


def test_gradient_inside_a_function_is_tfs():
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.nn.softplus(x) * tf.tanh(x))
        return tape.gradient(y, x)
    g = grad(tf.cast(X2, tf.bfloat16))
    assert g.dtype == tf.bfloat16
    assert g.numpy().astype(np.float64).tolist() == [-0.0732421875, -0.103515625, -0.1279296875, -0.103515625, 0.06640625, 0.455078125, 0.89453125, 1.109375, 1.09375, 1.03125, 0.99609375, 0.9765625]  # TF 2.21


# TF 2.21: (enum, is_floating, is_integer, is_unsigned, size, min, max)
TF_DTYPES = {
    'bfloat16': (14, True, False, False, 2, -3.3895313892515355e+38, 3.3895313892515355e+38),
    'float8_e4m3fn': (25, True, False, False, 1, -448.0, 448.0),
    'float8_e5m2': (24, True, False, False, 1, -57344.0, 57344.0),
    'int4': (29, False, True, False, 1, -8.0, 7.0),
    'uint4': (30, False, True, True, 1, 0.0, 15.0),
}


@pytest.mark.parametrize('name', sorted(TF_DTYPES))
def test_dtype_properties_are_tfs(name):
    dtype = tf.bfloat16 if name == 'bfloat16' else getattr(tf.dtypes.experimental, name)
    enum, floating, integer, unsigned, size, low, high = TF_DTYPES[name]
    assert (dtype.name, repr(dtype), str(dtype)) == (name, f'tf.{name}', f"<dtype: '{name}'>")
    assert (dtype.as_datatype_enum, dtype.is_floating, dtype.is_integer, dtype.is_unsigned,
            dtype.is_complex, dtype.size) == (enum, floating, integer, unsigned, False, size)
    assert (float(dtype.min), float(dtype.max)) == (low, high)
    assert dtype.as_numpy_dtype is getattr(ml_dtypes, name)
    for spelled in (name, enum, getattr(ml_dtypes, name), np.dtype(getattr(ml_dtypes, name))):
        assert tf.as_dtype(spelled) is dtype
    assert tf.dtypes.as_dtype(name) == dtype and dtype != tf.float32


def test_linspace_is_tfs_composition_for_bfloat16_and_half():
    # TF's linspace is ops (linspace_nd), each rounded to the type; its LinSpace kernel has no
    # bfloat16 or half, ours runs the same steps (TF 2.21's values).
    for run in (tf.linspace, tf.function(tf.linspace)):
        out = run(tf.constant([0., 1.], tf.bfloat16), tf.constant([10., 20.], tf.bfloat16), 7,
                  axis=1)
        assert out.dtype == tf.bfloat16 and out.shape == (2, 7)
        assert out.numpy().astype(np.float64).ravel().tolist() == [
            0.0, 1.6640625, 3.328125, 5.0, 6.65625, 8.3125, 10.0,
            1.0, 4.1875, 7.34375, 10.5, 13.6875, 16.875, 20.0]
        half = run(tf.constant(0.5, tf.float16), tf.constant(10.5, tf.float16), 7)
        assert half.numpy().astype(np.float64).tolist() == [
            0.5, 2.16796875, 3.833984375, 5.5, 7.16796875, 8.8359375, 10.5]
        assert run(tf.constant(0.3, tf.bfloat16), tf.constant(1.7, tf.bfloat16), 1).numpy() == \
            np.array([0.30078125], ml_dtypes.bfloat16)


def test_casts_round_as_tf():
    v = np.array([1.00390625, 1.01171875, 1.0078125 + 2 ** -9, -3.1, 1e-40, 3.3e38, 65504.0,
                  448.0, 464.0, 0.001], np.float32)
    expected = {  # TF 2.21: round to nearest even; float8_e4m3fn has NaN, not inf, past 448
        tf.bfloat16: [1.0, 1.015625, 1.0078125, -3.09375, 9.183549615799121e-41,
                      3.2964854295465914e+38, 65536.0, 448.0, 464.0, 0.00099945068359375],
        tf.dtypes.experimental.float8_e4m3fn: [1.0, 1.0, 1.0, -3.0, 0.0, np.nan, np.nan, 448.0,
                                                448.0, 0.001953125],
        tf.dtypes.experimental.float8_e5m2: [1.0, 1.0, 1.0, -3.0, 0.0, np.inf, np.inf, 448.0,
                                              448.0, 0.0009765625],
    }
    for dtype, values in expected.items():
        for cast in (tf.cast, tf.function(tf.cast)):
            out = cast(tf.constant(v), dtype)
            assert out.dtype == dtype
            np.testing.assert_array_equal(out.numpy().astype(np.float64), values)
    to_int = tf.cast(tf.constant([-2.75, 2.75, 300.5], tf.bfloat16), tf.int32)
    assert to_int.numpy().tolist() == [-2, 2, 300]


def test_printing_is_tfs():
    assert repr(tf.constant(1.5, tf.bfloat16)) == \
        '<tf.Tensor: shape=(), dtype=bfloat16, numpy=1.5>'
    t = tf.constant([1.5, 2.25, 3.1], tf.bfloat16)
    assert str(t) == 'tf.Tensor([1.5 2.25 3.09375], shape=(3,), dtype=bfloat16)'
    assert repr(t) == ('<tf.Tensor: shape=(3,), dtype=bfloat16, numpy=array([1.5, 2.25, 3.09375],'
                       ' dtype=dtype(bfloat16))>')
    assert repr(tf.constant(0.1, tf.bfloat16)) == \
        '<tf.Tensor: shape=(), dtype=bfloat16, numpy=0.10009765625>'
    assert str(tf.constant(182., tf.bfloat16)) == 'tf.Tensor(182, shape=(), dtype=bfloat16)'
    v = tf.Variable([1., 2.], dtype=tf.bfloat16)
    assert repr(v).endswith("shape=(2,) dtype=bfloat16, numpy=array([1, 2], dtype=dtype(bfloat16))>")


def test_gradient_through_bfloat16_variable():
    x = tf.Variable(tf.cast(X[:4], tf.bfloat16))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.matmul(tf.reshape(x, (1, 4)), tf.reshape(x * x, (4, 1))))
    g = tape.gradient(y, x)
    assert g.dtype == tf.bfloat16
    assert g.numpy().astype(np.float64).tolist() == [18.75, 15.1875, 12.0, 9.1875]  # TF 2.21
    x.assign_add(tf.ones([4], tf.bfloat16))
    assert x.dtype == tf.bfloat16 and x.numpy().dtype == ml_dtypes.bfloat16


def test_no_implicit_promotion():
    with pytest.raises(tf.errors.InvalidArgumentError, match='bfloat16'):
        tf.constant(1., tf.bfloat16) + tf.constant(1.)
    with pytest.raises(TypeError, match="bfloat16"):
        tf.function(lambda: tf.constant(1., tf.bfloat16) + tf.constant(1.))()
    # A Python number takes the tensor's type, as in TF.
    assert (tf.constant(1., tf.bfloat16) * 2).dtype == tf.bfloat16


def test_ops_without_a_bfloat16_kernel_refuse_as_tf():
    with pytest.raises(tf.errors.NotFoundError, match='Lgamma'):
        tf.math.lgamma(tf.constant(1., tf.bfloat16))
    with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel was registered.*Lgamma"):
        tf.function(lambda: tf.math.lgamma(tf.constant(1., tf.bfloat16)))()


def test_float8_and_int4_move_but_do_not_compute():
    f8 = tf.dtypes.experimental.float8_e4m3fn
    x = tf.cast(tf.constant([1., 2., 300.]), f8)
    assert tf.cast(x, tf.float32).numpy().tolist() == [1.0, 2.0, 288.0]  # TF 2.21
    both = tf.concat([x, tf.reshape(x, [3])], 0)
    assert both.dtype == f8 and both.shape == (6,)
    with pytest.raises(tf.errors.InvalidArgumentError, match="float8_e4m3fn is not in the list"):
        x + x
    # TF's Cast makes float8 from floats only, and int4 from and to integers only.
    with pytest.raises(tf.errors.UnimplementedError, match='Cast int32 to float8_e4m3fn'):
        tf.cast(tf.constant([1, 2]), f8)
    i4 = tf.constant([1, -3, 7], tf.dtypes.experimental.int4)
    with pytest.raises(tf.errors.UnimplementedError, match='Cast int4 to float is not supported'):
        tf.cast(i4, tf.float32)
    assert tf.cast(i4, tf.int32).numpy().tolist() == [1, -3, 7]
    assert repr(i4) == ('<tf.Tensor: shape=(3,), dtype=int4, numpy=array([1, -3, 7], '
                        'dtype=dtype(int4))>')


def test_without_ml_dtypes_the_dtypes_exist_and_tensors_say_what_to_install():
    code = (
        "import sys; sys.modules['ml_dtypes'] = None\n"
        "import defun as tf\n"
        "from defun.core.unsupported import NotInDefunError\n"
        "assert tf.bfloat16.is_floating and tf.as_dtype(14) is tf.bfloat16\n"
        "try:\n"
        "    tf.constant(1.0, tf.bfloat16)\n"
        "except NotInDefunError as e:\n"
        "    print(e)\n"
        "try:\n"
        "    tf.cast(tf.constant(1.0), tf.bfloat16)\n"
        "except NotInDefunError as e:\n"
        "    print(e)\n")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120,
                         check=True).stdout.splitlines()
    assert len(out) == 2
    for line in out:
        assert 'bfloat16' in line and 'ml_dtypes' in line and 'pip install' in line


def test_int8_matmul_sums_in_int32_with_output_type():
    # Keras's int8 quantization: TF's BatchMatMulV3 takes int8/uint8 operands to an int32 result
    # (TF 2.21's values); other pairs have no CPU kernel.
    a, b = [[100, -100], [50, 7]], [[100, 3], [-128, 127]]
    for dtype, expected in ((tf.int8, [[22800, -12400], [4104, 1039]]),
                            (tf.uint8, [[29968, 20112], [5896, 1039]])):
        out = tf.matmul(tf.cast(a, dtype), tf.cast(b, dtype), output_type=tf.int32)
        assert out.dtype == tf.int32 and out.numpy().tolist() == expected
    with pytest.raises(tf.errors.NotFoundError, match='BatchMatMulV3'):
        tf.matmul(tf.ones((2, 2)), tf.ones((2, 2)), output_type=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="'T' of int8"):
        tf.matmul(tf.ones((2, 2), tf.int8), tf.ones((2, 2), tf.int8))


def test_checkpoint_and_saved_model_keep_bfloat16(tmp_path):
    v = tf.Variable([1.5, 2.25], dtype=tf.bfloat16)
    ckpt = tf.train.Checkpoint(v=v)
    path = ckpt.save(str(tmp_path / 'ckpt'))
    v.assign([0., 0.])
    ckpt.restore(path)
    assert v.dtype == tf.bfloat16 and v.numpy().astype(np.float64).tolist() == [1.5, 2.25]

    module = tf.Module()
    module.v = tf.Variable([3.5, 1.], dtype=tf.bfloat16)
    c = tf.constant([0.5, 0.25], tf.bfloat16)
    module.f = tf.function(lambda x: x * module.v + c,
                           input_signature=[tf.TensorSpec([2], tf.bfloat16)])
    tf.saved_model.save(module, str(tmp_path / 'model'))
    loaded = tf.saved_model.load(str(tmp_path / 'model'))
    assert loaded.v.dtype == tf.bfloat16
    out = loaded.f(tf.constant([2., 2.], tf.bfloat16))
    assert out.dtype == tf.bfloat16 and out.numpy().astype(np.float64).tolist() == [7.5, 2.25]


def test_bitcast_sees_the_bits():
    for run in (tf.bitcast, tf.function(tf.bitcast)):
        assert run(tf.constant([1.5], tf.bfloat16), tf.uint16).numpy().tolist() == [16320]
        back = run(tf.constant([16320, 16256], tf.uint16), tf.bfloat16)
        assert back.dtype == tf.bfloat16 and back.numpy().astype(float).tolist() == [1.5, 1.0]
