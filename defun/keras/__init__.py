"""`tf.keras`: the Keras 3 package when it is installed, running on defun as its `tensorflow`.

As in TF 2.21, `tf.keras` is Keras's TF-flavoured API (`keras._tf_keras.keras`), loaded on first
use: `tf.keras.layers.Dense` imports Keras with defun installed as `tensorflow` (see
`defun.tf_compat.finder`). Without Keras (or with `DEFUN_AS_TENSORFLOW=0`), `tf.keras.optimizers`
is defun's own Keras-3-exact optimizers and every other name raises NotInDefunError saying how to
install Keras (`pip install 'defun[keras]'`).
"""
from defun import optimizers as defun_optimizers
from defun.core.unsupported import KNOWN_GAPS, NotInDefunError
from defun.tf_compat import finder

__all__ = []

_INSTALL = ("Keras is not installed: `pip install 'defun[keras]'` installs it, and `tf.keras` is "
            'then the real Keras 3 running on defun. Without it, defun has only '
            'tf.keras.optimizers.')


def __getattr__(name):  # noqa: N807 - the PEP 562 hook
    if name.startswith('__'):
        raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
    keras = finder.keras_api()
    if keras is not None:
        return getattr(keras, name)
    if name == 'optimizers':
        return defun_optimizers
    if not finder.enabled():
        raise NotInDefunError(f'tf.keras.{name} is not part of defun here: {finder.SWITCH}=0 turns '
                              f'off running Keras on defun, leaving only tf.keras.optimizers. '
                              f'See {KNOWN_GAPS}.')
    raise NotInDefunError(f'tf.keras.{name} is not part of defun. {_INSTALL} See {KNOWN_GAPS}.')
