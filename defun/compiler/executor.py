"""The executor: turns a graph with chosen inputs and outputs into a plain Python callable, once.

Building does the work a per-call interpreter would repeat: prune to the ops the outputs and the
stateful ops need, simplify (identity chains, constant folding, common subexpressions of pure ops),
and generate straight-line Python source, one line per op, with kernels and attrs bound as globals of
the generated module. Ops are emitted in creation order, which is a topological order and keeps
stateful ops (variable reads and writes, random, print, asserts) in program order, the guarantee TF's
automatic control dependencies give.

Ops that need more than one call (control flow) have an emitter in their OpDef (`emit`) that
writes their lines: emit(op, input_names, output_names, ctx) -> source lines (no indentation; a
line may be a (text, op) pair naming the op it runs, for error messages). `ctx.bind(value, hint)`
returns a global name bound to `value`; `ctx.fresh(hint)` a new local name; `ctx.inline(graph,
inputs, outputs, input_exprs)` writes a sub-graph's ops in place (see _Builder.inline). The op's
kernel must also work on its own: the first call of a big graph runs kernels directly.
When a kernel fails at run time the error names the op and the user's line that created it.
"""
import builtins
import keyword

import numpy as np

from defun.core import context, error_helpers, errors, low_precision
from defun.compiler import folding, jit
from defun.compiler.elementwise import rewrite_with_buffers
from defun.compiler.forms import INFIX as _INFIX, PythonInts, infix
from defun.compiler.keys import cse_key, python_identifier
from defun.compiler.source_notes import capture_hints, constants_header
from defun.compiler.graph_callable import GraphCallable

__all__ = ['compile_graph', 'GraphCallable', 'Optimizations', 'indent', 'infix', 'PythonInts']

def indent(lines, prefix='    '):
    """Indents emitter lines, plain or (text, op) pairs."""
    return [(prefix + line[0], line[1]) if isinstance(line, tuple) else prefix + line
            for line in lines]


# Ops TF's debug stripper removes (Assert, Print) or turns into an identity (CheckNumerics):
# either way an output, if any, is the input it passes through.
_DEBUG_OPS = frozenset({'Assert', 'Print', 'PrintV2', 'CheckNumerics', 'CheckNumericsV2'})


class Optimizations:
    """Which graph simplifications the executor applies. By default, as tf.config.optimizer's
    Grappler options say when the graph is compiled: constant folding on unless turned off,
    debug ops stripped when `debug_stripper` is on, neither with the meta optimizer disabled."""

    def __init__(self, prune=True, fold_constants=None, cse=True, remove_identity=True,
                 strip_debug=None):
        options = context.config_value('optimizer_options')
        grappler = not options.get('disable_meta_optimizer', False)
        self.prune = prune
        self.fold_constants = (grappler and options.get('constant_folding') is not False
                               if fold_constants is None else fold_constants)
        self.cse = cse
        self.remove_identity = remove_identity
        self.strip_debug = (grappler and options.get('debug_stripper') is True
                            if strip_debug is None else strip_debug)


# Graphs up to this many emitted ops are compiled when built; larger ones run interpreted once
# (Python's compile() costs ~15-50 us per line, which dominates a big graph's first call) and are
# compiled on their second call. Either way, the steady state runs generated code.
COMPILE_EAGERLY_UP_TO = 200


def compile_graph(graph, inputs, outputs, name='graph_fn', optimizations=None, only_needed=False):
    """Builds the callable for `graph` computing `outputs` (tensors) from `inputs` (placeholders).
    `only_needed`: only the ops the outputs need (not every stateful op of the graph). A graph
    traced with jit_compile=True has its lowerable clusters compiled by the native tier."""
    opts = optimizations or Optimizations()
    builder = _Builder(graph, inputs, outputs, opts, name)
    builder.stateful_roots = not only_needed
    if graph.jit_compile and not only_needed:
        builder.native = jit.native_partition(
            graph, inputs, outputs, builder.live_ops(), builder.fn_name,
            lambda c: compile_graph(graph, c.inputs, c.outputs, f'{name}_numpy_tier',
                                    only_needed=True))
        builder.jit_plan = builder.native
    return builder.build()


