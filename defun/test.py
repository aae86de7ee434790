"""The `tf.test` namespace: re-exports only. `TestCase` is unittest's with TF's value assertions;
TF's `Benchmark` is not part of defun (NotInDefunError names it)."""
from defun.autodiff.test_support import *  # noqa: F401,F403
from defun.core import unsupported
from defun.testing import TestCase, main  # noqa: F401

__getattr__ = unsupported.missing_names(
    __name__, 'tf.test', {'Benchmark': 'benchmarks', 'benchmark_config': 'benchmarks'})
