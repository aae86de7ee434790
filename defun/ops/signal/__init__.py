"""tf.signal op tables: framing."""
