"""tf.signal against values recorded from TensorFlow 2.21 (data/signal_ref.npz, made by
signal_cases.py): each case's value and its gradients where TF has them, eagerly and in a
tf.function traced for inputs of unknown shape, and the exception class of each call TF refuses;
then the checks a recording does not hold (graph-mode shapes, names, crop gradients)."""
import numpy as np
import pytest

import defun as tf
from tests.ops import signal_cases

REF = np.load(signal_cases.DATA)
INPUTS = {k[3:]: REF[k] for k in REF.files if k.startswith('in_')}
CASES = signal_cases.cases(tf)
ERRORS = signal_cases.errors(tf, INPUTS)


def _tolerance(value):
    # float32 results agree with TF's to its rounding (TF's own FFT rounds in float32)
    return (1e-12, 1e-12) if value.dtype == np.float64 else (2e-5, 2e-5)


@pytest.mark.parametrize('name', sorted(CASES))
def test_value_and_gradients_match_tf(name):
    fn, keys = CASES[name]
    value, grads = signal_cases.run(tf, INPUTS, fn, keys)
    expected = REF[f'val_{name}']
    assert value.dtype == expected.dtype and value.shape == expected.shape
    rtol, atol = _tolerance(expected)
    np.testing.assert_allclose(value, expected, rtol=rtol, atol=atol * 10)
    for k, g in zip(keys, grads):
        if f'grad_{name}_{k}' in REF.files:
            np.testing.assert_allclose(g, REF[f'grad_{name}_{k}'], rtol=rtol * 10, atol=atol * 10,
                                       err_msg=f'{name}: gradient for {k}')


@pytest.mark.parametrize('name', sorted(CASES))
def test_traced_for_unknown_shapes_matches_tf(name):
    fn, keys = CASES[name]
    specs = [tf.TensorSpec([None] * INPUTS[k].ndim, tf.as_dtype(INPUTS[k].dtype)) for k in keys]
    traced = tf.function(fn, input_signature=specs)
    value = traced(*[tf.constant(INPUTS[k]) for k in keys]).numpy()
    rtol, atol = _tolerance(REF[f'val_{name}'])
    np.testing.assert_allclose(value, REF[f'val_{name}'], rtol=rtol, atol=atol * 10)


@pytest.mark.parametrize('name', sorted(ERRORS))
def test_refusals_match_tf(name):
    expected = str(REF[f'err_{name}'])
    if expected == 'none':
        ERRORS[name]()
        return
    with pytest.raises(Exception) as info:
        ERRORS[name]()
    assert type(info.value).__name__ == expected


def test_every_case_was_recorded():
    assert all(f'val_{name}' in REF.files for name in CASES)
    assert all(f'err_{name}' in REF.files for name in ERRORS)


def test_static_shapes_in_a_graph():
    seen = {}

    @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32)])
    def f(x):
        spectrum = tf.signal.rfft(x)
        seen['rfft'] = spectrum.shape.as_list()
        seen['rfft_8'] = tf.signal.rfft(x, [8]).shape.as_list()
        seen['irfft'] = tf.signal.irfft(spectrum).shape.as_list()
        seen['stft'] = tf.signal.stft(x, 4, 2).shape.as_list()
        seen['fft'] = tf.signal.fft(tf.complex(x, x)).shape.as_list()
        return spectrum
    f.get_concrete_function()
    assert seen == {'rfft': [None, 4], 'rfft_8': [None, 5], 'irfft': [None, 6],
                    'stft': [None, 2, 3], 'fft': [None, 6]}


def test_fft_length_known_only_when_run():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32),
                                  tf.TensorSpec([1], tf.int32)])
    def roundtrip(x, n):
        return tf.signal.irfft(tf.signal.rfft(x, n), n)
    x = INPUTS['x7']
    for n in (4, 7, 10):   # cropped, exact, padded with zeros
        expected = np.concatenate([x[:n], np.zeros(max(n - 7, 0), np.float32)])
        np.testing.assert_allclose(roundtrip(x, [n]).numpy(), expected, atol=1e-6)


def test_messages_name_what_tf_names():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'Tcomplex' of float is not in the list of allowed "
                             "values: complex64, complex128"):
        tf.signal.fft(tf.constant(INPUTS['x']))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r'Input must have rank of at least 2 but got: \[6\]'):
        tf.signal.fft2d(tf.constant(INPUTS['x'][0].astype(np.complex64)))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='fft_length must have shape'):
        tf.signal.rfft(INPUTS['x'], [3, 2])
    with pytest.raises(ValueError, match='RFFT requires tf.float32 or tf.float64 inputs'):
        tf.signal.rfft(tf.constant([1, 2, 3]))
    with pytest.raises(ValueError, match="dtype must be a floating point type. Found "
                                         "<dtype: 'int32'>"):
        tf.signal.hann_window(5, dtype=tf.int32)


def test_python_values_convert_as_tf_converts_them():
    # TF's wrappers convert to the ops' defaults: complex64 for fft/irfft, float32 for rfft
    assert tf.signal.fft([1.0, 2.0]).dtype == tf.complex64
    assert tf.signal.fft(np.zeros(3, np.complex128)).dtype == tf.complex64
    assert tf.signal.rfft([1, 2, 3]).dtype == tf.complex64
    assert tf.signal.irfft([1, 2, 3]).dtype == tf.float32
    assert tf.signal.rfft(tf.constant([1.0, 2.0], tf.float64)).dtype == tf.complex128
