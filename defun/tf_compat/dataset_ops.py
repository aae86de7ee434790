"""`tensorflow.python.data.ops.dataset_ops`: the identity TF gives the base class of `tf.data`
datasets, `DatasetV2` in this module. Libraries written for TF (Keras's data adapters) recognise a
dataset by that class name and module in its type's MRO, so defun's `Dataset` derives from it."""

__all__ = ['DatasetV2']


class DatasetV2:
    """TF's name for the base class of every `tf.data.Dataset` (defun's Dataset derives from it)."""

    __slots__ = ()


# The module TF defines it in; with defun installed as `tensorflow` that path imports this module.
DatasetV2.__module__ = 'tensorflow.python.data.ops.dataset_ops'
