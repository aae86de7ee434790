"""The `tf.debugging` namespace."""
