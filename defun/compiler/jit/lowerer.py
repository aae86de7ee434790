"""The Lowerer: writes graph ops as the body of a numba function, each op by its OpDef's `lowering`.

Values of rank 0 are numba scalars and every other value an array; numba's scalar arithmetic
widens integers (int32 + int32 is int64) and Python float literals are float64, so each scalar
result is pinned to the op's dtype (`np.float32(...)`, `np.int32(...)`; no cost in machine code)
and constants are written typed: the generated code computes in exactly TF's dtypes. Runs of
elementwise ops over arrays become one loop over the elements (fusion.py); other array ops are
written by their lowering (a loop nest for MatMul, a checked index for a row read). Inside a native
loop, arrays are allocated before the loop where the aliasing allows it (Lowerer.allocate), and
lowerings may call numerical helpers written into the module (native_math.py).

An op the lowerer cannot write raises NotLowerable with the reason, which the partitioner
records (the op runs in the numpy tier) and the compiler report shows.
"""
import builtins
import keyword

import numpy as np

from defun.compiler.jit import fusion, native_math
from defun.compiler.keys import python_identifier
from defun.core import dtypes

__all__ = ['Lowerer', 'NotLowerable', 'NumpyIsFaster', 'HostValue', 'Repeated', 'SUPPORTED_KINDS']

# numba's number types: bool, signed and unsigned ints, float32/float64 (no float16, no complex
# here: numba has them, but TF's complex rules are not lowered).
SUPPORTED_KINDS = 'biuf'
# Arrays up to this many elements get transcendental functions natively outside loops (the call
# overhead numpy pays per op is what fusion saves there); larger ones stay with numpy's SIMD.
VECTOR_MATH_UP_TO = 4096


class NotLowerable(Exception):
    """An op, or a case of an op, the native tier does not write (the message says why)."""


class HostValue:
    """An input native code cannot hold (a variable's resource handle): only an op that merely
    reads it (OpDef.reads_only, a variable read) may use it, and that read runs in Python just
    before the native call, its value passed in. Inside a native loop this is the hoisting of a
    loop-invariant read: the loop writes no state (any writing op stops its lowering), so one
    read before the loop sees what every iteration would."""

    __slots__ = ('feed',)

    def __init__(self, feed):
        self.feed = feed


class Repeated:
    """A loop's stack of a value the same in every iteration (a parameter of the native code):
    never copied per iteration; the wrapper returns it as a broadcast view of `count` rows, as
    the numpy tier does (while_runner.repeat_value), or its rows' shapes (`shapes`)."""

    __slots__ = ('value', 'count', 'dims', 'shapes')

    def __init__(self, value, count, dims, shapes):
        self.value, self.count, self.dims, self.shapes = value, count, dims, shapes


class NumpyIsFaster(NotLowerable):
    """An op numpy runs faster than numba would (a transcendental function on a large array)."""


