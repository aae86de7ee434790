"""The `tf.signal` namespace: re-exports of the signal tables (framing, Fourier and cosine
transforms, windows, short-time transforms, mel filters)."""
from defun.core import unsupported
from defun.ops.signal.framing import frame  # noqa: F401
from defun.ops.signal.fft_ops import fft, ifft, fft2d, ifft2d, fft3d, ifft3d  # noqa: F401
from defun.ops.signal.fft_ops import fftshift, ifftshift  # noqa: F401
from defun.ops.signal.real_transforms import *  # noqa: F401,F403
from defun.ops.signal.windows import *  # noqa: F401,F403
from defun.ops.signal.spectral import *  # noqa: F401,F403
from defun.ops.signal.cosine_transforms import *  # noqa: F401,F403
from defun.ops.signal.mel import *  # noqa: F401,F403

__getattr__ = unsupported.missing_names(__name__, 'tf.signal')
