"""The single dispatch point: kernel failures become TF's error types naming the op, the input
shapes and dtypes and the attrs; tapes record only what touches a tracked tensor."""
import itertools
import os

import numpy as np
import pytest

import defun as tf
from defun.core import context, registry
from defun.core.dispatch import OpRecord, apply_op
from defun.ops.support.helpers import same_as_first

_fresh = itertools.count()


def define(kernel, num_outputs=1, grad=None):
    op_type = f'TestOnlyDispatch{os.getpid()}_{next(_fresh)}'
    infer = same_as_first if num_outputs == 1 else (
        lambda x: [(x.dtype, x.shape.as_tuple())] * num_outputs)
    return registry.define_op(op_type, kernel, infer, grad, num_outputs=num_outputs)


def test_kernel_value_error_becomes_invalid_argument_with_context():
    opdef = define(lambda x: np.linalg.inv(x))
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        apply_op(opdef, (tf.constant(np.zeros((2, 2))),))
    message = str(info.value)
    assert opdef.type in message and 'float64[2,2]' in message and 'Singular' in message
    # TF's hierarchy: OpErrors are not ValueErrors (graph building raises ValueError instead).
    assert not isinstance(info.value, ValueError)


def test_kernel_type_error_becomes_invalid_argument_and_names_attrs():
    # TF's eager kernels report every failure as a status: InvalidArgumentError, never TypeError.
    opdef = define(lambda x, suffix: x + suffix)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        apply_op(opdef, (tf.constant([1, 2]),), {'suffix': 'a'})
    assert opdef.type in str(info.value) and 'int32[2]' in str(info.value)
    assert "suffix='a'" in str(info.value)


def test_kernel_index_error_becomes_invalid_argument():
    opdef = define(lambda x, i: x[i])
    with pytest.raises(tf.errors.InvalidArgumentError, match='index 5'):
        apply_op(opdef, (tf.constant([1.0, 2.0]),), {'i': 5})


def test_multi_output_ops_return_tuples():
    opdef = define(lambda x: (x, -x), num_outputs=2, grad=lambda op, a, b: a - b)
    a, b = apply_op(opdef, (tf.constant([1.0, 2.0]),))
    np.testing.assert_array_equal(b.numpy(), [-1.0, -2.0])
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        p, q = apply_op(opdef, (x,))
        y = q * 5.0  # p's gradient is missing: fed as zeros
    assert float(tape.gradient(y, x)) == -5.0


def test_op_record_interface():
    opdef = registry.get_op('AddV2')
    record = OpRecord(opdef, (), (), {'k': 1})
    assert record.type == 'AddV2' and record.name == 'AddV2' and record.get_attr('k') == 1
    with pytest.raises(ValueError, match='no attr'):
        record.get_attr('missing')
    with pytest.raises(ValueError):
        OpRecord(opdef, (), (), None).get_attr('k')


def test_tapes_record_only_ops_on_tracked_tensors():
    x, c = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        _ = c * c  # touches nothing tracked
        _ = tf.floor(x)  # not differentiable: never recorded
        y = x * c
        records = context.tapes()[0]
        assert [r.type for r in records.entries] == ['Mul']
    assert float(tape.gradient(y, x)) == 2.0
