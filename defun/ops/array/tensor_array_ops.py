"""The ops behind TensorArray in a graph (defun/control_flow/tensor_array.py): each works on one
dense *buffer* tensor of shape [size] + element_shape, and returns a new buffer rather than changing
one, so a buffer can cross a cond or while_loop boundary and its gradient is an ordinary gradient of
a tensor.

A buffer whose element shape is not yet known holds zeros of shape [size] until the first write
fixes the element shape (its static shape has unknown rank until then). Writes past the end grow
the buffer when `dynamic_size`; the ops' second output (the length before the write) lets the
gradient give the buffer its former length without keeping the buffer itself.
"""
import numpy as np

from defun.core import dtypes
from defun.core.dispatch import apply_op
from defun.ops.framework import base_ops
from defun.ops.support.helpers import dims
from defun.core.registry import define_op
from defun.core.shapes import TensorShape
from defun.core.tensor import Tensor, convert_to_tensor
from defun.ops.support import validation

__all__ = ['write_in_place']


def _fully_known(shape):
    return shape is not None and None not in shape


def _element(buf, element_shape):
    """The element shape a buffer holds (its virgin [size] form stands for unknown elements)."""
    if buf.ndim == 1 and _fully_known(element_shape) and len(element_shape) > 0:
        return tuple(element_shape)
    return buf.shape[1:]


def _dense(buf, element_shape):
    """The buffer with its virgin [size] form expanded to [size] + element_shape when known."""
    elem = _element(buf, element_shape)
    if buf.shape[1:] != elem:
        return np.zeros((len(buf),) + elem, dtype=buf.dtype)
    return buf


def _index(index, length, what):
    i = int(index)
    if i < 0 or i >= length:
        raise validation.invalid_argument(
            f'TensorArray: tried to {what} index {i} but array size is: {length}')
    return i


def _buffer_spec(dtype, length, element_shape):
    return dtype, ((length,) + tuple(element_shape) if _fully_known(element_shape) else None)


def _merge_element(a, b):
    """Element shapes as tuples (None: unknown rank), merged."""
    return TensorShape(a).merge_with(TensorShape(b)).as_tuple()


def _element_of(buf_tensor, element_shape):
    d = dims(buf_tensor)
    return _merge_element(element_shape, d[1:] if d is not None else None)


# ---------------------------------------------------------------- ops on the dense buffer

def _new_kernel(size, dtype, element_shape):
    elem = tuple(element_shape) if _fully_known(element_shape) else ()
    return np.zeros((int(size),) + elem, dtype=dtype.np_dtype)


def _new_infer(size, dtype, element_shape):
    value = size.static_value() if hasattr(size, 'static_value') else getattr(size, 'array', None)
    return _buffer_spec(dtype, None if value is None else int(value), element_shape)


NEW = define_op('TensorArrayV3', _new_kernel, _new_infer, None,
                doc='A zero buffer of [size] + element_shape ([size] while elements are unknown).')


def _checked_write(buf, indices, value, dynamic_size):
    """(rows the buffer needs, element shape written), after TF's checks of a write."""
    top = int(indices.max()) + 1 if indices.size else 0
    if indices.size and int(indices.min()) < 0:
        raise validation.invalid_argument(f'TensorArray: cannot write to negative index '
                                          f'{int(indices.min())}')
    n = len(buf)
    if top > n and not dynamic_size:
        raise validation.invalid_argument(
            f'TensorArray: tried to write to index {top - 1} but array is not resizeable and size '
            f'is: {n}')
    return top, (value.shape if indices.ndim == 0 else value.shape[1:])


