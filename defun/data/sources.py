"""Source datasets: from_tensor_slices, from_tensors, range, zip, from_generator.

Sources keep the tensors they read in `_tensors` (flat, in `nest.flatten` order of the element), so
a source built inside a graph from graph tensors is a template: graph_ops rebinds `_tensors` to the
arrays the graph computed when it runs. A generator is called afresh for every iteration and its
values are checked against the declared signature, as TF's from_generator does.
"""
import glob

import numpy as np

from defun.core import dtypes, nest
from defun.core.errors import InvalidArgumentError, NotFoundError
from defun.compiler.folding import build_time_value
from defun.core.shapes import TensorShape, TensorSpec
from defun.core.tensor import Tensor, convert_to_tensor

from defun.core.composite import CompositeTensor, TypeSpec, is_type_spec
from defun.data import structure
from defun.data.composite_rows import Segments, unbatch_segment
from defun.data.base import INFINITE, UNKNOWN, Dataset, opens_inputs, register
from defun.ops.io.records import compression_of, decompressed

__all__ = ['TextLineDataset', 'filenames_of', 'open_data_file', 'file_names_or_template',
           'files_of']


def _array(value):
    return value.array if isinstance(value, Tensor) else value


def _sliced_spec(leaf):
    """The spec of one row of `leaf` (a tensor or a composite; None stays None)."""
    if leaf is None:
        return structure.NoneTensorSpec()
    if isinstance(leaf, CompositeTensor):
        spec = leaf._type_spec
        if spec.shape.rank == 0:
            raise ValueError('Unbatching a tensor is only supported for rank >= 1')
        return spec._unbatch()
    if leaf.shape.rank == 0:
        raise ValueError('Unbatching a tensor is only supported for rank >= 1')
    return TensorSpec(leaf.shape.as_tuple()[1:], leaf.dtype)


@register('from_tensor_slices')
class _TensorSliceDataset(Dataset):
    def __init__(self, tensors):
        element = structure.normalize(tensors, 'from_tensor_slices')
        leaves = [leaf for leaf in nest.flatten(element) if leaf is not None]
        rows = None
        for leaf in leaves:
            if structure.is_dataset(leaf):
                raise TypeError('from_tensor_slices: datasets cannot be sliced')
            _sliced_spec(leaf)   # scalars cannot be sliced
            dim = leaf.shape.as_tuple()[0] if leaf.shape.rank else None
            if rows is not None and dim is not None and rows != dim:
                raise ValueError(f'Dimensions {rows} and {dim} are not compatible')
            rows = dim if rows is None else rows
        self._tensors = tuple(structure.flat_tensors(element))
        self.element_spec = nest.map_structure(_sliced_spec, element)
        self._segments = Segments(structure.spec_of(element))
        self._cardinality = rows if rows is not None else UNKNOWN

    def flat_iterator(self):
        arrays = [_array(t) for t in self._tensors]
        if self._segments.composite:
            yield from _composite_slices(self._segments, arrays)
            return
        n = len(arrays[0])
        if len(arrays) == 1:
            a = arrays[0]
            for i in range(n):
                yield (a[i, ...],)
            return
        for i in range(n):
            yield tuple([a[i, ...] for a in arrays])


def _composite_slices(segments, arrays):
    """The rows of an element with composite leaves (each split by its spec)."""
    columns = []
    for spec, start, stop in segments.items:
        if start == stop:   # a None (NoneTensorSpec) takes no room
            continue
        if is_type_spec(spec):
            columns.append(unbatch_segment(spec, arrays[start:stop]))
        else:
            columns.append([(row,) for row in arrays[start]])
    sizes = {len(c) for c in columns}
    if len(sizes) > 1:
        raise InvalidArgumentError(f'from_tensor_slices: the components have different numbers '
                                   f'of rows ({sorted(sizes)})')
    for parts in zip(*columns):
        yield sum(parts, ())


@register('from_tensors')
class _TensorDataset(Dataset):
    def __init__(self, tensors):
        element = structure.normalize(tensors, 'from_tensors')
        self._tensors = tuple(structure.flat_tensors(element))
        self.element_spec = structure.spec_of(element)
        self._cardinality = 1

    def flat_iterator(self):
        yield tuple(_array(t) for t in self._tensors)


def _range_bound(value):
    """A Python int, or a graph tensor (the dataset is then a template, see base.py)."""
    if isinstance(value, Tensor):
        if hasattr(value, 'op'):
            if not value.dtype.is_integer:
                raise TypeError(f'Dataset.range: bounds must be integers, got {value.dtype.name}')
            return value
        value = value.numpy()
    if isinstance(value, (float, np.floating)) and int(value) != value or \
            not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f'Cannot convert {value!r} to EagerTensor of dtype int64')
    return int(value)


