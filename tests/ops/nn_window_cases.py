"""The convolution and pooling cases recorded from TensorFlow 2.21 into data/nn_window_ref.npz:
3-D convolution and pooling, tf.nn.pool, the transposed convolutions, explicit padding lists,
channels-first layouts. Each case is run by test_nn_window_tf.py on defun with the same inputs
(stored in the file) and compared with TF's value and its gradients with respect to every float
input (of the sum of the result times fixed weights).

Recorded with `/path/to/tf-venv/bin/python -m tests.ops.nn_window_cases` from the repository root
(TF's default CPU kernels, oneDNN on, as users get them); ERRORS with TF_ENABLE_ONEDNN_OPTS=0,
TF's reference kernels, whose checks of bad shapes oneDNN replaces with aborts."""
import os
import pathlib

import numpy as np

DATA = pathlib.Path(__file__).parent / 'data' / 'nn_window_ref.npz'


def inputs():
    rng = np.random.default_rng(21)

    def n(*shape):
        return rng.standard_normal(shape).astype(np.float32)
    return {'x5': n(2, 4, 5, 3, 2), 'w5': n(2, 3, 2, 2, 3), 'x5c': n(1, 2, 3, 4, 5),
            'x4': n(2, 5, 6, 2), 'w4': n(3, 2, 2, 3), 'x4c': n(1, 2, 5, 6), 'x3': n(2, 7, 2),
            'w3': n(3, 2, 3), 'x3c': n(1, 2, 7), 'dw': n(2, 3, 2, 2),
            'y3': n(2, 4, 3), 'y4': n(2, 3, 3, 3), 'y4c': n(1, 3, 3, 3), 'y5': n(1, 2, 3, 2, 3),
            'y5c': n(1, 3, 2, 3, 2)}


