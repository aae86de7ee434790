"""tf.test's unittest framework: `TestCase` (TF's assertion helpers on unittest) and `main`."""
from defun.testing.test_case import TestCase, main

__all__ = ['TestCase', 'main']
