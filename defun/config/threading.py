"""`tf.config.threading`: the intra-op and inter-op thread counts.

defun's kernels are numpy calls made on the calling thread, so there is no inter-op pool: that
setting is recorded and reported only. The intra-op count maps onto the threads of the BLAS that
numpy uses, when it is an OpenBLAS found in this process (numpy's wheels bundle one): a positive
count is passed to `openblas_set_num_threads`, and 0 (TF's "let the system choose") restores the
count the process started with. Elsewhere (another BLAS, no shared library found) the setting is
recorded only; use OPENBLAS_NUM_THREADS / OMP_NUM_THREADS before starting Python instead.
"""
import ctypes
import functools

from defun.core import context

__all__ = ['get_intra_op_parallelism_threads', 'set_intra_op_parallelism_threads',
           'get_inter_op_parallelism_threads', 'set_inter_op_parallelism_threads',
           'blas_threads']

# Exported names of the thread-count functions in OpenBLAS builds (plain, and numpy's 64-bit
# integer scipy-openblas build with its prefix and suffix).
_SETTERS = ('openblas_set_num_threads', 'scipy_openblas_set_num_threads64_',
            'openblas_set_num_threads64_')
_GETTERS = ('openblas_get_num_threads', 'scipy_openblas_get_num_threads64_',
            'openblas_get_num_threads64_')


def _loaded_openblas_paths():
    try:
        with open('/proc/self/maps') as maps:
            paths = {line.split()[-1] for line in maps if 'openblas' in line.lower()}
    except OSError:  # not Linux: no way to find the library numpy loaded
        return []
    return sorted(p for p in paths if p.startswith('/'))


@functools.lru_cache(maxsize=None)  # a fact about the process, looked up once (holds no state)
def _openblas():
    """(set, get, count at start) of the OpenBLAS numpy loaded, or None."""
    for path in _loaded_openblas_paths():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        setter = next((getattr(lib, n) for n in _SETTERS if hasattr(lib, n)), None)
        getter = next((getattr(lib, n) for n in _GETTERS if hasattr(lib, n)), None)
        if setter is not None and getter is not None:
            setter.argtypes, getter.restype = [ctypes.c_int], ctypes.c_int
            return setter, getter, getter()
    return None


def blas_threads():
    """The BLAS thread count now, or None when the BLAS cannot be queried."""
    blas = _openblas()
    return None if blas is None else blas[1]()


def get_intra_op_parallelism_threads():
    return context.config_value('intra_op_parallelism_threads')


def set_intra_op_parallelism_threads(num_threads):
    """Sets the intra-op thread count (also the BLAS threads, see the module's docstring)."""
    context.set_config_value('intra_op_parallelism_threads', num_threads)
    blas = _openblas()
    if blas is not None and isinstance(num_threads, int) and num_threads >= 0:
        setter, _, initial = blas
        setter(num_threads if num_threads > 0 else initial)


def get_inter_op_parallelism_threads():
    return context.config_value('inter_op_parallelism_threads')


def set_inter_op_parallelism_threads(num_threads):
    """Recorded only: defun runs the ops of one call one after another on the calling thread."""
    context.set_config_value('inter_op_parallelism_threads', num_threads)
