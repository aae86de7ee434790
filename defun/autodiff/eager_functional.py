"""The functional gradient forms of early TF eager (`tf.contrib.eager`), built on GradientTape."""
import functools
import inspect

from defun.autodiff.tape import GradientTape
from defun.core.tensor import convert_to_tensor

__all__ = ['gradients_function', 'value_and_gradients_function', 'implicit_gradients',
           'implicit_value_and_gradients']


def _checked_value(value):
    if value is None:
        raise ValueError('Cannot differentiate a function that returns None; did you forget to '
                         'return a value from f?')
    return value


def value_and_gradients_function(f, params=None):
    """Returns g(*args, dy=None) -> (f(*args), [d f / d args[i] for i in params (default: all)])."""
    @functools.wraps(f)
    def decorated(*args, dy=None, **kwargs):
        tensors = [convert_to_tensor(a) for a in args]
        indices = range(len(tensors)) if params is None else _param_indices(f, params)
        sources = [tensors[i] for i in indices]
        with GradientTape() as tape:
            for s in sources:
                tape.watch(s)
            value = _checked_value(f(*tensors, **kwargs))
        return value, tape.gradient(value, sources, output_gradients=dy)
    return decorated


def _param_indices(f, params):
    # As in TF, params may name f's parameters as well as index them.
    names = None
    indices = []
    for p in params:
        if isinstance(p, str):
            if names is None:
                names = list(inspect.signature(f).parameters)
            if p not in names:
                raise ValueError(f'{p!r} is not a parameter of {getattr(f, "__name__", f)} '
                                 f'(parameters: {names})')
            p = names.index(p)
        indices.append(p)
    return indices


def gradients_function(f, params=None):
    """Returns g(*args, dy=None) -> the gradients of f w.r.t. its arguments (or `params`)."""
    value_and_grads = value_and_gradients_function(f, params)

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return value_and_grads(*args, **kwargs)[1]
    return decorated


def implicit_value_and_gradients(f):
    """Returns g(*args) -> (f(*args), [(gradient, variable)]) for the trainable variables f reads."""
    @functools.wraps(f)
    def decorated(*args, **kwargs):
        with GradientTape() as tape:
            value = _checked_value(f(*args, **kwargs))
        variables = tape.watched_variables()
        if not variables:
            raise ValueError('No trainable variables were accessed while the function was being '
                             'computed.')
        grads = tape.gradient(value, list(variables))
        return value, list(zip(grads, variables))
    return decorated


def implicit_gradients(f):
    """Returns g(*args) -> [(gradient, variable)] for the trainable variables f reads."""
    value_and_grads = implicit_value_and_gradients(f)

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return value_and_grads(*args, **kwargs)[1]
    return decorated
