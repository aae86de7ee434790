"""A custom Layer (build, add_weight, get_config), a custom Loss subclass, a custom Metric
subclass (add_variable, update_state, result, reset_state), a loss function and a metric
function, trained, saved to .keras and loaded back with custom_objects, and to .weights.h5."""
import os
import tempfile

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(13)


@keras.saving.register_keras_serializable(package='demo')
class Scale(keras.layers.Layer):
    def __init__(self, units, init_value=1.0, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.init_value = init_value

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer='glorot_uniform',
                                 name='w')
        self.s = self.add_weight(shape=(self.units,),
                                 initializer=keras.initializers.Constant(self.init_value),
                                 name='s')

    def call(self, inputs):
        return tf.matmul(inputs, self.w) * self.s

    def get_config(self):
        config = super().get_config()
        config.update({'units': self.units, 'init_value': self.init_value})
        return config


@keras.saving.register_keras_serializable(package='demo')
class HuberLike(keras.losses.Loss):
    def __init__(self, delta=1.0, name='huber_like', **kwargs):
        super().__init__(name=name, **kwargs)
        self.delta = delta

    def call(self, y_true, y_pred):
        err = tf.abs(y_true - y_pred)
        return tf.where(err < self.delta, 0.5 * err ** 2, self.delta * (err - 0.5 * self.delta))

    def get_config(self):
        return {**super().get_config(), 'delta': self.delta}


@keras.saving.register_keras_serializable(package='demo')
class MeanAbsError(keras.metrics.Metric):
    def __init__(self, name='mean_abs_error', **kwargs):
        super().__init__(name=name, **kwargs)
        self.total = self.add_variable(shape=(), initializer='zeros', name='total')
        self.count = self.add_variable(shape=(), initializer='zeros', name='count')

    def update_state(self, y_true, y_pred, sample_weight=None):
        err = tf.abs(tf.cast(y_true, 'float32') - y_pred)
        self.total.assign_add(tf.reduce_sum(err))
        self.count.assign_add(tf.cast(tf.size(err), 'float32'))

    def result(self):
        return self.total / self.count

    def reset_state(self):
        self.total.assign(0.0)
        self.count.assign(0.0)


def max_error(y_true, y_pred):
    return tf.reduce_max(tf.abs(y_true - y_pred), axis=-1)


rng = np.random.RandomState(13)
x = rng.randn(64, 3).astype('float32')
y = (x @ np.array([[1.0], [-2.0], [0.5]], 'float32') + 0.05 * rng.randn(64, 1)).astype('float32')
model = keras.Sequential([keras.Input((3,)), Scale(4, init_value=0.5, name='scale'),
                          keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.SGD(0.05, momentum=0.9), loss=HuberLike(0.5),
              metrics=[MeanAbsError(), max_error])
history = model.fit(x, y, epochs=4, batch_size=16, verbose=0)
for key in sorted(history.history):
    print(key, np.round(history.history[key], 5).tolist())
print('config', model.get_layer('scale').get_config()['units'],
      model.get_layer('scale').get_config()['init_value'])
print('weights', [w.name for w in model.get_layer('scale').weights])
metric = MeanAbsError()
metric.update_state([1.0, 2.0], [1.5, 1.0])
print('metric', metric.result().numpy())
metric.reset_state()
metric.update_state([3.0], [0.0])
print('metric after reset', metric.result().numpy())
print('loss object', HuberLike(1.0)(tf.constant([[0.0], [3.0]]), tf.constant([[0.5], [0.0]])).numpy())

folder = tempfile.mkdtemp()
path = os.path.join(folder, 'model.keras')
model.save(path)
loaded = keras.models.load_model(path, custom_objects={'max_error': max_error})
print('loaded same', np.allclose(loaded.predict(x[:4], verbose=0), model.predict(x[:4], verbose=0)))
print('loaded types', [type(layer).__name__ for layer in loaded.layers], type(loaded.loss).__name__)
print('loaded evaluate', np.round(loaded.evaluate(x, y, verbose=0), 5).tolist())
weights_path = os.path.join(folder, 'model.weights.h5')
model.save_weights(weights_path)
clone = keras.Sequential([keras.Input((3,)), Scale(4, name='scale'), keras.layers.Dense(1)])
clone.load_weights(weights_path)
print('weights loaded', np.allclose(clone(x[:4]).numpy(), model(x[:4]).numpy()))
loaded.fit(x, y, epochs=1, batch_size=32, verbose=0)
print('loaded trains', np.round(loaded.evaluate(x, y, verbose=0), 5).tolist())
