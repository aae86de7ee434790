"""What a `tf.function(autograph=False)` body that uses a tensor as a Python `bool` (or iterates
over one) is told: TF repeats its generic advice to "decorate this function with @tf.function",
which cannot help a function that is decorated; defun says that AutoGraph is off, what to write
instead, and where in the user's code it happened (the same `in user code:` block AutoGraph errors
carry). The exception class stays TF's `OperatorNotAllowedInGraphError`."""
import functools
import linecache
import traceback

from defun.core import error_helpers
from defun.core.errors import OperatorNotAllowedInGraphError

__all__ = ['explain_python_control_flow']


def _user_frame(tb):
    frames = [f for f in traceback.extract_tb(tb) if error_helpers.is_user_file(f.filename)]
    return frames[-1] if frames else None


def _message(exc, fn_name):
    what = str(exc).split(' is not allowed', 1)[0]
    text = (f'{what} is not allowed: {fn_name} is traced with autograph=False, so its Python `if`, '
            f'`while` and `for` run once while tracing and cannot branch or loop on a tensor\'s '
            f'value. Remove autograph=False to have them converted, or write tf.cond / '
            f'tf.while_loop (or iterate over tf.range) yourself.')
    frame = _user_frame(exc.__traceback__)
    if frame is not None:
        line = (frame.line or linecache.getline(frame.filename, frame.lineno)).strip()
        text += (f'\n\nin user code:\n\n    File "{frame.filename}", line {frame.lineno}, in '
                 f'{frame.name}\n        {line}')
    return text


def explain_python_control_flow(fn, fn_name):
    """`fn` for tracing without AutoGraph: its OperatorNotAllowedInGraphError says why."""
    @functools.wraps(fn)
    def traced(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except OperatorNotAllowedInGraphError as exc:
            if 'decorate this function' not in str(exc):  # not TF's generic advice: keep it
                raise
            # The user's frames stay in the traceback (the message names the line as well).
            raise OperatorNotAllowedInGraphError(_message(exc, fn_name)).with_traceback(
                exc.__traceback__) from None
    return traced
