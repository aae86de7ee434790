"""Where user code is: the innermost stack frame outside defun and autograph, recorded for every op
a graph gets so that errors can name the user's file, line and source."""
import sys

__all__ = ['user_origin']

_INTERNAL_CODE = {}  # code object -> whether it belongs to defun/autograph (cached: hot path)


def _is_internal(code, frame):
    internal = _INTERNAL_CODE.get(code)
    if internal is None:
        name = frame.f_globals.get('__name__', '')
        internal = (name == 'defun' or name.startswith(('defun.', 'autograph', 'contextlib'))
                    or code.co_filename.startswith('<defun'))
        if len(_INTERNAL_CODE) > 4096:
            _INTERNAL_CODE.clear()  # code objects come and go (generated, converted): stay bounded
        _INTERNAL_CODE[code] = internal
    return internal


def user_origin():
    """(filename, lineno, function) of the innermost frame outside defun and autograph: where the
    user's code created the op, for error messages."""
    frame = sys._getframe(1)
    cache = _INTERNAL_CODE
    while frame is not None:
        code = frame.f_code
        internal = cache.get(code)
        if internal is None:
            internal = _is_internal(code, frame)
        if not internal:
            return code.co_filename, frame.f_lineno, code.co_name
        frame = frame.f_back
    return None
