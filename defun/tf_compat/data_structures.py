"""`tensorflow.python.trackable.data_structures`: the list and dict wrappers that trackable objects
put around containers assigned to their attributes (Keras's tree utilities recognise them)."""
from defun.state.trackable import ListWrapper, DictWrapper

__all__ = ['ListWrapper', '_DictWrapper']

# TF's class name for the dict wrapper (Keras imports it by that name).
_DictWrapper = DictWrapper
