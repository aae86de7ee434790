"""`tf.optimizers` (and `tf.keras.optimizers` when the Keras package is not installed): SGD, Adam,
AdamW, RMSprop, Adagrad, Nadam, Adamax, Adadelta, Ftrl, Lion and the learning-rate schedules, with
Keras 3's update rules and variables (TF 2.21's tf.keras), written on defun alone. With Keras
installed, `tf.keras.optimizers` is Keras's own. Other Keras optimizers are not part of defun here
and say so."""
from defun.core import unsupported
from defun.optimizers import schedules  # noqa: F401
from defun.optimizers.optimizer import Optimizer  # noqa: F401
from defun.optimizers.sgd_adam_rules import SGD, Adam, AdamW, RMSprop, Adagrad  # noqa: F401
from defun.optimizers.nadam_ftrl_lion_rules import Nadam, Adamax, Adadelta, Ftrl, Lion, get  # noqa: F401

__all__ = ['Optimizer', 'SGD', 'Adam', 'AdamW', 'RMSprop', 'Adagrad', 'Nadam', 'Adamax', 'Adadelta',
           'Ftrl', 'Lion', 'get', 'schedules']

__getattr__ = unsupported.missing_names(
    __name__, 'tf.keras.optimizers',
    reason='Of tf.keras.optimizers, defun has SGD, Adam, AdamW, RMSprop, Adagrad, Nadam, Adamax, '
           'Adadelta, Ftrl and Lion.')
