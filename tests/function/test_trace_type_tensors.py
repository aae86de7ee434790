"""A TraceType whose values carry tensors (TF's flatten / to_tensors / from_tensors): calls feed
the tensors, the trace receives a value rebuilt from placeholders, and any value of the same type
reuses the trace (what tf.data's Dataset and Iterator arguments rely on)."""
import defun as tf
from defun.functions.trace_types import TraceType


class PairType(TraceType):
    def __init__(self, dtype):
        self.dtype = dtype

    def is_subtype_of(self, other):
        return self == other

    def most_specific_common_supertype(self, others):
        return self if all(o == self for o in others) else None

    def placeholder_value(self, placeholder_context):
        raise AssertionError('rebuilt from tensors instead')

    def flatten(self):
        return [tf.TensorSpec([], self.dtype), tf.TensorSpec([], self.dtype)]

    def to_tensors(self, value):
        return [value.a, value.b]

    def from_tensors(self, tensors):
        return Pair(next(tensors), next(tensors))

    def __eq__(self, other):
        return type(other) is PairType and other.dtype == self.dtype

    def __hash__(self):
        return hash(self.dtype)


class Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def __tf_tracing_type__(self, context):
        return PairType(self.a.dtype)


def test_tensor_carrying_trace_type():
    @tf.function
    def total(p):
        return p.a * 10 + p.b
    assert int(total(Pair(tf.constant(1), tf.constant(2)))) == 12
    assert int(total(Pair(tf.constant(3), tf.constant(4)))) == 34
    assert total.experimental_get_tracing_count() == 1
    assert float(total(Pair(tf.constant(1.), tf.constant(2.)))) == 12.
    assert total.experimental_get_tracing_count() == 2
