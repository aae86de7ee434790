"""Stateful objects: Variable, the trackable containers checkpoints walk, tf.Module and
tf.random.Generator."""
