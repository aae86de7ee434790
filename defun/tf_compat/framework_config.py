"""`tensorflow.python.framework.config`: op determinism switched on and off, as Keras's
`keras.config.enable_op_determinism` / the trainer's JIT path set it."""
from defun.config.experimental import enable_op_determinism
from defun.core import context

__all__ = ['enable_op_determinism', 'disable_op_determinism', 'is_op_determinism_enabled']


def disable_op_determinism():
    """Lifts op determinism: random ops may run unseeded again."""
    context.set_config_value('op_determinism', False)


def is_op_determinism_enabled():
    return bool(context.config_value('op_determinism'))
