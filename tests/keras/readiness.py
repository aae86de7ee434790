"""Whether Keras can run on this defun, checked without importing Keras into the test process: the
package is installed, and defun has the names Keras's TensorFlow backend reaches at import time
and in `fit` beyond what defun_compat provides."""
import importlib.util

import defun

NEEDED = ['distribute.get_strategy', 'sparse.add', 'sparse.maximum', 'sparse.minimum']


def missing():
    """Why Keras cannot run here ('' when it can)."""
    if importlib.util.find_spec('keras') is None:
        return "Keras is not installed (pip install 'defun[keras]')"
    absent = []
    for path in NEEDED:
        obj = defun
        for part in path.split('.'):
            obj = getattr(obj, part, None)
        if obj is None:
            absent.append('tf.' + path)
    return f'Keras needs {", ".join(absent)}' if absent else ''
