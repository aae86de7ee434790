"""The `checkpoint` state file of a directory: which checkpoint is the latest, and which are kept.

It is written in TensorFlow's text form (`model_checkpoint_path: "ckpt-2"`, one
`all_model_checkpoint_paths` line per kept checkpoint, paths relative to the directory) and read
back line by line: a line that is not `key: value` is ignored, nothing in the file is evaluated.
"""
import os
import re

from defun.core import errors
from defun.train import checkpoint_format

__all__ = ['update', 'read', 'latest_checkpoint', 'resolve']

STATE_FILENAME = 'checkpoint'
_LINE = re.compile(r'^\s*([a-z_]+)\s*:\s*(?:"((?:[^"\\]|\\.)*)"|([-+0-9.eE]+))\s*$')


def _quote(text):
    return '"' + text.replace('\\', '\\\\').replace('"', '\\"') + '"'


def _unquote(text):
    return re.sub(r'\\(.)', r'\1', text)


def _relative(directory, path):
    if os.path.dirname(path) == directory or (not directory and not os.path.dirname(path)):
        return os.path.basename(path)
    return path


def update(directory, latest, kept, timestamps=None, last_preserved=None):
    """Rewrites `directory`'s state file: `latest` and the `kept` checkpoints (prefixes)."""
    state = os.path.join(directory, STATE_FILENAME)
    lines = [f'model_checkpoint_path: {_quote(_relative(directory, latest))}']
    lines += [f'all_model_checkpoint_paths: {_quote(_relative(directory, p))}' for p in kept]
    lines += [f'all_model_checkpoint_timestamps: {t!r}' for t in (timestamps or ())]
    if last_preserved is not None:
        lines.append(f'last_preserved_timestamp: {last_preserved!r}')
    tmp = state + '.tmp'
    with open(tmp, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    os.replace(tmp, state)


def read(directory, latest_filename=None):
    """{'model_checkpoint_path': str or None, 'all_model_checkpoint_paths': [...],
    'all_model_checkpoint_timestamps': [...]}, paths joined to `directory`; None without a file."""
    state = os.path.join(directory, latest_filename or STATE_FILENAME)
    try:
        with open(state, encoding='utf-8', errors='replace') as f:
            text = f.read(1 << 20)
    except OSError:
        return None
    result = {'model_checkpoint_path': None, 'all_model_checkpoint_paths': [],
              'all_model_checkpoint_timestamps': [], 'last_preserved_timestamp': None}
    for line in text.splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        key, quoted, number = match.groups()
        if quoted is not None and key in ('model_checkpoint_path', 'all_model_checkpoint_paths'):
            path = _unquote(quoted)
            path = path if os.path.isabs(path) else os.path.join(directory, path)
            if key == 'model_checkpoint_path':
                result[key] = path
            else:
                result[key].append(path)
        elif number is not None and key == 'all_model_checkpoint_timestamps':
            result[key].append(float(number))
        elif number is not None and key == 'last_preserved_timestamp':
            result[key] = float(number)
    return result


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the latest checkpoint recorded in `checkpoint_dir`, or None, as
    `tf.train.latest_checkpoint`."""
    state = read(os.fspath(checkpoint_dir), latest_filename)
    if state is None or state['model_checkpoint_path'] is None:
        return None
    path = state['model_checkpoint_path']
    return path if checkpoint_format.exists(path) else None


def resolve(ckpt_dir_or_file):
    """A checkpoint prefix from a directory (its latest checkpoint) or a prefix."""
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory "
                             f'{path}')
        return latest
    if not checkpoint_format.exists(path):
        raise errors.NotFoundError(f'Unsuccessful TensorSliceReader constructor: Failed to find '
                                   f'any matching files for {path}')
    return path