class Lowerer:
    """Source lines of one native function, and what its parameters are fed.

    `params`: the function's parameter names; `feeds`: for each, ('input', k), the cluster's
    k-th input, or ('value', array), an array constant passed in on every call (constants stay
    out of the source, which is shared by every graph with the same code).
    """

    NotLowerable = NotLowerable
    Repeated = Repeated

    def __init__(self):
        self.used = set(keyword.kwlist) | set(dir(builtins)) | {'np', 'numba', 'math'}
        self.used |= set(native_math.SOURCES)
        self.params, self.feeds = [], []
        self.helpers = []       # native_math functions the code calls, in first-use order
        self.depth = 0          # loop nesting of the op being written
        self._used_stack = []   # per graph being written: ids of the tensors something reads
        self._escaping = []     # per sub-graph being inlined: ids of its outputs' tensors
        self._alternating = []  # per sub-graph being inlined: ids of values for two buffers
        self._hoisted = []      # per native loop being written: _LoopAllocations

    # -- names and literals
    def fresh(self, hint):
        base = python_identifier(hint)
        name, n = base, 1
        while name in self.used:
            name, n = f'{base}_{n}', n + 1
        self.used.add(name)
        return name

    def input(self, tensor, feed):
        """The expression of an input of the native code: a parameter, or a HostValue for a
        resource handle."""
        if tensor.dtype.name == 'resource':
            return HostValue(feed)
        return self.param(tensor.op.name, feed)

    def host_read(self, op, ins):
        """A parameter fed by running reads_only `op` on host values before the call."""
        feeds = [x.feed for x in ins]
        if any(kind != 'input' for kind, _ in feeds):
            raise NotLowerable(f'{op.type} {op.name!r}: reads a value computed natively')
        out = op.outputs[0]
        self.check_value(out, op)
        name = self.param(op.name, ('host', (op.opdef.graph_kernel, dict(op.attrs),
                                             [k for _, k in feeds])))
        return name

    def transposed(self, name):
        """For a matrix parameter `name` (loop-invariant by nature), a parameter holding its
        transpose as a C-contiguous array, made once per call by the wrapper (column reads then
        run along memory); None when `name` is computed natively."""
        if name not in self.params:
            return None
        key = ('transposed', self.params.index(name))
        if key not in self.feeds:
            self.param(f'{name}_T', key)
        return self.params[self.feeds.index(key)]

    def param(self, hint, feed):
        name = self.fresh(hint)
        self.params.append(name)
        self.feeds.append(feed)
        return name

    @staticmethod
    def dtype(value):
        """The numpy type's source for a tensor or DType ('np.float32', 'np.bool_')."""
        dtype = getattr(value, 'dtype', value)
        name = dtype.np_dtype.name
        return 'np.bool_' if name == 'bool' else f'np.{name}'

    def literal(self, value, dtype):
        """A scalar constant as typed source text."""
        value = np.asarray(value).item()
        if isinstance(value, bool):
            return repr(value)
        if isinstance(value, float) and not np.isfinite(value):
            value = 'np.nan' if np.isnan(value) else ('np.inf' if value > 0 else '-np.inf')
        else:
            value = repr(value)
        return f'{self.dtype(dtype)}({value})'

    @staticmethod
    def pin(text, tensor):
        """`text` as the tensor's dtype when it is a scalar (numba widens scalar arithmetic)."""
        if tensor.shape.rank == 0:
            return f'{Lowerer.dtype(tensor)}({text})'
        return text

    def helper(self, name):
        """The name of native_math function `name`, whose source the module then includes."""
        if name not in self.helpers:
            self.helpers.append(name)
        return name

    def vector_math(self, op, fn, ins, float32=None):
        """`fn(ins...)` (a transcendental function) where numba gains: on scalars, inside a
        native loop, or on small arrays. A large array outside any loop is left to numpy, whose
        SIMD loops are several times faster than numba's libm call per element (llvmlite's
        wheels have no SVML)."""
        out = op.outputs[0]
        size = out.shape.num_elements()
        if out.shape.rank and self.depth == 0 and (size is None or size > VECTOR_MATH_UP_TO):
            raise NumpyIsFaster(
                f'{op.type} {op.name!r} on {size or "an unknown number of"} elements outside a loop: '
                f"numpy's vectorised {fn} is faster than numba's scalar one")
        if float32 and out.dtype.np_dtype == np.float32:
            fn = self.helper(float32)
        return f'{fn}({", ".join(ins)})'

    # -- allocations
    def allocate(self, tensor, hint, dims, dtype=None):
        """(name, lines) of a new array of static `dims` for a value of `tensor`. Inside a native
        loop, unless the value leaves the graph being written (a branch's result...), the array
        is allocated once before the loop and reused by every iteration (the value is dead at
        the iteration's end), and `lines` is empty. A value that leaves only as one loop
        variable alternates between two arrays allocated before the loop: the variable's
        previous value, in the other one, stays readable until it is replaced."""
        name = self.fresh(hint)
        line = f'{name} = np.empty({tuple(dims)!r}, {dtype or self.dtype(tensor)})'
        if not (self._hoisted and self._escaping):
            return name, [line]
        loop = self._hoisted[-1]
        if id(tensor) not in self._escaping[-1]:
            loop.lines.append(line)
            return name, []
        if id(tensor) in self._alternating[-1]:
            pair = [self.fresh(f'{name}_{k}') for k in 'ab']
            loop.lines += [line.replace(name, pair[0], 1), line.replace(name, pair[1], 1)]
            return name, [f'{name} = {pair[0]} if {loop.count} % 2 == 0 else {pair[1]}']
        return name, [line]

    def loop_allocations(self, count):
        """A context for writing the graphs of a native loop counting its iterations in `count`:
        the allocations it gathers (`.lines`) go before the loop."""
        return _LoopAllocations(self, count)

    # -- what gets written
    def check_value(self, tensor, op):
        if tensor.dtype in dtypes.LOW_PRECISION_TYPES or \
                tensor.dtype.np_dtype.kind not in SUPPORTED_KINDS:  # no native bfloat16: numpy's
            raise NotLowerable(f'{op.type} {op.name!r}: dtype {tensor.dtype.name} is not lowered')
        if tensor.shape.rank is None:
            raise NotLowerable(f'{op.type} {op.name!r}: unknown rank')

    def is_used(self, tensor):
        """Whether something in the graph being written (or its result) reads `tensor`."""
        return id(tensor) in self._used_stack[-1]

    def checked_lowering(self, op):
        """The op's lowering (a template or a function) after checking that it applies."""
        opdef = op.opdef
        if op.control_inputs:
            raise NotLowerable(f'{op.type} {op.name!r}: has control dependencies')
        if opdef.lowering is None:
            raise NotLowerable(f'{op.type}: no lowering')
        passes_handles = _runs_subgraphs(op)   # control flow hands them to its graphs
        for t in list(op.inputs) + list(op.outputs):
            if not (passes_handles and t.dtype.name == 'resource'):
                self.check_value(t, op)
        lowering = opdef.lowering
        if isinstance(lowering, tuple):
            lowering, kinds = lowering
            wrong = [t.dtype.name for t in op.inputs if t.dtype.np_dtype.kind not in kinds]
            if wrong:
                raise NotLowerable(f'{op.type} {op.name!r}: not lowered for dtype {wrong[0]}')
        return lowering

    def lower_op(self, op, names):
        """The lines writing `op` (its input expressions in `names`, keyed by id of tensor);
        records its outputs' expressions in `names`."""
        opdef = op.opdef
        if not op.inputs and opdef.fold is not None and not opdef.stateful:
            value = np.asarray(opdef.fold(op))
            t = op.outputs[0]
            self.check_value(t, op)
            names[id(t)] = (self.literal(value, t.dtype) if value.ndim == 0 else
                            self.param(op.name, ('value', value)))
            return []
        if opdef.is_identity and not op.control_inputs:
            names[id(op.outputs[0])] = names[id(op.inputs[0])]
            return []
        ignored = _ignored_inputs(op)
        ins = [None if k in ignored else names[id(t)] for k, t in enumerate(op.inputs)]
        if any(isinstance(n, HostValue) for n in ins) and not _runs_subgraphs(op):
            if not (opdef.reads_only and all(isinstance(n, HostValue) for n in ins)):
                raise NotLowerable(f'{op.type} {op.name!r}: uses a resource natively')
            names[id(op.outputs[0])] = self.host_read(op, ins)
            return []
        lowering = self.checked_lowering(op)
        if any(not isinstance(n, str) for k, n in enumerate(ins) if k not in ignored) and \
                not _runs_subgraphs(op) and \
                not getattr(lowering, 'takes_repeated', False):
            raise NotLowerable(f'{op.type} {op.name!r}: reads a value the native code does not keep')
        if isinstance(lowering, str):
            result = lowering.format(*ins, dtype=self.dtype(op.outputs[0]))
        else:
            result = lowering(op, ins, self)
        if isinstance(result, str):
            out = self.fresh(op.name)
            names[id(op.outputs[0])] = out
            return [f'{out} = {self.pin(result, op.outputs[0])}']
        lines, outs = result
        for t, o in zip(op.outputs, outs):
            names[id(t)] = o
        return lines

    def inline(self, graph, input_exprs, outputs, carried=0):
        """(lines, output expressions) computing `outputs` of sub-graph `graph` from its inputs
        fed `input_exprs` (a loop's body, a branch): only the ops the outputs need, which must
        all be lowerable and free of state. For a loop's body, the first `carried` outputs are
        its loop variables, and the others are copied (into stacks) as soon as computed."""
        names = {id(ph): e for ph, e in zip(graph.inputs, input_exprs)}
        needed = _needed(graph, outputs)
        self._escaping.append(_escaping(outputs))
        self._alternating.append(_alternating(outputs, carried))
        for o in graph.get_operations():
            if o.opdef.stateful and not o.opdef.reads_only and \
                    (o not in needed or not o.opdef.lowering):
                raise NotLowerable(f'{o.type} {o.name!r} in {graph.name!r}: changes or reads state')
        ops = [o for o in graph.get_operations() if o in needed and not o.opdef.is_placeholder]
        try:
            lines = self.lower_ops(ops, names, {id(t) for t in outputs})
        finally:
            self._escaping.pop()
            self._alternating.pop()
        outs = [names[id(t)] for t in outputs]
        if any(not isinstance(n, str) for n in outs):
            raise NotLowerable(f'{graph.name!r}: an output the native code does not keep')
        return lines, outs

    def lower_ops(self, ops, names, results):
        """The lines of `ops` (in order; runs of elementwise ops fused into loops, fusion.py);
        `results`: ids of the tensors read after them."""
        runs = fusion.groups(ops)
        readers = {}
        for k, op in enumerate(op for group in runs for op in group):
            for t in op.inputs:
                readers.setdefault(id(t), []).append(k)
        self._used_stack.append(set(results) | set(readers))
        try:
            lines, position = [], 0
            for group in runs:
                end = position + len(group)
                if any(not op.opdef.is_identity for op in group) and fusion.fusable(group[0]):
                    for op in group:
                        if not op.opdef.is_identity:
                            self.checked_lowering(op)

                    def read_after(t, end=end):
                        return id(t) in results or any(k >= end for k in readers.get(id(t), ()))
                    lines += fusion.write_group(self, group, names, read_after)
                else:
                    for op in group:
                        lines += self.lower_op(op, names)
                position = end
            return lines
        finally:
            self._used_stack.pop()


