"""AutoGraph on tensors inside `defun.function`: staged control flow and its errors.

These need defun's control-flow ops; they are skipped until `defun.cond` and `defun.while_loop`
exist. Gradients through converted loops and conds are compared with finite differences.
"""
import sys

import numpy as np
import pytest

import autograph
import defun
from defun.core.error_helpers import InaccessibleTensorError

needs_control_flow = pytest.mark.skipif(
    not all(hasattr(defun, n) for n in ('function', 'cond', 'while_loop', 'TensorArray')),
    reason='defun control-flow ops are not available yet')
pytestmark = needs_control_flow


ONE_SIDED = autograph.experimental.Feature.ONE_SIDED_RETURNS


def _value(t):
    return np.asarray(t).tolist()


def test_tensor_if_traces_once_for_all_branches():
    @defun.function
    def f(x):
        if x > 0:
            y = x * 2
        else:
            y = -x
        return y
    assert [_value(f(defun.constant(v))) for v in (3, -4)] == [6, 4]
    assert f.experimental_get_tracing_count() == 1


def test_tensor_loops_with_break_continue_and_return():
    @defun.function
    def f(n):
        total = 0
        for i in defun.range(n):
            if i % 2 == 0:
                continue
            if i > 7:
                break
            total += i
        return total

    def first_square_above(limit):
        i = defun.constant(0)
        while i < 100:
            if i * i > limit:
                return i
            i += 1
        return defun.constant(-1)
    assert _value(f(defun.constant(20))) == 1 + 3 + 5 + 7
    one_sided = defun.function(first_square_above, experimental_autograph_options=ONE_SIDED)
    assert _value(one_sided(defun.constant(30))) == 6
    # TF's default: a return under a tensor condition in a tensor loop is not implemented.
    with pytest.raises(NotImplementedError, match='return statement cannot be placed inside'):
        defun.function(first_square_above)(defun.constant(30))


def test_variable_defined_in_one_branch_raises_value_error():
    @defun.function
    def f(x):
        if x > 0:
            y = x
        return y
    with pytest.raises(ValueError, match="'y'"):
        f(defun.constant(1))


def test_loop_variable_dtype_and_shape_errors_name_the_variable():
    @defun.function
    def dtype_change(n):
        x = defun.constant(0)
        for i in defun.range(n):
            x = defun.cast(x, defun.float32) + 1.0
        return x

    @defun.function
    def shape_change(n):
        x = defun.constant([1])
        for i in defun.range(n):
            x = defun.concat([x, x], 0)
        return x
    with pytest.raises(TypeError, match="'x' has dtype int32"):
        dtype_change(defun.constant(3))
    with pytest.raises(ValueError, match="'x' has shape"):
        shape_change(defun.constant(2))


def test_python_while_with_tensor_break_is_not_implemented():
    @defun.function
    def f(limit):
        s = defun.constant(0)
        while True:
            s += 1
            if s > limit:
                break
        return s
    # The pre-flight check warns about exactly this at conversion.
    with pytest.raises(NotImplementedError), \
            pytest.warns(autograph.AutoGraphWarning, match='leaves a Python `while True` loop'):
        f(defun.constant(3))


def test_list_append_in_tensor_loop_becomes_tensor_array_with_the_lists_feature():
    @defun.function(experimental_autograph_options=autograph.experimental.Feature.LISTS)
    def f(n):
        out = []
        for i in defun.range(n):
            out.append(i * i)
        return defun.stack(out)
    assert _value(f(defun.constant(4))) == [0, 1, 4, 9]


def test_list_append_in_tensor_loop_leaks_the_body_tensor_by_default():
    # TF 2.21's default (no LISTS feature): the append runs once, while the body is traced, and
    # the body's tensor cannot be used after the loop (InaccessibleTensorError).
    @defun.function
    def f(n):
        out = []
        for i in defun.range(n):
            out.append(i * i)
        return defun.stack(out)
    with pytest.raises(InaccessibleTensorError):
        f(defun.constant(4))


def test_set_loop_options_maximum_iterations():
    @defun.function
    def f(n):
        i = defun.constant(0)
        while i < n:
            autograph.experimental.set_loop_options(maximum_iterations=3)
            i += 1
        return i
    assert _value(f(defun.constant(10))) == 3


