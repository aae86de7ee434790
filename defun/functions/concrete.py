"""ConcreteFunction: one traced graph made callable, and its gradient as another ConcreteFunction.

Calling a ConcreteFunction is one op (`PartitionedCall`, or `StatefulPartitionedCall` when the graph
touches state) through the single dispatch point: eagerly it runs the compiled graph, inside another
trace it becomes a node of the outer graph, and under a tape it is recorded as one op.

Gradients: the backward graph is derived symbolically from the forward graph (the same backward pass
as tapes and `gradients()` use) into a FuncGraph that reads forward tensors it needs by capturing them.
Those captured forward tensors are the *intermediates*: the forward variant of the call returns them
as extra outputs, so the backward never recomputes the forward. Both are built once per
ConcreteFunction, lazily, and the backward is itself a ConcreteFunction, so higher-order gradients and
nested compiled calls work the same way.
"""
import threading

from defun.core import context, dtypes, error_helpers, errors, nest
from defun.core.composite import is_composite
from defun.core.dispatch import apply_op, kernel_error
from defun.compiler.executor import compile_graph
from defun.graphs.funcgraph import variable_of
from defun.functions.call_plan import CallPlan
from defun.functions.function_type import from_placeholders
from defun.autodiff.gradient_graph import GradientGraph
from defun.graphs.operation import GraphTensor
from defun.ops.framework import base_ops
from defun.core.registry import define_op
from defun.autodiff.tape import variable_accessed
from defun.core.tensor import EagerTensor
from defun.core.variable_base import is_variable

__all__ = ['ConcreteFunction']

_state = context.state()


def _call_kernel(*arrays, f, with_intermediates):
    if with_intermediates:
        return f.gradient_parts().forward_call.fn(*arrays)
    return f.callable.fn(*arrays)


def _call_error(exc, inputs, attrs):
    return attrs['f'].runtime_error(exc, attrs['with_intermediates'])


def _call_infer(*inputs, f, with_intermediates):
    return f.output_specs(with_intermediates)


def _call_grad(op, *grads):
    return op.get_attr('f').call_gradient(op, grads)


# The gradient takes None for outputs that got none: a zero fed for an intermediate would pick
# the higher-order backward, which multiplies it by the forward's own derivatives (0 * inf = nan
# where a custom gradient avoided them).
CALL = define_op('PartitionedCall', _call_kernel, _call_infer, _call_grad, num_outputs=None,
                 explain_error=_call_error, accepts_missing_grads=True, integer_outputs_seed=True)
STATEFUL_CALL = define_op('StatefulPartitionedCall', _call_kernel, _call_infer, _call_grad,
                          num_outputs=None, stateful=True, explain_error=_call_error,
                          accepts_missing_grads=True, integer_outputs_seed=True)


def _is_stateful(graph):
    return any(op.opdef.stateful for op in graph.get_operations())


