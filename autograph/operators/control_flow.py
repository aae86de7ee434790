"""`if_stmt`, `while_stmt`, `for_stmt`: statements as functions of their blocks.

Blocks arrive as argument-less functions that read and write the user's variables through
`nonlocal`; `get_state` / `set_state` read and write the construct's state (branch outputs or loop
variables, named by `symbol_names`). With a Python condition or iterable the statement simply runs.
With a tensor while a graph is built, it becomes `defun.cond` / `defun.while_loop`: each traced block
starts from the state the construct was entered with, and what it leaves behind is checked so that
errors name the variable (undefined in a branch, changing dtype or shape across iterations).
"""
from defun import control_flow as cf
from defun.core import nest
from defun.control_flow import trial_tracing
from defun.graphs.graph import placeholder
from defun.ops.array import creation
from defun.ops.math import logic
from defun.ops.framework import python_ops

from autograph.operators import loop_state
from autograph.operators import py_builtins
from autograph.operators import special_values
from autograph.operators import tensors

__all__ = ['for_stmt', 'if_stmt', 'while_stmt']  # the `ag__` names (see __init__.py)


def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts, one_sided_returns=False):
    """Runs `body` if `cond` else `orelse`; a graph-tensor `cond` stages both with `defun.cond`.

    `one_sided_returns` (the ONE_SIDED_RETURNS feature): where one branch returns and the other
    does not, zeros stand in for the value on the path that does not; by default that is an error,
    as in TF.
    """
    if tensors.is_graph_tensor(cond):
        _graph_if(cond, body, orelse, get_state, set_state, symbol_names, nouts, one_sided_returns)
    elif cond:
        body()
    else:
        orelse()


def _graph_if(cond, body, orelse, get_state, set_state, symbol_names, nouts, one_sided_returns):
    initial = get_state()
    stand_ins = {}
    if one_sided_returns:
        stand_ins = _return_stand_ins(body, orelse, get_state, set_state, initial, nouts)
    returns = {i for i, v in enumerate(initial[:nouts]) if special_values.is_undefined_return(v)}
    traced = {}

    def branch(block, label):
        def run():
            set_state(initial)
            block()
            outputs = tuple(stand_ins.get(i, v) if special_values.is_undefined_return(v) else v
                            for i, v in enumerate(get_state()[:nouts]))
            _check_branch(outputs, symbol_names, label, returns)
            outputs = tensors.to_tensor_leaves(outputs)
            traced[label] = outputs
            if len(traced) == 2:
                _check_branches_agree(traced['main'], traced['else'], symbol_names)
            return outputs
        return run

    if nouts == 0:
        cf.cond(cond, _no_outputs(branch(body, 'main')), _no_outputs(branch(orelse, 'else')))
        set_state(initial)
        return
    results = cf.cond(cond, branch(body, 'main'), branch(orelse, 'else'))
    set_state(tuple(results) + tuple(initial[nouts:]))


def _return_stand_ins(body, orelse, get_state, set_state, initial, nouts):
    """Zeros standing in for a return value in the branch that does not return.

    Needed only when the return value is still undefined on entry; the branches are then staged
    once in a throwaway graph (defun.control_flow.trial_tracing) to learn the type of the value
    the other one returns.
    """
    undefined = [i for i, v in enumerate(initial[:nouts]) if special_values.is_undefined_return(v)]
    if not undefined:
        return {}

    def trial():
        staged = []
        for block in (body, orelse):
            set_state(initial)
            block()
            staged.append(get_state()[:nouts])
        return staged

    try:
        staged = trial_tracing.trial_trace(trial, name='if_branches_probe')
    finally:
        set_state(initial)
    stand_ins = {}
    for i in undefined:
        typed = [z for z in (tensors.zeros_like_structure(s[i]) for s in staged) if z is not None]
        if typed:
            stand_ins[i] = typed[0][0]
    return stand_ins


def _no_outputs(run):
    def wrapped():
        run()
        return None
    return wrapped