def test_logical_and_short_circuits_on_tensors():
    @defun.function
    def f(x, y):
        return y != 0 and x / y > 1.0
    assert _value(f(defun.constant(4.0), defun.constant(2.0))) is True
    assert _value(f(defun.constant(1.0), defun.constant(0.0))) is False


def test_gradient_through_converted_loop_and_cond():
    @defun.function
    def f(x):
        y = x
        for i in defun.range(3):
            if y > 1.0:
                y = y * x
            else:
                y = y + x * x
        return y

    def numeric(x0, eps=1e-3):
        return (f(defun.constant(x0 + eps)).numpy() - f(defun.constant(x0 - eps)).numpy()) / (2 * eps)
    # Away from the points where a branch flips (x = 0.5 takes y to exactly 1.0 in the last
    # iteration), where the function jumps and finite differences mean nothing.
    for x0 in (0.3, 1.5):
        x = defun.constant(x0)
        with defun.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        grad = tape.gradient(y, x)
        np.testing.assert_allclose(grad.numpy(), numeric(x0), rtol=1e-2)


def test_return_from_nested_tensor_loops_stops_both():
    # The inner loop's break flag is read by its extra test: it must be a loop variable.
    @defun.function(experimental_autograph_options=ONE_SIDED)
    def f(n):
        for i in defun.range(n):
            for j in defun.range(n):
                if i * j == 6:
                    return i, j
        return -1, -1
    assert [_value(v) for v in f(defun.constant(5))] == [2, 3]
    assert [_value(v) for v in f(defun.constant(3))] == [-1, -1]


def test_variable_first_assigned_in_loop_is_probed_and_checked_at_run_time():
    # Its type comes from staging the body in a throwaway graph (control_flow.trial_tracing), even
    # though a constant-False cond would not stage it; zero iterations fail as in TF.
    @defun.function
    def f(n):
        x = None
        i = 0
        while i < n:
            if i > 1:
                last = i * 2
            else:
                last = i
            x = last
            i += 1
        return x
    assert _value(f(defun.constant(4))) == 6
    with pytest.raises(defun.errors.InvalidArgumentError, match='iterate at least once'):
        f(defun.constant(0))


def test_value_returned_on_one_tensor_path_only_raises_as_tf():
    def f(x):
        if x > 1:
            return x

    def g(n):
        for i in defun.range(n):
            if i == 4:
                return i
    # TF 2.21's errors (types and the phrases its tests match).
    with pytest.raises(ValueError, match='else branch must also have a return'):
        defun.function(f)(defun.constant(3))
    with pytest.raises(NotImplementedError, match='return statement cannot be placed inside'):
        defun.function(g)(defun.constant(6))
    # With ONE_SIDED_RETURNS the falling-off path returns None, which a tensor if cannot carry.
    for fn, arg in ((f, 3), (g, 6)):
        with pytest.raises(ValueError, match='return'):
            defun.function(fn, experimental_autograph_options=ONE_SIDED)(defun.constant(arg))


def _clamp(v):
    if v > 10:
        return defun.constant(10)
    return v


def test_map_fn_converts_the_function_it_is_given():
    # TF's map_fn wraps `fn` in autograph.tf_convert: a Python `if` on a tensor inside a function
    # passed by reference (not a lambda of the converted code) becomes a cond.
    @defun.function
    def f(x):
        return defun.map_fn(_clamp, x), defun.map_fn(fn=_clamp, elems=x * 2)
    a, b = f(defun.constant([1, 20, 3]))
    assert _value(a) == [1, 10, 3] and _value(b) == [2, 10, 6]


def test_enumerate_and_zip_over_a_graph_tensor_raise_as_in_tf():
    # TF's enumerate/zip overloads only special-case datasets: Python's builtins then iterate the
    # symbolic tensor, which raises OperatorNotAllowedInGraphError (a TypeError).
    @defun.function
    def with_enumerate(x):
        s = defun.constant(0.0)
        for i, v in enumerate(x):
            s += v
        return s

    @defun.function
    def with_zip(x, y):
        s = defun.constant(0.0)
        for a, b in zip(x, y):
            s += a * b
        return s

    x = defun.constant([1.0, 2.0])
    with pytest.raises(TypeError, match='enumerate'):
        with_enumerate(x)
    with pytest.raises(TypeError, match='zip'):
        with_zip(x, x)

    @defun.function
    def python_lists(xs):
        s = defun.constant(0.0)
        for i, (a, b) in enumerate(zip(xs, [1.0, 2.0])):
            s += a * b + i
        return s
    assert _value(python_lists([defun.constant(3.0), defun.constant(4.0)])) == 12.0


