"""Launching test programs on several MPI ranks: `mpiexec` from the mpich wheel (the `defun[mpi]`
extra), every rank pinned to the loopback interface, every launch under a timeout, and the launch's
process group ended by its id when a test is done with it."""
import json
import os
import shutil
import signal
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKER = os.path.join(ROOT, 'tests', 'distribute', 'mpi_worker.py')

# MPI over loopback only: Hydra's control connections, libfabric's TCP provider, and UCX (the
# mpich wheel's transport, which otherwise listens on the external interface).
LOOPBACK = {'HYDRA_IFACE': 'lo', 'FI_TCP_IFACE': 'lo', 'UCX_NET_DEVICES': 'lo'}


def mpiexec_path():
    """mpiexec beside this Python (the mpich wheel's), else on PATH; skips without mpi4py."""
    pytest.importorskip('mpi4py')
    beside = os.path.join(os.path.dirname(sys.executable), 'mpiexec')
    found = beside if os.path.exists(beside) else shutil.which('mpiexec')
    if found is None:
        pytest.skip('no mpiexec (pip install mpich)')
    return found


def environment(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(('PMI_', 'OMPI_', 'PMIX_', 'SLURM_'))}
    env.update(LOOPBACK, PYTHONPATH=ROOT, OPENBLAS_NUM_THREADS='1', **extra)
    return env


def start(args, ranks=2, cwd=None, **extra_env):
    """Popen of `mpiexec -n ranks python args...` in a new process group."""
    command = [mpiexec_path(), '-n', str(ranks), sys.executable] + list(args)
    return subprocess.Popen(command, cwd=cwd, env=environment(**extra_env), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def finish(process, timeout):
    """(returncode, stdout, stderr) of `process` within `timeout` seconds; on timeout its whole
    process group (mpiexec and the ranks it started) is killed by the group's id, and the test
    fails."""
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        end_group(process)
        out, err = process.communicate()
        pytest.fail(f'mpiexec did not finish within {timeout} s\nstdout:\n{out}\nstderr:\n{err}')
    end_group(process)
    return process.returncode, out, err


def end_group(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)   # the group we started: mpiexec and its ranks
    except ProcessLookupError:
        pass


def run(args, ranks=2, timeout=60, cwd=None, **extra_env):
    return finish(start(args, ranks, cwd, **extra_env), timeout)


def results(directory):
    """{(rank, check): result} from the JSON lines each rank of the worker wrote in `directory`."""
    found = {}
    for name in os.listdir(directory):
        rank = int(name[len('rank'):-len('.jsonl')])
        with open(os.path.join(directory, name)) as f:
            for line in f:
                check, result = json.loads(line)
                found[(rank, check)] = result
    return found
