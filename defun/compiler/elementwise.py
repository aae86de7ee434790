"""Elementwise chains in the executor's generated code: no fresh temporary where a dead one will do,
and long chains over large arrays evaluated block by block, in pieces that stay in cache.

An op is a *ufunc step* when its kernel is a numpy ufunc (or the Python operator of one) with one
output, no attrs, statically known shapes (the output's of rank >= 1 and at least REUSE_MIN_BYTES),
and numpy's own loop for the operands' dtypes yields the op's dtype (so `out=` never casts). Such
an op writes a freshly allocated array that nothing else can see, so once every reader of it is a
ufunc step (none took a view) and it is not returned, its buffer may be written again after its
last read. Only an operand of exactly the output's shape is ever written into, and runs with
operands broadcast other than scalars are not blocked:

- `rewrite_with_buffers` turns `mul_1 = Exp * Sin` into `mul_1 = np.multiply(Exp, Sin, out=Exp)`
  when `Exp` dies there. Inputs, constants, Variable reads and anything returned are never written:
  they are not ufunc steps' outputs, or are read elsewhere.
- A run of consecutive ufunc steps of one shape over at least BLOCK_MIN_BYTES becomes one loop over
  blocks of BLOCK_BYTES: operands are sliced per block, values used only inside the run live in a
  few block-sized scratch buffers (reused as above), and values needed after it (or returned) are
  written block by block into their full arrays. Elementwise loops compute each element alone, so
  the results are those of the unblocked code, bit for bit, with the same dtypes.

The analysis runs when the source is written (never on the first, interpreted call of a big graph).
"""
import operator
import re

import numpy as np

from defun.core import dtypes

__all__ = ['rewrite_with_buffers', 'REUSE_MIN_BYTES', 'BLOCK_BYTES', 'BLOCK_MIN_BYTES']

# Python operators the executor writes as infix expressions, and the ufunc each applies to ndarrays.
# (`**` is left out: ndarray.__pow__ special-cases some exponents, so it is not always np.power.)
_OPERATOR_UFUNCS = {operator.add: np.add, operator.sub: np.subtract, operator.mul: np.multiply,
                    operator.truediv: np.true_divide, operator.floordiv: np.floor_divide,
                    operator.mod: np.remainder, operator.lt: np.less, operator.le: np.less_equal,
                    operator.gt: np.greater, operator.ge: np.greater_equal,
                    operator.and_: np.bitwise_and, operator.or_: np.bitwise_or,
                    operator.xor: np.bitwise_xor}

# Smaller values are written fresh: numpy allocates them from its cache as cheaply (and the
# plain line reads better).
REUSE_MIN_BYTES = 1 << 12
# Each block array is at most this big (2-4 of them, with the operands' slices, fit in L2), and
# runs over arrays smaller than BLOCK_MIN_BYTES are not blocked (they stay in cache anyway).
BLOCK_BYTES = 1 << 18
BLOCK_MIN_BYTES = 1 << 20

_IDENTIFIER = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')


class _Step:
    """One ufunc step: chunk index, op, ufunc, operand names and their kinds ('full': the output's
    shape, 'scalar', or 'broadcast')."""

    __slots__ = ('index', 'op', 'ufunc', 'operands', 'kinds', 'out', 'dtype', 'shape', 'size')

    def __init__(self, index, op, ufunc, operands, kinds, out):
        self.index, self.op, self.ufunc = index, op, ufunc
        self.operands, self.kinds, self.out = operands, kinds, out
        self.dtype = op.outputs[0].dtype.np_dtype
        self.shape = op.outputs[0].shape.as_tuple()
        self.size = op.outputs[0].shape.num_elements()


def _step(index, op, operand_names, out_names):
    """The ufunc step of this emitted op, or None when it is not one."""
    kernel = op.opdef.graph_kernel
    ufunc = kernel if isinstance(kernel, np.ufunc) else _OPERATOR_UFUNCS.get(kernel)
    if ufunc is None or ufunc.signature is not None or ufunc.nout != 1 or \
            ufunc.nin != len(op.inputs) or op.attrs or len(out_names) != 1 or \
            op.opdef.emit is not None or op.opdef.stateful:
        return None
    shape, out_dtype = op.outputs[0].shape, op.outputs[0].dtype.np_dtype
    size = shape.num_elements()
    if size is None or shape.rank == 0 or size * out_dtype.itemsize < REUSE_MIN_BYTES:
        return None  # unknown, scalar or too small to gain (and the commonest case: cheap)
    kinds = []
    for t in op.inputs:
        if t.shape.is_fully_defined() and t.shape.as_tuple() == shape.as_tuple():
            kinds.append('full')
        elif t.shape.rank == 0:
            kinds.append('scalar')
        elif t.shape.is_fully_defined():
            kinds.append('broadcast')  # never written into, and never blocked
        else:
            return None
    in_dtypes = tuple(t.dtype.np_dtype for t in op.inputs)
    if not all(d.kind in 'biufc' and d not in dtypes.LOW_PRECISION
               for d in in_dtypes + (out_dtype,)):
        return None  # strings and objects: not plain numbers; bfloat16 runs widened
    try:
        resolved = ufunc.resolve_dtypes(in_dtypes + (None,))
    except (TypeError, ValueError):
        return None
    if resolved != in_dtypes + (out_dtype,):
        return None  # numpy would cast an operand or the result: leave the plain line
    return _Step(index, op, ufunc, operand_names(op), kinds, out_names[0])


