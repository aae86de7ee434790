"""A subclassed keras.Model (import keras) whose train_step uses tf.GradientTape."""
import numpy as np
import tensorflow as tf
import keras


class Regressor(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(6, activation='tanh')
        self.out = keras.layers.Dense(1)
        self.loss_tracker = keras.metrics.Mean(name='loss')

    def call(self, inputs):
        return self.out(self.hidden(inputs))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            pred = self(x, training=True)
            loss = tf.reduce_mean(tf.square(pred - y))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {'loss': self.loss_tracker.result()}

    @property
    def metrics(self):
        return [self.loss_tracker]


keras.utils.set_random_seed(1)
rng = np.random.RandomState(1)
x = rng.randn(64, 3).astype('float32')
y = (x @ np.array([[1.0], [-2.0], [0.5]], 'float32') + 0.3).astype('float32')
model = Regressor()
model.compile(optimizer=keras.optimizers.SGD(0.05, momentum=0.9))
history = model.fit(x, y, epochs=3, batch_size=8, verbose=0)
print('loss', history.history['loss'])
print('predict', model.predict(x[:3], verbose=0).ravel().tolist())
