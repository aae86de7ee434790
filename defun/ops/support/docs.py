"""The Args/Returns text each family of op wrappers shares (element-wise, comparison, reduction,
segment, activation, assertion, stateless random...), and `documented`, the decorator that gives a
wrapper its docstring: its own one-line summary followed by its family's text.
"""

__all__ = ['FAMILIES', 'documented']

_NAME = '  name: A name for the operation (optional).\n'

FAMILIES = {
    'unary': 'Args:\n  x: A `Tensor`.\n' + _NAME +
             '\nReturns:\n  A `Tensor` with the shape and dtype of `x`.',
    'complex_part': 'Args:\n  input: A `Tensor` (complex or real).\n' + _NAME +
                    '\nReturns:\n  A real `Tensor` with the shape of `input`.',
    'binary': 'Args:\n  x: A `Tensor`.\n  y: A `Tensor` of the same dtype as `x`; the two shapes '
              'broadcast.\n' + _NAME + '\nReturns:\n  A `Tensor` of the broadcast shape, dtype of `x`.'
              '\n\nRaises:\n  InvalidArgumentError: if the shapes do not broadcast.',
    'compare': 'Args:\n  x: A `Tensor`.\n  y: A `Tensor` of the same dtype as `x`; the two shapes '
               'broadcast.\n' + _NAME + '\nReturns:\n  A `bool` `Tensor` of the broadcast shape.'
               '\n\nRaises:\n  InvalidArgumentError: if the shapes do not broadcast.',
    'logical': 'Args:\n  x: A `bool` `Tensor`.\n  y: A `bool` `Tensor` (binary forms); the shapes '
               'broadcast.\n' + _NAME + '\nReturns:\n  A `bool` `Tensor`.',
    'classify': 'Args:\n  x: A floating-point `Tensor`.\n' + _NAME +
                '\nReturns:\n  A `bool` `Tensor` with the shape of `x`.',
    'reduce': 'Args:\n  input_tensor: The `Tensor` to reduce.\n  axis: The dimensions to reduce '
              '(an int, a list, or None for all).\n  keepdims: If true, keep reduced dimensions '
              'with length 1.\n' + _NAME + '\nReturns:\n  The reduced `Tensor`.'
              '\n\nRaises:\n  InvalidArgumentError: if an axis is out of range.',
    'segment': 'Args:\n  data: A `Tensor`.\n  segment_ids: A sorted 1-D int `Tensor` of the length of '
               "`data`'s first dimension.\n" + _NAME + '\nReturns:\n  A `Tensor` with one row per '
               'segment (`segment_ids[-1] + 1` rows).',
    'unsorted_segment': 'Args:\n  data: A `Tensor`.\n  segment_ids: An int `Tensor` whose shape is a '
                        "prefix of `data`'s; negative ids are dropped.\n  num_segments: The number "
                        'of output rows.\n' + _NAME + '\nReturns:\n  A `Tensor` of shape '
                        "`[num_segments] + data.shape[segment_ids.ndim:]`.",
    'activation': 'Args:\n  features: A floating-point `Tensor`.\n' + _NAME +
                  '\nReturns:\n  A `Tensor` with the shape and dtype of `features`.',
    'softmax': 'Args:\n  logits: A non-empty floating-point `Tensor`.\n  axis: The dimension '
               'normalised over (default -1, the last).\n' + _NAME +
               '\nReturns:\n  A `Tensor` with the shape and dtype of `logits`.',
    'assert1': 'Args:\n  x: A numeric `Tensor`.\n  message: A string prefixed to the error message.\n'
               '  summarize: How many entries of the tensors to print.\n' + _NAME +
               '\nReturns:\n  None eagerly; in a graph, the assertion op (run automatically).'
               '\n\nRaises:\n  InvalidArgumentError: if the condition is false.',
    'assert2': 'Args:\n  x: A numeric `Tensor`.\n  y: A numeric `Tensor` of the same dtype; the shapes '
               'broadcast.\n  message: A string prefixed to the error message.\n  summarize: How many '
               'entries of the tensors to print.\n' + _NAME + '\nReturns:\n  None eagerly; in a graph, '
               'the assertion op (run automatically).\n\nRaises:\n  InvalidArgumentError: if the '
               'condition is false anywhere.',
    'pool': 'Args:\n  input: A `Tensor` in `data_format` layout.\n  ksize: The window size (an int '
            'or one per dimension).\n  strides: The stride (an int or one per dimension).\n  '
            "padding: 'VALID' or 'SAME'.\n  data_format: The layout of `input`.\n" + _NAME +
            '\nReturns:\n  The pooled `Tensor`, in `data_format` layout.',
    'stateless': 'Args:\n  shape: The output shape (a 1-D int `Tensor` or list).\n  seed: A shape-[2] '
                 'int `Tensor`; the same seed gives the same values.\n' + _NAME +
                 '\nReturns:\n  A `Tensor` of `shape` and `dtype`.',
    'creation': 'Args:\n  shape: The output shape (a list or 1-D int `Tensor`).\n  dtype: The '
                'element dtype.\n' + _NAME + '\nReturns:\n  A `Tensor` of `shape` and `dtype`.',
    'like': 'Args:\n  input: A `Tensor` (or value convertible to one).\n  dtype: The result dtype '
            "(default: `input`'s).\n" + _NAME + '\nReturns:\n  A `Tensor` with the shape of `input`.',
}


def documented(family, summary):
    """Decorates an op wrapper: its docstring is `summary`, then the Args/Returns of `family`."""
    def decorate(fn):
        fn.__doc__ = summary + '\n\n' + FAMILIES[family]
        return fn
    return decorate
