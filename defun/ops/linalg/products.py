"""Linear algebra: matmul, einsum (and tensordot, written with it), and the square-matrix ops
inv, det and solve (tf.linalg.*), all batched over leading dimensions.

einsum's gradient is again an einsum per operand (the output gradient contracted with the other
operands), so every order of derivative of tensordot and einsum comes for free. Equations are
normalised once, when the op is called, to the explicit form 'ab,bc->ac'.
"""
import numpy as np

from defun.core import error_helpers
from defun.core.dispatch import apply_op
from defun.ops.support import helpers as op_helpers
from defun.ops.support.helpers import binary_args, dims, to_tensor
from defun.ops.framework.base_ops import ones_like, sum_to
from defun.ops.math.arithmetic import conj
from defun.core.registry import define_op
from defun.core.tensor import is_tensor
from defun.ops.support import validation
from defun.ops.linalg.native_products import matmul_lowering
from defun.ops.linalg.typed_products import matmul_with_output_type

__all__ = ['matmul', 'tensordot', 'einsum']


# ---------------------------------------------------------------- matmul

def _matmul_kernel(a, b, transpose_a, transpose_b):
    if np.ndim(a) < 2 or np.ndim(b) < 2:  # numpy would take a vector; TF's MatMul does not
        raise validation.invalid_argument(
            f'matmul: inputs must be at least rank 2, got shapes {list(np.shape(a))} and '
            f'{list(np.shape(b))}')
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _matmul_infer(a, b, transpose_a, transpose_b):
    sa, sb = dims(a), dims(b)
    if sa is None or sb is None:
        return a.dtype, None
    if len(sa) < 2 or len(sb) < 2:
        raise validation.invalid_argument(
            f'matmul: inputs must be at least rank 2, got shapes {list(sa)} and {list(sb)}')
    m, ka = (sa[-1], sa[-2]) if transpose_a else (sa[-2], sa[-1])
    kb, n = (sb[-1], sb[-2]) if transpose_b else (sb[-2], sb[-1])
    if ka is not None and kb is not None and ka != kb:
        raise validation.invalid_argument(
            f'matmul: Matrix size-incompatible: In[0]: {list(sa)}, In[1]: {list(sb)}')
    batch = op_helpers.broadcast_dims(sa[:-2], sb[:-2], 'matmul')
    return a.dtype, tuple(batch) + (m, n)


def _matmul_grad(op, g):
    a, b = conj(op.inputs[0]), conj(op.inputs[1])  # TF's convention for complex gradients
    ta, tb = op.get_attr('transpose_a'), op.get_attr('transpose_b')
    if not ta and not tb:
        ga, gb = matmul(g, b, transpose_b=True), matmul(a, g, transpose_a=True)
    elif not ta and tb:
        ga, gb = matmul(g, b), matmul(g, a, transpose_a=True)
    elif ta and not tb:
        ga, gb = matmul(b, g, transpose_b=True), matmul(a, g)
    else:
        ga, gb = matmul(b, g, transpose_a=True, transpose_b=True), matmul(
            g, a, transpose_a=True, transpose_b=True)
    return sum_to(ga, op.inputs[0]), sum_to(gb, op.inputs[1])


_BLAS_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _matmul_expression(op, names):
    """What the executor writes for a MatMul of two matrices of static rank 2 (float32/float64,
    the dtypes numpy hands to BLAS): transposes folded into np.dot on .T views, the same BLAS call
    as the kernel's matmul on swapped axes, without its checks and its copies of non-contiguous
    operands. Outer products ((n,1)x(1,m)) too: with OPENBLAS_NUM_THREADS=1, np.dot of a (64,1)
    and a (1,64) view takes 1.0 us against 2.1 us for the broadcast multiply `a * b.T` (and
    5.5 us for np.matmul); only past ~10^6 elements does the multiply catch up. Anything else
    calls the kernel."""
    a, b = op.inputs
    sa, sb = dims(a), dims(b)
    if sa is None or sb is None or len(sa) != 2 or len(sb) != 2 or \
            a.dtype.np_dtype not in _BLAS_DTYPES or b.dtype is not a.dtype:
        return None
    x = names[0] + ('.T' if op.attrs['transpose_a'] else '')
    y = names[1] + ('.T' if op.attrs['transpose_b'] else '')
    return f'np.dot({x}, {y})'


MATMUL = define_op('MatMul', _matmul_kernel, _matmul_infer, _matmul_grad,
                   expression=_matmul_expression, lowering=matmul_lowering)


# TF's MatMul type constraint (int8/int16/bool are refused), in TF's order and spelling.
_MATMUL_TYPES = ('bfloat16', 'float16', 'float32', 'float64', 'int32', 'int64', 'uint8', 'uint16',
                 'uint32', 'uint64', 'complex64', 'complex128')
