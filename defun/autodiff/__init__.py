"""Automatic differentiation: the one backward pass (backprop), GradientTape (tape), symbolic
gradients() (gradients), the builder of a sub-graph's gradient (gradient_graph), custom_gradient
and finite-difference checks (gradient_check).

The package is also TF's `tf.autodiff` namespace: GradientTape, and ForwardAccumulator
(forwardprop: forward-mode JVPs)."""
from defun.autodiff.tape import GradientTape  # noqa: F401
from defun.autodiff.forwardprop import ForwardAccumulator  # noqa: F401
from defun.autodiff import py_function_gradient  # noqa: F401  (registers EagerPyFunc's gradient)

__all__ = ['ForwardAccumulator', 'GradientTape']
