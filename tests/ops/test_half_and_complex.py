"""float16 activations give TF's values bit for bit, and complex moments conjugate as TF (issue 10).

The expected float16 bit patterns and the complex moments were computed with TensorFlow 2.21
(`/work/tfenv`), not with defun: TF rounds some half kernels once from float32 (rsqrt, softmax) and
others at every step of its formula (sigmoid is e / (1 + e), elu exp(x) - 1), so only its own
values can say which.
"""
import numpy as np
import pytest

import defun as tf

X = np.array([-5.9921875, -5.484375, -3.72265625, -0.5, 0.3, 2.5, 5.0, 5.98046875], np.float16)

TF_BITS = {
    'sigmoid': [6426, 7228, 9738, 13834, 14488, 15205, 15346, 15355],
    'softplus': [6428, 7230, 9757, 14230, 15062, 16680, 17666, 17916],
    'elu': [48123, 48120, 48078, 46668, 13517, 16640, 17664, 17915],
    'selu': [48900, 48897, 48860, 47497, 13579, 16705, 17729, 17993],
    'silu': [41892, 42446, 44447, 45578, 12675, 16543, 17655, 17911],
    'gelu': [32768, 32771, 36351, 45296, 12783, 16632, 17664, 17915],
    'gelu_approx': [32768, 32768, 32768, 45296, 12783, 16632, 17664, 17915],
    'rsqrt': [13961, 14037, 14373, 15784, 16205, 14607, 14120, 13963],
    'softmax': [7172, 7851, 10459, 15261, 6389, 9624, 13378, 14765],
}

FNS = {
    'sigmoid': tf.math.sigmoid, 'softplus': tf.math.softplus, 'elu': tf.nn.elu,
    'selu': tf.nn.selu, 'silu': tf.nn.silu, 'gelu': tf.nn.gelu,
    'gelu_approx': lambda t: tf.nn.gelu(t, approximate=True),
    'rsqrt': lambda t: tf.math.rsqrt(tf.abs(t)),
    'softmax': lambda t: tf.nn.softmax(tf.reshape(t, [2, 4])),
}


@pytest.mark.parametrize('name', sorted(TF_BITS))
def test_float16_values_are_tfs(name):
    for run in (FNS[name], tf.function(FNS[name])):
        out = run(tf.constant(X))
        assert out.dtype == tf.float16
        bits = np.asarray(out.numpy()).ravel().view(np.uint16).tolist()
        assert bits == TF_BITS[name], name


def test_complex_moments_conjugate():
    x = tf.constant([[1 + 2j, 3 - 1j], [0.5 + 0.5j, 2j]], tf.complex128)
    mean, variance = tf.nn.moments(x, [0, 1])
    assert variance.dtype == tf.complex128
    np.testing.assert_allclose(mean.numpy(), 1.125 + 0.875j)
    np.testing.assert_allclose(variance.numpy(), 2.84375 + 0j)   # TF 2.21: |x - mean|^2
    mean, variance = tf.nn.moments(x, [0])
    np.testing.assert_allclose(variance.numpy(), [0.625, 4.5])
    np.testing.assert_allclose(tf.math.reduce_variance(x).numpy(), 2.84375)
