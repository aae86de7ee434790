"""A functional model with an optional input, fed None by a generator (None travels as an empty
tf.experimental.Optional), and None refused for a required input."""
import numpy as np
import tensorflow as tf  # noqa: F401  (loaded before Keras, as in the recording run)
import keras

keras.utils.set_random_seed(0)


class AddIfPresent(keras.layers.Layer):
    def call(self, x, extra=None):
        return x if extra is None else x + extra


x_in = keras.Input((3,), name='x')
extra_in = keras.Input((3,), name='extra', optional=True)
out = keras.layers.Dense(1)(AddIfPresent()(x_in, extra_in))
model = keras.Model({'x': x_in, 'extra': extra_in}, out)
model.compile(optimizer='sgd', loss='mse')
rng = np.random.RandomState(1)
xs = rng.rand(4, 8, 3).astype('float32')
ys = rng.rand(4, 8, 1).astype('float32')


def batches(extra):
    for i in range(4):
        yield {'x': xs[i], 'extra': None if extra is None else extra[i]}, ys[i]


print('generator none', model.fit(batches(None), epochs=1, verbose=0).history['loss'])
print('generator some', model.fit(batches(xs[::-1]), epochs=1, verbose=0).history['loss'])
print('arrays none', model.fit({'x': xs[0], 'extra': None}, ys[0], batch_size=4,
                               verbose=0).history['loss'])
print('predict none', model.predict({'x': xs[0], 'extra': None}, verbose=0)[:2].ravel().tolist())
print('predict some', model.predict({'x': xs[0], 'extra': xs[1]}, verbose=0)[:2].ravel().tolist())

r_in = keras.Input((3,), name='r')
required = keras.Model(r_in, keras.layers.Dense(1)(r_in))
required.compile(optimizer='sgd', loss='mse')
try:
    required.fit([None], np.ones((4, 1)), epochs=1, verbose=0)
except ValueError as exc:
    print('required None:', type(exc).__name__, 'not optional' in str(exc))
