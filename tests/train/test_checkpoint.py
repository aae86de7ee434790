"""tf.train.Checkpoint, CheckpointManager and the checkpoint readers. Expected keys and messages are
TensorFlow 2.21's, recorded by running the same programs under TF."""
import os

import numpy as np
import pytest

import defun as tf


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([in_features, out_features]), name='w')
        self.b = tf.Variable(tf.zeros([out_features]), name='b')

    def __call__(self, x):
        return tf.nn.relu(x @ self.w + self.b)


class Sequential(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(3, 3)
        self.dense_2 = Dense(3, 2)

    def __call__(self, x):
        return self.dense_2(self.dense_1(x))


class LazyDense(tf.Module):
    """Builds its Variables on the first call, as the modules guide's FlexibleDense does."""

    def __init__(self, units):
        super().__init__()
        self.units = units
        self.w = None

    def __call__(self, x):
        if self.w is None:
            self.w = tf.Variable(tf.ones([x.shape[-1], self.units]), name='w')
        return x @ self.w


def test_keys_follow_tensorflows_object_graph(tmp_path):
    # TF 2.21: tf.train.list_variables of the modules guide's checkpoint.
    path = tf.train.Checkpoint(model=Sequential()).write(str(tmp_path / 'my_checkpoint'))
    assert path == str(tmp_path / 'my_checkpoint')
    assert tf.train.list_variables(path) == [
        ('_CHECKPOINTABLE_OBJECT_GRAPH', []),
        ('model/dense_1/b/.ATTRIBUTES/VARIABLE_VALUE', [3]),
        ('model/dense_1/w/.ATTRIBUTES/VARIABLE_VALUE', [3, 3]),
        ('model/dense_2/b/.ATTRIBUTES/VARIABLE_VALUE', [2]),
        ('model/dense_2/w/.ATTRIBUTES/VARIABLE_VALUE', [3, 2])]


def test_round_trip_restores_values_and_outputs(tmp_path):
    model = Sequential()
    x = tf.constant([[2.0, 2.0, 2.0]])
    expected = model(x).numpy()
    path = tf.train.Checkpoint(model=model).write(str(tmp_path / 'ck'))
    fresh = Sequential()
    status = tf.train.Checkpoint(model=fresh).restore(path)
    status.assert_consumed().assert_existing_objects_matched().assert_nontrivial_match()
    np.testing.assert_array_equal(fresh(x).numpy(), expected)
    for a, b in zip(model.variables, fresh.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_shared_variable_is_saved_once_under_its_shortest_path(tmp_path):
    shared = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(a=tf.train.Checkpoint(deep=shared), b=shared)
    keys = [k for k, _ in tf.train.list_variables(ckpt.write(str(tmp_path / 'c')))]
    assert keys == ['_CHECKPOINTABLE_OBJECT_GRAPH', 'b/.ATTRIBUTES/VARIABLE_VALUE']


def test_names_with_dots_and_slashes_are_escaped_as_tf(tmp_path):
    ckpt = tf.train.Checkpoint()
    ckpt.mapped = {'a.b': tf.Variable(1.0), 'c/d': tf.Variable(2.0)}
    keys = [k for k, _ in tf.train.list_variables(ckpt.write(str(tmp_path / 'c')))]
    assert keys[1:] == ['mapped/a..b/.ATTRIBUTES/VARIABLE_VALUE',
                        'mapped/c.Sd/.ATTRIBUTES/VARIABLE_VALUE']


def test_lists_and_dicts_are_tracked(tmp_path):
    # The checkpoint guide's list/dict example.
    save = tf.train.Checkpoint()
    save.listed = [tf.Variable(1.)]
    save.listed.append(tf.Variable(2.))
    save.mapped = {'one': save.listed[0]}
    save.mapped['two'] = save.listed[1]
    save_path = save.save(str(tmp_path / 'tf_list_example'))
    restore = tf.train.Checkpoint()
    v2 = tf.Variable(0.)
    restore.mapped = {'two': v2}
    restore.restore(save_path)
    assert v2.numpy() == 2.0


def test_restore_before_variables_exist_is_deferred_until_they_are_created(tmp_path):
    model = LazyDense(2)
    x = tf.constant([[1.0, 2.0, 3.0]])
    model.w = None
    model(x)
    model.w.assign(tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]))
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / 'ckpt'))
    fresh = LazyDense(2)
    status = tf.train.Checkpoint(model=fresh).restore(path)
    with pytest.raises(AssertionError, match='Unresolved object in checkpoint'):
        status.assert_consumed()
    status.assert_existing_objects_matched()  # only what exists must match
    np.testing.assert_array_equal(fresh(x).numpy(), model(x).numpy())
    status.assert_consumed()


