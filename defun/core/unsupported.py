"""Names of TensorFlow's API that are not part of defun, and the error that says so.

A namespace module sets `__getattr__ = missing_names(...)` (PEP 562): Python calls it only for
names the module does not have, so everything that exists is untouched, `dir()` lists only real
names, and `getattr(module, name, None)` still gives None (the error is an AttributeError). Once a
name is implemented it simply exists and this hook is never asked about it.
"""

__all__ = ['NotInDefunError', 'missing_names', 'KNOWN_GAPS', 'TF_NAMESPACES']

KNOWN_GAPS = 'the "Known gaps" section of defun\'s README.md'


class NotInDefunError(AttributeError):
    """A TensorFlow name that defun does not provide (an AttributeError, so hasattr is False)."""


# TensorFlow's top-level names outside defun's scope (a name leaves this table when it is built).
TF_NAMESPACES = {
    'estimator': 'Estimators', 'distribute': 'distribution strategies',
    'summary': 'TensorBoard summaries',
    'audio': 'audio ops', 'feature_column': 'feature columns',
    'lite': 'TensorFlow Lite', 'tpu': 'TPUs', 'xla': 'XLA', 'queue': 'queues',
    'sets': 'set ops', 'signal': 'signal processing', 'profiler': 'the profiler',
    'mlir': 'MLIR', 'quantization': 'quantization', 'raw_ops': 'raw ops',
    'sysconfig': 'build configuration', 'saved_model_cli': 'SavedModel', 'tools': 'tools',
    'Session': 'TF1 sessions (use tf.function)', 'load_op_library': 'custom C++ ops',
}


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
