"""tf.experimental.ExtensionType: users' composite tensors, behaving as TF 2.21's (reprs,
immutability, validation, Spec, tracing, nest). Expected texts recorded from TF."""
import numpy as np
import pytest

import defun as tf


class MaskedTensor(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor
    name: str = 'm'

    def __validate__(self):
        self.values.shape.assert_is_compatible_with(self.mask.shape)


def _mt():
    return MaskedTensor([1, 2, 3], [True, False, True])


def test_fields_repr_spec_and_immutability():
    mt = _mt()
    assert repr(mt) == (
        "MaskedTensor(values=<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], "
        "dtype=int32)>, mask=<tf.Tensor: shape=(3,), dtype=bool, numpy=array([ True, False,  "
        "True])>, name='m')")
    assert repr(mt._type_spec) == (
        "MaskedTensor.Spec(values=TensorSpec(shape=(3,), dtype=tf.int32, name=None), "
        "mask=TensorSpec(shape=(3,), dtype=tf.bool, name=None), name='m')")
    with pytest.raises(AttributeError, match='Cannot mutate attribute `values` outside the '
                                             'custom constructor of ExtensionType'):
        mt.values = 3
    assert bool(mt == mt)


def test_bad_construction_raises_as_tf():
    with pytest.raises(ValueError, match=r'Shapes \(2,\) and \(1,\) are incompatible'):
        MaskedTensor([1, 2], [True])
    with pytest.raises(TypeError, match="missing a required argument: 'mask'"):
        MaskedTensor(values=[1])


def test_traced_by_spec_through_functions_and_nest():
    @tf.function
    def f(m):
        return MaskedTensor(m.values * 2, m.mask, m.name)

    r = f(_mt())
    assert isinstance(r, MaskedTensor) and r.values.numpy().tolist() == [2, 4, 6]
    f(MaskedTensor([4, 5, 6], [False, False, True]))
    assert f.experimental_get_tracing_count() == 1
    flat = tf.nest.flatten(_mt(), expand_composites=True)
    assert [t.dtype for t in flat] == [tf.int32, tf.bool]
    spec = MaskedTensor.Spec(values=tf.TensorSpec([None], tf.int32),
                             mask=tf.TensorSpec([None], tf.bool), name='m')
    assert spec.is_compatible_with(_mt()._type_spec)

    @tf.function
    def g(m, flag):
        return tf.cond(flag, lambda: m, lambda: MaskedTensor(-m.values, m.mask, m.name))

    out = g(_mt(), tf.constant(False))
    np.testing.assert_array_equal(out.values.numpy(), [-1, -2, -3])
