"""`tf.train.Checkpoint`: saves and restores the Variables (and other saveable state, such as
dataset iterators' positions) reachable from a root object.

Saving walks the object graph breadth first from the root (`trackable.children`), numbers each
object once, and keys each Variable by the shortest path that reaches it, escaped as TensorFlow
escapes it (`model/dense_1/w/.ATTRIBUTES/VARIABLE_VALUE`). Restoring walks the saved graph and the
live objects side by side from the root, edge name by edge name. Where a live object does not exist
yet (lazily built Modules, optimizer slots), the rest of that branch waits on the object that will
hold it (`trackable.defer`) and is applied when it appears, as TF's delayed restoration. Every value
is checked (dtype, shape) before any Variable is assigned, so a failed restore changes nothing.

Objects of TF's Trackable protocol (Keras's models, layers, optimizers and variables) are walked
through that protocol (see defun/state/trackable.py), so a Keras model's keys are TF's.
"""
import collections
import os

from defun.core import context, dtypes, errors
from defun.state.trackable import (AutoTrackable, Saveable, can_wait, children, child, defer,
                                   is_trackable, restore_tensors, saved_tensors, wrap)
from defun.train import checkpoint_format, checkpoint_state
from defun.state.variables import Variable

__all__ = ['Checkpoint', 'CheckpointLoadStatus', 'InitializationOnlyStatus', 'object_graph',
           'is_chief', 'wait_for_chief', 'saved_value']

VALUE_SUFFIX = '/.ATTRIBUTES/VARIABLE_VALUE'
# TF's names for dtypes in its restore error (its DataTypeString), where they differ from ours.
_TF_DTYPE_TEXT = {'float32': 'float', 'float64': 'double', 'float16': 'half'}


def _escape(name):
    return name.replace('.', '..').replace('/', '.S')


def object_graph(root):
    """(nodes, objects, paths): the graph below `root` in breadth-first order, node 0 the root.

    Each node is {'children': [[name, node id], ...], 'value': key or None}; a Variable's key is
    its shortest path from the root."""
    ids, objects, paths = {id(root): 0}, [root], [()]
    nodes = [{'children': [], 'value': None}]
    queue = collections.deque([0])
    while queue:
        node_id = queue.popleft()
        for name, value in children(objects[node_id]):
            if id(value) not in ids:
                ids[id(value)] = len(objects)
                objects.append(value)
                paths.append(paths[node_id] + (name,))
                nodes.append({'children': [], 'value': None})
                queue.append(ids[id(value)])
            nodes[node_id]['children'].append([name, ids[id(value)]])
    for node, obj, path in zip(nodes, objects, paths):
        attribute = _saved_attribute(obj)
        if attribute is not None:
            node['value'] = '/'.join(_escape(n) for n in path) + f'/.ATTRIBUTES/{attribute}'
    return nodes, objects, paths


def _saved_attribute(obj):
    """The name under `.ATTRIBUTES` of the value `obj` saves for itself, or None."""
    if isinstance(obj, Variable):
        return VALUE_SUFFIX.rsplit('/', 1)[1]
    if isinstance(obj, Saveable):
        return obj.SAVED_ATTRIBUTE
    tensors = saved_tensors(obj)
    if len(tensors) > 1:
        raise errors.UnimplementedError(
            f'{type(obj).__name__} saves {len(tensors)} tensors ({", ".join(tensors)}): defun '
            f'checkpoints hold one value per object.')
    return next(iter(tensors), None)


def saved_value(obj):
    """The array a checkpoint stores for `obj` (one with a `_saved_attribute`)."""
    if isinstance(obj, Saveable):
        return obj.save_state()
    if isinstance(obj, Variable):
        return obj.numpy()
    (tensor,) = saved_tensors(obj).values()
    return tensor.numpy()


def _live_value(obj):
    """What a restored array must match in dtype and shape: the Variable, or the tensor a
    TF-protocol object saves."""
    if isinstance(obj, Variable):
        return obj
    (tensor,) = saved_tensors(obj).values()
    return tensor


def _check_value(key, obj, array, stored_dtype):
    variable = _live_value(obj)
    if variable.dtype != stored_dtype:
        want = _TF_DTYPE_TEXT.get(variable.dtype.name, variable.dtype.name)
        have = _TF_DTYPE_TEXT.get(stored_dtype.name, stored_dtype.name)
        raise errors.InvalidArgumentError(
            f'tensor_name = {key}; expected dtype {want} does not equal original dtype {have} '
            '[Op:RestoreV2]')
    if not variable.shape.is_compatible_with(array.shape):
        raise ValueError(f'Received incompatible tensor with shape {tuple(array.shape)} when '
                         f'attempting to restore variable with shape {variable.shape} and name '
                         f'{getattr(obj, "name", key)}.')