_MATMUL_ALLOWED = frozenset(_MATMUL_TYPES)
_TF_TYPE_NAMES = {'float16': 'half', 'float32': 'float', 'float64': 'double'}


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """Multiplies matrix `a` by matrix `b` (batched over leading dimensions).

    Args:
      a, b: `Tensor`s of rank >= 2 and one dtype.
      transpose_a, transpose_b: Transpose an operand first.
      adjoint_a, adjoint_b: Conjugate-transpose an operand first.
      a_is_sparse, b_is_sparse: Accepted for TF compatibility.
      output_type: int32 for int8 or uint8 operands (TF's BatchMatMulV3).
      name: A name for the operation (optional).

    Raises:
      InvalidArgumentError: if the inner dimensions differ."""
    if output_type is not None:
        typed = matmul_with_output_type(a, b, transpose_a or adjoint_a, transpose_b or adjoint_b,
                                        output_type, name)
        if typed is not None:
            return typed
    a, b = binary_args(a, b, 'matmul')
    if a.dtype.name not in _MATMUL_ALLOWED:
        raise validation.dtype_mismatch(
            f"Value for attr 'T' of {_TF_TYPE_NAMES.get(a.dtype.name, a.dtype.name)} is not in "
            f"the list of allowed values: {', '.join(_TF_TYPE_NAMES.get(t, t) for t in _MATMUL_TYPES)}"
            f' [Op:MatMul]')
    # The adjoint is the conjugate transpose (conj is no op on real tensors).
    a, b = conj(a) if adjoint_a else a, conj(b) if adjoint_b else b
    attrs = {'transpose_a': bool(transpose_a or adjoint_a),
             'transpose_b': bool(transpose_b or adjoint_b)}
    return apply_op(MATMUL, (a, b), attrs, name)


# This table's Python operators on Tensor (installed by defun/ops/tensor_methods.py), named as TF
# names operator ops (see arithmetic.py).
OPERATORS = {'__matmul__': lambda self, other: matmul(self, other, name='matmul'),
             '__rmatmul__': lambda self, other: matmul(other, self, name='matmul')}


# ---------------------------------------------------------------- einsum

def _tokens(subscripts, equation):
    """'ab...c' -> ['a', 'b', '...', 'c']."""
    tokens, rest = [], subscripts
    while rest:
        if rest.startswith('...'):
            tokens.append('...')
            rest = rest[3:]
        elif rest[0].isalpha():
            tokens.append(rest[0])
            rest = rest[1:]
        else:
            raise ValueError(f'einsum: invalid character {rest[0]!r} in equation {equation!r}')
    return tokens


def parse_equation(equation, num_operands):
    """(list of token lists, one per operand; output token list), with the implicit output of
    'ij,jk' made explicit (the letters used once, in alphabetical order, after any '...')."""
    text = equation.replace(' ', '')
    lhs, arrow, rhs = text.partition('->')
    inputs = [_tokens(part, equation) for part in lhs.split(',')]
    if len(inputs) != num_operands:
        raise ValueError(f'einsum: equation {equation!r} names {len(inputs)} operands but '
                         f'{num_operands} were given')
    if arrow:
        return inputs, _tokens(rhs, equation)
    letters = [t for tokens in inputs for t in tokens if t != '...']
    output = sorted(t for t in set(letters) if letters.count(t) == 1)
    if any('...' in tokens for tokens in inputs):
        output = ['...'] + output
    return inputs, output


def _join(inputs, output):
    return ','.join(''.join(t) for t in inputs) + '->' + ''.join(output)


def _einsum_kernel(*operands, equation):
    large = sum(np.size(x) for x in operands) > 4096   # path search pays off only for big operands
    return np.einsum(equation, *operands, optimize=large)


def _einsum_infer(*operands, equation):
    inputs, output = parse_equation(equation, len(operands))
    sizes, ellipsis, unknown_ellipsis = {}, (), False
    for x, tokens in zip(operands, inputs):
        shape = dims(x)
        letters = [t for t in tokens if t != '...']
        if shape is None:
            unknown_ellipsis |= '...' in tokens
            for t in letters:
                sizes.setdefault(t, None)
            continue
        if len(shape) < len(letters) or ('...' not in tokens and len(shape) != len(letters)):
            raise validation.invalid_argument(
                f'einsum: operand {error_helpers.describe(x)} has rank {len(shape)} but its subscripts '
                f'{"".join(tokens)!r} in {equation!r} need {len(letters)}')
        position = tokens.index('...') if '...' in tokens else len(tokens)
        extra = len(shape) - len(letters)
        ellipsis = op_helpers.broadcast_dims(ellipsis, shape[position:position + extra], 'einsum')
        labelled = shape[:position] + shape[position + extra:]
        for t, d in zip(letters, labelled):
            sizes[t] = _merge_size(sizes.get(t, 1), d, t, equation, operands)
    if unknown_ellipsis and '...' in output:
        return operands[0].dtype, None
    result = []
    for t in output:
        result.extend(ellipsis if t == '...' else (sizes.get(t),))
    return operands[0].dtype, tuple(result)