class ConcreteFunction:
    """A traced function for one input signature: `graph`, `inputs`, `outputs`, `variables`..."""

    def __init__(self, graph, arg_placeholders, structured_outputs, name=None,
                 structured_input_signature=None, arg_binder=None, intermediates_order=None,
                 function_type=None):
        self.graph = graph
        self._arg_placeholders = list(arg_placeholders)
        arg_ids = {id(p) for p in self._arg_placeholders}
        # Everything the graph captured from outside that is not an argument is fed on each call.
        pairs = [(outer, inner) for outer, inner in graph.captures if id(inner) not in arg_ids]
        self._captured_values = [outer for outer, _ in pairs]
        self._flat_inputs = self._arg_placeholders + [inner for _, inner in pairs]
        self.structured_outputs = structured_outputs
        self.structured_input_signature = structured_input_signature
        self.name = name or graph.name
        self._arg_binder = arg_binder
        self.function_type = function_type or from_placeholders(self._arg_placeholders,
                                                                structured_outputs)
        self._opdef = STATEFUL_CALL if _is_stateful(graph) else CALL
        self._callable = compile_graph(graph, self._flat_inputs, graph.outputs, self.name)
        self.callable = self._callable   # its `fn`: arrays in, arrays out
        self._plain_attrs = {'f': self, 'with_intermediates': False}
        self._gradient_attrs = {'f': self, 'with_intermediates': True}
        self._pack = _packer(structured_outputs)
        # For Function.__call__'s hot path (see call_arrays): one plain tensor out, or a structure.
        self.single_output = (not nest.is_nested(structured_outputs)
                              and structured_outputs is not None
                              and not is_composite(structured_outputs))
        # The arrays fed after the arguments, for callers of `callable.fn` (captured eager tensors
        # never change; a trace capturing an outer graph's tensors has none, and is never memoized).
        self.captured_arrays = () if self.captures_enclosing_graph() else tuple(
            t.array for t in self._captured_values)
        self._lock = threading.Lock()
        self._gradient_parts = None   # (forward callable, intermediates, backward fn) once built
        self._gradient_error = None
        # The order the forward variant returns its intermediates in, when a graph rebuilt from a
        # SavedModel already calls it that way (see _GradientParts).
        self.intermediates_order = intermediates_order

    # -- the TF surface
    @property
    def inputs(self):
        return list(self._flat_inputs)

    @property
    def outputs(self):
        return list(self.graph.outputs)

    @property
    def output_shapes(self):
        """The static shape of each output, in the structure the function returns."""
        return nest.map_structure(lambda t: t.shape if hasattr(t, 'shape') else t,
                                  self.structured_outputs)

    @property
    def output_dtypes(self):
        return nest.map_structure(lambda t: t.dtype if hasattr(t, 'dtype') else t,
                                  self.structured_outputs)

    @property
    def captured_inputs(self):
        return list(self._captured_values)

    def captures_enclosing_graph(self):
        """True when the trace closed over tensors of the graph it was traced inside."""
        return any(isinstance(t, GraphTensor) for t in self._captured_values)

    @property
    def variables(self):
        return tuple(self.graph.variables)

    @property
    def trainable_variables(self):
        return tuple(v for v in self.graph.variables if v.trainable)

    @property
    def inference_fn(self):
        """The graph as TF's AtomicFunction: called with the flat tensor inputs only."""
        return AtomicFunction(self)

    @property
    def function_source(self):
        """The generated Python source that runs the forward graph."""
        return self._callable.source

    @property
    def backward_source(self):
        """The generated source of the backward function (building it if needed)."""
        return self.backward_function().function_source

    def pretty_printed_signature(self, verbose=True):
        """TF's text: Input Parameters / Output Type / Captures, or one line when not verbose."""
        if not verbose:
            return str(self.function_type)
        return '\n'.join(self.function_type.pretty_lines(self._captured_values))

    def __str__(self):
        return 'ConcreteFunction ' + self.pretty_printed_signature()

    def __repr__(self):
        return f'<ConcreteFunction {self.function_type} at 0x{id(self):X}>'

    # -- calling
    def __call__(self, *args, **kwargs):
        try:
            flat = self._arg_binder(args, kwargs) if self._arg_binder else list(args)
            return self.call_flat(self.check_flat_args(flat))
        except Exception as exc:
            raise error_helpers.filtered(exc)  # the user's frames only, as TF

    def check_flat_args(self, flat):
        """The flat tensor arguments checked against the placeholders (Variables given for
        Variable arguments become their handles); TF's InvalidArgumentError for a wrong dtype."""
        if len(flat) != len(self._arg_placeholders):
            raise TypeError(f'{self.name} takes {len(self._arg_placeholders)} tensor arguments, '
                            f'got {len(flat)}')
        checked = []
        for i, (value, ph) in enumerate(zip(flat, self._arg_placeholders)):
            if ph.dtype is dtypes.resource and is_variable(value):
                value = value.handle  # a Variable given for a Variable argument
            # As TF, a Python value converts to the argument's dtype (1 for a float32 spec).
            t = base_ops.to_tensor(value, dtype=ph.dtype, op=self.name) \
                if not isinstance(value, (EagerTensor, GraphTensor)) else value
            if t.dtype is not ph.dtype:
                raise errors.InvalidArgumentError(
                    f'cannot compute __inference_{self.name} as input #{i}(zero-based) was '
                    f'expected to be a {error_helpers.kernel_type_name(ph.dtype)} tensor but is a '
                    f'{error_helpers.kernel_type_name(t.dtype)} tensor [Op:__inference_{self.name}]')
            if not ph.shape.is_compatible_with(t.shape):
                raise TypeError(
                    f'{self.name}: argument {ph.op.name} expects {_spec_text(ph)}, got '
                    f'{_spec_text(t)}. Call the tf.function itself to trace a new signature.')
            checked.append(t)
        return checked

    def call_flat(self, tensors):
        """Calls with the flat list of argument tensors; returns the structured outputs."""
        inputs = tensors + self._captured_values
        st = _state
        if st.quiet:
            # The hot path: eager, nothing records.
            return self._pack(apply_op(self._opdef, inputs, self._plain_attrs))
        if st.tapes:
            _notify_variable_reads(self.graph.variables)
            # Variables passed as arguments are read through their handles, fed like tensors.
            _notify_variable_reads([v for v in map(variable_of, tensors) if v is not None])
        attrs = self._gradient_attrs if self._wants_intermediates(inputs) else self._plain_attrs
        return self._pack(apply_op(self._opdef, inputs, attrs))

    def call_error(self, tensors, exc):
        """The error for `exc` raised by `callable.fn` on `tensors` (the arguments), exactly as a
        call through apply_op raises it: for callers that run the generated function themselves."""
        return kernel_error(self._opdef, tensors + self._captured_values, self._plain_attrs, exc)

    def call_plan(self, key):
        """The fast call of this trace for eager tensors of the (dtype, shape) pairs `key`."""
        return CallPlan(self, key)

    def pack_arrays(self, out):
        """The structured result for the arrays `callable.fn` returned."""
        return self._pack([EagerTensor(o) for o in out])

    def _wants_intermediates(self, inputs):
        if not self.graph.outputs:
            return False
        if _state.graph is None:
            tapes = _state.tapes
            if not any(id(t) in tape.tracked for tape in tapes for t in inputs):
                return False
        return self.gradient_parts() is not None

    def runtime_error(self, exc, with_intermediates=False):
        """The error to raise for a failure inside the compiled graph: names the failing op and
        the user's line that created it."""
        callable_ = self._gradient_parts.forward_call if with_intermediates else self._callable
        return callable_.runtime_error(exc)

    def output_specs(self, with_intermediates):
        tensors = list(self.graph.outputs)
        if with_intermediates:
            # Built on demand: a graph rebuilt from a SavedModel names the forward variant first.
            tensors += self.gradient_parts().intermediates
        return [(t.dtype, t.shape.as_tuple()) for t in tensors]

    # -- gradients
    @property
    def built_intermediates(self):
        """The intermediates the forward variant returns, if its gradient was built; else None."""
        return None if self._gradient_parts is None else list(self._gradient_parts.intermediates)

    def gradient_parts(self):
        """The _GradientParts, built once; None when the graph has no gradient (the error is raised
        when a gradient is asked for)."""
        if self._gradient_parts is None and self._gradient_error is None:
            with self._lock:
                if self._gradient_parts is None and self._gradient_error is None:
                    try:
                        self._gradient_parts = _GradientParts(self)
                    except LookupError as exc:
                        self._gradient_error = exc
        return self._gradient_parts

    def backward_function(self):
        parts = self.gradient_parts()
        if parts is None:
            raise self._gradient_error
        return parts.first_order

    def call_gradient(self, op, grads):
        """Gradient of one call op: feeds output gradients and intermediates to the backward."""
        parts = self.gradient_parts()
        if parts is None:
            raise self._gradient_error
        if not op.get_attr('with_intermediates'):
            raise LookupError(f"No intermediates were kept for call op '{op.name}' of {self.name}; "
                              f'its gradient cannot be computed')
        n_out = len(self.graph.outputs)
        outputs, kept = op.outputs[:n_out], op.outputs[n_out:]
        higher = any(g is not None for g in grads[n_out:])
        if higher:
            backward, read, index = parts.full, parts.full_read, parts.full_index
            pairs = list(zip(outputs, grads[:n_out])) + list(zip(kept, grads[n_out:]))
        else:
            backward, read, index = parts.first_order, parts.first_read, parts.first_index
            pairs = list(zip(outputs, grads[:n_out]))
        seeds = [g if g is not None else base_ops.zeros_like(t)
                 for t, g in pairs if t.dtype.is_differentiable]
        fed = [op.inputs[parts.input_index[id(t)]] if id(t) in parts.input_index
               else kept[parts.position[id(t)]] for t in read]
        flat = nest.flatten(backward.call_flat(seeds + fed))
        result = [None] * len(op.inputs)
        for i, g in zip(index, flat):
            result[i] = g
        return result


