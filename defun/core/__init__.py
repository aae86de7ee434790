"""The bottom layer: dtypes, shapes, tensors, the one context of mutable state, the op registry and
the one dispatch point, nested structures, errors and names. It imports nothing above itself."""
