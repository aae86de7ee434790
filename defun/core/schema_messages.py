"""TensorFlow's errors for an op call its signature refuses (see op_schema), in TF's wording: eagerly
the runtime's (InvalidArgumentError "Value for attr 'T' of bool is not in the list of allowed
values: ...", NotFoundError where no CPU kernel runs the type), while a graph is built
op_def_library's (TypeError "Value passed to parameter 'x' has DataType bool not in list of
allowed values: ...", ValueError for attribute values). Each message also names the public
function called and the input's dtype and shape.
"""
from __future__ import annotations

import sys

from defun.core import errors

__all__ = ['tf_name', 'type_error', 'no_kernel', 'mismatch', 'attr_type_error', 'invalid',
           'caller', 'describe']

# TF's runtime spells these three by their C names in messages.
_KERNEL_SPELLING = {'float32': 'float', 'float64': 'double', 'float16': 'half'}


def tf_name(dtype):
    """A DType, as TF's runtime spells it in messages ('float', 'double', 'string')."""
    return _KERNEL_SPELLING.get(dtype.name, dtype.name)


def type_error(op, bound, name, dtype, tensor, graph):
    """An input whose dtype the op's type attribute `bound` does not take."""
    described = describe(tensor)
    if graph:
        return TypeError(f"Value passed to parameter '{name}' has DataType {dtype.name} not in "
                         f'list of allowed values: {bound.graph_text()} ({caller()}: '
                         f'{op} input {described})')
    return errors.InvalidArgumentError(
        f"Value for attr '{bound.name}' of {tf_name(dtype)} is not in the list of allowed "
        f'values: {bound.eager_text()}\n\t; NodeDef: {{{{node {op}}}}}; input '
        f"'{name}' of {caller()} is {described}, expected a {bound.kinds_text()} tensor "
        f'(tf.cast converts) [Op:{op}]')


def no_kernel(op, bound, dtype, graph):
    """TF's error for a type its signature allows but none of its CPU kernels runs: eagerly
    NotFoundError (no device), from a function InvalidArgumentError (no kernel), raised here
    while the function is traced."""
    node = f'{bound.name}=DT_{tf_name(dtype).upper()}'
    registered = ''.join(f"\n  device='CPU'; {bound.name} in [DT_{n.upper()}]"
                         for n in bound.kernel_names)
    if graph:
        return errors.InvalidArgumentError(
            f"No OpKernel was registered to support Op '{op}' used by {{{{node "
            f"{op}}}}} with these attrs: [{node}]\nRegistered devices: [CPU]\n"
            f'Registered kernels:{registered}')
    return errors.NotFoundError(
        f'Could not find device for node: {{{{node {op}}}}} = {op}[{node}]\n'
        f'All kernels registered for op {op}:{registered}\n [Op:{op}]')


def mismatch(op, pos, name, dtype, first, graph):
    """An input whose dtype is not the fixed one, or not that of the first input of its type
    attribute (`first`: (that input's name or None, the dtype expected))."""
    other, expected = first
    if graph:
        against = (f"type {expected.name} of argument '{other}'" if other is not None
                   else f'expected type of {expected.name}')
        return TypeError(f"Input '{name}' of '{op}' Op has type {dtype.name} that does "
                         f'not match {against}.')
    return errors.InvalidArgumentError(
        f'cannot compute {op} as input #{pos}(zero-based) was expected to be a '
        f'{tf_name(expected)} tensor but is a {tf_name(dtype)} tensor (input '
        f"'{name}' of {caller()}: expected a {tf_name(expected)} tensor) [Op:{op}]")


def attr_type_error(op, bound, dtype, graph):
    """A type passed as an attribute (an output type) that the signature does not take."""
    if graph:
        return TypeError(f"Value for attr '{bound.name}' of {dtype.name} is not in the list "
                         f'of allowed values: {bound.graph_text()}')
    return errors.InvalidArgumentError(
        f"Value for attr '{bound.name}' of {tf_name(dtype)} is not in the list of "
        f'allowed values: {bound.eager_text()}\n\t; NodeDef: {{{{node {op}}}}} '
        f'[Op:{op}]')


def invalid(op, graph_text, eager_text, graph):
    """An attribute value out of its range: TF's ValueError in graphs, else the runtime's."""
    if graph:
        return ValueError(graph_text)
    return errors.InvalidArgumentError(f'{eager_text}\n\t; NodeDef: {{{{node {op}}}}} '
                                       f'[Op:{op}]')


def caller():
    """The public function whose op call failed (the first frame outside defun.core), so that
    the message names what the user called; read only when an error is raised."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get('__name__', '').startswith('defun.core'):
        frame = frame.f_back
    return frame.f_code.co_name if frame is not None else '?'


def describe(t):
    shape = getattr(t, 'shape', None)
    dims = getattr(shape, 'as_tuple', lambda: None)()
    text = '<unknown rank>' if dims is None else ','.join('?' if d is None else str(d) for d in dims)
    return f'{t.dtype.name}[{text}]'
