"""Errors raised in converted code, re-raised pointing at the user's code.

Converted code is compiled with the user's file name and line numbers, so its frames already show
user lines. When an exception leaves a converted function, `rewrite` adds the innermost user
location (file, line, function and source line) to the message, and drops from the traceback the
frames of AutoGraph's runtime and of `defun`'s internals that sit between user frames. The
exception keeps its type and attributes; it is rewritten once, where it was first seen.
"""
import os
import types

_AUTOGRAPH_DIR = os.path.dirname(os.path.abspath(__file__))
_PACKAGE_DIRS = (_AUTOGRAPH_DIR + os.sep,
                 os.path.join(os.path.dirname(_AUTOGRAPH_DIR), 'defun') + os.sep)
MARKER = 'autograph_user_frame'


class AutoGraphWarning(UserWarning):
    """Something about a function will not behave as AutoGraph users usually expect."""


class UserFrames:
    """Which code objects are converted code, and the user function each one belongs to."""

    def __init__(self):
        self.owner = {}

    def register(self, codes, function_name):
        for code in codes:
            self.owner[code] = function_name

    def is_converted(self, code):
        return code in self.owner


def _internal(frame_code):
    filename = os.path.abspath(frame_code.co_filename)
    return filename.startswith(_PACKAGE_DIRS)


def _entries(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def _user_location(exc, user_frames):
    """(filename, lineno, function name) of the innermost converted frame, or None."""
    found = None
    for tb in _entries(exc.__traceback__):
        code = tb.tb_frame.f_code
        if user_frames.is_converted(code):
            found = (code.co_filename, tb.tb_lineno, user_frames.owner[code])
    return found


def _filtered_traceback(tb):
    entries = list(_entries(tb))
    last_user = max((i for i, e in enumerate(entries) if not _internal(e.tb_frame.f_code)), default=-1)
    kept = [e for i, e in enumerate(entries) if i > last_user or not _internal(e.tb_frame.f_code)]
    rebuilt = None
    for entry in reversed(kept):
        rebuilt = types.TracebackType(rebuilt, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return rebuilt


def rewrite(exc, user_frames, source_line):
    """Adds the user location to `exc` (once) and trims its traceback; returns `exc`."""
    if getattr(exc, MARKER, None) is not None:
        return exc
    location = _user_location(exc, user_frames)
    if location is None:
        return exc
    filename, lineno, function_name = location
    note = 'in user code:\n  File "%s", line %d, in %s\n    %s' % (
        filename, lineno, function_name, source_line(filename, lineno))
    try:
        setattr(exc, MARKER, location)
    except AttributeError:
        return exc
    plain_message = (type(exc).__str__ is BaseException.__str__ and len(exc.args) == 1
                     and isinstance(exc.args[0], str))
    if plain_message:
        exc.args = ('%s\n\n%s' % (exc.args[0], note),)
    else:
        exc.add_note(note)
    exc.__traceback__ = _filtered_traceback(exc.__traceback__)
    return exc
