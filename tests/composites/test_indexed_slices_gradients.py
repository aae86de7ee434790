"""IndexedSlices as TF produces them: the gradient of gather / embedding_lookup along axis 0,
aggregation (sparse with sparse stays sparse, with dense becomes dense), densifying, and the
optimizers' sparse updates. Expected values recorded with TF 2.21 (tf.keras 3 optimizers)."""
import numpy as np
import pytest

import defun as tf


def _parts(g):
    return (g.indices.numpy().tolist(), g.values.numpy().tolist(), g.dense_shape.numpy().tolist(),
            g.indices.dtype, g.dense_shape.dtype)


def test_gradient_of_gather_is_indexed_slices():
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.gather(x, [0, 2, 0]) * [[1., 2.]])
    g = t.gradient(y, x)
    assert isinstance(g, tf.IndexedSlices)
    assert _parts(g) == ([0, 2, 0], [[1., 2.], [1., 2.], [1., 2.]], [3, 2], tf.int32, tf.int32)
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), [[2., 4.], [0., 0.], [1., 2.]])


def test_variable_gradients_sparse_and_aggregated():
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v, [[0, 2]]) * 3.)
    assert _parts(t.gradient(y, v))[:3] == ([0, 2], [[3., 3.], [3., 3.]], [3, 2])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.nn.embedding_lookup(v, [1, 1])) + tf.reduce_sum(tf.gather(v, [2]))
    assert _parts(t.gradient(y, v))[:3] == ([2, 1, 1], [[1., 1.]] * 3, [3, 2])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v, tf.constant([1], tf.int64)))
    assert _parts(t.gradient(y, v))[3] == tf.int64
    with tf.GradientTape() as t:   # with a dense gradient: dense
        y = tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(v * 2)
    g = t.gradient(y, v)
    assert not isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(g.numpy(), [[2., 2.], [3., 3.], [2., 2.]])
    with tf.GradientTape() as t:   # through another op first: dense
        y = tf.reduce_sum(tf.gather(v * 1, [1]))
    assert not isinstance(t.gradient(y, v), tf.IndexedSlices)


def test_gather_on_other_axes_stays_dense():
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v, [1], axis=1))
    assert not isinstance(t.gradient(y, v), tf.IndexedSlices)


def test_indexed_slices_spec_and_components():
    s = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]), tf.constant([3, 2]))
    assert repr(s._type_spec) == ('IndexedSlicesSpec(TensorShape([3, 2]), tf.float32, tf.int32, '
                                  'tf.int32, TensorShape([1]))')
    assert len(tf.nest.flatten(s, expand_composites=True)) == 3
    with pytest.raises(ValueError, match='Incompatible tensor conversion requested'):
        tf.convert_to_tensor(s, dtype=tf.int32)
    with pytest.raises(ValueError, match='without dense_shape'):
        tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1.]]), tf.constant([0])))


# Three steps on a 4 x 3 embedding table with rows 0 and 2 looked up more than once.
TF_TABLES = {"sgd": [[0.37242671847343445, 0.3626580834388733, 0.34679821133613586], [-0.4545454680919647, -0.27272728085517883, -0.09090909361839294], [0.3811984360218048, 0.4778486490249634, 0.5378487706184387], [0.5552343130111694, 0.6009049415588379, 0.6234087944030762]], "sgdm": [[1.655303955078125, 1.392412543296814, 1.0975244045257568], [-0.4545454680919647, -0.27272728085517883, -0.09090909361839294], [0.647879958152771, 0.6686211824417114, 0.6163200736045837], [0.48009127378463745, 0.39783287048339844, 0.26819750666618347]], "sgdn": [[0.4203893542289734, 0.3320016860961914, 0.3941744267940521], [-0.4545454680919647, -0.27272728085517883, -0.09090909361839294], [0.7589666247367859, 0.7239792346954346, 0.6282225847244263], [0.4550505578517914, 0.3495039939880371, 0.21956196427345276]], "adam": [[-0.9562902450561523, -0.7738131880760193, -0.5913031697273254], [-0.4545454680919647, -0.27272728085517883, -0.09090909361839294], [0.1327868551015854, 0.31504562497138977, 0.4940199553966522], [0.6064497232437134, 0.7882117629051208, 0.9700181484222412]], "adagrad": [[-0.6807400584220886, -0.49689438939094543, -0.3142043352127075], [-0.4545454680919647, -0.27272728085517883, -0.09090909361839294], [0.367334246635437, 0.5180236101150513, 0.5793295502662659], [0.50704026222229, 0.6240299344062805, 0.7901145219802856]], "rms": [[-0.8937271237373352, -0.7105411887168884, -0.5273823738098145], [-0.4545454680919647, -0.27272728085517883, -0.09090909361839294], [0.19137148559093475, 0.3721751272678375, 0.5362640023231506], [0.5687866806983948, 0.746735155582428, 0.9276682734489441]], "rmsm": [[-0.8042528033256531, -0.618151843547821, -0.4319397807121277], [-0.4545454680919647, -0.27272728085517883, -0.09090909361839294], [0.2706105411052704, 0.4497334957122803, 0.5869719982147217], [0.5291696786880493, 0.7033828496932983, 0.8835462927818298]]}

OPTIMIZERS = {
    'sgd': lambda: tf.optimizers.SGD(0.1),
    'sgdm': lambda: tf.optimizers.SGD(0.1, momentum=0.9),
    'sgdn': lambda: tf.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
    'adam': lambda: tf.optimizers.Adam(0.01),
    'adagrad': lambda: tf.optimizers.Adagrad(0.1),
    'rms': lambda: tf.optimizers.RMSprop(0.01),
    'rmsm': lambda: tf.optimizers.RMSprop(0.01, momentum=0.5, centered=True),
}


@pytest.mark.parametrize('compiled', [False, True])
@pytest.mark.parametrize('name', sorted(OPTIMIZERS))
def test_sparse_updates_match_tf_exactly(name, compiled):
    v = tf.Variable(np.linspace(-1, 1, 12).astype(np.float32).reshape(4, 3))
    ids = tf.constant([0, 2, 2, 3, 0, 0])
    w = tf.constant(np.linspace(0.3, 1.7, 18).astype(np.float32).reshape(6, 3))
    opt = OPTIMIZERS[name]()

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(tf.gather(v, ids) * w - 0.5))
        opt.apply_gradients([(tape.gradient(loss, v), v)])

    step = tf.function(step) if compiled else step
    for _ in range(3):
        step()
    np.testing.assert_array_equal(v.numpy(), np.array(TF_TABLES[name], np.float32))
