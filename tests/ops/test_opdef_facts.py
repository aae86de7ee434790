"""Every fact about an op lives in its OpDef, set by define_op (DESIGN.md rule 1): how it is
emitted, folded and differentiated, and which kernel compiled graphs call."""
import numpy as np
import pytest

import defun as tf
from defun.core import registry


def test_const_placeholder_and_calls_are_registered_ops():
    assert registry.get_op('Const').fold is not None
    assert registry.get_op('Placeholder').is_placeholder
    assert not registry.get_op('Placeholder').foldable
    for call in ('PartitionedCall', 'StatefulPartitionedCall'):
        assert registry.get_op(call).num_outputs is None


def test_control_flow_ops_carry_their_emitter_and_gradient_facts():
    for op_type in ('If', 'StatelessIf', 'Case', 'StatelessCase', 'While', 'StatelessWhile'):
        opdef = registry.get_op(op_type)
        assert callable(opdef.emit) and opdef.skips_unneeded_inputs
    assert registry.get_op('SoftmaxCrossEntropyWithLogits').accepts_missing_grads
    assert registry.get_op('Identity').is_identity


def test_the_kernel_is_bare_and_the_signature_checks_eagerly():
    # Input types are checked once, by the dispatch point against the op's TF signature; the
    # kernel itself is the bare numpy function, eager or compiled.
    opdef = registry.get_op('IsNan')
    assert opdef.graph_kernel is np.isnan and opdef.kernel is np.isnan
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'T' of int64"):
        opdef.check([tf.constant(np.array([1, 2]))], None)


def test_fold_rules_give_static_values():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3])
        assert tf.get_static_value(tf.shape(x)).tolist() == [2, 3]
        assert tf.get_static_value(tf.size(x)) == 6
        assert tf.get_static_value(tf.rank(x)) == 2
        assert tf.get_static_value(x) is None


def test_define_op_refuses_an_unknown_fact():
    with pytest.raises(TypeError):
        registry.OpDef('NoSuchOp', lambda: None, lambda: None, emitter=None)
