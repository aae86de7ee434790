"""The single dispatch point: every op call, eager or symbolic, goes through `apply_op`.

Eager: run the op's numpy kernel on the inputs' arrays, wrap the results, and let each active tape
record the call. While a graph is being built: ask the graph to add a node (it infers dtypes and shapes
with the op's own rule); tapes active inside the graph record that node the same way.

Before either, the op's TF signature (its registry entry's schema) is checked here and nowhere else:
an input dtype or attribute value TF's OpDef refuses is TF's error, eager or graph-building.

Kernel failures are re-raised as TensorFlow's error types with the op, the input shapes and dtypes in
the message, so no bare numpy traceback reaches the user without that context.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from defun.core import context, error_helpers, errors, low_precision
from defun.core.registry import OpDef
from defun.core.tensor import EagerTensor, Tensor
from defun.core.unsupported import NotInDefunError

__all__ = ['apply_op', 'binary_operator', 'OpRecord']

_state = context.state()
_new_tensor = object.__new__  # skips EagerTensor.__init__'s frame on the hot path


class OpRecord:
    """What a tape keeps of one eager op call; has the Operation interface gradient functions use."""

    __slots__ = ('opdef', 'inputs', 'outputs', 'attrs')

    def __init__(self, opdef, inputs, outputs, attrs):
        self.opdef = opdef
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs

    @property
    def type(self):
        return self.opdef.type

    @property
    def name(self):
        return self.opdef.type

    def get_attr(self, name):
        try:
            return self.attrs[name]
        except (KeyError, TypeError):
            raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.") from None


def apply_op(opdef: OpDef, inputs: Sequence[Tensor], attrs: dict | None = None,
             name: str | None = None) -> Any:
    """Runs (eager) or adds (graph) one op. Returns a Tensor, or a tuple when num_outputs != 1
    (in a graph, an op with no outputs returns its Operation).

    `inputs` must already be tensors of the right dtypes (the op's Python wrapper converts them).
    """
    st = _state
    if not st.quiet:
        return _apply_recorded(st, opdef, inputs, attrs, name)
    # The op's TF signature (see op_schema); True: an input is bfloat16 or another low-precision
    # type, whose kernel runs widened (off the hot path).
    if opdef.check is not None and opdef.check(inputs, attrs) is not None:
        return _apply_low_precision(opdef, inputs, attrs)
    # The eager hot path: no graph, no tape. Arity-specific calls avoid building a list.
    try:
        if attrs:
            out = opdef.kernel(*[t.array for t in inputs], **attrs)
        elif len(inputs) == 2:
            out = opdef.kernel(inputs[0].array, inputs[1].array)
        elif len(inputs) == 1:
            out = opdef.kernel(inputs[0].array)
        else:
            out = opdef.kernel(*[t.array for t in inputs])
    except Exception as exc:
        raise kernel_error(opdef, inputs, attrs, exc) from None
    if opdef.num_outputs == 1:
        if out.__class__ is bytes:  # a string scalar out of an object array (see EagerTensor)
            return EagerTensor(out)
        result = _new_tensor(EagerTensor)
        result.array = out
        return result
    if len(out) == 1 and out[0].__class__ is not bytes:
        # One output of a multi-output op (a compiled call returning one tensor): the per-call
        # hot path of a compiled function, so skip EagerTensor's constructor as above.
        result = _new_tensor(EagerTensor)
        result.array = out[0]
        return (result,)
    return tuple([EagerTensor(o) for o in out])


def binary_operator(opdef, general, name):
    """The Tensor method of a Python operator (`a + b`) running `opdef`, in one frame for the
    commonest eager line: two eager tensors of one numeric dtype the op's signature takes (its
    check, made here by one set lookup) while nothing records run the bare kernel; anything else
    (strings included) is `general(self, other)`: conversion, recording, TF's errors."""
    kernel = opdef.graph_kernel
    accepted = opdef.schema.runs_numeric('T')

    def method(self, other):
        if other.__class__ is EagerTensor and self.__class__ is EagerTensor and _state.quiet:
            x, y = self.array, other.array
            dtype = x.dtype
            if dtype is y.dtype and dtype in accepted:
                try:
                    out = kernel(x, y)
                except errors.OpError:
                    raise
                except Exception as exc:
                    raise kernel_error(opdef, (self, other), None, exc) from None
                result = _new_tensor(EagerTensor)
                result.array = out
                return result
        return general(self, other)
    method.__name__ = name
    return method