def _write_kernel(buf, index, value, dynamic_size, element_shape):
    value = np.asarray(value)
    indices = np.asarray(index)
    top, elem = _checked_write(buf, indices, value, dynamic_size)
    n = len(buf)
    if buf.shape[1:] == elem:
        new = np.zeros((max(n, top),) + elem, dtype=buf.dtype)
        new[:n] = buf
    elif buf.ndim == 1 and not buf.any():
        new = np.zeros((max(n, top),) + elem, dtype=buf.dtype)  # first write fixes the shape
    else:
        raise validation.invalid_argument(
            f'TensorArray: could not write a value of shape {list(elem)} to an array whose '
            f'elements have shape {list(buf.shape[1:])}')
    new[indices] = value
    return new, np.int32(n)


def write_in_place(buf, index, value, dynamic_size, element_shape):
    """TensorArrayWriteV3's kernel for a buffer nothing else holds (a loop variable its loop
    rebinds to the write's result, see control_flow/loop_buffers.py): the rows are written into
    `buf` itself, and a dynamic buffer grows by doubling a larger array it is a prefix view of,
    so n writes cost O(n) elements rather than a copy of the buffer each. Same checks and errors
    as the copying kernel, all made before anything is written."""
    value = np.asarray(value)
    indices = np.asarray(index)
    top, elem = _checked_write(buf, indices, value, dynamic_size)
    if buf.shape[1:] != elem:
        return _write_kernel(buf, index, value, dynamic_size, element_shape)
    n = len(buf)
    if top > n:
        base = buf.base
        if not (isinstance(base, np.ndarray) and base.shape[1:] == elem and len(base) >= top
                and base.dtype == buf.dtype and base.ctypes.data == buf.ctypes.data):
            base = np.zeros((max(top, 2 * n),) + elem, dtype=buf.dtype)
            base[:n] = buf
        buf = base[:top]
    buf[indices] = value
    return buf, np.int32(n)


def _write_infer(buf, index, value, dynamic_size, element_shape):
    vd = dims(value)
    elem = vd if index.shape.rank == 0 else (None if vd is None else vd[1:])
    elem = _merge_element(element_shape, elem)
    bd = dims(buf)
    length = None if dynamic_size or bd is None else bd[0]
    return [_buffer_spec(buf.dtype, length, elem), (dtypes.int32, ())]


def _write_grad(op, g, unused_length_grad):
    index = op.inputs[1]
    buf_grad = apply_op(WRITE_GRAD, (g, index, op.outputs[1]))
    value_grad = apply_op(GATHER, (g, index), {'element_shape': None}) \
        if index.shape.rank != 0 else read_element(g, index)
    return buf_grad, None, value_grad


# TF's TensorArray ops take a resource handle and a flow; defun's take the buffer itself (a
# tensor of the elements), so only TF's attributes of them are checked, not their inputs.
WRITE = define_op('TensorArrayWriteV3', _write_kernel, _write_infer, _write_grad, num_outputs=2,
                  index_inputs=lambda op: (1,), inputs=(),
                  doc='Writes rows `index` (a scalar or a vector: scatter) of a copy of the '
                      'buffer; also returns the former length.')


def _write_grad_kernel(g, index, length):
    out = np.array(g[:int(length)], copy=True)
    indices = np.asarray(index)
    out[indices[indices < len(out)]] = 0
    return out


def _write_grad_grad(op, dd):
    return apply_op(WRITE_GRAD_GRAD, (dd, op.inputs[1], op.inputs[0])), None, None


WRITE_GRAD = define_op(
    'TensorArrayWriteGrad', _write_grad_kernel,
    lambda g, index, length: (g.dtype, None if dims(g) is None else (None,) + dims(g)[1:]),
    _write_grad_grad, doc='Gradient of a write for the buffer: rows written zeroed, former length.')


def _write_grad_grad_kernel(dd, index, g):
    out = np.zeros_like(g)
    out[:len(dd)] = dd
    indices = np.asarray(index)
    out[indices[indices < len(dd)]] = 0
    return out


WRITE_GRAD_GRAD = define_op(
    'TensorArrayWriteGradGrad', _write_grad_grad_kernel,
    lambda dd, index, g: (g.dtype, dims(g)),
    lambda op, d: (apply_op(WRITE_GRAD, (d, op.inputs[1], size_of(op.inputs[0]))), None, None),
    doc='Gradient of TensorArrayWriteGrad: pads back to the written length.')


