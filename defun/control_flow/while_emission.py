"""How the executor writes a While op: a Python `while` loop with the cond and body graphs inline
(no call per iteration), the op's outputs doubling as the loop variables.

    while_0 = 0                         # a counter proven to stay in int32: a Python int
    while_1 = h0
    while_3 = []                        # a stack the gradient reads
    while while_0 < 100:                # a one-expression cond is the loop's test
        ...body...
        while_3.append(Tanh)
        while_0 = add_1                 # loop variables rebound one at a time
        while_1 = Tanh
    while_3, while_4 = stack_iterations(while_3, ...)
    while_0 = np.int32(while_0)         # only if something reads the counter after the loop

Counters (loop_counters) run as Python ints; the iteration count is kept only when something
reads it. When the body has loop-invariant values (loop_invariants: a variable read the loop never
writes, a transpose of it), the loop is rotated: the cond is tested once, and only if the body runs
are the invariant values computed, once, before the first iteration; their stacks are one value
repeated (while_runner.repeat_value).
"""
import re

from defun.compiler.executor import PythonInts, indent
from defun.control_flow import loop_buffers, loop_counters, loop_invariants
from defun.ops.array.tensor_array_ops import write_in_place
from defun.control_flow.while_runner import (FIRST_ROWS, grow_rows, live_stacks,
                                             repeat_value, rows_of, trim_rows,
                                             split_previous, stack_iterations,
                                             stack_with_previous)

__all__ = ['emit', 'parallel_assignment']


def emit(op, in_names, out_names, ctx):
    """The lines of While op `op` (see the module docstring)."""
    loop = _Loop(op, in_names, out_names, ctx)
    lines = loop.entry_lines()
    lines += loop.rotated() if loop.hoisted else loop.plain()
    return lines + loop.exit_lines()


