"""A .keras file written by TensorFlow 2.21 + Keras 3.15.1 (a functional model with BatchNorm,
trained two epochs with Adam) loads, predicts, keeps its optimizer state, trains on, and saves
again."""
import os
import pathlib
import tempfile

import numpy as np
import tensorflow as tf

path = pathlib.Path(__file__).resolve().parent.parent / 'data' / 'written_by_tf.keras'
x = np.random.RandomState(4).rand(16, 3).astype('float32')
y = x.sum(1, keepdims=True)
model = tf.keras.models.load_model(path)
print('layers', [type(layer).__name__ for layer in model.layers])
print('predict', model.predict(x[:3], verbose=0).ravel().tolist())
print('iterations', int(model.optimizer.iterations.numpy()))
print('moving_mean', model.layers[2].moving_mean.numpy().tolist())
tf.keras.utils.set_random_seed(5)
print('loss', model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False).history['loss'])
again = os.path.join(tempfile.mkdtemp(), 'again.keras')
model.save(again)
reloaded = tf.keras.models.load_model(again)
print('round trip', bool(np.array_equal(reloaded.predict(x, verbose=0), model.predict(x, verbose=0))))
print('evaluate', reloaded.evaluate(x, y, verbose=0))
