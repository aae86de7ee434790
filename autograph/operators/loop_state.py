"""The state of a tensor loop: preparing, checking and handing over its loop variables.

Before `defun.while_loop` can run, every loop variable needs a tensor value of a fixed structure,
dtype and shape. `LoopState.prepare` gets there from what the user's code holds before the loop:

  * Python numbers become tensors (a Python `0` counter becomes an int32 tensor, as in TensorFlow);
  * a variable that is undefined or None before the loop (for example one first assigned inside it,
    or a `return` value) gets its type from staging the body once in a throwaway graph, and starts
    as zeros of that dtype and shape (TensorFlow does the same; the trial runs Python side effects
    of the body once more);
  * an empty list that the body appends tensors to becomes a TensorArray-backed list (AutoGraph
    turns `xs.append(v)` into `xs = ag__.list_append(xs, v)`), and `defun.stack(xs)` stacks it.

After each traced iteration `leave` checks the variables against their values on entry, so the
error names the variable: a changed nested structure or dtype raises TypeError, a changed shape
(not allowed by a `set_loop_options(shape_invariants=...)`) raises ValueError.
"""
from defun.core import context
from defun import control_flow as cf
from defun.core import nest
from defun.graphs import scopes
from defun.control_flow import trial_tracing
from defun.graphs.graph import placeholder
from defun.ops.framework import base_ops
from defun.ops.array import creation
from defun.ops.debugging import debug
from defun.core.shapes import TensorShape

from autograph.operators import special_values
from autograph.operators import tensors