@register('range')
class _RangeDataset(Dataset):
    def __init__(self, *args, output_type=None):
        dtype = dtypes.as_dtype(output_type) if output_type is not None else dtypes.int64
        if not 1 <= len(args) <= 3:
            raise ValueError(f'Invalid arguments to `range()`: {args}')
        bounds = [_range_bound(a) for a in args]
        if len(bounds) == 1:
            bounds = [0] + bounds
        self._tensors = tuple((bounds + [1])[:3])
        self._np_dtype = dtype.np_dtype
        self.element_spec = TensorSpec([], dtype)
        self.rebound()

    def rebound(self):
        bounds = [int(_array(b)) if not hasattr(b, 'op') else None for b in self._tensors]
        if bounds[2] == 0:
            raise InvalidArgumentError('step must be a non-zero integer. [Op:RangeDataset]')
        self._cardinality = UNKNOWN if None in bounds else len(range(*bounds))

    def flat_iterator(self):
        np_dtype = self._np_dtype
        for i in range(*[int(_array(b)) for b in self._tensors]):
            yield (np.array(i, np_dtype),)


def _zip_cardinality(values):
    if any(c == UNKNOWN for c in values):
        return UNKNOWN
    finite = [c for c in values if c != INFINITE]
    return min(finite) if finite else INFINITE


@register('zip')
class _ZipDataset(Dataset):
    def __init__(self, *datasets):
        if len(datasets) == 1:
            datasets = datasets[0]
        for d in nest.flatten(datasets):
            if not isinstance(d, Dataset):
                raise TypeError(f'Invalid input to `zip`. Inputs are expected to be (nested) '
                                f'structures of `tf.data.Dataset` objects but encountered object '
                                f'of type {type(d)}.')
        self._structure = datasets
        self._inputs = tuple(nest.flatten(datasets))
        self.element_spec = nest.map_structure(lambda d: d.element_spec, datasets)
        self._cardinality = _zip_cardinality([d._cardinality for d in self._inputs])

    @opens_inputs
    def flat_iterator(self, *iterators):
        for parts in zip(*iterators):
            yield sum(parts, ())


def _generator_signature(output_types, output_shapes, output_signature):
    if output_signature is not None:
        if output_types is not None or output_shapes is not None:
            raise TypeError('The `output_types` and `output_shapes` arguments cannot be used '
                            'together with the `output_signature` argument.')
        for spec in nest.flatten(output_signature):
            if not isinstance(spec, TypeSpec):
                raise TypeError(f'`output_signature` must contain objects that are subclass of '
                                f'`tf.TypeSpec` but found {type(spec)} which is not.')
        return output_signature
    if output_types is None:
        raise TypeError('To specify the output signature you need to provide either the '
                        '`output_signature` argument or the `output_types` argument.')
    types = nest.flatten(output_types)
    shapes = structure.flatten_up_to(output_types, output_shapes)
    return nest.pack_sequence_as(output_types, [
        TensorSpec(TensorShape(s) if s is not None else TensorShape(None), t)
        for t, s in zip(types, shapes)])


def _signature_text(spec):
    return repr(nest.map_structure(lambda s: s.dtype, spec)).replace("'", '')


@register('from_generator')
class _GeneratorDataset(Dataset):
    def __init__(self, generator, output_types, output_shapes, args, output_signature):
        if not callable(generator):
            raise TypeError('`generator` must be a Python callable.')
        self.element_spec = _generator_signature(output_types, output_shapes, output_signature)
        self._generator = generator
        # The arguments are tensors the source reads: built inside a graph (an interleave or
        # flat_map function), they are rebound to the values the graph computed.
        self._tensors = tuple(convert_to_tensor(a) for a in (args or ()))
        self._specs = nest.flatten(self.element_spec)
        self._cardinality = UNKNOWN

    def __repr__(self):
        return f'<_FlatMapDataset element_spec={self.element_spec!r}>'

    def flat_iterator(self):
        # The generator gets numpy values, as TF passes them (a 0-d array as a numpy scalar).
        values = [np.asarray(_array(a))[()] for a in self._tensors]
        for value in self._generator(*values):
            yield self._flat(value)

    def _flat(self, value):
        try:
            leaves = structure.flatten_up_to(self.element_spec, value)
        except ValueError:
            raise InvalidArgumentError(
                f'TypeError: `generator` yielded an element that did not match the expected '
                f'structure. The expected structure was {_signature_text(self.element_spec)}, '
                f'but the yielded element was {value}.') from None
        flat = []
        for leaf, spec in zip(leaves, self._specs):
            if is_type_spec(spec):
                flat.extend(_composite_components(leaf, spec))
                continue
            try:
                array = np.asarray(_array(leaf), dtype=spec.dtype.np_dtype)
            except (TypeError, ValueError):
                raise InvalidArgumentError(
                    f'TypeError: `generator` yielded an element that could not be converted to '
                    f'the expected type. The expected type was {spec.dtype.name}, but the '
                    f'yielded element was {leaf}.') from None
            if not spec.shape.is_compatible_with(array.shape):
                raise InvalidArgumentError(
                    f'TypeError: `generator` yielded an element of shape {array.shape} where an '
                    f'element of shape {spec.shape.as_tuple()} was expected.')
            flat.append(array)
        return tuple(flat)


