"""The ops every table builds on (identity, cast, shape, reshape, sum_to...), the ops that run user
Python (py_function, stop_gradient) and the variable read/assign ops."""
