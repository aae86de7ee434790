"""Programs the multi-process tests run on every rank (under `mpiexec -n 2`) and, for the
reference, in one process: TF's custom training loop with a tf.Module model and Adam."""
import numpy as np

import defun as tf

GLOBAL_BATCH = 8


def digits_like_data(n=64, features=6, classes=3, seed=0):
    """A small classification set: float32 features, int32 labels (the same on every rank)."""
    rng = np.random.RandomState(seed)
    x = rng.normal(size=(n, features)).astype(np.float32)
    y = (np.argmax(x[:, :classes], axis=1)).astype(np.int32)
    return x, y


class MLP(tf.Module):
    """Two dense layers; the initial weights depend on `seed` (each rank passes its own, and the
    strategy's scope gives every rank rank 0's)."""

    def __init__(self, seed, features=6, hidden=16, classes=3):
        super().__init__()
        rng = np.random.RandomState(seed)
        self.w1 = tf.Variable(rng.normal(0, 0.5, (features, hidden)).astype(np.float32))
        self.b1 = tf.Variable(np.zeros(hidden, np.float32))
        self.w2 = tf.Variable(rng.normal(0, 0.5, (hidden, classes)).astype(np.float32))
        self.b2 = tf.Variable(np.zeros(classes, np.float32))

    def __call__(self, x):
        return tf.matmul(tf.nn.relu(tf.matmul(x, self.w1) + self.b1), self.w2) + self.b2


def build(strategy, seed):
    """The model and Adam (created in the strategy's scope) and the iterator over the global
    batches (distributed by the strategy)."""
    with strategy.scope():
        model = MLP(seed)
        optimizer = tf.optimizers.Adam(0.01)
    x, y = digits_like_data()
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(GLOBAL_BATCH)
    return model, optimizer, iter(strategy.experimental_distribute_dataset(dataset))


def make_step(strategy, model, optimizer):
    """TF's custom training step: the per-replica loss scaled by the global batch, gradients
    applied by the optimizer (which sums them over the replicas), the losses summed."""
    @tf.function
    def train_step(iterator):
        def step_fn(inputs):
            features, labels = inputs
            with tf.GradientTape() as tape:
                logits = model(features)
                per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        per_replica = strategy.run(step_fn, args=(next(iterator),))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)
    return train_step


def train(strategy, steps, seed):
    """`steps` Adam steps; returns (model, losses, the compiled step)."""
    model, optimizer, iterator = build(strategy, seed)
    step = make_step(strategy, model, optimizer)
    losses = [float(step(iterator)) for _ in range(steps)]
    return model, losses, step


def weights(model):
    return [v.numpy().tolist() for v in model.trainable_variables]
