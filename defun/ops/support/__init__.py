"""What the op tables share: argument validation, dtype constraints, conversion and inference
helpers, convolution window geometry, and float32 libm functions."""
