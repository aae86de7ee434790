"""How a Function sees its Python function: Binder binds a call's arguments to the parameters
(defaults applied, the same way for every call), and WeakMethod is a method bound to an instance
held weakly, so a per-instance Function never keeps its instance alive.
"""
import inspect
import weakref

__all__ = ['Binder', 'WeakMethod', 'weak_refs']


class Binder:
    """Binds call arguments to the function's parameters, the same way for every call."""

    def __init__(self, fn, input_signature=None):
        try:
            self.signature = inspect.signature(fn)
        except (TypeError, ValueError):
            self.signature = None
        if self.signature is not None and input_signature is not None:
            self.signature = _spread_var_positional(self.signature, len(input_signature))
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


def _spread_var_positional(signature, count):
    """TF's view of `f(a, *args)` under an input_signature of `count` specs: the specs beyond
    the named parameters bind to parameters `args_0`, `args_1`, ... (passed on as `*args`)."""
    params = list(signature.parameters.values())
    where = next((i for i, p in enumerate(params) if p.kind == p.VAR_POSITIONAL), None)
    if where is None:
        return signature
    # Positional-only, as TF shows them, unless a named parameter before may be passed by name.
    kind = inspect.Parameter.POSITIONAL_ONLY if all(
        p.kind == p.POSITIONAL_ONLY for p in params[:where]) else inspect.Parameter.POSITIONAL_OR_KEYWORD
    spread = [inspect.Parameter(f'{params[where].name}_{k}', kind)
              for k in range(max(0, count - where))]
    return signature.replace(parameters=params[:where] + spread + params[where + 1:])


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
