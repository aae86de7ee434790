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

Lists and dicts assigned to an AutoTrackable's attribute are wrapped, as TF wraps them, in a
`ListWrapper` / `DictWrapper` (subclasses of list and dict, printed as TF prints them). A wrapper is
itself an object that restorations can wait on: a restore that reaches an empty `ListWrapper`
waits there, and an `append` that later puts a Variable at the saved index completes it. As
TF's, a wrapper shares the list or dict it wraps: a change made through either is seen by both.

Objects of libraries written for TF (Keras's layers, optimizers and variables) take part through
TF's own Trackable protocol instead of attributes: they name their dependencies with
`_trackable_children()` and give the tensors saved for themselves with `_serialize_to_tensors()`
(taken back by `_restore_from_tensors`). Those method names are TF's interface to such libraries,
so this module calls them on objects it did not define.
"""
import copy

from defun.state.variables import Variable

__all__ = ['AutoTrackable', 'Saveable', 'ListWrapper', 'DictWrapper', 'wrap', 'can_wait',
           'children', 'child', 'is_trackable', 'defer', 'restore_deferred', 'PENDING_ATTRIBUTE',
           'speaks_tf_protocol', 'saved_tensors', 'restore_tensors', 'saved_model_children',
           'wrapped_variable']

# The attribute holding an object's pending restorations; never itself part of the object graph.
PENDING_ATTRIBUTE = '_pending_restorations'


class AutoTrackable:
    """An object whose trackable attributes are its checkpoint dependencies, as TF's AutoTrackable.

    Subclasses may define `__trackable_children__()` returning (name, value) pairs to replace the
    attribute walk (for objects whose state is not simply their attributes)."""

    def __setattr__(self, name, value):
        object.__setattr__(self, name, wrap(value))
        # Any assignment may complete a pending path: `self.w = Variable(...)` directly, or
        # `self._momentums = ...` after the slots it names were appended to `self._variables`.
        if self.__dict__.get(PENDING_ATTRIBUTE) and name != PENDING_ATTRIBUTE:
            restore_deferred(self)


class Saveable:
    """An object whose state a checkpoint saves as one array that is not a Variable's value (a
    dataset iterator's position): saved under `<path>/.ATTRIBUTES/<SAVED_ATTRIBUTE>`."""

    SAVED_ATTRIBUTE = 'VALUE'

    def save_state(self):
        """The state to save, as a numpy array."""
        raise NotImplementedError(f'{type(self).__name__} does not say how to save its state')

    def restore_state(self, array):
        """Takes back the state `save_state` returned."""
        raise NotImplementedError(f'{type(self).__name__} does not say how to restore its state')


class _Container:
    """What both wrappers share: reads go to the wrapped container (`_storage`), resynchronising
    the wrapper's own storage (`_mirror`) when its length shows the wrapped one changed, and a
    change may complete a restoration waiting on the wrapper. `_BUILTIN` is list or dict."""

    def _fresh(self):
        if self._BUILTIN.__len__(self) != len(self._storage):
            self._mirror()
        return self._storage

    def _changed(self):
        if self.__dict__.get(PENDING_ATTRIBUTE):
            restore_deferred(self)

    def _apply(self, method, *args):
        """`method` (list's or dict's) applied to the wrapped container, then the mirror."""
        result = method(self._storage, *args)
        self._mirror()
        self._changed()
        return result

    __hash__ = None  # mutable, as list and dict

    def __len__(self):
        return len(self._fresh())

    def __iter__(self):
        return iter(self._fresh())

    def __getitem__(self, key):
        return self._fresh()[key]

    def __contains__(self, value):
        return value in self._storage


class ListWrapper(_Container, list):
    """A list held by a trackable object (TF's `ListWrapper`): its Variables and trackables are
    checkpoint dependencies named by index, and lists or dicts put into it are wrapped in turn.

    As TF's, it shares the list it wraps: a change made through either is seen through both. The
    items live in that list (`_storage`); the wrapper's own list storage mirrors it for C code that
    reads lists directly (json, numpy), resynchronised when a change is made through the wrapper
    or when its length shows that the wrapped list changed."""

    _BUILTIN = list

    def __init__(self, wrapped_list=()):
        storage = wrapped_list if type(wrapped_list) is list else list(wrapped_list)
        for i, value in enumerate(storage):
            wrapped = wrap(value)
            if wrapped is not value:
                storage[i] = wrapped  # as TF, the wrapped list holds the wrappers too
        self._storage = storage
        list.__init__(self, storage)

    def _mirror(self):
        list.__setitem__(self, slice(None), self._storage)

    # -- reading: from the wrapped list (len, iter, [], in: see _Container)
    def __reversed__(self):
        return reversed(self._fresh())

    def index(self, *args):
        return self._storage.index(*args)

    def count(self, value):
        return self._storage.count(value)

    def __add__(self, other):
        return self._storage + list(other)

    def __radd__(self, other):
        return list(other) + self._storage

    def __mul__(self, n):
        return self._storage * n

    __rmul__ = __mul__

    def __eq__(self, other):
        return self._storage == (other._storage if isinstance(other, ListWrapper) else other)

    def __ne__(self, other):
        return not self == other

    def __lt__(self, other):
        return self._storage < list(other)

    def __le__(self, other):
        return self._storage <= list(other)

    def __gt__(self, other):
        return self._storage > list(other)

    def __ge__(self, other):
        return self._storage >= list(other)

    # -- changing: the wrapped list, then the mirror (_Container._apply)

    def append(self, value):
        self._apply(list.append, wrap(value))

    def extend(self, values):
        self._apply(list.extend, [wrap(v) for v in values])

    def insert(self, index, value):
        self._apply(list.insert, index, wrap(value))

    def __setitem__(self, key, value):
        value = [wrap(v) for v in value] if isinstance(key, slice) else wrap(value)
        self._apply(list.__setitem__, key, value)

    def __delitem__(self, key):
        self._apply(list.__delitem__, key)

    def pop(self, *args):
        return self._apply(list.pop, *args)

    def remove(self, value):
        self._apply(list.remove, value)

    def clear(self):
        self._apply(list.clear)

    def sort(self, *, key=None, reverse=False):
        self._apply(lambda storage: storage.sort(key=key, reverse=reverse))

    def reverse(self):
        self._apply(list.reverse)

    def __iadd__(self, values):
        self.extend(values)
        return self

    def __imul__(self, n):
        self._apply(list.__imul__, n)
        return self

    def __copy__(self):
        return ListWrapper(list(self._storage))

    def __deepcopy__(self, memo):
        return ListWrapper(copy.deepcopy(self._storage, memo))

    def __reduce__(self):
        return ListWrapper, (list(self._storage),)

    def __repr__(self):
        return f'ListWrapper({self._storage!r})'


class DictWrapper(_Container, dict):
    """A dict held by a trackable object (TF's `_DictWrapper`): its values are checkpoint
    dependencies named by key. It shares the dict it wraps, as a ListWrapper shares its list."""

    _BUILTIN = dict

    def __init__(self, wrapped_dict=None, **kwargs):
        storage = wrapped_dict if type(wrapped_dict) is dict and not kwargs else \
            dict(wrapped_dict or (), **kwargs)
        for key, value in list(storage.items()):
            wrapped = wrap(value)
            if wrapped is not value:
                storage[key] = wrapped
        self._storage = storage
        dict.__init__(self, storage)

    def _mirror(self):
        dict.clear(self)
        dict.update(self, self._storage)

    # -- reading: from the wrapped dict (len, iter, [], in: see _Container)
    def get(self, key, default=None):
        return self._storage.get(key, default)

    def keys(self):
        return self._fresh().keys()

    def values(self):
        return self._fresh().values()

    def items(self):
        return self._fresh().items()

    def __eq__(self, other):
        return self._storage == (other._storage if isinstance(other, DictWrapper) else other)

    def __ne__(self, other):
        return not self == other

    def __or__(self, other):
        return self._storage | dict(other)

    def __ror__(self, other):
        return dict(other) | self._storage

    # -- changing: the wrapped dict, then the mirror (_Container._apply)

    def __setitem__(self, key, value):
        self._apply(dict.__setitem__, key, wrap(value))

    def __delitem__(self, key):
        self._apply(dict.__delitem__, key)

    def update(self, *args, **kwargs):
        self._apply(dict.update, {k: wrap(v) for k, v in dict(*args, **kwargs).items()})

    def __ior__(self, other):
        self.update(other)
        return self

    def setdefault(self, key, default=None):
        if key not in self._storage:
            self[key] = default
        return self._storage[key]

    def pop(self, *args):
        return self._apply(dict.pop, *args)

    def popitem(self):
        return self._apply(dict.popitem)

    def clear(self):
        self._apply(dict.clear)

    def copy(self):
        return DictWrapper(dict(self._storage))

    __copy__ = copy

    def __deepcopy__(self, memo):
        return DictWrapper(copy.deepcopy(self._storage, memo))

    def __reduce__(self):
        return DictWrapper, (dict(self._storage),)

    def __repr__(self):
        return f'DictWrapper({self._storage!r})'


def wrap(value):
    """`value`, with a plain list or dict replaced by its wrapper (as TF wraps attributes)."""
    if type(value) is list:
        return ListWrapper(value)
    if type(value) is dict:
        return DictWrapper(value)
    return value


def can_wait(obj):
    """True for the objects a pending restoration can wait on: AutoTrackables, wrappers, and
    objects of TF's Trackable protocol."""
    return isinstance(obj, (AutoTrackable, _Container)) or speaks_tf_protocol(obj)


def speaks_tf_protocol(value):
    """Whether `value` names its dependencies through TF's Trackable protocol."""
    return not isinstance(value, type) and callable(
        getattr(type(value), '_trackable_children', None))


def saved_tensors(obj):
    """{name: tensor} that a TF-protocol object saves for itself (a Keras variable: its value);
    {} for every other object."""
    if not speaks_tf_protocol(obj):
        return {}
    try:
        return dict(obj._serialize_to_tensors())
    except NotImplementedError:
        return {}


def restore_tensors(obj, tensors):
    """Gives a TF-protocol object back the {name: value} it saved."""
    obj._restore_from_tensors(tensors)


def saved_model_children(obj):
    """{name: value} a TF-protocol object lists for a SavedModel (its dependencies and the
    tf.functions it offers, such as a Keras model's `_default_save_signature`)."""
    return dict(obj._trackable_children('savedmodel')) if speaks_tf_protocol(obj) else {}


def wrapped_variable(obj):
    """The defun Variable a TF-protocol object saves as its value (a Keras variable keeps one
    among its attributes), or None: a SavedModel stores the object as that Variable."""
    if not saved_tensors(obj):
        return None
    found = [v for v in vars(obj).values() if isinstance(v, Variable)]
    return found[0] if len(found) == 1 else None


def _holds_trackable(value):
    if isinstance(value, (Variable, AutoTrackable, _Container, Saveable)) or \
            speaks_tf_protocol(value):
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
    if isinstance(obj, (Variable, Saveable)):
        return []
    if speaks_tf_protocol(obj):
        return [(str(name), value) for name, value in
                obj._trackable_children('checkpoint').items() if _holds_trackable(value)]
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


def _resolve(owner, path):
    """(the deepest object that exists along `path` from `owner`, how many names reached it)."""
    target = owner
    for depth, name in enumerate(path):
        found = child(target, name)
        if found is None:
            return target, depth
        target = found
    return target, len(path)


def restore_deferred(owner):
    """Hands every pending restoration of `owner` whose object now exists to it."""
    pending = owner.__dict__.get(PENDING_ATTRIBUTE)
    if not pending:
        return
    for path in list(pending):
        target, depth = _resolve(owner, path)
        if depth == len(path):
            for restore in pending.pop(path):
                restore(target)
        elif depth and can_wait(target):
            # Part of the path now exists and ends in an object that can hold the rest: the
            # restoration moves there, so a change to that object (an append) completes it.
            for restore in pending.pop(path):
                defer(target, path[depth:], restore)
