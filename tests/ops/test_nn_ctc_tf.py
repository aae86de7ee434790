"""tf.nn.ctc_loss and ctc_greedy_decoder against values recorded from TensorFlow 2.21
(data/nn_ctc_ref.npz, made by nn_ctc_cases.py): losses, gradients and decodings, eagerly and
traced; and TF's refusals."""
import numpy as np
import pytest

import defun as tf
from defun.core import errors
from tests.ops import nn_ctc_cases

REF = np.load(nn_ctc_cases.DATA)
INPUTS = {k[3:]: REF[k] for k in REF.files if k.startswith('in_')}
CASES = nn_ctc_cases.all_cases(tf, INPUTS)


@pytest.mark.parametrize('name', sorted(CASES))
def test_values_and_gradient_match_tf(name):
    fn, with_grad, x = CASES[name]
    outs, grad = nn_ctc_cases.run(tf, fn, x, with_grad, name)
    for i, o in enumerate(outs):
        np.testing.assert_allclose(o, REF[f'val_{name}_{i}'], rtol=1e-5, atol=1e-4)
    if with_grad:
        np.testing.assert_allclose(grad, REF[f'grad_{name}'], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize('name', ['dense_blank_mid', 'sparse_blank_mid', 'greedy'])
def test_traced_values_match_tf(name):
    fn, _, x = CASES[name]
    outs = tf.function(fn)(tf.constant(x))
    outs = outs if isinstance(outs, tuple) else (outs,)
    for i, o in enumerate(outs):
        np.testing.assert_allclose(o.numpy(), REF[f'val_{name}_{i}'], rtol=1e-5, atol=1e-4)


def test_loss_shape_known_in_a_graph():
    f = tf.function(lambda x, y: tf.nn.ctc_loss(y, x, [2, 2], [3, 3]))
    concrete = f.get_concrete_function(tf.TensorSpec([3, 2, None]), tf.TensorSpec([2, 2], tf.int32))
    assert concrete.outputs[0].shape.as_list() == [2]


def test_refusals_as_tf():
    logits = tf.constant(INPUTS['logits'])
    sparse = tf.sparse.from_dense(tf.constant([[1, 2]]))
    with pytest.raises(ValueError, match='blank_index'):          # TF: a ValueError
        tf.nn.ctc_loss(sparse, logits[:, :1], None, [6])
    with pytest.raises(ValueError):                              # dense labels need lengths
        tf.nn.ctc_loss(tf.constant([[1, 2]]), logits[:, :1], None, [6])
    with pytest.raises(errors.InvalidArgumentError, match='Not enough time'):   # TF's CTCLoss op
        tf.nn.ctc_loss(tf.sparse.from_dense(tf.constant([[1, 1, 1, 1]])), logits[:3, :1], None,
                       [3], blank_index=-1)


def test_no_second_derivative_as_tf():
    x = tf.constant(INPUTS['logits'])
    sparse = tf.sparse.from_dense(tf.constant([[1, 2], [3, 1], [2, 2]]))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            loss = tf.reduce_sum(tf.nn.ctc_loss(sparse, x, None, [6, 6, 6], blank_index=-1))
        g = inner.gradient(loss, x)
    with pytest.raises(LookupError, match='second'):
        outer.gradient(g, x)
