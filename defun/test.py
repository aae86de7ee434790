"""The `tf.test` namespace: re-exports only. TF's `TestCase`, `main` and `Benchmark` belong to its
unittest framework and are not part of defun (NotInDefunError names them)."""
from defun.autodiff.test_support import *  # noqa: F401,F403
from defun.core import unsupported

__getattr__ = unsupported.missing_names(
    __name__, 'tf.test', {'TestCase': "TensorFlow's unittest framework", 'main': 'test runner',
                          'Benchmark': 'benchmarks', 'benchmark_config': 'benchmarks'})
