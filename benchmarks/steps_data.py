"""The inputs of the real-step workloads: batches of scikit-learn's 8x8 digits and the initial weights
of each model, as plain numpy arrays keyed by name, so that the numpy floor, defun and a TensorFlow
worker in another interpreter (which needs neither scikit-learn nor defun) start from the same values.
"""
import numpy as np

MLP_B, MLP_HID = 128, 128                 # batch, hidden units of the 64-128-10 MLP
CNN_B = 64                                # CNN batch (8x8x1 -> conv16 -> pool -> conv32 -> pool)
RNN_B, RNN_T, RNN_E, RNN_H = 32, 24, 16, 64   # char-RNN batch, steps, embedding, hidden units
RNN_V = 17                                # tokens: the pixel intensities 0..16 of the digits
LEARNING_RATE = {'mlp': 0.1, 'cnn': 0.01, 'rnn': 0.01}

# name -> the names of its weight arrays, in the order the models list their variables
WEIGHTS = {
    'mlp': ('w1', 'b1', 'w2', 'b2'),
    'cnn': ('k1', 'c1', 'k2', 'c2', 'w', 'b'),
    'rnn': ('emb', 'wx', 'wh', 'bh', 'wy', 'by'),
}


def _normal(rng, shape, stddev):
    return (rng.standard_normal(shape) * stddev).astype(np.float32)


def _weights(rng):
    zeros = lambda *shape: np.zeros(shape, np.float32)
    return {
        'mlp': [_normal(rng, (64, MLP_HID), 0.1), zeros(MLP_HID), _normal(rng, (MLP_HID, 10), 0.1),
                zeros(10)],
        'cnn': [_normal(rng, (3, 3, 1, 16), 0.3), zeros(16), _normal(rng, (3, 3, 16, 32), 0.1),
                zeros(32), _normal(rng, (2 * 2 * 32, 10), 0.1), zeros(10)],
        'rnn': [_normal(rng, (RNN_V, RNN_E), 0.3), _normal(rng, (RNN_E, RNN_H), 0.2),
                _normal(rng, (RNN_H, RNN_H), 0.1), zeros(RNN_H), _normal(rng, (RNN_H, RNN_V), 0.1),
                zeros(RNN_V)],
    }


def make_arrays(seed=0):
    """{'<workload>/<weight>': array, '<workload>/x', '<workload>/y': one batch} from the digits."""
    from sklearn.datasets import load_digits   # benchmark-only dependency (the 'bench' extra)
    digits = load_digits()
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(digits.target))
    images = (digits.images[order] / 16.0).astype(np.float32)
    labels = digits.target[order].astype(np.int32)
    tokens = digits.images[order].astype(np.int32).reshape(-1)       # one stream of pixel values
    starts = rng.integers(0, len(tokens) - RNN_T - 1, size=RNN_B)
    window = np.stack([tokens[s:s + RNN_T + 1] for s in starts], axis=1)   # [T + 1, B]
    arrays = {'mlp/x': images[:MLP_B].reshape(MLP_B, 64), 'mlp/y': labels[:MLP_B],
              'cnn/x': images[:CNN_B, :, :, None], 'cnn/y': labels[:CNN_B],
              'rnn/x': window[:-1], 'rnn/y': window[1:]}
    for name, values in _weights(rng).items():
        arrays.update({f'{name}/{w}': v for w, v in zip(WEIGHTS[name], values)})
    return arrays


def weights_of(arrays, name):
    return [arrays[f'{name}/{w}'] for w in WEIGHTS[name]]
