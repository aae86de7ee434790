"""Sparse tensors: the SparseTensor type (sparse_tensor.py) and the tf.sparse ops on it."""