class LoopState:
    """Loop variables of one tensor loop, between the user's variables and `defun.while_loop`."""

    def __init__(self, get_state, set_state, symbol_names, opts, construct):
        self.get_state = get_state
        self.set_state = set_state
        self.names = tuple(symbol_names)
        self.opts = dict(opts or {})
        self.construct = construct
        self.user_initial = tuple(get_state())
        self.initial = None
        self.invariants = None
        self.must_iterate = []

    def prepare(self, first_iteration):
        """Computes `initial` (and shape invariants); `first_iteration` runs the body once."""
        values = list(self.user_initial)
        invariants = self._user_invariants()
        unknown = [i for i, v in enumerate(values) if _needs_probe(v)]
        if unknown:
            first = self._probe(first_iteration)
            for i in unknown:
                values[i], invariants[i] = self._placeholder(self.names[i], values[i], first[i])
        values = [creation.constant(v) if tensors.is_python_scalar(v) else v for v in values]
        # A variable that had no value before the loop starts as zeros that only a run of the body
        # replaces: a loop that runs zero times must fail rather than hand them out (TF asserts
        # the same at run time). As in TF, a for loop's own target is exempt (`opts['iterate_names']`,
        # from the converter: after zero iterations it is the zero). With ONE_SIDED_RETURNS a return
        # value is exempt too: every path of the function sets it before the end.
        exempt = set(self.opts.get('iterate_names', ()))
        self.must_iterate = [
            self.names[i] for i in unknown
            if not isinstance(self.user_initial[i], list) and self.names[i] not in exempt
            and not (self.opts.get('one_sided_returns')
                     and special_values.is_undefined_return(self.user_initial[i]))]
        if self.must_iterate:
            values, invariants = values + [creation.constant(False)], invariants + [None]
        if not self.names:
            # A loop with no variables (e.g. it only assigns Variables) still needs one to carry.
            values, invariants = [creation.constant(0)], [None]
        self.initial = tuple(values)
        self.invariants = invariants

    def enter(self, loop_vars):
        if self.names:
            self.set_state(tuple(loop_vars[:len(self.names)]))

    def leave(self, loop_vars):
        if not self.names:
            return tuple(loop_vars)
        outputs = tensors.to_tensor_leaves(tuple(self.get_state()))
        for name, entry, exit_, invariant in zip(self.names, loop_vars, outputs, self.invariants):
            self._check(name, entry, exit_, invariant)
        return outputs + ((creation.constant(True),) if self.must_iterate else ())

    def finish(self, results):
        if not self.names:
            return
        results = tuple(results)
        if self.must_iterate:
            results = _after_one_iteration(results[-1], results[:-1], self.must_iterate)
        self.set_state(results)

    def loop_kwargs(self, extra=0):
        kwargs = {}
        if self.opts.get('maximum_iterations') is not None:
            kwargs['maximum_iterations'] = self.opts['maximum_iterations']
        if any(i is not None for i in self.invariants):
            # A variable without an invariant keeps its shapes: None for each of its leaves.
            shapes = [i if i is not None else nest.map_structure(lambda _: None, v)
                      for v, i in zip(self.initial, self.invariants)]
            kwargs['shape_invariants'] = (TensorShape([]),) * extra + tuple(shapes)
        return kwargs

    def _user_invariants(self):
        invariants = [None] * len(self.names)
        for value, shape in self.opts.get('shape_invariants', ()):
            matches = [i for i, v in enumerate(self.user_initial) if v is value]
            if not matches:
                raise ValueError('set_loop_options: a shape invariant names a value that is not a'
                                 ' variable of this %s' % self.construct)
            for i in matches:
                invariants[i] = TensorShape(shape) if isinstance(shape, (list, tuple)) else shape
        return invariants

    def _probe(self, first_iteration):
        """Runs one iteration in a throwaway graph; returns the state it leaves behind.

        The throwaway graph (defun.control_flow.trial_tracing) is nested in the graph being built,
        so the body can read every tensor it would read in the loop, and its ops never run. Python numbers
        enter it as placeholders, as they enter the loop as tensors: a `return` or an assignment
        under an `if` on them must be staged as it will be in the loop (TF does the same).
        """
        def trial():
            self.set_state(tuple(_as_placeholders(v) for v in self.user_initial))
            first_iteration()
            return tuple(self.get_state())

        try:
            return trial_tracing.trial_trace(trial, name='loop_body_probe')
        except (UnboundLocalError, TypeError, ValueError, KeyError) as e:
            # The body cannot be staged from these values (TF catches the same types here); other
            # errors (NotImplementedError of a nested Python loop, say) are the user's, unchanged.
            if any(special_values.is_undefined_return(v) for v in self.user_initial):
                # A return under a tensor condition inside the loop (TF's error; the
                # ONE_SIDED_RETURNS feature converts it).
                raise NotImplementedError(
                    'a return statement cannot be placed inside this TensorFlow loop: on some path'
                    ' of an iteration the function returns and on others it does not (%s: %s)'
                    % (type(e).__name__, e)) from e
            raise self._undefined_error('staging one iteration to infer its type failed: %s: %s'
                                        % (type(e).__name__, e)) from e
        finally:
            self.set_state(self.user_initial)

    def _undefined_error(self, reason):
        names = [n for n, v in zip(self.names, self.user_initial) if _needs_probe(v)]
        return ValueError("'%s' must be defined before the loop (this %s; %s)"
                          % (names[0], self.construct, reason))

    def _placeholder(self, name, before, after):
        """Starting value (and shape invariant) for a variable with no usable value before the loop."""
        if isinstance(before, list) and isinstance(after, list):
            if not after:
                return before, None
            element = after[0]
            return cf.TensorArray(element.dtype, size=0, dynamic_size=True,
                                     element_shape=element.shape), None
        if special_values.is_undefined(after) or after is None:
            raise ValueError("'%s' must be defined before the loop: it is used in this %s or after"
                             ' it, but has no value on entry' % (name, self.construct))
        placeholder = tensors.zeros_like_structure(after)
        if placeholder is None:
            raise ValueError("'%s' must be defined before the loop (this %s: it becomes a %s inside it, which"
                             ' cannot be given a starting value of tensors)'
                             % (name, self.construct, type(after).__name__))
        return placeholder

    def _check(self, name, entry, exit_, invariant):
        try:
            nest.assert_same_structure(entry, exit_)
        except (ValueError, TypeError) as e:
            raise TypeError("'%s' does not have the same nested structure after one iteration of the"
                            ' %s: %s' % (name, self.construct, e)) from e
        leaves = nest.flatten(entry)
        if invariant is None or isinstance(invariant, TensorShape):
            leaf_invariants = [invariant] * len(leaves)
        else:  # a nested variable: one invariant (or None) per leaf
            leaf_invariants = nest.flatten(invariant)
        for a, b, invariant in zip(leaves, nest.flatten(exit_), leaf_invariants):
            if b is None or special_values.is_undefined(b):
                raise ValueError("'%s' is %s at the end of an iteration of the %s"
                                 % (name, 'None' if b is None else 'undefined', self.construct))
            if not (tensors.is_tensor(a) and tensors.is_tensor(b)):
                continue
            if a.dtype != b.dtype:
                raise TypeError("'%s' has dtype %s before the loop, but dtype %s after one iteration"
                                " of this %s" % (name, a.dtype.name, b.dtype.name, self.construct))
            general = invariant if invariant is not None else a.shape
            if tensors.is_subshape(b.shape, general):
                continue
            if invariant is None:
                raise ValueError(
                    "'%s' has shape %s before the loop, but shape %s after one iteration of this"
                    ' %s; use autograph.experimental.set_loop_options(shape_invariants=[(%s,'
                    ' shape)]) to allow it to change' % (name, a.shape, b.shape, self.construct, name))
            raise ValueError("'%s' has shape %s after one iteration, which does not conform with its"
                             ' shape invariant %s (set_loop_options)' % (name, b.shape, invariant))


def _after_one_iteration(iterated, values, names):
    """`values`, read only after a run-time check that the loop ran (`iterated`)."""
    check = debug.Assert(
        iterated, ['loop must iterate at least once to initialize %s' % ', '.join(names)])
    with scopes.control_dependencies([check]):
        return tuple(nest.map_structure(
            lambda v: base_ops.identity(v) if tensors.is_tensor(v) else v, values))


def _as_placeholders(value):
    """A loop variable's value as the probe starts from: Python numbers (also inside lists, tuples
    and dicts) become placeholders of their tensor type; lists are copied, so appends stay local."""
    def convert(leaf):
        if not tensors.is_python_scalar(leaf):
            return leaf
        like = creation.constant(leaf)
        if context.executing_eagerly():  # no graph to stage into (the operators' eager tests)
            return like
        return placeholder(like.dtype, like.shape)
    if isinstance(value, list):
        return [nest.map_structure(convert, v) for v in value]
    return nest.map_structure(convert, value)


def _needs_probe(value):
    return value is None or special_values.is_undefined(value) or (isinstance(value, list) and not value)
