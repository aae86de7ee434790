"""TF 2.21's errors where its AutoGraph reference tests match them: types and the matched phrases.

The phrases come from running the same functions under TensorFlow 2.21; the functions are ours.
"""
import warnings

import pytest

import autograph
import defun


def _made_in_one_branch(c):
    if c:
        v = 1
    return v  # noqa: F821


def _deleted_in_both_branches(c):
    v = 1
    if c:
        del v
    else:
        del v
    return v  # noqa: F821


def test_reading_an_unassigned_name_says_used_before_assignment():
    with pytest.raises(UnboundLocalError, match="'v' is used before assignment"):
        defun.function(_made_in_one_branch)(False)


def test_del_is_carried_through_a_tensor_if():
    with pytest.raises(ValueError, match="'v' must also be initialized in the main branch"):
        defun.function(_deleted_in_both_branches)(defun.constant(True))
    with pytest.raises(UnboundLocalError, match="'v'"):
        defun.function(_deleted_in_both_branches)(True)


def test_del_then_read_raises_unbound_local_error_as_python():
    def f(x):
        y = x
        del y
        return y  # noqa: F821
    with pytest.raises(UnboundLocalError):
        autograph.to_graph(f)(1)


def _dtype_changes(n):
    x = defun.constant(0)
    for _ in defun.range(n):
        x = defun.constant(0.0)
    return x


def _shape_changes():
    t = defun.constant([1])
    while defun.constant(True):
        t = defun.constant([1, 1])
    return t


def _invariant_violated():
    t = defun.constant([1])
    while defun.constant(True):
        autograph.experimental.set_loop_options(shape_invariants=[(t, defun.TensorShape([1]))])
        t = defun.range(defun.random.uniform((), 2, 3, dtype=defun.int32))
    return t


def test_loop_variables_changing_dtype_or_shape():
    with pytest.raises(TypeError, match="'x' has dtype int32 before the loop, but dtype float32"
                                        " after one iteration"):
        defun.function(_dtype_changes)(defun.constant(3))
    with pytest.raises(ValueError, match=r"'t' has shape \(1,\) before the loop, but shape"
                                         r" \(2,\) after one iteration"):
        defun.function(_shape_changes)()
    with pytest.raises(ValueError, match=r"'t' has shape \(None,\) after one iteration, which does"
                                         " not conform"):
        defun.function(_invariant_violated)()


def test_a_python_while_whose_condition_becomes_a_tensor():
    def f():
        c = True
        while c:
            c = defun.constant(True)
        return 1
    with pytest.raises(NotImplementedError,
                       match='condition of while loop started as non-Tensor, then changed to Tensor'):
        defun.function(f)()


def test_a_python_for_broken_by_a_tensor():
    def f(xs):
        s = 0
        for x in xs:
            if defun.greater(x, 1):
                break
            s += x
        return s
    with pytest.raises(NotImplementedError, match='not supported in Python for loops'):
        defun.function(f)([1, 2, 3])


def _for_else(xs):
    s = 0
    for x in xs:
        s += x
    else:
        s = -1
    return s


def _generator(n):
    yield n


def test_unsupported_constructs_run_unconverted_with_a_warning(monkeypatch):
    monkeypatch.delenv('AUTOGRAPH_STRICT_CONVERSION', raising=False)
    with pytest.warns(autograph.AutoGraphWarning, match='for/else'):
        assert autograph.to_graph(_for_else) is _for_else
    with pytest.warns(autograph.AutoGraphWarning, match='generators'):
        assert autograph.to_graph(_generator) is _generator


def test_strict_conversion_raises_for_unsupported_constructs(monkeypatch):
    monkeypatch.setenv('AUTOGRAPH_STRICT_CONVERSION', '1')
    def f(xs):
        for x in xs:
            x += 1
        else:
            x = 0
        return x
    def g():
        yield 1
    with pytest.raises(NotImplementedError, match='for/else'):
        defun.function(f)([1])
    with pytest.raises(NotImplementedError, match='generators'):
        defun.function(g)()


def test_loop_else_feature_converts_the_else_clause():
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        f = autograph.to_graph(_for_else,
                               experimental_optional_features=autograph.experimental.Feature.LOOP_ELSE)
    assert f is not _for_else and f([1, 2]) == -1


def test_zero_iterations_of_a_range_leave_the_target_at_zero_as_tf():
    # TF's rule: a loop over tf.range does not assert that it ran to define its target...
    def over(n, fn):
        s = 0
        for i in fn(n):
            s = s * 10 + i
        return i, s  # noqa: F821
    assert [int(v) for v in defun.function(over)(0, defun.range)] == [0, 0]
    # ...a loop over a tensor's elements does.
    with pytest.raises(defun.errors.InvalidArgumentError, match='loop must iterate at least once'):
        defun.function(over)(defun.constant([], dtype=defun.int32), lambda t: t)


def test_a_return_value_first_set_in_a_tensor_loop_needs_an_iteration():
    def f(xs):
        s = 0
        for x in xs:
            s += x
            return s
        return s
    assert int(defun.function(f)(defun.constant([3, 4]))) == 3
    with pytest.raises(defun.errors.InvalidArgumentError, match='must iterate at least once'):
        defun.function(f)(defun.constant([], dtype=defun.int32))


def test_variables_first_made_in_a_loop_with_unknown_rank_or_nested():
    def f(n):
        i = 0
        while i < n:
            v = {'a': defun.zeros(defun.range(defun.random.uniform((), i, i + 1, defun.int32))),
                 'b': defun.ones([1, i + 1])}
            i += 1
        return v['a'], v['b']
    a, b = defun.function(f)(defun.constant(2))
    assert a.shape == (0,) and b.shape == (1, 2)
