"""How this process was started: under an MPI launcher (`mpiexec`, `srun`) a strategy gets the MPI
engine, otherwise a world of one, so the same script runs as `python train.py` and under
`mpiexec -n 4 python train.py`."""
import os

from defun.distribute import mpi_engine
from defun.distribute.engine import LocalEngine

__all__ = ['launched_world_size', 'engine_for_process']

# Each launcher's environment variable for the number of processes it started (MPICH's Hydra,
# Open MPI, MVAPICH, Slurm's srun; PMIx launchers also set one of the first two).
LAUNCHER_WORLD_VARIABLES = ('PMI_SIZE', 'OMPI_COMM_WORLD_SIZE', 'MV2_COMM_WORLD_SIZE',
                            'SLURM_STEP_NUM_TASKS')


def launched_world_size(environ=None):
    """The number of processes a launcher started this one among, or None without a launcher."""
    environ = os.environ if environ is None else environ
    for variable in LAUNCHER_WORLD_VARIABLES:
        value = environ.get(variable)
        if value and value.isdigit():
            return int(value)
    return None


def engine_for_process(environ=None):
    """The engine of this process: MPI's when a launcher started more than one process, else a
    world of one (mpi4py is not imported then)."""
    world = launched_world_size(environ)
    if world is None or world == 1:
        return LocalEngine()
    return mpi_engine.MPIEngine()
