"""A tf.Module regression model trained, saved two ways (a tf.train.Checkpoint of its variables
and a tf.saved_model with a serving signature), then loaded and served in a fresh Python process:
the SavedModel needs no model code, the checkpoint is restored into a newly built model.

    python examples/serve_module.py [--short] [--plot [PATH]]
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

import defun as tf
from example_utils import parse_args, progress, save_plot


class Regressor(tf.Module):
    """y = relu(x W1 + b1) W2 + b2, with a serving function of fixed signature."""

    def __init__(self, name=None):
        super().__init__(name=name)
        rng = np.random.default_rng(0)
        self.w1 = tf.Variable(rng.normal(0, 0.5, (3, 16)).astype(np.float32), name='w1')
        self.b1 = tf.Variable(tf.zeros([16]), name='b1')
        self.w2 = tf.Variable(rng.normal(0, 0.5, (16, 1)).astype(np.float32), name='w2')
        self.b2 = tf.Variable(tf.zeros([1]), name='b2')

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        return tf.nn.relu(x @ self.w1 + self.b1) @ self.w2 + self.b2


SERVE = r'''
import sys
import numpy as np
import defun as tf
sys.path.insert(0, sys.argv[3])
from serve_module import Regressor

x = tf.constant(np.load(sys.argv[2]))
loaded = tf.saved_model.load(sys.argv[1] + '/saved_model')
served = loaded.signatures['serving_default'](x=x)
show = lambda a: ' '.join('%+.4f' % v for v in np.ravel(a))
print('served by the SavedModel:', show(list(served.values())[0].numpy()))
fresh = Regressor()
tf.train.Checkpoint(model=fresh).restore(tf.train.latest_checkpoint(sys.argv[1] + '/ckpt'))
print('served by the checkpoint:', show(fresh(x).numpy()))
'''


def main():
    args = parse_args(__doc__.splitlines()[0])
    rng = np.random.default_rng(1)
    xs = rng.uniform(-1, 1, (256, 3)).astype(np.float32)
    ys = (np.sin(2 * xs[:, :1]) + xs[:, 1:2] * xs[:, 2:3]).astype(np.float32)
    model = Regressor()
    optimizer = tf.optimizers.Adam(learning_rate=0.02)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    steps = 20 if args.short else 500
    losses = [float(train_step(xs, ys)) for _ in progress(range(steps), steps, 'training')]
    print(f'mean squared error {losses[0]:.4f} -> {losses[-1]:.4f}')
    probe = xs[:4]
    print('in the training process: ', ' '.join('%+.4f' % v for v in model(probe).numpy().ravel()))
    with tempfile.TemporaryDirectory() as root:
        tf.train.Checkpoint(model=model).save(os.path.join(root, 'ckpt', 'model'))
        tf.saved_model.save(model, os.path.join(root, 'saved_model'))
        np.save(os.path.join(root, 'probe.npy'), probe)
        print('saved to', sorted(os.listdir(root)))
        here = os.path.dirname(os.path.abspath(__file__))
        out = subprocess.run([sys.executable, '-c', SERVE, root, os.path.join(root, 'probe.npy'), here],
                             capture_output=True, text=True, check=False)
        print(out.stdout, end='')
        if out.returncode != 0:
            sys.exit('the serving process failed:\n' + out.stderr)
    save_plot(args, 'serve_module_loss.png', {'training loss': losses})


if __name__ == '__main__':
    main()
