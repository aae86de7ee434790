"""The MPI engine: the collectives of engine.Engine on MPI through mpi4py (the `defun[mpi]` extra).

mpi4py is imported when a launcher started the process, not when defun is imported: importing it
initializes MPI, which a single-process run should not pay for. Arrays travel as MPI buffers (no
pickling), in the dtype they have, except float16, which MPI has no sum for and travels as float32.

A rank that fails must not leave the others waiting in a collective: the engine installs an
exception hook that prints the traceback and calls MPI_Abort, which ends every rank (a rank that
is killed outright is seen by the launcher, which ends the others). See docs/distribute.md.
"""
import importlib
import sys

import numpy as np

from defun.distribute.engine import Engine

__all__ = ['MPIEngine', 'load_mpi']

INSTALL_HINT = "pip install 'defun[mpi]'"


def load_mpi():
    """mpi4py's MPI module (initializing MPI), or an ImportError saying how to install it."""
    try:
        # Imported here, once a launcher started us: the import is what initializes MPI.
        return importlib.import_module('mpi4py.MPI')
    except ImportError as exc:
        raise ImportError(
            'This process was started by an MPI launcher (mpiexec, srun) with more than one '
            f'process, and running across processes needs mpi4py and an MPI: {INSTALL_HINT} '
            f'(or mpi4py built against the cluster\'s MPI). ({exc})') from exc


class MPIEngine(Engine):
    """The engine on MPI_COMM_WORLD (duplicated, so no other library's messages mix in)."""

    name = 'mpi'

    def __init__(self, mpi=None):
        self._mpi = load_mpi() if mpi is None else mpi
        self._comm = self._mpi.COMM_WORLD.Dup()
        self.rank = self._comm.Get_rank()
        self.world_size = self._comm.Get_size()
        self._ops = {'sum': self._mpi.SUM, 'max': self._mpi.MAX, 'min': self._mpi.MIN}
        install_abort_on_exception(self)

    def allreduce(self, array, op):
        sent, dtype = _sendable(array)
        received = np.empty_like(sent)
        self._comm.Allreduce(sent, received, op=self._ops[op])
        return received.astype(dtype, copy=False)

    def allgather(self, array):
        sent, dtype = _sendable(array)
        rows = np.empty(self.world_size, np.int64)
        self._comm.Allgather(np.array([sent.shape[0] if sent.ndim else 1], np.int64), rows)
        row_size = int(np.prod(sent.shape[1:], dtype=np.int64))
        counts = rows * row_size
        received = np.empty((int(rows.sum()),) + sent.shape[1:], sent.dtype)
        self._comm.Allgatherv(sent, [received, counts])
        return received.astype(dtype, copy=False)

    def broadcast(self, array, root=0):
        sent, dtype = _sendable(array)
        buffer = np.array(sent, copy=True)
        self._comm.Bcast(buffer, root=root)
        return buffer.astype(dtype, copy=False)

    def barrier(self):
        self._comm.Barrier()

    def abort(self, code=1):
        self._comm.Abort(code)

    def __repr__(self):
        return f'<MPIEngine rank {self.rank} of {self.world_size}>'


def _sendable(array):
    """A C-contiguous array MPI can reduce, and the dtype to give the result back in."""
    array = np.asarray(array)
    dtype = array.dtype
    if dtype == np.float16:
        array = array.astype(np.float32)
    elif dtype == np.bool_:
        array = array.astype(np.uint8)  # summed, then read back as bool: a logical or
    return np.require(array, requirements='C'), dtype   # (ascontiguousarray makes 0-d 1-d)


def install_abort_on_exception(engine):
    """Makes an uncaught exception print its traceback, then abort the whole MPI job: otherwise
    the failing rank would wait in MPI_Finalize and the others in their next collective."""
    previous = sys.excepthook

    def abort_job(kind, value, traceback):
        previous(kind, value, traceback)
        sys.stderr.flush()
        engine.abort(1)
    sys.excepthook = abort_job
