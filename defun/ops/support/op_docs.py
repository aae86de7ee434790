"""Docstrings for the op wrappers written as one-line functions in the op tables, kept in one place:
each family (element-wise, comparison, reduction, segment, activation, assertion, stateless random)
shares its Args/Returns text, and each wrapper adds the one line saying what it computes. Importing
this module (the ops package does) sets `__doc__` on every wrapper listed that has none."""
from defun.ops.math import arithmetic, complex_numbers, elementary
from defun.ops.array import joining as array, creation
from defun.ops.debugging import asserts
from defun.ops.framework import base_ops
from defun.ops.linalg import products as linalg
from defun.ops.math import logic
from defun.ops.math import math_ops as math_more, reductions
from defun.ops.nn import activations as nn, conv as nn_conv, compositions as nn_more
from defun.ops.random import stateless as random_stateless
from defun.ops.array import transform

__all__ = ['FAMILIES', 'DOCS', 'apply']

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
    None: '',
}

E, L, A, R, M, C = elementary, logic, arithmetic, reductions, math_more, complex_numbers
DOCS = [
    (E.sin, 'unary', 'Computes sine of `x` element-wise.'),
    (E.cos, 'unary', 'Computes cosine of `x` element-wise.'),
    (E.tan, 'unary', 'Computes tangent of `x` element-wise.'),
    (E.asin, 'unary', 'Computes the inverse sine of `x` element-wise (radians, in [-pi/2, pi/2]).'),
    (E.acos, 'unary', 'Computes the inverse cosine of `x` element-wise (radians, in [0, pi]).'),
    (E.atan, 'unary', 'Computes the inverse tangent of `x` element-wise.'),
    (E.sinh, 'unary', 'Computes hyperbolic sine of `x` element-wise.'),
    (E.cosh, 'unary', 'Computes hyperbolic cosine of `x` element-wise.'),
    (E.tanh, 'unary', 'Computes hyperbolic tangent of `x` element-wise.'),
    (M.asinh, 'unary', 'Computes inverse hyperbolic sine of `x` element-wise.'),
    (M.acosh, 'unary', 'Computes inverse hyperbolic cosine of `x` element-wise (NaN below 1).'),
    (M.atanh, 'unary', 'Computes inverse hyperbolic tangent of `x` element-wise.'),
    (E.exp, 'unary', 'Computes e**x element-wise.'),
    (E.expm1, 'unary', 'Computes e**x - 1 element-wise, accurately for small `x`.'),
    (E.log, 'unary', 'Computes the natural logarithm of `x` element-wise.'),
    (E.log1p, 'unary', 'Computes log(1 + x) element-wise, accurately for small `x`.'),
    (E.sqrt, 'unary', 'Computes the square root of `x` element-wise.'),
    (E.rsqrt, 'unary', 'Computes 1 / sqrt(x) element-wise.'),
    (E.reciprocal, 'unary', 'Computes 1 / x element-wise.'),
    (E.sigmoid, 'unary', 'Computes the logistic sigmoid 1 / (1 + exp(-x)) element-wise.'),
    (E.erf, 'unary', 'Computes the Gauss error function of `x` element-wise.'),
    (E.floor, 'unary', 'Returns the largest integer not greater than `x`, element-wise.'),
    (E.ceil, 'unary', 'Returns the smallest integer not less than `x`, element-wise.'),
    (C.real, 'complex_part', 'Returns the real part of a complex tensor (a real tensor unchanged).'),
    (C.imag, 'complex_part', 'Returns the imaginary part of a complex tensor (zeros for a real one).'),
    (A.negative, 'unary', 'Computes -x element-wise.'),
    (A.square, 'unary', 'Computes x * x element-wise.'),
    (A.add, 'binary', 'Returns x + y element-wise, broadcasting.'),
    (A.subtract, 'binary', 'Returns x - y element-wise, broadcasting.'),
    (A.multiply, 'binary', 'Returns x * y element-wise, broadcasting.'),
    (A.truediv, 'binary', 'Returns x / y element-wise; integer operands are divided as floats.'),
    (A.maximum, 'binary', 'Returns the element-wise maximum of `x` and `y`, broadcasting.'),
    (A.minimum, 'binary', 'Returns the element-wise minimum of `x` and `y`, broadcasting.'),
    (A.add_n, None, 'Adds a list of tensors of one shape and dtype element-wise.\n\nArgs:\n  '
     'inputs: A non-empty list of `Tensor`s of the same shape and dtype.\n' + _NAME +
     '\nReturns:\n  Their sum.\n\nRaises:\n  ValueError: if `inputs` is empty or the shapes differ.'),
    (L.less, 'compare', 'Returns the truth value of (x < y) element-wise.'),
    (L.less_equal, 'compare', 'Returns the truth value of (x <= y) element-wise.'),
    (L.greater, 'compare', 'Returns the truth value of (x > y) element-wise.'),
    (L.greater_equal, 'compare', 'Returns the truth value of (x >= y) element-wise.'),
    (L.equal, 'compare', 'Returns the truth value of (x == y) element-wise.'),
    (L.not_equal, 'compare', 'Returns the truth value of (x != y) element-wise.'),
    (L.logical_and, 'logical', 'Returns the truth value of x AND y element-wise.'),
    (L.logical_or, 'logical', 'Returns the truth value of x OR y element-wise.'),
    (L.logical_not, 'logical', 'Returns the truth value of NOT x element-wise.'),
    (L.is_finite, 'classify', 'Returns which elements of `x` are finite (not inf, not NaN).'),
    (L.is_inf, 'classify', 'Returns which elements of `x` are +inf or -inf.'),
    (L.is_nan, 'classify', 'Returns which elements of `x` are NaN.'),
    (R.reduce_sum, 'reduce', 'Computes the sum of elements across dimensions of a tensor.'),
    (R.reduce_prod, 'reduce', 'Computes the product of elements across dimensions of a tensor.'),
    (R.reduce_max, 'reduce', 'Computes the maximum of elements across dimensions of a tensor.'),
    (R.reduce_min, 'reduce', 'Computes the minimum of elements across dimensions of a tensor.'),
    (R.reduce_all, 'reduce', 'Computes the logical AND of elements across dimensions of a tensor.'),
    (R.reduce_any, 'reduce', 'Computes the logical OR of elements across dimensions of a tensor.'),
    (R.reduce_std, 'reduce', 'Computes the (population) standard deviation across dimensions.'),
    (M.segment_sum, 'segment', 'Computes the sum of each segment of `data`\'s rows.'),
    (M.segment_mean, 'segment', 'Computes the mean of each segment of `data`\'s rows.'),
    (M.segment_max, 'segment', 'Computes the maximum of each segment of `data`\'s rows.'),
    (M.segment_min, 'segment', 'Computes the minimum of each segment of `data`\'s rows.'),
    (M.unsorted_segment_sum, 'unsorted_segment', 'Computes the sum of the rows given each segment id.'),
    (M.unsorted_segment_mean, 'unsorted_segment', 'Computes the mean of the rows given each id.'),
    (M.unsorted_segment_max, 'unsorted_segment', 'Computes the maximum of the rows given each id.'),
    (M.unsorted_segment_min, 'unsorted_segment', 'Computes the minimum of the rows given each id.'),
    (nn.relu, 'activation', 'Computes the rectified linear max(features, 0).'),
    (nn.relu6, 'activation', 'Computes min(max(features, 0), 6).'),
    (nn.elu, 'activation', 'Computes the exponential linear unit: exp(x) - 1 below 0, x above.'),
    (nn.leaky_relu, None, 'Computes the leaky ReLU max(alpha * features, features).\n\nArgs:\n  '
     'features: A floating-point `Tensor`.\n  alpha: The slope below zero.\n' + _NAME +
     '\nReturns:\n  A `Tensor` with the shape and dtype of `features`.'),
    (nn.softmax, 'softmax', 'Computes softmax: exp(logits) / reduce_sum(exp(logits), axis).'),
    (nn.log_softmax, 'softmax', 'Computes log-softmax: logits - log(reduce_sum(exp(logits), axis)).'),
    (nn_conv.max_pool2d, 'pool', 'Max pooling over 2-D windows of a 4-D tensor.'),
    (nn_conv.avg_pool2d, 'pool', 'Average pooling over 2-D windows of a 4-D tensor.'),
    (nn_more.max_pool1d, 'pool', 'Max pooling over 1-D windows of a 3-D tensor.'),
    (nn_more.avg_pool1d, 'pool', 'Average pooling over 1-D windows of a 3-D tensor.'),
    (asserts.assert_less, 'assert2', 'Asserts x < y holds element-wise.'),
    (asserts.assert_less_equal, 'assert2', 'Asserts x <= y holds element-wise.'),
    (asserts.assert_greater_equal, 'assert2', 'Asserts x >= y holds element-wise.'),
    (asserts.assert_none_equal, 'assert2', 'Asserts x != y holds element-wise.'),
    (asserts.assert_positive, 'assert1', 'Asserts x > 0 holds element-wise.'),
    (asserts.assert_negative, 'assert1', 'Asserts x < 0 holds element-wise.'),
    (asserts.assert_non_negative, 'assert1', 'Asserts x >= 0 holds element-wise.'),
    (asserts.assert_non_positive, 'assert1', 'Asserts x <= 0 holds element-wise.'),
    (random_stateless.stateless_uniform, 'stateless',
     'Draws uniform values in [minval, maxval) determined by `seed` (ints need both bounds).'),
    (random_stateless.stateless_normal, 'stateless',
     'Draws normal values with `mean` and `stddev` determined by `seed`.'),
    (random_stateless.stateless_truncated_normal, 'stateless',
     'Draws normal values re-drawn beyond two standard deviations, determined by `seed`.'),
    (random_stateless.stateless_gamma, 'stateless',
     'Draws gamma(alpha, beta) values determined by `seed`; `shape` must end with alpha\'s shape.'),
    (random_stateless.stateless_poisson, 'stateless', 'Draws Poisson(lam) values determined by `seed`.'),
    (random_stateless.stateless_categorical, None,
     'Draws class indices from the categorical distributions given by `logits`, determined by '
     '`seed`.\n\nArgs:\n  logits: A 2-D `[batch, classes]` `Tensor` of unnormalised log-probabilities.'
     '\n  num_samples: Samples per row.\n  seed: A shape-[2] int `Tensor`.\n  dtype: int32 or int64.'
     '\n' + _NAME + '\nReturns:\n  A `[batch, num_samples]` `Tensor` of class indices.'),
    (creation.zeros, 'creation', 'Creates a tensor with all elements set to zero.'),
    (creation.ones, 'creation', 'Creates a tensor with all elements set to one.'),
    (base_ops.zeros_like, 'like', 'Creates a tensor of zeros with the shape of `input`.'),
    (base_ops.ones_like, 'like', 'Creates a tensor of ones with the shape of `input`.'),
    (creation.rank, None, 'Returns the rank (number of dimensions) of a tensor as an int32 scalar.'
     '\n\nArgs:\n  input: A `Tensor`.\n' + _NAME),
    (base_ops.identity, None, 'Returns a tensor with the same shape and contents as `input`.'
     '\n\nArgs:\n  input: A `Tensor`.\n' + _NAME),
    (base_ops.fill, None, 'Creates a tensor of shape `dims` filled with the scalar `value`.'
     '\n\nArgs:\n  dims: The shape (1-D int).\n  value: A scalar; its dtype is the result\'s.\n' + _NAME),
    (base_ops.reshape, None, 'Returns `tensor`\'s elements in a new shape (one entry may be -1).'
     '\n\nArgs:\n  tensor: A `Tensor`.\n  shape: The new shape; it must hold as many elements.\n'
     + _NAME + '\nRaises:\n  InvalidArgumentError: if the element counts differ.'),
    (base_ops.broadcast_to, None, 'Broadcasts `input` to `shape` (numpy broadcasting rules).'
     '\n\nArgs:\n  input: A `Tensor`.\n  shape: The target shape.\n' + _NAME +
     '\nRaises:\n  InvalidArgumentError: if `input` does not broadcast to `shape`.'),
    (transform.expand_dims, None, 'Inserts a dimension of length 1 at index `axis`.'
     '\n\nArgs:\n  input: A `Tensor`.\n  axis: Where to insert, in [-rank-1, rank].\n' + _NAME),
    (transform.squeeze, None, 'Removes dimensions of length 1 (all, or those listed in `axis`).'
     '\n\nArgs:\n  input: A `Tensor`.\n  axis: Dimensions to remove (each must have length 1).\n' + _NAME),
    (transform.reverse, None, 'Reverses `tensor` along the dimensions in `axis`.'
     '\n\nArgs:\n  tensor: A `Tensor`.\n  axis: A 1-D int list of dimensions.\n' + _NAME),
    (transform.tile, None, 'Repeats `input` `multiples[i]` times along each dimension i.'
     '\n\nArgs:\n  input: A `Tensor`.\n  multiples: One int per dimension of `input`.\n' + _NAME),
    (transform.transpose, None, 'Permutes the dimensions of `a` by `perm` (default: reversed).'
     '\n\nArgs:\n  a: A `Tensor`.\n  perm: A permutation of its dimensions.\n  conjugate: Also '
     'conjugate complex values.\n' + _NAME),
    (array.concat, None, 'Concatenates tensors along dimension `axis`.'
     '\n\nArgs:\n  values: A list of `Tensor`s of one dtype and rank.\n  axis: The dimension to join on.'
     '\n' + _NAME),
    (array.stack, None, 'Stacks a list of rank-R tensors into one rank-(R+1) tensor along `axis`.'
     '\n\nArgs:\n  values: A list of `Tensor`s of one shape and dtype.\n  axis: The new dimension.\n'
     + _NAME),
    (array.unstack, None, 'Unpacks a tensor into a list of tensors along dimension `axis`.'
     '\n\nArgs:\n  value: A `Tensor` whose `axis` dimension is known (or give `num`).\n  num: The '
     'length of that dimension.\n  axis: The dimension to unpack.\n' + _NAME),
    (array.split, None, 'Splits a tensor into sub-tensors along `axis`.'
     '\n\nArgs:\n  value: A `Tensor`.\n  num_or_size_splits: A number of equal parts, or a list of '
     'sizes (one may be -1).\n  axis: The dimension to split.\n  num: The number of outputs when it '
     'cannot be inferred.\n' + _NAME + '\nReturns:\n  A list of `Tensor`s.'),
    (array.one_hot, None, 'Returns a one-hot tensor: `on_value` at each index, `off_value` elsewhere.'
     '\n\nArgs:\n  indices: An int `Tensor`.\n  depth: The number of classes.\n  on_value, off_value: '
     'The two values (defaults 1 and 0).\n  axis: Where the new dimension goes (default -1).\n  '
     'dtype: The result dtype.\n' + _NAME),
    (array.size, None, 'Returns the number of elements of `input` as a scalar of `out_type`.'
     '\n\nArgs:\n  input: A `Tensor`.\n  out_type: int32 or int64.\n' + _NAME),
    (linalg.matmul, None, 'Multiplies matrix `a` by matrix `b` (batched over leading dimensions).'
     '\n\nArgs:\n  a, b: `Tensor`s of rank >= 2 and one dtype.\n  transpose_a, transpose_b: Transpose '
     'an operand first.\n  adjoint_a, adjoint_b: Conjugate-transpose an operand first.\n  '
     'a_is_sparse, b_is_sparse, output_type: Accepted for TF compatibility.\n' + _NAME +
     '\nRaises:\n  InvalidArgumentError: if the inner dimensions differ.'),
    (linalg.det, None, 'Computes the determinant of each square matrix in `input`.'
     '\n\nArgs:\n  input: A `[..., M, M]` floating or complex `Tensor`.\n' + _NAME),
]


def apply():
    """Set `__doc__` on each wrapper in DOCS that has none (a written docstring wins)."""
    for fn, family, line in DOCS:
        if not (fn.__doc__ or '').strip():
            tail = FAMILIES[family]
            fn.__doc__ = line + ('\n\n' + tail if tail else '')


apply()
