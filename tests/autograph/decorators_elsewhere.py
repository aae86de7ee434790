"""Decorators defined in a module of their own (globals unlike the decorated functions')."""
import functools

SCALE = 10.0


def scale(x):
    return x * SCALE


def passthrough(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


def scaled(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return scale(fn(x))
    return wrapper
