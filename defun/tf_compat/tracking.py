"""`tf.__internal__.tracking`: TF's Trackable protocol, which Keras's layers and variables extend.

A `Trackable` names its checkpoint dependencies through `_track_trackable(child, name)` and lists
them with `_trackable_children()`; an `AutoTrackable` tracks every trackable value assigned to one
of its attributes (wrapping plain lists and dicts as TF does) unless tracking is switched off for
the object (`_self_setattr_tracking`) or for the duration of a method
(`no_automatic_dependency_tracking`). Keras builds its own attribute tracking on these hooks.
"""
import functools

from defun.functions.concrete import ConcreteFunction
from defun.functions.function import Function
from defun.state import trackable as defun_trackable

__all__ = ['Trackable', 'AutoTrackable', 'no_automatic_dependency_tracking', 'is_trackable']

_DEPENDENCIES = '_self_unconditional_dependency_names'


class Trackable:
    """An object with named checkpoint dependencies (TF's base Trackable)."""

    _self_setattr_tracking = True

    def _track_trackable(self, trackable, name, overwrite=False):
        """Records `trackable` as this object's dependency `name`; returns it."""
        dependencies = self.__dict__.get(_DEPENDENCIES)
        if dependencies is None:
            dependencies = {}
            object.__setattr__(self, _DEPENDENCIES, dependencies)
        current = dependencies.get(name)
        if current is not None and current is not trackable and not overwrite:
            raise ValueError(f'Called Trackable._track_trackable() with name={name!r}, but a '
                             f'Trackable with this name is already declared as a dependency. '
                             f'Names must be unique (or overwrite=True).')
        dependencies[name] = trackable
        return trackable

    def _trackable_children(self, save_type='checkpoint', **kwargs):
        """This object's dependencies, name -> object, in the order they were tracked."""
        return dict(self.__dict__.get(_DEPENDENCIES) or {})

    def _serialize_to_tensors(self):
        """The tensors a checkpoint saves for this object itself (none by default)."""
        raise NotImplementedError(f'{type(self).__name__} saves no tensors of its own')

    def _restore_from_tensors(self, restored_tensors):
        raise NotImplementedError(f'{type(self).__name__} restores no tensors of its own')


def is_trackable(value):
    """What an attribute assignment tracks: TF-protocol trackables and defun's own."""
    return isinstance(value, Trackable) or defun_trackable.is_trackable(value)


class AutoTrackable(Trackable):
    """A Trackable that tracks the trackables assigned to its attributes (TF's AutoTrackable)."""

    def _trackable_children(self, save_type='checkpoint', **kwargs):
        """Its dependencies; for a SavedModel also the tf.functions among its attributes
        (properties included, as TF reads them through `dir`)."""
        children = super()._trackable_children(save_type, **kwargs)
        if save_type != 'savedmodel':
            return children
        for name in dir(self):
            if name in children:
                continue
            try:
                value = getattr(self, name, None)
            except Exception:   # as TF: an attribute that fails to compute is not a function
                continue
            if isinstance(value, (Function, ConcreteFunction)):
                children[name] = value
        return children

    def __setattr__(self, name, value):
        if getattr(self, '_self_setattr_tracking', True) and not name.startswith('_self_'):
            value = defun_trackable.wrap(value)
            if is_trackable(value):
                self._track_trackable(value, name, overwrite=True)
        object.__setattr__(self, name, value)
        # The assignment may complete a restoration waiting for this attribute (an optimizer's
        # slots, created after a checkpoint was restored into it).
        if self.__dict__.get(defun_trackable.PENDING_ATTRIBUTE) and \
                name != defun_trackable.PENDING_ATTRIBUTE:
            defun_trackable.restore_deferred(self)

    def __delattr__(self, name):
        dependencies = self.__dict__.get(_DEPENDENCIES)
        if dependencies is not None:
            dependencies.pop(name, None)
        object.__delattr__(self, name)


def no_automatic_dependency_tracking(method):
    """Runs `method` with its object's attribute tracking switched off (restored afterwards)."""
    @functools.wraps(method)
    def untracked(self, *args, **kwargs):
        previous = self.__dict__.get('_self_setattr_tracking', True)
        object.__setattr__(self, '_self_setattr_tracking', False)
        try:
            return method(self, *args, **kwargs)
        finally:
            object.__setattr__(self, '_self_setattr_tracking', previous)
    return untracked

