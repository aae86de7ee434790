"""CallPlan: the one fast path of a compiled call, built and owned by a ConcreteFunction.

A plan is made for one trace and one kind of call: eager tensors passed positionally with the
numpy dtypes and shapes the trace was made for (trace_leaves.positional_key). `call` checks the
arguments against them, runs the generated function on their arrays and the captured arrays, turns
a failure into the error the call op would raise, and packs the result into the structure the
Python function returned. Everything else (other arguments, recording tapes, graphs) goes through
`ConcreteFunction.call_flat` and the call op.
"""
from defun.core.tensor import EagerTensor

__all__ = ['CallPlan', 'MISS']

_new_tensor = object.__new__  # skips EagerTensor.__init__'s frame on the hot path

MISS = object()   # CallPlan.call's answer for arguments its trace does not take


class CallPlan:
    """One trace's fast call: argument check, generated-code call, error wrapping, result packing."""

    __slots__ = ('arity', 'dtypes', 'shapes', 'dtype', 'shape', 'callable', 'captured', 'bare',
                 'concrete')

    def __init__(self, concrete, key):
        # key: the arguments' numpy (dtype, shape) pairs, flat (trace_leaves.positional_key)
        self.dtypes, self.shapes = key[0::2], key[1::2]
        self.arity = len(self.dtypes)
        # The one argument's dtype and shape (None for other arities, so that no one-argument
        # call matches).
        self.dtype, self.shape = (key[0], key[1]) if self.arity == 1 else (None, None)
        self.callable = concrete.callable   # read `.fn` per call: a big graph compiles on call 2
        self.captured = concrete.captured_arrays
        # One non-string tensor out: wrapped without EagerTensor's constructor.
        self.bare = concrete.single_output and concrete.graph.outputs[0].dtype.name != 'string'
        self.concrete = concrete

    def call(self, args):
        """The result for `args` (eager tensors matching the trace), else MISS."""
        if len(args) == 1:  # the usual case, checked without a loop (dtype is None unless arity 1)
            array = args[0].array if args[0].__class__ is EagerTensor else None
            if array is None or array.dtype is not self.dtype or array.shape != self.shape:
                return MISS
            arrays = None
        else:
            arrays = self._arrays(args)
            if arrays is None:
                return MISS
        try:
            if arrays is not None:
                out = self.callable.fn(*arrays, *self.captured)
            elif self.captured:
                out = self.callable.fn(array, *self.captured)
            else:   # a plain positional call: faster than unpacking an empty tuple
                out = self.callable.fn(array)
        except Exception as exc:
            raise self.concrete.call_error(list(args), exc) from None
        if self.bare:
            result = _new_tensor(EagerTensor)
            result.array = out[0]
            return result
        return self.concrete.pack_arrays(out)

    def _arrays(self, args):
        """The arrays of `args` when they are eager tensors of the trace's dtypes and shapes."""
        if len(args) != self.arity:
            return None
        arrays = []
        for arg, dtype, shape in zip(args, self.dtypes, self.shapes):
            if arg.__class__ is not EagerTensor:
                return None
            array = arg.array
            if array.dtype is not dtype or array.shape != shape:
                return None
            arrays.append(array)
        return arrays