class _Restoration:
    """One restore: the saved graph, its arrays, and which saved nodes met which live objects."""

    def __init__(self, prefix, nodes, table, arrays):
        self.prefix, self.nodes, self.table, self.arrays = prefix, nodes, table, arrays
        self.matched = {}  # saved node id -> the live object it was bound to

    def bind(self, node_id, obj, owner, owner_path):
        """Binds the branch below saved node `node_id` to `obj`: checks every value that can be
        assigned now, then assigns them all and leaves the rest waiting on `owner`."""
        assignments, waiting = [], []
        self._plan(node_id, obj, owner, owner_path, assignments, waiting)
        for target, key in assignments:
            if not isinstance(target, Saveable):
                _check_value(key, target, self.arrays[key], self.table[key][1])
        with context.init_scope():
            for target, key in assignments:
                if isinstance(target, Variable):
                    target.assign(self.arrays[key])
                elif isinstance(target, Saveable):
                    target.restore_state(self.arrays[key])
                else:
                    restore_tensors(target, {key.rsplit('/', 1)[1]: self.arrays[key]})
        for owner_, path, child_id in waiting:
            defer(owner_, path, self._deferred(child_id, owner_, path))

    def _deferred(self, node_id, owner, path):
        return lambda obj: self.bind(node_id, obj, owner, path)

    def _plan(self, node_id, obj, owner, owner_path, assignments, waiting):
        if node_id in self.matched:
            return
        self.matched[node_id] = obj
        if can_wait(obj):
            owner, owner_path = obj, ()
        node = self.nodes[node_id]
        if node['value'] is not None and _saved_attribute(obj) is not None:
            assignments.append((obj, node['value']))
        for name, child_id in node['children']:
            live = child(obj, name)
            path = owner_path + (name,)
            if live is None:
                waiting.append((owner, path, child_id))
            else:
                self._plan(child_id, live, owner, path, assignments, waiting)

    def node_path(self, node_id):
        """'(root).a.b' for a saved node, as TF's messages name it."""
        parents = {c: (name, n) for n, node in enumerate(self.nodes) for name, c in node['children']}
        names = []
        while node_id in parents and node_id != 0:
            name, node_id = parents[node_id]
            names.append(name)
        return '.'.join(['(root)'] + names[::-1])


class CheckpointLoadStatus:
    """What `Checkpoint.restore` returns: assertions about how the checkpoint met the objects."""

    def __init__(self, restoration, root):
        self._restoration = restoration
        self._root = root

    def assert_consumed(self):
        """Raises AssertionError unless every live object and every saved object was matched."""
        self.assert_existing_objects_matched()
        nodes = self._restoration.nodes
        # As TF, a saved value left unmatched is reported first (then any other saved object).
        order = sorted(range(len(nodes)), key=lambda i: nodes[i]['value'] is None)
        for node_id in order:
            node = nodes[node_id]
            if node_id not in self._restoration.matched:
                raise AssertionError(f'Unresolved object in checkpoint '
                                     f'{self._restoration.node_path(node_id)}: '
                                     f'{node["value"] or "a trackable object"}')
        return self

    def assert_existing_objects_matched(self):
        """Raises AssertionError if a live object below the root has no value in the checkpoint."""
        bound = {id(obj) for obj in self._restoration.matched.values()}
        _, objects, _ = object_graph(self._root)
        unmatched = [obj for obj in objects if id(obj) not in bound and (
            isinstance(obj, (Variable, AutoTrackable, Saveable)) or saved_tensors(obj))]
        if unmatched:
            raise AssertionError(
                f'Found {len(unmatched)} Python objects that were not bound to checkpointed values, '
                'likely due to changes in the Python program. Showing '
                f'{min(len(unmatched), 10)} of {len(unmatched)} unmatched objects: '
                f'{unmatched[:10]}')
        return self

    def assert_nontrivial_match(self):
        """Raises AssertionError unless something besides the root was matched."""
        if len(self._restoration.matched) <= 1:
            raise AssertionError(f'Nothing except the root object matched a checkpointed value. '
                                 f'Typically this means that the checkpoint does not match the '
                                 f'Python program. The checkpoint was {self._restoration.prefix}.')
        return self

    def expect_partial(self):
        """Says that a partial match is intended (defun warns about nothing, so this only
        returns the status)."""
        return self

    def run_restore_ops(self, session=None):
        """Values were assigned when `restore` ran (eager execution); nothing is left to run."""
        return None

    initialize_or_restore = run_restore_ops


