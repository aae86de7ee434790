"""fit on a tf.data input that reshuffles every epoch (shuffle's default), with a validation set:
every epoch sees TF's order."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(9)
rng = np.random.RandomState(9)
x = rng.randn(40, 3).astype('float32')
y = (x @ np.array([1.5, -2.0, 0.5], 'float32') + 0.3).astype('float32')
train = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(40).batch(8).prefetch(tf.data.AUTOTUNE)
valid = tf.data.Dataset.from_tensor_slices((x[:16], y[:16])).shuffle(16, seed=3).batch(8)
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation='tanh'),
                             tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss='mse')
history = model.fit(train, epochs=4, validation_data=valid, verbose=0)
print('loss', history.history['loss'])
print('val_loss', history.history['val_loss'])
seen = [batch[1].numpy().tolist() for batch in train.take(2)]
print('next epoch order', seen)
history = model.fit(train.repeat(2), epochs=2, steps_per_epoch=5, verbose=0)
print('loss with repeat', history.history['loss'])
