"""The `tf.io` namespace: TFRecord files, tf.train.Example parsing, tensor (de)serialization,
raw and CSV decoding, whole-file reads and writes, and `tf.io.gfile` (defun/ops/io/)."""
from defun.core import unsupported
from defun.ops.io import gfile  # noqa: F401
from defun.ops.io.features import (FixedLenFeature, FixedLenSequenceFeature,  # noqa: F401
                                   RaggedFeature, SparseFeature, VarLenFeature)
from defun.ops.io.parse_api import parse_example, parse_single_example  # noqa: F401
from defun.ops.io.sequence_parsing import (parse_sequence_example,  # noqa: F401
                                           parse_single_sequence_example)
from defun.ops.io.json_example import decode_json_example  # noqa: F401
from defun.ops.io.records import TFRecordOptions, TFRecordWriter  # noqa: F401
from defun.ops.io.serialization import *  # noqa: F401,F403
from defun.ops.io.encodings import *  # noqa: F401,F403
from defun.ops.image.codecs import (decode_png, decode_jpeg, decode_gif, decode_bmp,  # noqa: F401
                                    decode_image, encode_png, encode_jpeg, extract_jpeg_shape,
                                    is_jpeg)

__getattr__ = unsupported.missing_names(__name__, 'tf.io', {
    'decode_and_crop_jpeg': 'image codecs',
    'decode_proto': 'generic protocol buffers', 'encode_proto': 'generic protocol buffers',
    'serialize_many_sparse': 'sparse tensors',
    'serialize_sparse': 'sparse tensors', 'deserialize_many_sparse': 'sparse tensors'})