def cases(tf, a):
    """Case name -> (function, names of its inputs in `a`)."""
    nn = tf.nn
    ex4 = [[0, 0], [1, 2], [2, 0], [0, 0]]
    return {
        'conv3d_same': (lambda x, w: nn.conv3d(x, w, [1, 2, 1, 2, 1], 'SAME'), ('x5', 'w5')),
        'conv3d_valid': (lambda x, w: nn.conv3d(x, w, [1, 1, 1, 1, 1], 'VALID'), ('x5', 'w5')),
        'conv3d_dilated': (lambda x, w: nn.conv3d(x, w, [1, 1, 1, 1, 1], 'SAME',
                                                  dilations=[1, 2, 1, 2, 1]), ('x5', 'w5')),
        'conv3d_ncdhw': (lambda x, w: nn.conv3d(x, w[:, :, :, :, :], [1, 1, 1, 2, 1], 'SAME',
                                                data_format='NCDHW'), ('x5c', 'w5')),
        'convolution3d': (lambda x, w: nn.convolution(x, w, 2, 'VALID'), ('x5', 'w5')),
        'max_pool3d_same': (lambda x: nn.max_pool3d(x, 2, 2, 'SAME'), ('x5',)),
        'max_pool3d_valid': (lambda x: nn.max_pool3d(x, [2, 3, 2], [1, 1, 1], 'VALID'),
                             ('x5',)),
        'max_pool3d_ncdhw': (lambda x: nn.max_pool3d(x, 2, 1, 'SAME', data_format='NCDHW'),
                             ('x5c',)),
        'avg_pool3d_same': (lambda x: nn.avg_pool3d(x, 3, 2, 'SAME'), ('x5',)),
        'avg_pool3d_valid': (lambda x: nn.avg_pool3d(x, [1, 2, 3], 1, 'VALID'), ('x5',)),
        'avg_pool3d_ncdhw': (lambda x: nn.avg_pool3d(x, 2, 2, 'SAME', data_format='NCDHW'),
                             ('x5c',)),
        'max_pool_5d': (lambda x: nn.max_pool(x, 2, 1, 'VALID'), ('x5',)),
        'avg_pool_5d': (lambda x: nn.avg_pool(x, [2, 2, 1], [1, 2, 1], 'SAME'), ('x5',)),
        'pool_max3': (lambda x: nn.pool(x, [2, 2, 2], 'MAX', [2, 1, 2], 'SAME'), ('x5',)),
        'pool_avg2': (lambda x: nn.pool(x, [3, 2], 'AVG', [1, 2], 'SAME'), ('x4',)),
        'pool_max1': (lambda x: nn.pool(x, [3], 'MAX', padding='VALID'), ('x3',)),
        'conv2d_explicit': (lambda x, w: nn.conv2d(x, w, 1, ex4), ('x4', 'w4')),
        'conv2d_explicit_strided': (lambda x, w: nn.conv2d(x, w, 2, ex4), ('x4', 'w4')),
        'conv2d_explicit_nchw': (lambda x, w: nn.conv2d(x, w, 1, [[0, 0], [0, 0], [1, 0], [2, 1]],
                                                        data_format='NCHW'), ('x4c', 'w4')),
        'conv2d_nchw': (lambda x, w: nn.conv2d(x, w, [1, 1, 2, 1], 'SAME', data_format='NCHW'),
                        ('x4c', 'w4')),
        'max_pool2d_explicit': (lambda x: nn.max_pool2d(x, 2, 2, [[0, 0], [1, 1], [1, 0], [0, 0]]),
                                ('x4',)),
        'max_pool_explicit': (lambda x: nn.max_pool(x, [3, 2], 1, [[0, 0], [2, 1], [1, 0], [0, 0]]),
                              ('x4',)),
        'max_pool1d_explicit': (lambda x: nn.max_pool1d(x, 2, 2, [[0, 0], [1, 1], [0, 0]]),
                                ('x3',)),
        'max_pool2d_nchw': (lambda x: nn.max_pool2d(x, 2, 2, 'SAME', data_format='NCHW'),
                            ('x4c',)),
        'avg_pool2d_nchw': (lambda x: nn.avg_pool2d(x, 3, 1, 'SAME', data_format='NCHW'),
                            ('x4c',)),
        'max_pool1d_ncw': (lambda x: nn.max_pool1d(x, 2, 2, 'SAME', data_format='NCW'),
                           ('x3c',)),
        'conv1d_ncw': (lambda x, w: nn.conv1d(x, w, 2, 'SAME', data_format='NCW'),
                       ('x3c', 'w3')),
        'depthwise_explicit': (lambda x, w: nn.depthwise_conv2d(x, w, [1, 1, 1, 1], ex4),
                               ('x4', 'dw')),
        'depthwise_explicit_dilated': (lambda x, w: nn.depthwise_conv2d(
            x, w, [1, 1, 1, 1], ex4, dilations=[2, 2]), ('x4', 'dw')),
        'conv1d_transpose': (lambda y, w: nn.conv1d_transpose(y, w, [2, 8, 2], 2, 'SAME'),
                             ('y3', 'w3')),
        'conv1d_transpose_valid': (lambda y, w: nn.conv1d_transpose(y, w, [2, 9, 2], 2, 'VALID'),
                                   ('y3', 'w3')),
        'conv2d_transpose_same': (lambda y, w: nn.conv2d_transpose(y, w, [2, 6, 5, 2], 2, 'SAME'),
                                  ('y4', 'w4')),
        'conv2d_transpose_explicit': (lambda y, w: nn.conv2d_transpose(
            y, w, [2, 4, 4, 2], 2, [[0, 0], [2, 1], [1, 1], [0, 0]]), ('y4', 'w4')),
        'conv3d_transpose': (lambda y, w: nn.conv3d_transpose(y, w, [1, 4, 5, 3, 2], [1, 2, 2, 2, 1],
                                                              'SAME'), ('y5', 'w5')),
        'conv3d_transpose_valid': (lambda y, w: nn.conv3d_transpose(y, w, [1, 3, 5, 3, 2], 1,
                                                                    'VALID'), ('y5', 'w5')),
        'conv_transpose_1d': (lambda y, w: nn.conv_transpose(y, w, [2, 8, 2], 2), ('y3', 'w3')),
        'conv_transpose_2d': (lambda y, w: nn.conv_transpose(y, w, [2, 5, 5, 2], [2, 2], 'SAME'),
                              ('y4', 'w4')),
        'conv_transpose_3d': (lambda y, w: nn.conv_transpose(y, w, tf.constant([1, 4, 5, 3, 2]),
                                                             [2, 2, 2], 'SAME'), ('y5', 'w5')),
    }


