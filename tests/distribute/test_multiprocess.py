"""tf.distribute on 2 MPI ranks (`mpiexec -n 2` over loopback): the collectives, the input split,
variables starting from rank 0's values, collectives compiled into the traced step, and TF's custom
training loop ending equal to one process on the same global batches. Expected values of the
split are TF's (recorded with MirroredStrategy on two replicas)."""
import ipaddress
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

import defun as tf
from tests.distribute import mpi_launch, programs

pytest.importorskip('mpi4py')


@pytest.fixture(scope='module')
def two_ranks(tmp_path_factory):
    directory = str(tmp_path_factory.mktemp('ranks'))
    code, out, err = mpi_launch.run([mpi_launch.WORKER, 'basics', 'input', 'graph', 'train',
                                     'sockets'],
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
        assert r['slices'] == [[[1.0, 0.0], [2.0, 0.0]], [0, 1]]   # every rank's rows
        # d/dx of all_reduce(x*x): the summed output gradients (2) times 2x, as TF's.
        assert r['gradient'] == 4.0 * (rank + 1)


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
        assert r['loop_total'] == 45      # sum(range(10)), batches split and summed again


# The same program run by TensorFlow 2.21 (MirroredStrategy, one replica): its 20 summed losses
# and its tracing count.
TF_LOSSES = [0.7381744, 0.9902375, 1.0765312, 0.6066031, 0.5874746, 1.6572458, 1.4668363,
             1.0125599, 0.3353555, 0.6975209, 0.7122132, 0.3288796, 0.4024712, 1.2453134,
             1.1883429, 0.7788721, 0.209576, 0.5431424, 0.5578563, 0.193854]
TF_TRACES = 2


def test_training_on_two_ranks_equals_one_process(two_ranks):
    model, losses, step = programs.train(tf.distribute.MirroredStrategy(), 20, seed=0)
    expected = programs.weights(model)
    for rank in (0, 1):
        r = two_ranks[(rank, 'train')]
        for got, want in zip(r['weights'], expected):
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
        np.testing.assert_allclose(r['losses'], losses, rtol=0, atol=1e-5)
        np.testing.assert_allclose(r['losses'], TF_LOSSES, rtol=0, atol=1e-5)
        assert r['traces'] == step.experimental_get_tracing_count() == TF_TRACES


def _loopback(address):
    host = address[0]
    if ':' in host:     # an IPv6 address as /proc shows it: 4 words of 8 hex digits
        host = str(ipaddress.IPv6Address(bytes.fromhex(host.replace(':', ''))))
        mapped = ipaddress.IPv6Address(host).ipv4_mapped
        return host == '::1' or (mapped is not None and mapped.is_loopback)
    return ipaddress.IPv4Address(host).is_loopback


def test_ranks_talk_only_on_loopback(two_ranks):
    for rank in (0, 1):
        r = two_ranks[(rank, 'sockets')]
        assert r['sockets'], 'the ranks opened no socket: the check would prove nothing'
        for proto, local, remote in r['sockets']:
            if [proto, local, remote] in r['inherited']:
                continue   # the launcher's own listening socket, open before MPI started
            assert _loopback(local), (proto, local, remote)
            assert remote[1] == 0 or _loopback(remote), (proto, local, remote)


def test_a_failing_rank_ends_the_job(tmp_path):
    began = time.time()
    code, out, err = mpi_launch.run([mpi_launch.WORKER, 'fail'], timeout=60,
                                    DEFUN_TEST_RESULTS=str(tmp_path))
    assert code != 0 and 'rank failed on purpose' in err
    assert time.time() - began < 30      # launch, import and the abort: no wait for a timeout


def test_a_hung_rank_ends_the_job_after_the_collective_timeout(tmp_path):
    began = time.time()
    code, out, err = mpi_launch.run([mpi_launch.WORKER, 'hang'], timeout=60,
                                    DEFUN_TEST_RESULTS=str(tmp_path))
    assert code != 0 and 'not done after 1 s' in err
    assert time.time() - began < 50      # the hung rank sleeps 60 s: the timeout ended the job


def _resume(directory, results, ranks, kill_at=None):
    env = {'DEFUN_TEST_CKPT': str(directory), 'DEFUN_TEST_RESULTS': str(results)}
    if kill_at:
        env['DEFUN_TEST_KILL_AT'] = str(kill_at)
    if ranks > 1:
        code, _, err = mpi_launch.run([mpi_launch.WORKER, 'resume'], ranks=ranks, timeout=120,
                                      **env)
    else:   # plain python: no launcher, a world of one
        out = subprocess.run([sys.executable, mpi_launch.WORKER, 'resume'], timeout=120,
                             env=mpi_launch.environment(**env), capture_output=True, text=True)
        code, err = out.returncode, out.stderr
    return code, err, time.time()


def test_killed_rank_ends_the_job_and_a_relaunch_resumes(two_ranks, tmp_path):
    checkpoints, killed, resumed = tmp_path / 'ckpt', tmp_path / 'killed', tmp_path / 'resumed'
    for directory in (checkpoints, killed, resumed):
        directory.mkdir()
    code, err, ended = _resume(checkpoints, killed, 2, kill_at=12)
    assert code != 0
    assert ended - float((killed / 'killed_at').read_text()) < 10
    shutil.copytree(checkpoints, tmp_path / 'ckpt_for_one')
    code, err, _ = _resume(checkpoints, resumed, 2)
    assert code == 0, err
    uninterrupted = two_ranks[(0, 'train')]['weights']
    for rank in (0, 1):
        r = mpi_launch.results(str(resumed))[(rank, 'resume')]
        assert r['restored'] == 'ckpt-2' and r['start'] == 10
        for got, want in zip(r['weights'], uninterrupted):
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
    # The same checkpoint resumed by one process: each step is a mean over the same global batch.
    alone = tmp_path / 'alone'
    alone.mkdir()
    code, err, _ = _resume(tmp_path / 'ckpt_for_one', alone, 1)
    assert code == 0, err
    r = mpi_launch.results(str(alone))[(0, 'resume')]
    assert r['restored'] == 'ckpt-2' and r['start'] == 10
    model, _, _ = programs.train(tf.distribute.MirroredStrategy(), 20, seed=0)
    for got, want in zip(r['weights'], programs.weights(model)):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)


