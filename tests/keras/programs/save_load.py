"""A trained model saved to a .keras file and loaded back: same predictions, same weights."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(6)
rng = np.random.RandomState(6)
x = rng.rand(40, 4).astype('float32')
y = x.sum(axis=1, keepdims=True).astype('float32')
model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation='relu'),
                             tf.keras.layers.Dense(1)])
model.compile(optimizer='adam', loss='mse')
model.fit(x, y, epochs=2, batch_size=8, verbose=0)
before = model.predict(x[:3], verbose=0)
path = os.path.join(tempfile.mkdtemp(), 'model.keras')
model.save(path)
loaded = tf.keras.models.load_model(path)
after = loaded.predict(x[:3], verbose=0)
print('predict', before.ravel().tolist())
print('same', bool(np.array_equal(before, after)))
print('optimizer iterations', int(loaded.optimizer.iterations.numpy()))
print('loss after one more epoch', loaded.fit(x, y, epochs=1, batch_size=8, verbose=0).history['loss'])