class _Plan:
    """Who reads what, for the chunks of one generated function."""

    def __init__(self, builder, keep):
        self.builder = builder
        self.chunks = builder.chunks
        self.steps = {}
        for i, (_, op, ins, outs) in enumerate(self.chunks):
            if op.opdef.emit is None and len(ins) in (1, 2):
                step = _step(i, op, builder.operand_names, outs)
                if step is not None:
                    self.steps[i] = step
        if not self.steps:
            return
        self.readers = {}
        for i, (_, _, ins, _) in enumerate(self.chunks):
            for n in ins:
                self.readers.setdefault(n, []).append(i)
        # Names appearing in any line that is not a ufunc step's (emitters, sub-graphs, the
        # return): their buffers are never written, whatever reads them.
        self.elsewhere = set(keep)
        for i in range(len(self.chunks)):
            if i not in self.steps:
                for text, _ in self.lines_of(i):
                    self.elsewhere.update(_IDENTIFIER.findall(text))
        self.produced = {s.out: s for s in self.steps.values()}

    def lines_of(self, i):
        start = self.chunks[i - 1][0] if i else 0
        return self.builder.lines_with_ops[start:self.chunks[i][0]]

    def writable(self, name):
        """True when `name` is a ufunc step's own fresh array that only ufunc steps read."""
        return name in self.produced and name not in self.elsewhere and all(
            r in self.steps for r in self.readers.get(name, ()))

    def last_read(self, name):
        readers = self.readers.get(name)
        return readers[-1] if readers else None

    def dead_here(self, step):
        """The full-shape operands of `step` that are writable and read for the last time here."""
        seen = []
        for n, kind in zip(step.operands, step.kinds):
            if kind == 'full' and n not in seen and self.writable(n) and \
                    self.last_read(n) == step.index:
                seen.append(n)
        return seen

    def runs(self):
        """Maximal runs of consecutive ufunc steps of one shape, large enough to block."""
        runs, current = [], []
        for i in range(len(self.chunks)):
            step = self.steps.get(i)
            if step is not None and 'broadcast' in step.kinds:
                step = None  # a block of the output is not a slice of such an operand
            if current and (step is None or step.shape != current[-1].shape):
                runs.append(current)
                current = []
            if step is not None:
                current.append(step)
        if current:
            runs.append(current)
        return [r for r in runs if len(r) >= 2 and
                r[0].size * max(s.dtype.itemsize for s in r) >= BLOCK_MIN_BYTES]


def rewrite_with_buffers(builder, keep):
    """The generated function's lines as segments (lines, op, names read, names defined), one per
    chunk, with ufunc steps writing into dead buffers and long runs of them blocked."""
    plan = _Plan(builder, keep)
    if not plan.steps:
        return [(plan.lines_of(i), op, ins, outs) for i, (_, op, ins, outs) in enumerate(plan.chunks)]
    blocked = {r[0].index: r for r in plan.runs()}
    segments, i = [], 0
    while i < len(plan.chunks):
        _, op, ins, outs = plan.chunks[i]
        if i in blocked:
            segments.append(_blocked_segment(plan, blocked[i]))
            i = blocked[i][-1].index + 1
            continue
        step = plan.steps.get(i)
        dead = plan.dead_here(step) if step is not None else []
        target = next((n for n in dead if plan.produced[n].dtype == step.dtype), None)
        if target is not None:
            lines = [(f'{step.out} = {_call(builder, step, step.operands, target)}', op)]
        else:
            lines = plan.lines_of(i)
        segments.append((lines, op, ins, outs))
        i += 1
    return segments


def _call(builder, step, operands, out):
    return f'{_ufunc_source(builder, step.ufunc)}({", ".join(operands)}, out={out})'


def _ufunc_source(builder, ufunc):
    if getattr(np, ufunc.__name__, None) is ufunc:
        return f'np.{ufunc.__name__}'
    return builder.bind(ufunc, ufunc.__name__)


def _dtype_source(builder, dtype):
    if getattr(np, dtype.name, None) is dtype.type:
        return f'np.{dtype.name}'
    return builder.bind(dtype, f'dtype_{dtype.name}')


