"""tf.distribute on 2 MPI ranks (`mpiexec -n 2` over loopback): the collectives, the input split,
variables starting from rank 0's values, collectives compiled into the traced step, and TF's custom
training loop ending equal to one process on the same global batches. Expected values of the
split are TF's (recorded with MirroredStrategy on two replicas)."""
import numpy as np
import pytest

import defun as tf
from tests.distribute import mpi_launch, programs

pytest.importorskip('mpi4py')


@pytest.fixture(scope='module')
def two_ranks(tmp_path_factory):
    directory = str(tmp_path_factory.mktemp('ranks'))
    code, out, err = mpi_launch.run([mpi_launch.WORKER, 'basics', 'input', 'graph', 'train'],
                                    timeout=120, DEFUN_TEST_RESULTS=directory)
    assert code == 0, err
    return mpi_launch.results(directory)


def test_collectives_and_variables(two_ranks):
    for rank in (0, 1):
        r = two_ranks[(rank, 'basics')]
        assert r['world'] == 2 and r['task'] == ['worker', rank]
        assert r['variable'] == [1.0, 1.0, 1.0]         # rank 0's initial value on both
        assert r['all_reduce'] == [3.0, [1, 2]] and r['mean'] == 1.0
        assert r['reduce_sum'] == 4.0                   # sum([0, 1]) + sum([0, 1, 2])
        assert r['reduce_mean_axis'] == pytest.approx(0.8)   # over all 5 elements
        assert r['gather'] == [0.0, 1.0, 0.0, 1.0, 2.0]
        assert r['should_checkpoint'] == (rank == 0)


def test_input_is_split_as_tf_splits_it(two_ranks):
    # TF: range(7).batch(3) on two replicas gives [[0, 1], [3, 4], [6]] and [[2], [5], []].
    assert two_ranks[(0, 'input')]['split'] == [[0, 1], [3, 4], [6]]
    assert two_ranks[(1, 'input')]['split'] == [[2], [5], []]
    assert two_ranks[(0, 'input')]['from_function'] == [[0, 2], [4, 6]]
    assert two_ranks[(1, 'input')]['from_function'] == [[1, 3], [5, 7]]
    assert [two_ranks[(r, 'input')]['values'] for r in (0, 1)] == [1, 11]


def test_collectives_are_ops_of_the_compiled_step(two_ranks):
    for rank in (0, 1):
        r = two_ranks[(rank, 'graph')]
        # x*2 summed over ranks with x = rank + i: 2 * (2i + 1); three tensors, one exchange.
        assert [out[0] for out in r['outs']] == [2.0, 6.0, 10.0]
        assert [out[2] for out in r['outs']] == [1.0, 3.0, 5.0]
        assert r['traces'] == 1 and r['collectives_in_source'] == 1


def test_training_on_two_ranks_equals_one_process(two_ranks):
    model, _, _, losses, step = programs.train(tf.distribute.MirroredStrategy(), 20, seed=0)
    expected = programs.weights(model)
    for rank in (0, 1):
        r = two_ranks[(rank, 'train')]
        for got, want in zip(r['weights'], expected):
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
        np.testing.assert_allclose(r['losses'], losses, rtol=0, atol=1e-5)
        assert r['traces'] == step.experimental_get_tracing_count()
