"""tf.io.gfile on the local file system: GFile (a file object with TF's method names) and the
file-system functions (exists, glob, isdir, listdir, makedirs, mkdir, remove, rename, rmtree,
stat, walk, copy, join), failing with TF's error classes (NotFoundError, AlreadyExistsError,
FailedPreconditionError) rather than OSError."""
import collections
import contextlib
import glob as _glob
import os
import shutil

from defun.core import errors

__all__ = ['GFile', 'exists', 'glob', 'isdir', 'listdir', 'makedirs', 'mkdir', 'remove',
           'rename', 'rmtree', 'stat', 'walk', 'copy', 'join']

FileStatistics = collections.namedtuple('FileStatistics', ['length', 'mtime_nsec', 'is_directory'])


def _path(name):
    path = os.fsdecode(name)
    return path[len('file://'):] if path.startswith('file://') else path  # the local scheme


def _os_error(exc, path):
    if isinstance(exc, FileNotFoundError):
        return errors.NotFoundError(f'{path}; No such file or directory')
    if isinstance(exc, FileExistsError):
        return errors.AlreadyExistsError(f'{path}; File exists')
    if isinstance(exc, (NotADirectoryError, IsADirectoryError)):
        return errors.FailedPreconditionError(f'{path}; {exc.strerror}')
    return errors.PermissionDeniedError(f'{path}; {exc.strerror}')


@contextlib.contextmanager
def _tf_errors(path):
    """Turns an OSError inside the block into TF's error class for `path`."""
    try:
        yield
    except OSError as exc:
        raise _os_error(exc, path) from None


class GFile:
    """A file opened with `mode` ('r', 'rb', 'w', 'wb', 'a', 'ab'); text modes read and write
    str, binary modes bytes. Opened lazily, as TF's, so a missing file fails on first read."""

    def __init__(self, name, mode='r'):
        if mode not in ('r', 'rb', 'w', 'wb', 'a', 'ab', 'r+', 'rb+', 'w+', 'wb+'):
            raise errors.InvalidArgumentError(f"mode is not 'r' or 'w' or 'a': {mode}")
        self.name, self.mode = _path(name), mode
        self._file = None

    def _handle(self):
        if self._file is None:
            with _tf_errors(self.name):
                text = {} if 'b' in self.mode else {'encoding': 'utf-8', 'newline': ''}
                self._file = open(self.name, self.mode, **text)
        return self._file

    def read(self, n=-1):
        return self._handle().read(n)

    def readline(self):
        return self._handle().readline()

    def readlines(self):
        return self._handle().readlines()

    def write(self, data):
        handle = self._handle()
        if 'b' in self.mode and isinstance(data, str):
            data = data.encode('utf-8')
        elif 'b' not in self.mode and isinstance(data, bytes):
            data = data.decode('utf-8')
        handle.write(data)

    def seek(self, offset=None, whence=0, position=None):
        self._handle().seek(position if position is not None else offset, whence)

    def tell(self):
        return self._handle().tell()

    def size(self):
        return stat(self.name).length

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __iter__(self):
        return iter(self._handle())

    def __next__(self):
        return next(self._handle())

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


def exists(path):
    """Whether `path` exists."""
    return os.path.exists(_path(path))


def isdir(path):
    """Whether `path` is a directory."""
    return os.path.isdir(_path(path))


def glob(pattern):
    """The paths matching `pattern` (a string or a list of them)."""
    patterns = [pattern] if isinstance(pattern, (str, bytes)) else list(pattern)
    return [p for pat in patterns for p in sorted(_glob.glob(_path(pat)))]


def listdir(path):
    """The sorted names in directory `path` (NotFoundError if it is not one)."""
    path = _path(path)
    if not os.path.isdir(path):
        raise errors.NotFoundError(f'Could not find directory {path}')
    return sorted(os.listdir(path))


def makedirs(path):
    """Creates directory `path` and its missing parents."""
    with _tf_errors(_path(path)):
        os.makedirs(_path(path), exist_ok=True)


def mkdir(path):
    """Creates directory `path` (its parent must exist)."""
    with _tf_errors(_path(path)):
        os.mkdir(_path(path))


def remove(path):
    """Deletes the file `path`."""
    with _tf_errors(_path(path)):
        os.remove(_path(path))


def rename(src, dst, overwrite=False):
    """Renames `src` to `dst`; AlreadyExistsError if `dst` exists and not `overwrite`."""
    src, dst = _path(src), _path(dst)
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(f'{dst}; File exists')
    with _tf_errors(src):
        os.replace(src, dst)


def copy(src, dst, overwrite=False):
    """Copies file `src` to `dst`; AlreadyExistsError if `dst` exists and not `overwrite`."""
    src, dst = _path(src), _path(dst)
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(f'{dst}; File exists')
    with _tf_errors(src):
        shutil.copyfile(src, dst)


def rmtree(path):
    """Deletes directory `path` and everything under it."""
    with _tf_errors(_path(path)):
        shutil.rmtree(_path(path))


def stat(path):
    """FileStatistics(length, mtime_nsec, is_directory) of `path`."""
    with _tf_errors(_path(path)):
        info = os.stat(_path(path))
    return FileStatistics(info.st_size, info.st_mtime_ns, os.path.isdir(_path(path)))


def walk(top, topdown=True, onerror=None):
    """(directory, subdirectories, files) for each directory under `top`, as os.walk."""
    for dirpath, dirnames, filenames in os.walk(_path(top), topdown=topdown, onerror=onerror):
        dirnames.sort()
        yield dirpath, dirnames, sorted(filenames)


def join(path, *paths):
    """The paths joined with the separator of the file system."""
    return os.path.join(_path(path), *[_path(p) for p in paths])
