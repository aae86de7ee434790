"""Train an MLP on scikit-learn's digits with tf.distribute: the same script on one process or N.

    python examples/distributed_digits.py [--short] [--checkpoints DIR] [--plot [PATH]]
    mpiexec -n 2 python examples/distributed_digits.py [--short] [--checkpoints DIR]

TF's custom training loop: a `tf.Module` model and Adam created in the strategy's scope (every
process starts from rank 0's weights), each global batch of 64 split across the processes, the loss
scaled by the global batch, the gradients summed over the processes inside the compiled step. With
--checkpoints, rank 0 saves every 20 steps and a relaunch (on any number of processes) resumes
from the latest checkpoint. Needs scikit-learn (for the data): pip install '.[examples]'; several
processes need pip install '.[mpi]'.
"""
import argparse
import os

import numpy as np

import defun as tf
from example_utils import require, save_plot

load_digits = require('sklearn.datasets', 'scikit-learn', 'the digits data set').load_digits

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument('--short', action='store_true', help='a few steps (also DEFUN_EXAMPLES_SHORT=1)')
parser.add_argument('--checkpoints', default=None, help='a directory to save and resume from')
parser.add_argument('--plot', nargs='?', const='', default=None, metavar='PATH',
                    help='save a loss plot (PNG; needs matplotlib; rank 0 only)')
args = parser.parse_args()
short = args.short or os.environ.get('DEFUN_EXAMPLES_SHORT') == '1'

strategy = tf.distribute.MultiWorkerMirroredStrategy()
resolver = strategy.cluster_resolver
is_chief = resolver.task_id in (None, 0)
GLOBAL_BATCH, STEPS = 64, 40 if short else 400

digits = load_digits()
x = (digits.data / 16.0).astype(np.float32)
y = digits.target.astype(np.int32)
order = np.random.default_rng(0).permutation(len(x))
train, test = order[:1500], order[1500:]
dataset = (tf.data.Dataset.from_tensor_slices((x[train], y[train]))
           .shuffle(1500, seed=0).repeat().batch(GLOBAL_BATCH))


class MLP(tf.Module):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(1)
        self.w1 = tf.Variable(rng.normal(0, 0.1, (64, 64)).astype(np.float32))
        self.b1 = tf.Variable(np.zeros(64, np.float32))
        self.w2 = tf.Variable(rng.normal(0, 0.1, (64, 10)).astype(np.float32))
        self.b2 = tf.Variable(np.zeros(10, np.float32))

    def __call__(self, inputs):
        return tf.nn.relu(inputs @ self.w1 + self.b1) @ self.w2 + self.b2


with strategy.scope():
    model = MLP()
    optimizer = tf.optimizers.Adam(0.01)
iterator = iter(strategy.experimental_distribute_dataset(dataset))


@tf.function
def train_step(iterator):
    def step_fn(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, model(features))
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss
    per_replica_loss = strategy.run(step_fn, args=(next(iterator),))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_loss, axis=None)


manager = None
if args.checkpoints:
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, iterator=iterator)
    manager = tf.train.CheckpointManager(checkpoint, args.checkpoints, max_to_keep=3)
    if manager.restore_or_initialize() and is_chief:
        print(f'resumed from {manager.latest_checkpoint}')

losses = []
for step in range(int(optimizer.iterations.numpy()) + 1, STEPS + 1):
    loss = train_step(iterator)
    losses.append(float(loss))
    if manager is not None and step % 20 == 0:
        manager.save()
    if is_chief and step % (STEPS // 4) == 0:
        print(f'step {step:4d}  loss {float(loss):.4f}', flush=True)

accuracy = float(np.mean(np.argmax(model(x[test]).numpy(), axis=1) == y[test]))
if is_chief:
    print(f'{strategy.num_replicas_in_sync} replica(s); test accuracy {accuracy:.3f}; '
          f'step traced {train_step.experimental_get_tracing_count()} time(s)')
    save_plot(args, 'distributed_digits_loss.png', {'training loss': losses})
