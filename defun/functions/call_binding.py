"""How a Function sees its Python function: Binder binds a call's arguments to the parameters
(defaults applied, the same way for every call), and WeakMethod is a method bound to an instance
held weakly, so a per-instance Function never keeps its instance alive.
"""
import inspect
import weakref

__all__ = ['Binder', 'WeakMethod', 'weak_refs']


class Binder:
    """Binds call arguments to the function's parameters, the same way for every call."""

    def __init__(self, fn):
        try:
            self.signature = inspect.signature(fn)
        except (TypeError, ValueError):
            self.signature = None
        params = list(self.signature.parameters.values()) if self.signature else []
        # Fast path: only plain positional parameters without defaults, called positionally.
        self.simple = bool(self.signature) and all(
            p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)
        self.names = tuple(p.name for p in params)

    def bind(self, args, kwargs):
        if self.signature is None:
            return tuple(f'arg{i}' for i in range(len(args))), list(args), None
        if self.simple and not kwargs and len(args) == len(self.names):
            return self.names, list(args), None
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f'{exc}') from None
        bound.apply_defaults()
        return tuple(bound.arguments), list(bound.arguments.values()), bound

    def call_arguments(self, values, bound=None):
        if self.signature is None:
            return list(values), {}
        new = inspect.BoundArguments(self.signature, dict(zip(
            self.signature.parameters, values)))
        return new.args, new.kwargs


class WeakMethod:
    """A method bound to an instance held weakly (so a per-instance Function never keeps it alive)."""

    def __init__(self, func, instance):
        self._func = func
        self._ref = weakref.ref(instance)
        self.__name__ = getattr(func, '__name__', 'method')
        self.__wrapped__ = func
        try:
            self.__signature__ = _drop_first(inspect.signature(func))
        except (TypeError, ValueError):
            pass

    @property
    def function(self):
        return self._func

    def rebound(self, func):
        """The same weak binding, calling `func` (e.g. the AutoGraph-converted function)."""
        new = WeakMethod.__new__(WeakMethod)
        new.__dict__.update(self.__dict__)
        new._func = func
        return new

    def __call__(self, *args, **kwargs):
        # An instance already gone (`Model().f(x)` drops the temporary before the call) is
        # passed as None, as TF's weakly bound methods do.
        instance = self._ref()
        return self._func(instance, *args, **kwargs)


def _drop_first(signature):
    params = list(signature.parameters.values())[1:]
    return signature.replace(parameters=params)


def weak_refs(holders, on_death):
    refs = []
    for v in holders:
        try:
            refs.append(weakref.ref(v, on_death))
        except TypeError:
            pass  # not weakly referable: keyed by identity only
    return refs or None
