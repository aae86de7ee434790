"""Graphs to data and back: the part of the SavedModel format that describes computation.

A graph is written as its ops in creation order, each with its type, name, inputs (earlier ops'
outputs, as [op index, output index]), control inputs and attributes. Attribute values are written
with their kind (`{"t": "dtype", "v": "float32"}`), so that reading them back can only ever produce
data: numbers, strings, dtypes, shapes, arrays (kept in the npz beside the JSON), slices, and the
sub-graphs of control flow (written inline, with the outer tensors they capture) or the functions
that calls name. Anything else (a Python callable, as `py_function` holds) cannot be written, and
saving says which op holds it.

Reading rebuilds each op through the graph's own `create_op`, so the op's registered inference
checks its inputs and attributes exactly as when it was first built; the reader adds what a file
could get wrong: unknown op types, attribute names the op does not take, references to ops that
come later (which also rules out cycles), and outputs whose static size is beyond a bound.
"""
import contextlib
import inspect

import numpy as np

from defun.core import dtypes, names, registry
from defun.autodiff.custom_gradient import UserGradient
from defun.graphs.funcgraph import FuncGraph
from defun.graphs.graph import PLACEHOLDER
from defun.graphs.operation import GraphTensor
from defun.ops.random.philox import Stream
from defun.saved_model.value_decoding import (DECODERS, MAX_ELEMENTS, SAVED_TYPE_SPECS,
                                              holds_graph, lookup, op_index, reference_index,
                                              require, value_kind)
from defun.core.shapes import TensorShape, TensorSpec

__all__ = ['GraphWriter', 'GraphReader', 'FormatError', 'MAX_ELEMENTS', 'lookup']



class FormatError(ValueError):
    """A saved model's content is malformed or not allowed; the message names where."""


class GraphWriter:
    """Encodes graphs; arrays go to `arrays` (name -> ndarray), called functions to `function_ref`
    (a callable from a ConcreteFunction to the library name it is saved under)."""

    def __init__(self, arrays, function_ref):
        self.arrays = arrays
        self.function_ref = function_ref
        self.sub_tensors = {}  # tensors of the sub-graphs of the op being written (see _op)

    def graph(self, graph, where, outer_index=None):
        ops = graph.get_operations()
        index = {id(op): i for i, op in enumerate(ops)}
        encoded = [self._op(op, index, f'{where}/{op.name}') for op in ops]
        captures = []
        if outer_index is not None:  # a sub-graph: which outer tensors its placeholders stand for
            captures = [[outer_index(outer), _ref(index, inner)] for outer, inner in graph.captures
                        if outer_index(outer) is not None]
        return {'name': graph.name, 'ops': encoded,
                'inputs': [_ref(index, t) for t in graph.inputs],
                'outputs': [_ref(index, t) for t in graph.outputs], 'captures': captures}

    def _op(self, op, index, where):
        attrs = {}
        for k, v in op.attrs.items():
            # Set for each attr: encoding a sub-graph's own ops replaces it meanwhile.
            self.sub_tensors = _sub_graph_tensors(op)
            attrs[k] = self.value(v, f'{where} attr {k!r}', op, index)
        return {'type': op.type, 'name': op.name,
                'inputs': [_ref(index, t) for t in op.inputs],
                'control': [index[id(c)] for c in op.control_inputs], 'attrs': attrs}

    def value(self, v, where, op=None, index=None):
        if v is None or isinstance(v, (bool, str)):
            return {'t': 'py', 'v': v}
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return {'t': 'py', 'v': v} if np.isfinite(v) else {'t': 'float', 'v': repr(float(v))}
        if isinstance(v, dtypes.DType):
            return {'t': 'dtype', 'v': v.name}
        if isinstance(v, TensorShape):
            return {'t': 'shape', 'v': _dims(v)}
        if isinstance(v, TensorSpec):
            return {'t': 'spec', 'v': [_dims(v.shape), v.dtype.name, v.name]}
        if SAVED_TYPE_SPECS.get(type(v).__name__) is type(v):
            return {'t': 'typespec', 'k': type(v).__name__,
                    'v': self.value(list(v._serialize()), where, op, index)}
        if isinstance(v, (np.ndarray, np.generic)):
            return self._array(v, where)
        if isinstance(v, (list, tuple)):
            return {'t': type(v).__name__, 'v': [self.value(x, where, op, index) for x in v]}
        if isinstance(v, dict) and all(isinstance(k, str) for k in v):
            return {'t': 'dict', 'v': {k: self.value(x, where, op, index) for k, x in v.items()}}
        if isinstance(v, slice):
            return {'t': 'slice', 'v': [self.value(x, where) for x in (v.start, v.stop, v.step)]}
        if v is Ellipsis:
            return {'t': 'ellipsis'}
        if isinstance(v, Stream):
            # A random op's generator: rebuilt from the op's own seed attrs when loaded.
            return {'t': 'stream'}
        if isinstance(v, GraphTensor) and id(v) in self.sub_tensors:
            return {'t': 'tensor', 'v': list(self.sub_tensors[id(v)])}
        if isinstance(v, UserGradient) and op is not None:
            graph, mask = v.trace(op)
            return {'t': 'gradient', 'v': self.graph(graph, where, self._outer_ref(op.graph)),
                    'mask': mask, 'n_args': op.get_attr('n_args')}
        if isinstance(v, FuncGraph) and op is not None:
            return {'t': 'graph', 'v': self.graph(v, where, self._outer_ref(op.graph))}
        if hasattr(v, 'structured_input_signature') and hasattr(v, 'call_flat'):
            return {'t': 'function', 'v': self.function_ref(v)}
        raise ValueError(f'Cannot save {where}: a value of type {type(v).__name__} ({v!r:.80}) is '
                         'not data (functions that run Python, such as py_function, cannot be '
                         'saved).')

    @staticmethod
    def _outer_ref(graph):
        """How a sub-graph's captured outer tensor is named: a tensor of `graph`, the op's own
        graph (an eager value it captured directly is fed through `graph`'s capture of it). None
        for a tensor of an unrelated graph (a gradient branch reading its forward branch): such a
        placeholder is fed by position like any input, so it is written as a plain placeholder."""
        index = {id(o): i for i, o in enumerate(graph.get_operations())}

        def ref(tensor):
            if not isinstance(tensor, GraphTensor):
                tensor = graph.captured(tensor) if isinstance(graph, FuncGraph) else None
            return None if tensor is None or id(tensor.op) not in index else _ref(index, tensor)
        return ref

    def _array(self, v, where):
        array = np.asarray(v)
        if array.dtype.kind == 'O':
            try:
                array = array.astype(np.bytes_)
            except (TypeError, ValueError, UnicodeEncodeError):
                raise ValueError(f'Cannot save {where}: an array of Python objects') from None
        name = f'c{len(self.arrays)}'
        self.arrays[name] = array
        entry = {'t': 'array', 'v': name, 'scalar': isinstance(v, np.generic),
                 'strings': np.asarray(v).dtype.kind == 'O'}
        if array.dtype in dtypes.LOW_PRECISION:  # numpy's file keeps its bytes only ('V2')
            entry['dtype'] = dtypes.from_numpy(array.dtype).name
        return entry