def _read_kernel(buf, index, element_shape):
    i = _index(index, len(buf), 'read from')
    return _dense(buf, element_shape)[i]


def _read_infer(buf, index, element_shape):
    return buf.dtype, _element_of(buf, element_shape)


def _read_expression(op, names):
    """`buf[i]` for a buffer of static rank >= 2 (so never the virgin [size] form), where
    i >= 0; a negative index runs the kernel (its error), one past the end fails in numpy and the
    executor reruns the kernel for TF's error."""
    d = dims(op.inputs[0])
    if d is None or len(d) < 2 or op.inputs[1].shape.rank != 0:
        return None
    return f'{names[0]}[{names[1]}]', (1,)


def _read_lowering(op, ins, ctx):
    """`buf[i]` in native code, as _read_expression, with the bounds checked (numba does not)."""
    d = dims(op.inputs[0])
    if d is None or len(d) < 2 or op.inputs[1].shape.rank != 0:
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: a buffer of unknown or rank-1 shape')
    buf, i = ins
    if not isinstance(i, str):
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: an index the native code does not keep')
    out = ctx.fresh(op.name)
    if isinstance(buf, ctx.Repeated) and not buf.shapes:   # one value in every row: no stack
        return [f'if {i} < 0 or {i} >= {buf.count}:',
                "    raise IndexError('TensorArray read: index out of range')"], [buf.value]
    if not isinstance(buf, str):
        raise ctx.NotLowerable(f'{op.type} {op.name!r}: a buffer the native code does not keep')
    return [f'if {i} < 0 or {i} >= {buf}.shape[0]:',
            "    raise IndexError('TensorArray read: index out of range')",
            f'{out} = {buf}[{i}]'], [out]


_read_lowering.takes_repeated = True   # a loop-invariant stack (lowerer.Repeated)

READ = define_op('TensorArrayReadV3', _read_kernel, _read_infer,
                 lambda op, g: (apply_op(READ_GRAD, (op.inputs[0], op.inputs[1], g)), None),
                 expression=_read_expression, index_inputs=lambda op: (1,),
                 lowering=_read_lowering, inputs=(),
                 doc='Row `index` of the buffer.')


def _read_grad_kernel(buf, index, g):
    out = np.zeros((len(buf),) + np.shape(g), dtype=np.asarray(g).dtype)
    out[int(index)] = g
    return out


READ_GRAD = define_op(
    'TensorArrayReadGrad', _read_grad_kernel,
    lambda buf, index, g: (g.dtype, None if dims(g) is None else (None,) + dims(g)),
    lambda op, d: (None, None, read_element(d, op.inputs[1])),
    doc='Gradient of a read: zeros of the buffer length with `g` at row `index`.')


def _row_slice(shapes, i):
    return (i,) + tuple(slice(0, int(d)) for d in shapes[i])


def _read_padded_kernel(buf, shapes, index):
    i = _index(index, len(buf), 'read from')
    return buf[_row_slice(shapes, i)]


def _read_padded_infer(buf, shapes, index):
    d = dims(buf)
    return buf.dtype, None if d is None else d[1:]


READ_PADDED = define_op(
    'TensorArrayReadPadded', _read_padded_kernel, _read_padded_infer,
    lambda op, g: (apply_op(READ_PADDED_GRAD, (op.inputs[0], op.inputs[1], op.inputs[2], g)),
                   None, None),
    doc="Row `index` of a zero-padded stack, cut to that row's own shape (while_loop's stacks "
        "of values whose shape varies across iterations).")


def _read_padded_grad_kernel(buf, shapes, index, g):
    out = np.zeros(np.shape(buf), dtype=np.asarray(g).dtype)
    out[_row_slice(shapes, int(index))] = g
    return out


