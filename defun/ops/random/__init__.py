"""tf.random op tables: stateful and stateless draws, and TF's Philox bit generator."""
