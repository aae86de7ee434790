"""tf.nn op tables: activations, softmax and losses, convolution and pooling, and their compositions."""
