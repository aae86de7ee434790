"""Optional conversions (`tf.autograph.experimental.Feature`): TF 2.21's defaults and each option."""
import pytest

import autograph
import defun
from autograph.experimental import Feature


def _positive(x):
    assert x > 0
    return x


def test_assert_on_a_graph_tensor_is_pythons_assert_by_default():
    # TF converts no assert unless ASSERT_STATEMENTS is asked for: bool() of a symbolic tensor.
    with pytest.raises(defun.errors.OperatorNotAllowedInGraphError):
        defun.function(_positive)(defun.constant(1))


def test_assert_statements_feature_makes_a_graph_assertion():
    f = defun.function(_positive, experimental_autograph_options=Feature.ASSERT_STATEMENTS)
    assert int(f(defun.constant(2))) == 2
    with pytest.raises(defun.errors.InvalidArgumentError):
        f(defun.constant(0))
    with pytest.raises(AssertionError):
        f(0)


def test_all_turns_every_feature_on_and_collections_are_accepted():
    for opts in (Feature.ALL, (Feature.ASSERT_STATEMENTS, Feature.LISTS), Feature.all(),
                 Feature.all_but(Feature.LISTS)):
        f = defun.function(_positive, experimental_autograph_options=opts)
        with pytest.raises(defun.errors.InvalidArgumentError):
            f(defun.constant(-1))


def test_a_value_that_is_not_a_feature_is_refused():
    with pytest.raises(ValueError, match='Feature'):
        defun.function(_positive, experimental_autograph_options='FAST')


def test_to_graph_and_to_code_take_optional_features():
    converted = autograph.to_graph(_positive,
                                   experimental_optional_features=Feature.ASSERT_STATEMENTS)
    with pytest.raises(AssertionError):
        converted(-1)
    assert 'assert_stmt' in autograph.to_code(
        _positive, experimental_optional_features=Feature.ASSERT_STATEMENTS)
    assert 'assert_stmt' not in autograph.to_code(_positive)


def test_features_reach_the_functions_a_converted_function_calls():
    def outer(x):
        return _positive(x) + 1
    f = defun.function(outer, experimental_autograph_options=Feature.ASSERT_STATEMENTS)
    with pytest.raises(defun.errors.InvalidArgumentError):
        f(defun.constant(-3))
    with pytest.raises(defun.errors.OperatorNotAllowedInGraphError):
        defun.function(outer)(defun.constant(-3))


def test_experimental_compile_is_accepted():
    f = defun.function(lambda x: x * 2, experimental_compile=False)
    assert int(f(defun.constant(3))) == 6


def test_compat_v1_constant():
    # Values and error class recorded from TF 2.21's tf.compat.v1.constant.
    assert float(defun.compat.v1.constant(1.0)) == 1.0
    assert defun.compat.v1.constant([1, 2], shape=[2, 1]).shape == (2, 1)
    with pytest.raises(TypeError):
        defun.compat.v1.constant([1, 2], shape=[3], verify_shape=True)


def _abs_by_if(x):
    if x > 0:
        return x
    return -x


def _calls_abs_by_if(x):
    return _abs_by_if(x)


def test_the_function_handed_to_function_converts_whatever_its_module_is_called(monkeypatch):
    # As TF (user_requested): a module name on the allow-list ('tensorflow...') does not stop the
    # conversion of the function given to tf.function / to_graph; the functions it calls follow
    # the allow-list.
    monkeypatch.setattr(_abs_by_if, '__module__', 'tensorflow.user_code')
    monkeypatch.setattr(_calls_abs_by_if, '__module__', 'tensorflow.user_code')
    assert int(defun.function(_abs_by_if)(defun.constant(-3))) == 3
    assert autograph.to_graph(_abs_by_if) is not _abs_by_if
    with pytest.raises(defun.errors.OperatorNotAllowedInGraphError):
        defun.function(_calls_abs_by_if)(defun.constant(-3))
