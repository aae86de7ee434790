"""A character-level RNN learning to continue a short text. The time loop of the training step is
a Python `for t in tf.range(...)` that AutoGraph converts into a graph while loop; the gradient
runs back through it (backpropagation through time) and Adam updates the weights.

    python examples/char_rnn.py [--short] [--plot [PATH]]
"""
import numpy as np

import defun as tf
from example_utils import parse_args, progress, save_plot

TEXT = ('the quick brown fox jumps over the lazy dog. a lazy dog sleeps while the quick fox runs. '
        'the fox and the dog are friends, and the dog jumps over the fox. ') * 4

args = parse_args(__doc__.splitlines()[0])
vocab = sorted(set(TEXT))
char_to_id = {c: i for i, c in enumerate(vocab)}
ids = np.array([char_to_id[c] for c in TEXT], dtype=np.int32)
V, H, T, B = len(vocab), 64, 24, 16          # vocabulary, hidden units, time steps, batch

tf.random.set_seed(1)


class CharRNN(tf.Module):
    def __init__(self):
        super().__init__()
        self.wx = tf.Variable(tf.random.normal([V, H], stddev=0.1), name='wx')
        self.wh = tf.Variable(tf.random.normal([H, H], stddev=0.1), name='wh')
        self.bh = tf.Variable(tf.zeros([H]), name='bh')
        self.wy = tf.Variable(tf.random.normal([H, V], stddev=0.1), name='wy')
        self.by = tf.Variable(tf.zeros([V]), name='by')

    def step(self, x_ids, h):
        h = tf.tanh(tf.one_hot(x_ids, V) @ self.wx + h @ self.wh + self.bh)
        return h @ self.wy + self.by, h


model = CharRNN()
optimizer = tf.optimizers.Adam(learning_rate=0.01)


@tf.function
def train_step(inputs, targets):
    """inputs, targets: int32 [T, B]; the loss is the mean cross-entropy over all T steps."""
    with tf.GradientTape() as tape:
        h = tf.zeros([B, H])
        total = tf.constant(0.0)
        for t in tf.range(tf.shape(inputs)[0]):              # AutoGraph: a graph while loop
            logits, h = model.step(inputs[t], h)
            total += tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(targets[t], logits))
        loss = total / tf.cast(tf.shape(inputs)[0], tf.float32)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def batch(rng):
    starts = rng.integers(0, len(ids) - T - 1, size=B)
    window = np.stack([ids[s:s + T + 1] for s in starts], axis=1)       # [T + 1, B]
    return tf.constant(window[:-1]), tf.constant(window[1:])


def sample(prefix, length):
    h = tf.zeros([1, H])
    for c in prefix[:-1]:
        _, h = model.step(tf.constant([char_to_id[c]]), h)
    out, current = prefix, prefix[-1]
    for _ in range(length):
        logits, h = model.step(tf.constant([char_to_id[current]]), h)
        current = vocab[int(tf.argmax(logits, axis=1)[0])]
        out += current
    return out


rng = np.random.default_rng(0)
steps = 15 if args.short else 400
losses = []
for step in progress(range(steps), steps, 'training'):
    losses.append(float(train_step(*batch(rng))))
print(f'loss {losses[0]:.3f} -> {losses[-1]:.3f} over {steps} steps '
      f'(uniform guessing: {np.log(V):.3f})')
print('sample:', repr(sample('the ', 40)))
save_plot(args, 'char_rnn_loss.png', {'training loss': losses})
