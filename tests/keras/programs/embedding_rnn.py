"""Embedding followed by LSTM and GRU layers, trained on integer sequences."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(4)
rng = np.random.RandomState(4)
x = rng.randint(1, 20, size=(48, 7))
y = (x[:, 0] > 10).astype('float32')
model = tf.keras.Sequential([
    tf.keras.Input((7,), dtype='int32'),
    tf.keras.layers.Embedding(20, 6),
    tf.keras.layers.LSTM(5, return_sequences=True),
    tf.keras.layers.GRU(4),
    tf.keras.layers.Dense(1, activation='sigmoid'),
])
# SGD: TF's embedding gradients are IndexedSlices, whose per-row squares Adam would see.
model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss='binary_crossentropy')
history = model.fit(x, y, epochs=2, batch_size=12, verbose=0)
print('loss', history.history['loss'])
print('predict', model.predict(x[:3], verbose=0).ravel().tolist())