class _Loop:
    def __init__(self, op, in_names, out_names, ctx):
        self.op, self.ctx = op, ctx
        attrs = op.attrs
        n = self.n = attrs['n_vars']
        self.kept = live_stacks(n, attrs['accumulate'], lambda i: ctx.is_used(op.outputs[i]))
        self.accumulate = [attrs['accumulate'][k] for k in self.kept]
        self.in_place = loop_buffers.in_place_writes(op, self.accumulate)
        self.loop, self.count = out_names[:n], out_names[n]
        self.stacks = [out_names[n + 1 + 2 * k] for k in self.kept]
        self.shape_names = [out_names[n + 2 + 2 * k] for k in self.kept]
        self.in_names = in_names
        self.captured = in_names[n:len(in_names) - int(attrs['has_max'])]
        self.counters = loop_counters.find_counters(op)
        needed = _needed_ops(attrs['body'], list(attrs['body'].outputs) + self.accumulate)
        self.hoisted = [o for o in loop_invariants.hoistable_ops(op) if o in needed]
        self.invariant = {id(t) for o in self.hoisted for t in o.outputs}
        self.repeated = [id(t) in self.invariant for t in self.accumulate]
        self.counting = attrs['has_max'] or ctx.is_used(op.outputs[n]) or any(self.repeated)
        self.previous = self.previous_stacks()
        self.trips = _static_trips(op, self.counters)
        outputs = {m for _, m in self.previous.values()}
        self.filled = {m: (m in outputs) for m, (t, r) in enumerate(zip(self.accumulate,
                                                                         self.repeated))
                       if not r and m not in self.previous and t.shape.is_fully_defined()}
        self.counting = self.counting or bool(self.filled)
        if self.filled and self.trips is None:
            self.grow_fn = ctx.bind(grow_rows, 'grow_rows')
        self.limits = {}

    def previous_stacks(self):
        """{k: (j, m)}: stack k holds loop variable j as it enters each iteration and stack m
        its new value, so stack k is stack m shifted by one row (starting with j's initial
        value): both are written as views of one buffer (one row per iteration, not two)."""
        body, found = self.op.attrs['body'], {}
        for k, t in enumerate(self.accumulate):
            j = next((j for j in range(self.n) if body.inputs[j] is t), None)
            if j is None or not t.shape.is_fully_defined() or self.repeated[k]:
                continue
            m = next((m for m, u in enumerate(self.accumulate) if u is body.outputs[j]), None)
            if m is not None and m != k and not self.repeated[m] and m not in found:
                found[k] = (j, m)
        return found

    # -- before and after the loop
    def entry_lines(self):
        lines = []
        for j, (name, source) in enumerate(zip(self.loop, self.in_names)):
            if j in self.counters:
                source = _int_text(self.op.inputs[j], source)
            elif j in self.in_place:
                source = f'np.array({source})'   # the loop's own copy, written in place
            lines.append(f'{name} = {source}')
        for c in self.counters.values():
            if not isinstance(c.limit, int):
                m = c.limit[1]
                if m not in self.limits:
                    self.limits[m] = self.ctx.fresh(f'{self.captured[m]}_int')
                    lines.append(f'{self.limits[m]} = int({self.captured[m]})')
        if self.counting:
            lines.append(f'{self.count} = 0')
        lines += [f'{s} = []' for k, (s, r) in enumerate(zip(self.stacks, self.repeated))
                  if not r and k not in self.previous and k not in self.filled]
        lines += self.buffer_lines()
        if self.op.attrs['has_max']:
            self.max_name = self.ctx.fresh('maximum_iterations')
            lines.append(f'{self.max_name} = int({self.in_names[-1]})')
        return lines

    def buffer_lines(self):
        """Stacks of a static element shape are filled in place, row by row (no copy per
        iteration kept alive, no stacking after the loop): sized by the trip count when it is
        known, else grown as the loop runs (while_runner.grow_rows) and trimmed after it."""
        lines = []
        for m, with_previous in self.filled.items():
            t, s = self.accumulate[m], self.stacks[m]
            rows = (self.trips if self.trips is not None else FIRST_ROWS) + int(with_previous)
            shape = self.ctx.bind((rows,) + t.shape.as_tuple(), f'{s}_rows')
            dtype = self.ctx.bind(t.dtype.np_dtype, f'{s}_dtype')
            lines.append(f'{s} = np.empty({shape}, {dtype})')
            if with_previous:
                j = next(j for j, mm in self.previous.values() if mm == m)
                lines.append(f'{s}[0] = {self.in_names[j]}')
        return lines

    def exit_lines(self):
        ctx, lines = self.ctx, []
        stack_fn = ctx.bind(stack_iterations, 'stack_iterations') if self.stacks else None
        repeat_fn = ctx.bind(repeat_value, 'repeat_value') if any(self.repeated) else None
        shifted = {m: (k, j) for k, (j, m) in self.previous.items()}
        for m, (s, shapes, t, value, r) in enumerate(zip(
                self.stacks, self.shape_names, self.accumulate, self.stack_values, self.repeated)):
            if m in self.previous:
                continue
            shape = ctx.bind(t.shape.as_tuple(), f'{s}_shape')
            if m in self.filled:
                lines.append(self.filled_exit(m, shape))
                continue
            dtype = ctx.bind(t.dtype.np_dtype, f'{s}_dtype')
            if m in shifted:
                k, j = shifted[m]
                both = ctx.bind(stack_with_previous, 'stack_with_previous')
                lines.append(f'{self.stacks[k]}, {self.shape_names[k]}, {s}, {shapes} = '
                             f'{both}({self.in_names[j]}, {s}, {shape}, {dtype})')
                continue
            call = f'{repeat_fn}({value}, {self.count}, ' if r else f'{stack_fn}({s}, '
            lines.append(f'{s}, {shapes} = {call}{shape}, {dtype})')
        # Counters ran as Python ints: the ones read after the loop become int32 tensors again
        # (a cast nothing reads would be a dead line in the source users read).
        used = self.ctx.is_used
        lines += [f'{self.loop[j]} = np.int32({self.loop[j]})' for j in self.counters
                  if used(self.op.outputs[j])]
        if self.counting and used(self.op.outputs[self.n]):
            lines.append(f'{self.count} = np.int32({self.count})')
        return lines

    def filled_exit(self, m, shape):
        s, shapes = self.stacks[m], self.shape_names[m]
        trim = ''
        if self.trips is None:
            rows = f'{self.count} + 1' if self.filled[m] else self.count
            trim = f'{self.ctx.bind(trim_rows, "trim_rows")}({s}, {rows}); '
        if not self.filled[m]:
            return f'{trim}{s}, {shapes} = {self.ctx.bind(rows_of, "rows_of")}({s}, {shape})'
        k = next(k for k, (_, mm) in self.previous.items() if mm == m)
        split = self.ctx.bind(split_previous, 'split_previous')
        return (f'{trim}{self.stacks[k]}, {self.shape_names[k]}, {s}, {shapes} = '
                f'{split}({s}, {shape})')

    # -- the loop
    def plain(self):
        """`while <test>:` (or `while True:` with the test inside) around the body."""
        cond_lines, test = self.cond()
        header = None if self.op.attrs['has_max'] else _while_header(cond_lines, test)
        step = self.max_check()
        if header is None:
            header = 'while True:'
            step += cond_lines + [f'if not {test}:', '    break']
        step += self.body({})
        return [header] + indent(step or ['pass'])

    def rotated(self):
        """The cond once; if it holds, the invariant values, then the body and the cond again."""
        cond_lines, test = self.cond()
        hoisted = [t for o in self.hoisted for t in o.outputs]
        body = self.op.attrs['body']
        lines, names = self.ctx.inline(body, list(body.inputs[self.n:]), hoisted, self.captured,
                                       only_needed=True)
        known = dict(zip(map(id, hoisted), names))
        # The repeated values are written before the loop: None when it does not run.
        entry = [f'{known[id(t)]} = None' for t, r in zip(self.accumulate, self.repeated) if r]
        again, test_again = self.cond()
        step = self.body(known) + again + [f'if not {test_again}:', '    break']
        return entry + cond_lines + [f'if {test}:'] + indent(
            lines + ['while True:'] + indent(step))

    def cond(self):
        ints = PythonInts([self.loop[j] for j in self.counters],
                          {c.compare: self.compare_text(c) for c in self.counters.values()},
                          outputs=[0], nonnegative=self.rising())
        graph = self.op.attrs['cond']
        lines, (test,) = self.ctx.inline(graph, list(graph.inputs), graph.outputs[:1],
                                         self.loop + self.captured, ints)
        return lines, test

    def body(self, known):
        """One iteration: the body (reading `known` invariant values by name), its stacks, the
        rebinding of the loop variables and the count."""
        graph, n = self.op.attrs['body'], self.n
        ints = PythonInts([self.loop[j] for j in self.counters],
                          {c.step: _step_text(c, self.loop) for c in self.counters.values()},
                          outputs=list(self.counters), nonnegative=self.rising() + self.tested())
        hoisted = [t for o in self.hoisted for t in o.outputs] if known else []
        inputs = list(graph.inputs) + hoisted
        feeds = self.loop + self.captured + [known[id(t)] for t in hoisted]
        kernels = {w: write_in_place for w in self.in_place.values()}
        lines, outs = self.ctx.inline(graph, inputs, list(graph.outputs) + self.accumulate,
                                      feeds, ints, kernels=kernels)
        self.stack_values = outs[n:]
        # Stacks first: an accumulated value may be a loop variable about to be rebound.
        appends = []
        for k, (s, v, r) in enumerate(zip(self.stacks, outs[n:], self.repeated)):
            if k in self.filled:
                row = f'{self.count} + 1' if self.filled[k] else self.count
                if self.trips is None:
                    appends.append(f'if {row} >= len({s}): {self.grow_fn}({s})')
                appends.append(f'{s}[{row}] = {v}')
            elif not r and k not in self.previous:
                appends.append(f'{s}.append({v})')
        written = assign_in_place(lines, self.loop, outs[:n], appends)
        lines += appends
        lines += parallel_assignment([t for j, t in enumerate(self.loop) if j not in written],
                                     [s for j, s in enumerate(outs[:n]) if j not in written])
        if self.counting:
            lines.append(f'{self.count} += 1')
        return lines

    def max_check(self):
        if not self.op.attrs['has_max']:
            return []
        return [f'if {self.count} >= {self.max_name}:', '    break']

    # -- what the counters' ranges prove
    def rising(self):
        """Counters counting up from a constant >= 0: never negative."""
        return [self.loop[j] for j, c in self.counters.items() if c.delta > 0 and
                _static_int(self.op.inputs[j]) is not None and _static_int(self.op.inputs[j]) >= 0]

    def tested(self):
        """Counters counting down while above a constant >= -1: not negative inside the body."""
        return [self.loop[j] for j, c in self.counters.items() if c.delta < 0 and
                isinstance(c.limit, int) and c.limit >= (0 if c.symbol == '>=' else -1)]

    def compare_text(self, counter):
        limit = counter.limit if isinstance(counter.limit, int) else self.limits[counter.limit[1]]
        return f'{self.loop[counter.index]} {counter.symbol} {limit}'


