"""The behaviour Keras's TensorFlow backend relies on, checked on defun alone (no Keras): the
tensor base class and `__tf_tensor__`, tapes over variables of other libraries, attributes on
tensors, variable policies, smart_cond and the Trackable protocol. Values from TF 2.21."""
import numpy as np
import pytest

import defun as tf
from defun.tf_compat import tracking


class Wrapped(tf.__internal__.types.Tensor):
    """A tensor-like of another library, as Keras's Variable: a defun Variable inside, its dtype
    spelled as a string, converting through `__tf_tensor__`."""

    _should_act_as_resource_variable = True  # as Keras's: tapes treat it as a variable

    def __init__(self, value):
        self.value = tf.Variable(value)

    dtype = property(lambda self: self.value.dtype.name)
    shape = property(lambda self: self.value.shape)
    handle = property(lambda self: self.value.handle)

    def assign(self, value):
        return self.value.assign(value)

    def __tf_tensor__(self, dtype=None, name=None):
        return tf.convert_to_tensor(self.value, dtype=dtype, name=name)


def test_tf_tensor_protocol_and_is_tensor():
    w = Wrapped([1.0, 2.0])
    assert tf.is_tensor(w)
    assert tf.convert_to_tensor(w).numpy().tolist() == [1.0, 2.0]
    assert tf.add(w, 1.0).numpy().tolist() == [2.0, 3.0]
    assert tf.stack([w, w]).shape == (2, 2)


def test_tapes_take_such_variables_as_sources():
    w = Wrapped([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.convert_to_tensor(w) ** 2)
    assert tape.gradient(y, [w])[0].numpy().tolist() == [2.0, 4.0]
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(w)
        y = tf.reduce_sum(tf.convert_to_tensor(w) * 3.0)
    assert tape.gradient(y, w).numpy().tolist() == [3.0, 3.0]


def test_tensors_carry_python_attributes():
    t = tf.constant(1.0)
    t._keras_mask = 5
    assert t._keras_mask == 5

    @tf.function
    def f(x):
        y = x * 2.0
        y._keras_mask = 'mask'
        return y._keras_mask
    assert f(tf.constant(1.0)) == 'mask'


def test_variable_policies():
    assert [e.value for e in tf.VariableSynchronization] == [0, 1, 2, 3]
    assert [e.name for e in tf.VariableAggregation] == ['NONE', 'SUM', 'MEAN',
                                                         'ONLY_FIRST_REPLICA']
    v = tf.Variable(1.0)
    assert (v.constraint, v.synchronization, v.aggregation, v.trainable) == (
        None, tf.VariableSynchronization.AUTO, tf.VariableAggregation.NONE, True)
    v = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.SUM, constraint=tf.abs)
    assert not v.trainable and v.aggregation is tf.VariableAggregation.SUM
    assert v.constraint is tf.abs
    with pytest.raises(ValueError, match='ON_READ only for non-trainable'):
        tf.Variable(1.0, trainable=True, synchronization=tf.VariableSynchronization.ON_READ)
    with pytest.raises(ValueError, match='Argument `constraint` must be None or a callable'):
        tf.Variable(1.0, constraint=3)
    with pytest.raises(ValueError, match='Invalid variable aggregation mode: sum'):
        tf.Variable(1.0, aggregation='sum')


def test_smart_cond_runs_only_the_taken_branch_when_known():
    smart_cond = tf.__internal__.smart_cond.smart_cond
    assert smart_cond(True, lambda: 1, lambda: 2) == 1
    assert smart_cond(tf.constant(False), lambda: 1, lambda: 2) == 2

    @tf.function
    def f(p):
        return smart_cond(p, lambda: tf.constant(1), lambda: tf.constant(2))
    assert int(f(tf.constant(True))) == 1 and int(f(tf.constant(False))) == 2


def test_trackable_protocol():
    class Node(tf.__internal__.tracking.AutoTrackable):
        pass
    node, leaf = Node(), Node()
    node.child = leaf
    node.weights = [tf.Variable(1.0)]
    node.plain = 3
    children = node._trackable_children()
    assert list(children) == ['child', 'weights'] and children['child'] is leaf
    assert type(node.weights).__name__ == 'ListWrapper'
    del node.child
    assert list(node._trackable_children()) == ['weights']

    class Quiet(Node):
        @tf.__internal__.tracking.no_automatic_dependency_tracking
        def build(self):
            self.hidden = Node()
    quiet = Quiet()
    quiet.build()
    assert quiet._trackable_children() == {} and quiet._self_setattr_tracking
    with pytest.raises(ValueError, match='already declared as a dependency'):
        node._track_trackable(Node(), 'weights')
    assert tracking.is_trackable(leaf) and not tracking.is_trackable(3)


def test_reset_default_graph():
    graph = tf.compat.v1.get_default_graph()
    tf.compat.v1.reset_default_graph()
    assert tf.compat.v1.get_default_graph() is not graph
    with tf.Graph().as_default():
        with pytest.raises(AssertionError, match='nested graph'):
            tf.compat.v1.reset_default_graph()


def test_data_policies_for_keras():
    options = tf.data.Options()
    options.experimental_external_state_policy = tf.data.experimental.ExternalStatePolicy.IGNORE
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    ds = tf.data.Dataset.range(3).with_options(options)
    assert [int(x) for x in ds] == [0, 1, 2]
    assert tf.data.experimental.AutoShardPolicy.OFF == -1


def test_numpy_still_sees_tensors_as_arrays():
    assert np.asarray(tf.constant([1, 2])).tolist() == [1, 2]


def test_eager_set_shape_checks_compatibility():
    t = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    t.set_shape([2, None])
    with pytest.raises(ValueError, match=r"Tensor's shape \(2, 3\) is not compatible with "
                                         r'supplied shape \(3,\)\.'):
        t.set_shape([3])


class SavesAVariable(tracking.Trackable):
    """A Trackable of another library keeping a defun Variable, as Keras's variables do: it saves
    through TF's protocol (`_serialize_to_tensors` / `_restore_from_tensors`)."""

    def __init__(self, value):
        self.value = tf.Variable(value)

    def _serialize_to_tensors(self):
        return self.value._serialize_to_tensors()

    def _restore_from_tensors(self, restored_tensors):
        return self.value._restore_from_tensors(restored_tensors)


class Holder(tracking.AutoTrackable):
    def __init__(self):
        self.w = SavesAVariable([1.0, 2.0])
        self.parts = [SavesAVariable(3.0), tf.Variable(4.0)]


def test_checkpoints_walk_the_trackable_protocol_with_tfs_keys(tmp_path):
    holder = Holder()
    path = tf.train.Checkpoint(holder=holder).save(str(tmp_path / 'c'))
    assert [n for n, _ in tf.train.list_variables(path)] == [
        '_CHECKPOINTABLE_OBJECT_GRAPH', 'holder/parts/0/.ATTRIBUTES/VARIABLE_VALUE',
        'holder/parts/1/.ATTRIBUTES/VARIABLE_VALUE', 'holder/w/.ATTRIBUTES/VARIABLE_VALUE',
        'save_counter/.ATTRIBUTES/VARIABLE_VALUE']
    holder.w.value.assign([0.0, 0.0])
    fresh = Holder()
    tf.train.Checkpoint(holder=fresh).restore(path).assert_consumed()
    assert fresh.w.value.numpy().tolist() == [1.0, 2.0]
    assert fresh.parts[0].value.numpy() == 3.0 and fresh.parts[1].numpy() == 4.0
