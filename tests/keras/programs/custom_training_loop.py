"""A custom training loop: GradientTape and optimizer.apply_gradients inside a tf.function,
metrics updated, read and reset per epoch, a validation step, gradient clipping, and a
subclassed Model with its own train_step-free call."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(23)
rng = np.random.RandomState(23)
x = rng.randn(64, 5).astype('float32')
y = (np.sin(x[:, 0]) + x[:, 1] * x[:, 2] > 0).astype('int32')
train = tf.data.Dataset.from_tensor_slices((x[:48], y[:48])).shuffle(48, seed=1).batch(16)
val = tf.data.Dataset.from_tensor_slices((x[48:], y[48:])).batch(16)


class Classifier(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(12, activation='relu')
        self.drop = keras.layers.Dropout(0.2)
        self.out = keras.layers.Dense(2)

    def call(self, inputs, training=False):
        return self.out(self.drop(self.hidden(inputs), training=training))


model = Classifier()
optimizer = keras.optimizers.Adam(learning_rate=0.02, clipnorm=1.0)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_acc = keras.metrics.SparseCategoricalAccuracy()
val_acc = keras.metrics.SparseCategoricalAccuracy()
train_loss = keras.metrics.Mean()


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        logits = model(xb, training=True)
        loss = loss_fn(yb, logits)
        loss += sum(model.losses)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_acc.update_state(yb, logits)
    train_loss.update_state(loss)
    return loss


@tf.function
def val_step(xb, yb):
    val_acc.update_state(yb, model(xb, training=False))


for epoch in range(4):
    for xb, yb in train:
        train_step(xb, yb)
    for xb, yb in val:
        val_step(xb, yb)
    print(epoch, round(float(train_loss.result()), 5), round(float(train_acc.result()), 5),
          round(float(val_acc.result()), 5))
    for metric in (train_acc, val_acc, train_loss):
        metric.reset_state()
print('iterations', int(optimizer.iterations))
print('variables', [v.shape for v in model.trainable_variables])
print('after reset', float(train_acc.result()))
print('logits', np.round(model(x[:2]).numpy(), 5).tolist())

w = tf.Variable(tf.zeros((5, 1)))
b = tf.Variable(0.0)
sgd = keras.optimizers.SGD(0.1, momentum=0.5)
target = x @ np.arange(1, 6, dtype='float32')[:, None]
for step in range(5):
    with tf.GradientTape() as tape:
        pred = tf.matmul(x, w) + b
        mse = tf.reduce_mean(tf.square(pred - target))
    gw, gb = tape.gradient(mse, [w, b])
    sgd.apply_gradients([(gw, w), (gb, b)])
print('linear', round(float(mse), 4), np.round(w.numpy().ravel(), 4).tolist(), round(float(b), 4))
