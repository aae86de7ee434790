"""A call checked against a function's `input_signature`: each argument must fit its (possibly
nested) TensorSpec, as TF's binding does, or TF's TypeError names the argument, the spec and what
was passed; the trace key is then the signature's own."""
from defun.shapes import TensorSpec
from defun.tensor import Tensor, convert_to_tensor
from defun.trace_key import TraceKey

__all__ = ['signature_key']


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
    if isinstance(spec, TensorSpec):
        if specs and isinstance(value, TensorSpec):
            ok, tensor = spec.is_compatible_with(value), None
        else:
            tensor = _convert_for_spec(value, spec, name, fn_name)
            ok = spec.is_compatible_with(tensor)
        if not ok:
            raise TypeError(
                f'{fn_name}: argument `{name}` does not fit its input_signature: expected '
                f'{spec}, got {_describe(value)}. Binding inputs to tf.function failed.')
        leaves.append(tensor)
        return
    if isinstance(spec, dict):
        if not isinstance(value, dict) or sorted(value) != sorted(spec):
            raise TypeError(f'{fn_name}: argument `{name}` does not have the structure of '
                            f'its input_signature {spec!r}: got {value!r}')
        for k in sorted(spec):
            _fit(fn_name, f'{name}[{k!r}]', value[k], spec[k], specs, leaves)
        return
    if not isinstance(value, (list, tuple)) or len(value) != len(spec):
        raise TypeError(f'{fn_name}: argument `{name}` does not have the structure of its '
                        f'input_signature {spec!r}: got {value!r}')
    for i, (v, s) in enumerate(zip(value, spec)):
        _fit(fn_name, f'{name}[{i}]', v, s, specs, leaves)


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
