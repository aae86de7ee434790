"""The real-step workloads written once as TensorFlow 2 code: `build(tf, name, arrays)` is called
with `tf` being either `defun` or TensorFlow itself (in a worker running another interpreter), so both
run exactly this code: a GradientTape inside `tf.function`, then plain SGD updates (MLP) or a keras
Adam (CNN, char-RNN).

mlp  digits [128, 64] -> dense 128 + relu -> dense 10, softmax cross-entropy, SGD
cnn  digits [64, 8, 8, 1] -> conv 3x3x16 SAME + relu -> max_pool 2 -> conv 3x3x32 SAME + relu
     -> avg_pool 2 -> dense 10, Adam
rnn  next-pixel-intensity char-RNN over the digits' pixel stream (17 tokens): embedding_lookup ->
     tanh RNN (64 units) -> logits, 24 steps in a `for t in tf.range(...)` loop, Adam
"""
from steps_data import LEARNING_RATE, WEIGHTS, weights_of


def _variables(tf, arrays, name):
    return [tf.Variable(value, name=w) for w, value in zip(WEIGHTS[name], weights_of(arrays, name))]


def _mean_xent(tf, labels, logits):
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))


def _mlp(tf, variables, jit_compile):
    w1, b1, w2, b2 = variables
    lr = LEARNING_RATE['mlp']

    @tf.function(jit_compile=jit_compile)
    def step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(x @ w1 + b1)
            loss = _mean_xent(tf, y, h @ w2 + b2)
        grads = tape.gradient(loss, variables)
        for v, g in zip(variables, grads):
            v.assign_sub(lr * g)
        return loss
    return step


def _cnn(tf, variables, jit_compile):
    k1, c1, k2, c2, w, b = variables
    optimizer = tf.optimizers.Adam(learning_rate=LEARNING_RATE['cnn'])

    @tf.function(jit_compile=jit_compile)
    def step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.nn.conv2d(x, k1, strides=1, padding='SAME') + c1)
            h = tf.nn.max_pool2d(h, ksize=2, strides=2, padding='VALID')      # [B, 4, 4, 16]
            h = tf.nn.relu(tf.nn.conv2d(h, k2, strides=1, padding='SAME') + c2)
            h = tf.nn.avg_pool2d(h, ksize=2, strides=2, padding='VALID')      # [B, 2, 2, 32]
            loss = _mean_xent(tf, y, tf.reshape(h, [-1, 2 * 2 * 32]) @ w + b)
        grads = tape.gradient(loss, variables)
        optimizer.apply_gradients(zip(grads, variables))
        return loss
    return step


def _rnn(tf, variables, jit_compile):
    emb, wx, wh, bh, wy, by = variables
    optimizer = tf.optimizers.Adam(learning_rate=LEARNING_RATE['rnn'])
    hidden = wh.shape[0]

    @tf.function(jit_compile=jit_compile)
    def step(inputs, targets):
        """inputs, targets: int32 [T, B]; the loss is the mean cross-entropy over the T steps."""
        with tf.GradientTape() as tape:
            h = tf.zeros([tf.shape(inputs)[1], hidden])
            total = tf.constant(0.0)
            for t in tf.range(tf.shape(inputs)[0]):
                x = tf.nn.embedding_lookup(emb, inputs[t])
                h = tf.tanh(x @ wx + h @ wh + bh)
                total += _mean_xent(tf, targets[t], h @ wy + by)
            loss = total / tf.cast(tf.shape(inputs)[0], tf.float32)
        grads = tape.gradient(loss, variables)
        optimizer.apply_gradients(zip(grads, variables))
        return loss
    return step


BUILDERS = {'mlp': _mlp, 'cnn': _cnn, 'rnn': _rnn}


def build(tf, name, arrays, jit_compile=None):
    """(step, (x, y)): a fresh model of workload `name` from the initial weights in `arrays`, and its
    compiled training step (`tf.function(jit_compile=jit_compile)`) with the batch it is timed on;
    step(x, y) returns the loss tensor."""
    step = BUILDERS[name](tf, _variables(tf, arrays, name), jit_compile)
    return step, (tf.constant(arrays[f'{name}/x']), tf.constant(arrays[f'{name}/y']))
