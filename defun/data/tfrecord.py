"""tf.data.TFRecordDataset: the records of TFRecord files (defun/ops/io/records.py: TF's framing
and checksums, optionally GZIP or ZLIB compressed), as tf.string scalars, file after file."""
from defun.core import dtypes
from defun.core.shapes import TensorSpec
from defun.core.value_conversion import box_string
from defun.data.base import UNKNOWN, Dataset
from defun.data.sources import file_names_or_template, files_of, open_data_file
from defun.ops.io.records import compression_of, read_records

__all__ = ['TFRecordDataset']


class TFRecordDataset(Dataset):
    """The records of one or more TFRecord files."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        self._files, self._tensors = file_names_or_template(filenames, 'TFRecordDataset')
        self._compression = compression_of(compression_type, 'TFRecordDataset')
        self.element_spec = TensorSpec([], dtypes.string)
        self._cardinality = UNKNOWN

    def __repr__(self):
        return f'<TFRecordDatasetV2 element_spec={self.element_spec!r}>'

    def flat_iterator(self):
        for filename in files_of(self._files, self._tensors):
            with open_data_file(filename) as handle:
                for record in read_records(handle, self._compression, filename):
                    yield (box_string(record),)

