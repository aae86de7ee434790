"""tf.lookup: immutable tables from keys to values (tables.py), looked up by one op."""