def _static_trips(op, counters):
    """How many times the loop runs, when a counter with constant start and limit decides it
    alone (the cond is exactly its test), else None."""
    if op.attrs['has_max']:
        return None
    for j, c in counters.items():
        start = _static_int(op.inputs[j])
        if start is None or not isinstance(c.limit, int):
            continue
        stop = {'<': c.limit, '<=': c.limit + 1, '>': c.limit, '>=': c.limit - 1}[c.symbol]
        return len(range(start, stop, c.delta))
    return None


def _needed_ops(graph, tensors):
    """The ops of `graph` that computing `tensors` runs."""
    needed, stack = set(), [t.op for t in tensors if t.op.graph is graph]
    while stack:
        o = stack.pop()
        if o not in needed:
            needed.add(o)
            stack.extend(t.op for t in o.inputs)
            stack.extend(o.control_inputs)
    return needed


def _static_int(tensor):
    value = tensor.static_value() if hasattr(tensor, 'static_value') else None
    return None if value is None else int(value)


def _int_text(tensor, name):
    value = _static_int(tensor)
    return repr(value) if value is not None else f'int({name})'


def _step_text(counter, loop):
    sign = '+' if counter.delta > 0 else '-'
    return f'{loop[counter.index]} {sign} {abs(counter.delta)}'


