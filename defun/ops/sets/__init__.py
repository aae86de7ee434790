"""Set operations along the last dimension of dense and sparse tensors (tf.sets)."""
