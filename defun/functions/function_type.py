"""FunctionType: a ConcreteFunction's parameters and output as TF 2.21 shows them.

It is an `inspect.Signature` whose annotations are trace types (TensorSpec, VariableSpec, or a
TypeText such as `Literal[3]` or `List[...]`), so `str()` gives TF's one-line form
`(x: TensorSpec(shape=(), dtype=tf.float32, name=None)) -> TensorSpec(...)`. As TF does, a `*args`
parameter shows as one positional-only parameter per value (`args_0`, ...), making every
positional parameter positional-only, and `**kwargs` as one keyword-only parameter per key.
`pretty_lines` is the verbose form (Input Parameters / Output Type / Captures).
"""
import inspect

from defun.core import nest
from defun.core.composite import is_composite, spec_of
from defun.core.shapes import TensorSpec
from defun.functions.trace_types import TypeText

__all__ = ['FunctionType', 'Parameter', 'function_type', 'output_type', 'from_placeholders']

_P = inspect.Parameter


class Parameter(inspect.Parameter):
    """One parameter with its trace type (`type_constraint`)."""
    __slots__ = ()

    @property
    def type_constraint(self):
        return self.annotation

    @property
    def optional(self):
        return self.default is not _P.empty

    def __repr__(self):
        return (f'Parameter(name={self.name}, kind={self.kind.name}, optional={self.optional}, '
                f'type_constraint={self.type_constraint!r})')


class FunctionType(inspect.Signature):
    """The parameters (with their trace types) and the output type of a traced function."""
    __slots__ = ()
    _parameter_cls = Parameter

    @property
    def output(self):
        return self.return_annotation

    def pretty_lines(self, captures):
        """TF's verbose form; `captures` are the (outer tensor, placeholder) pairs fed on each
        call, listed by the outer tensor's id as TF lists them."""
        lines = ['Input Parameters:']
        lines += [f'  {p.name} ({p.kind.name}): {p.type_constraint!r}'
                  for p in self.parameters.values()]
        lines += ['Output Type:', f'  {self.output!r}', 'Captures:']
        lines += [f'  {id(outer)}: {TensorSpec(outer.shape, outer.dtype)!r}'
                  for outer in captures] or ['  None']
        return lines


def _shown(structure):
    """A structure of trace types as one type: containers become TF's List/Tuple/Dict/Name."""
    if isinstance(structure, dict):
        items = ', '.join(f'[{k!r}, {_shown(v)!r}]' for k, v in structure.items())
        return TypeText(f'Dict[{items}]')
    if isinstance(structure, tuple) and hasattr(structure, '_fields'):
        items = ', '.join(f'[{f!r}, {_shown(v)!r}]' for f, v in zip(structure._fields, structure))
        return TypeText(f'{type(structure).__name__}[{items}]')
    if isinstance(structure, (list, tuple)):
        head = 'List' if isinstance(structure, list) else 'Tuple'
        return TypeText(f'{head}[{", ".join(repr(_shown(v)) for v in structure)}]')
    return structure


def output_type(outputs):
    """The type of a traced function's structured outputs (tensors, None, nested)."""
    leaves = [TypeText('Literal[None]') if t is None else spec_of(t) if is_composite(t) else
              TensorSpec(t.shape, t.dtype) for t in nest.flatten(outputs)]
    return _shown(nest.pack_sequence_as(outputs, leaves))


def function_type(signature, key, values, outputs):
    """The FunctionType of a trace: `signature` is the Python function's (or None), `key` the
    trace key, `values` the arguments it was traced with, `outputs` its structured outputs."""
    kinds = {p.name: p.kind for p in signature.parameters.values()} if signature else {}
    var_positional = _P.VAR_POSITIONAL in kinds.values()
    params = []
    for name, types in zip(key.names, key.trace_types(values)):
        kind = kinds.get(name, _P.POSITIONAL_OR_KEYWORD)
        if kind is _P.VAR_POSITIONAL:
            params += [Parameter(f'{name}_{i}', _P.POSITIONAL_ONLY, annotation=_shown(t))
                       for i, t in enumerate(types)]
        elif kind is _P.VAR_KEYWORD:
            params += [Parameter(k, _P.KEYWORD_ONLY, annotation=_shown(t))
                       for k, t in types.items()]
        else:
            if var_positional and kind is _P.POSITIONAL_OR_KEYWORD:
                kind = _P.POSITIONAL_ONLY
            params.append(Parameter(name, kind, annotation=_shown(types)))
    return FunctionType(params, return_annotation=output_type(outputs))


def from_placeholders(placeholders, outputs):
    """The FunctionType of a graph called with flat tensors (a backward function)."""
    params = [Parameter(ph.op.name, _P.POSITIONAL_OR_KEYWORD,
                        annotation=TensorSpec(ph.shape, ph.dtype)) for ph in placeholders]
    return FunctionType(params, return_annotation=output_type(outputs))
