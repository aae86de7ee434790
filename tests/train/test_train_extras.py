"""tf.train.ExponentialMovingAverage, get_checkpoint_state, checkpoints_iterator and the option
holders. Expected values are TF 2.21's for the same calls."""
import numpy as np
import pytest

import defun as tf


def test_moving_average_follows_tfs_formula():
    v = tf.Variable(1.)
    ema = tf.train.ExponentialMovingAverage(0.9)
    assert ema.apply([v]) is None
    v.assign(3.)
    ema.apply([v])
    assert np.isclose(ema.average(v).numpy(), 0.9 * 1 + 0.1 * 3)
    assert ema.average(v).name == 'Variable/ExponentialMovingAverage:0'
    assert ema.name == 'ExponentialMovingAverage' and ema.average(tf.Variable(0.)) is None


def test_moving_average_with_num_updates_and_inside_a_function():
    v = tf.Variable(2.)
    ema = tf.train.ExponentialMovingAverage(0.99, num_updates=tf.Variable(0))

    @tf.function
    def update():
        ema.apply([v])

    update()
    v.assign(4.)
    update()
    assert np.isclose(ema.average(v).numpy(), 3.8)  # decay min(0.99, 1/10): 0.1*2 + 0.9*4
    with pytest.raises(TypeError, match='half, float, or double'):
        ema.apply([tf.Variable(1)])


def test_checkpoint_state_and_iterator(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.))
    ckpt.save(str(tmp_path / 'c'))
    latest = ckpt.save(str(tmp_path / 'c'))
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == latest
    assert state.all_model_checkpoint_paths == [latest]
    assert tf.train.get_checkpoint_state(str(tmp_path / 'none')) is None
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0.1)) == [latest]


def test_option_holders():
    assert tf.train.CheckpointOptions(experimental_io_device='/job:localhost') \
        .experimental_io_device == '/job:localhost'
    assert tf.saved_model.SaveOptions().function_aliases is None
    with pytest.raises(TypeError, match='unexpected keyword'):
        tf.saved_model.LoadOptions(bogus=1)
    assert tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY == 'serving_default'


def test_reader_object_graph_key_is_a_string_tensor(tmp_path):
    # TF 2.21: the shape and dtype maps both hold _CHECKPOINTABLE_OBJECT_GRAPH (shape [], string),
    # and get_tensor returns bytes for it (TF's are a protocol buffer, defun's JSON).
    path = tf.train.Checkpoint(v=tf.Variable(1.0)).write(str(tmp_path / 'c'))
    reader = tf.train.load_checkpoint(path)
    shapes, types = reader.get_variable_to_shape_map(), reader.get_variable_to_dtype_map()
    assert set(shapes) == set(types) == {'_CHECKPOINTABLE_OBJECT_GRAPH',
                                         'v/.ATTRIBUTES/VARIABLE_VALUE'}
    assert shapes['_CHECKPOINTABLE_OBJECT_GRAPH'] == [] and \
        types['_CHECKPOINTABLE_OBJECT_GRAPH'] == tf.string
    assert reader.has_tensor('_CHECKPOINTABLE_OBJECT_GRAPH')
    assert isinstance(reader.get_tensor('_CHECKPOINTABLE_OBJECT_GRAPH'), bytes)
