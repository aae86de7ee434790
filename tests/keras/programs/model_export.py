"""model.export writes a serving SavedModel (Keras's export archive on TF): it loads back with
tf.saved_model.load, and its `serve` endpoint and `serving_default` signature compute the model."""
import os
import tempfile

import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(7)
x = np.random.RandomState(7).rand(4, 3).astype('float32')
inputs = keras.Input((3,), name='features')
hidden = keras.layers.Dense(5, activation='relu')(inputs)
model = keras.Model(inputs, keras.layers.Dense(2, activation='softmax')(hidden))
model.compile(optimizer='adam', loss='categorical_crossentropy')
model.fit(x, np.eye(2)[[0, 1, 1, 0]], epochs=3, verbose=0)

path = os.path.join(tempfile.mkdtemp(), 'exported')
model.export(path, verbose=False)
reloaded = tf.saved_model.load(path)
print('signatures', sorted(reloaded.signatures.keys()))
print('serve', np.round(reloaded.serve(x).numpy(), 5).tolist())
serving = reloaded.signatures['serving_default']
print('serving_default',
      {k: np.round(v.numpy(), 5).tolist() for k, v in serving(tf.constant(x)).items()})
print('same as model', bool(np.allclose(model(x).numpy(), reloaded.serve(x).numpy(), atol=1e-6)))