def _apply_recorded(st, opdef, inputs, attrs, name):
    """apply_op while a graph is being built or tapes are recording."""
    graph = st.graph
    if graph is not None:
        if opdef.schema is not None:
            opdef.schema.check_graph(inputs, attrs)
        op = graph.create_op(opdef, inputs, attrs, name)
        if opdef.schema is not None:
            opdef.schema.check_kernels(inputs, attrs)
        outputs = op.outputs
        if opdef.num_outputs == 0:
            # An op with no outputs (assert, print, assignment without read) is returned itself,
            # as TF does in graphs, so it can be a control dependency.
            return op
    else:
        low = opdef.check is not None and opdef.check(inputs, attrs) is not None
        out = _run_kernel(opdef, inputs, attrs, low)
        if opdef.num_outputs == 1:
            outputs = (EagerTensor(out),)
        else:
            outputs = tuple([EagerTensor(o) for o in out])
    for tape in st.tapes:
        tape.record(opdef, inputs, outputs, attrs)
    return outputs[0] if opdef.num_outputs == 1 else outputs


def _run_kernel(opdef, inputs, attrs, low_precision_inputs):
    """The op's kernel on the inputs' arrays (widened for low-precision inputs): its output or
    outputs, or TF's error."""
    try:
        arrays = [t.array for t in inputs]
        if low_precision_inputs:
            return low_precision.run(opdef.kernel, arrays, attrs,
                                     low_precision.eager_output_dtypes(opdef, inputs, attrs),
                                     opdef.num_outputs == 1, opdef.low_precision_steps)
        return opdef.kernel(*arrays, **attrs) if attrs else opdef.kernel(*arrays)
    except Exception as exc:
        raise kernel_error(opdef, inputs, attrs, exc) from None


def _apply_low_precision(opdef, inputs, attrs):
    """apply_op's eager call with a bfloat16 (or other low-precision) input, nothing recording."""
    out = _run_kernel(opdef, inputs, attrs, True)
    if opdef.num_outputs == 1:
        return EagerTensor(out)
    return tuple([EagerTensor(o) for o in out])


def kernel_error(opdef, inputs, attrs, exc):
    """Turns a failure inside a kernel into TF's error type with the op and its inputs named (the
    one place eager kernel failures are converted: ops need no try/except of their own). An
    OpError stays as it is, unless the op explains its own errors (a compiled call names the
    failing op inside and the user's line) and it is not located yet."""
    if isinstance(exc, NotInDefunError):
        return exc  # a missing optional package (ml_dtypes for bfloat16) says so itself
    if isinstance(exc, errors.OpError):
        if opdef.explain_error is not None and exc.op is None:
            return opdef.explain_error(exc, inputs, attrs)
        return error_helpers.eager_op_error(exc, opdef.type)
    if opdef.explain_error is not None:
        return opdef.explain_error(exc, inputs, attrs)
    if any(not isinstance(t, EagerTensor) for t in inputs):
        bad = next(t for t in inputs if not isinstance(t, EagerTensor))
        return error_helpers.InaccessibleTensorError(
            f'{opdef.type}: input {bad!r} is a symbolic tensor from a graph that is no longer being '
            f'built; it cannot be used in eager code (return it from the function instead).')
    described = ', '.join(error_helpers.describe(t) for t in inputs)
    # The op's own inference rule usually words a bad shape or dtype better than numpy does.
    try:
        opdef.infer(*inputs, **attrs) if attrs else opdef.infer(*inputs)
    except errors.OpError as inferred:
        return type(inferred)(f'{opdef.type} failed on inputs ({described}): {inferred.message}')
    except (ValueError, TypeError) as inferred:
        return errors.InvalidArgumentError(f'{opdef.type} failed on inputs ({described}): '
                                           f'{inferred}')
    except Exception:  # an inference rule that cannot judge eager inputs: fall through
        pass
    attr_text = ''
    if attrs:
        attr_text = ' with ' + ', '.join(f'{k}={_short(v)}' for k, v in attrs.items())
    return error_helpers.kernel_failure(exc, f'{opdef.type} failed on inputs ({described}){attr_text}: '
                                      f'{exc}')


def _short(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + '...'
