"""Facts the executor's line writers share: which kernels are Python operators (written as
`a + b`), and what an emitter says about values it keeps as Python ints (PythonInts).

Loop counters proven to stay in int32's range (control_flow/loop_counters.py) run as Python ints,
about ten times faster than numpy scalars; the executor gives every op that could tell the
difference (all but those reading the value only as an index, OpDef.index_inputs) an np.int32
copy instead.
"""
import operator

__all__ = ['INFIX', 'infix', 'PythonInts']


# Kernels that are Python operators are emitted as expressions (`a + b`): the same numpy call,
# without a Python-level call per op.
INFIX = {operator.add: '+', operator.sub: '-', operator.mul: '*', operator.truediv: '/',
          operator.floordiv: '//', operator.mod: '%', operator.pow: '**', operator.matmul: '@',
          operator.lt: '<', operator.le: '<=', operator.gt: '>', operator.ge: '>=',
          operator.and_: '&', operator.or_: '|', operator.xor: '^'}


def infix(op):
    """The Python operator ('+', '<', ...) that is exactly `op`'s kernel, or None."""
    if len(op.inputs) != 2 or op.attrs:
        return None
    return INFIX.get(op.opdef.graph_kernel)


class PythonInts:
    """What an emitter tells `inline` about values it keeps as Python ints (loop counters proven
    to stay in int32's range, see control_flow/loop_counters.py): `names`, input expressions that
    hold Python ints standing for int32 scalars; `ops`, ops of the graph written as the given
    Python expression instead (their result is a Python int or bool); `outputs`, positions of the
    outputs that may stay Python ints; `nonnegative`, names known to be >= 0 in this scope. Any
    other op reading such a value gets an np.int32 copy, unless it reads the value only as an index
    (OpDef.index_inputs)."""

    def __init__(self, names=(), ops=None, outputs=(), nonnegative=()):
        self.names, self.ops, self.outputs = set(names), dict(ops or {}), set(outputs)
        self.nonnegative = set(nonnegative)