def test_deferred_restoration_reaches_nested_modules_created_later(tmp_path):
    holder = tf.Module()
    holder.inner = Sequential()
    path = tf.train.Checkpoint(holder=holder).write(str(tmp_path / 'c'))
    fresh = tf.Module()
    tf.train.Checkpoint(holder=fresh).restore(path)
    fresh.inner = Sequential()
    for a, b in zip(holder.variables, fresh.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_save_numbers_checkpoints_and_records_the_latest(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable([1., 2.]))
    prefix = str(tmp_path / 'ck')
    first, second = ckpt.save(prefix), ckpt.save(prefix)
    assert (first, second) == (prefix + '-1', prefix + '-2')
    assert ckpt.save_counter.numpy() == 2 and ckpt.save_counter.dtype == tf.int64
    assert tf.train.latest_checkpoint(str(tmp_path)) == second
    with open(tmp_path / 'checkpoint') as f:
        assert f.read().splitlines() == ['model_checkpoint_path: "ck-2"',
                                         'all_model_checkpoint_paths: "ck-2"']
    assert tf.train.latest_checkpoint(str(tmp_path / 'missing')) is None
    assert tf.train.list_variables(str(tmp_path)) == [
        ('_CHECKPOINTABLE_OBJECT_GRAPH', []), ('save_counter/.ATTRIBUTES/VARIABLE_VALUE', []),
        ('v/.ATTRIBUTES/VARIABLE_VALUE', [2])]
    np.testing.assert_array_equal(tf.train.load_variable(second, 'v/.ATTRIBUTES/VARIABLE_VALUE'),
                                  [1., 2.])


def test_restored_save_counter_continues_numbering(tmp_path):
    prefix = str(tmp_path / 'ck')
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    ckpt.save(prefix)
    path = ckpt.save(prefix)
    again = tf.train.Checkpoint(v=tf.Variable(0.0))
    again.restore(path).assert_consumed()
    assert again.save(prefix) == prefix + '-3'


def test_mismatches_raise_tf_errors_and_change_nothing(tmp_path):
    path = tf.train.Checkpoint(a=tf.Variable([1., 2.]), b=tf.Variable([3., 4.])).write(
        str(tmp_path / 'c'))
    a, b = tf.Variable([9., 9.]), tf.Variable([9., 9., 9.])
    with pytest.raises(ValueError, match=r'Received incompatible tensor with shape \(2,\) when '
                                         r'attempting to restore variable with shape \(3,\)'):
        tf.train.Checkpoint(a=a, b=b).restore(path)
    np.testing.assert_array_equal(a.numpy(), [9., 9.])  # nothing was assigned
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='expected dtype int32 does not equal original dtype float'):
        tf.train.Checkpoint(a=tf.Variable([1, 2])).restore(path)


def test_status_assertions_as_tf(tmp_path):
    path = tf.train.Checkpoint(v=tf.Variable(1.)).write(str(tmp_path / 'c'))
    status = tf.train.Checkpoint(w=tf.Variable(1.)).restore(path)
    with pytest.raises(AssertionError, match='Found 1 Python objects that were not bound'):
        status.assert_consumed()
    with pytest.raises(AssertionError, match='Found 1 Python objects that were not bound'):
        status.assert_existing_objects_matched()
    assert status.expect_partial() is status
    nothing = tf.train.Checkpoint(v=tf.Variable(0.)).restore(None)
    with pytest.raises(AssertionError, match='No checkpoint specified'):
        nothing.assert_consumed()


