"""What `tf.saved_model.load` returns: plain objects holding the saved attributes, functions that
dispatch on the signatures they were saved with, and the `signatures` mapping.

A RestoredFunction binds a call the way the original Python signature did (defaults applied),
then takes the first saved concrete function whose input signature accepts it: each TensorSpec
leaf must meet a tensor (or a value convertible to one) of its dtype and a compatible shape, each
Python value an equal one. Calls that match none raise TF's ValueError listing the options.
"""
import collections.abc
import inspect

from defun.core import nest
from defun.core.composite import is_composite, is_type_spec
from defun.functions.concrete import ConcreteFunction
from defun.core.shapes import TensorSpec
from defun.core.tensor import Tensor, convert_to_tensor
from defun.state.trackable import AutoTrackable
from defun.state.variables import Variable

__all__ = ['UserObject', 'RestoredFunction', 'SignatureFunction', 'SignatureMap',
           'GraphGradient']


class UserObject(AutoTrackable):
    """A revived object: its attributes are the saved children and functions."""

    def __call__(self, *args, **kwargs):
        # Python finds __call__ on the type, so a saved `__call__` function is reached from here.
        fn = self.__dict__.get('__call__')
        if fn is None:
            raise TypeError(f"'{type(self).__name__}' object is not callable")
        return fn(*args, **kwargs)

    # As TF's revived _UserObject, it has no `variables` / `trainable_variables` of its own
    # (a Module is not revived as a Module): only the attributes that were saved.


def _signature(params):
    return inspect.Signature([
        inspect.Parameter(p['name'], getattr(inspect.Parameter, p['kind']),
                          default=p['default'] if p['has_default'] else inspect.Parameter.empty)
        for p in params])


def _canonical(signature, args, kwargs):
    """(positional values, keyword-only values), as the structured_input_signature is laid out."""
    if signature is None:
        return tuple(args), dict(kwargs)
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    positional, keywords = [], {}
    for name, value in bound.arguments.items():
        kind = signature.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            positional.extend(value)
        elif kind is inspect.Parameter.VAR_KEYWORD:
            keywords.update(value)
        elif kind is inspect.Parameter.KEYWORD_ONLY:
            keywords[name] = value
        else:
            positional.append(value)
    return tuple(positional), keywords


def _accepts(spec, value, flat):
    """Appends the tensors of `value` to `flat` if it fits `spec`; False when it does not."""
    try:
        parts = nest.flatten_up_to(spec, value)
    except nest.StructureMismatch:
        return False
    return all(_accepts_leaf(s, v, flat) for s, v in zip(nest.flatten(spec), parts))


def _accepts_leaf(spec, value, flat):
    if is_type_spec(spec):
        if not is_composite(value) or not spec.is_compatible_with(value._type_spec):
            return False
        flat.extend(nest.flatten(value, expand_composites=True))
        return True
    if isinstance(spec, TensorSpec):
        if isinstance(value, Variable):
            value = value.value()
        if not isinstance(value, Tensor):
            try:
                value = convert_to_tensor(value, dtype=spec.dtype)
            except (TypeError, ValueError):
                return False
        if value.dtype != spec.dtype or not spec.shape.is_compatible_with(value.shape):
            return False
        flat.append(value)
        return True
    if isinstance(value, Tensor):
        return False
    return type(value) is type(spec) and value == spec


def _describe_call(args, kwargs):
    lines = [f'  Positional arguments ({len(args)} total):']
    lines += [f'    * {a!r}' for a in args]
    lines.append(f'  Keyword arguments: {kwargs!r}')
    return '\n'.join(lines)


def _binding_error(concrete, args, kwargs):
    """TF's TypeError for a call that does not fit a saved input_signature, naming the first
    argument that does not fit."""
    specs = nest.flatten(concrete.structured_input_signature[0])
    values = list(args)
    got, expected = None, None
    for spec, value in zip(specs, values):
        if not _accepts(spec, value, []):
            got = TensorSpec.from_tensor(value) if isinstance(value, Tensor) else repr(value)
            expected = spec
            break
    reason = (f'Can not cast {got!r} to {expected!r}' if expected is not None
              else f'expected {len(specs)} positional arguments, got {len(values)}')
    return TypeError(f'Binding inputs to tf.function failed due to `{reason}`. Received args: '
                     f'{tuple(args)!r} and kwargs: {kwargs!r} for signature: '
                     f'{tuple(specs)!r}.')


