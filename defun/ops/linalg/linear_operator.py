"""`tf.linalg.LinearOperator` and its basic kinds: FullMatrix, Diag, Identity, ScaledIdentity,
LowerTriangular and Tridiag.

A LinearOperator stands for a [batch of] matrix it need not hold. Each kind says how it becomes a
dense matrix (`_to_dense`) and may give faster or more exact forms of the operations; the base
class answers every other question from the dense matrix with defun's ops (so everything is
differentiable and traceable): matmul/matvec, solve/solvevec, determinant, log|det|, trace,
diag_part, adjoint, inverse. The `is_*` hints are kept as given, as TF's promises.
"""
import numpy as np

from defun.core import dtypes
from defun.core.shapes import TensorShape
from defun.ops.array.creation import eye
from defun.ops.array.joining import unstack
from defun.ops.array.transform import pad, transpose
from defun.ops.linalg.cholesky import slogdet
from defun.ops.linalg.cholesky import triangular_solve
from defun.ops.linalg.diagonals import band_part, diag, diag_part
from defun.ops.linalg.products import det, matmul, solve
from defun.ops.math.arithmetic import conj, multiply
from defun.ops.math.elementary import abs as abs_, log
from defun.ops.math.reductions import reduce_prod, reduce_sum
from defun.ops.support.helpers import to_tensor

__all__ = ['LinearOperator', 'LinearOperatorFullMatrix', 'LinearOperatorDiag',
           'LinearOperatorIdentity', 'LinearOperatorScaledIdentity',
           'LinearOperatorLowerTriangular', 'LinearOperatorTridiag']


