"""`tf.saved_model.load`: rebuilds a saved object graph from data, never running saved code.

Nothing in the directory is trusted. The JSON is size-bounded and checked field by field; arrays
come from .npz files opened without pickle and with uncompressed members only; every graph is
rebuilt op by op through the registry (an unknown op type, an attribute the op does not take, a
reference to a later op, or an output beyond the size bound is refused; see graph_codec); names go
through the same checks as a user's. Any violation raises `FormatError` (a ValueError) naming the
file and the node, and since everything is built into new objects, nothing is left half loaded.
"""
import json
import os
import re

from defun.core import errors, nest
from defun.core.composite import is_type_spec
from defun.functions.concrete import ConcreteFunction
from defun.saved_model import graph_codec
from defun.saved_model.layout import (FORMAT, VERSION, constants_path, contains_saved_model,
                                      graph_path, variables_prefix)
from defun.saved_model.restored import RestoredFunction, SignatureMap, UserObject
from defun.core.tensor import Tensor, convert_to_tensor
from defun.state.trackable import DictWrapper, ListWrapper
from defun.train import checkpoint_format
from defun.state.variables import Variable

__all__ = ['load', 'MAX_JSON_BYTES']

MAX_JSON_BYTES = 1 << 28
_ATTRIBUTE = re.compile(r'^(?!__)[A-Za-z_][A-Za-z0-9_]*$|^__call__$')
_KINDS = ('object', 'variable', 'list', 'tuple', 'dict')
_PARAMETER_KINDS = ('POSITIONAL_ONLY', 'POSITIONAL_OR_KEYWORD', 'VAR_POSITIONAL', 'KEYWORD_ONLY',
                    'VAR_KEYWORD')


def _read_document(export_dir):
    path = graph_path(export_dir)
    if os.path.getsize(path) > MAX_JSON_BYTES:
        raise graph_codec.FormatError(f'{path}: larger than {MAX_JSON_BYTES} bytes')
    try:
        with open(path, encoding='utf-8') as f:
            document = json.load(f)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise graph_codec.FormatError(f'{path}: not valid JSON ({exc})') from None
    if not isinstance(document, dict) or document.get('format') != FORMAT:
        raise graph_codec.FormatError(f'{path}: not a defun SavedModel')
    if document.get('version') != VERSION:
        raise graph_codec.FormatError(f'{path}: unsupported version {document.get("version")!r}')
    for field, kind in (('objects', list), ('library', list), ('signatures', dict)):
        if not isinstance(document.get(field), kind) or (field == 'objects'
                                                         and not document['objects']):
            raise graph_codec.FormatError(f'{path}: the field {field!r} is missing or malformed')
    return document


def _read_arrays(path):
    try:
        with checkpoint_format.open_arrays(path) as data:
            return {name: data[name] for name in data.files}
    except (OSError, ValueError, KeyError, EOFError) as exc:
        raise graph_codec.FormatError(f'{path}: the arrays cannot be read ({exc})') from None


