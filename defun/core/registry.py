"""The op registry: one OpDef per op type, holding its kernel, its dtype/shape inference and its
gradient side by side, and TensorFlow's gradient registration API on top of it.

An op is defined once through `define_op`; a second definition of the same type raises and names the
file and line of the first. Gradients live in a separate table keyed by op type, so that
`RegisterGradient` can give a gradient to an op type that has none yet (TF's rule: registering twice is
an error) and `no_gradient` marks an op type as not differentiable (its gradient is None).

The gradient function of an op has TF's signature `grad(op, *output_grads) -> input grads`, where `op`
has `type`, `name`, `inputs`, `outputs` and `get_attr(name)`: an Operation in a graph, or the record an
eager tape keeps. It must use public ops only, so that it works on eager and graph tensors alike.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from defun.core.op_schema import Schema
from defun.core.tf_signatures import CPU_KERNELS, SIGNATURES

__all__ = ['OpDef', 'Kernels', 'define_op', 'get_op', 'RegisterGradient', 'no_gradient', 'NotDifferentiable',
           'get_gradient_function', 'registered_ops', 'tf_attrs_except']


class Kernels:
    """A kernel given as a pair: `eager` (with eager-only input checks) for eager calls, `graph` (the
    bare kernel) for compiled graphs, which made the same checks once, in inference."""

    __slots__ = ('eager', 'graph')

    def __init__(self, eager: Callable, graph: Callable) -> None:
        self.eager = eager
        self.graph = graph


class OpDef:
    """Everything about one op type, set once by `define_op`.

    kernel(*input_arrays, **attrs) -> array, or a tuple of arrays when num_outputs != 1.
    graph_kernel: what compiled graphs call (the kernel without eager-only checks).
    infer(inputs, **attrs) -> (dtype, shape) or a list of them, one per output; `inputs` are tensors
      (eager or symbolic) whose shapes may hold None for unknown dims.
    num_outputs: an int, or None when it depends on attrs (infer then decides how many).
    stateful: the op reads or changes state (variables, random seeds, printing, asserts), so the
      executor keeps it in program order and never prunes or folds it.
    explain_error(exc, inputs, attrs) -> exception: for ops that run other code (function calls),
      turns a failure inside into an error naming what failed; default: the op and its inputs.
    emit(op, input_names, output_names, ctx) -> source lines: how the executor writes an op that
      needs more than one call (control flow); None: one kernel call (see executor.py).
    fold(op) -> value or None: the op's value at graph-build time read from the op alone (a
      constant's value, the shape of a tensor of known shape), without running the kernel.
    expression(op, input_names) -> source text or None: a numpy expression the executor may write
      instead of the kernel call, chosen by the op's static shapes and attrs, with exactly the
      kernel's result (e.g. a transposed MatMul as np.dot on .T views); None: call the kernel.
      Or a pair (text, positions): the expression is exact when those inputs are >= 0; the
      executor writes `text if <they are> else <kernel call>` (the kernel raising its error),
      without the test where it knows them to be (a loop counter).
    lowering: how the native tier (jit_compile=True, defun/compiler/jit/) writes the op in its
      generated numba source: a template ('np.exp({0})', inputs by position; '{dtype}' is the
      output's numpy type), or a pair (template, kinds) lowered only for inputs of those dtype
      kinds ('f': floats; 'iu': integers; 'b': bool), or a function
      lowering(op, input_names, ctx) -> expression text, or (lines, output expressions) for an op
      of several outputs or statements (control flow). It raises ctx.NotLowerable(reason) for a
      case it does not cover (the op then runs in the numpy tier, the report says why). None: the
      op always runs in the numpy tier.
    index_inputs(op) -> input positions: inputs the kernel and the expression use only as Python
      indices (through int() or a subscript), so generated code may pass a Python int there for an
      int32 scalar (a loop counter, see executor.PythonInts).
    partial_fold(op, partial) -> list or None: the op's integer output with only some elements
      known at build time (None for the others), as TF's constant_value_as_shape reads a shape
      built from `tf.shape(x)[0]` and constants; `partial(t)` gives the same for an input (an
      int or None for a scalar). Used by the shape inference of ops that take a shape tensor.
    takes_indexed_slices: the gradient function passes an IndexedSlices output gradient on as it
      is (Identity, ReadVariableOp), so a gather's sparse gradient reaches a variable sparse;
      other gradient functions get such gradients as dense tensors.
    reads_only: a stateful op that only reads state (a variable read): it may move past other
      reads, never past a write (a loop reading a variable it never writes reads it once).
    foldable: whether build-time folding may run the kernel on constant inputs.
    is_placeholder: the op stands for a value fed from outside (a graph's input).
    is_identity: the op's only output is its first input, unchanged (the executor aliases it).
    accepts_missing_grads: the gradient function takes None for outputs that got no gradient
      (instead of zeros) and skips that work.
    integer_outputs_seed: a gradient reaching only an integer output (a target of integer dtype)
      still runs the gradient function, with zeros for the float outputs (TF's function calls
      and while loops: their inputs then get zeros, not None).
    skips_unneeded_inputs: the gradient function takes `needed=` (one bool per input) and skips
      the work for inputs that depend on no source.
    kernel_takes_live_outputs: the kernel takes `live_outputs=` (the indices of the outputs that
      are read; absent: only those the op always computes) and may return None for the others
      (control-flow ops, whose declared intermediates cost work only when a gradient reads them).
    own_outputs(op) -> int, or None: for an op declaring intermediates, how many of its outputs
      are its own results (the others exist for gradients; graph views leave out unread ones).
    low_precision_steps: with bfloat16 (or another low-precision type), TF's kernel computes step
      by step in that type (running sums and products: cumsum, prod, add_n), so the kernel runs
      on the low-precision arrays as they are; otherwise it runs widened (core/low_precision).
    schema: TF's signature of the op (op_schema.Schema: the dtypes each input takes, the kinds of
      its attributes), or None; `check(inputs, attrs)` is its eager check, which the dispatch
      point calls before the kernel (None: nothing to check).
    """

    __slots__ = ('type', 'kernel', 'graph_kernel', 'infer', 'num_outputs', 'stateful',
                 'defined_at', 'doc', 'explain_error', 'emit', 'expression', 'index_inputs', 'fold',
                 'partial_fold', 'foldable', 'is_placeholder', 'is_identity', 'accepts_missing_grads',
                 'skips_unneeded_inputs', 'kernel_takes_live_outputs', 'own_outputs', 'reads_only',
                 'takes_indexed_slices', 'lowering', 'schema', 'check', 'integer_outputs_seed',
                 'low_precision_steps', '__weakref__')

    def __init__(self, type, kernel, infer, num_outputs=1, stateful=False, defined_at='', doc='',
                 explain_error=None, emit=None, expression=None, index_inputs=None, fold=None,
                 partial_fold=None, foldable=True, is_placeholder=False, is_identity=False,
                 accepts_missing_grads=False, skips_unneeded_inputs=False,
                 kernel_takes_live_outputs=False, own_outputs=None, reads_only=False,
                 takes_indexed_slices=False, lowering=None, schema=None,
                 integer_outputs_seed=False, low_precision_steps=False):
        self.type = type
        self.low_precision_steps = low_precision_steps
        self.integer_outputs_seed = integer_outputs_seed
        self.schema = schema
        self.check = None if schema is None else schema.eager_check
        self.explain_error = explain_error
        if isinstance(kernel, Kernels):
            self.kernel, self.graph_kernel = kernel.eager, kernel.graph
        else:
            self.kernel = self.graph_kernel = kernel
        self.infer = infer
        self.num_outputs = num_outputs
        self.stateful = stateful
        self.defined_at = defined_at
        self.doc = doc
        self.emit = emit
        self.expression = expression
        self.index_inputs = index_inputs
        self.fold = fold
        self.partial_fold = partial_fold
        self.foldable = foldable and not stateful and not is_placeholder and num_outputs != 0
        self.is_placeholder = is_placeholder
        self.is_identity = is_identity
        self.accepts_missing_grads = accepts_missing_grads
        self.skips_unneeded_inputs = skips_unneeded_inputs
        self.kernel_takes_live_outputs = kernel_takes_live_outputs
        self.own_outputs = own_outputs
        self.reads_only = reads_only
        self.takes_indexed_slices = takes_indexed_slices
        self.lowering = lowering

    @property
    def grad(self):
        """The registered gradient function, None if not differentiable, MISSING if unregistered."""
        return _GRADIENTS.get(self.type, MISSING)

    def __repr__(self):
        return f'<OpDef {self.type}>'


class _Missing:
    def __repr__(self):
        return 'MISSING'


MISSING = _Missing()

_OPS = {}
_GRADIENTS = {}   # op type -> gradient function, or None for "not differentiable"
_GRADIENT_SITES = {}


def _caller_site(depth=2):
    # sys._getframe, not inspect.stack(): the latter reads every frame's source (slow imports).
    frame = sys._getframe(depth)
    return f'{frame.f_code.co_filename}:{frame.f_lineno}'


def define_op(type: str, kernel: Callable | Kernels, infer: Callable, grad: Callable | None = MISSING,
              num_outputs: int | None = 1, stateful: bool = False, doc: str = '',
              explain_error: Callable | None = None, inputs: tuple | None = None,
              attrs: tuple | None = None, cpu_kernels: dict | None = None,
              **facts: Any) -> OpDef:
    """Defines op `type`; `grad` may be a gradient function, None (not differentiable) or omitted.

    `inputs` and `attrs` are TF's signature of the op in REGISTER_OP's spelling ('x: T',
    'T: {half, float, double}', 'k: int >= 0'; see op_schema), checked by the dispatch point.
    Left out (None), each is TF's own, from the table of TF's OpDefs (core/tf_signatures); an op
    whose inputs are not TF's (fewer, or in another form) gives its own, `()` for none.
    `cpu_kernels` (type attribute -> spelled types) replaces the types TF's CPU kernels of the op
    of that name run, for an op that is not that kernel (one op for what TF's public function
    composes of other ops, as tf.linspace): `{}` lifts the limit.

    `kernel` is a function or a `Kernels` pair; `facts` are the other OpDef fields (emit,
    expression, index_inputs, fold, partial_fold, foldable, is_placeholder, is_identity,
    accepts_missing_grads, skips_unneeded_inputs, kernel_takes_live_outputs, own_outputs,
    reads_only, lowering, integer_outputs_seed, low_precision_steps)."""
    site = _caller_site()
    if type in _OPS:
        raise ValueError(f"Op type '{type}' is already defined at {_OPS[type].defined_at}; "
                         f'second definition at {site}')
    tf_inputs, tf_attrs = SIGNATURES.get(type, ((), ()))
    inputs = tf_inputs if inputs is None else inputs
    attrs = tf_attrs if attrs is None else attrs
    kernels = CPU_KERNELS.get(type) if cpu_kernels is None else cpu_kernels
    schema = Schema(type, inputs, attrs, kernels) if inputs or attrs else None
    opdef = OpDef(type, kernel, infer, num_outputs, stateful, site, doc, explain_error,
                  schema=schema, **facts)
    _OPS[type] = opdef
    if grad is not MISSING:
        _register_gradient(type, grad, site)
    return opdef


def tf_attrs_except(type: str, *names: str) -> tuple:
    """TF's attribute specs of op `type` but those named: for an op whose attributes of those
    names hold something else than TF's (define_op(..., attrs=tf_attrs_except('MaxPoolGrad',
    'ksize', 'strides')) where defun keeps the 2 spatial numbers of TF's 4)."""
    return tuple(spec for spec in SIGNATURES[type][1] if spec.split(':')[0].strip() not in names)


