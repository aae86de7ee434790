"""Checkpointing a dataset iterator's position. Expected sequences recorded with TensorFlow 2.21
(/work/tfenv/bin/python)."""
import pytest

import defun as tf


def test_the_data_guides_iterator_checkpoint(tmp_path):
    iterator = iter(tf.data.Dataset.range(20))
    ckpt = tf.train.Checkpoint(step=tf.Variable(0), iterator=iterator)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=3)
    assert [int(next(iterator)) for _ in range(5)] == [0, 1, 2, 3, 4]
    manager.save()
    assert [int(next(iterator)) for _ in range(5)] == [5, 6, 7, 8, 9]
    ckpt.restore(manager.latest_checkpoint)
    assert [int(next(iterator)) for _ in range(5)] == [5, 6, 7, 8, 9]  # TF 2.21
    keys = [k for k, _ in tf.train.list_variables(str(tmp_path))]
    assert 'iterator/.ATTRIBUTES/ITERATOR_STATE' in keys


def test_position_counts_elements_taken_inside_compiled_functions(tmp_path):
    iterator = iter(tf.data.Dataset.range(20))
    ckpt = tf.train.Checkpoint(iterator=iterator)

    @tf.function
    def step(it):
        return next(it)

    assert [int(next(iterator)) for _ in range(3)] == [0, 1, 2]
    assert [int(step(iterator)), int(step(iterator))] == [3, 4]
    path = ckpt.write(str(tmp_path / 'c'))
    assert [int(next(iterator)) for _ in range(2)] == [5, 6]
    ckpt.read(path)
    assert int(next(iterator)) == 5  # TF 2.21


def test_a_new_iterator_restored_at_the_end_is_exhausted(tmp_path):
    first = iter(tf.data.Dataset.range(3))
    for _ in range(3):
        next(first)
    path = tf.train.Checkpoint(iterator=first).write(str(tmp_path / 'd'))
    second = iter(tf.data.Dataset.range(3))
    tf.train.Checkpoint(iterator=second).read(path).assert_existing_objects_matched()
    assert list(second) == []  # TF 2.21


def test_restored_pipeline_continues_with_the_same_elements(tmp_path):
    ds = tf.data.Dataset.range(10).map(lambda x: x * 2).batch(3)
    first = iter(ds)
    next(first)
    path = tf.train.Checkpoint(iterator=first).write(str(tmp_path / 'e'))
    second = iter(ds)
    tf.train.Checkpoint(iterator=second).read(path)
    assert next(second).numpy().tolist() == next(first).numpy().tolist() == [6, 8, 10]


def test_an_iterator_is_a_checkpoint_dependency_only_eagerly():
    with pytest.raises(ValueError, match='trackable'):
        tf.train.Checkpoint(iterator=iter([1, 2]))
