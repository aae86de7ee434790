"""More of TF's Dataset surface: shard, scan, unique, counter, get_single_element,
choose_from_datasets, sample_from_datasets.

scan traces its function once, like reduce (relaxing state shapes that change), and streams;
unique keeps the set of values seen (the one extra thing it holds); sample_from_datasets draws
its choices from a generator seeded like shuffle's, so seeded runs repeat.
"""
import numpy as np

from defun.core import dtypes
from defun.core.errors import InvalidArgumentError
from defun.core.tensor import convert_to_tensor

from defun.data import structure
from defun.data.base import INFINITE, UNKNOWN, Dataset, check_count, register
from defun.data.mapping import reduce_function
from defun.data.ordering import base_seed
from defun.data.shuffle_stream import ShuffleSeeds, Words

__all__ = []


@register('shard')
class _ShardDataset(Dataset):
    def __init__(self, input_dataset, num_shards, index):
        self._shards = check_count(num_shards, 'num_shards', 1,
                                   'Number of shards must be greater than zero.')
        self._index = check_count(index, 'index')
        if not 0 <= self._index < self._shards:
            raise InvalidArgumentError(f'Index must be between 0 and {self._shards - 1} '
                                       f'(currently index = {self._index}). [Op:ShardDataset]')
        self._inputs = (input_dataset,)
        self.element_spec = input_dataset.element_spec
        n = input_dataset._cardinality
        self._cardinality = n if n < 0 else max(0, -(-(n - self._index) // self._shards))

    def flat_iterator(self):
        for i, element in enumerate(self._inputs[0].flat_iterator()):
            if i % self._shards == self._index:
                yield element


@register('scan')
class _ScanDataset(Dataset):
    def __init__(self, input_dataset, initial_state, scan_func):
        state = structure.normalize(initial_state, 'scan')
        self._initial = structure.flat_arrays(state)
        function = reduce_function(scan_func, structure.spec_of(state),
                                   input_dataset.element_spec, 'scan', outputs=True)
        self._n_state = len(self._initial)
        self._inputs = (input_dataset,)
        self._functions = (function,)
        self.element_spec = function.output_spec[1]
        self._cardinality = input_dataset._cardinality

    def flat_iterator(self):
        run, n = self._functions[0].flat, self._n_state
        state = tuple(self._initial)
        for element in self._inputs[0].flat_iterator():
            out = run(state + tuple(element))
            state = tuple(out[:n])
            yield tuple(out[n:])


@register('unique')
class _UniqueDataset(Dataset):
    def __init__(self, input_dataset):
        spec = input_dataset.element_spec
        if not isinstance(spec, structure.TensorSpec) or spec.dtype not in (
                dtypes.int32, dtypes.int64, dtypes.string):
            dtype = getattr(spec, 'dtype', spec)
            raise TypeError(f'`tf.data.Dataset.unique` does not support type {dtype!r} -- only '
                            f'`tf.int32`, `tf.int64`, and `tf.string` are supported.')
        self._inputs = (input_dataset,)
        self.element_spec = spec
        self._cardinality = INFINITE if input_dataset._cardinality == INFINITE else UNKNOWN

    def flat_iterator(self):
        seen = set()
        for element in self._inputs[0].flat_iterator():
            key = element[0].item() if element[0].ndim == 0 else element[0].tobytes()
            if key not in seen:
                seen.add(key)
                yield element


@register('random')
class _RandomDataset(Dataset):
    """TF's RandomDataset: int64 scalars, each a uint32 word of PhiloxRandom(seed, seed2); the
    same words every iteration, or with rerandomize_each_iteration each iteration's own seeds
    (drawn as shuffle draws them)."""

    def __init__(self, seed, rerandomize_each_iteration):
        self._seeds = ShuffleSeeds(seed, bool(rerandomize_each_iteration))
        self.element_spec = structure.TensorSpec([], dtypes.int64)
        self._cardinality = INFINITE

    def flat_iterator(self):
        word = Words(*self._seeds.next_iteration())
        while True:
            yield (np.array(word(), np.int64),)


class _CounterDataset(Dataset):
    def __init__(self, start, step, dtype):
        self._start, self._step = check_count(start, 'start'), check_count(step, 'step')
        self._np_dtype = dtypes.as_dtype(dtype).np_dtype
        self.element_spec = structure.TensorSpec([], dtype)
        self._cardinality = INFINITE

    def __repr__(self):
        return f'<_ScanDataset element_spec={self.element_spec!r}>'

    def flat_iterator(self):
        value = self._start
        while True:
            yield (np.array(value, self._np_dtype),)
            value += self._step


@register('counter')
def _counter(start, step, dtype):
    return _CounterDataset(start, step, dtype)


@register('get_single_element')
def _get_single_element(dataset):
    iterator = dataset.flat_iterator()
    first = next(iterator, None)
    if first is None:
        raise InvalidArgumentError('Dataset was empty. [Op:DatasetToSingleElement]')
    if next(iterator, None) is not None:
        raise InvalidArgumentError('Dataset had more than one element. '
                                   '[Op:DatasetToSingleElement]')
    return structure.Packer(dataset.element_spec)(first)


class _DirectedInterleaveDataset(Dataset):
    """Elements of `datasets` in the order an index stream chooses them."""

    def __init__(self, datasets, choose, stop_on_empty):
        datasets = list(datasets)
        if not datasets or not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError('Expected a non-empty list of `tf.data.Dataset` objects')
        spec = datasets[0].element_spec
        for d in datasets[1:]:
            structure.check_compatible(spec, d.element_spec, 'choose_from_datasets')
            spec = structure.most_specific(spec, d.element_spec)
        self._inputs = tuple(datasets)
        self._choose = choose
        self._stop = stop_on_empty
        self.element_spec = spec
        self._cardinality = UNKNOWN

    def flat_iterator(self):
        iterators = [d.flat_iterator() for d in self._inputs]
        live = [True] * len(iterators)
        for index in self._choose(live):
            if not 0 <= index < len(iterators):
                raise InvalidArgumentError(f'choose_from_datasets: index {index} is out of range '
                                           f'for {len(iterators)} datasets')
            if not live[index]:
                continue
            element = next(iterators[index], None)
            if element is None:
                live[index] = False
                if self._stop or not any(live):
                    return
                continue
            yield element


@register('choose_from_datasets')
def _choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset):
    if not isinstance(choice_dataset, Dataset) or choice_dataset.element_spec != \
            structure.TensorSpec([], dtypes.int64):
        raise TypeError('`choice_dataset` must be a dataset of scalar `tf.int64` tensors.')

    def choose(live):
        for (index,) in choice_dataset.flat_iterator():
            yield int(index)
    return _DirectedInterleaveDataset(datasets, choose, stop_on_empty_dataset)


@register('sample_from_datasets')
def _sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset):
    datasets = list(datasets)
    n = len(datasets)
    w = np.full(n, 1.0 / max(n, 1)) if weights is None else np.asarray(
        convert_to_tensor(weights).numpy(), np.float64)
    if w.shape != (n,) or (w < 0).any() or w.sum() <= 0:
        raise ValueError(f'sample_from_datasets: `weights` must be {n} non-negative numbers '
                         f'with a positive sum, got {weights!r}')
    seed = base_seed(seed)
    probabilities = w / w.sum()

    def choose(live):
        # exhausted datasets drop out and the others' weights are renormalised, as in TF
        rng = np.random.default_rng(seed)
        while True:
            p = probabilities * np.asarray(live, np.float64)
            if p.sum() <= 0:
                return
            yield int(rng.choice(n, p=p / p.sum()))
    return _DirectedInterleaveDataset(datasets, choose, stop_on_empty_dataset)