def get_op(type: str) -> OpDef:
    try:
        return _OPS[type]
    except KeyError:
        raise LookupError(f"No op named '{type}' is defined") from None


def registered_ops() -> list[OpDef]:
    """All OpDefs, in definition order (tests walk this to check every op)."""
    return list(_OPS.values())


def _register_gradient(op_type, fn, site):
    if op_type in _GRADIENTS:
        raise KeyError(f"Registering two gradient with name '{op_type}'! "
                       f'(First at {_GRADIENT_SITES[op_type]}, second at {site})')
    _GRADIENTS[op_type] = fn
    _GRADIENT_SITES[op_type] = site


class RegisterGradient:
    """Decorator registering the gradient function for an op type, as `tf.RegisterGradient`."""

    def __init__(self, op_type: str) -> None:
        if not isinstance(op_type, str):
            raise TypeError('op_type must be a string')
        self._op_type = op_type

    def __call__(self, fn: Callable) -> Callable:
        _register_gradient(self._op_type, fn, _caller_site())
        return fn


def no_gradient(op_type: str) -> None:
    """Marks `op_type` as not differentiable: its gradient is None, never an error."""
    if not isinstance(op_type, str):
        raise TypeError('op_type must be a string')
    _register_gradient(op_type, None, _caller_site())


NotDifferentiable = no_gradient


def get_gradient_function(op: Any) -> Callable | None:
    """The gradient function for an op (honouring a graph's gradient_override_map).

    Returns None for ops registered as not differentiable; raises LookupError when the op type has no
    gradient registered at all.
    """
    op_type = getattr(op, 'gradient_type', None) or op.type
    fn = _GRADIENTS.get(op_type, MISSING)
    if fn is MISSING:
        raise LookupError(f"No gradient defined for operation '{op.name}' (op type: {op_type})")
    return fn
