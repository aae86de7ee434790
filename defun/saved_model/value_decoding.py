"""Decoding the typed values of a saved graph (see graph_codec): one decoder per kind, each
checking the shape of what it reads and failing through the reader, so a malformed value names
where it was found. Only data comes out: numbers, strings, dtypes, shapes, specs, arrays, slices,
sub-graphs, random streams, custom gradients and references to functions or tensors.
"""
from defun.core import context, dtypes
from defun.graphs.funcgraph import FuncGraph
from defun.ops.random.philox import Stream
from defun.saved_model.restored import GraphGradient
from defun.core.shapes import TensorShape, TensorSpec
from defun.ops.ragged.ragged_tensor import RaggedTensorSpec
from defun.ops.sparse.sparse_tensor import SparseTensorSpec

__all__ = ['DECODERS', 'MAX_ELEMENTS', 'SAVED_TYPE_SPECS', 'holds_graph', 'value_kind', 'require',
           'reference_index', 'op_index', 'lookup']

# The largest number of elements an array in a saved model, or an op's static output, may have.
MAX_ELEMENTS = 1 << 31


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


# The composite specs a saved signature may hold, by class name: a file names one of these and its
# fields, never a class to import.
SAVED_TYPE_SPECS = {'RaggedTensorSpec': RaggedTensorSpec, 'SparseTensorSpec': SparseTensorSpec}


def _decode_type_spec(reader, v, data, where, graph, outputs):
    cls = SAVED_TYPE_SPECS.get(data.get('k'))
    if cls is None:
        reader.fail(f'{where}: unknown TypeSpec {data.get("k")!r:.40}')
    fields = reader.value(v, where)
    if not isinstance(fields, list):
        reader.fail(f'{where}: bad {cls.__name__} fields')
    try:
        return cls._deserialize(tuple(fields))
    except (TypeError, ValueError) as exc:
        reader.fail(f'{where}: bad {cls.__name__}: {exc}')


def _decode_sequence(reader, v, data, where, graph, outputs):
    items = [reader.value(x, where, graph, outputs) for x in require(reader, v, list, where)]
    return tuple(items) if data['t'] == 'tuple' else items


def _decode_dict(reader, v, data, where, graph, outputs):
    return {k: reader.value(x, where, graph, outputs)
            for k, x in require(reader, v, dict, where).items()}


def _decode_slice(reader, v, data, where, graph, outputs):
    parts = [reader.value(x, where) for x in require(reader, v, list, where)]
    if len(parts) != 3 or not all(p is None or isinstance(p, int) for p in parts):
        reader.fail(f'{where}: bad slice')
    return slice(*parts)


def _decode_graph(reader, v, data, where, graph, outputs):
    if graph is None:
        reader.fail(f'{where}: a sub-graph outside an op')
    sub, _ = reader.graph(v, where, outer_graph=graph, outer_tensors=outputs)
    return sub


def holds_graph(encoded):
    if not isinstance(encoded, dict):
        return False
    if encoded.get('t') in ('graph', 'gradient'):
        return True
    return encoded.get('t') in ('list', 'tuple') and isinstance(encoded.get('v'), list) and any(
        isinstance(x, dict) and x.get('t') == 'graph' for x in encoded['v'])


def value_kind(encoded):
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


DECODERS = {
    'py': _decode_py, 'float': _decode_float, 'dtype': _decode_dtype, 'shape': _decode_shape,
    'spec': _decode_spec, 'typespec': _decode_type_spec, 'list': _decode_sequence, 'tuple': _decode_sequence,
    'dict': _decode_dict, 'slice': _decode_slice, 'graph': _decode_graph,
    'function': _decode_function, 'tensor': _decode_tensor, 'stream': _decode_stream,
    'gradient': _decode_gradient,
    'array': lambda reader, v, data, where, graph, outputs: reader.array(v, data, where),
    'ellipsis': lambda reader, v, data, where, graph, outputs: Ellipsis,
}


def require(reader, value, kind, where):
    if not isinstance(value, kind):
        reader.fail(f'{where}: expected a {kind.__name__}, got {type(value).__name__}')
    return value


def reference_index(reader, value, limit, where):
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < limit:
        reader.fail(f'{where}: reference {value!r:.40} is not to an earlier op')
    return value


def op_index(reader, ref):
    if not isinstance(ref, list) or len(ref) != 2:
        reader.fail(f'bad tensor reference {ref!r:.40}')
    return ref[0]


def lookup(reader, outputs, ref, what):
    if not isinstance(ref, list) or len(ref) != 2:
        reader.fail(f'{what}: bad tensor reference {ref!r:.40}')
    op = outputs[reference_index(reader, ref[0], len(outputs), what)]
    return op[reference_index(reader, ref[1], len(op), what)]