def test_bad_arguments_and_missing_files(tmp_path):
    with pytest.raises(ValueError, match='was expecting x to be a trackable object'):
        tf.train.Checkpoint(x=3)
    with pytest.raises(tf.errors.NotFoundError, match='Failed to find any matching files'):
        tf.train.Checkpoint(v=tf.Variable(1.)).restore(str(tmp_path / 'nope'))
    with pytest.raises(tf.errors.NotFoundError, match='Failed to find any matching files'):
        tf.train.list_variables(str(tmp_path / 'nope'))
    path = tf.train.Checkpoint(v=tf.Variable(1.)).write(str(tmp_path / 'c'))
    with pytest.raises(tf.errors.NotFoundError, match='Key nokey not found in checkpoint'):
        tf.train.load_variable(path, 'nokey')


@pytest.mark.parametrize('damage', ['truncate_index', 'garbage_index', 'truncate_data',
                                    'wrong_shape', 'pickle'])
def test_corrupt_files_raise_data_loss_and_change_nothing(tmp_path, damage):
    v = tf.Variable([1., 2.])
    path = tf.train.Checkpoint(v=v).write(str(tmp_path / 'c'))
    index, data = path + '.index', path + '.data-00000-of-00001'
    if damage == 'truncate_index':
        open(index, 'r+').truncate(10)
    elif damage == 'garbage_index':
        open(index, 'w').write('{"format": "defun-checkpoint", "version": 1, "nodes": 3}')
    elif damage == 'truncate_data':
        open(data, 'r+b').truncate(30)
    elif damage == 'wrong_shape':
        np.savez(open(data, 'wb'), a0=np.zeros(5, np.float32))
    else:
        np.savez(open(data, 'wb'), a0=np.array([object()], dtype=object))
    target = tf.Variable([7., 7.])
    with pytest.raises(tf.errors.DataLossError, match='not a valid defun checkpoint'):
        tf.train.Checkpoint(v=target).restore(path)
    np.testing.assert_array_equal(target.numpy(), [7., 7.])


def test_manager_rotates_and_recovers_its_state(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    directory = str(tmp_path / 'mgr')
    manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=2)
    assert manager.latest_checkpoint is None and manager.checkpoints == []
    paths = [manager.save() for _ in range(3)]
    assert paths == [os.path.join(directory, f'ckpt-{n}') for n in (1, 2, 3)]
    assert manager.checkpoints == paths[1:]
    assert sorted(os.listdir(directory)) == [
        'checkpoint', 'ckpt-2.data-00000-of-00001', 'ckpt-2.index',
        'ckpt-3.data-00000-of-00001', 'ckpt-3.index']
    assert manager.save(checkpoint_number=100) == os.path.join(directory, 'ckpt-100')
    again = tf.train.CheckpointManager(ckpt, directory, max_to_keep=2)
    assert again.checkpoints == [paths[2], os.path.join(directory, 'ckpt-100')]
    assert again.latest_checkpoint == tf.train.latest_checkpoint(directory)
    with pytest.raises(ValueError, match='max_to_keep'):
        tf.train.CheckpointManager(ckpt, directory, max_to_keep=0)


def test_manager_restore_or_initialize(tmp_path):
    v = tf.Variable(5.0)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), str(tmp_path), max_to_keep=3)
    calls = []
    assert manager.restore_or_initialize() is None
    path = manager.save()
    v.assign(0.0)
    restored = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), str(tmp_path), max_to_keep=3,
                                          init_fn=lambda: calls.append(1))
    assert restored.restore_or_initialize() == path and v.numpy() == 5.0 and not calls


def test_a_random_generator_checkpoints_its_state(tmp_path):
    # TF 2.21 keys a Generator's state as generator/_state_var/.ATTRIBUTES/VARIABLE_VALUE.
    g = tf.random.Generator.from_seed(1)
    path = tf.train.Checkpoint(generator=g).write(str(tmp_path / 'c'))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        '_CHECKPOINTABLE_OBJECT_GRAPH', 'generator/_state_var/.ATTRIBUTES/VARIABLE_VALUE']
    expected = g.normal([3]).numpy()
    other = tf.random.Generator.from_seed(7)
    tf.train.Checkpoint(generator=other).restore(path)
    np.testing.assert_array_equal(other.normal([3]).numpy(), expected)
