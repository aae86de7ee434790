"""The `tf.nn` namespace."""
