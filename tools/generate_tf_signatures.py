"""Writes defun/core/tf_signatures.py: TensorFlow's op signatures (the input and attribute lists of
each op's OpDef, as TF's op registry publishes them) for every op type defun's registry defines.

    python tools/generate_tf_signatures.py [--tf /work/tfenv/bin/python]

The op types come from this checkout's registry; the signatures from TensorFlow's
`op_def_registry`, read by a TensorFlow interpreter given with --tf (TensorFlow is never imported
into defun's own environment). Run it again when ops are added; the table is data, checked in.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

# Runs under TensorFlow: one JSON object, op type -> [inputs, attrs] in REGISTER_OP's spelling.
_DUMP = r'''
import json, os, sys
os.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'
from tensorflow.python.framework import op_def_registry, dtypes
from tensorflow.core.framework import types_pb2
def name(t):  # TF's DataTypeString spelling: float, double, half, int32, string...
    return types_pb2.DataType.Name(t)[3:].lower()
from tensorflow.python.framework import kernels
def cpu_kernel_types(op):  # type attribute -> the types TF's CPU kernels of `op` are registered for
    cpu = [{c.name: c.allowed_values.list.type for c in k.constraint}
           for k in kernels.get_registered_kernels_for_op(op).kernel
           if k.device_type == 'CPU' and not k.label]
    attrs = set().union(*cpu) if cpu else set()
    return {a: sorted({name(t) for named in cpu for t in named[a]}) for a in attrs
            if all(a in named for named in cpu)}
out = {}
for op in json.load(sys.stdin):
    od = op_def_registry.get(op)
    if od is None:
        continue
    inputs = []
    for a in od.input_arg:
        kind = a.type_attr or a.type_list_attr or name(a.type)
        inputs.append(f"{a.name}: {a.number_attr + ' * ' if a.number_attr else ''}{kind}")
    attrs = []
    for a in od.attr:
        if a.allowed_values.list.type:
            kind = '{' + ', '.join(name(t) for t in a.allowed_values.list.type) + '}'
        elif a.allowed_values.list.s:
            kind = '{' + ', '.join('"%s"' % s.decode() for s in a.allowed_values.list.s) + '}'
        else:
            kind = a.type
        attrs.append(f'{a.name}: {kind}' + (f' >= {a.minimum}' if a.has_minimum else ''))
    out[op] = [inputs, attrs, cpu_kernel_types(op)]
json.dump(out, sys.stdout)
'''

_KERNELS_HEADER = '''
# Where TF's CPU kernels of an op run fewer of defun's dtypes than its signature allows: type
# attribute -> the types they run (another allowed type is TF's NotFoundError eagerly, and its
# InvalidArgumentError from a function, "No OpKernel was registered to support Op ...").
CPU_KERNELS = {
'''

_HEADER = '''# ruff: noqa: E501  (one op a line: a table, generated)
"""TensorFlow's op signatures, derived from TensorFlow 2.21's published OpDefs (its op
registry) by tools/generate_tf_signatures.py, for the op types defun defines: op type ->
(inputs, attributes) in REGISTER_OP's spelling, read by core/op_schema.py. `define_op` takes an
op's signature from here unless its entry gives its own `inputs=` / `attrs=` (where defun's op
takes its inputs differently).

Generated: edit the generator, not this file. Type lists equal to one of TF's type classes are
written as the class (realnumbertype, numbertype); `type` is any type.
"""

__all__ = ['SIGNATURES', 'CPU_KERNELS']

SIGNATURES = {
'''


def _narrower_kernels(attrs, cpu):
    """Type attribute -> the types TF's CPU kernels run, where fewer of defun's dtypes than the
    signature allows (Rint's signature takes half, its CPU kernels float and double only)."""
    from defun.core import dtypes
    from defun.core.op_schema import spelled_types
    from defun.core.schema_messages import tf_name
    ours = {tf_name(d) for d in dtypes.ALL} - {'resource', 'variant'}  # not data
    out = {}
    for spec in attrs:
        attr, _, kind = spec.partition(': ')
        allowed = spelled_types(kind)
        if attr not in cpu or allowed is None:
            continue
        runs = [t for t in allowed if t in ours and t in cpu[attr]]
        if len(runs) < len([t for t in allowed if t in ours]):
            out[attr] = ', '.join(runs)
    return out


def _classes():
    from defun.core.op_schema import TYPE_CLASSES
    return {'{' + v + '}': k for k, v in TYPE_CLASSES.items() if k != 'type'}


def _entry(op, inputs, attrs, classes):
    attrs = [_short(a, classes) for a in attrs]
    return f'    {op!r}: ({_tuple(inputs)}, {_tuple(attrs)}),'


def _short(attr, classes):
    name, _, kind = attr.partition(': ')
    for spelled, cls in classes.items():
        if kind == spelled or kind.startswith(spelled + ' '):
            return f'{name}: {cls}{kind[len(spelled):]}'
    return attr


def _tuple(items):
    return '(' + ''.join(f'{s!r}, ' for s in items).rstrip(' ') + ')' if items else '()'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--tf', default='/work/tfenv/bin/python')
    opts = parser.parse_args()
    from defun.core import registry
    import defun  # noqa: F401  (every table registers its ops)
    ops = sorted(op.type for op in registry.registered_ops())
    dumped = subprocess.run([opts.tf, '-c', _DUMP], input=json.dumps(ops), capture_output=True,
                            text=True, check=True)
    table = json.loads(dumped.stdout)
    classes = _classes()
    lines = [_entry(op, *table[op][:2], classes) for op in sorted(table)]
    kernels = [f'    {op!r}: {narrower!r},' for op in sorted(table)
               for narrower in [_narrower_kernels(*table[op][1:])] if narrower]
    path = os.path.join(ROOT, 'defun', 'core', 'tf_signatures.py')
    with open(path, 'w') as f:
        f.write(_HEADER + '\n'.join(lines) + '\n}\n' + _KERNELS_HEADER + '\n'.join(kernels)
                + '\n}\n')
    print(f'{len(table)} of {len(ops)} op types have a TensorFlow OpDef; written to {path}')


if __name__ == '__main__':
    main()
