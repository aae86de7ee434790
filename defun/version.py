"""`tf.version`: defun's own version (not TensorFlow's; kept equal to pyproject.toml's)."""

__all__ = ['VERSION']

VERSION = '0.1.0'
