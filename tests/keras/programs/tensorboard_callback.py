"""Keras's TensorBoard callback (epoch summaries, weight histograms, the model's JSON) in a small
fit: which event files it writes and how many records each holds."""
import os
import tempfile

import numpy as np
import tensorflow as tf
import keras

logdir = tempfile.mkdtemp()
keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.Dense(1)])
model.compile('sgd', 'mse')
x = np.linspace(0, 1, 32 * 4).reshape(32, 4).astype('float32')
y = x.sum(axis=1, keepdims=True)
model.fit(x, y, epochs=2, batch_size=8, validation_data=(x, y), verbose=0,
          callbacks=[keras.callbacks.TensorBoard(logdir, update_freq='epoch', histogram_freq=1)])
for sub in sorted(os.listdir(logdir)):
    files = sorted(os.listdir(os.path.join(logdir, sub)))
    for name in files:
        records = list(tf.data.TFRecordDataset(os.path.join(logdir, sub, name)))
        print(sub, name.split('.')[:3], name.endswith('.v2'), len(records))
