"""User functions of tf.data (map, filter, flat_map, interleave, reduce, take_while), traced once.

As TF's StructuredFunctionWrapper: the function is converted by AutoGraph and traced into a
FuncGraph over placeholders of the input element_spec (a tuple element is unpacked into positional
arguments, any other structure passed whole); its outputs fix the output spec (a top-level list is
a tuple; Python values become constants; a returned Dataset becomes a variant tensor). The executor
turns the graph into generated code, and the pipeline calls that code directly on the flat numpy
arrays of each element: no tensors are built between stages.

Captured tensors are fed on every call: eager ones (constants, variable handles, by reference) as
arrays; graph tensors of an enclosing trace make the dataset a template, rebound when the graph runs.
"""
from defun.functions.function import call_converted

from defun.core import context, dtypes, nest
from defun.core.composite import is_type_spec
from defun.functions.concrete import ConcreteFunction
from defun.graphs.funcgraph import FuncGraph
from defun.graphs.operation import GraphTensor
from defun.core.shapes import TensorSpec
from defun.core.tensor import Tensor, convert_to_tensor
from defun.ops.random.stateful import restart_streams

from defun.data import structure
from defun.data.base import Dataset
from defun.data.graph_ops import VariantDataset, variant_of
from defun.data.structure import DatasetSpec
from defun.core.variable_base import is_variable, read_variable

__all__ = ['StructuredFunction', 'call_args']


def call_args(element, spec):
    """How an element is passed to a user function: a plain tuple unpacked, anything else whole."""
    return tuple(element) if type(spec) is tuple else (element,)


def _placeholder(graph, spec, inputs):
    if is_type_spec(spec):
        parts = [_placeholder(graph, s, inputs) for s in nest.flatten(spec, expand_composites=True)]
        return nest.pack_sequence_as(spec, parts, expand_composites=True)
    if isinstance(spec, DatasetSpec):
        ph = graph.add_placeholder(dtypes.variant, (), 'args')
        inputs.append(ph)
        return VariantDataset(ph, spec.element_spec)
    ph = graph.add_placeholder(spec.dtype, spec.shape.as_tuple(), 'args')
    inputs.append(ph)
    return ph


def _output(value, graph, what):
    if isinstance(value, Dataset):
        return graph.internalize(variant_of(value))
    if isinstance(value, Tensor):
        return graph.internalize(value)
    if is_variable(value):
        return read_variable(value)
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f'{what}: the function returned {value!r} of type {type(value).__name__}, '
                        f'which is not a Tensor, a Dataset or a structure of them') from None


def _output_spec(value, flat_out):
    """The output's spec; flat_out are its flat tensors (a composite's components)."""
    if structure.has_composites(structure.spec_of(value)):
        return structure.spec_of(value)
    leaves = nest.flatten(value)
    specs = [DatasetSpec(v.element_spec) if structure.is_dataset(v) else
             TensorSpec(t.shape, t.dtype) for v, t in zip(leaves, flat_out)]
    return nest.pack_sequence_as(value, specs)


def _packed(result, flat):
    """The function's structured outputs: `flat` in the structure of `result` (its Nones kept)."""
    it = iter(flat)
    leaves = [None if v is None else
              nest.pack_sequence_as(v, [next(it) for _ in nest.flatten(v, expand_composites=True)],
                                    expand_composites=True)
              for v in nest.flatten(result)]
    return nest.pack_sequence_as(result, leaves)


_DATASET_OPS = {'map': 'MapDataset', 'filter': 'FilterDataset', 'flat_map': 'FlatMapDataset',
                'interleave': 'InterleaveDataset', 'take_while': 'TakeWhileDataset',
                'reduce': 'ReduceDataset'}


class StructuredFunction:
    """`func` traced for elements of `input_spec`; call `flat(arrays)` -> flat output arrays."""

    def __init__(self, func, input_spec, what):
        self.what = what
        graph = FuncGraph(f'{what}_fn', outer_graph=context.current_graph())
        inputs = []
        with context.graph_mode(graph, fresh_tapes=True):
            args = nest.map_structure(lambda s: _placeholder(graph, s, inputs), input_spec)
            result = call_converted(func, call_args(args, input_spec))
            if isinstance(result, list):
                result = tuple(result)
            if result is None or (nest.is_nested(result) and not nest.flatten(result)):
                raise TypeError(f'{what}: the function must return a value (a tensor or a '
                                f'structure of tensors), it returned {result!r}')
            result = structure.normalize(result, what)   # nested lists become tensors
            flat = [_output(v, graph, what) for v in structure.flat_tensors(result)]
        graph.outputs = flat
        self.output_spec = _output_spec(result, flat)
        self.concrete = ConcreteFunction(graph, inputs, _packed(result, flat), name=f'{what}_fn')
        self._callable = self.concrete.callable
        self._captures = tuple(self.concrete.captured_inputs)
        self._capture_arrays = tuple(getattr(t, 'array', None) for t in self._captures)

    def flat(self, arrays):
        """Runs the generated code on one element's flat arrays; returns the flat outputs."""
        try:
            return self._callable.fn(*arrays, *self._capture_arrays)
        except Exception as exc:
            raise self._error(exc) from None

    def _error(self, exc):
        """The failure named as TF names it: the transformation, then the failing op and line."""
        error = self.concrete.runtime_error(exc)
        kind = _DATASET_OPS.get(self.what, self.what)
        try:
            return type(error)(f'Error in user-defined function passed to {kind} '
                               f'transformation: {error}')
        except TypeError:   # an exception type with another constructor: keep it as it is
            return error

    def restart_random(self):
        """Its random ops start their streams again (a new iterator's fresh kernels)."""
        restart_streams(self.concrete.graph.get_operations())

    def symbolic_inputs(self, out):
        for t in self._captures:
            if isinstance(t, GraphTensor) and all(x is not t for x in out):
                out.append(t)
        return out

    def rebind(self, values):
        if not any(isinstance(t, GraphTensor) for t in self._captures):
            return self
        clone = object.__new__(StructuredFunction)
        clone.__dict__.update(self.__dict__)
        clone._capture_arrays = tuple(values[id(t)] if isinstance(t, GraphTensor) else a
                                      for t, a in zip(self._captures, self._capture_arrays))
        return clone
