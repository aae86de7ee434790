"""`tf.train`: checkpoints of trackable objects (Checkpoint, CheckpointManager, and the readers)."""
from defun.train.checkpoint import Checkpoint, CheckpointLoadStatus  # noqa: F401
from defun.train.checkpoint_management import (CheckpointManager, CheckpointReader,  # noqa: F401
                                               list_variables, load_variable, load_checkpoint)
from defun.train.checkpoint_state import latest_checkpoint  # noqa: F401

__all__ = ['Checkpoint', 'CheckpointLoadStatus', 'CheckpointManager', 'CheckpointReader',
           'list_variables', 'load_variable', 'load_checkpoint', 'latest_checkpoint']