def _check_branch(outputs, symbol_names, label, returns):
    """Raises for outputs a branch left undefined or None; `returns`: the return-value slots."""
    for i, (name, value) in enumerate(zip(symbol_names, outputs)):
        if special_values.is_undefined_return(value) or (value is None and i in returns):
            raise ValueError(
                'the %s branch must also have a return statement: the other branch of this'
                ' tensor-dependent `if` returns a value (the ONE_SIDED_RETURNS feature lets the'
                ' function return later on this path instead)' % label)
        if special_values.is_undefined(value):
            raise ValueError(
                "'%s' must also be initialized in the %s branch: it is used after a tensor-dependent"
                " `if`, so both branches must give it a value" % (name, label))
        if value is None:
            raise ValueError(
                "'%s' is None at the end of the %s branch of a tensor-dependent `if`; both branches"
                ' must give it a tensor value (for the return value: a function that returns a'
                ' value on some paths must return one on all of them, not None or nothing)'
                % (name, label))


def _check_branches_agree(main, other, symbol_names):
    for name, a, b in zip(symbol_names, main, other):
        try:
            nest.assert_same_structure(a, b)
        except (ValueError, TypeError) as e:
            raise TypeError("'%s' must have the same nested structure in the main and else branches:"
                            ' %s' % (name, e)) from e
        for x, y in zip(nest.flatten(a), nest.flatten(b)):
            if tensors.is_tensor(x) and tensors.is_tensor(y) and x.dtype != y.dtype:
                raise TypeError("'%s' has dtype %s in the main branch, but dtype %s in the else branch"
                                % (name, x.dtype.name, y.dtype.name))


def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    """Runs `while test(): body()`; a graph-tensor test stages the loop with `defun.while_loop`."""
    first = test()
    if tensors.is_graph_tensor(first):
        _graph_while(test, body, get_state, set_state, symbol_names, opts)
        return
    condition = first
    while True:
        if tensors.is_graph_tensor(condition):
            raise NotImplementedError(
                'the condition of while loop started as non-Tensor, then changed to Tensor (a'
                ' Python value at first, a tensor later): a break or return inside it depends on a'
                ' tensor, or a variable of the condition changes type. Make the loop a tensor loop'
                ' from the start (e.g. a tensor condition) instead')
        if not condition:
            return
        body()
        condition = test()


def _graph_while(test, body, get_state, set_state, symbol_names, opts):
    state = loop_state.LoopState(get_state, set_state, symbol_names, opts, 'while loop')
    state.prepare(body)

    def cond_fn(*loop_vars):
        state.enter(loop_vars)
        return _as_condition(test())

    def body_fn(*loop_vars):
        state.enter(loop_vars)
        body()
        return state.leave(loop_vars)

    results = cf.while_loop(cond_fn, body_fn, state.initial, **state.loop_kwargs())
    state.finish(results)


def _as_condition(value):
    return value if tensors.is_tensor(value) else creation.constant(bool(value))


def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """Runs `for x in iter_: body(x)` while `extra_test()` holds; tensors use `defun.while_loop`."""
    iterable = py_builtins.indexed_iterable(iter_)
    if iterable is not None:
        if not tensors.is_range_tensor(iter_):
            # As TF: only a loop over a range leaves its target at zero after no iteration.
            opts = {k: v for k, v in (opts or {}).items() if k != 'iterate_names'}
        _graph_for(iterable, extra_test, body, get_state, set_state, symbol_names, opts)
        return
    if tensors.building_graph() and hasattr(iter_, 'graph_iterator'):
        # A dataset is looped over as TF's reduce; an iterator (`iter(ds)`) as a while loop.
        _iterator_for(iter_.graph_iterator(), extra_test, body, get_state, set_state,
                      symbol_names, opts, as_reduce=iter_.graph_iterator() is not iter_)
        return
    if tensors.is_tensor_array(iter_):
        iter_ = (iter_.read(i) for i in range(int(iter_.size())))
    if extra_test is not None and not _python_extra_test(extra_test):
        return
    for item in iter_:
        body(item)
        if extra_test is not None and not _python_extra_test(extra_test):
            return


def _python_extra_test(extra_test):
    value = extra_test()
    if tensors.is_graph_tensor(value):
        raise NotImplementedError(
            'a break or return that depends on a tensor is not supported in Python for loops (a'
            ' loop over a Python iterable cannot stop on a tensor condition). Iterate over a'
            ' tensor (e.g. tf.range) to make it a tensor loop')
    return value


