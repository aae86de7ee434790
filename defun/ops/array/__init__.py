"""Array op tables: creating, joining, reshaping, indexing, gathering and sorting tensors, and the
buffer ops behind TensorArray."""
