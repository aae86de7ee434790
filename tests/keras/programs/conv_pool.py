"""Conv2D / MaxPooling2D / Flatten / Dense classifier trained with fit."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(2)
rng = np.random.RandomState(2)
x = rng.rand(32, 8, 8, 1).astype('float32')
y = (x[:, :4].mean(axis=(1, 2, 3)) > x[:, 4:].mean(axis=(1, 2, 3))).astype('int32')
model = tf.keras.Sequential([
    tf.keras.Input((8, 8, 1)),
    tf.keras.layers.Conv2D(4, 3, activation='relu', padding='same'),
    tf.keras.layers.MaxPooling2D(2),
    tf.keras.layers.Conv2D(4, 3, activation='relu'),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(2),
])
model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['sparse_categorical_accuracy'])
history = model.fit(x, y, epochs=3, batch_size=8, verbose=0)
print('loss', history.history['loss'])
print('evaluate', model.evaluate(x, y, verbose=0))
print('logits', model.predict(x[:2], verbose=0).ravel().tolist())