def _merge_size(a, b, letter, equation, operands):
    """The size of one subscript letter; numpy broadcasts 1 against n, as for '...'."""
    if a is None or b is None:
        return b if a is None or a == 1 else a
    if a == b or b == 1:
        return a
    if a == 1:
        return b
    raise validation.invalid_argument(
        f'einsum: subscript {letter!r} of {equation!r} has size {a} in one operand and {b} in '
        f'another (operands {", ".join(error_helpers.describe(x) for x in operands)})')


def _einsum_grad(op, g):
    equation = op.get_attr('equation')
    inputs, output = parse_equation(equation, len(op.inputs))
    grads = []
    for i, (x, tokens) in enumerate(zip(op.inputs, inputs)):
        letters = [t for t in tokens if t != '...']
        if len(set(letters)) != len(letters):
            raise NotImplementedError(
                f'einsum: no gradient for operand {i} of {equation!r}: a subscript repeated within '
                f'one operand (a diagonal) is not supported')
        others = [(y, t) for j, (y, t) in enumerate(zip(op.inputs, inputs)) if j != i]
        operands, subscripts = [g] + [conj(y) for y, _ in others], [output] + [t for _, t in others]
        available = set(output).union(*[set(t) for t in subscripts])
        if any(t not in available for t in tokens):
            operands.append(ones_like(x))   # supplies the sizes of axes summed away in the forward
            subscripts.append(tokens)
        # The broadcast ('...') dims of the others, absent from this operand, are summed away:
        # kept in the einsum's output (numpy cannot drop them there), then reduced by sum_to.
        target = tokens if '...' in tokens or not any('...' in t for t in subscripts) \
            else ['...'] + tokens
        grads.append(sum_to(einsum(_join(subscripts, target), *operands), x))
    return grads


EINSUM = define_op('Einsum', _einsum_kernel, _einsum_infer, _einsum_grad)


def einsum(equation, *inputs, **kwargs):
    """Einstein summation, as numpy's einsum (including '...' and implicit output)."""
    validation.op_name(kwargs.pop('name', None))
    kwargs.pop('optimize', None)
    if not isinstance(equation, str):
        raise TypeError(f'einsum: `equation` must be a string, got {equation!r}')
    if kwargs:
        raise TypeError(f'einsum: unexpected keyword arguments {sorted(kwargs)}')
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = tuple(inputs[0])
    tensors = op_helpers.same_dtype_args(list(inputs), 'einsum')
    parsed = parse_equation(equation, len(tensors))
    return apply_op(EINSUM, tuple(tensors), {'equation': _join(*parsed)}, None)


# ---------------------------------------------------------------- tensordot

_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'


def _tensordot_axes(axes, rank_a, rank_b):
    value = op_helpers.static_value(axes) if is_tensor(axes) else axes
    if np.ndim(value) == 0:
        n = int(value)
        if n < 0 or n > rank_a or n > rank_b:
            raise ValueError(f'tensordot: axes={n} must be in [0, min(rank(a), rank(b))] = '
                             f'[0, {min(rank_a, rank_b)}]')
        return list(range(rank_a - n, rank_a)), list(range(n))
    if len(value) != 2:
        raise ValueError(f'tensordot: axes must be an int or a pair of axis lists, got {axes!r}')
    a_axes, b_axes = ([int(v) for v in np.ravel(part)] for part in value)
    if len(a_axes) != len(b_axes):
        raise ValueError(f'tensordot: different number of contraction axes for a and b: '
                         f'{a_axes} and {b_axes}')
    return ([op_helpers.normalize_axis(v, rank_a, 'tensordot')[0] for v in a_axes],
            [op_helpers.normalize_axis(v, rank_b, 'tensordot')[0] for v in b_axes])


