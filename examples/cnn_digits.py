"""A small CNN on scikit-learn's 8x8 digits: conv2d -> relu -> max_pool2d -> dense, trained with
Adam in a compiled step over a tf.data pipeline. Needs scikit-learn (pip install '.[examples]').

    python examples/cnn_digits.py [--short] [--plot [PATH]]
"""
import numpy as np

import defun as tf
from example_utils import parse_args, progress, require, save_plot, say

args = parse_args(__doc__.splitlines()[0])
load_digits = require('sklearn.datasets', 'scikit-learn', 'the digits data set').load_digits
digits = load_digits()
images = (digits.images / 16.0).astype(np.float32)[..., None]      # [N, 8, 8, 1], NHWC
labels = digits.target.astype(np.int64)
order = np.random.default_rng(0).permutation(len(images))
train, test = order[:1500], order[1500:]
if args.short:
    train = train[:256]

tf.random.set_seed(0)


class SmallCNN(tf.Module):
    def __init__(self):
        super().__init__()
        self.kernel = tf.Variable(tf.random.normal([3, 3, 1, 16], stddev=0.3), name='kernel')
        self.bias = tf.Variable(tf.zeros([16]), name='bias')
        self.w = tf.Variable(tf.random.normal([4 * 4 * 16, 10], stddev=0.05), name='w')
        self.b = tf.Variable(tf.zeros([10]), name='b')

    def __call__(self, x):
        h = tf.nn.relu(tf.nn.conv2d(x, self.kernel, strides=1, padding='SAME') + self.bias)
        h = tf.nn.max_pool2d(h, ksize=2, strides=2, padding='VALID')       # [N, 4, 4, 16]
        return tf.reshape(h, [-1, 4 * 4 * 16]) @ self.w + self.b


model = SmallCNN()
optimizer = tf.optimizers.Adam(learning_rate=0.01)
train_ds = tf.data.Dataset.from_tensor_slices((images[train], labels[train])).shuffle(
    len(train), seed=0).batch(64)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, model(x)))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def accuracy(x, y):
    return tf.reduce_mean(tf.cast(tf.equal(tf.argmax(model(x), axis=1), y), tf.float32))


epochs = 2 if args.short else 15
losses = []
for epoch in progress(range(epochs), epochs, 'epochs'):
    epoch_losses = [float(train_step(xb, yb)) for xb, yb in train_ds]
    losses.extend(epoch_losses)
    say(f'epoch {epoch + 1}: mean loss {np.mean(epoch_losses):.4f}')
test_accuracy = float(accuracy(tf.constant(images[test]), tf.constant(labels[test])))
print(f'test accuracy {test_accuracy:.3f} after {epochs} epochs; '
      f'train_step traced {train_step.experimental_get_tracing_count()} times')
save_plot(args, 'cnn_digits_loss.png', {'training loss': losses}, xlabel='batch')
