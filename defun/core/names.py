"""TensorFlow's rules for the names of ops, name scopes and variables, in one place.

An op name starts with a letter, digit or '.', and continues with those, '_', '-', '/', '\\' or
'>' (ASCII only); a scope nested in another scope may also start with '_', '-', '/' or '\\'. A
name that breaks the rule raises ValueError while a graph is built, as in TF (eager execution
ignores op names, and so does TF).
"""
import re

__all__ = ['check_op_name', 'check_scope_name']

_OP_NAME = re.compile(r'^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$')
_SCOPE_NAME = re.compile(r'^[A-Za-z0-9_.\\/>-]*$')


def check_op_name(name):
    """Returns `name` if it is a valid op name, else raises TF's ValueError (TypeError for a name
    that is not a string, which TF's pattern match cannot read)."""
    if not isinstance(name, (str, bytes)):
        raise TypeError(f"expected string or bytes-like object, got '{type(name).__name__}' for "
                        f"the name {name!r}")
    if isinstance(name, bytes) or not _OP_NAME.match(name):
        raise ValueError(f'`{name}` is not a valid node name. Accepted names conform to Regex '
                         f'/{_OP_NAME.pattern}/')
    return name


def check_scope_name(name, nested):
    """Returns `name` if it is a valid name for a scope (nested in another scope or not)."""
    if nested:
        if not _SCOPE_NAME.match(name):
            raise ValueError(f"'{name}' is not a valid scope name. A scope name has to match the "
                             f'following pattern: {_SCOPE_NAME.pattern}')
    elif not _OP_NAME.match(name):
        raise ValueError(f"'{name}' is not a valid root scope name. A root scope name has to "
                         f'match the following pattern: {_OP_NAME.pattern}')
    return name
