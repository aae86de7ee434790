"""Tensor's Python operators and the packing of lists of tensors, installed in one place.

`x + y`, `x @ y`, `x[1:]`, `x == y` and `convert_to_tensor([t1, t2])` run ops, but `Tensor` lives in
the bottom layer (defun/core/tensor.py), below the op tables, so it cannot import them. Each table
that defines operators lists them in its `OPERATORS` dict (dunder name -> method); `install()` puts
them all on Tensor and gives convert_to_tensor the stack op for lists holding tensors. The ops
package calls it once, after every table has defined its ops.
"""
from defun.core import tensor
from defun.ops.array import indexing, joining
from defun.ops.linalg import products
from defun.ops.math import arithmetic, elementary, logic

__all__ = ['install']

TABLES_WITH_OPERATORS = (arithmetic, elementary, logic, products, indexing)


def install():
    for table in TABLES_WITH_OPERATORS:
        for name, method in table.OPERATORS.items():
            tensor.install_operator(name, method)
    tensor.install_packer(joining.pack_list)
