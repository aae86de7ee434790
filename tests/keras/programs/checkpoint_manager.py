"""tf.train.Checkpoint and CheckpointManager holding a Keras model and its optimizer: TF's key
names, restore into fresh objects (the optimizer's slots restored when it builds them), and
training continuing where it stopped."""
import os
import tempfile

import numpy as np
import tensorflow as tf


def make_model():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation='relu'),
                                 tf.keras.layers.BatchNormalization(), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss='mse')
    return model


tf.keras.utils.set_random_seed(11)
rng = np.random.RandomState(11)
x = rng.rand(32, 3).astype('float32')
y = (x @ np.array([[1.0], [-2.0], [0.5]], 'float32')).astype('float32')
model = make_model()
model.fit(x, y, epochs=2, batch_size=8, verbose=0)
directory = tempfile.mkdtemp()
checkpoint = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
manager = tf.train.CheckpointManager(checkpoint, directory, max_to_keep=2)
for _ in range(3):
    path = manager.save()
print('saved', os.path.basename(path), [os.path.basename(p) for p in manager.checkpoints])
for name, shape in tf.train.list_variables(path):
    if name != '_CHECKPOINTABLE_OBJECT_GRAPH':
        print('key', name, shape)
reader = tf.train.load_checkpoint(path)
print('kernel', reader.get_tensor(
    'optimizer/_trainable_variables/0/.ATTRIBUTES/VARIABLE_VALUE').ravel().tolist())
before = model.predict(x[:4], verbose=0).ravel().tolist()
print('predict', before)

tf.keras.utils.set_random_seed(12)
fresh = make_model()
restored = tf.train.Checkpoint(model=fresh, optimizer=fresh.optimizer)
status = restored.restore(manager.latest_checkpoint)
print('iterations', int(fresh.optimizer.iterations.numpy()))
print('same predict', fresh.predict(x[:4], verbose=0).ravel().tolist() == before)
fresh.optimizer.build(fresh.trainable_variables)
print('momentum', fresh.optimizer.variables[2].numpy().ravel().tolist())
status.assert_existing_objects_matched()
print('loss continued', fresh.fit(x, y, epochs=1, batch_size=8, verbose=0).history['loss'])
print('loss original', model.fit(x, y, epochs=1, batch_size=8, verbose=0).history['loss'])