def _while_header(cond_lines, test):
    """`while <test>:` when the cond is one expression bound to the test's name, else None."""
    if not cond_lines:
        return f'while {test}:'
    if len(cond_lines) != 1:
        return None
    text, owner = cond_lines[0] if isinstance(cond_lines[0], tuple) else (cond_lines[0], None)
    prefix = f'{test} = '
    if not text.startswith(prefix) or '\n' in text:
        return None
    return (f'while {text[len(prefix):]}:', owner)


def assign_in_place(lines, targets, sources, tail):
    """Rewrites `source = expr` to `target = expr` in the body's own lines when nothing after it
    (later lines, `tail`, the other rebindings) reads the source or the target's old value, so
    a loop variable takes its new value without a rebinding; returns the indices done."""
    done = set()
    for j, (target, source) in enumerate(zip(targets, sources)):
        if target == source or source in targets or sources.count(source) != 1:
            continue
        prefix = f'{source} = '
        at = next((i for i, line in enumerate(lines) if _text(line).startswith(prefix)), None)
        if at is None:
            continue
        reads = re.compile(rf'\b({re.escape(source)}|{re.escape(target)})\b')
        later = [_text(line) for line in lines[at + 1:]] + list(tail) + [
            s for k, s in enumerate(sources) if k != j and k not in done]
        if any(reads.search(text) for text in later):
            continue
        text, owner = (lines[at] if isinstance(lines[at], tuple) else (lines[at], None))
        lines[at] = (f'{target} = {text[len(prefix):]}', owner)
        done.add(j)
    return done


def _text(line):
    return line[0] if isinstance(line, tuple) else line


def parallel_assignment(targets, sources):
    """Lines rebinding each target to its source as if all at once, one name at a time (no tuple
    packing); a cycle of names (a swap) falls back to one tuple assignment."""
    pending = [(t, s) for t, s in zip(targets, sources) if t != s]
    lines = []
    while pending:
        read = {s for _, s in pending}
        ready = next((p for p in pending if p[0] not in read), None)
        if ready is None:
            lines.append(f'{", ".join(t for t, _ in pending)}, = '
                         f'{", ".join(s for _, s in pending)},')
            break
        lines.append(f'{ready[0]} = {ready[1]}')
        pending.remove(ready)
    return lines