class AtomicFunction:
    """A traced graph called with flat tensors (no Python-signature binding), as TF's
    `concrete.inference_fn`; its name is TF's `__inference_<function>` (bytes)."""

    def __init__(self, concrete):
        self._concrete = concrete
        self.name = f'__inference_{concrete.name}'.encode()
        self.function_type = from_placeholders(concrete.inputs[:len(concrete.inputs) - len(
            concrete.captured_inputs)], concrete.structured_outputs)

    @property
    def graph(self):
        return self._concrete.graph

    def __call__(self, *tensors):
        return self.call_flat(list(tensors))

    def call_flat(self, tensors):
        concrete = self._concrete
        return concrete.call_flat(concrete.check_flat_args(list(tensors)))

    def __repr__(self):
        return f'AtomicFunction(name={self.name!r}, function_type={self.function_type})'


def _spec_text(t):
    dims = t.shape.as_tuple()
    shape = '<unknown>' if dims is None else str(list(dims)).replace('None', '?')
    return f'{t.dtype.name}{shape}'


def _packer(structure):
    """A function from the call op's flat outputs (None leaves absent, intermediates after the
    outputs) to the structure the Python function returned."""
    if not nest.is_nested(structure) and not is_composite(structure):
        if structure is None:
            return lambda flat: None
        return lambda flat: flat[0]
    leaves = nest.flatten(structure, expand_composites=True)
    slots = [i for i, v in enumerate(leaves) if v is not None]

    def pack(flat):
        values = [None] * len(leaves)
        for i, value in zip(slots, flat):
            values[i] = value
        return nest.pack_sequence_as(structure, values, expand_composites=True)
    return pack


