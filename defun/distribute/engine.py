"""The collective engine behind the strategies: what a process needs from its peers (its rank, the
world size, allreduce, allgather, broadcast, barrier, abort), as one small interface.

`Engine` is that interface; `LocalEngine` is a world of one process (every collective returns its
input); `mpi_engine.MPIEngine` runs on MPI through mpi4py. A strategy gets its engine from
launcher.engine_for_process(). Another backend (torchrun's rendezvous, gloo) only needs a subclass
and a line there; the strategies never look past this interface.

Engines work on numpy arrays: the collective ops (collective_ops.py) call them from their kernels.
"""
import os

import numpy as np

__all__ = ['Engine', 'LocalEngine']

class Engine:
    """What the strategies use of a collective backend. `rank` is this process's index in
    [0, world_size); every collective must be called by all processes in the same order."""

    name = 'abstract'
    rank = 0
    world_size = 1

    def allreduce(self, array, op):
        """The elementwise `op` ('sum', 'max' or 'min') of `array` over all processes."""
        raise NotImplementedError

    def allgather(self, array):
        """Every process's `array` (their first dimension may differ), concatenated on axis 0
        in rank order."""
        raise NotImplementedError

    def broadcast(self, array, root=0):
        """Process `root`'s `array` (every process passes one of the same shape and dtype)."""
        raise NotImplementedError

    def barrier(self):
        """Returns once every process has called it."""
        raise NotImplementedError

    def abort(self, code=1):
        """Ends every process of the job with exit status `code` (a failed rank must not leave
        the others waiting in a collective)."""
        raise NotImplementedError


class LocalEngine(Engine):
    """A world of one process: every collective is its own input."""

    name = 'local'

    def allreduce(self, array, op):
        return np.array(array, copy=True)

    def allgather(self, array):
        return np.array(array, copy=True)

    def broadcast(self, array, root=0):
        if root != 0:
            raise ValueError(f'broadcast: root {root} is not a rank of a world of 1 process')
        return np.array(array, copy=True)

    def barrier(self):
        return None

    def abort(self, code=1):
        os._exit(code)  # as MPI_Abort does: no cleanup, the job ends now

    def __repr__(self):
        return '<LocalEngine rank 0 of 1>'
