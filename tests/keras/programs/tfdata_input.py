"""fit, evaluate and predict on tf.data.Dataset input (shuffled, batched, prefetched)."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(5)
rng = np.random.RandomState(5)
x = rng.randn(60, 3).astype('float32')
y = (x @ np.array([2.0, -1.0, 0.5], 'float32')).astype('float32')
train = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(60, seed=7, reshuffle_each_iteration=False).batch(10).prefetch(2)
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss='mse', metrics=['mae'])
history = model.fit(train, epochs=3, verbose=0)
print('loss', history.history['loss'])
print('mae', history.history['mae'])
print('evaluate', model.evaluate(tf.data.Dataset.from_tensor_slices((x, y)).batch(20), verbose=0))
print('predict', model.predict(tf.data.Dataset.from_tensor_slices(x[:4]).batch(2),
                               verbose=0).ravel().tolist())
