"""Transformations running user functions: map, filter, flat_map, interleave, take_while, reduce.

Each traces its function once (functions.StructuredFunction) when the dataset is created, so a
function returning another structure, or a predicate that is not a scalar bool, fails there with
TF's message; the pipeline then calls the generated code per element. `reduce` runs eagerly as a
loop over the traced function (relaxing state shapes that change, as TF does); in a graph it is a
while_loop over a graph iterator (graph_ops), the same loop AutoGraph builds for `for x in ds`.
"""
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from defun.functions.function import call_converted

from defun.core import context, dtypes, nest
from defun.core.errors import InvalidArgumentError
from defun.control_flow.while_ops import while_loop
from defun.ops.framework.python_ops import stop_gradient
from defun.core.shapes import TensorSpec

from defun.data import structure
from defun.data.base import AUTOTUNE, UNKNOWN, Dataset, check_count, register
from defun.data.functions import StructuredFunction
from defun.data.graph_ops import GraphIterator
from defun.data.ordering import default_cycle_length
from defun.data.structure import DatasetSpec

__all__ = []


def _calls(function, iterator):
    """The flat outputs of `function` for each flat element of `iterator` (the hot loop of map)."""
    run = function.flat
    for element in iterator:
        yield run(element)


def _parallel_calls(function, iterator, workers):
    """Like _calls with `workers` threads, in input order; a bounded number of calls in flight.
    The pool is shut down when the consumer stops (the generator is closed)."""
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix='tf.data map')
    pending = deque()
    try:
        for element in iterator:
            pending.append(pool.submit(function.flat, element))
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


@register('map')
class _MapDataset(Dataset):
    def __init__(self, input_dataset, map_func, num_parallel_calls):
        self._inputs = (input_dataset,)
        function = StructuredFunction(map_func, input_dataset.element_spec, 'map')
        self._functions = (function,)
        self.element_spec = function.output_spec
        self._cardinality = input_dataset._cardinality
        self._parallel = None
        if num_parallel_calls is not None:
            calls = check_count(num_parallel_calls, 'num_parallel_calls')
            self._parallel = default_cycle_length() if calls == AUTOTUNE else calls

    def __repr__(self):
        kind = '_ParallelMapDataset' if self._parallel is not None else '_MapDataset'
        return f'<{kind} element_spec={self.element_spec!r}>'

    def flat_iterator(self):
        upstream = self._inputs[0].flat_iterator()
        if self._parallel is not None and self._parallel > 1:
            return _parallel_calls(self._functions[0], upstream, self._parallel)
        return _calls(self._functions[0], upstream)


def _predicate(func, spec, what):
    function = StructuredFunction(func, spec, what)
    out = function.output_spec
    if not isinstance(out, TensorSpec) or out.dtype != dtypes.bool or out.shape.rank != 0:
        raise ValueError(f'Invalid `predicate`. `predicate` must return a `tf.bool` scalar '
                         f'tensor, but its return type is {out!r}.')
    return function


@register('filter')
class _FilterDataset(Dataset):
    def __init__(self, input_dataset, predicate):
        self._inputs = (input_dataset,)
        self._functions = (_predicate(predicate, input_dataset.element_spec, 'filter'),)
        self.element_spec = input_dataset.element_spec
        # TF does not know a filtered count even of an infinite input (it may keep none)
        self._cardinality = UNKNOWN

    def flat_iterator(self):
        run = self._functions[0].flat
        for element in self._inputs[0].flat_iterator():
            if run(element)[0]:
                yield element


@register('take_while')
class _TakeWhileDataset(Dataset):
    def __init__(self, input_dataset, predicate):
        self._inputs = (input_dataset,)
        self._functions = (_predicate(predicate, input_dataset.element_spec, 'take_while'),)
        self.element_spec = input_dataset.element_spec
        self._cardinality = UNKNOWN

    def flat_iterator(self):
        run = self._functions[0].flat
        for element in self._inputs[0].flat_iterator():
            if not run(element)[0]:
                return
            yield element


def _dataset_function(func, spec, what):
    function = StructuredFunction(func, spec, what)
    if not isinstance(function.output_spec, DatasetSpec):
        raise TypeError(f'`map_func` must return a `Dataset` object. Got '
                        f'{function.output_spec!r}')
    return function


@register('flat_map')
class _FlatMapDataset(Dataset):
    def __init__(self, input_dataset, map_func):
        self._inputs = (input_dataset,)
        function = _dataset_function(map_func, input_dataset.element_spec, 'flat_map')
        self._functions = (function,)
        self.element_spec = function.output_spec.element_spec
        self._cardinality = UNKNOWN

    def flat_iterator(self):
        run = self._functions[0].flat
        for element in self._inputs[0].flat_iterator():
            yield from run(element)[0].flat_iterator()


