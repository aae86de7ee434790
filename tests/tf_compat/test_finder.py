"""defun as `tensorflow`: what install() makes importable, the private paths Keras imports, the
error for any other TensorFlow module, the switch, and the refusal to stand beside a real
TensorFlow. Every test puts sys.modules back as it found it."""
import subprocess
import sys
import types

import pytest

import defun as tf
from defun import tf_compat
from defun.core.unsupported import NotInDefunError


@pytest.fixture
def installed():
    tf_compat.install()
    try:
        yield
    finally:
        tf_compat.uninstall()


def test_not_installed_by_import_alone():
    # In a fresh interpreter: this process's earlier tests may have used tf.keras, which installs.
    check = ('import sys, defun; from defun import tf_compat; '
             'assert not tf_compat.is_installed(); assert "tensorflow" not in sys.modules')
    subprocess.run([sys.executable, '-c', check], check=True, timeout=120)


def test_tensorflow_is_defun_and_private_paths_resolve(installed):
    import tensorflow
    from tensorflow.python.eager import context
    from tensorflow.python.trackable.data_structures import ListWrapper, _DictWrapper
    from tensorflow.compiler.tf2xla.python.xla import dynamic_update_slice
    from tensorflow.python.ops.math_ops import is_nan
    from tensorflow import data as tf_data
    assert tensorflow is tf and tf_data is tf.data and tf.__spec__.name == 'defun'
    assert context.context().executing_eagerly() and context.executing_eagerly()
    assert ListWrapper is tf_compat.data_structures.ListWrapper and _DictWrapper
    assert bool(is_nan(float('nan')))
    # Recorded from TF 2.21: a start index is clamped so that the update fits.
    out = dynamic_update_slice(tf.reshape(tf.range(6.), [2, 3]), tf.constant([[9., 8.]]), [-1, 5])
    assert out.numpy().tolist() == [[0.0, 9.0, 8.0], [3.0, 4.0, 5.0]]
    out = dynamic_update_slice(tf.zeros([3, 4]), tf.ones([2, 2]), [2, 1])
    assert out.numpy().tolist() == [[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 0]]


def test_other_tensorflow_modules_name_both(installed):
    with pytest.raises(ModuleNotFoundError) as info:
        import tensorflow.python.framework.ops  # noqa: F401
    message = str(info.value)
    assert 'tensorflow.python.framework.ops' in message and 'defun' in message
    assert 'real TensorFlow' in message and 'DEFUN_AS_TENSORFLOW=0' in message


def test_absent_namespaces_raise_not_in_defun(installed):
    from tensorflow.experimental import dtensor
    from tensorflow.python.ops.linalg.sparse import sparse_csr_matrix_ops
    for module, name in ((dtensor, 'Mesh'), (sparse_csr_matrix_ops, 'CSRSparseMatrix')):
        with pytest.raises(NotInDefunError, match='is not part of defun'):
            getattr(module, name)


def test_uninstall_removes_the_aliases(installed):
    import tensorflow  # noqa: F401
    from tensorflow.python.eager import context  # noqa: F401
    tf_compat.uninstall()
    assert not any(name == 'tensorflow' or name.startswith('tensorflow.') for name in sys.modules)
    assert not tf_compat.is_installed()
    tf_compat.install()  # the fixture uninstalls again


def test_a_real_tensorflow_already_imported_is_refused(monkeypatch):
    real = types.ModuleType('tensorflow')
    real.__file__ = '/site-packages/tensorflow/__init__.py'
    monkeypatch.setitem(sys.modules, 'tensorflow', real)
    with pytest.raises(tf_compat.TensorFlowConflictError) as info:
        tf_compat.install()
    assert 'real TensorFlow is already imported' in str(info.value)
    assert '/site-packages/tensorflow' in str(info.value) and 'defun' in str(info.value)
    assert not tf_compat.is_installed()


def test_the_switch_turns_it_off(monkeypatch):
    monkeypatch.setenv('DEFUN_AS_TENSORFLOW', '0')
    with pytest.raises(RuntimeError, match='DEFUN_AS_TENSORFLOW=0'):
        tf_compat.install()
    assert tf_compat.keras_api() is None
    assert tf.keras.optimizers is tf.optimizers
    with pytest.raises(NotInDefunError, match='DEFUN_AS_TENSORFLOW=0'):
        tf.keras.layers


def test_keras_importing_asks_for_defun_only_with_the_tensorflow_backend(monkeypatch):
    from defun.tf_compat import finder
    monkeypatch.setitem(sys.modules, 'keras', types.ModuleType('keras'))  # Keras importing
    monkeypatch.setenv('KERAS_BACKEND', 'jax')
    assert finder.hook().find_spec('tensorflow') is None and not tf_compat.is_installed()
    monkeypatch.setenv('KERAS_BACKEND', 'tensorflow')
    try:
        spec = finder.hook().find_spec('tensorflow')
        assert spec.name == 'tensorflow' and finder.hook().installed
    finally:
        tf_compat.uninstall()
    monkeypatch.delitem(sys.modules, 'keras')
    assert finder.hook().find_spec('tensorflow') is None


def test_without_keras_tf_keras_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, 'keras', None)   # as if Keras were not installed
    assert tf_compat.keras_api() is None
    assert tf.keras.optimizers is tf.optimizers       # defun's own optimizers stay
    for name in ('layers', 'Model', 'Sequential', 'losses'):
        with pytest.raises(NotInDefunError) as info:
            getattr(tf.keras, name)
        assert f'tf.keras.{name} is not part of defun' in str(info.value)
        assert "pip install 'defun[keras]'" in str(info.value)
    assert not tf_compat.is_installed()


def test_op_determinism_switches(installed):
    from tensorflow.python.framework.config import (enable_op_determinism,
                                                    disable_op_determinism,
                                                    is_op_determinism_enabled)
    enable_op_determinism()
    try:
        assert is_op_determinism_enabled()
    finally:
        disable_op_determinism()
    assert not is_op_determinism_enabled()
