"""The native tier's backend: numba (the optional extra `defun[jit]`), and the files its compiled
code lives in.

numba is never imported by defun itself: the generated modules import it, so `import defun` costs
nothing without jit_compile, and the first jit function pays numba's import (about 0.4 s) once.
Each generated module is a file named by the hash of its source (and of numba's and numpy's
versions) in the cache directory; its functions are compiled with numba's `cache=True`, so numba
keeps their machine code beside the file and a new process loads it instead of compiling again.
"""
import hashlib
import importlib.metadata
import importlib.util
import os
import pathlib
import sys
import tempfile
import warnings

from defun.core import context

__all__ = ['EXTRA', 'available', 'warn_unavailable', 'load_module', 'cache_directory']

EXTRA = 'defun[jit]'
# find_spec looks for the package without importing it.
_INSTALLED = importlib.util.find_spec('numba') is not None


def available():
    """Whether jit_compile=True can compile natively here (numba installed, not hidden)."""
    return _INSTALLED and not context.jit_backend_hidden()


def warn_unavailable():
    """Warns, once per process, that jit_compile=True runs the numpy tier without the extra."""
    if context.log_first_n('jit_compile without numba', 1):
        warnings.warn(
            f"tf.function(jit_compile=True) compiles natively with numba, which is not installed: "
            f"running the numpy tier instead (same results). Install the extra: "
            f"pip install '{EXTRA}'.", RuntimeWarning, stacklevel=2)


def cache_directory():
    """Where generated modules and numba's cached machine code live: $DEFUN_JIT_CACHE, else
    defun/jit under the user's cache directory (a temporary one when that is not writable)."""
    root = os.environ.get('DEFUN_JIT_CACHE')
    if not root:
        base = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
        root = os.path.join(base, 'defun', 'jit')
    path = pathlib.Path(root)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        path = pathlib.Path(tempfile.gettempdir()) / 'defun-jit'
        path.mkdir(parents=True, exist_ok=True)
    return path


def _versions():
    # Read from the installed distributions' metadata: numba itself is not imported here.
    parts = []
    for name in ('numba', 'llvmlite', 'numpy'):
        try:
            parts.append(f'{name}={importlib.metadata.version(name)}')
        except importlib.metadata.PackageNotFoundError:
            parts.append(f'{name}=?')
    return ';'.join(parts)


_VERSIONS = _versions()


def load_module(source):
    """The module of generated `source` (written to the cache directory once, imported once per
    process); returns (module, path)."""
    key = hashlib.sha256((_VERSIONS + '\n' + source).encode()).hexdigest()[:24]
    return context.native_module(key, lambda: _import(key, source))


def _import(key, source):
    directory = cache_directory()
    path = directory / f'defun_jit_{key}.py'
    if not path.exists() or path.read_text() != source:
        # Written whole then renamed: another process never reads a half-written file.
        fd, tmp = tempfile.mkstemp(suffix='.py', dir=directory)
        with os.fdopen(fd, 'w') as f:
            f.write(source)
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(f'defun_jit_{key}', path)
    module = importlib.util.module_from_spec(spec)
    # Imported as any module is (numba's cache finds a function's module in sys.modules).
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module, path
