"""`tf.train.CheckpointManager` (numbered saves, rotation, the latest checkpoint) and the readers
of saved checkpoints: `list_variables`, `load_variable`, `load_checkpoint`.

A manager numbers its saves by the checkpoint's `save_counter` (or the number it is given), keeps
the newest `max_to_keep` and deletes older ones (except one every `keep_checkpoint_every_n_hours`),
and records them in the directory's state file, which a new manager reads back on construction.
"""
import json
import os
import time

from defun.core import dtypes, errors
from defun.train import checkpoint_format, checkpoint_state
from defun.train.checkpoint import is_chief, wait_for_chief

__all__ = ['CheckpointManager', 'CheckpointReader', 'CheckpointState', 'list_variables',
           'load_variable', 'load_checkpoint', 'get_checkpoint_state', 'checkpoints_iterator']


class CheckpointManager:
    """Saves `checkpoint` as `directory/checkpoint_name-N` and keeps the newest `max_to_keep`."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name='ckpt', step_counter=None, checkpoint_interval=None,
                 init_fn=None):
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f'Expected a positive integer or `None` for `max_to_keep`, got '
                             f'{max_to_keep}.')
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError('`step_counter` should be passed if `checkpoint_interval` is not None.')
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_hours = keep_checkpoint_every_n_hours
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter, self._interval, self._init_fn = step_counter, checkpoint_interval, init_fn
        self._last_step = None
        self._recover_state()

    def _recover_state(self):
        state = checkpoint_state.read(self._directory)
        self._kept = []  # (prefix, timestamp), oldest first
        self._last_preserved = time.time()
        if state is None:
            return
        stamps = state['all_model_checkpoint_timestamps']
        paths = state['all_model_checkpoint_paths']
        for i, path in enumerate(paths):
            if checkpoint_format.exists(path):
                self._kept.append((path, stamps[i] if i < len(stamps) else time.time()))
        if state['last_preserved_timestamp'] is not None:
            self._last_preserved = state['last_preserved_timestamp']

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def checkpoint_interval(self):
        return self._interval

    @property
    def checkpoints(self):
        """The kept checkpoints' prefixes, oldest first."""
        return [path for path, _ in self._kept]

    @property
    def latest_checkpoint(self):
        """The newest kept checkpoint's prefix, or None."""
        return self._kept[-1][0] if self._kept else None

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Saves a new numbered checkpoint, deletes those beyond `max_to_keep`, and returns its
        prefix (None when `checkpoint_interval` says it is not yet time)."""
        if self._interval is not None and check_interval:
            step = int(self._step_counter.numpy())
            if self._last_step is not None and step < self._last_step + self._interval:
                return None
            self._last_step = step
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        number = int(counter.numpy()) if checkpoint_number is None else int(checkpoint_number)
        path = self._checkpoint.write(f'{self._prefix}-{number}')
        now = time.time()
        self._kept = [(p, t) for p, t in self._kept if p != path] + [(path, now)]
        # In a job of several processes every one keeps the same list; rank 0 alone changes files.
        chief = is_chief()
        self._sweep(delete=chief)
        if chief:
            checkpoint_state.update(self._directory, path, self.checkpoints,
                                    [t for _, t in self._kept], self._last_preserved)
        wait_for_chief()
        return path

    def _sweep(self, delete=True):
        if self._max_to_keep is None:
            return
        while len(self._kept) > self._max_to_keep:
            path, stamp = self._kept.pop(0)
            if self._keep_hours and stamp - self._keep_hours * 3600 >= self._last_preserved:
                self._last_preserved = stamp  # kept on disk for good, no longer managed
                continue
            for name in (checkpoint_format.index_path(path), checkpoint_format.data_path(path)):
                if delete and os.path.exists(name):
                    os.remove(name)

    def restore_or_initialize(self):
        """Restores the latest checkpoint and returns its prefix, or runs `init_fn` (if any) and
        returns None when there is none."""
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


class CheckpointReader:
    """Reads the values of a saved checkpoint by key, as `tf.train.load_checkpoint` returns.

    As in TF, the object graph is one more key (`_CHECKPOINTABLE_OBJECT_GRAPH`, a string scalar);
    its value is defun's own serialisation of the graph (JSON), not TF's protocol buffer."""

    def __init__(self, prefix):
        self._prefix = prefix
        self._nodes, self._table = checkpoint_format.read_index(prefix)

    def get_variable_to_shape_map(self):
        shapes = {key: list(shape) for key, (_, _, shape) in self._table.items()}
        shapes[checkpoint_format.OBJECT_GRAPH_KEY] = []
        return shapes

    def get_variable_to_dtype_map(self):
        types = {key: dtype for key, (_, dtype, _) in self._table.items()}
        types[checkpoint_format.OBJECT_GRAPH_KEY] = dtypes.string
        return types

    def has_tensor(self, name):
        return name in self._table or name == checkpoint_format.OBJECT_GRAPH_KEY

    def get_tensor(self, name):
        name = name[:-2] if name.endswith(':0') else name
        if name == checkpoint_format.OBJECT_GRAPH_KEY:
            return json.dumps(self._nodes, sort_keys=True).encode()
        if name not in self._table:
            raise errors.NotFoundError(f'Key {name} not found in checkpoint')
        return checkpoint_format.read(self._prefix, [name])[2][name]


def load_checkpoint(ckpt_dir_or_file):
    """A CheckpointReader for a checkpoint prefix or the latest checkpoint of a directory."""
    return CheckpointReader(checkpoint_state.resolve(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file):
    """[(key, shape)] of every value in a checkpoint, sorted by key, as `tf.train.list_variables`."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return [(key, shapes[key]) for key in sorted(shapes)]


def load_variable(ckpt_dir_or_file, name):
    """The saved value (a numpy array) of the key `name`."""
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


class CheckpointState:
    """What a directory's state file records (tf.train.get_checkpoint_state)."""

    def __init__(self, state):
        self.model_checkpoint_path = state['model_checkpoint_path']
        self.all_model_checkpoint_paths = list(state['all_model_checkpoint_paths'])
        self.all_model_checkpoint_timestamps = list(state['all_model_checkpoint_timestamps'])
        self.last_preserved_timestamp = state['last_preserved_timestamp']

    def __repr__(self):
        return (f'CheckpointState(model_checkpoint_path={self.model_checkpoint_path!r}, '
                f'all_model_checkpoint_paths={self.all_model_checkpoint_paths!r})')


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState of `checkpoint_dir`, or None when it has no state file."""
    state = checkpoint_state.read(os.fspath(checkpoint_dir), latest_filename)
    return None if state is None or state['model_checkpoint_path'] is None else \
        CheckpointState(state)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new latest checkpoint of `checkpoint_dir` as it appears; stops when none came
    for `timeout` seconds (and `timeout_fn`, if given, returns True)."""
    last = None
    while True:
        found = _wait_for_new(checkpoint_dir, last, timeout)
        if found is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        started = time.time()
        last = found
        yield found
        time.sleep(max(0.0, min_interval_secs - (time.time() - started)))


def _wait_for_new(checkpoint_dir, last, timeout):
    deadline = None if timeout is None else time.time() + timeout
    while True:
        latest = checkpoint_state.latest_checkpoint(checkpoint_dir)
        if latest is not None and latest != last:
            return latest
        if deadline is not None and time.time() >= deadline:
            return None
        time.sleep(0.05 if timeout is not None and timeout < 1 else 1.0)
