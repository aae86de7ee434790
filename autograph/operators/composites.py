"""Reading and writing composite names (`x.y`, `x['k']`) as control-flow state.

`ldu(load, name)` reads one for `get_state`: a missing key or attribute is `Undefined(name)`, as a
plain name not yet assigned. `store(obj, key, is_attribute, value)` writes one for `set_state`;
storing `Undefined` removes the key or attribute again, so each traced branch of a tensor `if`
starts from what existed before it.
"""
from autograph.operators import special_values

__all__ = ['ldu', 'store']  # the `ag__` names (see __init__.py)


def ldu(load, name):
    try:
        return load()
    except (KeyError, AttributeError, IndexError, NameError, UnboundLocalError):
        return special_values.Undefined(name)


def store(obj, key, is_attribute, value):
    undefined = special_values.is_undefined(value)
    if is_attribute:
        if not undefined:
            setattr(obj, key, value)
        elif hasattr(obj, key):
            delattr(obj, key)
    elif not undefined:
        obj[key] = value
    elif isinstance(obj, dict):
        obj.pop(key, None)