def _composite_components(value, spec):
    """The component arrays of a composite a generator yielded for `spec`."""
    if not isinstance(value, CompositeTensor) or not spec.is_compatible_with(value._type_spec):
        got = value._type_spec if isinstance(value, CompositeTensor) else type(value).__name__
        raise InvalidArgumentError(
            f'TypeError: `generator` yielded an element of {got} where an element of {spec} was '
            f'expected.')
    return [t.array for t in nest.flatten(value, expand_composites=True)]


def filenames_of(filenames):
    """The file names a file dataset reads: a string, a list of them, or a string tensor."""
    if isinstance(filenames, Tensor):
        value = build_time_value(filenames)  # a constant inside a tf.function is known now
        if value is None:
            raise ValueError(f'A file dataset needs its file names when it is built; '
                             f'{filenames!r} is computed when the graph runs')
        filenames = value
    names = np.atleast_1d(np.asarray(filenames, dtype=object)).ravel()
    return [n.decode() if isinstance(n, bytes) else str(n) for n in names]


def file_names_or_template(filenames, what):
    """(names, tensors) of a file dataset: the names when they are known now; else none, and the
    graph tensor that holds them (the dataset is then a template, rebound when the graph runs,
    as a file dataset built inside a traced function from its argument)."""
    if isinstance(filenames, Tensor) and hasattr(filenames, 'op') and \
            build_time_value(filenames) is None:
        if filenames.dtype != dtypes.string or filenames.shape.rank not in (None, 0, 1):
            raise TypeError(f'{what}: `filenames` must be a tf.string scalar or vector, got '
                            f'{filenames!r}')
        return None, (filenames,)
    return filenames_of(filenames), ()


def files_of(files, tensors):
    """The file names a file dataset reads now: `files`, or those its (rebound) tensor holds."""
    if files is not None:
        return files
    return filenames_of(_array(tensors[0]))


@register('list_files')
def _list_files(file_pattern, shuffle, seed):
    """TF's list_files: the files matching each pattern (each pattern's matches sorted), as
    string elements, shuffled (seeded as TF's shuffle, reshuffled each iteration) unless
    shuffle=False."""
    patterns = filenames_of(file_pattern)
    matches = [m for pattern in patterns for m in sorted(glob.glob(pattern))]
    if not matches:
        raise InvalidArgumentError(
            f"Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
            f"b'No files matched pattern: {', '.join(patterns)}'")
    dataset = _TensorSliceDataset(convert_to_tensor(np.array(matches, dtype=object)))
    return dataset if shuffle is False else dataset.shuffle(len(matches), seed=seed)


def open_data_file(filename):
    """`filename` opened for reading bytes, or TF's NotFoundError naming it."""
    try:
        return open(filename, 'rb')
    except OSError as exc:
        raise NotFoundError(f'{filename}; {exc.strerror}') from None


class TextLineDataset(Dataset):
    """`tf.data.TextLineDataset`: the lines of text files (without their line endings), as
    tf.string scalars, file after file; files may be GZIP or ZLIB compressed."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        self._compression = compression_of(compression_type, 'TextLineDataset')
        self._files, self._tensors = file_names_or_template(filenames, 'TextLineDataset')
        self.element_spec = TensorSpec([], dtypes.string)
        self._cardinality = UNKNOWN

    def __repr__(self):
        return f'<TextLineDatasetV2 element_spec={self.element_spec!r}>'

    def flat_iterator(self):
        for filename in files_of(self._files, self._tensors):
            with open_data_file(filename) as handle:
                for line in decompressed(handle, self._compression):
                    yield (np.array(line.rstrip(b'\n').rstrip(b'\r'), dtype=object),)