def test_print_of_graph_tensors_prints_numpy_values_at_run_time_with_builtin_functions(capsys):
    # With Feature.BUILTIN_FUNCTIONS TF overloads print with a py_func calling Python's print on
    # the tensors' numpy values (autograph_ops._tf_py_func_print): numpy formatting, in program
    # order with tf.print.
    @defun.function(
        experimental_autograph_options=autograph.experimental.Feature.BUILTIN_FUNCTIONS)
    def f(x):
        for i in defun.range(2):
            print('py', i, x / 3.0, sep=',')
            defun.print('tf', i, output_stream=sys.stdout)
        print(x > 1.0, end='!\n')
        return x
    capsys.readouterr()
    f(defun.constant([1.0, 2.0]))
    assert capsys.readouterr().out == ('py,0,[0.33333334 0.6666667 ]\ntf 0\n'
                                       'py,1,[0.33333334 0.6666667 ]\ntf 1\n[False  True]!\n')


def test_print_runs_at_trace_time_and_shows_symbolic_tensors(capsys):
    # TF 2.21's default: Python's print is left alone, so it runs while tracing (once per trace)
    # and shows the graph tensors; tf.print runs at every call. Expected text recorded from TF.
    @defun.function
    def f(a, b):
        print(a, b)
        print('py', 2.0)
        defun.print('tf', a, output_stream=sys.stdout)
        return a
    capsys.readouterr()
    f(defun.constant(1), defun.constant([[1.5, 2.0]]))
    f(defun.constant(2), defun.constant([[1.5, 2.0]]))
    assert capsys.readouterr().out == (
        'Tensor("a:0", shape=(), dtype=int32) Tensor("b:0", shape=(1, 2), dtype=float32)\n'
        'py 2.0\ntf 1\ntf 2\n')


def test_print_of_python_values_inside_a_compiled_function_prints_them(capsys):
    @defun.function
    def f(x):
        print('x is', x, {'foo': 'bar'})
        return 1
    capsys.readouterr()
    f(3)
    f(3)
    assert capsys.readouterr().out == "x is 3 {'foo': 'bar'}\n"


def test_autograph_trace_prints_while_tracing(capsys):
    @defun.function
    def f(x):
        for i in defun.range(2):
            autograph.trace('i is', i.dtype.name)
        return x
    capsys.readouterr()
    f(defun.constant(1))
    f(defun.constant(2))
    assert capsys.readouterr().out == 'i is int32\n'


def _elif_returns(x):
    if x > 0:
        return x
    elif x < -5:
        return -x
    return x * 3


def _nested_in_else(x):
    if x > 0:
        return x
    else:
        if x < -5:
            return -x
    return x * 3


def _two_ifs(x):
    if x > 0:
        return x
    if x < -5:
        return -x
    return x * 3


def _if_then_return(x):
    if x > 0:
        return x
    return x * 3


def test_statements_after_an_if_move_into_its_branch_only_as_tf():
    # TF 2.21: the statements after an `if` whose body returns join its else branch, but not the
    # else of an `if` (an elif) nested there, whose tensor form then lacks a return.
    for fn in (_elif_returns, _nested_in_else):
        with pytest.raises(ValueError, match='the else branch must also have a return statement'):
            defun.function(fn)(defun.constant(-1.0))
    for fn in (_two_ifs, _if_then_return):
        assert _value(defun.function(fn)(defun.constant(-1.0))) == -3.0
    # With Python conditions every path still runs as Python does.
    for fn in (_elif_returns, _nested_in_else, _two_ifs, _if_then_return):
        converted = autograph.to_graph(fn)
        assert [converted(v) for v in (-7.0, -3.0, 1.0)] == [fn(v) for v in (-7.0, -3.0, 1.0)]
