"""The files of one checkpoint: `PREFIX.index` (JSON: the object graph and each value's key, dtype
and shape) and `PREFIX.data-00000-of-00001` (the arrays, a numpy .npz opened without pickle).

The names follow TensorFlow's so that a directory of checkpoints looks as TF users expect; the
contents are defun's own, data only. Reading never trusts the files: the JSON must have the expected
form, every array must be named in the index with the dtype and shape it claims, and anything else
raises `DataLossError` naming the file.
"""
import json
import os
import zipfile

import numpy as np

from defun.core import dtypes, errors

__all__ = ['write', 'read', 'exists', 'index_path', 'data_path', 'OBJECT_GRAPH_KEY', 'FORMAT',
           'open_arrays']

FORMAT = 'defun-checkpoint'
VERSION = 1
OBJECT_GRAPH_KEY = '_CHECKPOINTABLE_OBJECT_GRAPH'


def index_path(prefix):
    return prefix + '.index'


def data_path(prefix):
    return prefix + '.data-00000-of-00001'


def exists(prefix):
    return os.path.isfile(index_path(prefix)) and os.path.isfile(data_path(prefix))


def write(prefix, nodes, values):
    """Writes `nodes` (the object graph, a JSON-able list) and `values` ({key: ndarray}).

    The data file is written first and the index last, each through a temporary name, so a reader
    never sees an index whose data is missing or half written."""
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    keys = sorted(values)
    arrays = {f'a{i}': np.asarray(values[key]) for i, key in enumerate(keys)}
    for key, array in zip(keys, arrays.values()):
        if array.dtype == object:
            raise errors.UnimplementedError(
                f'Cannot save {key!r}: values of dtype {array.dtype} (strings held as '
                'Python objects) are not supported in checkpoints.')
    tmp = data_path(prefix) + '.tmp'
    with open(tmp, 'wb') as f:
        np.savez(f, **arrays)
    os.replace(tmp, data_path(prefix))
    index = {'format': FORMAT, 'version': VERSION, 'nodes': nodes,
             'values': [{'key': key, 'array': name, 'dtype': dtypes.from_numpy(a.dtype).name,
                         'shape': list(a.shape)} for key, (name, a) in zip(keys, arrays.items())]}
    tmp = index_path(prefix) + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(index, f)
    os.replace(tmp, index_path(prefix))


def _corrupt(prefix, what):
    return errors.DataLossError(f'Checkpoint {prefix!r} is not a valid defun checkpoint: '
                                            f'{what}.')


def read_index(prefix):
    """The checked index: (nodes, {key: (array name, dtype, shape)})."""
    if not exists(prefix):
        raise errors.NotFoundError(
            f'Error when restoring from checkpoint at {prefix}: Failed to find any '
            f'matching files for {prefix}. Please double-check that the path is correct. You may be '
            "missing the checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1').")
    try:
        with open(index_path(prefix)) as f:
            index = json.load(f)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise _corrupt(prefix, f'its index cannot be read ({exc})') from None
    if not isinstance(index, dict) or index.get('format') != FORMAT:
        raise _corrupt(prefix, 'its index has no defun checkpoint header')
    if index.get('version') != VERSION:
        raise _corrupt(prefix, f'unsupported version {index.get("version")!r}')
    nodes, entries = index.get('nodes'), index.get('values')
    if not isinstance(nodes, list) or not isinstance(entries, list):
        raise _corrupt(prefix, 'its index lacks nodes or values')
    table = {}
    for entry in entries:
        try:
            key, name, dtype = entry['key'], entry['array'], dtypes.as_dtype(entry['dtype'])
            shape = tuple(int(d) for d in entry['shape'])
        except (KeyError, TypeError, ValueError) as exc:
            raise _corrupt(prefix, f'a malformed value entry ({exc})') from None
        table[key] = (name, dtype, shape)
    _check_nodes(prefix, nodes, table)
    return nodes, table


def _check_nodes(prefix, nodes, table):
    for i, node in enumerate(nodes):
        if not isinstance(node, dict) or not isinstance(node.get('children'), list):
            raise _corrupt(prefix, f'node {i} is malformed')
        for edge in node['children']:
            if (not isinstance(edge, list) or len(edge) != 2 or not isinstance(edge[0], str)
                    or not isinstance(edge[1], int) or not 0 <= edge[1] < len(nodes)):
                raise _corrupt(prefix, f'node {i} has a malformed or dangling child {edge!r}')
        key = node.get('value')
        if key is not None and key not in table:
            raise _corrupt(prefix, f'node {i} names a value {key!r} that the file does not hold')


def open_arrays(path):
    """Opens an .npz written by defun: without pickle, and only with uncompressed members, so
    what it holds costs no more memory than the file's own size."""
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if info.compress_type != zipfile.ZIP_STORED:
                raise ValueError(f'member {info.filename!r} is compressed')
    return np.load(path, allow_pickle=False)


def _typed(array, dtype):
    """A stored array as `dtype`: numpy's files keep bfloat16 and the other ml_dtypes types as
    raw bytes ('V2'), which the index's dtype names."""
    if array.dtype.kind == 'V' and dtype.kind != 'V' and dtype in dtypes.LOW_PRECISION_TYPES:
        return array.view(dtype.np_dtype)
    return array


def read(prefix, keys=None):
    """The checked index and the arrays for `keys` (all when None): (nodes, table, {key: array})."""
    nodes, table = read_index(prefix)
    wanted = table if keys is None else {k: table[k] for k in keys}
    arrays = {}
    try:
        with open_arrays(data_path(prefix)) as data:
            for key, (name, dtype, shape) in wanted.items():
                array = _typed(data[name], dtype)
                if array.shape != shape or dtypes.from_numpy(array.dtype) != dtype:
                    raise _corrupt(prefix, f'{key!r} holds {array.dtype}{list(array.shape)}, '
                                           f'the index says {dtype.name}{list(shape)}')
                arrays[key] = array
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        if isinstance(exc, errors.DataLossError):
            raise
        raise _corrupt(prefix, f'its data file cannot be read ({exc})') from None
    return nodes, table, arrays
