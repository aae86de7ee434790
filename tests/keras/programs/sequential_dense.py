"""Sequential Dense model through tf.keras: compile, fit (shuffled), evaluate, predict."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
rng = np.random.RandomState(0)
x = rng.rand(96, 4).astype('float32')
y = (x.sum(axis=1, keepdims=True) > 2).astype('float32')
model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(8, activation='relu'),
    tf.keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss='binary_crossentropy',
              metrics=['accuracy'])
history = model.fit(x, y, epochs=4, batch_size=16, verbose=0)
print('loss', history.history['loss'])
print('accuracy', history.history['accuracy'])
print('evaluate', model.evaluate(x, y, verbose=0))
print('predict', model.predict(x[:4], verbose=0).ravel().tolist())
print('weights', [w.shape for w in model.get_weights()])
