"""A functools.wraps wrapper from another module is converted as itself, against its own
globals, and the function it wraps against its own (TF 2.21's values)."""
import defun as tf

from tests.autograph.decorators_elsewhere import passthrough, scaled

OFFSET = 3.0


def _shift(x):
    return x + OFFSET


@passthrough
def _branchy(x):
    if x > 0:
        return _shift(x)
    return -x


@scaled
def _shifted(x):
    return _shift(x)


def test_wrapper_and_wrapped_keep_their_globals():
    assert float(tf.function(_branchy)(tf.constant(2.0))) == 5.0
    assert float(tf.function(_branchy)(tf.constant(-2.0))) == 2.0
    assert float(tf.function(_shifted)(tf.constant(2.0))) == 50.0

    @tf.function
    def outer(x):
        return _branchy(x) + _shifted(x)
    assert float(outer(tf.constant(2.0))) == 55.0
    # The wrapper's own code is what runs (its name is the wrapped function's).
    assert 'scale' in tf.autograph.to_code(_shifted) and _shifted.__name__ == '_shifted'
