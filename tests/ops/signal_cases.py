"""The tf.signal cases recorded from TensorFlow 2.21 into data/signal_ref.npz: the complex and
real Fourier transforms (float32 and float64, fft_length padding and cropping), the windows,
stft / inverse_stft, overlap_and_add, the fft shifts, the cosine transforms (dct, idct, mdct)
and the mel helpers. Each case is run by test_signal_tf.py on
defun with the same inputs (stored in the file) and compared with TF's value and, where TF has
one, its gradient with respect to every float input (of the sum of the result times fixed
weights). A complex result is compared as its real and imaginary parts side by side.

Recorded with `/path/to/tf-venv/bin/python -m tests.ops.signal_cases` from the repository root."""
import pathlib

import numpy as np

DATA = pathlib.Path(__file__).parent / 'data' / 'signal_ref.npz'


def inputs():
    rng = np.random.default_rng(7)

    def n(*shape, dtype=np.float32):
        return rng.standard_normal(shape).astype(dtype)
    return {'x': n(4, 6), 'y': n(4, 6), 'x3': n(2, 3, 4), 'y3': n(2, 3, 4), 's': n(2, 12),
            'd': n(4, 6, dtype=np.float64), 'e': n(4, 6, dtype=np.float64), 'x7': n(7)}


def _parts(tf, c):
    return tf.concat([tf.math.real(c), tf.math.imag(c)], -1)


def _transforms(tf):
    s = tf.signal

    def complex_case(fn):
        return lambda a, b: _parts(tf, fn(tf.complex(a, b)))

    def rfft_case(fn, n=None):
        return lambda a: _parts(tf, fn(a, n))

    def irfft_case(fn, n=None):
        return lambda a, b: fn(tf.complex(a, b), n)
    return {
        'fft': (complex_case(s.fft), ['x', 'y']), 'ifft': (complex_case(s.ifft), ['x', 'y']),
        'fft2d': (complex_case(s.fft2d), ['x', 'y']),
        'ifft2d': (complex_case(s.ifft2d), ['x', 'y']),
        'fft3d': (complex_case(s.fft3d), ['x3', 'y3']),
        'ifft3d': (complex_case(s.ifft3d), ['x3', 'y3']),
        'fft_f64': (complex_case(s.fft), ['d', 'e']),
        'rfft': (rfft_case(s.rfft), ['x']), 'rfft_8': (rfft_case(s.rfft, [8]), ['x']),
        'rfft_5': (rfft_case(s.rfft, [5]), ['x']), 'rfft_odd': (rfft_case(s.rfft), ['x7']),
        'rfft_f64': (rfft_case(s.rfft), ['d']), 'rfft2d': (rfft_case(s.rfft2d), ['x']),
        'rfft2d_36': (rfft_case(s.rfft2d, [3, 6]), ['x']),
        'rfft3d': (rfft_case(s.rfft3d), ['x3']),
        'irfft': (irfft_case(s.irfft), ['x', 'y']),
        'irfft_7': (irfft_case(s.irfft, [7]), ['x', 'y']),
        'irfft_11': (irfft_case(s.irfft, [11]), ['x', 'y']),
        'irfft_16': (irfft_case(s.irfft, [16]), ['x', 'y']),
        'irfft_f64': (irfft_case(s.irfft), ['d', 'e']),
        'irfft2d': (irfft_case(s.irfft2d), ['x', 'y']),
        'irfft2d_55': (irfft_case(s.irfft2d, [5, 5]), ['x', 'y']),
        'irfft3d': (irfft_case(s.irfft3d), ['x3', 'y3']),
    }


def _windows(tf):
    s = tf.signal
    return {
        'hann_8': (lambda: s.hann_window(8), []),
        'hann_7_symmetric': (lambda: s.hann_window(7, periodic=False), []),
        'hann_1': (lambda: s.hann_window(1), []),
        'hamming_9': (lambda: s.hamming_window(9), []),
        'hamming_6_f64': (lambda: s.hamming_window(6, periodic=False, dtype=tf.float64), []),
        'kaiser_7': (lambda: s.kaiser_window(7), []),
        'kaiser_6_beta3': (lambda: s.kaiser_window(6, beta=3.0), []),
        'kaiser_f64': (lambda: s.kaiser_window(5, beta=5.0, dtype=tf.float64), []),
        'kbd_8': (lambda: s.kaiser_bessel_derived_window(8), []),
        'kbd_7': (lambda: s.kaiser_bessel_derived_window(7, beta=4.0), []),
        'vorbis_6': (lambda: s.vorbis_window(6), []),
    }


def _short_time(tf):
    s = tf.signal
    return {
        'stft': (lambda a: _parts(tf, s.stft(a, 5, 2)), ['s']),
        'stft_hamming_padded': (lambda a: _parts(tf, s.stft(
            a, 4, 3, fft_length=6, window_fn=s.hamming_window, pad_end=True)), ['s']),
        'istft': (lambda a: s.inverse_stft(s.stft(a, 5, 2), 5, 2,
                                           window_fn=s.inverse_stft_window_fn(2)), ['s']),
        'istft_no_window': (lambda a: s.inverse_stft(s.stft(a, 5, 2), 6, 2, fft_length=8,
                                                     window_fn=None), ['s']),
        'overlap_and_add': (lambda a: s.overlap_and_add(a, 3), ['x3']),
        'overlap_and_add_fast': (lambda a: s.overlap_and_add(a, 4), ['x3']),
        'fftshift': (lambda a: s.fftshift(a), ['x']),
        'fftshift_axis': (lambda a: s.fftshift(a, axes=1), ['x3']),
        'ifftshift_axes': (lambda a: s.ifftshift(a, axes=[-1, 0]), ['x3']),
    }


