"""`tf.__internal__`: the pieces of TF's internal API that Keras 3's TensorFlow backend builds on.

Each entry is defun's own object under the name TF gives it there: the tensor base class Keras's
variables derive from, TF's Trackable protocol, the distribution helpers its optimizers call, the
eager tensor, FuncGraph and CompositeTensor classes, and `smart_cond` (a `cond` that runs only the
taken branch when the predicate is known while tracing).
"""
import types as _types

from defun.compiler.constant_value import get_static_value
from defun.control_flow.cond import cond
from defun.core.composite import CompositeTensor
from defun.distribute.strategy import maybe_merge_call
from defun.core.tensor import AbstractTensor, EagerTensor
from defun.graphs.funcgraph import FuncGraph
from defun.tf_compat import tracking as _tracking

__all__ = ['types', 'tracking', 'smart_cond', 'distribute', 'EagerTensor', 'FuncGraph',
           'CompositeTensor']


def _smart_cond(pred, true_fn=None, false_fn=None, name=None):
    """`true_fn()` or `false_fn()` when `pred` is a Python bool or a tensor whose value is known
    statically; otherwise `tf.cond(pred, true_fn, false_fn)`."""
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError(f'smart_cond: true_fn and false_fn must be callable, got '
                        f'{type(true_fn).__name__} and {type(false_fn).__name__}')
    value = pred if isinstance(pred, bool) else get_static_value(pred)
    if value is None:
        return cond(pred, true_fn=true_fn, false_fn=false_fn, name=name)
    return true_fn() if value else false_fn()


def _strategy_supports_no_merge_call():
    """False: defun's strategies, as TF's default one, join their replicas through merge_call
    (which `maybe_merge_call` therefore always takes)."""
    return False


types = _types.SimpleNamespace(Tensor=AbstractTensor)
distribute = _types.SimpleNamespace(
    interim=_types.SimpleNamespace(maybe_merge_call=maybe_merge_call),
    strategy_supports_no_merge_call=_strategy_supports_no_merge_call)
tracking = _types.SimpleNamespace(
    Trackable=_tracking.Trackable, AutoTrackable=_tracking.AutoTrackable,
    no_automatic_dependency_tracking=_tracking.no_automatic_dependency_tracking)
smart_cond = _types.SimpleNamespace(smart_cond=_smart_cond)