class _Loader:
    def __init__(self, export_dir):
        self.dir = export_dir
        self.document = _read_document(export_dir)
        self.where = graph_path(export_dir)
        self.arrays = _read_arrays(constants_path(export_dir))
        try:
            _, _, self.values = checkpoint_format.read(variables_prefix(export_dir))
        except errors.OpError as exc:
            raise graph_codec.FormatError(f'{export_dir}: its variables: {exc}') from None
        self.library = {}
        for entry in self.document['library']:
            if not isinstance(entry, dict) or not isinstance(entry.get('name'), str):
                self.fail('a malformed library function')
            self.library[entry['name']] = entry
        self.functions = {}
        self.building = set()
        self.objects = []

    def fail(self, what):
        raise graph_codec.FormatError(f'{self.where}: {what}')

    # -- objects
    def build_objects(self):
        nodes = self.document['objects']
        for i, node in enumerate(nodes):
            if not isinstance(node, dict) or node.get('kind') not in _KINDS or \
                    not isinstance(node.get('children'), list):
                self.fail(f'object {i} is malformed')
            self.objects.append(self._new_object(i, node))
        for i, node in enumerate(nodes):
            self._link(i, node)
        for i, node in enumerate(nodes):
            if node['kind'] == 'tuple':
                self._tuple(i, set())
        for i, node in enumerate(nodes):
            self._attach_functions(i, node)
        return self.objects[0]

    def _new_object(self, i, node):
        kind = node['kind']
        if kind == 'variable':
            return self._variable(i, node)
        # Lists and dicts come back wrapped, as TF's; a tuple is filled as a list, then frozen.
        return {'object': UserObject, 'list': ListWrapper, 'dict': DictWrapper,
                'tuple': ListWrapper}[kind]()

    def _variable(self, i, node):
        key = node.get('value')
        if key not in self.values:
            self.fail(f'object {i}: a variable without a saved value')
        array = self.values[key]
        reader = graph_codec.GraphReader(self.arrays, self.function, f'{self.where}: object {i}')
        dtype = reader.value({'t': 'dtype', 'v': node.get('dtype')}, 'dtype')
        shape = reader.value(node.get('shape'), 'shape')
        if not shape.is_compatible_with(array.shape) or array.dtype != dtype.as_numpy_dtype:
            self.fail(f'object {i}: the saved value does not match its dtype and shape')
        try:
            return Variable(array, dtype=dtype, shape=shape, name=_variable_name(node.get('name')),
                            trainable=bool(node.get('trainable', True)))
        except (TypeError, ValueError) as exc:
            self.fail(f'object {i}: {exc}')

    def _edges(self, i, node):
        for edge in node['children']:
            if not (isinstance(edge, list) and len(edge) == 2 and isinstance(edge[0], str)
                    and isinstance(edge[1], int) and 0 <= edge[1] < len(self.objects)):
                self.fail(f'object {i} has a malformed or dangling child {edge!r:.60}')
            yield edge[0], edge[1]

    def _link(self, i, node):
        obj, kind = self.objects[i], node['kind']
        edges = list(self._edges(i, node))
        if kind == 'variable' and edges:
            self.fail(f'object {i}: a variable has no children')
        if kind in ('list', 'tuple'):
            if [name for name, _ in edges] != [str(n) for n in range(len(edges))]:
                self.fail(f'object {i}: list items must be numbered 0..n-1')
            obj.extend(self.objects[c] for _, c in edges)
        elif kind == 'dict':
            obj.update((name, self.objects[c]) for name, c in edges)
        elif kind == 'object':
            for name, c in edges:
                self._set(i, obj, name, self.objects[c])

    def _tuple(self, i, visiting):
        if isinstance(self.objects[i], tuple):
            return self.objects[i]
        if i in visiting:
            self.fail(f'object {i}: a tuple that contains itself')
        visiting.add(i)
        placeholder, items = self.objects[i], []
        for _, c in self._edges(i, self.document['objects'][i]):
            kind = self.document['objects'][c]['kind']
            items.append(self._tuple(c, visiting) if kind == 'tuple' else self.objects[c])
        self.objects[i] = tuple(items)
        for obj in self.objects:  # re-point containers at the finished tuple
            _replace(obj, placeholder, self.objects[i])
        return self.objects[i]

    def _set(self, i, obj, name, value):
        if not _ATTRIBUTE.match(name) or name == 'signatures':
            self.fail(f'object {i}: {name!r} is not an attribute name defun restores')
        setattr(obj, name, value)

    def _attach_functions(self, i, node):
        entries = node.get('functions', [])
        if not isinstance(entries, list):
            self.fail(f'object {i}: malformed functions')
        for entry in entries:
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], dict)):
                self.fail(f'object {i}: a malformed function entry')
            name, data = entry
            if not isinstance(self.objects[i], UserObject):
                self.fail(f'object {i}: only objects have functions')
            concretes = data.get('concrete', [])
            if not isinstance(concretes, list):
                self.fail(f'object {i}: malformed concrete functions of {name!r}')
            params = self._params(i, data.get('params'))
            loaded = [self.function(c, f'object {i}') for c in concretes]
            try:
                fn = RestoredFunction(str(name), params, loaded,
                                      bool(data.get('input_signature', False)))
            except (TypeError, ValueError) as exc:  # an impossible parameter list
                self.fail(f'object {i}: function {name!r}: {exc}')
            self._set(i, self.objects[i], name, fn)

    def _params(self, i, params):
        if params is None:
            return None
        if not isinstance(params, list):
            self.fail(f'object {i}: malformed parameters')
        reader = graph_codec.GraphReader(self.arrays, self.function, f'{self.where}: object {i}')
        result = []
        for p in params:
            if not isinstance(p, dict) or not str(p.get('name')).isidentifier() or \
                    p.get('kind') not in _PARAMETER_KINDS or \
                    not isinstance(p.get('has_default'), bool):
                self.fail(f'object {i}: a malformed parameter')
            result.append(dict(p, default=reader.value(p.get('default'), 'a default')))
        return result

    # -- functions
    def function(self, name, where='a call'):
        """The loaded ConcreteFunction saved under library `name` (loading it once)."""
        if name in self.functions:
            return self.functions[name]
        if name not in self.library:
            self.fail(f'{where} names the unknown function {name!r:.60}')
        if name in self.building:
            self.fail(f'the function {name!r} calls itself')
        self.building.add(name)
        try:
            self.functions[name] = self._concrete(self.library[name])
        except graph_codec.FormatError:
            raise
        except Exception as exc:  # noqa: BLE001 - whatever a hostile file provokes is refused
            self.fail(f'function {name!r} cannot be rebuilt: {type(exc).__name__}: {exc}')
        self.building.discard(name)
        return self.functions[name]

    def _concrete(self, entry):
        name = entry['name']
        reader = graph_codec.GraphReader(self.arrays, self.function,
                                         f'{self.where}: function {name!r}')
        captures = {}
        for item in entry.get('captures', []):
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict)):
                self.fail(f'function {name!r}: a malformed capture')
            captures[item[0]] = self._captured(name, item[1], reader)

        def placeholder(graph, i, attrs, op_name):
            if i in captures:
                return graph.capture(captures[i], name=op_name)
            return None
        graph, tensors = reader.graph(entry.get('graph'), name, placeholder=placeholder)
        args = [graph_codec.lookup(reader, tensors, ref, 'an argument')
                for ref in _list(reader, entry.get('args'))]
        if any(not t.op.opdef.is_placeholder for t in args):
            self.fail(f'function {name!r}: an argument that is not a placeholder')
        outputs = _decode_outputs(reader, entry.get('outputs'), graph.outputs)
        signature = reader.value(entry.get('signature'), 'the signature')
        if signature is not None and not (isinstance(signature, tuple) and len(signature) == 2 and
                isinstance(signature[0], tuple) and isinstance(signature[1], dict)):
            self.fail(f'function {name!r}: a malformed signature')
        graph.structured_outputs = outputs
        order = entry.get('intermediates')
        if order is not None:
            order = [graph_codec.lookup(reader, tensors, ref, 'an intermediate')
                     for ref in _list(reader, order)]
        return ConcreteFunction(graph, args, outputs, name=name,
                                structured_input_signature=signature, intermediates_order=order)

    def _captured(self, fn_name, spec, reader):
        if 'variable' in spec:
            index = spec['variable']
            if not isinstance(index, int) or not 0 <= index < len(self.objects) or \
                    not isinstance(self.objects[index], Variable):
                self.fail(f'function {fn_name!r} captures a variable that is not there')
            return self.objects[index].handle
        if 'constant' in spec:
            return convert_to_tensor(reader.value(spec['constant'], 'a captured constant'))
        self.fail(f'function {fn_name!r}: a malformed capture')

    def signatures(self):
        result = {}
        for key, name in self.document['signatures'].items():
            if not isinstance(name, str):
                self.fail(f'signature {key!r} is malformed')
            result[key] = self.function(name, f'signature {key!r}')
        return SignatureMap(result)


