"""The public surface's core functions and data types carry type hints (issue 15), so editors and
type checkers see what they take and return; this keeps them from being dropped."""
import inspect
import typing

import pytest

import defun as tf
from defun.core import dispatch, nest, registry
from defun.compiler import folding
from defun.autodiff.gradient_graph import GradientGraph

ANNOTATED = [tf.cond, tf.case, tf.switch_case, tf.while_loop, tf.map_fn, tf.scan, tf.foldl,
             tf.foldr, tf.gradients, tf.convert_to_tensor, tf.is_tensor, tf.as_dtype,
             tf.get_static_value, tf.GradientTape.gradient, tf.TensorShape.as_list,
             tf.TensorShape.merge_with, tf.TensorSpec.is_compatible_with, tf.Graph.create_op,
             tf.Graph.get_operations, tf.Operation.get_attr, registry.define_op, registry.get_op,
             dispatch.apply_op, folding.fold_outputs, nest.flatten, nest.map_structure,
             GradientGraph.__init__]


@pytest.mark.parametrize('fn', ANNOTATED, ids=lambda f: f.__qualname__)
def test_annotated_and_resolvable(fn):
    signature = inspect.signature(fn)
    annotated = [p for p in signature.parameters.values() if p.name not in ('self', 'cls')]
    assert all(p.annotation is not inspect.Parameter.empty for p in annotated)
    assert signature.return_annotation is not inspect.Signature.empty
    typing.get_type_hints(fn)  # every name in the hints resolves
