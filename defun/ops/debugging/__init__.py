"""tf.debugging op tables: element-wise asserts, structural checks, check_numerics, Assert, print."""
