"""`tf.distribute.experimental.CommunicationOptions` and `CommunicationImplementation`: how a
multi-worker strategy's collectives run. Of TF's options, `timeout_seconds` is the one that changes
what happens here: a collective not done in time ends the whole job (MPI cannot cancel one), so a
peer that hangs while alive cannot hang the others for ever. MPI picks its own algorithms and the
gradients of a step already travel in one buffer, so `bytes_per_pack` and the implementation (AUTO
or RING) are hints with nothing to choose; NCCL (GPUs) is not part of defun.
"""
import enum

from defun.core.unsupported import KNOWN_GAPS, NotInDefunError

__all__ = ['CommunicationImplementation', 'CommunicationOptions']


class CommunicationImplementation(enum.Enum):
    AUTO = 'AUTO'
    RING = 'RING'
    NCCL = 'NCCL'


class CommunicationOptions:
    """Options for the collectives of MultiWorkerMirroredStrategy."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None,
                 implementation=CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f'Argument `bytes_per_pack` must be >=0, Received {bytes_per_pack}.')
        if implementation is CommunicationImplementation.NCCL:
            raise NotInDefunError('CommunicationImplementation.NCCL (GPU collectives) is not part '
                                  f'of defun. See {KNOWN_GAPS}.')
        if timeout_seconds is not None and timeout_seconds <= 0:
            raise ValueError(f'Argument `timeout_seconds` must be positive, got {timeout_seconds}')
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation

    def __repr__(self):
        return (f'Options(bytes_per_pack={self.bytes_per_pack},timeout_seconds='
                f'{self.timeout_seconds}, implementation={self.implementation})')
