"""A call checked against a function's `input_signature`: each argument must fit its (possibly
nested) TensorSpec, as TF's binding does, or TF's TypeError names the argument, the spec and what
was passed; the trace key is then the signature's own."""
from defun.core import nest
from defun.core.composite import CompositeTensor, is_type_spec, spec_of
from defun.core.shapes import TensorSpec
from defun.core.tensor import Tensor, convert_to_tensor
from defun.functions.trace_key import TraceKey

__all__ = ['signature_key', 'beyond_signature']


def beyond_signature(fn_name, parameters, names, values, count):
    """The names and values the input_signature's `count` specs cover. As in TF, parameters
    after those are fixed to their defaults (a default is a literal of the signature): passing
    another value is TF's TypeError, and so is a parameter without a default."""
    for name, value in zip(names[count:], values[count:]):
        param = parameters.get(name)
        if param is None or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            if value in ((), {}):
                continue
            raise TypeError(f'{fn_name}() takes {count} arguments under its input_signature, '
                            f'got {len(values)}')
        if param.default is param.empty:
            raise TypeError(f'input_signature missing type constraint for {name}')
        if not _same_literal(value, param.default):
            raise TypeError(f'Binding inputs to tf.function failed due to `Can not cast '
                            f'{value!r} to Literal[{param.default!r}]`.')
    return names[:count], values[:count]


def _same_literal(value, default):
    if value is default:
        return True
    if type(value) is not type(default) or isinstance(value, (Tensor, CompositeTensor)):
        return False
    try:
        return bool(value == default)
    except Exception:   # a value without a truth value of its comparison: not the literal
        return False


def signature_key(fn_name, signature, names, values, specs=False):
    """Checks the call against `signature`; returns the signature's key and the tensors to feed
    (None for TensorSpecs given to get_concrete_function when `specs`)."""
    if len(values) != len(signature):
        raise TypeError(f'{fn_name}() takes {len(signature)} arguments under its '
                        f'input_signature, got {len(values)}')
    leaves = []
    for name, value, spec in zip(names, values, signature):
        _fit(fn_name, name, value, spec, specs, leaves)
    return TraceKey.build(names, signature)[0], leaves


def _fit(fn_name, name, value, spec, specs, leaves):
    """Checks one argument against its spec, appending its tensors in key order."""
    try:
        parts = nest.flatten_up_to_with_paths(spec, value)
    except nest.StructureMismatch as exc:
        raise TypeError(f'{fn_name}: argument `{_path_name(name, exc.path)}` does not have the '
                        f'structure of its input_signature {exc.shallow!r}: got '
                        f'{exc.deep!r}') from None
    for path, leaf_spec, leaf in parts:
        if is_type_spec(leaf_spec):
            leaves.extend(_fit_composite(fn_name, _path_name(name, path), leaf, leaf_spec, specs))
        else:
            leaves.append(_fit_leaf(fn_name, _path_name(name, path), leaf, leaf_spec, specs))


def _path_name(name, path):
    return name + ''.join(f'[{k!r}]' for k in path)


def _fit_leaf(fn_name, name, value, spec, specs):
    if not isinstance(spec, TensorSpec):
        raise TypeError(f'{fn_name}: argument `{name}` does not have the structure of its '
                        f'input_signature {spec!r}: got {value!r}')
    if specs and isinstance(value, TensorSpec):
        ok, tensor = spec.is_compatible_with(value), None
    else:
        tensor = _convert_for_spec(value, spec, name, fn_name)
        ok = spec.is_compatible_with(tensor)
    if not ok:
        raise TypeError(
            f'{fn_name}: argument `{name}` does not fit its input_signature: expected '
            f'{spec}, got {_describe(value)}. Binding inputs to tf.function failed.')
    return tensor


def _fit_composite(fn_name, name, value, spec, specs):
    """The component tensors of a composite argument fitting its TypeSpec (None for each when a
    spec is given for it to get_concrete_function)."""
    given = value if specs and is_type_spec(value) else \
        spec_of(value) if isinstance(value, CompositeTensor) else None
    if given is None or not spec.is_compatible_with(given):
        raise TypeError(
            f'{fn_name}: argument `{name}` does not fit its input_signature: expected '
            f'{spec}, got {_describe(value)}. Binding inputs to tf.function failed.')
    if is_type_spec(value):
        return [None] * len(nest.flatten(spec, expand_composites=True))
    return nest.flatten(value, expand_composites=True)


def _convert_for_spec(value, spec, name, fn_name):
    if isinstance(value, Tensor):
        return value
    try:
        return convert_to_tensor(value, dtype=spec.dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f'{fn_name}: argument `{name}` cannot be converted to {spec}: {exc}') \
            from None


def _describe(value):
    if isinstance(value, (Tensor, TensorSpec)):
        return str(TensorSpec(value.shape, value.dtype))
    return repr(value)
