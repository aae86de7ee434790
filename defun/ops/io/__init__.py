"""tf.io op tables and formats: the protocol-buffer wire format (proto_wire.py) and the messages
built on it (example_proto.py: tf.train.Example and friends; tensor_proto.py: TensorProto), the
TFRecord framing (records.py), and the ops: parsing Examples, serialize_tensor/parse_tensor,
decode_raw, decode_csv, read_file/write_file."""