class LinearOperator:
    """The base of every linear operator: properties, hints, and operations on the dense form."""

    def __init__(self, dtype, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite and is_non_singular is False:
            raise ValueError('A positive definite matrix is always non-singular.')
        self._dtype = dtypes.as_dtype(dtype)
        self._is_non_singular = True if is_positive_definite else is_non_singular
        self._is_self_adjoint, self._is_positive_definite = is_self_adjoint, is_positive_definite
        self._is_square = is_square
        self._name = name or type(self).__name__
        self._parameters = dict(parameters or {})

    # -- properties
    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    parameters = property(lambda self: dict(self._parameters))
    is_non_singular = property(lambda self: self._is_non_singular)
    is_self_adjoint = property(lambda self: self._is_self_adjoint)
    is_positive_definite = property(lambda self: self._is_positive_definite)

    @property
    def is_square(self):
        if self._is_square is not None:
            return self._is_square
        dims = self.shape.as_list()[-2:]
        return None if None in dims else dims[0] == dims[1]

    @property
    def shape(self):
        return TensorShape(self._shape())

    @property
    def batch_shape(self):
        return self.shape[:-2]

    @property
    def tensor_rank(self):
        return self.shape.rank

    @property
    def domain_dimension(self):
        return self.shape[-1]

    @property
    def range_dimension(self):
        return self.shape[-2]

    def _shape(self):
        return self.to_dense().shape

    # -- the dense form and what follows from it
    def to_dense(self, name='to_dense'):
        return self._to_dense()

    def _to_dense(self):
        raise NotImplementedError(f'{type(self).__name__} must define _to_dense')

    def matmul(self, x, adjoint=False, adjoint_arg=False, name='matmul'):
        if isinstance(x, LinearOperator):
            x = x.to_dense()
        return matmul(self.to_dense(), to_tensor(x, dtype=self.dtype, op='matmul'),
                      adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def matvec(self, x, adjoint=False, name='matvec'):
        x = to_tensor(x, dtype=self.dtype, op='matvec')
        return self.matmul(x[..., None], adjoint=adjoint)[..., 0]

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name='solve'):
        if self.is_non_singular is False:
            raise NotImplementedError('Exact solve not implemented for an operator that is '
                                      'expected to be singular.')
        rhs = to_tensor(rhs, dtype=self.dtype, op='solve')
        if adjoint_arg:
            rhs = _transpose_last(rhs, conjugate=True)
        return solve(self.to_dense(), rhs, adjoint=adjoint)

    def solvevec(self, rhs, adjoint=False, name='solve'):
        rhs = to_tensor(rhs, dtype=self.dtype, op='solvevec')
        return self.solve(rhs[..., None], adjoint=adjoint)[..., 0]

    def determinant(self, name='det'):
        return det(self.to_dense())

    def log_abs_determinant(self, name='log_abs_det'):
        return slogdet(self.to_dense())[1]

    def trace(self, name='trace'):
        return reduce_sum(self.diag_part(), axis=-1)

    def diag_part(self, name='diag_part'):
        return diag_part(self.to_dense())

    def adjoint(self, name='adjoint'):
        if self.is_self_adjoint:
            return self
        return LinearOperatorFullMatrix(_transpose_last(self.to_dense(), conjugate=True),
                                        is_non_singular=self.is_non_singular,
                                        is_positive_definite=self.is_positive_definite,
                                        is_square=self._is_square)

    H = property(adjoint)

    def inverse(self, name='inverse'):
        if self.is_non_singular is False:
            raise ValueError('Cannot take the Inverse: This operator represents a singular '
                             'matrix.')
        dense = self.to_dense()
        identity = eye(int(dense.shape[-1]), batch_shape=dense.shape[:-2], dtype=self.dtype)
        return LinearOperatorFullMatrix(solve(dense, identity), is_non_singular=True)

    def add_to_tensor(self, x, name='add_to_tensor'):
        return self.to_dense() + to_tensor(x, dtype=self.dtype, op='add_to_tensor')

    def __repr__(self):
        return (f'<{type(self).__module__.split(".")[0]}.linalg.{type(self).__name__} '
                f'{self.name!r} shape={self.shape} dtype={self.dtype!r}>')


def _transpose_last(m, conjugate=False):
    rank = m.shape.rank
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    return transpose(m, perm, conjugate=conjugate)


class LinearOperatorFullMatrix(LinearOperator):
    """An operator holding its [batch] matrix."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorFullMatrix'):
        self._matrix = to_tensor(matrix, name='matrix', op=name)
        if self._matrix.shape.rank is not None and self._matrix.shape.rank < 2:
            raise ValueError(f'Argument matrix must have at least 2 dimensions.  Found: '
                             f'{self._matrix!r}')
        super().__init__(self._matrix.dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name, {'matrix': matrix})

    def _to_dense(self):
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    """diag(d): matmul scales rows, solve divides, log|det| sums log|d|."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name='LinearOperatorDiag'):
        self._diag = to_tensor(diag, name='diag', op=name)
        if not is_square:
            raise ValueError('Only square diagonal operators currently supported.')
        super().__init__(self._diag.dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, True, name, {'diag': diag})

    def _shape(self):
        n = self._diag.shape[-1]
        return self._diag.shape[:-1].concatenate([n, n])

    def _to_dense(self):
        return diag(self._diag)

    def diag_part(self, name='diag_part'):
        return self._diag

    def matmul(self, x, adjoint=False, adjoint_arg=False, name='matmul'):
        x = to_tensor(x, dtype=self.dtype, op='matmul')
        x = _transpose_last(x, conjugate=True) if adjoint_arg else x
        d = conj(self._diag) if adjoint else self._diag
        return multiply(d[..., :, None], x)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name='solve'):
        rhs = to_tensor(rhs, dtype=self.dtype, op='solve')
        rhs = _transpose_last(rhs, conjugate=True) if adjoint_arg else rhs
        d = conj(self._diag) if adjoint else self._diag
        return rhs / d[..., :, None]

    def determinant(self, name='det'):
        return reduce_prod(self._diag, axis=-1)

    def log_abs_determinant(self, name='log_abs_det'):
        return reduce_sum(log(abs_(self._diag)), axis=-1)