class RestoredFunction:
    """A loaded tf.function: callable on the signatures it was saved with."""

    def __init__(self, name, params, concrete_functions, has_input_signature=False):
        self.__name__ = name
        self._params = params
        self._signature = _signature(params) if params is not None else None
        self._concrete = list(concrete_functions)
        self._has_input_signature = has_input_signature and len(self._concrete) == 1

    @property
    def input_signature(self):
        """The saved function's input_signature (its one concrete function's), or None."""
        if not self._has_input_signature:
            return None
        return tuple(self._concrete[0].structured_input_signature[0])

    @property
    def concrete_functions(self):
        return list(self._concrete)

    def saved_entries(self):
        """(parameters, concrete functions), for saving this function again."""
        return self._params, list(self._concrete)

    def __call__(self, *args, **kwargs):
        try:
            positional, keywords = _canonical(self._signature, args, kwargs)
        except TypeError as exc:
            raise TypeError(f'{self.__name__}: {exc}') from None
        for concrete in self._concrete:
            if concrete.structured_input_signature is None:
                continue
            flat = []
            spec_args, spec_kwargs = concrete.structured_input_signature
            if _accepts(spec_args, positional, flat) and _accepts(spec_kwargs, keywords, flat):
                return concrete.call_flat(flat)
        if self._has_input_signature:
            raise _binding_error(self._concrete[0], positional, keywords)
        options = '\n\n'.join(f'Option {i}:\n' + _describe_call(*c.structured_input_signature)
                              for i, c in enumerate(self._concrete, 1))
        raise ValueError(
            'Could not find matching concrete function to call loaded from the SavedModel. Got:\n'
            f'{_describe_call(positional, keywords)}\n\n Expected these arguments to match one of '
            f'the following {len(self._concrete)} option(s):\n\n{options}')

    def __repr__(self):
        return f'<RestoredFunction {self.__name__} with {len(self._concrete)} concrete functions>'


def _signature_inputs(concrete):
    """(names, TensorSpecs) of a signature's keyword arguments: a tensor argument's spec name (or
    arg_i); a composite argument's components by the placeholder names its trace gave them (the
    argument's name, then name_1, name_2, ... as TF's)."""
    args, kwargs = concrete.structured_input_signature
    names, specs, position, count = [], [], 0, 0
    for leaf in nest.flatten((args, kwargs)):
        if is_type_spec(leaf):
            for component in nest.flatten(leaf, expand_composites=True):
                names.append(concrete.inputs[position].op.name)
                specs.append(component)
                position += 1
        elif isinstance(leaf, TensorSpec):
            names.append(leaf.name or f'arg_{count}')
            specs.append(leaf)
            position += 1
            count += 1
    return names, specs


class SignatureFunction:
    """A serving signature: called with keyword tensors only, returns a dict of named tensors."""

    def __init__(self, concrete):
        self._concrete = concrete
        self._names, specs = _signature_inputs(concrete)
        self.structured_input_signature = ((), {n: TensorSpec(s.shape, s.dtype, n)
                                                for n, s in zip(self._names, specs)})
        outputs = concrete.structured_outputs
        if isinstance(outputs, dict):
            self._output_names = list(outputs)
            flat = [outputs[k] for k in self._output_names]
        else:
            flat = nest.flatten(outputs)
            self._output_names = [f'output_{i}' for i in range(len(flat))]
        self.structured_outputs = {n: t._type_spec if is_composite(t) else
                                   TensorSpec(t.shape, t.dtype, n)
                                   for n, t in zip(self._output_names, flat)}

    @property
    def concrete_function(self):
        return self._concrete

    def __call__(self, *args, **kwargs):
        if args:
            raise TypeError(f'Binding inputs to tf.function failed due to `too many positional '
                            f'arguments`. Received args: {args!r} and kwargs: {kwargs!r}; a '
                            f'signature takes keyword arguments only: {", ".join(self._names)}.')
        missing = [n for n in self._names if n not in kwargs]
        extra = [n for n in kwargs if n not in self._names]
        if missing or extra:
            raise TypeError(f'Binding inputs to tf.function failed: expected the keyword '
                            f'arguments {self._names}, got {sorted(kwargs)}.')
        flat = [convert_to_tensor(kwargs[n]) for n in self._names]
        result = self._concrete.call_flat(flat)
        values = [result[k] for k in self._output_names] if isinstance(result, dict) \
            else nest.flatten(result)
        return dict(zip(self._output_names, values))

    def __repr__(self):
        return f'<SignatureFunction ({", ".join(self._names)}) -> {self._output_names}>'


class SignatureMap(collections.abc.Mapping):
    """`loaded.signatures`: signature name -> SignatureFunction."""

    def __init__(self, concretes):
        self._signatures = {k: SignatureFunction(c) for k, c in concretes.items()}

    def __getitem__(self, key):
        return self._signatures[key]

    def __iter__(self):
        return iter(self._signatures)

    def __len__(self):
        return len(self._signatures)

    def __repr__(self):
        return f'_SignatureMap({self._signatures!r})'


class GraphGradient:
    """A loaded custom gradient: the saved gradient graph called with the output gradients (and
    the forward tensors it captured); returns (argument gradients, variable gradients) with None
    where the user's function gave None."""

    def __init__(self, graph, mask, n_args):
        n_seeds = len(graph.inputs) - len(graph.captures)
        self._concrete = ConcreteFunction(graph, graph.inputs[:n_seeds], list(graph.outputs),
                                          name=graph.name)
        self._mask, self._n_args = mask, n_args

    def __call__(self, *output_grads):
        flat = iter(self._concrete.call_flat(list(output_grads)))
        grads = [next(flat) if present else None for present in self._mask]
        return grads[:self._n_args], grads[self._n_args:]
