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

from defun import context, dtypes, names, registry
from defun.custom_gradient import UserGradient
from defun.funcgraph import FuncGraph
from defun.graph import PLACEHOLDER, GraphTensor
from defun.ops.philox import Stream
from defun.saved_model.restored import GraphGradient
from defun.shapes import TensorShape, TensorSpec

__all__ = ['GraphWriter', 'GraphReader', 'FormatError', 'MAX_ELEMENTS', 'lookup']

# The largest number of elements an array in a saved model, or an op's static output, may have.
MAX_ELEMENTS = 1 << 31


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
        return {'t': 'array', 'v': name, 'scalar': isinstance(v, np.generic),
                'strings': np.asarray(v).dtype.kind == 'O'}


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
        data = _require(self, data, dict, name_hint)
        graph = FuncGraph(str(data.get('name', name_hint)), outer_graph=outer_graph)
        captured = {}
        for outer_ref, inner_ref in _require(self, data.get('captures', []), list, 'captures'):
            outer = lookup(self, outer_tensors or [], outer_ref, 'a capture')
            captured[_op_index(self, inner_ref)] = outer
        outputs = []
        with graph.as_default():
            for i, op_data in enumerate(_require(self, data.get('ops'), list, 'ops')):
                outputs.append(self._op(graph, i, op_data, outputs, captured, placeholder))
        self.graph_tensors[id(graph)] = outputs
        graph.inputs = [lookup(self, outputs, r, 'an input') for r in data.get('inputs', [])]
        graph.outputs = [lookup(self, outputs, r, 'an output') for r in data.get('outputs', [])]
        return graph, outputs

    def _op(self, graph, i, data, outputs, captured, placeholder):
        data = _require(self, data, dict, f'op {i}')
        op_type, name = data.get('type'), data.get('name')
        if not isinstance(op_type, str) or not isinstance(name, str):
            self.fail(f'op {i} has no type or name')
        where = f'op {i} ({name!r}, {op_type})'
        try:
            opdef = registry.get_op(op_type)
        except LookupError:
            self.fail(f'{where}: the op type is not registered in defun')
        encoded = _require(self, data.get('attrs', {}), dict, where)
        # Sub-graphs first: other attrs (a while loop's `accumulate`) name tensors inside them.
        order = sorted(encoded, key=lambda k: (not _holds_graph(encoded[k]),
                                               _kind(encoded[k]) == 'stream'))
        attrs = {}
        for k in order:
            self.op_attrs = attrs
            attrs[k] = self.value(encoded[k], f'{where} attr {k!r}', graph, outputs)
        attrs = {k: attrs[k] for k in encoded}
        inputs = [lookup(self, outputs, r, f'an input of {where}') for r in data.get('inputs', [])]
        _check_attr_names(self, opdef, attrs, where)
        control = [outputs[_index(self, c, len(outputs), where)][0].op
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
        data = _require(self, data, dict, where)
        kind, v = data.get('t'), data.get('v')
        decode = _DECODERS.get(kind)
        if decode is None:
            self.fail(f'{where}: unknown value kind {kind!r}')
        return decode(self, v, data, where, graph, outputs)

    def array(self, name, data, where):
        if name not in self.arrays:
            self.fail(f'{where}: the array {name!r} is missing')
        array = self.arrays[name]
        if data.get('strings'):
            array = array.astype(object)
        return array[()] if data.get('scalar') else array


def _decode_float(reader, v, data, where, graph, outputs):
    if v not in ('inf', '-inf', 'nan'):
        reader.fail(f'{where}: bad float {v!r}')
    return float(v)


def _decode_py(reader, v, data, where, graph, outputs):
    if v is not None and not isinstance(v, (bool, int, float, str)):
        reader.fail(f'{where}: bad value {v!r:.80}')
    return v


def _decode_shape(reader, v, data, where, graph=None, outputs=None):
    if v is not None and (not isinstance(v, list) or not all(
            d is None or (isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= MAX_ELEMENTS)
            for d in v)):
        reader.fail(f'{where}: bad shape {v!r:.80}')
    return TensorShape(v)


def _decode_dtype(reader, v, data, where, graph=None, outputs=None):
    try:
        return dtypes.as_dtype(v)
    except (TypeError, ValueError, KeyError):
        reader.fail(f'{where}: unknown dtype {v!r:.40}')


def _decode_spec(reader, v, data, where, graph, outputs):
    if not isinstance(v, list) or len(v) != 3 or not (v[2] is None or isinstance(v[2], str)):
        reader.fail(f'{where}: bad TensorSpec')
    return TensorSpec(_decode_shape(reader, v[0], data, where),
                      _decode_dtype(reader, v[1], data, where), v[2])


def _decode_sequence(reader, v, data, where, graph, outputs):
    items = [reader.value(x, where, graph, outputs) for x in _require(reader, v, list, where)]
    return tuple(items) if data['t'] == 'tuple' else items


def _decode_dict(reader, v, data, where, graph, outputs):
    return {k: reader.value(x, where, graph, outputs)
            for k, x in _require(reader, v, dict, where).items()}


def _decode_slice(reader, v, data, where, graph, outputs):
    parts = [reader.value(x, where) for x in _require(reader, v, list, where)]
    if len(parts) != 3 or not all(p is None or isinstance(p, int) for p in parts):
        reader.fail(f'{where}: bad slice')
    return slice(*parts)


def _decode_graph(reader, v, data, where, graph, outputs):
    if graph is None:
        reader.fail(f'{where}: a sub-graph outside an op')
    sub, _ = reader.graph(v, where, outer_graph=graph, outer_tensors=outputs)
    return sub


def _holds_graph(encoded):
    if not isinstance(encoded, dict):
        return False
    if encoded.get('t') in ('graph', 'gradient'):
        return True
    return encoded.get('t') in ('list', 'tuple') and isinstance(encoded.get('v'), list) and any(
        isinstance(x, dict) and x.get('t') == 'graph' for x in encoded['v'])


def _kind(encoded):
    return encoded.get('t') if isinstance(encoded, dict) else None


def _decode_stream(reader, v, data, where, graph, outputs):
    seed, seed2 = reader.op_attrs.get('seed'), reader.op_attrs.get('seed2')
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (seed, seed2)):
        reader.fail(f'{where}: a random stream without integer seed attrs')
    if seed == 0 and seed2 == 0:  # unseeded: fresh entropy, as every new TF kernel
        seed, seed2 = (int(w) for w in context.random_generator().integers(1, 2 ** 63, size=2))
    return Stream(seed, seed2)