def _list(reader, value):
    if not isinstance(value, list):
        reader.fail('expected a list')
    return value


def _replace(container, old, new):
    if isinstance(container, list):
        container[:] = [new if item is old else item for item in container]
    elif isinstance(container, dict):
        for k, v in container.items():
            if v is old:
                container[k] = new
    elif isinstance(container, UserObject):
        for k, v in list(vars(container).items()):
            if v is old:
                object.__setattr__(container, k, new)


def _variable_name(name):
    if not isinstance(name, str):
        return None
    return name[:-2] if name.endswith(':0') else name


def _decode_outputs(reader, data, outputs):
    if not isinstance(data, dict):
        reader.fail('malformed outputs')
    kind, v = data.get('t'), data.get('v')
    if kind == 'out':
        if not isinstance(v, int) or not 0 <= v < len(outputs):
            reader.fail('an output that is not there')
        return outputs[v]
    if kind == 'py' and v is None:
        return None
    if kind == 'dict' and isinstance(v, dict):
        return {k: _decode_outputs(reader, x, outputs) for k, x in v.items()}
    if kind in ('list', 'tuple') and isinstance(v, list):
        items = [_decode_outputs(reader, x, outputs) for x in v]
        return items if kind == 'list' else tuple(items)
    if kind == 'composite' and isinstance(v, list):
        return _decode_composite(reader, data, [_decode_outputs(reader, x, outputs) for x in v])
    reader.fail('malformed outputs')


def _decode_composite(reader, data, components):
    """A composite output (a RaggedTensor, a SparseTensor) from its spec and component tensors."""
    spec = reader.value(data.get('spec'), 'a composite output')
    if not is_type_spec(spec):
        reader.fail('a composite output without its TypeSpec')
    specs = nest.flatten(spec, expand_composites=True)
    if len(specs) != len(components) or not all(
            isinstance(t, Tensor) and t.dtype == s.dtype for s, t in zip(specs, components)):
        reader.fail(f'a composite output whose components do not fit {spec!r}')
    return nest.pack_sequence_as(spec, components, expand_composites=True)


def load(export_dir, tags=None, options=None):
    """Loads a SavedModel written by `tf.saved_model.save`: an object with the saved attributes,
    Variables (trainable further) and functions, and `signatures`."""
    export_dir = os.fspath(export_dir)
    if not contains_saved_model(export_dir):
        raise OSError(f'SavedModel file does not exist at: {export_dir}/{{saved_model.json}}')
    try:
        loader = _Loader(export_dir)
        root = loader.build_objects()
        signatures = loader.signatures()
    except RecursionError:
        raise graph_codec.FormatError(f'{graph_path(export_dir)}: nested too deeply') from None
    if isinstance(root, UserObject):
        object.__setattr__(root, 'signatures', signatures)
    return root
