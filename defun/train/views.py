"""`tf.train.CheckpointView` and `tf.train.TrackableView`: the object graph of a saved checkpoint
and of live objects, and how the two meet.

A CheckpointView reads a checkpoint's index (its nodes, numbered breadth first from the root as
they were saved); a TrackableView walks live objects the way saving walks them
(`trackable.children`). `match` walks both from the root side by side, edge name by edge name, as
restoring does; `diff` adds what each side has that the other lacks.
"""
import collections

from defun.state.trackable import children, child
from defun.train import checkpoint_format

__all__ = ['CheckpointView', 'TrackableView']


class TrackableView:
    """The trackable objects reachable from `root`, as a checkpoint of it would see them."""

    def __init__(self, root):
        self._root = root

    @property
    def root(self):
        return self._root

    @classmethod
    def children(cls, obj, save_type=None, **kwargs):
        """The direct dependencies of `obj`: {name: trackable}, in saving order."""
        return dict(children(obj))

    def descendants(self):
        """Every object reachable from the root, breadth first, each once (the root first)."""
        seen, order = {id(self._root)}, [self._root]
        queue = collections.deque([self._root])
        while queue:
            for _, value in children(queue.popleft()):
                if id(value) not in seen:
                    seen.add(id(value))
                    order.append(value)
                    queue.append(value)
        return order


class CheckpointView:
    """The object graph saved in the checkpoint at `save_path` (node 0 is its root)."""

    def __init__(self, save_path):
        self._nodes, _ = checkpoint_format.read_index(save_path)

    def children(self, node_id):
        """{name: node id} of the saved node's direct dependencies."""
        return {name: child_id for name, child_id in self._nodes[node_id]['children']}

    def descendants(self):
        """Every node id reachable from the root, breadth first, each once."""
        seen, order = {0}, [0]
        queue = collections.deque([0])
        while queue:
            for _, child_id in self._nodes[queue.popleft()]['children']:
                if child_id not in seen:
                    seen.add(child_id)
                    order.append(child_id)
                    queue.append(child_id)
        return order

    def match(self, obj):
        """{node id: live trackable} for the saved nodes that meet an object of the graph below
        `obj` (walked from the roots together, by edge name), breadth first."""
        matched, taken = {0: obj}, {id(obj)}
        queue = collections.deque([(0, obj)])
        while queue:
            node_id, live = queue.popleft()
            for name, child_id in self._nodes[node_id]['children']:
                if child_id in matched:
                    continue
                value = child(live, name)
                if value is not None and id(value) not in taken:
                    matched[child_id] = value
                    taken.add(id(value))
                    queue.append((child_id, value))
        return matched

    def diff(self, obj):
        """(match, node ids only in the checkpoint, trackables only below `obj`)."""
        matched = self.match(obj)
        taken = {id(v) for v in matched.values()}
        only_saved = sorted(n for n in self.descendants() if n not in matched)
        only_live = [v for v in TrackableView(obj).descendants() if id(v) not in taken]
        return matched, only_saved, only_live
