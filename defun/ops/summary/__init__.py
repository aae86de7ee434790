"""tf.summary: event files for TensorBoard (event_files.py) and the summary ops (summary_ops.py)."""