@register('interleave')
class _InterleaveDataset(Dataset):
    def __init__(self, input_dataset, map_func, cycle_length, block_length):
        self._inputs = (input_dataset,)
        function = _dataset_function(map_func, input_dataset.element_spec, 'interleave')
        self._functions = (function,)
        self.element_spec = function.output_spec.element_spec
        self._cardinality = UNKNOWN
        cycle = AUTOTUNE if cycle_length is None else check_count(cycle_length, 'cycle_length')
        self._cycle = default_cycle_length() if cycle == AUTOTUNE else cycle
        self._block = 1 if block_length is None else check_count(block_length, 'block_length', 1)
        if self._cycle < 1:
            raise InvalidArgumentError('cycle_length must be greater than zero.')

    def flat_iterator(self):
        """TF's order: a cycle of open iterators, `block` elements from each in turn; an
        exhausted slot is refilled from the input before moving on."""
        run = self._functions[0].flat
        upstream = self._inputs[0].flat_iterator()
        slots = [None] * self._cycle
        index = block = opened = 0
        input_done = False
        while not input_done or opened:
            current = slots[index]
            if current is not None:
                element = next(current, None)
                if element is not None:
                    yield element
                    block += 1
                    if block == self._block:
                        index, block = (index + 1) % self._cycle, 0
                    continue
                slots[index], opened = None, opened - 1
                index, block = (index + 1) % self._cycle, 0
            elif not input_done:
                source = next(upstream, None)
                if source is None:
                    input_done = True
                else:
                    slots[index], opened = run(source)[0].flat_iterator(), opened + 1
            else:
                index, block = (index + 1) % self._cycle, 0


@register('reduce')
def _reduce(dataset, initial_state, reduce_func):
    state = structure.normalize(initial_state, 'reduce')
    if not context.executing_eagerly():
        return _graph_reduce(dataset, state, reduce_func)
    spec = structure.spec_of(state)
    function = reduce_function(reduce_func, spec, dataset.element_spec)
    flat = structure.flat_arrays(state)
    run = function.flat
    for element in dataset.flat_iterator():
        flat = run(tuple(flat) + tuple(element))
    return structure.Packer(spec)(flat)


def reduce_function(reduce_func, spec, element_spec, what='reduce', outputs=False):
    """Traces reduce_func(state, element) (with `outputs`, scan's (state, element) -> (state,
    output)), relaxing state shapes until the state it returns fits."""
    while True:
        function = StructuredFunction(reduce_func, (spec, element_spec), what)
        out = function.output_spec
        if outputs:
            if not isinstance(out, tuple) or len(out) != 2:
                raise TypeError(f'The `{what}_func` must return a (new_state, output_element) '
                                f'tuple, got {out!r}')
            out = out[0]
        _check_state(spec, out)
        relaxed = structure.most_specific(spec, out)
        if relaxed == spec:
            return function
        spec = relaxed


def _check_state(spec, out):
    n, m = len(nest.flatten(spec)), len(nest.flatten(out))
    if n != m:
        raise InvalidArgumentError(
            f'The number of components of the initial state and the reduce function output does '
            f'not match. (initial_state={n}, output={m}). [Op:ReduceDataset]')
    try:
        nest.assert_same_structure(spec, out)
    except (ValueError, TypeError) as exc:
        raise TypeError(f'The structure of the new state must match the initial state: {exc}') \
            from None
    for a, b in zip(nest.flatten(spec), nest.flatten(out)):
        if a.dtype != b.dtype:
            raise TypeError(f'The element types for the new state must match the initial state. '
                            f'Expected {a.dtype!r} but got {b.dtype!r}.')


def _graph_reduce(dataset, state, reduce_func):
    """reduce in a graph: a while_loop over a graph iterator with the state as loop variable."""
    spec = structure.spec_of(state)
    relaxed = reduce_function(reduce_func, spec, dataset.element_spec).output_spec
    iterator = GraphIterator(dataset)
    has_value, element = iterator.next_or_default()

    def cond(has_value, element, state):
        return has_value

    def body(has_value, element, state):
        new = call_converted(reduce_func, (state, element))
        return iterator.next_or_default() + (new,)

    invariants = (None, iterator.element_shapes, nest.map_structure(lambda s: s.shape, relaxed))
    _, _, result = while_loop(cond, body, (has_value, element, state),
                              shape_invariants=invariants)
    # TF's ReduceDataset has no gradient: neither has this loop's result
    return nest.map_structure(stop_gradient, result)