READ_PADDED_GRAD = define_op(
    'TensorArrayReadPaddedGrad', _read_padded_grad_kernel,
    lambda buf, shapes, index, g: (g.dtype, dims(buf)),
    lambda op, d: (None, None, None, read_padded(d, op.inputs[1], op.inputs[2])),
    doc='Gradient of TensorArrayReadPadded: zeros of the stack with `g` in its row.')


def read_padded(buffer, shapes, index):
    return apply_op(READ_PADDED, (buffer, shapes, int_tensor(index)))


def _gather_kernel(buf, indices, element_shape):
    indices = np.asarray(indices)
    for i in indices.reshape(-1):
        _index(i, len(buf), 'gather from')
    return _dense(buf, element_shape)[indices]


def _gather_infer(buf, indices, element_shape):
    elem = _element_of(buf, element_shape)
    idx = dims(indices)
    return buf.dtype, (None if elem is None or idx is None else tuple(idx) + tuple(elem))


GATHER = define_op('TensorArrayGatherV3', _gather_kernel, _gather_infer,
                   lambda op, g: (apply_op(GATHER_GRAD, (op.inputs[0], op.inputs[1], g)), None),
                   inputs=(), doc='Rows `indices` of the buffer.')


def _gather_grad_kernel(buf, indices, g):
    out = np.zeros((len(buf),) + np.shape(g)[1:], dtype=g.dtype)
    np.add.at(out, np.asarray(indices), g)
    return out


GATHER_GRAD = define_op(
    'TensorArrayGatherGrad', _gather_grad_kernel,
    lambda buf, indices, g: (g.dtype, None if dims(g) is None else (None,) + dims(g)[1:]),
    lambda op, d: (None, None, apply_op(GATHER, (d, op.inputs[1]), {'element_shape': None})),
    doc='Gradient of a gather: the rows summed back into zeros of the buffer length.')


def _stack_kernel(buf, element_shape, num_elements=-1):
    return _dense(buf, element_shape)


def _stack_infer(buf, element_shape, num_elements=-1):
    # num_elements: the size a fixed-size TensorArray was made with (TF's TensorListStack attr),
    # known even where the buffer crossing a loop has lost its length.
    d = dims(buf)
    elem = _element_of(buf, element_shape)
    rows = d[0] if d is not None and d[0] is not None else None
    rows = num_elements if rows is None and num_elements >= 0 else rows
    return buf.dtype, (None if elem is None else (rows,) + tuple(elem))


STACK = define_op('TensorArrayStack', _stack_kernel, _stack_infer, lambda op, g: g,
                  doc='The buffer as a tensor of [size] + element shape.')


def _concat_kernel(buf, element_shape):
    buf = _dense(buf, element_shape)
    return buf.reshape((-1,) + buf.shape[2:])


def _concat_infer(buf, element_shape):
    d = dims(buf)
    if d is None or len(d) < 2:
        return buf.dtype, None
    n = None if d[0] is None or d[1] is None else d[0] * d[1]
    return buf.dtype, (n,) + tuple(d[2:])


CONCAT = define_op('TensorArrayConcatV3', _concat_kernel, _concat_infer,
                   lambda op, g: base_ops.reshape(g, base_ops.shape(op.inputs[0])),
                   inputs=(), doc='The elements concatenated along their first axis.')

SIZE = define_op('TensorArraySizeV3', lambda buf: np.int32(len(buf)),
                 lambda buf: (dtypes.int32, ()), None, inputs=(), doc='The number of elements.')


def read_element(buffer, index):
    """Row `index` of a buffer tensor."""
    return apply_op(READ, (buffer, int_tensor(index)), {'element_shape': None})


def size_of(buffer):
    return apply_op(SIZE, (buffer,))


def int_tensor(value):
    if isinstance(value, Tensor):
        if not value.dtype.is_integer:
            raise TypeError(f'TensorArray: an index must be an integer tensor, got '
                            f'{value.dtype.name}')
        return value
    return convert_to_tensor(value, dtype=dtypes.int32)
