"""GraphCallable: what the executor builds, a graph made into a Python function.

It holds the generated source (written when first needed), compiles it with `compile()`, runs a
big graph's first call by interpreting the same steps instead (see executor.COMPILE_EAGERLY_UP_TO),
and turns a failure inside into an error naming the op and the user's line that created it.
"""
import itertools
import linecache
import weakref

from defun.core import error_helpers, errors, low_precision

__all__ = ['GraphCallable']

_COUNTER = itertools.count()


class GraphCallable:
    """A compiled graph: call `fn(*arrays)` (inputs in order) for a tuple of output arrays.

    `source` is the generated Python; `fn` is the generated function itself once compiled, and a
    small interpreter over the same steps before that (see COMPILE_EAGERLY_UP_TO).
    """

    def __init__(self, write_source, namespace, fn_name, steps, params, out_names, graph,
                 compile_now, op_inputs=None, native=None):
        self._write_source = write_source  # () -> (source, op_lines), run once, when first needed
        self._source = None
        self.graph = graph
        self._namespace = namespace
        self._fn_name = fn_name
        self._steps = steps            # (op, kernel, input names, attrs, output names)
        self._params = params
        self._out_names = out_names
        self._op_lines = {}            # generated line number -> op, for error messages
        self._op_inputs = op_inputs or {}  # op -> the names of its inputs in the generated code
        self._filename = None
        # jit graphs: the native tier's partition (what runs natively, what fell back and why)
        self.native = native
        if compile_now:
            self.fn = self.compile()
        else:
            self.fn = self._interpret_once

    @property
    def source(self):
        """The generated Python source (written on first use: a big graph's first call does not
        need it)."""
        if self._source is None:
            self._source, self._op_lines = self._write_source()
            self._write_source = None
        return self._source

    def __call__(self, *arrays):
        try:
            return self.fn(*arrays)
        except errors.OpError as exc:
            if exc.op is not None:  # located already, by a function this one calls
                raise
            raise self.runtime_error(exc) from None
        except Exception as exc:
            raise self.runtime_error(exc) from None

    def compile(self):
        """Compiles the generated source (once) and returns the function."""
        if self._filename is None:
            filename = f'<defun generated {self._fn_name} #{next(_COUNTER)}>'
            exec(compile(self.source, filename, 'exec'), self._namespace)
            # Register the source so tracebacks and inspect show the generated lines, for as
            # long as this callable lives (functions created in a loop must not grow linecache).
            linecache.cache[filename] = (len(self.source), None,
                                         self.source.splitlines(True), filename)
            weakref.finalize(self, linecache.cache.pop, filename, None)
            self._filename = filename
        return self._namespace[self._fn_name]

    def _interpret_once(self, *arrays):
        """The first call of a big graph: run the steps directly, then switch to compiled code."""
        self.fn = self.compile_later
        env = dict(self._namespace)
        env.update(zip(self._params, arrays))
        for op, kernel, ins, attrs, outs in self._steps:
            try:
                result = kernel(*[env[n] for n in ins], **attrs)
            except errors.OpError as exc:
                if exc.op is not None:
                    raise
                raise self.error_for(op, exc) from None
            except Exception as exc:
                raise self.error_for(op, exc) from None
            if op.opdef.num_outputs == 1:
                env[outs[0]] = result
            elif outs:
                env.update(zip(outs, result))
        return tuple([env[n] for n in self._out_names])

    def compile_later(self, *arrays):
        self.fn = self.compile()
        return self.fn(*arrays)

    def runtime_error(self, exc):
        """Wraps a kernel failure with the failing op and where the user created it."""
        op, frame = self.failing_op(exc.__traceback__)
        if op is None:
            return error_helpers.kernel_failure(exc, f'{self._fn_name} failed: {exc}')
        return self.kernel_error(op, frame) or self.error_for(op, exc)

    def kernel_error(self, op, frame):
        """The error op's graph kernel raises on the values that failed, or None.

        Generated code writes many ops as bare numpy (`x[i]`, `np.dot(a, b.T)`, `a + b`), whose
        failures speak numpy; rerunning the kernel on the same inputs gives the error the kernel
        call would have given (TF's). Only ops that are one pure kernel call are rerun."""
        names = self._op_inputs.get(op)
        if names is None or frame is None or op.opdef.stateful or op.opdef.emit is not None:
            return None
        scope = {**self._namespace, **frame.f_locals}
        if not all(n in scope for n in names):
            return None
        try:
            kernel = low_precision.widened_kernel(op, op.opdef.graph_kernel) or op.opdef.graph_kernel
            kernel(*[scope[n] for n in names], **op.attrs)
        except Exception as exc:  # noqa: BLE001 - any failure of the kernel is the op's error
            return self.error_for(op, exc)
        return None

    def error_for(self, op, exc):
        """TF's error for a failure of `op` while the graph runs: 'Graph execution error', the
        user's line that created the op, the failure, and the node (an OpError keeps its class
        and its message, which names the op's inputs; another failure is an InvalidArgumentError
        naming the op and its inputs' shapes and dtypes)."""
        if isinstance(exc, errors.OpError):
            inner = error_helpers.without_op_prefix(exc.message, op.type)
        else:
            inner = (f"{op.type} failed on inputs ("
                     f"{', '.join(error_helpers.describe(t) for t in op.inputs)}): {exc}")
        lines = ['Graph execution error:', '',
                 f'Detected at node {op.name} defined at (most recent call last):']
        if op.origin is not None:
            filename, lineno, func = op.origin
            lines.append(f'  File "{filename}", line {lineno}, in {func}')
            lines.append('    ' + linecache.getline(filename, lineno).strip())
        lines += ['', inner, f'\t [[{{{{node {op.name}}}}}]] [Op:__inference_{self._fn_name}]']
        message = '\n'.join(lines)
        if isinstance(exc, errors.OpError):
            return type(exc)(None, op, message)
        return error_helpers.kernel_failure(exc, message, op)

    def failing_op(self, tb):
        """(op, frame of the generated code) of the innermost generated line that failed."""
        op = frame = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self._filename:
                found = self._op_lines.get(tb.tb_lineno)
                if found is not None:
                    op, frame = found, tb.tb_frame
            tb = tb.tb_next
        return op, frame
