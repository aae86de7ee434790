"""HotCall: what Function.__call__'s hot path needs of one memoized trace, read in one place, and
the call that runs it with no key hashing (function.py keeps the one-argument case inline).
"""
from defun.core.tensor import EagerTensor

__all__ = ['HotCall', 'MISS']

_new_tensor = object.__new__  # skips EagerTensor.__init__'s frame on the hot path

MISS = object()   # HotCall.call's answer for arguments its trace does not take


class HotCall:
    """What __call__'s hot path needs of one memoized trace, read in one place: the arguments'
    numpy dtypes and shapes, the generated function's callable and captured arrays, and whether
    its result is one non-string tensor (wrapped without EagerTensor's constructor)."""

    __slots__ = ('arity', 'dtype', 'shape', 'dtypes', 'shapes', 'callable', 'captured', 'bare',
                 'concrete')

    def __init__(self, key, concrete):
        # key: the arguments' numpy (dtype, shape) pairs, flat (trace_leaves.positional_key)
        self.dtypes, self.shapes = key[0::2], key[1::2]
        self.arity = len(self.dtypes)
        self.dtype, self.shape = (key[0], key[1]) if key else (None, None)
        self.callable = concrete.callable   # read `.fn` per call: a big graph compiles on call 2
        self.captured = concrete.captured_arrays
        self.bare = concrete.single_output and concrete.graph.outputs[0].dtype.name != 'string'
        self.concrete = concrete

    def call(self, args):
        """The result for `args` (eager tensors matching the trace, else MISS)."""
        arrays = []
        for arg, dtype, shape in zip(args, self.dtypes, self.shapes):
            if arg.__class__ is not EagerTensor:
                return MISS
            array = arg.array
            if array.dtype is not dtype or array.shape != shape:
                return MISS
            arrays.append(array)
        try:
            out = self.callable.fn(*arrays, *self.captured)
        except Exception as exc:
            raise self.concrete.call_error(list(args), exc) from None
        if self.bare:
            result = _new_tensor(EagerTensor)
            result.array = out[0]
            return result
        return self.concrete.pack_arrays(out)
