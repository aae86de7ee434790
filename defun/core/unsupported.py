"""Names of TensorFlow's API that are not part of defun, and the error that says so.

A namespace module sets `__getattr__ = missing_names(...)` (PEP 562): Python calls it only for
names the module does not have, so everything that exists is untouched, `dir()` lists only real
names, and `getattr(module, name, None)` still gives None (the error is an AttributeError). Once a
name is implemented it simply exists and this hook is never asked about it.
"""

import sys
import types

__all__ = ['NotInDefunError', 'missing_names', 'tf_names_only', 'KNOWN_GAPS', 'TF_NAMESPACES',
           'TF_MODULES']

# Where a missing name sends the user: the table of what to use instead (the complete list of gaps
# is one link away from it).
KNOWN_GAPS = ('the table "What is not, and what to use instead" in defun\'s docs/porting.md '
              '(every gap: docs/known_gaps.md)')


class NotInDefunError(AttributeError):
    """A TensorFlow name that defun does not provide (an AttributeError, so hasattr is False)."""


# TensorFlow's top-level names outside defun's scope (a name leaves this table when it is built).
TF_NAMESPACES = {
    'estimator': 'Estimators',
    'audio': 'audio ops', 'feature_column': 'feature columns',
    'lite': 'TensorFlow Lite', 'tpu': 'TPUs', 'xla': 'XLA',
    'profiler': 'the profiler',
    'mlir': 'MLIR', 'quantization': 'quantization',
    'sysconfig': 'build configuration', 'saved_model_cli': 'SavedModel', 'tools': 'tools',
    'Session': 'TF1 sessions (use tf.function)', 'load_op_library': 'custom C++ ops',
}

# TensorFlow 2.21's top-level namespace modules: the modules a face may list as its own names.
TF_MODULES = frozenset([
    'audio', 'autodiff', 'autograph', 'bitwise', 'compat', 'config', 'data', 'debugging',
    'distribute', 'dtensor', 'dtypes', 'errors', 'experimental', 'feature_column', 'graph_util',
    'image', 'initializers', 'io', 'keras', 'linalg', 'lite', 'lookup', 'losses', 'math', 'metrics',
    'mlir', 'nest', 'nn', 'optimizers', 'profiler', 'quantization', 'queue', 'ragged', 'random',
    'raw_ops', 'saved_model', 'security', 'sets', 'signal', 'sparse', 'strings', 'summary',
    'sysconfig', 'test', 'tools', 'tpu', 'train', 'types', 'version', 'xla', 'eager'])


def missing_names(module_name, public_name, names=None, reason=None):
    """A `__getattr__` for module `module_name`, the namespace TF spells `public_name` ('tf.keras').

    `names` maps each known-missing name to a short description (or is a set of names); None means
    every public name that is not there. Other names, and dunder names, get Python's usual
    AttributeError, so tools probing for `__path__` or `__wrapped__` behave as with any module."""
    def __getattr__(name):  # noqa: N807 - the PEP 562 hook
        if name.startswith('__') or (names is not None and name not in names):
            raise AttributeError(f"module '{module_name}' has no attribute '{name}'")
        described = names.get(name) if isinstance(names, dict) else None
        detail = f' ({described})' if described else ''
        why = f' {reason}' if reason else ''
        raise NotInDefunError(f'{public_name}.{name}{detail} is not part of defun.{why} '
                              f'See {KNOWN_GAPS}.')
    return __getattr__


def tf_names_only(module_name):
    """A `__dir__` for a namespace module that lists its names except defun's own modules: the
    layer packages Python binds on a package when their modules load (`defun.core`, `defun.ops`...)
    stay importable but are not TensorFlow's names. Modules named as TF namespaces are listed."""
    def __dir__():  # noqa: N807 - the PEP 562 hook
        module = sys.modules[module_name]
        return sorted(name for name, value in vars(module).items()
                      if not (isinstance(value, types.ModuleType)
                              and value.__name__ == f'{module_name}.{name}'
                              and name not in TF_MODULES))
    return __dir__