class _Builder:
    def __init__(self, graph, inputs, outputs, opts, name):
        self.graph, self.inputs, self.outputs, self.opts = graph, inputs, outputs, opts
        self.fn_name = python_identifier(name)
        self.names = {}           # id(tensor) -> source expression
        self.consts = {}          # id(tensor) -> folded value
        # Generated code counts as defun's own module, so numpy's floating point warnings are
        # silenced there as in the kernels (TF computes 1/0 = inf silently; see dtype_checks).
        self.namespace = {'np': np, '__name__': 'defun.generated'}
        # The generated function's own name is reserved: a value bound under it (an emitter binding
        # a sub-graph's callable of the same name) would be replaced by the function itself.
        # Builtins too: an op named 'range' or 'abs' must not shadow one the generated code calls.
        self.used = set(keyword.kwlist) | set(dir(builtins)) | {'np', self.fn_name}
        self.cse = {}
        self.live = set()
        self.stateful_roots = True   # stateful ops are written even when nothing reads them
        self._used = None         # ids of the tensors live ops or the outputs read (is_used)
        self.arrays_0d = {}       # name of a scalar constant -> name of it as a 0-d array
        # False while lines may still be rewritten when the source is written (see write_source);
        # sub-graphs inlined into an emitter's lines are final when written.
        self.lines_final = False
        self.lines_with_ops = []  # (source line, the op it runs, for error messages)
        self.chunks = []          # per emitted op: (lines so far, op, input names, output names)
        self.steps = []
        self.int_names = set()    # names holding Python ints (see PythonInts), in this scope
        self.int_ops = {}         # op -> the Python-int expression written for it
        self.int_twins = {}       # Python-int name -> its np.int32 copy, made once per scope
        self.nonnegative = set()  # names known to hold values >= 0 in this scope
        self.op_inputs = {}       # op -> its input names, shared by sub-builders (error reruns)
        self.kernels = {}         # op -> the kernel an emitter asked for instead of its own
        self.widened = set()      # ops of low-precision types, run widened (core/low_precision)
        self.native = None        # jit graphs: the partition into native clusters (compiler/jit)
        self.jit_plan = None      # ... the whole function's, which the report shows

    # -- naming
    def fresh(self, hint):
        base = python_identifier(hint)
        name = base
        n = 1
        while name in self.used:
            name = f'{base}_{n}'
            n += 1
        self.used.add(name)
        return name

    def bind(self, value, hint):
        name = self.fresh(hint)
        self.namespace[name] = value
        return name

    def inline(self, graph, inputs, outputs, input_exprs, python_ints=None, only_needed=False,
               kernels=None):
        """Writes the ops computing `outputs` of sub-graph `graph` (from its placeholders `inputs`,
        fed the expressions `input_exprs`) into this function, so that a loop body or a branch runs
        without a call per iteration. Returns (lines, output expressions); each line is a
        (text, op) pair so runtime errors still name the op that failed. `python_ints` (a
        PythonInts) names inputs held as Python ints and ops to write as Python-int expressions.
        `only_needed`: write only the ops the outputs need, not every stateful op of the graph
        (a loop's invariant values, computed once before it). `kernels`: {op: kernel} to call
        instead of an op's own (a write in place, control_flow/loop_buffers.py)."""
        sub = _Builder(graph, inputs, outputs, self.opts, self.fn_name)
        sub.kernels = kernels or {}
        sub.stateful_roots = not only_needed
        sub.lines_final = True   # taken as they are by the emitter: nothing rewrites them later
        sub.namespace, sub.used = self.namespace, self.used   # one module: names stay unique
        sub.op_inputs = self.op_inputs
        sub.jit_plan = self.jit_plan
        plan = python_ints or PythonInts()
        sub.int_names = self.int_names | plan.names
        sub.int_twins = dict(self.int_twins)  # copies made before this point stay valid here
        sub.int_ops = plan.ops
        sub.nonnegative = self.nonnegative | plan.nonnegative
        for ph, expr in zip(inputs, input_exprs):
            sub.names[id(ph)] = expr
        live = sub.live = sub.live_ops()
        if self.jit_plan is not None and not only_needed:
            sub.partition_natively(plan)
        for op in graph.get_operations():
            if op in live:
                sub.visit(op)
        outs = [sub.names[id(t)] for t in outputs]
        outs = [n if i in plan.outputs else sub.as_int32(n, None) for i, n in enumerate(outs)]
        return sub.lines_with_ops, outs

    def partition_natively(self, ints):
        """For a sub-graph of a jit graph written by the numpy tier (the body of a loop the native
        tier could not take whole: an op without a lowering), its own native clusters, called
        from the loop (jit/partition.py), except those touching values held as Python ints
        (`ints`, a PythonInts) or ops written with other kernels."""
        name, graph = self.fn_name, self.graph
        special = {op: 'a loop counter held as a Python int, or written with another kernel'
                   for op in list(ints.ops) + list(self.kernels)}
        plan = jit.native_partition(
            graph, self.inputs, self.outputs, self.live, f'{name}_{graph.name}',
            lambda c: compile_graph(graph, c.inputs, c.outputs, f'{name}_numpy_tier',
                                    only_needed=True), special)
        if plan is not None:
            plan.drop_readers_of(special, 'feeds a loop counter held as a Python int')
            self.native = plan
            self.jit_plan.absorb(plan)

    def as_int32(self, name, op):
        """`name`, or for a Python int its np.int32 copy (written once per scope)."""
        if name not in self.int_names:
            return name
        twin = self.int_twins.get(name)
        if twin is None:
            twin = self.int_twins[name] = self.fresh(f'{name}_int32')
            self.lines_with_ops.append((f'{twin} = np.int32({name})', op))
        return twin

    def is_used(self, tensor):
        """Whether an op being written, or the function's result, reads `tensor` (an emitter
        skips the work of outputs nothing reads, e.g. a loop's stacks outside its gradient)."""
        if self._used is None:
            self._used = {id(t) for t in self.outputs}
            self._used.update(id(t) for op in self.live for t in op.inputs)
        return id(tensor) in self._used

    # -- passes
    def build(self):
        hints = capture_hints(self.graph)
        for ph in self.inputs:
            self.names[id(ph)] = self.fresh(hints.get(id(ph), ph.op.name))
        live = self.live = self.live_ops()
        for op in self.graph.get_operations():
            if op in live:
                self.visit(op)
        return self.finish()

    def live_ops(self):
        """Ops needed for the outputs, plus every stateful op (never pruned) and its inputs."""
        ops = self.graph.get_operations()
        input_ids = {id(t) for t in self.inputs}
        roots = [t.op for t in self.outputs if id(t) not in input_ids and hasattr(t, 'op')]
        if not self.opts.prune:
            roots = list(ops)
        if self.stateful_roots:
            roots += [op for op in ops if op.opdef.stateful or op.opdef.num_outputs == 0]
        live = set()
        stack = list(roots)
        while stack:
            op = stack.pop()
            if op in live:
                continue
            live.add(op)
            stack.extend(t.op for t in op.inputs if id(t) not in input_ids)
            stack.extend(op.control_inputs)
        return live

    def visit(self, op):
        names = self.names
        if op.outputs and all(id(t) in names for t in op.outputs):
            return  # an input of the callable
        if self.native is not None and op in self.native.by_op:
            self.emit_cluster(self.native.by_op[op], op)
            return
        opdef = op.opdef
        if opdef.is_placeholder:
            raise errors.InvalidArgumentError(
                f"The graph needs placeholder '{op.name}' ({error_helpers.describe(op.outputs[0])}) "
                f'to compute its outputs, but it is not one of the inputs.')
        if not op.inputs and opdef.fold is not None:  # a constant
            value = opdef.fold(op)
            self.consts[id(op.outputs[0])] = value
            self.names[id(op.outputs[0])] = self.bind(value, op.name)
            return
        if self.opts.remove_identity and opdef.is_identity and not op.control_inputs:
            self.alias(op.outputs[0], op.inputs[0])
            return
        if self.opts.strip_debug and op.type in _DEBUG_OPS:
            if op.outputs:
                self.alias(op.outputs[0], op.inputs[0])
            return
        if op not in self.int_ops and (self.try_fold(op) or self.try_cse(op)):
            return
        self.emit(op)

    def alias(self, tensor, source):
        self.names[id(tensor)] = self.names[id(source)]
        if id(source) in self.consts:
            self.consts[id(tensor)] = self.consts[id(source)]

    def try_fold(self, op):
        consts = self.consts
        if not op.inputs or not all(id(t) in consts for t in op.inputs):
            return False
        if not self.opts.fold_constants or op.opdef.emit is not None:
            return False  # an op that runs sub-graphs stays an op
        results = folding.fold_outputs(op, [consts[id(t)] for t in op.inputs], materialize=True)
        if results is None:
            return False  # left to run (and to fail at run time, with the usual error)
        for t, value in zip(op.outputs, results):
            self.consts[id(t)] = value
            self.names[id(t)] = self.bind(value, t.op.name + '_folded')
        return True

    def try_cse(self, op):
        if not self.opts.cse or op.opdef.stateful or op.opdef.emit is not None:
            return False
        key = cse_key(op, self.names)
        if key is None:
            return False
        previous = self.cse.get(key)
        if previous is None:
            self.cse[key] = op
            return False
        for t, p in zip(op.outputs, previous.outputs):
            self.alias(t, p)
        return True

    # -- emission
    def emit(self, op):
        names = self.names
        in_names = [names[id(t)] for t in op.inputs]
        if self.int_names and op not in self.int_ops:
            index_only = set(op.opdef.index_inputs(op)) if op.opdef.index_inputs else ()
            in_names = [n if i in index_only else self.as_int32(n, op)
                        for i, n in enumerate(in_names)]
        if len(op.outputs) == 1:
            out_names = [self.fresh(op.name)]
        else:
            out_names = [self.fresh(f'{op.name}_{i}') for i in range(len(op.outputs))]
        self.op_inputs[op] = in_names
        emitter = op.opdef.emit
        kernel = op.opdef.graph_kernel
        if emitter is None and op not in self.kernels and op not in self.int_ops:
            # bfloat16 and the other low-precision types: the kernel runs widened, rounded back
            kernel = low_precision.widened_kernel(op, kernel) or kernel
        if kernel is not op.opdef.graph_kernel:
            self.widened.add(op)
            body = [self.call_line(op, in_names, out_names, kernel=kernel)]
        elif op in self.int_ops:
            body = [f'{out_names[0]} = {self.int_ops[op]}']
            self.int_names = self.int_names | {out_names[0]}
        elif emitter is not None:
            body = emitter(op, in_names, out_names, self)
        elif op in self.kernels:
            targets = ', '.join(out_names) + (',' if len(out_names) == 1 else '')
            body = [f'{targets} = {self.kernel_call(op, in_names, self.kernels[op])}']
        else:
            body = [self.call_line(op, in_names, out_names, arrays_0d=self.lines_final)]
        for line in body:
            self.lines_with_ops.append(line if isinstance(line, tuple) else (line, op))
        attrs = op.attrs
        if op.opdef.kernel_takes_live_outputs:  # run directly, it skips what nothing reads
            attrs = dict(attrs, live_outputs=frozenset(
                i for i, t in enumerate(op.outputs) if self.is_used(t)))
        self.steps.append((op, kernel, in_names, attrs, out_names))
        self.chunks.append((len(self.lines_with_ops), op, in_names, out_names))
        for t, n in zip(op.outputs, out_names):
            self.names[id(t)] = n

    def emit_cluster(self, cluster, op):
        """One call of a native cluster, written where its last op is (see jit/partition.py)."""
        if op is not cluster.last:
            return
        in_names = [self.as_int32(self.names[id(t)], cluster) for t in cluster.inputs]
        out_names = [self.fresh(t.op.name) for t in cluster.outputs]
        fn = self.bind(cluster.native, 'native')
        targets = ', '.join(out_names) + (',' if len(out_names) == 1 else '')
        self.lines_with_ops.append((f'{targets} = {fn}({", ".join(in_names)})', cluster))
        self.op_inputs[cluster] = in_names
        self.chunks.append((len(self.lines_with_ops), cluster, in_names, out_names))
        for t, n in zip(cluster.outputs, out_names):
            self.names[id(t)] = n

    def call_line(self, op, in_names, out_names, arrays_0d=False, kernel=None):
        if kernel is not None:  # not the op's own kernel: a plain call of it
            return self.assignment(op, out_names, self.kernel_call(op, in_names, kernel))
        infix = _INFIX.get(op.opdef.graph_kernel) if len(in_names) == 2 and not op.attrs else None
        if infix is not None:
            # The kernel is exactly this Python operator: write the expression, skip the call.
            a, b = self.operand_names(op, in_names) if arrays_0d else in_names
            return f'{out_names[0]} = {a} {infix} {b}'
        expression = op.opdef.expression(op, in_names) if op.opdef.expression else None
        if expression is not None and len(out_names) == 1:
            if isinstance(expression, tuple):  # a fast form for inputs >= 0
                text, positions = expression
                guard = ' and '.join(f'{in_names[i]} >= 0' for i in positions
                                     if in_names[i] not in self.nonnegative)
                if guard:
                    text = f'{text} if {guard} else {self.kernel_call(op, in_names)}'
            else:
                text = expression
            return f'{out_names[0]} = {text}'
        return self.assignment(op, out_names, self.kernel_call(op, in_names))

    @staticmethod
    def assignment(op, out_names, call):
        if not out_names:
            return call
        if op.opdef.num_outputs == 1:
            return f'{out_names[0]} = {call}'
        return f'{", ".join(out_names)}{"," if len(out_names) == 1 else ""} = {call}'

    def kernel_call(self, op, in_names, kernel=None):
        kernel = kernel or op.opdef.graph_kernel
        hint = f'k_{op.type}' if kernel is op.opdef.graph_kernel else f'k_{kernel.__name__}'
        kernel_name = hint
        if self.namespace.get(hint) is not kernel:
            # (a parameter may hold the name too: inputs are named after what they capture)
            taken = hint in self.namespace or hint in self.used
            kernel_name = self.fresh(hint) if taken else hint
            self.namespace[kernel_name] = kernel
            self.used.add(kernel_name)
        args = list(in_names)
        for key, value in op.attrs.items():
            args.append(f'{key}={self.attr_source(op, key, value)}')
        return f'{kernel_name}({", ".join(args)})'

    def operand_names(self, op, in_names=None):
        """The names of a binary op's operands, with a scalar constant meeting an array written as
        a 0-d array: numpy combines an array with a 0-d array faster than with a numpy scalar
        (the same loop, so the same result), while scalar with scalar stays scalar arithmetic."""
        # (Python-int counters in in_names are already replaced by their int32 copies)
        names = [self.names[id(t)] for t in op.inputs] if in_names is None else list(in_names)
        if len(names) != 2:
            return names
        for i, t in enumerate(op.inputs):
            value = self.consts.get(id(t))
            other = op.inputs[1 - i].shape
            if isinstance(value, np.generic) and other.rank is not None and other.rank > 0:
                if names[i] not in self.arrays_0d:
                    self.arrays_0d[names[i]] = self.bind(np.asarray(value), names[i] + '_0d')
                names[i] = self.arrays_0d[names[i]]
        return names

    def attr_source(self, op, key, value):
        if value is None or isinstance(value, (bool, int)) or (
                isinstance(value, float) and np.isfinite(value)):
            return repr(value)
        if isinstance(value, str) and len(value) < 40:
            return repr(value)
        if isinstance(value, tuple) and len(value) < 8 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            return repr(value)
        return self.bind(value, f'{op.name}_{key}')

    def lines_freeing_dead_values(self):
        """The emitted lines (elementwise chains rewritten to reuse buffers, see
        executor_elementwise) with `del` after the last use of each large intermediate, so memory
        is released (and reused) as soon as a value is dead, as in hand-written numpy, rather than
        when the function returns. Small or never-large values are left alone (a `del` costs
        more than it saves there)."""
        keep = {self.names[id(t)] for t in self.outputs}
        # An emitter may leave outputs nothing reads unwritten (a loop's unread stacks): those
        # are never freed.
        large = {n for _, op, _, outs in self.chunks for t, n in zip(op.outputs, outs)
                 if n not in keep and _may_be_large(t)
                 and (op.opdef.emit is None or self.is_used(t))}
        segments = rewrite_with_buffers(self, keep)
        last_use = {}
        for i, (_, _, ins, outs) in enumerate(segments):
            for n in outs:
                if n in large:
                    last_use.setdefault(n, i)
            for n in ins:
                if n in large:
                    last_use[n] = i
        frees = {}
        for n, i in last_use.items():
            frees.setdefault(i, []).append(n)
        lines = []
        for i, (segment, op, _, _) in enumerate(segments):
            lines += segment
            if i in frees:
                lines.append((f'del {", ".join(sorted(frees[i]))}', op))
        return lines

    def write_0d_operands(self):
        """Rewrites the binary operator lines with scalar constants as 0-d arrays (operand_names):
        done when the source is written, so a big graph's interpreted first call never pays."""
        start = 0
        for end, op, ins, outs in self.chunks:
            if end - start == 1 and op.opdef.emit is None and len(ins) == 2 and not op.attrs \
                    and op.opdef.graph_kernel in _INFIX and op not in self.widened:
                self.lines_with_ops[start] = (self.call_line(op, ins, outs, arrays_0d=True), op)
            start = end

    def write_source(self, params, outs):
        """(source, {line number: op}) of the generated function."""
        self.write_0d_operands()
        lines = self.lines_freeing_dead_values()
        lines.append((f'return ({", ".join(outs)}{"," if len(outs) == 1 else ""})', None))
        header = constants_header([text for text, _ in lines], self.namespace)
        source = ''.join(f'{text}\n' for text in header) + (
            f'def {self.fn_name}({", ".join(params)}):\n' + ''.join(
                f'    {text}\n' for text, _ in lines))
        first = len(header) + 2
        return source, {i + first: owner for i, (_, owner) in enumerate(lines) if owner is not None}

    def finish(self):
        params = [self.names[id(ph)] for ph in self.inputs]
        outs = [self.names[id(t)] for t in self.outputs]
        return GraphCallable(lambda: self.write_source(params, outs), self.namespace,
                             self.fn_name, self.steps, params, outs, self.graph,
                             compile_now=(len(self.steps) <= COMPILE_EAGERLY_UP_TO
                                          or self.native is not None),
                             op_inputs=self.op_inputs, native=self.native)


def _may_be_large(tensor):
    n = tensor.shape.num_elements()
    return n is None or n >= _FREE_ABOVE


# Values of at least this many elements are deleted after their last use (see
# lines_freeing_dead_values); 2**14 float32s is 64 KiB, near where numpy's allocator starts asking
# the OS for fresh pages.
_FREE_ABOVE = 1 << 14

