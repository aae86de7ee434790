"""tf.strings op tables: elementwise and reducing ops on byte-string tensors (string_ops.py),
number and text formatting (formatting.py), TF's exact string hashes (hashing.py, on the pure
hash functions of fingerprints.py)."""