def _graph_for(iterable, extra_test, body, get_state, set_state, symbol_names, opts):
    state = loop_state.LoopState(get_state, set_state, symbol_names, opts, 'for loop')
    state.prepare(lambda: body(iterable.item(creation.constant(0))))
    length = iterable.length

    def cond_fn(index, *loop_vars):
        state.enter(loop_vars)
        condition = index < length
        if extra_test is not None:
            condition = logic.logical_and(condition, _as_condition(extra_test()))
        return condition

    def body_fn(index, *loop_vars):
        state.enter(loop_vars)
        body(iterable.item(index))
        return (index + 1,) + state.leave(loop_vars)

    results = cf.while_loop(cond_fn, body_fn, (creation.constant(0),) + state.initial,
                               **state.loop_kwargs(extra=1))
    state.finish(results[1:])


def _iterator_for(iterator, extra_test, body, get_state, set_state, symbol_names, opts,
                  as_reduce):
    """A loop over a graph iterator (of a tf.data dataset, see defun/data/graph_ops.py): the
    element and whether there is one are loop variables, refetched after each run of the body;
    unknown dims of the element (a last partial batch) are allowed by its shape invariants.

    Over a dataset (`as_reduce`) TF runs a reduce: loop variables may change shape, and the results
    have no gradient. Over an iterator TF runs a while loop, which checks shapes as any loop."""
    state = loop_state.LoopState(get_state, set_state, symbol_names, opts, 'for loop')
    has_value, element = iterator.next_or_default()
    parts = _ElementParts(element)
    state.prepare(lambda: body(element))
    if as_reduce:
        _relax_invariants(state, lambda: body(element))

    def cond_fn(has_value, element, *loop_vars):
        state.enter(loop_vars)
        if extra_test is None:
            return has_value
        return logic.logical_and(has_value, _as_condition(extra_test()))

    def body_fn(has_value, element, *loop_vars):
        state.enter(loop_vars)
        body(parts.element(element))
        has_next, following = iterator.next_or_default()
        return (has_next, parts.loop_value(following)) + state.leave(loop_vars)

    kwargs = state.loop_kwargs()
    invariants = kwargs.pop('shape_invariants', None) or nest.map_structure(
        lambda _: None, state.initial)
    kwargs['shape_invariants'] = (None, parts.loop_value(iterator.element_shapes)) + tuple(
        invariants)
    results = cf.while_loop(cond_fn, body_fn, (has_value, parts.loop_value(element)) +
                            state.initial, **kwargs)
    if as_reduce:
        results = (None, None) + tuple(nest.map_structure(_without_gradient, r)
                                       for r in results[2:])
    state.finish(results[2:])


class _ElementParts:
    """An element as a loop variable: its None leaves (NoneTensorSpec: TF's while_loop takes no
    None) left out, and put back for the body. Without Nones the element is used as it is."""

    def __init__(self, element):
        self.template = element
        self.keep = [leaf is not None for leaf in nest.flatten(element)]
        self.whole = all(self.keep)

    def loop_value(self, value):
        if self.whole:
            return value
        return tuple(v for v, k in zip(nest.flatten(value), self.keep) if k)

    def element(self, value):
        if self.whole:
            return value
        it = iter(value)
        return nest.pack_sequence_as(self.template, [next(it) if k else None for k in self.keep])


def _without_gradient(value):
    return python_ops.stop_gradient(value) if tensors.is_tensor(value) else value


def _relax_invariants(state, iteration):
    """TF runs a loop over a dataset as a reduce, which relaxes the shape of a loop variable that
    changes across iterations (a scalar accumulating tensors of unknown shape); here staged trial
    iterations (in throwaway graphs) find those shapes, which become the variables' invariants."""
    n = len(state.names)
    for _ in range(3):
        entry = [_trial_input(v, i) for v, i in zip(state.initial[:n], state.invariants)]

        def trial():
            state.set_state(tuple(entry))
            iteration()
            return tuple(state.get_state())
        try:
            after = trial_tracing.trial_trace(trial, name='dataset_loop_probe')
        finally:
            state.set_state(state.user_initial)
        changed = False
        for i, (before, out) in enumerate(zip(entry, after)):
            if tensors.is_tensor(before) and tensors.is_tensor(out) and \
                    before.dtype == out.dtype and not out.shape.is_subtype_of(before.shape):
                state.invariants[i] = before.shape.most_specific_compatible_shape(out.shape)
                changed = True
        if not changed:
            return


def _trial_input(value, invariant):
    if not tensors.is_tensor(value) or tensors.is_tensor_array(value):
        return value
    return placeholder(value.dtype, invariant if invariant is not None else value.shape)
