"""Trackable objects: the object graph that checkpoints save, found by following attributes.

The graph's leaves are Variables; its inner nodes are `AutoTrackable` objects (Modules, Checkpoints,
optimizers, random Generators) and the lists, tuples and dicts that hold trackables. `children(obj)`
names an object's edges as TensorFlow names them (attribute names, list indices, dict keys), which
is what makes checkpoint keys such as `model/dense_1/w/.ATTRIBUTES/VARIABLE_VALUE`.

A restore can reach an object before its state exists: a Module that builds its Variables on its
first call, an optimizer whose slots come with its first step. The unmatched part of the checkpoint
then waits on the nearest existing AutoTrackable, keyed by the path below it (`defer`), and is handed
over when that object's attribute is assigned (`AutoTrackable.__setattr__`) or when its owner says
its state was built (`restore_deferred`). Pending restorations live on the object they wait for, so
they go when it goes.
"""
from defun.variables import Variable

__all__ = ['AutoTrackable', 'children', 'child', 'is_trackable', 'defer', 'restore_deferred',
           'PENDING_ATTRIBUTE']

# The attribute holding an object's pending restorations; never itself part of the object graph.
PENDING_ATTRIBUTE = '_pending_restorations'


class AutoTrackable:
    """An object whose trackable attributes are its checkpoint dependencies, as TF's AutoTrackable.

    Subclasses may define `__trackable_children__()` returning (name, value) pairs to replace the
    attribute walk (for objects whose state is not simply their attributes)."""

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        # Any assignment may complete a pending path: `self.w = Variable(...)` directly, or
        # `self._momentums = ...` after the slots it names were appended to `self._variables`.
        if self.__dict__.get(PENDING_ATTRIBUTE) and name != PENDING_ATTRIBUTE:
            restore_deferred(self)


def _holds_trackable(value):
    if isinstance(value, (Variable, AutoTrackable)):
        return True
    if isinstance(value, dict):
        return any(_holds_trackable(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_trackable(v) for v in value)
    return False


def is_trackable(value):
    """True for Variables, AutoTrackables, and containers that hold one (at any depth)."""
    return _holds_trackable(value)


def children(obj):
    """The named checkpoint dependencies of `obj`, in the order a checkpoint visits them."""
    if isinstance(obj, Variable):
        return []
    if isinstance(obj, AutoTrackable):
        custom = getattr(type(obj), '__trackable_children__', None)
        items = custom(obj) if custom is not None else (
            (name, value) for name, value in vars(obj).items() if name != PENDING_ATTRIBUTE)
        return [(name, value) for name, value in items if _holds_trackable(value)]
    if isinstance(obj, dict):
        return [(str(key), obj[key]) for key in sorted(obj, key=str) if _holds_trackable(obj[key])]
    if isinstance(obj, (list, tuple)):
        return [(str(i), value) for i, value in enumerate(obj) if _holds_trackable(value)]
    return []


def child(obj, name):
    """The dependency of `obj` called `name`, or None when there is none (yet)."""
    for child_name, value in children(obj):
        if child_name == name:
            return value
    return None


def defer(owner, path, restore):
    """Keeps `restore(obj)` on `owner` until the object at `path` (names below owner) exists."""
    pending = owner.__dict__.get(PENDING_ATTRIBUTE)
    if pending is None:
        pending = {}
        object.__setattr__(owner, PENDING_ATTRIBUTE, pending)
    pending.setdefault(tuple(path), []).append(restore)


def restore_deferred(owner):
    """Hands every pending restoration of `owner` whose object now exists to it."""
    pending = owner.__dict__.get(PENDING_ATTRIBUTE)
    if not pending:
        return
    for path in list(pending):
        target = owner
        for name in path:
            target = child(target, name)
            if target is None:
                break
        if target is not None:
            for restore in pending.pop(path):
                restore(target)
