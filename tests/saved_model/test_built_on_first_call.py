"""TF's mlp_core export: a tf.Module whose tf.function builds its layers (creating Variables) on
the first call, inside a nested function; an export module whose function calls that function;
saved called or never called. Expected values recorded from TensorFlow 2.21."""
import numpy as np

import defun as tf


def _xavier(shape):
    in_dim, out_dim = shape
    lim = tf.sqrt(6.) / tf.sqrt(tf.cast(in_dim + out_dim, tf.float32))
    return tf.random.uniform(shape=(in_dim, out_dim), minval=-lim, maxval=lim, seed=22)


class _Dense(tf.Module):
    def __init__(self, out_dim, activation=tf.identity):
        super().__init__()
        self.out_dim, self.activation, self.built = out_dim, activation, False

    def __call__(self, x):
        if not self.built:
            self.w = tf.Variable(_xavier((x.shape[1], self.out_dim)))
            self.b = tf.Variable(tf.zeros(shape=(self.out_dim,)))
            self.built = True
        return self.activation(tf.matmul(x, self.w) + self.b)


class _MLP(tf.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = layers

    @tf.function
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class _Export(tf.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    @tf.function(input_signature=[tf.TensorSpec(shape=[None, None], dtype=tf.uint8)])
    def __call__(self, x):
        x = tf.cast(tf.reshape(x, [-1, 6]), tf.float32) / 255.
        return self.model(x)


_X = [[0, 255, 30, 40, 50, 60], [255, 0, 0, 0, 200, 10]]
_EXPECTED = [[0.17093278, -0.5293576, -0.39675972], [0.30657023, -0.23594633, -0.13076347]]


def test_export_module_saved_called_or_never_called(tmp_path):
    x = tf.constant(_X, tf.uint8)
    for built in (True, False):
        tf.random.set_seed(1)
        mlp = _MLP([_Dense(5, activation=tf.nn.relu), _Dense(3)])
        if built:
            np.testing.assert_allclose(mlp(tf.cast(x, tf.float32) / 255.), _EXPECTED, rtol=1e-6)
        export = _Export(mlp)
        path = str(tmp_path / f'mlp_{built}')
        tf.saved_model.save(export, path)
        # TF 2.21: the layers' four variables exist and are saved; the export traced once.
        assert len(mlp.trainable_variables) == 4
        assert export.__call__.experimental_get_tracing_count() == 1
        loaded = tf.saved_model.load(path)
        np.testing.assert_allclose(loaded(x), _EXPECTED, rtol=1e-6)


class _Two(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def __call__(self, x):
        return self.inner(x) + 1.0

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def inner(self, x):
        return x * self.v


def test_a_function_calling_another_of_the_same_name_kind_loads(tmp_path):
    # Both traces are named __call__-like; their library names must differ.
    tf.saved_model.save(_Two(), str(tmp_path / 'two'))
    loaded = tf.saved_model.load(str(tmp_path / 'two'))
    assert float(loaded(tf.constant(3.0))) == 7.0 and float(loaded.inner(tf.constant(3.0))) == 6.0