def _runs_subgraphs(op):
    return any(hasattr(v, 'get_operations') for v in op.attrs.values())


class _LoopAllocations:
    def __init__(self, lowerer, count):
        self.lowerer, self.count, self.lines = lowerer, count, []

    def __enter__(self):
        self.lowerer._hoisted.append(self)
        return self

    def __exit__(self, *exc):
        self.lowerer._hoisted.pop()


def _escaping(outputs):
    """Ids of `outputs` and of every tensor one of them may be the same array as: walking back
    through any op but those that write a new array (elementwise templates and functions, and
    lowerings marked `fresh`), since a view, a reshape, a loop or a branch may hand its input
    through unchanged."""
    ids, stack = set(), list(outputs)
    while stack:
        t = stack.pop()
        if id(t) in ids:
            continue
        ids.add(id(t))
        lowering = t.op.opdef.lowering
        if isinstance(lowering, tuple):
            lowering = lowering[0]
        if not (isinstance(lowering, str) or getattr(lowering, 'elementwise', False)
                or getattr(lowering, 'fresh', False)):
            stack.extend(t.op.inputs)
    return ids


def _alternating(outputs, carried):
    """Ids of the values that leave a loop's body only as one loop variable (among the first
    `carried` outputs; the others are copied): each may alternate between two arrays."""
    if not carried:
        return set()
    seen, twice = set(), set()
    for t in outputs[:carried]:
        reach = _escaping([t])
        twice |= seen & reach
        seen |= reach
    return seen - twice


def _ignored_inputs(op):
    """Positions of the inputs `op`'s lowering never reads: those its lowering's `shape_inputs`
    names (a Reshape's target shape, known when built), so the ops computing them (shape
    plumbing in a gradient loop's body: Shape, StridedSlice, ConcatV2) need no lowering."""
    lowering = op.opdef.lowering
    if isinstance(lowering, tuple):
        lowering = lowering[0]
    positions = getattr(lowering, 'shape_inputs', ())
    if positions and op.outputs and op.outputs[0].shape.is_fully_defined():
        return positions
    return ()


def _needed(graph, outputs):
    """The ops of `graph` the outputs depend on."""
    needed, stack = set(), [t.op for t in outputs]
    while stack:
        op = stack.pop()
        if op in needed:
            continue
        needed.add(op)
        ignored = _ignored_inputs(op)
        stack.extend(t.op for k, t in enumerate(op.inputs) if k not in ignored)
        stack.extend(op.control_inputs)
    return needed


def indent(lines, prefix='    '):
    return [prefix + line for line in lines]
