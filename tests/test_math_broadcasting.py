"""Property tests (hypothesis) against numpy: broadcasting binary ops over random compatible shapes
and dtypes, the gradient of a broadcast operand summed back to its own shape, reductions over random
axes, and graph inference agreeing with the eager result."""
import numpy as np
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import defun as tf

SETTINGS = settings(max_examples=40, deadline=None)

BINARY = {
    'add': (tf.add, np.add), 'subtract': (tf.subtract, np.subtract),
    'multiply': (tf.multiply, np.multiply), 'maximum': (tf.maximum, np.maximum),
    'minimum': (tf.minimum, np.minimum), 'less': (tf.less, np.less),
    'greater_equal': (tf.greater_equal, np.greater_equal), 'equal': (tf.equal, np.equal),
    'floormod': (tf.math.floormod, np.mod),
}
REAL_DTYPES = [np.float32, np.float64, np.int32, np.int64]


@st.composite
def broadcast_pair(draw, dtypes=REAL_DTYPES):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=4))
    dtype = draw(st.sampled_from(dtypes))
    elements = st.integers(-9, 9) if np.dtype(dtype).kind == 'i' else st.floats(-9, 9, width=32)
    x, y = (draw(hnp.arrays(dtype, shape, elements=elements)) for shape in shapes.input_shapes)
    return x, y


@SETTINGS
@given(broadcast_pair(), st.sampled_from(sorted(BINARY)))
def test_binary_ops_broadcast_like_numpy(pair, name):
    x, y = pair
    ours, theirs = BINARY[name]
    if name == 'floormod':
        y = np.where(y == 0, 1, y).astype(y.dtype)
    result = ours(tf.constant(x), tf.constant(y))
    expected = theirs(x, y)
    assert result.dtype.np_dtype == expected.dtype
    assert result.shape.as_tuple() == expected.shape
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-6)


@SETTINGS
@given(broadcast_pair(dtypes=[np.float64]), st.sampled_from(['add', 'multiply', 'maximum']))
def test_broadcast_gradients_reduce_to_each_operand_shape(pair, name):
    x, y = (tf.constant(v) for v in pair)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        out = BINARY[name][0](x, y)
    gx, gy = tape.gradient(out, [x, y])
    assert gx.shape == x.shape and gy.shape == y.shape
    if name == 'add':   # each element of x is used once per element it broadcasts to
        total = np.broadcast_shapes(pair[0].shape, pair[1].shape)
        np.testing.assert_allclose(gx.numpy().sum() + gy.numpy().sum(), 2 * np.prod(total))


@SETTINGS
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=4, max_side=4),
                  elements=st.floats(-5, 5)), st.data())
def test_reductions_over_random_axes_match_numpy(x, data):
    axes = data.draw(st.lists(st.integers(-x.ndim, x.ndim - 1), max_size=x.ndim, unique=True))
    axes = sorted({a % x.ndim for a in axes})
    keepdims = data.draw(st.booleans())
    for ours, theirs in [(tf.reduce_sum, np.sum), (tf.reduce_mean, np.mean),
                         (tf.reduce_max, np.max), (tf.reduce_prod, np.prod)]:
        result = ours(tf.constant(x), axis=axes, keepdims=keepdims)
        expected = theirs(x, axis=tuple(axes), keepdims=keepdims)
        np.testing.assert_allclose(result.numpy(), expected, rtol=1e-9, atol=1e-12)


@SETTINGS
@given(broadcast_pair(dtypes=[np.float32]))
def test_graph_inference_agrees_with_eager(pair):
    x, y = pair
    eager = tf.maximum(tf.constant(x), tf.constant(y))
    graph = tf.Graph()
    with graph.as_default():
        px = tf.compat.v1.placeholder(tf.float32, [None] * x.ndim)
        py = tf.compat.v1.placeholder(tf.float32, y.shape)
        symbolic = tf.maximum(px, py) < 0.0
    assert symbolic.dtype is tf.bool
    assert symbolic.shape.is_compatible_with(eager.shape)