def _decode_tensor(reader, v, data, where, graph, outputs):
    if not (isinstance(v, list) and len(v) == 4 and isinstance(v[0], str)
            and isinstance(v[1], int)):
        reader.fail(f'{where}: bad tensor reference')
    sub = reader.op_attrs.get(v[0])
    if v[1] >= 0:
        sub = sub[v[1]] if isinstance(sub, (list, tuple)) and v[1] < len(sub) else None
    if not isinstance(sub, FuncGraph) or id(sub) not in reader.graph_tensors:
        reader.fail(f'{where}: a tensor of a sub-graph the op does not have')
    return lookup(reader, reader.graph_tensors[id(sub)], v[2:], where)


def _decode_gradient(reader, v, data, where, graph, outputs):
    mask, n_args = data.get('mask'), data.get('n_args')
    if not (isinstance(mask, list) and all(isinstance(m, bool) for m in mask)
            and isinstance(n_args, int) and 0 <= n_args <= len(mask)):
        reader.fail(f'{where}: a malformed custom gradient')
    sub = _decode_graph(reader, v, data, where, graph, outputs)
    if sum(mask) != len(sub.outputs):
        reader.fail(f'{where}: a custom gradient whose outputs do not match its mask')
    return GraphGradient(sub, mask, n_args)


def _decode_function(reader, v, data, where, graph, outputs):
    if not isinstance(v, str):
        reader.fail(f'{where}: bad function reference')
    return reader.function(v, where)


_DECODERS = {
    'py': _decode_py, 'float': _decode_float, 'dtype': _decode_dtype, 'shape': _decode_shape,
    'spec': _decode_spec, 'list': _decode_sequence, 'tuple': _decode_sequence,
    'dict': _decode_dict, 'slice': _decode_slice, 'graph': _decode_graph,
    'function': _decode_function, 'tensor': _decode_tensor, 'stream': _decode_stream,
    'gradient': _decode_gradient,
    'array': lambda reader, v, data, where, graph, outputs: reader.array(v, data, where),
    'ellipsis': lambda reader, v, data, where, graph, outputs: Ellipsis,
}


def _require(reader, value, kind, where):
    if not isinstance(value, kind):
        reader.fail(f'{where}: expected a {kind.__name__}, got {type(value).__name__}')
    return value


def _index(reader, value, limit, where):
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < limit:
        reader.fail(f'{where}: reference {value!r:.40} is not to an earlier op')
    return value


def _op_index(reader, ref):
    if not isinstance(ref, list) or len(ref) != 2:
        reader.fail(f'bad tensor reference {ref!r:.40}')
    return ref[0]


def lookup(reader, outputs, ref, what):
    if not isinstance(ref, list) or len(ref) != 2:
        reader.fail(f'{what}: bad tensor reference {ref!r:.40}')
    op = outputs[_index(reader, ref[0], len(outputs), what)]
    return op[_index(reader, ref[1], len(op), what)]


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

