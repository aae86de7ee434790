"""FuncGraph: the graph a function is traced into, with inputs, outputs and captures.

`capture` is the single choke point through which anything from outside enters: an eager tensor, a
variable's handle, or a tensor of an enclosing graph becomes a placeholder of this graph (created once
per outer tensor, however often it is used). A variable's handle is captured by reference, so the
compiled function reads the variable's current value on every call. Nested FuncGraphs capture through
their parents, so the outer graph sees the capture too.
"""
from defun.core import context, error_helpers
from defun.compiler.executor import compile_graph
from defun.graphs.graph import PLACEHOLDER, Graph
from defun.graphs.operation import GraphTensor
from defun.core.shapes import TensorShape
from defun.core.tensor import EagerTensor

__all__ = ['FuncGraph', 'variable_of']


class FuncGraph(Graph):
    """A Graph with inputs, outputs, structured outputs, variables and captures."""

    building_function = True

    def __init__(self, name, outer_graph=None, capture_by_value=False, foreign_ok=False):
        super().__init__()
        self.name = name
        self.outer_graph = outer_graph
        self.inputs = []
        self.outputs = []
        self.structured_outputs = None
        self.structured_input_signature = None
        self.variables = []
        self._captures = {}          # id(outer tensor) -> (outer tensor, placeholder)
        self._handle_variables = {}  # id(placeholder of a variable handle) -> variable
        # A backward graph reads intermediates of its forward graph, which is not its ancestor.
        self.foreign_ok = foreign_ok
        # While tracing a call: the arrays of its tensor arguments (see lift_value).
        self.trace_argument_arrays = None
        if outer_graph is None and context.executing_eagerly():
            self.seed_offset = 0
        self.jit_compile = context.jit_requested()

    # -- inputs
    def add_placeholder(self, dtype, shape, name=None):
        with self.as_default():
            (ph,) = self.create_op(PLACEHOLDER, (), {'dtype': dtype, 'shape': TensorShape(shape)},
                                   name or 'Placeholder').outputs
        return ph

    # -- the capture choke point
    def internalize(self, tensor):
        if isinstance(tensor, GraphTensor) and tensor.op.graph is self:
            return tensor
        return self.capture(tensor)

    def capture(self, tensor, name=None):
        """Returns the placeholder standing for outer `tensor`, creating it on first use."""
        entry = self._captures.get(id(tensor))
        if entry is not None:
            return entry[1]
        if isinstance(tensor, GraphTensor):
            source = self._capture_source(tensor)
        elif isinstance(tensor, EagerTensor):
            source = tensor
        else:
            raise TypeError(f'Cannot capture {tensor!r}: only tensors and variables can be used '
                            f'inside a compiled function.')
        ph = self._new_capture_placeholder(tensor, name)
        self._captures[id(tensor)] = (source if source is not None else tensor, ph)
        self.inputs.append(ph)
        variable = variable_of(tensor)
        if variable is not None:
            self._handle_variables[id(ph)] = variable
            if not any(v is variable for v in self.variables):
                self.variables.append(variable)
        return ph

    def add_variable_input(self, placeholder, variable):
        """Records that input `placeholder` is the handle of `variable` (a Variable argument's
        stand-in), for the sub-graphs that capture it."""
        self._handle_variables[id(placeholder)] = variable

    def variable_for(self, placeholder):
        """The variable whose handle `placeholder` stands for, or None."""
        return self._handle_variables.get(id(placeholder))

    def _capture_source(self, tensor):
        """For a tensor of an enclosing graph, captures it into the parent first (so the parent
        feeds it); tensors of unrelated graphs are refused unless this graph allows them."""
        owner = tensor.op.graph
        graph = self.outer_graph
        while graph is not None and graph is not owner:
            graph = graph.outer_graph
        if graph is None and not self.foreign_ok:
            raise error_helpers.InaccessibleTensorError(
                f'The tensor {tensor.name} cannot be accessed from {self.name}, because it was '
                f'defined in another function or code block ({getattr(owner, "name", owner)!r}). '
                f'Return it from that function and pass it in as an argument instead.')
        if graph is not None and isinstance(self.outer_graph, FuncGraph) and \
                self.outer_graph is not owner:
            return self.outer_graph.capture(tensor)
        return tensor

    def _new_capture_placeholder(self, tensor, name):
        shape = tensor.shape.as_tuple()
        with self.as_default():
            (ph,) = self.create_op(PLACEHOLDER, (), {'dtype': tensor.dtype,
                                                     'shape': TensorShape(shape)},
                                   name or 'capture').outputs
        return ph

    @property
    def captures(self):
        """(outer tensor, placeholder) pairs, in capture order."""
        return [(outer, inner) for outer, inner in self._captures.values()]

    @property
    def external_captures(self):
        return [outer for outer, _ in self._captures.values()]

    @property
    def internal_captures(self):
        return [inner for _, inner in self._captures.values()]

    def captured(self, tensor):
        """The placeholder for outer `tensor` if it has been captured, else None."""
        entry = self._captures.get(id(tensor))
        return None if entry is None else entry[1]

    def lift_value(self, tensor):
        """Computes `tensor` now, as TF lifts a variable's initializer out of the function: from
        the ops it needs only, fed the eager tensors they capture and, for what reads the
        arguments, the argument values of the call being traced (how a variable created inside
        a function gets an initial value computed from its inputs); None when it depends on
        something unknown (an argument of a trace with no call, an outer graph's tensor)."""
        folded = self.fold(tensor)
        if folded is not None:
            return folded
        arguments = self.trace_argument_arrays or []
        feeds = {id(ph): getattr(outer, 'array', None) for outer, ph in self._captures.values()}
        feeds.update((id(ph), a) for ph, a in zip(self.inputs, arguments))
        needed = _placeholders_below(tensor)
        values = [feeds.get(id(ph)) for ph in needed]
        if any(v is None for v in values):
            return None
        return compile_graph(self, needed, [tensor], 'lifted_value', only_needed=True)(*values)[0]

    @property
    def trainable_variables(self):
        return [v for v in self.variables if v.trainable]


def _placeholders_below(tensor):
    """The placeholders `tensor` depends on (in the order first reached)."""
    seen, found, stack = set(), [], [tensor.op]
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        if op.opdef.is_placeholder:
            found.append(op.outputs[0])
        stack.extend(t.op for t in op.inputs)
        stack.extend(getattr(op, 'control_inputs', ()))
    return found


def variable_of(tensor):
    """The variable whose handle `tensor` is (an eager handle, or a handle placeholder of a
    FuncGraph), or None."""
    variable = getattr(tensor, 'variable', None)
    if variable is not None:
        return variable
    if isinstance(tensor, GraphTensor) and isinstance(tensor.op.graph, FuncGraph):
        return tensor.op.graph.variable_for(tensor)
    return None
