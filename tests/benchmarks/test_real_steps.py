"""benchmarks/real_steps.py without the timing: every real-step workload trains a few steps in defun
and in its hand-written numpy floor from the same weights, and the losses agree (which is what makes
the benchmark's ratios honest); one interleaved round runs and the table prints. With
$DEFUN_BENCH_TF_PYTHON naming an interpreter with TensorFlow, TF's worker takes part too."""
import os
import sys

import numpy as np
import pytest

pytest.importorskip('sklearn')
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'benchmarks'))
import real_steps  # noqa: E402
import steps_data  # noqa: E402


@pytest.fixture(scope='module')
def arrays():
    return steps_data.make_arrays()


@pytest.mark.parametrize('name', real_steps.NAMES)
def test_defun_and_numpy_steps_compute_the_same_losses(arrays, name):
    found = real_steps.losses(arrays, name)
    real_steps.check_losses(found)
    # Training moves the loss: the steps really update the weights.
    assert found['numpy'][0] != found['numpy'][-1]
    assert np.isfinite(found['defun']).all()


def test_a_mismatch_is_reported():
    with pytest.raises(AssertionError, match='defun losses'):
        real_steps.check_losses({'numpy': [1.0, 0.5], 'defun': [1.0, 0.6]})


def test_one_round_makes_a_table(arrays):
    samples = real_steps.measure(arrays, 'mlp', rounds=1, min_time=0)
    assert set(samples) == {'numpy', 'defun'} and all(len(s) == 1 for s in samples.values())
    text = real_steps.table({'mlp': samples})
    assert real_steps.TITLES['mlp'] in text and text.count('\n') == 2


@pytest.mark.skipif(not os.environ.get('DEFUN_BENCH_TF_PYTHON'),
                    reason='no TensorFlow interpreter named in $DEFUN_BENCH_TF_PYTHON')
def test_tensorflow_worker_agrees(arrays):
    worker = real_steps.TFWorker(os.environ['DEFUN_BENCH_TF_PYTHON'], arrays, threads=1)
    try:
        for name in real_steps.NAMES:
            real_steps.check_losses(real_steps.losses(arrays, name, worker))
    finally:
        worker.close()


def test_jit_side_computes_the_same_losses_and_is_tabled(arrays):
    pytest.importorskip('numba')
    for name in real_steps.NAMES:
        found = real_steps.losses(arrays, name, jit=True)
        real_steps.check_losses(found)
        assert set(found) == {'numpy', 'defun', 'defun+jit'}
    samples = real_steps.measure(arrays, 'mlp', rounds=1, min_time=0, jit=True)
    text = real_steps.table({'mlp': samples})
    assert '| defun+jit |' in text and 'defun+jit / defun' in text
