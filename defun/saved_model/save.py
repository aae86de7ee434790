"""`tf.saved_model.save`: an object graph, its Variables and its traced functions, as data.

The directory holds `saved_model.json` (the object graph, the function library and the
signatures), `saved_model.npz` (the arrays of constants in the graphs), and `variables/` (a
checkpoint of the root object, so `tf.train.Checkpoint(root).restore(dir + '/variables/variables')`
works as in TF). Every `tf.function` reachable from the root is saved with the concrete functions it
has traced (and the one its `input_signature` defines); each concrete function is its graph (see
graph_codec), the Variables and constants it captures, and the signature it accepts.
"""
import inspect
import json
import os

import numpy as np

from defun.core import context, nest
from defun.core.composite import is_composite
from defun.functions.concrete import ConcreteFunction
from defun.graphs.funcgraph import variable_of
from defun.functions.function import Function
from defun.graphs.operation import GraphTensor
from defun.saved_model import graph_codec
from defun.saved_model.restored import SignatureMap
from defun.saved_model.value_decoding import SAVED_TYPE_SPECS
from defun.saved_model.layout import (FORMAT, VERSION, constants_path, graph_path,
                                      variables_prefix)
from defun.state.trackable import AutoTrackable
from defun.state.variables import Variable
from defun.train.checkpoint import object_graph
from defun.train import checkpoint_format

__all__ = ['save', 'function_entries']


def function_entries(fn):
    """(parameters, concrete functions) of a tf.function (or a restored one) for saving."""
    if hasattr(fn, 'saved_entries'):
        return fn.saved_entries()
    params = _parameters(fn.python_function)
    return params, fn.concrete_functions_for_saving()


def _parameters(python_function):
    try:
        signature = inspect.signature(python_function)
    except (TypeError, ValueError):
        return None
    return [{'name': p.name, 'kind': p.kind.name,
             'default': None if p.default is p.empty else p.default,
             'has_default': p.default is not p.empty} for p in signature.parameters.values()]


def _functions_of(obj):
    """(name, function) for the tf.functions reachable as attributes of `obj` (methods bound to
    it), in name order."""
    if not isinstance(obj, AutoTrackable):
        return []
    found = {}
    for name in dir(type(obj)):
        if isinstance(inspect.getattr_static(type(obj), name, None), Function):
            found[name] = getattr(obj, name)
    for name, value in vars(obj).items():
        if isinstance(value, Function) or hasattr(value, 'saved_entries'):
            found[name] = value
    return sorted(found.items())


class _Saver:
    def __init__(self, root):
        self.nodes, self.objects, _ = object_graph(root)
        self.node_of = {id(obj): i for i, obj in enumerate(self.objects)}
        self.arrays = {}
        self.library = []
        self.library_names = {}
        self.writer = graph_codec.GraphWriter(self.arrays, self.function_name)

    def function_name(self, concrete):
        """The library name of `concrete`, encoding it (and what it calls) on first use."""
        key = id(concrete)
        if key not in self.library_names:
            name = f'{concrete.name}_{len(self.library)}'
            encoded = self._concrete(concrete, name)
            self.library_names[key] = name
            self.library.append(encoded)
        return self.library_names[key]

    def _concrete(self, concrete, name):
        graph = concrete.graph
        index = {id(op): i for i, op in enumerate(graph.get_operations())}
        arg_ids = {id(t) for t in concrete.inputs[:len(concrete.inputs) - len(
            concrete.captured_inputs)]}
        captures = []
        for outer, inner in graph.captures:
            if id(inner) in arg_ids:
                continue
            captures.append([index[id(inner.op)], self._capture(outer, concrete.name)])
        n_args = len(concrete.inputs) - len(concrete.captured_inputs)
        return {'name': name, 'graph': self.writer.graph(graph, f'function {concrete.name}'),
                'args': [[index[id(t.op)], t.value_index] for t in concrete.inputs[:n_args]],
                'captures': captures,
                'signature': self.writer.value(concrete.structured_input_signature,
                                               f'the signature of {concrete.name}'),
                'outputs': _encode_outputs(concrete.structured_outputs, graph.outputs,
                                           self.writer),
                'intermediates': None if concrete.built_intermediates is None else [
                    [index[id(t.op)], t.value_index] for t in concrete.built_intermediates]}

    def _capture(self, outer, fn_name):
        variable = variable_of(outer)
        if variable is not None:
            if id(variable) not in self.node_of:
                raise ValueError(f'Tried to export a function which references an untracked '
                                 f'resource: {fn_name} reads {variable!r}, which is not reachable '
                                 'from the object being saved. Assign it to an attribute of that '
                                 'object (or one of its sub-modules) first.')
            return {'variable': self.node_of[id(variable)]}
        if isinstance(outer, GraphTensor):
            raise ValueError(f'Cannot save {fn_name}: it captures the graph tensor {outer.name} '
                             'of an enclosing function.')
        return {'constant': self.writer.value(np.asarray(outer.numpy()), fn_name)}

    def encode_objects(self):
        encoded = []
        for node, obj in zip(self.nodes, self.objects):
            entry = {'children': node['children'], 'kind': _kind(obj)}
            if isinstance(obj, Variable):
                entry.update(value=node['value'], dtype=obj.dtype.name, name=obj.name,
                             trainable=obj.trainable, shape=self.writer.value(obj.shape, 'shape'))
            entry['functions'] = [[name, self._function(fn)] for name, fn in _functions_of(obj)]
            encoded.append(entry)
        return encoded

    def _function(self, fn):
        params, concretes = function_entries(fn)
        return {'params': [self._param(p) for p in params] if params is not None else None,
                'concrete': [self.function_name(c) for c in concretes],
                'input_signature': getattr(fn, 'input_signature', None) is not None}

    def _param(self, p):
        return dict(p, default=self.writer.value(p['default'], f'the default of {p["name"]}'))


