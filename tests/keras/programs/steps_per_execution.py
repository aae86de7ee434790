"""Training several steps per call (compile(steps_per_execution=3)): Keras's TF trainer runs them
as a tf.while_loop over the iterator's optionals, with a partial last call."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
rng = np.random.RandomState(0)
x = rng.rand(80, 4).astype('float32')
y = (x @ np.array([[1.], [-2.], [0.5], [1.5]], 'float32')).astype('float32')
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)   # 10 batches: 3 + 3 + 3 + 1
model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(6, activation='tanh'),
                             tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss='mse', metrics=['mae'],
              steps_per_execution=3)
history = model.fit(ds, epochs=3, verbose=0)
print('loss', history.history['loss'])
print('mae', history.history['mae'])
print('iterations', int(model.optimizer.iterations))
print('evaluate', model.evaluate(ds, verbose=0))
print('predict', model.predict(ds, verbose=0)[:3].ravel().tolist())
print('predict rows', model.predict(x[:7], batch_size=2, verbose=0).shape)
