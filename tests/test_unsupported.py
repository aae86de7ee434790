"""Out-of-scope TensorFlow namespaces raise NotInDefunError (an AttributeError) naming themselves
and the porting table of what to use instead; dir() lists only what exists; getattr(..., None) still works."""
import pytest

import defun as tf
from defun.core.unsupported import NotInDefunError, TF_NAMESPACES


@pytest.mark.parametrize('path', ['estimator', 'distribute.Server', 'distribute.experimental.rpc',
                                  'summary.trace_export', 'keras.layers',
                                  'keras.Model', 'keras.losses', 'keras.optimizers.Adafactor',
                                  'keras.optimizers.legacy', 'compat.v1.Session',
                                  'compat.v1.variable_scope', 'keras.optimizers.schedules.'
                                  'serialize'])
def test_out_of_scope_names_say_so(path, monkeypatch):
    # tf.keras without Keras: the switch keeps an installed Keras out of this process.
    monkeypatch.setenv('DEFUN_AS_TENSORFLOW', '0')
    obj = tf
    *parents, last = path.split('.')
    for part in parents:
        obj = getattr(obj, part)
    with pytest.raises(NotInDefunError) as info:
        getattr(obj, last)
    message = str(info.value)
    assert f'tf.{path}' in message and 'is not part of defun' in message
    assert 'docs/porting.md' in message and 'what to use instead' in message
    assert isinstance(info.value, AttributeError)
    assert getattr(obj, last, None) is None and not hasattr(obj, last)
    assert last not in dir(obj)


def test_existing_names_untouched_and_unknown_names_plain(monkeypatch):
    monkeypatch.setenv('DEFUN_AS_TENSORFLOW', '0')
    assert tf.keras.optimizers.Adam is tf.optimizers.Adam
    assert tf.compat.v1.placeholder is not None
    with pytest.raises(AttributeError) as info:
        tf.no_such_name
    assert not isinstance(info.value, NotInDefunError)
    assert "module 'defun' has no attribute 'no_such_name'" == str(info.value)
    with pytest.raises(AttributeError) as info:
        tf.keras.__wrapped__  # dunder probes (inspect, pickle) get Python's plain error
    assert not isinstance(info.value, NotInDefunError)


def test_table_names_are_missing_only_while_unimplemented():
    for name in TF_NAMESPACES:
        value = getattr(tf, name, None)
        if value is None:
            assert name not in dir(tf)
        else:
            assert name in dir(tf)  # implemented since: the hook is never asked
