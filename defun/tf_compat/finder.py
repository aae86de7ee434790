"""defun standing in as the module `tensorflow`: the import hook that makes it so, and its switch.

Keras 3's TensorFlow backend is written against `import tensorflow as tf` and a handful of TF's
private module paths. Once defun is installed as `tensorflow`, those imports resolve to defun:
`tensorflow` is the `defun` module itself, a public namespace `tensorflow.data` is `defun.data`,
`tensorflow.keras...` is the Keras package's TF-flavoured API (as in TF 2.21), and each private path
Keras imports is a module of `defun.tf_compat` (the table `PRIVATE_MODULES`). Any other
`tensorflow.*` module raises an ImportError naming both defun and TensorFlow, since it can only
come from the real TensorFlow and the two must not mix in one process.

Installation happens

* explicitly, with `install()`;
* when `tf.keras.<name>` is first used and Keras is installed;
* when Keras is imported after defun with `KERAS_BACKEND` unset or `tensorflow`: the hook sits on
  `sys.meta_path` from `import defun` on and answers `tensorflow` only while `keras` is importing.

`DEFUN_AS_TENSORFLOW=0` in the environment turns all of it off (`tf.keras` then behaves as without
Keras installed); `uninstall()` takes the aliases back out of `sys.modules`. A real TensorFlow that
is already imported makes `install()` raise `TensorFlowConflictError` naming both.

The hook's only state is the finder object on `sys.meta_path` (the process-wide import system is
the state being changed, so it cannot be thread-local).
"""
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types

from defun.tf_compat import dataset_ops, framework_tensor, ragged_tensor, sparse_tensor

__all__ = ['install', 'uninstall', 'is_installed', 'keras_api', 'enabled', 'hook',
           'TensorFlowConflictError', 'SWITCH', 'PRIVATE_MODULES']

SWITCH = 'DEFUN_AS_TENSORFLOW'

# TF's private module paths that Keras 3 imports, each served by one module of this package.
PRIVATE_MODULES = {
    'tensorflow.python.trackable.data_structures': 'defun.tf_compat.data_structures',
    'tensorflow.python.eager.context': 'defun.tf_compat.eager_context',
    'tensorflow.compiler.tf2xla.python.xla': 'defun.tf_compat.xla',
    'tensorflow.python.ops.math_ops': 'defun.tf_compat.math_ops',
    'tensorflow.python.ops.linalg.sparse.sparse_csr_matrix_ops':
        'defun.tf_compat.sparse_csr_matrix_ops',
    'tensorflow.python.framework.config': 'defun.tf_compat.framework_config',
    'tensorflow.python.data.ops.dataset_ops': 'defun.tf_compat.dataset_ops',
    'tensorflow.python.framework.tensor': 'defun.tf_compat.framework_tensor',
    'tensorflow.python.framework.sparse_tensor': 'defun.tf_compat.sparse_tensor',
    'tensorflow.python.ops.ragged.ragged_tensor': 'defun.tf_compat.ragged_tensor',
    'tensorflow.python.framework.tensor_util': 'defun.tf_compat.tensor_util',
}
# The modules whose classes name TF's module path while defun is `tensorflow`.
_CLAIMING = (dataset_ops, framework_tensor, sparse_tensor, ragged_tensor)
_HOMES = {cls: cls.__module__ for module in _CLAIMING for cls in module.CLASSES}
KERAS_PREFIX = 'keras._tf_keras.keras'


class TensorFlowConflictError(ImportError):
    """defun and the real TensorFlow would both be `tensorflow` in one process."""


def enabled():
    """False when the environment switch `DEFUN_AS_TENSORFLOW=0` turns the aliasing off."""
    return os.environ.get(SWITCH, '1').strip().lower() not in ('0', 'false', 'no', 'off')


def _real_tensorflow():
    module = sys.modules.get('tensorflow')
    if module is None or module is sys.modules.get('defun'):
        return None
    return module


def _conflict(what):
    real = _real_tensorflow()
    where = getattr(real, '__file__', None) or repr(real)
    return TensorFlowConflictError(
        f'{what}: the real TensorFlow is already imported in this process (from {where}), and '
        f'defun cannot also be `tensorflow` beside it. Use either TensorFlow or defun (import '
        f'defun and Keras in a process that does not import TensorFlow), or set {SWITCH}=0.')


class _AliasLoader(importlib.abc.Loader):
    """Loads a name as an existing module, leaving that module's own `__spec__` untouched."""

    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        # The import system stamps the alias's spec on the module it gets; exec_module undoes it.
        self.original_spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.original_spec


class _PackageLoader(importlib.abc.Loader):
    """An intermediate private package (`tensorflow.python`): it holds only the submodules above."""

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__doc__ = (f'{module.__name__}: a path of the real TensorFlow; under defun it holds '
                          'only the modules Keras imports from it.')


