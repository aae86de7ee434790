"""`tf.train`: checkpoints of trackable objects (Checkpoint, CheckpointManager, and the readers)."""
from defun.train.checkpoint import Checkpoint, CheckpointLoadStatus  # noqa: F401
from defun.train.checkpoint_management import (  # noqa: F401
    CheckpointManager, CheckpointReader, CheckpointState, list_variables, load_variable,
    load_checkpoint, get_checkpoint_state, checkpoints_iterator)
from defun.train.moving_averages import ExponentialMovingAverage  # noqa: F401
from defun.train.options import CheckpointOptions  # noqa: F401
from defun.train.checkpoint_state import latest_checkpoint  # noqa: F401
from defun.train.views import CheckpointView, TrackableView  # noqa: F401
from defun.ops.io.example_proto import (  # noqa: F401  (the tf.train.Example protos)
    BytesList, Example, Feature, FeatureList, FeatureLists, Features, FloatList, Int64List,
    SequenceExample)

__all__ = ['Checkpoint', 'CheckpointLoadStatus', 'CheckpointManager', 'CheckpointReader',
           'CheckpointState', 'list_variables', 'load_variable', 'load_checkpoint',
           'latest_checkpoint', 'get_checkpoint_state', 'checkpoints_iterator',
           'ExponentialMovingAverage', 'CheckpointOptions', 'BytesList', 'Example', 'Feature',
           'FeatureList', 'FeatureLists', 'Features', 'FloatList', 'Int64List', 'SequenceExample',
           'CheckpointView', 'TrackableView']