def _kind(obj):
    if isinstance(obj, Variable):
        return 'variable'
    for kind in (dict, list, tuple):
        if isinstance(obj, kind):
            return kind.__name__
    return 'object'


def _encode_outputs(structure, outputs, writer):
    positions = {id(t): i for i, t in enumerate(outputs)}

    def encode(value):
        if isinstance(value, GraphTensor):
            return {'t': 'out', 'v': positions[id(value)]}
        if is_composite(value) and type(value._type_spec).__name__ in SAVED_TYPE_SPECS:
            return {'t': 'composite', 'spec': writer.value(value._type_spec, 'an output'),
                    'v': [encode(t) for t in nest.flatten(value, expand_composites=True)]}
        if value is None:
            return {'t': 'py', 'v': None}
        if isinstance(value, dict):
            return {'t': 'dict', 'v': {str(k): encode(v) for k, v in value.items()}}
        if isinstance(value, (list, tuple)):
            return {'t': 'list' if isinstance(value, list) else 'tuple',
                    'v': [encode(v) for v in value]}
        raise ValueError(f'Cannot save a function returning {value!r:.80}')
    return encode(structure)


def _servable(concrete):
    """TF's test for a signature: it returns something, and only tensors (or composites)."""
    leaves = nest.flatten(concrete.structured_outputs)
    return bool(concrete.graph.outputs) and all(isinstance(t, GraphTensor) or is_composite(t)
                                                for t in leaves)


def _signature_trace(fn):
    # A function with an input_signature has that one trace; saving uses its save-context copy.
    return fn.concrete_functions_for_saving()[0]


def _default_signature(root):
    """As TF: the root's `_default_save_signature`, else its one servable function with an
    input_signature, else none."""
    found = []
    for name, fn in _functions_of(root):
        if not isinstance(fn, Function) or fn.input_signature is None:
            continue
        concrete = _signature_trace(fn)
        if name == '_default_save_signature':
            return concrete
        if _servable(concrete):
            found.append(concrete)
    return found[0] if len(found) == 1 else {}


def _signatures(root, signatures, saver):
    if signatures is None and isinstance(getattr(root, 'signatures', None), SignatureMap):
        signatures = {k: s.concrete_function for k, s in root.signatures.items()}  # a loaded root
    if signatures is None:
        signatures = _default_signature(root)
    if not isinstance(signatures, dict):
        signatures = {'serving_default': signatures}
    result = {}
    for key, fn in signatures.items():
        if isinstance(fn, Function) and fn.input_signature is not None:
            fn = _signature_trace(fn)
        if not isinstance(fn, ConcreteFunction):
            raise ValueError(f'Expected a TensorFlow function for which to generate a signature, '
                             f'but got {fn!r}. Only `tf.functions` with an input signature or '
                             'concrete functions can be used as a signature.')
        if not _servable(fn):
            raise ValueError(f'Signature {key!r}: {fn.name} must return one or more tensors (in '
                             f'a dict, a list or alone), got {fn.structured_outputs!r}.')
        result[str(key)] = saver.function_name(fn)
    return result


def save(obj, export_dir, signatures=None, options=None):
    """Saves `obj` (a tf.Module or other trackable object), its Variables and its traced
    tf.functions to the directory `export_dir`, as `tf.saved_model.save`."""
    if not isinstance(obj, AutoTrackable):
        raise ValueError(f'Expected an object of type `Trackable`, such as `tf.Module` or a '
                         f'subclass of the `Trackable` class, for export. Got {obj!r} with type '
                         f'{type(obj)}.')
    export_dir = os.fspath(export_dir)
    with context.init_scope():
        saver = _Saver(obj)
        objects = saver.encode_objects()
        signature_map = _signatures(obj, signatures, saver)
        values = {node['value']: o.numpy() for node, o in zip(saver.nodes, saver.objects)
                  if node['value'] is not None}
    document = {'format': FORMAT, 'version': VERSION, 'objects': objects,
                'library': saver.library, 'signatures': signature_map}
    text = json.dumps(document)
    os.makedirs(os.path.join(export_dir, 'variables'), exist_ok=True)
    checkpoint_format.write(variables_prefix(export_dir), saver.nodes, values)
    with open(constants_path(export_dir), 'wb') as f:
        np.savez(f, **saver.arrays)
    with open(graph_path(export_dir), 'w') as f:
        f.write(text)