class _Finder(importlib.abc.MetaPathFinder):
    """Answers `tensorflow` and `tensorflow.*` with defun's modules once installed."""

    def __init__(self):
        self.installed = False

    def find_spec(self, fullname, path=None, target=None):
        if fullname != 'tensorflow' and not fullname.startswith('tensorflow.'):
            return None
        if not self.installed:
            # A runner may have put defun in sys.modules as `tensorflow` itself: that asks too.
            aliased = sys.modules.get('tensorflow') is sys.modules.get('defun')
            if not enabled() or not (aliased or (fullname == 'tensorflow' and _keras_is_asking())):
                return None
            # Not install(): the import under way binds `tensorflow` itself, through the loader
            # (a module put in sys.modules now would make Python load the spec it has instead).
            _activate()
        return _spec_for(fullname)


def _keras_is_asking():
    return os.environ.get('KERAS_BACKEND', 'tensorflow') == 'tensorflow' and 'keras' in sys.modules


def _spec_for(fullname):
    target = _target(fullname)
    if target is not None:
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(target))
    if any(name.startswith(fullname + '.') for name in PRIVATE_MODULES):
        return importlib.machinery.ModuleSpec(fullname, _PackageLoader(), is_package=True)
    provided = ', '.join(sorted(PRIVATE_MODULES))
    raise ModuleNotFoundError(
        f"No module named '{fullname}': in this process `tensorflow` is defun (installed so that "
        f'Keras runs on it), and `{fullname}` belongs to the real TensorFlow, which cannot be '
        f'loaded beside it. defun provides TensorFlow\'s public namespaces and, of its private '
        f'modules, {provided}. To use the real TensorFlow, run it in a process without defun '
        f'as `tensorflow` ({SWITCH}=0).', name=fullname)


def _target(fullname):
    """The module of defun (or Keras) that `fullname` is, or None."""
    if fullname == 'tensorflow':
        return 'defun'
    if fullname in PRIVATE_MODULES:
        return PRIVATE_MODULES[fullname]
    if fullname == 'tensorflow.keras' or fullname.startswith('tensorflow.keras.'):
        return 'defun.keras' if fullname == 'tensorflow.keras' else (
            KERAS_PREFIX + fullname[len('tensorflow.keras'):])
    public = 'defun' + fullname[len('tensorflow'):]
    if isinstance(sys.modules.get(public), types.ModuleType) and not fullname.startswith(
            ('tensorflow.python', 'tensorflow.compiler', 'tensorflow.core')):
        return public
    return None


def hook():
    """The finder on `sys.meta_path` (put there by `import defun`, before Python's own finders)."""
    for finder in sys.meta_path:
        if isinstance(finder, _Finder):
            return finder
    finder = _Finder()
    sys.meta_path.insert(0, finder)
    return finder


def is_installed():
    """Whether `import tensorflow` gives defun in this process."""
    return hook().installed and sys.modules.get('tensorflow') is sys.modules['defun']


def install():
    """Makes defun importable as `tensorflow` (and its submodules as `tensorflow.*`).

    Raises TensorFlowConflictError when the real TensorFlow is already imported, and RuntimeError
    when the environment switch turns the aliasing off."""
    if not enabled():
        raise RuntimeError(f'defun is not installed as `tensorflow`: {SWITCH}=0 turns it off.')
    _activate()
    sys.modules['tensorflow'] = sys.modules['defun']


def _activate():
    """The hook starts answering for `tensorflow`, unless the real TensorFlow is imported."""
    if _real_tensorflow() is not None:
        raise _conflict('defun as `tensorflow`')
    hook().installed = True
    _name_modules(claimed=True)


def _name_modules(claimed):
    """The claiming modules' classes name TF's module path (claimed) or their own again."""
    for module in _CLAIMING:
        for cls in module.CLASSES:
            cls.__module__ = module.PATH if claimed else _HOMES[cls]


def uninstall():
    """Takes defun's `tensorflow` aliases out of `sys.modules` and stops answering for them.

    Modules that already imported `tensorflow` (Keras, once imported) keep the defun they got."""
    finder = hook()
    finder.installed = False
    _name_modules(claimed=False)
    for name in [name for name in sys.modules if name == 'tensorflow' or
                 name.startswith('tensorflow.')]:
        module = sys.modules[name]
        if module is None or getattr(module, '__name__', '').startswith(
                ('defun', 'tensorflow', 'keras')):
            del sys.modules[name]


def keras_api():
    """Keras's TF-flavoured API module (TF 2.21's `tf.keras`), with defun installed as
    `tensorflow`; None when Keras is not installed or the switch is off."""
    if not enabled() or importlib.util.find_spec('keras') is None:
        return None
    if not is_installed():
        install()
    return importlib.import_module(KERAS_PREFIX)
