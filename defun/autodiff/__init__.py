"""Automatic differentiation: the one backward pass (backprop), GradientTape (tape), symbolic
gradients() (gradients), the builder of a sub-graph's gradient (gradient_graph), custom_gradient
and finite-difference checks (gradient_check).

The package is also TF's `tf.autodiff` namespace: GradientTape (forward-mode accumulators are not
part of defun)."""
from defun.autodiff.tape import GradientTape  # noqa: F401
from defun.autodiff import py_function_gradient  # noqa: F401  (registers EagerPyFunc's gradient)
from defun.core.unsupported import missing_names

__all__ = ['GradientTape']

__getattr__ = missing_names(__name__, 'tf.autodiff', {'ForwardAccumulator': 'forward-mode autodiff'})