def _blocked_segment(plan, run):
    """One run of ufunc steps as a loop over blocks (see the module docstring): (lines, first op,
    the full arrays it reads, the full arrays it writes)."""
    b = plan.builder
    indices = {s.index for s in run}
    materialized = [s.out for s in run if s.out in plan.elsewhere or
                    any(r not in indices for r in plan.readers.get(s.out, ()))]
    produced = {s.out for s in run}
    inputs = list(dict.fromkeys(n for s in run for n, k in zip(s.operands, s.kinds)
                                if k == 'full' and n not in produced))
    itemsize = max(t.dtype.np_dtype.itemsize for s in run for t in s.op.inputs + s.op.outputs)
    loop = _Loop(b, run[0].shape, run[0].size, BLOCK_BYTES // itemsize)
    targets, scratch = _assign_buffers(plan, run, set(materialized))
    dtype_of = {s.out: s.dtype for s in run}
    for n in materialized:
        loop.pre.append(f'{n} = np.empty({run[0].shape!r}, {_dtype_source(b, dtype_of[n])})')
    in_block = {n: loop.sliced(n) for n in inputs}
    views = [loop.scratch(dtype) for dtype in scratch]
    body = []
    for s, (kind, where) in zip(run, targets):
        operands = [in_block.get(n, n) if k == 'full' else n for n, k in zip(s.operands, s.kinds)]
        if kind == 'full':
            call = _call(b, s, operands, loop.block_of(s.out))
            if any(r in indices for r in plan.readers.get(s.out, ())):  # read later in the run
                in_block[s.out] = b.fresh(f'{s.out}_b')
                call = f'{in_block[s.out]} = {call}'
            body.append((f'    {call}', s.op))
        else:
            out = where if kind == 'reuse' else views[where]
            body.append((f'    {s.out} = {_call(b, s, operands, out)}', s.op))
    return [(text, run[0].op) for text in loop.pre + loop.head] + body, run[0].op, inputs, \
        materialized


class _Loop:
    """The lines before a blocked loop (`pre`) and at the top of its body (`head`)."""

    def __init__(self, builder, shape, size, block):
        self.builder, self.rank, self.size, self.block = builder, len(shape), size, block
        self.start, self.stop = builder.fresh('start'), builder.fresh('stop')
        self.ragged = size % block != 0      # the last block is shorter
        self.flat = {}
        self.pre = []
        self.head = [f'for {self.start} in range(0, {size}, {block}):',
                     f'    {self.stop} = ' + (f'min({self.start} + {block}, {size})' if self.ragged
                                              else f'{self.start} + {block}')]

    def flat_name(self, name):
        """`name` as a 1-D array (a view, or a copy of a non-contiguous input)."""
        if name not in self.flat:
            self.flat[name] = name if self.rank == 1 else self.builder.fresh(f'{name}_flat')
            if self.flat[name] != name:
                self.pre.append(f'{self.flat[name]} = {name}.reshape(-1)')
        return self.flat[name]

    def block_of(self, name):
        return f'{self.flat_name(name)}[{self.start}:{self.stop}]'

    def sliced(self, name):
        """The name of the current block of full array `name`, sliced at the top of the body."""
        view = self.builder.fresh(f'{name}_b')
        self.head.append(f'    {view} = {self.block_of(name)}')
        return view

    def scratch(self, dtype):
        """A new block-sized scratch buffer; returns the name the body writes into."""
        name = self.builder.fresh('scratch')
        self.pre.append(f'{name} = np.empty({self.block}, {_dtype_source(self.builder, dtype)})')
        if not self.ragged:
            return name
        view = self.builder.fresh(f'{name}_b')
        self.head.append(f'    {view} = {name}[:{self.stop} - {self.start}]')
        return view


def _assign_buffers(plan, run, materialized):
    """Where each step of a blocked run writes: ('full', None) into its full array's block,
    ('reuse', name) into a block value dying there, ('scratch', k) into scratch buffer k. Returns
    those and the scratch buffers' dtypes."""
    scratch, free, home, targets = [], {}, {}, []
    for s in run:
        dead = [n for n in dict.fromkeys(s.operands) if n in home and
                plan.last_read(n) == s.index]
        if s.out in materialized:
            targets.append(('full', None))
        else:
            reuse = next((n for n in dead if scratch[home[n]] == s.dtype), None)
            if reuse is not None:
                dead.remove(reuse)
                home[s.out] = home[reuse]
                targets.append(('reuse', reuse))
            else:
                pool = free.get(s.dtype)
                home[s.out] = pool.pop() if pool else len(scratch)
                if home[s.out] == len(scratch):
                    scratch.append(s.dtype)
                targets.append(('scratch', home[s.out]))
        for n in dead:
            free.setdefault(scratch[home[n]], []).append(home[n])
    return targets, scratch