class LinearOperatorScaledIdentity(LinearOperatorDiag):
    """multiplier * I of size num_rows."""

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name='LinearOperatorScaledIdentity'):
        m = to_tensor(multiplier, name='multiplier', op=name)
        self._num_rows = int(num_rows)
        super().__init__(m[..., None] * np.ones([self._num_rows], m.dtype.np_dtype),
                         is_non_singular, is_self_adjoint, is_positive_definite, is_square, name)
        self._parameters = {'num_rows': num_rows, 'multiplier': multiplier}
        self._multiplier = m

    multiplier = property(lambda self: self._multiplier)


class LinearOperatorIdentity(LinearOperatorDiag):
    """The identity of size num_rows (with an optional batch_shape)."""

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True,
                 is_self_adjoint=True, is_positive_definite=True, is_square=True,
                 assert_proper_shapes=False, name='LinearOperatorIdentity'):
        dtype = dtypes.as_dtype(dtype or dtypes.float32)
        shape = list(batch_shape or []) + [int(num_rows)]
        super().__init__(np.ones(shape, dtype.np_dtype), is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name)
        self._parameters = {'num_rows': num_rows, 'batch_shape': batch_shape, 'dtype': dtype}


class LinearOperatorLowerTriangular(LinearOperator):
    """The lower triangle of `tril` (the rest is ignored); solve by substitution."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorLowerTriangular'):
        if is_square is False:
            raise ValueError('Only square lower triangular operators supported at this time.')
        t = to_tensor(tril, name='tril', op=name)
        self._tril = band_part(t, -1, 0)
        super().__init__(t.dtype, is_non_singular, is_self_adjoint, is_positive_definite, True,
                         name, {'tril': tril})

    def _to_dense(self):
        return self._tril

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name='solve'):
        rhs = to_tensor(rhs, dtype=self.dtype, op='solve')
        rhs = _transpose_last(rhs, conjugate=True) if adjoint_arg else rhs
        return triangular_solve(self._tril, rhs, lower=True, adjoint=adjoint)

    def determinant(self, name='det'):
        return reduce_prod(diag_part(self._tril), axis=-1)

    def log_abs_determinant(self, name='log_abs_det'):
        return reduce_sum(log(abs_(diag_part(self._tril))), axis=-1)


def _shifted(d, offset):
    """A [batch] matrix with vector d on diagonal `offset` (+1 above, -1 below the main one)."""
    rank = d.shape.rank + 1
    lead = [[0, 0]] * (rank - 2)
    square = diag(d)
    return pad(square, lead + ([[0, 1], [1, 0]] if offset > 0 else [[1, 0], [0, 1]]))


class LinearOperatorTridiag(LinearOperator):
    """A [batch] tridiagonal matrix from its three diagonals, in TF's formats: 'compact' (shape
    [..., 3, N]: superdiagonal (its last entry ignored), diagonal, subdiagonal (its first entry
    ignored)), 'sequence' ([superdiag, diag, subdiag]) or 'matrix'."""

    def __init__(self, diagonals, diagonals_format='compact', is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name='LinearOperatorTridiag'):
        if diagonals_format not in ('compact', 'sequence', 'matrix'):
            raise ValueError(f'Diagonals Format must be one of compact, matrix, sequence, got '
                             f': {diagonals_format}')
        if diagonals_format == 'sequence':
            parts = [to_tensor(d, name='diagonals', op=name) for d in diagonals]
        else:
            parts = to_tensor(diagonals, name='diagonals', op=name)
        self._format, self._diagonals = diagonals_format, parts
        dtype = parts[0].dtype if diagonals_format == 'sequence' else parts.dtype
        super().__init__(dtype, is_non_singular, is_self_adjoint, is_positive_definite, True,
                         name, {'diagonals': diagonals, 'diagonals_format': diagonals_format})

    diagonals = property(lambda self: self._diagonals)
    diagonals_format = property(lambda self: self._format)

    def _to_dense(self):
        if self._format == 'matrix':
            return band_part(self._diagonals, 1, 1)
        if self._format == 'sequence':
            superdiag, main, subdiag = self._diagonals
        else:
            superdiag, main, subdiag = unstack(self._diagonals, axis=-2)
        return (diag(main) + _shifted(superdiag[..., :-1], 1) +
                _shifted(subdiag[..., 1:], -1))
