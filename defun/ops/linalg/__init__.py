"""tf.linalg op tables: products, decompositions, diagonals, norms and Cholesky-based solves."""