def tensordot(a, b, axes, name=None):
    """Contracts a's `axes[0]` with b's `axes[1]` (an int n: a's last n with b's first n)."""
    validation.op_name(name)
    a, b = binary_args(a, b, 'tensordot')
    sa, sb = dims(a), dims(b)
    if sa is None or sb is None:
        raise ValueError('tensordot: the ranks of a and b must be known')
    if len(sa) + len(sb) > len(_LETTERS):
        raise ValueError(f'tensordot: ranks {len(sa)} and {len(sb)} are too large')
    a_axes, b_axes = _tensordot_axes(axes, len(sa), len(sb))
    for i, j in zip(a_axes, b_axes):
        if sa[i] is not None and sb[j] is not None and sa[i] != sb[j]:
            raise validation.invalid_argument(
                f'tensordot: contracted dimensions differ: a{list(sa)} axis {i} has size {sa[i]}, '
                f'b{list(sb)} axis {j} has size {sb[j]}')
    a_letters = list(_LETTERS[:len(sa)])
    fresh = iter(_LETTERS[len(sa):])
    b_letters = [a_letters[a_axes[b_axes.index(j)]] if j in b_axes else next(fresh)
                 for j in range(len(sb))]
    output = ([t for i, t in enumerate(a_letters) if i not in a_axes]
              + [t for j, t in enumerate(b_letters) if j not in b_axes])
    return einsum(_join([a_letters, b_letters], output), a, b)


# ---------------------------------------------------------------- inv, det, solve

def _adjoint_array(a):
    return np.conj(np.swapaxes(a, -1, -2))


def _square_batch(x, op):
    """Checks that x is a (batch of) square matrices; returns its static shape (or None)."""
    d = dims(x)
    if d is None:
        return None
    if len(d) < 2 or (d[-1] is not None and d[-2] is not None and d[-1] != d[-2]):
        raise validation.invalid_argument(
            f'{op}: input must be a square matrix or a batch of them, got {error_helpers.describe(x)}')
    return d


def _inv_kernel(a, adjoint):
    if a.dtype == np.float16:  # TF runs half inverses (numpy's linalg does not): in float32, rounded
        return _inv_kernel(a.astype(np.float32), adjoint).astype(np.float16)
    return np.linalg.inv(_adjoint_array(a) if adjoint else a)


def _inv_grad(op, g):
    ainv = op.outputs[0]
    adjoint = op.get_attr('adjoint')
    inner = matmul(g, ainv, adjoint_a=adjoint, adjoint_b=not adjoint)
    return -matmul(ainv, inner, adjoint_a=not adjoint)


INV = define_op('MatrixInverse', _inv_kernel,
                lambda a, adjoint: (a.dtype, _square_batch(a, 'inv')), _inv_grad)


def inv(input, adjoint=False, name=None):
    """The inverse of each square matrix in the last two dims (of its adjoint when `adjoint`)."""
    x = to_tensor(input, name='input', op='inv')
    return apply_op(INV, (x,), {'adjoint': bool(adjoint)}, name)


def _det_infer(a):
    d = _square_batch(a, 'det')
    return a.dtype, None if d is None else d[:-2]


def _det_grad(op, g):
    # d det(A) / dA = det(A) * inv(A)^T, for each matrix of the batch.
    return einsum('...,...ij->...ij', g * op.outputs[0], inv(op.inputs[0], adjoint=True))


DET = define_op('MatrixDeterminant', np.linalg.det, _det_infer,
                _det_grad)


def det(input, name=None):
    """Computes the determinant of each square matrix in `input`.

    Args:
      input: A `[..., M, M]` floating or complex `Tensor`.
      name: A name for the operation (optional).
    """
    return apply_op(DET, (to_tensor(input, name='input', op='det'),), None, name)


def _solve_kernel(matrix, rhs, adjoint):
    return np.linalg.solve(_adjoint_array(matrix) if adjoint else matrix, rhs)


def _solve_infer(matrix, rhs, adjoint):
    m = _square_batch(matrix, 'solve')
    r = dims(rhs)
    if m is None or r is None:
        return rhs.dtype, r
    if len(r) != len(m) or (r[-2] is not None and m[-1] is not None and r[-2] != m[-1]):
        raise validation.invalid_argument(
            f'solve: rhs must be [..., M, K] for a matrix [..., M, M]; got matrix '
            f'{error_helpers.describe(matrix)} and rhs {error_helpers.describe(rhs)}')
    return rhs.dtype, r


def _solve_grad(op, g):
    a = op.inputs[0]
    adjoint = op.get_attr('adjoint')
    x = op.outputs[0]
    grad_rhs = solve(a, g, adjoint=not adjoint)
    if adjoint:
        return -matmul(x, grad_rhs, adjoint_b=True), grad_rhs
    return -matmul(grad_rhs, x, adjoint_b=True), grad_rhs


SOLVE = define_op('MatrixSolve', _solve_kernel, _solve_infer,
                  _solve_grad)


def solve(matrix, rhs, adjoint=False, name=None):
    """X with matrix @ X = rhs (adjoint(matrix) @ X = rhs when `adjoint`), batched."""
    matrix, rhs = binary_args(matrix, rhs, 'solve')
    return apply_op(SOLVE, (matrix, rhs), {'adjoint': bool(adjoint)}, name)
