"""RaggedTensor's conversions to and from dense and sparse tensors and Python values: the bodies
of from_tensor, to_tensor, to_sparse, bounding_shape, to_list and numpy, working on the ragged
value (or class) they are given, below the type's module (ragged_tensor.py)."""
import numpy as np

from defun.core import dtypes
from defun.core.composite import CompositeTensor
from defun.core.tensor import convert_to_tensor
from defun.ops.array.boolean_mask import boolean_mask
from defun.ops.array.creation import range as range_
from defun.ops.array.gathering import gather
from defun.ops.array.joining import concat, stack
from defun.ops.framework.base_ops import cast, reshape, shape as shape_of
from defun.ops.math.clipping import sequence_mask
from defun.ops.math.exports import maximum, minimum, reduce_max, subtract
from defun.ops.ragged import row_ops
from defun.ops.sparse.sparse_tensor import SparseTensor

__all__ = ['from_tensor', 'to_tensor', 'to_sparse', 'bounding_shape', 'to_list', 'numpy', 'text']


def _ragged(value):
    return isinstance(value, CompositeTensor) and hasattr(value, 'nested_row_splits')


def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                row_splits_dtype=dtypes.int64):
    """The RaggedTensor of a dense tensor's rows, cut at `lengths` or before trailing
    `padding` (whole rows otherwise); `ragged_rank` dimensions become ragged."""
    if lengths is not None and padding is not None:
        raise ValueError('Specify argument `lengths` or `padding`, but not both.')
    tensor = convert_to_tensor(tensor)
    rank = tensor.shape.rank
    if not isinstance(ragged_rank, int) or ragged_rank <= 0:
        raise ValueError(f'ragged_rank must be greater than 0; got {ragged_rank}')
    if rank is not None and rank <= ragged_rank:
        raise ValueError(f'ragged_rank must be less than rank; got ragged_rank={ragged_rank}'
                         f', rank={rank}')
    splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if _nested(lengths):   # lengths of each ragged dimension, outermost first
        first, rest = lengths[0], tuple(lengths[1:])
        dims = shape_of(tensor, out_type=splits_dtype)
        first = _clipped(row_ops.as_splits(first, splits_dtype, 'lengths'), dims[1])
        kept = boolean_mask(tensor, sequence_mask(first, dims[1]))
        inner = from_tensor(cls, kept, lengths=rest if len(rest) > 1 else rest[0],
                            row_splits_dtype=splits_dtype) if rest else kept
        return cls.from_row_lengths(inner, first, validate=False)
    if ragged_rank > 1:
        if lengths is not None or padding is not None:
            raise NotImplementedError('from_tensor: `lengths` or `padding` with ragged_rank > 1'
                                      ' is not part of defun')
        dims = shape_of(tensor, out_type=splits_dtype)
        inner = cls.from_tensor(reshape(tensor, concat([[-1], dims[2:]], 0)),
                                ragged_rank=ragged_rank - 1, row_splits_dtype=splits_dtype)
        return cls.from_uniform_rows(inner, dims[0], dims[1])
    dims = shape_of(tensor, out_type=splits_dtype)
    nrows, width = dims[0], dims[1]
    if padding is not None:
        lengths = row_ops.lengths_before_padding(tensor, padding, width, splits_dtype)
    if lengths is None:
        return cls.from_uniform_rows(reshape(tensor, concat([[-1], dims[2:]], 0)), nrows,
                                     width)
    lengths = _clipped(row_ops.as_splits(lengths, splits_dtype, 'lengths'), width)
    mask = sequence_mask(lengths, width)
    return cls.from_row_lengths(boolean_mask(tensor, mask), lengths, validate=False)


def _nested(lengths):
    """True for a list or tuple of length vectors (not one vector of numbers)."""
    return isinstance(lengths, (list, tuple)) and len(lengths) > 0 and \
        not isinstance(lengths[0], (int, float, np.integer, np.floating))


def _clipped(lengths, width):
    """Lengths within [0, width] (TF treats negative lengths as zero)."""
    return minimum(maximum(lengths, 0), cast(width, lengths.dtype))


def bounding_shape(rt, axis=None, name=None, out_type=None):
    """The shape of the smallest dense tensor holding this one (longest rows)."""
    dtype = rt.row_splits_dtype if out_type is None else dtypes.as_dtype(out_type)
    parts, rt = [reshape(cast(rt.nrows(), dtype), [1])], rt
    while _ragged(rt):
        lengths = concat([rt.row_lengths(), convert_to_tensor([0], dtype=rt.row_splits_dtype)],
                         0)
        parts.append(reshape(cast(reduce_max(lengths), dtype), [1]))
        rt = rt.values
    parts.append(shape_of(rt, out_type=dtype)[1:])
    shape = concat(parts, 0)
    return shape if axis is None else shape[axis]


def to_tensor(rt, default_value=None, name=None, shape=None):
    """The padded dense tensor (`default_value`, zero by default, after each row)."""
    inner = to_tensor(rt.values, default_value) if _ragged(rt.values) \
        else rt.values
    default = None if default_value is None else convert_to_tensor(default_value,
                                                                  dtype=rt.dtype)
    dense = row_ops.scatter_padded(inner, rt.row_splits, default,
                                   shape_of(inner, out_type=rt.row_splits_dtype)[1:])
    if shape is not None:
        dense = row_ops.fit_shape(dense, shape, default)
    return dense


def to_sparse(rt, name=None):
    from_rows = row_ops.rowids_of(rt.row_splits)
    if _ragged(rt.values):
        raise NotImplementedError('to_sparse of a RaggedTensor with ragged_rank > 1 is not '
                                  'part of defun')
    starts = gather(rt.row_splits, from_rows)
    columns = subtract(range_(shape_of(rt.values, out_type=dtypes.int64)[0]),
                       cast(starts, dtypes.int64))
    indices = stack([cast(from_rows, dtypes.int64), columns], axis=1)
    return SparseTensor(indices, rt.values, rt.bounding_shape(out_type=dtypes.int64))


def to_list(rt):
    """The nested Python lists of this (eager) ragged tensor's values."""
    splits = np.asarray(rt.row_splits)
    inner = to_list(rt.values) if _ragged(rt.values) else \
        np.asarray(rt.values).tolist()
    return [inner[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]


def _element_text(x):
    if isinstance(x, np.ndarray):
        # array2string gives an empty array as `[]` whatever its shape; TF writes `[[], []]`.
        return np.array2string(x, separator=', ') if x.size else repr(x.tolist())
    return str(x)


def text(rt):
    """The text of an eager ragged tensor's values as TF prints it: numpy's layout of each
    row (a uniform tensor wraps like a numpy array), elements separated by commas."""
    with np.printoptions(formatter={'all': _element_text}):
        return _element_text(numpy(rt))


def numpy(rt):
    """A numpy object array of the rows (each a numpy array, or nested object arrays); as TF,
    a plain array when every row has one length."""
    splits = np.asarray(rt.row_splits)
    values = numpy(rt.values) if _ragged(rt.values) else \
        np.asarray(rt.values)
    lengths = np.diff(splits)
    if len(lengths) and (lengths == lengths[0]).all() and values.dtype != object:
        return values.reshape((len(lengths), int(lengths[0])) + values.shape[1:])
    rows = np.empty(len(splits) - 1, dtype=object)
    for i in range(len(splits) - 1):
        rows[i] = values[splits[i]:splits[i + 1]]
    return rows
