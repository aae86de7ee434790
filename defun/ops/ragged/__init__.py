"""Ragged tensors: the RaggedTensor type (ragged_tensor.py), the row-partition work under it
(row_ops.py), and the tf.ragged ops."""
