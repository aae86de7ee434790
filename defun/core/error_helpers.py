"""defun's own error helpers (not TF names, so not in `tf.errors`): the graph-only error
classes TF raises from its internals, the wording of kernel and eager failures, and traceback
filtering."""
import os
import traceback
import types

from defun.core import context
from defun.core.errors import (OpError, NotFoundError, InvalidArgumentError,
                          ResourceExhaustedError, UnimplementedError)


class InaccessibleTensorError(ValueError):
    """A tensor of one graph was used in another graph that cannot capture it."""


class StagingError(Exception):
    """Tracing a function failed in a way TF reports as a staging failure: runaway recursion
    (a traced function calling itself without end)."""


_PACKAGE_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir)) + os.sep
_INTERNAL_DIRS = (_PACKAGE_ROOT + 'defun' + os.sep, _PACKAGE_ROOT + 'autograph' + os.sep,
                  os.path.dirname(os.__file__) + os.sep)  # defun's and Python's own files
_SHOWN_FRAMES = 10


def staging_error(exc):
    """TF's StagingError for a RecursionError while tracing: 'in user code:' and the user's
    frames of the runaway recursion (the innermost few), then the RecursionError itself."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if is_user_file(f.filename)]
    lines = [f'    File "{f.filename}", line {f.lineno}, in {f.name}  *\n        {f.line or ""}'
             for f in frames[-_SHOWN_FRAMES:]]
    if len(frames) > _SHOWN_FRAMES:
        lines.insert(0, f'    ... ({len(frames) - _SHOWN_FRAMES} more frames of the recursion)')
    message = str(exc).split('\n', 1)[0]  # without notes added on the way up
    return StagingError('in user code:\n\n' + '\n'.join(lines) +
                        f'\n\n    RecursionError: {message}')


def filtered(exc):
    """`exc` with defun's own frames (and its generated code's) dropped from its traceback, as
    TF filters its own; unless tf.debugging.disable_traceback_filtering() turned that off."""
    if not context.traceback_filtering_enabled():
        return exc
    kept = []
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if not (os.path.abspath(filename).startswith(_INTERNAL_DIRS[:2])
                or filename.startswith('<defun generated')):
            kept.append(tb)
        tb = tb.tb_next
    rebuilt = None
    for entry in reversed(kept):
        rebuilt = types.TracebackType(rebuilt, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return exc.with_traceback(rebuilt)


def is_user_file(filename):
    """Whether `filename` is the user's (not defun's, AutoGraph's, Python's or generated)."""
    path = os.path.abspath(filename)
    return not (path.startswith(_INTERNAL_DIRS) or filename.startswith('<'))


def kernel_failure(exc, message, op=None):
    """The OpError a failure inside a kernel becomes (TF's kernels report every failure as a
    status): out of memory is ResourceExhaustedError, a missing feature UnimplementedError, and
    everything else (numpy's ValueError, IndexError, TypeError, ZeroDivisionError...) an
    InvalidArgumentError. `message` should name the op, its inputs' shapes and dtypes."""
    if isinstance(exc, OpError):
        return exc
    if isinstance(exc, MemoryError):
        return ResourceExhaustedError(None, op, f'OOM: {message}')
    if isinstance(exc, NotImplementedError):
        return UnimplementedError(None, op, message)
    return InvalidArgumentError(None, op, message)


_EAGER_PREFIX = '{{function_node __wrapped__'


def without_op_prefix(message, op_type):
    """A kernel's message without a leading '<op_type>: ': the eager and graph wrappers name the
    op themselves ('[Op:GatherV2]', '{{node GatherV2}}'), and TF's kernel text never repeats it."""
    prefix = f'{op_type}: '
    return message[len(prefix):] if message.startswith(prefix) else message


def eager_op_error(exc, op_type):
    """An OpError from a kernel run eagerly, worded as TF's eager runtime words it: the wrapped
    function of the op on the CPU device, the kernel's message, and `[Op:<type>]` (a missing
    kernel, NotFoundError, is found before any function runs, and is not wrapped)."""
    if isinstance(exc, NotFoundError) or exc.op is not None or \
            exc.message.startswith(('{{function_node', 'Graph execution')):
        return exc
    return type(exc)(None, None, f'{_EAGER_PREFIX}{op_type}_device_/job:localhost/replica:0/'
                                 f'task:0/device:CPU:0}}}} {without_op_prefix(exc.message, op_type)} '
                                 f'[Op:{op_type}]')


_KERNEL_TYPE_NAMES = {'float32': 'float', 'float64': 'double', 'float16': 'half'}


def kernel_type_name(dtype):
    """A dtype as TF's kernels name it in messages ('float', 'double', 'int32', 'string')."""
    name = getattr(dtype, 'name', dtype)
    return _KERNEL_TYPE_NAMES.get(name, name)


def describe(value):
    """'float32[2,3]'-style text for a tensor, or repr for anything else: for error messages."""
    dtype = getattr(value, 'dtype', None)
    shape = getattr(value, 'shape', None)
    if dtype is None or shape is None:
        text = repr(value)
        return text if len(text) <= 60 else text[:57] + '...'
    dims = getattr(shape, 'as_tuple', lambda: tuple(shape))()
    if dims is None:
        return f'{getattr(dtype, "name", dtype)}[<unknown rank>]'
    return f'{getattr(dtype, "name", dtype)}[{",".join("?" if d is None else str(d) for d in dims)}]'