def test_checkpoints_are_written_once(two_ranks, tmp_path):
    checkpoints, results = tmp_path / 'ckpt', tmp_path / 'results'
    checkpoints.mkdir()
    results.mkdir()
    code, err, _ = _resume(checkpoints, results, 2)
    assert code == 0, err
    written = mpi_launch.results(str(results))
    assert written[(0, 'resume')]['writes'] == ['ckpt-1', 'ckpt-2', 'ckpt-3', 'ckpt-4']
    assert written[(1, 'resume')]['writes'] == []      # rank 1 waited for rank 0's writes
    assert sorted(os.listdir(checkpoints)) == [
        'checkpoint', 'ckpt-3.data-00000-of-00001', 'ckpt-3.index',
        'ckpt-4.data-00000-of-00001', 'ckpt-4.index']


def _guide_program(tmp_path):
    with open(os.path.join(mpi_launch.ROOT, 'docs', 'distribute.md')) as f:
        code = f.read().split('```python\n', 1)[1].split('```', 1)[0]
    script = tmp_path / 'train.py'
    script.write_text(code)
    return str(script)


def test_the_guide_runs_alike_on_one_process_and_two(tmp_path):
    script = _guide_program(tmp_path)
    alone = subprocess.run([sys.executable, script], cwd=tmp_path, timeout=120, text=True,
                           env=mpi_launch.environment(), capture_output=True)
    assert alone.returncode == 0, alone.stderr
    code, out, err = mpi_launch.run([script], cwd=str(tmp_path), timeout=120)
    assert code == 0, err
    assert alone.stdout.startswith('1 replica(s): ') and out.startswith('2 replica(s): ')
    assert alone.stdout.split(': ', 1)[1] == out.split(': ', 1)[1]


def test_the_example_runs_unchanged_under_mpiexec(tmp_path):
    pytest.importorskip('sklearn')
    example = os.path.join(mpi_launch.ROOT, 'examples', 'distributed_digits.py')
    code, out, err = mpi_launch.run([example, '--short', '--checkpoints', str(tmp_path / 'ck')],
                                    cwd=str(tmp_path), timeout=180)
    assert code == 0, err
    assert '2 replica(s); test accuracy' in out and out.count('test accuracy') == 1
    assert sorted(os.listdir(tmp_path / 'ck'))[0] == 'checkpoint'
