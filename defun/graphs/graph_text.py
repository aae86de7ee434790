"""Readable forms of a graph: a GraphDef-like structure (JSON-serialisable), a text listing with one
line per op (nested branch and body graphs indented under their op), and Graphviz DOT text."""
import json

import numpy as np

__all__ = ['NodeDef', 'GraphDef', 'node_def', 'graph_def', 'as_text', 'as_dot']


class NodeDef:
    """name, op, input ('op' for an op's first output, 'op:index' for the others, '^op' for
    control inputs, as in TF's GraphDef) and attr of one node."""

    __slots__ = ('name', 'op', 'input', 'attr')

    def __init__(self, name, op, input, attr):
        self.name, self.op, self.input, self.attr = name, op, input, attr

    def to_dict(self):
        return {'name': self.name, 'op': self.op, 'input': list(self.input), 'attr': self.attr}

    def __repr__(self):
        return f'NodeDef({self.to_dict()!r})'


class GraphDef:
    __slots__ = ('node',)

    def __init__(self, node):
        self.node = node

    def to_dict(self):
        return {'node': [n.to_dict() for n in self.node]}

    def to_json(self, **kwargs):
        return json.dumps(self.to_dict(), **kwargs)

    def __repr__(self):
        return f'GraphDef({len(self.node)} nodes)'


def _attr_value(value):
    """A JSON-friendly rendering of an attr value."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        array = np.asarray(value)
        if array.dtype.kind == 'c':
            return {'real': array.real.tolist(), 'imag': array.imag.tolist()}
        if array.size > 64:
            return {'shape': list(array.shape), 'dtype': str(array.dtype)}
        return array.tolist() if array.dtype.kind != 'O' else [str(v) for v in array.flat]
    if isinstance(value, (list, tuple)):
        return [_attr_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _attr_value(v) for k, v in value.items()}
    name = getattr(value, 'name', None)
    if isinstance(name, str):
        return name
    return repr(value)


def _input_name(t):
    return t.name if hasattr(t, 'op') and hasattr(t, 'value_index') else repr(t)


def _node_input(t):
    # A GraphDef names an op's first output by the op's name alone ('a', then 'a:1', ...).
    if hasattr(t, 'op') and getattr(t, 'value_index', None) == 0:
        return t.op.name
    return _input_name(t)


def node_def(op):
    inputs = [_node_input(t) for t in op.inputs] + ['^' + c.name for c in op.control_inputs]
    return NodeDef(op.name, op.type, inputs, {k: _attr_value(v) for k, v in op.attrs.items()})


def graph_def(graph):
    return GraphDef([node_def(op) for op in graph.get_operations()])


def _spec(t):
    dims = t.shape.as_tuple()
    shape = '?' if dims is None else '[' + ','.join('?' if d is None else str(d) for d in dims) + ']'
    return f'{t.dtype.name}{shape}'


def _subgraphs(op):
    return [(k, v) for k, v in op.attrs.items() if hasattr(v, 'get_operations')]


def _shown_outputs(op, read):
    """The outputs a view lists: all, but for an op declaring intermediates for its gradients
    (OpDef.own_outputs) only its own outputs and the intermediates something reads."""
    own = op.opdef.own_outputs
    if own is None:
        return op.outputs
    n = own(op)
    return [t for i, t in enumerate(op.outputs) if i < n or id(t) in read]


def _read_ids(graph):
    return {id(t) for op in graph.get_operations() for t in op.inputs}


def as_text(graph, indent=''):
    lines = []
    read = _read_ids(graph)
    for op in graph.get_operations():
        outs = ', '.join(f'{t.name}: {_spec(t)}' for t in _shown_outputs(op, read)) or '()'
        ins = ', '.join(_input_name(t) for t in op.inputs)
        ctrl = ''.join(f', ^{c.name}' for c in op.control_inputs)
        lines.append(f'{indent}{outs} = {op.type}({ins}{ctrl})')
        for key, sub in _subgraphs(op):
            lines.append(f'{indent}  {key}:')
            lines.append(as_text(sub, indent + '    '))
    return '\n'.join(line for line in lines if line)


def as_dot(graph):
    lines = ['digraph G {', '  node [shape=box, fontname="monospace"];']
    read = _read_ids(graph)
    for op in graph.get_operations():
        label = [op.name, op.type]
        if op.outputs:
            label.append(', '.join(_spec(t) for t in _shown_outputs(op, read)))
        # Every id and label is a quoted DOT string with its own escapes: names are the user's.
        lines.append(f'  {_dot_id(op.name)} [label={_dot_id(chr(10).join(label))}];')
        for t in op.inputs:
            if hasattr(t, 'op'):
                lines.append(f'  {_dot_id(t.op.name)} -> {_dot_id(op.name)};')
        for c in op.control_inputs:
            lines.append(f'  {_dot_id(c.name)} -> {_dot_id(op.name)} [style=dashed];')
    lines.append('}')
    return '\n'.join(lines)


def _dot_id(text):
    """`text` as a DOT double-quoted string: backslashes and quotes escaped, line breaks as \\n
    (so no name can end the string, add attributes or start a statement)."""
    escaped = str(text).replace('\\', '\\\\').replace('"', '\\"')
    escaped = escaped.replace('\r', '').replace('\n', '\\n')
    return f'"{escaped}"'