def _notify_variable_reads(variables):
    for v in variables:
        variable_accessed(v)


def _build_backward(concrete, targets, suffix):
    """A backward ConcreteFunction taking one gradient per float tensor of `targets` (forward
    tensors) followed by the forward tensors it reads; returns it, those tensors, and which forward
    input each of its outputs is the gradient of."""
    gradient = GradientGraph(concrete.graph, [t for t in targets if t.dtype.is_differentiable],
                             concrete.inputs, f'{concrete.name}_{suffix}')
    grad_index = [i for i, g in enumerate(gradient.grads) if g is not None]
    grads = [gradient.grads[i] for i in grad_index]
    graph = gradient.graph
    graph.outputs = grads
    read = [outer for outer, _ in gradient.forward_reads()]
    backward = ConcreteFunction(graph, gradient.seeds + [graph.captured(t) for t in read],
                                list(grads), name=graph.name)
    return backward, read, grad_index


class _GradientParts:
    """The forward variant returning intermediates, and the backward functions that consume them.

    `first_order` takes gradients of the outputs only (the usual case). `full` also takes gradients
    of the intermediates, which appear when the backward itself is differentiated (higher order):
    it is found by a fixed point, since differentiating with respect to intermediates may read
    further forward tensors, which then must be returned too.
    """

    def __init__(self, concrete):
        forward = concrete.graph
        outputs = list(forward.outputs)
        # A forward input the backward reads (an argument, a captured tensor or variable handle)
        # is fed from the call's own inputs: returning it again would copy it, and a resource
        # handle cannot be an output value.
        self.input_index = {id(t): i for i, t in enumerate(concrete.inputs)}
        self.first_order, first_read, self.first_index = _build_backward(
            concrete, outputs, 'backward')
        intermediates = [t for t in first_read if id(t) not in self.input_index]
        while True:
            full, read, index = _build_backward(concrete, outputs + intermediates, 'backward_full')
            known = {id(t) for t in intermediates}
            new = [t for t in read if id(t) not in known and id(t) not in self.input_index]
            if not new:
                break
            intermediates += new
        self.full, self.full_read, self.full_index = full, read, index
        self.first_read = first_read
        order = concrete.intermediates_order
        if order is not None and len(order) == len(intermediates) and \
                {id(t) for t in order} == {id(t) for t in intermediates}:
            intermediates = list(order)
        self.intermediates = intermediates
        self.position = {id(t): i for i, t in enumerate(intermediates)}
        self.forward_call = compile_graph(forward, concrete.inputs, outputs + intermediates,
                                          f'{concrete.name}_forward')