def _cosine_and_mel(tf):
    s = tf.signal

    def transform(fn, dct_type, norm=None):
        return lambda a: fn(a, type=dct_type, norm=norm)
    cases = {f'dct{t}': (transform(s.dct, t), ['x']) for t in (1, 2, 3, 4)}
    cases.update({f'idct{t}_ortho': (transform(s.idct, t, 'ortho'), ['x']) for t in (2, 3, 4)})
    cases.update({
        'dct2_ortho_f64': (lambda a: s.dct(a, norm='ortho'), ['d']),
        'dct2_cut': (lambda a: s.dct(a, n=4), ['x']),
        'dct3_padded': (lambda a: s.dct(a, type=3, n=9), ['x']),
        'mdct': (lambda a: s.mdct(a, 4), ['s']),
        'mdct_ortho_padded': (lambda a: s.mdct(a, 8, window_fn=None, norm='ortho',
                                               pad_end=True), ['s']),
        'inverse_mdct': (lambda a: s.inverse_mdct(s.mdct(a, 4)), ['s']),
        'mel_matrix': (lambda: s.linear_to_mel_weight_matrix(5, 9, 8000, 100.0, 3000.0), []),
        'mel_matrix_f64': (lambda: s.linear_to_mel_weight_matrix(
            4, 7, 16000, 0.0, 8000.0, dtype=tf.float64), []),
        'mfccs': (lambda a: s.mfccs_from_log_mel_spectrograms(a), ['x3']),
    })
    return cases


def cases(tf):
    """name -> (function of the named inputs, their names)."""
    return {**_transforms(tf), **_windows(tf), **_short_time(tf), **_cosine_and_mel(tf)}


def errors(tf, a):
    """name -> a call TF refuses (the exception's class name is recorded)."""
    s = tf.signal
    return {
        'fft_of_float_tensor': lambda: s.fft(tf.constant(a['x'])),
        'fft2d_of_vector': lambda: s.fft2d(tf.constant(a['x'][0].astype(np.complex64))),
        'rfft_of_int': lambda: s.rfft(tf.constant([1, 2, 3])),
        'rfft_of_scalar': lambda: s.rfft(tf.constant(1.0)),
        'rfft_length_of_two': lambda: s.rfft(tf.constant(a['x']), [3, 2]),
        'rfft_negative_length': lambda: s.rfft(tf.constant(a['x']), [-1]),
        'irfft_of_float': lambda: s.irfft(tf.constant(a['x'])),
        'hann_int_dtype': lambda: s.hann_window(5, dtype=tf.int32),
        'hann_vector_length': lambda: s.hann_window([5]),
        'kaiser_float_length': lambda: s.kaiser_window(5.0),
        'overlap_and_add_float_step': lambda: s.overlap_and_add(tf.constant(a['x3']), 2.0),
        'overlap_and_add_vector': lambda: s.overlap_and_add(tf.constant(a['x'][0]), 2),
        'dct_axis_0': lambda: s.dct(tf.constant(a['x']), axis=0),
        'dct_type_5': lambda: s.dct(tf.constant(a['x']), type=5),
        'dct1_ortho': lambda: s.dct(tf.constant(a['x']), type=1, norm='ortho'),
        'dct_n_0': lambda: s.dct(tf.constant(a['x']), n=0),
        'mdct_length_6': lambda: s.mdct(tf.constant(a['s']), 6),
        'mel_bins_0': lambda: s.linear_to_mel_weight_matrix(0),
        'mel_edges_reversed': lambda: s.linear_to_mel_weight_matrix(
            lower_edge_hertz=500.0, upper_edge_hertz=100.0),
        'mel_above_nyquist': lambda: s.linear_to_mel_weight_matrix(upper_edge_hertz=5000.0),
    }


def weights(shape):
    size = int(np.prod(shape))
    return np.linspace(0.5, 1.5, size).reshape(shape)


def run(tf, a, fn, keys):
    """The case's value and the gradients of sum(value * weights) w.r.t. each input (None where
    the framework has none)."""
    args = [tf.constant(a[k]) for k in keys]
    with tf.GradientTape() as tape:
        for t in args:
            tape.watch(t)
        y = fn(*args)
        total = tf.reduce_sum(y * weights(y.shape).astype(y.dtype.as_numpy_dtype))
    try:
        grads = [np.asarray(g) for g in tape.gradient(total, args)] if args else []
    except (LookupError, ValueError, tf.errors.InvalidArgumentError):
        grads = None   # TF registers no gradient for the 3-D real transforms, and its
        # real-transform gradients fail when the op crops its input
    return np.asarray(y), grads


def record():
    # The recording venv's TF, never defun's dependency: imported only when recording.
    import tensorflow as tf
    a = inputs()
    out = {f'in_{k}': v for k, v in a.items()}
    for name, (fn, keys) in cases(tf).items():
        value, grads = run(tf, a, fn, keys)
        out[f'val_{name}'] = value
        for k, g in zip(keys, grads or []):
            out[f'grad_{name}_{k}'] = g
    for name, call in errors(tf, a).items():
        try:
            call()
            out[f'err_{name}'] = np.array('none')
        except Exception as exc:  # noqa: BLE001 - the class is what is recorded
            out[f'err_{name}'] = np.array(type(exc).__name__)
    np.savez_compressed(DATA, **out)


if __name__ == '__main__':
    record()