def _sub_graphs(attrs):
    """(attr name, position, graph) for the sub-graphs among an op's attrs (position -1 for a
    graph that is the attr itself, i for the i-th of a list of graphs)."""
    for name, value in attrs.items():
        if isinstance(value, FuncGraph):
            yield name, -1, value
        elif isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                if isinstance(item, FuncGraph):
                    yield name, i, item


def _sub_graph_tensors(op):
    """id(tensor) -> (attr, position, op index, output index) for the tensors of op's sub-graphs,
    which attrs such as a while loop's `accumulate` refer to."""
    refs = {}
    for name, position, graph in _sub_graphs(op.attrs):
        for i, sub_op in enumerate(graph.get_operations()):
            for t in sub_op.outputs:
                refs.setdefault(id(t), (name, position, i, t.value_index))
    return refs


def _dims(shape):
    dims = shape.as_tuple() if hasattr(shape, 'as_tuple') else shape
    return None if dims is None else list(dims)


def _ref(index, tensor):
    return [index[id(tensor.op)], tensor.value_index]


class GraphReader:
    """Decodes graphs written by GraphWriter. `arrays` are the saved arrays, `function` maps a
    library name to the loaded ConcreteFunction, `where` prefixes error messages."""

    def __init__(self, arrays, function, where):
        self.arrays, self.function, self.where = arrays, function, where
        self.graph_tensors = {}  # id(decoded graph) -> its tensors by [op][output]
        self.op_attrs = {}       # the attrs decoded so far of the op being decoded

    def fail(self, what):
        raise FormatError(f'{self.where}: {what}')

    def graph(self, data, name_hint, outer_graph=None, outer_tensors=None, placeholder=None):
        """A new FuncGraph holding the decoded ops; (graph, tensors by [op, output]).

        `placeholder(graph, op_index, spec)` may create an op's placeholder itself (how a top-level
        function's captures of variables and constants are rebuilt)."""
        data = require(self, data, dict, name_hint)
        graph = FuncGraph(str(data.get('name', name_hint)), outer_graph=outer_graph)
        captured = {}
        for outer_ref, inner_ref in require(self, data.get('captures', []), list, 'captures'):
            outer = lookup(self, outer_tensors or [], outer_ref, 'a capture')
            captured[op_index(self, inner_ref)] = outer
        outputs = []
        with graph.as_default():
            for i, op_data in enumerate(require(self, data.get('ops'), list, 'ops')):
                outputs.append(self._op(graph, i, op_data, outputs, captured, placeholder))
        self.graph_tensors[id(graph)] = outputs
        graph.inputs = [lookup(self, outputs, r, 'an input') for r in data.get('inputs', [])]
        graph.outputs = [lookup(self, outputs, r, 'an output') for r in data.get('outputs', [])]
        return graph, outputs

    def _op(self, graph, i, data, outputs, captured, placeholder):
        data = require(self, data, dict, f'op {i}')
        op_type, name = data.get('type'), data.get('name')
        if not isinstance(op_type, str) or not isinstance(name, str):
            self.fail(f'op {i} has no type or name')
        where = f'op {i} ({name!r}, {op_type})'
        try:
            opdef = registry.get_op(op_type)
        except LookupError:
            self.fail(f'{where}: the op type is not registered in defun')
        encoded = require(self, data.get('attrs', {}), dict, where)
        # Sub-graphs first: other attrs (a while loop's `accumulate`) name tensors inside them.
        order = sorted(encoded, key=lambda k: (not holds_graph(encoded[k]),
                                               value_kind(encoded[k]) == 'stream'))
        attrs = {}
        for k in order:
            self.op_attrs = attrs
            attrs[k] = self.value(encoded[k], f'{where} attr {k!r}', graph, outputs)
        attrs = {k: attrs[k] for k in encoded}
        inputs = [lookup(self, outputs, r, f'an input of {where}') for r in data.get('inputs', [])]
        _check_attr_names(self, opdef, attrs, where)
        control = [outputs[reference_index(self, c, len(outputs), where)][0].op
                   for c in data.get('control', [])]
        try:
            made = self._placeholder(graph, i, opdef, attrs, name, captured, placeholder)
            if made is not None:
                return [made]
            with graph.control_dependencies(control) if control else contextlib.nullcontext():
                op = graph.create_op(opdef, inputs, attrs, name=name)
        except FormatError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure of a hostile file is a FormatError
            self.fail(f'{where} cannot be rebuilt: {type(exc).__name__}: {exc}')
        for t in op.outputs:
            dims = t.shape.as_tuple()
            if dims is not None and None not in dims and int(np.prod(dims, dtype=np.float64)) > \
                    MAX_ELEMENTS:
                self.fail(f'{where} would produce {dims} elements, beyond the bound')
        return list(op.outputs)

    @staticmethod
    def _placeholder(graph, i, opdef, attrs, name, captured, placeholder):
        """The placeholder for op `i` when it stands for a capture (or the caller makes it)."""
        if opdef is not PLACEHOLDER:
            return None
        if i in captured:
            names.check_op_name(name)
            return graph.capture(captured[i], name=name)
        return placeholder(graph, i, attrs, name) if placeholder is not None else None

    def value(self, data, where, graph=None, outputs=None):
        data = require(self, data, dict, where)
        kind, v = data.get('t'), data.get('v')
        decode = DECODERS.get(kind)
        if decode is None:
            self.fail(f'{where}: unknown value kind {kind!r}')
        return decode(self, v, data, where, graph, outputs)

    def array(self, name, data, where):
        if name not in self.arrays:
            self.fail(f'{where}: the array {name!r} is missing')
        array = self.arrays[name]
        if data.get('strings'):
            array = array.astype(object)
        if isinstance(data.get('dtype'), str):
            try:
                array = array.view(dtypes.as_dtype(data['dtype']).np_dtype)
            except (TypeError, ValueError):
                self.fail(f'{where}: the array {name!r} is not of dtype {data["dtype"]!r}')
        return array[()] if data.get('scalar') else array


def _check_attr_names(reader, opdef, attrs, where):
    """Refuses attributes the op's inference does not take (its keyword parameters are the op's
    attribute schema)."""
    try:
        params = inspect.signature(opdef.infer).parameters.values()
    except (TypeError, ValueError):
        return
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return
    allowed = {p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    unknown = sorted(set(attrs) - allowed)
    if unknown:
        reader.fail(f'{where}: the op takes no attribute {unknown[0]!r}')