def errors(tf, a):
    """Case name -> a call TF refuses (recorded: the exception's class name)."""
    nn, c = tf.nn, tf.constant
    x5, w5, x4, w4 = c(a['x5']), c(a['w5']), c(a['x4']), c(a['w4'])
    y3, w3, y4, y5 = c(a['y3']), c(a['w3']), c(a['y4']), c(a['y5'])
    return {
        'conv3d_int_strides': lambda: nn.conv3d(x5, w5, 1, 'SAME'),
        'conv3d_short_strides': lambda: nn.conv3d(x5, w5, [1, 1, 1], 'SAME'),
        'conv3d_batch_stride': lambda: nn.conv3d(x5, w5, [2, 1, 1, 1, 1], 'SAME'),
        'conv3d_explicit': lambda: nn.conv3d(x5, w5, [1] * 5, [[0, 0]] * 5),
        'conv3d_depth': lambda: nn.conv3d(c(a['x5c']), w5, [1] * 5, 'SAME'),
        'conv3d_int': lambda: nn.conv3d(tf.ones([1, 2, 2, 2, 1], tf.int32),
                                        tf.ones([1, 1, 1, 1, 1], tf.int32), [1] * 5, 'SAME'),
        'conv3d_bad_padding': lambda: nn.conv3d(x5, w5, [1] * 5, 'FULL'),
        'max_pool3d_double': lambda: nn.max_pool3d(tf.cast(x5, tf.float64), 2, 2, 'SAME'),
        'max_pool3d_explicit': lambda: nn.max_pool3d(x5, 2, 2, [[0, 0]] * 5),
        'max_pool3d_ksize_len': lambda: nn.max_pool3d(x5, [2, 2], 2, 'SAME'),
        'max_pool_explicit_wide': lambda: nn.max_pool(x4, [3, 2], 1, [[0, 0], [1, 2], [2, 0],
                                                                      [0, 0]]),
        'avg_pool2d_explicit': lambda: nn.avg_pool2d(x4, 2, 2, [[0, 0]] * 4),
        'avg_pool_explicit': lambda: nn.avg_pool(x4, 2, 2, [[0, 0]] * 4),
        'conv1d_explicit': lambda: nn.conv1d(c(a['x3']), w3, 1, [[0, 0], [1, 1], [0, 0]]),
        'convolution_explicit': lambda: nn.convolution(x4, w4, padding=[[0, 0]] * 4),
        'conv2d_explicit_size': lambda: nn.conv2d(x4, w4, 1, [[0, 0], [1, 1], [1, 1]]),
        'conv2d_explicit_batch': lambda: nn.conv2d(x4, w4, 1, [[1, 0], [1, 1], [1, 1], [0, 0]]),
        'conv2d_explicit_negative': lambda: nn.conv2d(x4, w4, 1, [[0, 0], [-1, 1], [1, 1],
                                                                  [0, 0]]),
        'conv2d_explicit_string': lambda: nn.conv2d(x4, w4, 1, 'EXPLICIT'),
        'conv2d_explicit_pair': lambda: nn.conv2d(x4, w4, 1, [[0, 0], [1, 1, 1], [1, 1],
                                                              [0, 0]]),
        'conv1d_transpose_size': lambda: nn.conv1d_transpose(y3, w3, [2, 9, 2], 2, 'SAME'),
        'conv2d_transpose_size': lambda: nn.conv2d_transpose(y4, w4, [2, 7, 7, 2], 2, 'SAME'),
        'conv2d_transpose_channels': lambda: nn.conv2d_transpose(y4, w4, [2, 6, 6, 3], 2,
                                                                 'SAME'),
        'conv3d_transpose_size': lambda: nn.conv3d_transpose(y5, w5, [1, 5, 5, 3, 2], 2, 'SAME'),
        'conv3d_transpose_channels': lambda: nn.conv3d_transpose(y5, w5, [1, 4, 5, 3, 3], 2,
                                                                 'SAME'),
        'conv_transpose_rank': lambda: nn.conv_transpose(y5, w5, [1, 4, 5, 3, 3, 2], 2, 'SAME'),
        'conv_transpose_none': lambda: nn.conv_transpose(y4, w4, None, 2, 'SAME'),
        'pool_min': lambda: nn.pool(x4, [2, 2], 'MIN', padding='SAME'),
        'pool_same_dilated': lambda: nn.pool(x4, [2, 2], 'MAX', padding='SAME', dilations=[2, 2]),
        'pool_window_len': lambda: nn.pool(x4, [2, 2, 2, 2], 'MAX'),
    }


def _weights(shape, seed):
    return np.random.default_rng(seed).uniform(0.5, 1.5, shape).astype(np.float32)


def run(tf, a, name, fn, keys):
    """(value, gradients of sum(value * weights) w.r.t. each input) of one case."""
    args = [tf.constant(a[k]) for k in keys]
    return np.asarray(fn(*args)), gradients(tf, a, name, fn, keys)


def gradients(tf, a, name, fn, keys):
    args = [tf.constant(a[k]) for k in keys]
    with tf.GradientTape() as tape:
        for t in args:
            tape.watch(t)
        y = fn(*args)
        total = tf.reduce_sum(y * _weights(y.shape, len(name)))
    return [np.asarray(g) for g in tape.gradient(total, args)]


def record():
    # The recording venv's TF, never defun's dependency: imported only when recording.
    import tensorflow as tf
    a = inputs()
    out = {f'in_{k}': v for k, v in a.items()}
    if os.environ.get('TF_ENABLE_ONEDNN_OPTS') == '0':
        for name, call in errors(tf, a).items():
            try:
                call()
                out[f'err_{name}'] = np.array('none')
            except Exception as exc:  # noqa: BLE001 - its class is what is recorded
                out[f'err_{name}'] = np.array(type(exc).__name__)
        previous = dict(np.load(DATA))
        previous.update(out)
        np.savez_compressed(DATA, **previous)
        return
    for name, (fn, keys) in cases(tf, a).items():
        out[f'val_{name}'] = np.asarray(fn(*[tf.constant(a[k]) for k in keys]))
        try:
            grads = gradients(tf, a, name, fn, keys)
        except Exception as exc:  # noqa: BLE001 - TF has no gradient here: none recorded
            print(name, 'no gradient in TF:', type(exc).__name__, str(exc)[:200])
            continue
        for k, g in zip(keys, grads):
            out[f'grad_{name}_{k}'] = g
    np.savez_compressed(DATA, **out)


if __name__ == '__main__':
    record()
