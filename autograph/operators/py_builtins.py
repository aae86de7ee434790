"""Builtins that AutoGraph overloads for tensors: range, len, enumerate, zip, print, int, float, ...

`converted_call` routes calls of these builtins here. Each behaves exactly like the builtin unless a
graph tensor is involved; then `range(n)` becomes `defun.range(n)`, `len(t)` the size of the first
dimension, `print` a py_function printing numpy values. `enumerate`/`zip` over a graph tensor
raise, as in TF (Python's builtins iterate the tensor).
"""
import builtins
import sys

from defun.core import dtypes
from defun.core.composite import CompositeTensor
from defun.core import errors as defun_errors
from defun.graphs import scopes
from defun.ops.framework import base_ops
from defun.ops.array import creation
from defun.ops.debugging import debug
from defun.ops.framework import python_ops
from defun.ops.array import gathering
from defun.ops.math import exports as math_ops

from autograph.operators import tensors

__all__ = ['IndexedIterable', 'OVERLOADS', 'print_', 'range_']  # the `ag__` names (see __init__.py)


class IndexedIterable:
    """Something a tensor loop can iterate: a scalar length and an item-by-index function."""

    def __init__(self, length, item):
        self.length = length
        self.item = item


def indexed_iterable(value):
    """An IndexedIterable for a graph tensor, TensorArray, RaggedTensor (its rows) or
    IndexedIterable; None otherwise."""
    if isinstance(value, IndexedIterable):
        return value
    if not tensors.building_graph():
        return None
    if tensors.is_tensor_array(value):
        return IndexedIterable(value.size(), value.read)
    if tensors.is_tensor(value):
        return IndexedIterable(base_ops.shape(value)[0], lambda i: gathering.gather(value, i))
    if isinstance(value, CompositeTensor) and hasattr(value, 'nrows'):   # a RaggedTensor's rows
        return IndexedIterable(base_ops.cast(value.nrows(), dtypes.int32), value.__getitem__)
    return None


def _any_graph_tensor(values):
    return any(tensors.is_graph_tensor(v) or isinstance(v, IndexedIterable) for v in values)


def range_(*args):
    if _any_graph_tensor(args):
        return creation.range(*args)
    return builtins.range(*args)


def len_(value):
    if tensors.building_graph() and _is_dataset(value):
        return _dataset_len(value)
    if tensors.is_tensor_array(value):
        return value.size()
    if tensors.is_graph_tensor(value):
        dims = tensors.shape_dims(value.shape)
        if dims is None or not dims:
            raise ValueError('len() of a tensor needs at least one dimension; got shape %s'
                             % (value.shape,))
        return dims[0] if dims[0] is not None else base_ops.shape(value)[0]
    return builtins.len(value)


def _refuse_tensor_iteration(name, iterables):
    """TF's enumerate/zip are Python's: iterating a graph tensor in them raises, as it does in TF."""
    if any(tensors.is_graph_tensor(it) for it in iterables):
        raise defun_errors.OperatorNotAllowedInGraphError(
            f'Iterating over a symbolic `tf.Tensor` in {name}() is not allowed (TensorFlow refuses it '
            f'too): loop over the tensor itself (`for v in x`) or over `tf.range(tf.shape(x)[0])` '
            f'and index.')


def _is_dataset(value):
    # tf.data datasets (defun/data): iterated by the graph, so enumerate/zip stay datasets (TF's).
    return hasattr(value, 'graph_iterator') and hasattr(value, 'enumerate')


def _dataset_len(dataset):
    """TF's len of a dataset in a graph: its cardinality, asserted definite when the graph runs."""
    cardinality = dataset.cardinality()
    check = debug.Assert(cardinality >= 0, ['len requires dataset with definitive cardinality, '
                                            'got ', cardinality])
    with scopes.control_dependencies([check]):
        return base_ops.identity(cardinality)


def enumerate_(iterable, start=0):
    if tensors.building_graph() and _is_dataset(iterable):
        return iterable.enumerate(start)
    _refuse_tensor_iteration('enumerate', [iterable])
    return builtins.enumerate(iterable, start)


def zip_(*iterables):
    if tensors.building_graph() and iterables and all(_is_dataset(it) for it in iterables):
        return type(iterables[0]).zip(iterables)
    _refuse_tensor_iteration('zip', iterables)
    return builtins.zip(*iterables)


def print_(*objects, sep=' ', end='\n', file=None, flush=False):
    """Python's print; with a graph tensor among the objects, Python's print at run time.

    As in TF (autograph_ops._tf_py_func_print), a stateful py_function prints the objects with the
    tensors replaced by their numpy values: numpy's formatting, not tf.print's.
    """
    if not _any_graph_tensor(objects):
        return builtins.print(*objects, sep=sep, end=end, file=file, flush=flush)
    positions = [i for i, o in enumerate(objects) if tensors.is_tensor(o)]

    def print_wrapper(*values):
        vals = list(objects)
        for i, value in zip(positions, values):
            value = value.numpy()
            vals[i] = value.decode('utf-8') if isinstance(value, bytes) else value
        builtins.print(*vals, sep=sep, end=end, file=file if file is not None else sys.stdout,
                       flush=True)
        return 1

    return python_ops.py_function(print_wrapper, [objects[i] for i in positions], dtypes.int32)


def int_(value=0, *args):
    if not args and tensors.is_graph_tensor(value):
        return base_ops.cast(value, dtypes.int32)
    return builtins.int(value, *args)


def float_(value=0.0):
    if tensors.is_graph_tensor(value):
        return base_ops.cast(value, dtypes.float32)
    return builtins.float(value)


def _reduce_pair(name, op):
    python_fn = getattr(builtins, name)

    def overload(*args, **kwargs):
        if len(args) > 1 and not kwargs and _any_graph_tensor(args):
            result = args[0]
            for arg in args[1:]:
                result = op()(result, arg)
            return result
        return python_fn(*args, **kwargs)
    overload.__name__ = name + '_'
    return overload


max_ = _reduce_pair('max', lambda: math_ops.maximum)
min_ = _reduce_pair('min', lambda: math_ops.minimum)

OVERLOADS = {
    builtins.range: range_, builtins.len: len_, builtins.enumerate: enumerate_,
    builtins.zip: zip_, builtins.print: print_, builtins.int: int_, builtins.float: float_,
    builtins.max: max_, builtins.min: min_,
}
