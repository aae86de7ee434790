"""Checkpoints of optimizers: slot variables keyed as TF 2.21's Keras 3 optimizers are
(`opt/_variables/N`, recorded from TF), restored into an optimizer whose slots do not exist yet
(delayed restoration), so that resuming gives the same next step as not stopping."""
import numpy as np
import pytest

import defun as tf


class Linear(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[0.5], [-1.0], [2.0]], name='w')
        self.b = tf.Variable([0.1], name='b')

    def __call__(self, x):
        return x @ self.w + self.b


X = tf.constant([[1., 2., 3.], [0., -1., 4.], [2., 2., -1.]])
Y = tf.constant([[1.], [0.], [2.]])


def _step(model, opt):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - Y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))


OPTIMIZERS = {
    'sgd_momentum': lambda: tf.optimizers.SGD(0.05, momentum=0.9, nesterov=True),
    'adam': lambda: tf.optimizers.Adam(0.1),
    'adamw': lambda: tf.optimizers.AdamW(0.1, weight_decay=0.01),
    'rmsprop': lambda: tf.optimizers.RMSprop(0.01, momentum=0.5, centered=True),
    'adagrad': lambda: tf.optimizers.Adagrad(0.1),
}


@pytest.mark.parametrize('make', OPTIMIZERS.values(), ids=OPTIMIZERS.keys())
def test_resuming_gives_the_same_next_step_as_not_stopping(tmp_path, make):
    model, opt = Linear(), make()
    for _ in range(3):
        _step(model, opt)
    path = tf.train.Checkpoint(model=model, opt=opt).save(str(tmp_path / 'ckpt'))
    _step(model, opt)
    fresh_model, fresh_opt = Linear(), make()
    status = tf.train.Checkpoint(model=fresh_model, opt=fresh_opt).restore(path)
    _step(fresh_model, fresh_opt)  # builds the slots, which take their saved values first
    status.assert_consumed()
    assert fresh_opt.iterations.numpy() == opt.iterations.numpy() == 4
    for a, b in zip(model.variables, fresh_model.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_adam_slot_keys_are_tfs(tmp_path):
    model, opt = Linear(), tf.optimizers.Adam(0.1)
    _step(model, opt)
    keys = [k for k, _ in tf.train.list_variables(
        tf.train.Checkpoint(model=model, opt=opt).write(str(tmp_path / 'c')))]
    # TF 2.21 for the same program: model variables under model/, Adam's iteration, learning rate
    # and (m, v) per variable under opt/_variables, found breadth first.
    assert keys == ['_CHECKPOINTABLE_OBJECT_GRAPH', 'model/b/.ATTRIBUTES/VARIABLE_VALUE',
                    'model/w/.ATTRIBUTES/VARIABLE_VALUE',
                    'opt/_iterations/.ATTRIBUTES/VARIABLE_VALUE',
                    'opt/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE',
                    'opt/_variables/2/.ATTRIBUTES/VARIABLE_VALUE',
                    'opt/_variables/3/.ATTRIBUTES/VARIABLE_VALUE',
                    'opt/_variables/4/.ATTRIBUTES/VARIABLE_VALUE',
                    'opt/_variables/5/.ATTRIBUTES/VARIABLE_VALUE']


def test_manager_checkpoints_a_training_loop(tmp_path):
    model, opt = Linear(), tf.optimizers.Adam(0.1)
    step = tf.Variable(1)
    ckpt = tf.train.Checkpoint(step=step, optimizer=opt, net=model)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=3)
    for _ in range(50):
        _step(model, opt)
        step.assign_add(1)
        if int(step) % 10 == 0:
            manager.save()
    assert [p.rsplit('-', 1)[1] for p in manager.checkpoints] == ['3', '4', '5']
    fresh = tf.train.Checkpoint(step=tf.Variable(1), optimizer=tf.optimizers.Adam(0.1),
                                net=Linear())
    fresh.restore(manager.latest_checkpoint)
    assert int(fresh.step) == 50