class InitializationOnlyStatus:
    """What `restore(None)` returns: nothing was restored, so every assertion fails."""

    def _fail(self):
        raise AssertionError('No checkpoint specified (save_path=None); nothing is being restored.')

    def assert_consumed(self):
        self._fail()

    assert_existing_objects_matched = assert_nontrivial_match = assert_consumed

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        """Nothing to restore: variables keep the values they were initialised with."""
        return None

    initialize_or_restore = run_restore_ops


# Attributes of a Checkpoint that are its own bookkeeping, not dependencies.
_OWN_ATTRIBUTES = ('_root', '_save_counter')


class Checkpoint(AutoTrackable):
    """Groups trackable objects (Modules, Variables, optimizers, ...) to save and restore together,
    as `tf.train.Checkpoint(**kwargs)`; attributes assigned later are dependencies too."""

    def __init__(self, root=None, **kwargs):
        object.__setattr__(self, '_root', None)
        object.__setattr__(self, '_save_counter', None)
        if root is not None:
            _require_trackable('root', root)
            object.__setattr__(self, '_root', root)
        for name, value in sorted(kwargs.items()):
            _require_trackable(name, wrap(value))
            setattr(self, name, value)

    def __trackable_children__(self):
        own = [] if self._root is None else children(self._root)
        own += [(n, v) for n, v in vars(self).items() if n not in _OWN_ATTRIBUTES]
        if self._root is not None:
            # TF saves the root as a dependency of itself (the checkpoint's node 0) named 'root'
            own.append(('root', self))
        if self._save_counter is not None:
            own.append(('save_counter', self._save_counter))
        return own

    @property
    def save_counter(self):
        """How many times `save` has run: an int64 Variable, created on first use."""
        return self._make_save_counter()

    def _make_save_counter(self):
        if self._save_counter is None:
            with context.init_scope():
                counter = Variable(0, dtype=dtypes.int64, trainable=False, name='save_counter')
            object.__setattr__(self, '_save_counter', counter)
        return self._save_counter

    def write(self, file_prefix, options=None):
        """Writes a checkpoint at exactly `file_prefix` and returns that path. In a job of several
        processes (tf.distribute), every process calls it, rank 0 alone writes, and all return
        once the files are there."""
        file_prefix = os.fspath(file_prefix)
        nodes, objects, _ = object_graph(self)
        with context.init_scope():
            values = {node['value']: saved_value(obj)
                      for node, obj in zip(nodes, objects) if node['value'] is not None}
        if is_chief():
            checkpoint_format.write(file_prefix, nodes, values)
        wait_for_chief()
        return file_prefix

    def save(self, file_prefix, options=None):
        """Writes `file_prefix-N` (N counts saves), records it as the directory's latest checkpoint
        and returns its path."""
        file_prefix = os.fspath(file_prefix)
        with context.init_scope():
            number = int(self.save_counter.assign_add(1).numpy())
        path = self.write(f'{file_prefix}-{number}')
        if is_chief():
            checkpoint_state.update(os.path.dirname(file_prefix), path, [path])
        wait_for_chief()
        return path

    def restore(self, save_path, options=None):
        """Restores the values saved at `save_path` (a prefix) into the objects of this checkpoint;
        objects created later receive theirs when they appear. Returns a load status."""
        if save_path is None:
            return InitializationOnlyStatus()
        prefix = os.fspath(save_path)
        nodes, table, arrays = checkpoint_format.read(prefix)
        if any(name == 'save_counter' for name, _ in nodes[0]['children']):
            self._make_save_counter()  # restored like any variable, so numbering continues
        restoration = _Restoration(prefix, nodes, table, arrays)
        restoration.bind(0, self, self, ())
        return CheckpointLoadStatus(restoration, self)

    read = restore


def is_chief():
    """Whether this process writes checkpoints: always when alone, rank 0 in a job of several."""
    collective = context.process_collective()
    return collective is None or collective.rank == 0


def wait_for_chief():
    """In a job of several processes, returns once every process (the writing chief too) is here."""
    collective = context.process_collective()
    if collective is not None:
        collective.barrier()


def _require_trackable(name, value):
    if not is_trackable(value):
        raise ValueError(f'`Checkpoint` was expecting {name} to be a trackable object (an object '
                         f'derived from `Trackable`), got {value!r}. If you believe this object '
                         'should be trackable (i.e. it is part of the TensorFlow Python API and '
                         'manages state), please open an issue.')
