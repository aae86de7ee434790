"""Fits y = 3x + 2 with Variables, GradientTape and a compiled training step; prints the loss falling.

    python examples/quickstart.py [--short] [--plot [PATH]]
"""
import numpy as np

import defun as tf
from example_utils import parse_args, save_plot

args = parse_args(__doc__.splitlines()[0])
rng = np.random.default_rng(0)
xs = tf.constant(rng.uniform(-1, 1, size=(256, 1)).astype(np.float32))
ys = 3.0 * xs + 2.0 + tf.constant(rng.normal(0, 0.05, size=(256, 1)).astype(np.float32))

w = tf.Variable(tf.zeros([1, 1]), name='w')
b = tf.Variable(tf.zeros([1]), name='b')


@tf.function
def train_step(x, y, learning_rate):
    with tf.GradientTape() as tape:
        prediction = tf.matmul(x, w) + b
        loss = tf.reduce_mean(tf.square(prediction - y))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(learning_rate * dw)
    b.assign_sub(learning_rate * db)
    return loss


steps = 21 if args.short else 201
losses = []
for step in range(steps):
    loss = train_step(xs, ys, tf.constant(0.1))
    losses.append(float(loss))
    if step % 20 == 0:
        print(f'step {step:3d}  loss {float(loss):.5f}')
print(f'learned w = {float(w.numpy()[0, 0]):.3f} (true 3), b = {float(b.numpy()[0]):.3f} (true 2)')
print(f'traces: {train_step.experimental_get_tracing_count()}')
save_plot(args, 'quickstart_loss.png', {'training loss': losses})
