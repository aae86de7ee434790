"""tf.saved_model.save of a Keras model writes a SavedModel whose serving signature (Keras's
default save signature) loads back and computes the model."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)
x = np.random.RandomState(3).rand(5, 3).astype('float32')
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, activation='relu'),
                             tf.keras.layers.Dense(1)])
model.compile(optimizer='sgd', loss='mse')
model.fit(x, x.sum(1), epochs=2, verbose=0)
path = os.path.join(tempfile.mkdtemp(), 'saved')
tf.saved_model.save(model, path)
loaded = tf.saved_model.load(path)
print('signatures', sorted(loaded.signatures.keys()))
serve = loaded.signatures['serving_default']
print('inputs', serve.structured_input_signature)
print('outputs', serve.structured_outputs)
out = serve(tf.constant(x))
print('output_0', out['output_0'].numpy().ravel().tolist())
print('by keyword', serve(inputs=tf.constant(x[:2]))['output_0'].numpy().ravel().tolist())
print('same as model', bool(np.allclose(model(x).numpy(), out['output_0'].numpy(), atol=1e-6)))
