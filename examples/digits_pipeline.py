"""Train a small MLP on scikit-learn's digits through a tf.data pipeline, TF2 style.

The pipeline shuffles with a seed, batches and prefetches; each epoch is one compiled function
whose `for x, y in dataset:` AutoGraph turns into a graph loop over the dataset, with the
gradient step inside it. Needs scikit-learn (only for the data): pip install '.[examples]'

    python examples/digits_pipeline.py [--short] [--plot [PATH]]
"""
import numpy as np

import defun as tf
from example_utils import parse_args, progress, require, save_plot, say

args = parse_args(__doc__.splitlines()[0])
load_digits = require('sklearn.datasets', 'scikit-learn', 'the digits data set').load_digits

digits = load_digits()
x = (digits.data / 16.0).astype(np.float32)
y = digits.target.astype(np.int64)
rng = np.random.default_rng(0)
order = rng.permutation(len(x))
train_idx, test_idx = order[:1500], order[1500:]

train_ds = (tf.data.Dataset.from_tensor_slices((x[train_idx], y[train_idx]))
            .shuffle(1500, seed=0)
            .batch(64)
            .prefetch(tf.data.AUTOTUNE))
test_ds = tf.data.Dataset.from_tensor_slices((x[test_idx], y[test_idx])).batch(256)
print('train pipeline:', train_ds)

tf.random.set_seed(0)
w1 = tf.Variable(tf.random.normal([64, 64], stddev=0.1))
b1 = tf.Variable(tf.zeros([64]))
w2 = tf.Variable(tf.random.normal([64, 10], stddev=0.1))
b2 = tf.Variable(tf.zeros([10]))
params = [w1, b1, w2, b2]


def model(inputs):
    hidden = tf.nn.relu(inputs @ w1 + b1)
    return hidden @ w2 + b2


def loss_fn(logits, labels):
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))


@tf.function
def train_epoch(dataset, learning_rate):
    total, batches = 0.0, 0
    for xb, yb in dataset:
        with tf.GradientTape() as tape:
            loss = loss_fn(model(xb), yb)
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(learning_rate * g)
        total += loss
        batches += 1
    return total / tf.cast(batches, tf.float32)


@tf.function
def accuracy(dataset):
    def count(state, batch):
        xb, yb = batch
        hits = tf.cast(tf.equal(tf.argmax(model(xb), axis=1), yb), tf.int64)
        return state[0] + tf.reduce_sum(hits), state[1] + tf.shape(yb, out_type=tf.int64)[0]
    correct, seen = dataset.reduce((np.int64(0), np.int64(0)), count)
    return tf.cast(correct, tf.float32) / tf.cast(seen, tf.float32)


epochs = 2 if args.short else 20
losses = []
for epoch in progress(range(epochs), epochs, 'epochs'):
    mean_loss = train_epoch(train_ds, tf.constant(0.2))
    losses.append(float(mean_loss))
    if epoch % 5 == 4 or epoch == epochs - 1:
        say(f'epoch {epoch + 1:2d}: mean loss {float(mean_loss):.4f}, '
            f'test accuracy {float(accuracy(test_ds)):.3f}')
print('traces of train_epoch:', train_epoch.experimental_get_tracing_count())
save_plot(args, 'digits_pipeline_loss.png', {'mean training loss': losses}, xlabel='epoch')
