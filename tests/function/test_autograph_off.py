"""tf.function(autograph=False): a tensor used as a Python bool gets defun's own advice (TF's
generic text tells a decorated function to be decorated) and an `in user code:` block naming the
line; TF's exception class is kept."""
import pytest

import defun as tf
from defun.core.errors import OperatorNotAllowedInGraphError


def test_python_if_on_a_tensor_says_autograph_is_off():
    @tf.function(autograph=False)
    def magnitude(x):
        if x > 0:
            return x
        return -x
    with pytest.raises(OperatorNotAllowedInGraphError) as info:
        magnitude(tf.constant(-2.0))
    text = str(info.value)
    assert 'magnitude is traced with autograph=False' in text
    assert 'decorate this function' not in text
    assert 'in user code:' in text and 'if x > 0:' in text
    assert ', line %d, in magnitude' % (magnitude.python_function.__code__.co_firstlineno + 2) in text


def test_python_loop_over_a_tensor_says_autograph_is_off():
    @tf.function(autograph=False)
    def total(x):
        s = 0.0
        for v in x:
            s += v
        return s
    with pytest.raises(OperatorNotAllowedInGraphError, match='Iterating over a symbolic'):
        total(tf.constant([1.0, 2.0]))


def test_converted_functions_are_unaffected():
    @tf.function
    def magnitude(x):
        if x > 0:
            return x
        return -x
    assert magnitude(tf.constant(-2.0)).numpy() == 2.0
