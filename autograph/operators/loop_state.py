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
import defun

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

    def prepare(self, first_iteration):
        """Computes `initial` (and shape invariants); `first_iteration` runs the body once."""
        values = list(self.user_initial)
        invariants = self._user_invariants()
        unknown = [i for i, v in enumerate(values) if _needs_probe(v)]
        if unknown:
            first = self._probe(first_iteration)
            for i in unknown:
                values[i], invariants[i] = self._placeholder(self.names[i], values[i], first[i])
        values = [defun.constant(v) if tensors.is_python_scalar(v) else v for v in values]
        if not self.names:
            # A loop with no variables (e.g. it only assigns Variables) still needs one to carry.
            values, invariants = [defun.constant(0)], [None]
        self.initial = tuple(values)
        self.invariants = invariants

    def enter(self, loop_vars):
        if self.names:
            self.set_state(tuple(loop_vars))

    def leave(self, loop_vars):
        if not self.names:
            return tuple(loop_vars)
        outputs = tensors.to_tensor_leaves(tuple(self.get_state()))
        for name, entry, exit_, invariant in zip(self.names, loop_vars, outputs, self.invariants):
            self._check(name, entry, exit_, invariant)
        return outputs

    def finish(self, results):
        if self.names:
            self.set_state(tuple(results))

    def loop_kwargs(self, extra=0):
        kwargs = {}
        if self.opts.get('maximum_iterations') is not None:
            kwargs['maximum_iterations'] = self.opts['maximum_iterations']
        if any(i is not None for i in self.invariants):
            shapes = [i if i is not None else getattr(v, 'shape', None)
                      for v, i in zip(self.initial, self.invariants)]
            kwargs['shape_invariants'] = (defun.TensorShape([]),) * extra + tuple(shapes)
        return kwargs

    def _user_invariants(self):
        invariants = [None] * len(self.names)
        for value, shape in self.opts.get('shape_invariants', ()):
            matches = [i for i, v in enumerate(self.user_initial) if v is value]
            if not matches:
                raise ValueError('set_loop_options: a shape invariant names a value that is not a'
                                 ' variable of this %s' % self.construct)
            for i in matches:
                invariants[i] = defun.TensorShape(shape) if isinstance(shape, (list, tuple)) else shape
        return invariants

    def _probe(self, first_iteration):
        """Runs one iteration in a throwaway graph; returns the state it leaves behind.

        The throwaway graph is the never-taken branch of a `defun.cond` on a constant False: a
        branch can use every tensor of the graph around it, and its ops never run.
        """
        captured = []

        def trial():
            self.set_state(tuple(list(v) if isinstance(v, list) else v for v in self.user_initial))
            first_iteration()
            captured.append(tuple(self.get_state()))
            return defun.constant(0)

        try:
            defun.cond(defun.constant(False), trial, lambda: defun.constant(0))
        except Exception as e:  # the body cannot be staged from these values: report the first cause
            raise self._undefined_error('staging one iteration to infer its type failed: %s: %s'
                                        % (type(e).__name__, e)) from e
        finally:
            self.set_state(self.user_initial)
        if not captured:
            raise self._undefined_error('defun.cond did not stage the loop body')
        return captured[0]

    def _undefined_error(self, reason):
        names = [n for n, v in zip(self.names, self.user_initial) if _needs_probe(v)]
        return ValueError("'%s' must be defined before the %s (%s)" % (names[0], self.construct, reason))

    def _placeholder(self, name, before, after):
        """Starting value (and shape invariant) for a variable with no usable value before the loop."""
        if isinstance(before, list) and isinstance(after, list):
            if not after:
                return before, None
            element = after[0]
            return defun.TensorArray(element.dtype, size=0, dynamic_size=True,
                                     element_shape=element.shape), None
        if special_values.is_undefined(after) or after is None:
            raise ValueError("'%s' must be defined before the %s: it is used in the loop or after it,"
                             ' but has no value on entry' % (name, self.construct))
        if not (tensors.is_python_scalar(after) or tensors.is_tensor(after)):
            raise ValueError("'%s' must be defined before the %s (it becomes a %s inside it)"
                             % (name, self.construct, type(after).__name__))
        try:
            return tensors.zeros_like_value(after)
        except ValueError as e:
            raise ValueError("'%s' must be defined before the %s: %s" % (name, self.construct, e))

    def _check(self, name, entry, exit_, invariant):
        try:
            defun.nest.assert_same_structure(entry, exit_)
        except (ValueError, TypeError) as e:
            raise TypeError("'%s' does not have the same nested structure after one iteration of the"
                            ' %s: %s' % (name, self.construct, e)) from e
        for a, b in zip(defun.nest.flatten(entry), defun.nest.flatten(exit_)):
            if b is None or special_values.is_undefined(b):
                raise ValueError("'%s' is %s at the end of an iteration of the %s"
                                 % (name, 'None' if b is None else 'undefined', self.construct))
            if not (tensors.is_tensor(a) and tensors.is_tensor(b)):
                continue
            if a.dtype != b.dtype:
                raise TypeError("'%s' has dtype %s before the %s, but dtype %s after one iteration"
                                % (name, a.dtype.name, self.construct, b.dtype.name))
            general = invariant if invariant is not None else a.shape
            if not tensors.is_subshape(b.shape, general):
                raise ValueError(
                    "'%s' has shape %s before the %s, but shape %s after one iteration; use"
                    ' autograph.experimental.set_loop_options(shape_invariants=[(%s, shape)]) to'
                    ' allow it to change' % (name, general, self.construct, b.shape, name))


def _needs_probe(value):
    return value is None or special_values.is_undefined(value) or (isinstance(value, list) and not value)
