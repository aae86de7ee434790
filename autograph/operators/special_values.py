"""Values that stand for "no value yet": `Undefined` and the `ld` read check.

A name the converted code must bind before Python would (so nested block functions can declare it
`nonlocal`) starts as `Undefined(name)`. Reading it where Python would find it unbound raises the
UnboundLocalError Python would; using it in an operation raises it too, rather than a puzzling TypeError.
"""

__all__ = ['Undefined', 'UndefinedReturnValue', 'ld', 'retval']  # the `ag__` names (see __init__.py)


def _unbound(name):
    # TF's wording (its tests match "'x' is used before assignment").
    return UnboundLocalError("local variable '%s' is used before assignment" % name)


class Undefined:
    """The value of a local variable that has not been assigned yet."""

    __slots__ = ('symbol_name',)

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def __repr__(self):
        return 'Undefined(%r)' % self.symbol_name

    def __bool__(self):
        raise _unbound(self.symbol_name)

    def __iter__(self):
        raise _unbound(self.symbol_name)

    def __call__(self, *args, **kwargs):
        raise _unbound(self.symbol_name)


def _raise_unbound(self, *args):
    raise _unbound(self.symbol_name)


for _op in ('add', 'sub', 'mul', 'truediv', 'floordiv', 'mod', 'pow', 'matmul', 'and', 'or',
            'xor', 'lshift', 'rshift'):
    for _form in ('__%s__', '__r%s__', '__i%s__'):
        setattr(Undefined, _form % _op, _raise_unbound)
for _op in ('lt', 'le', 'gt', 'ge', 'neg', 'pos', 'abs', 'invert', 'getitem', 'setitem', 'len',
            'index', 'int', 'float'):
    setattr(Undefined, '__%s__' % _op, _raise_unbound)
del _op, _form


class UndefinedReturnValue(Undefined):
    """The return value of a function that has not returned (yet) on the current path.

    In a tensor `if`, a branch that does not return may leave it undefined: the other branch's
    value is then only used when that branch ran, so a zero of the same type stands in for it.
    """

    def __init__(self, symbol_name='retval_'):
        super().__init__(symbol_name)


def is_undefined(value):
    return isinstance(value, Undefined)


def is_undefined_return(value):
    return isinstance(value, UndefinedReturnValue)


def retval(value):
    """The value a converted function returns: None if it never reached a return statement."""
    return None if isinstance(value, UndefinedReturnValue) else value


def ld(value):
    """Returns `value`, or raises UnboundLocalError if it is Undefined (a read Python would reject)."""
    if isinstance(value, Undefined):
        raise _unbound(value.symbol_name)
    return value
