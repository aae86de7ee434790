"""The smoke subset (`pytest -m smoke`): a few modules per layer whose tests are quick, about a
minute on one process, for a first check after a change; the whole suite (`pytest -n 2`) remains
the test. A module is in it by its path here, so that the list can be read in one place."""
import os
import sys

import pytest

# DEFUN_TEST_WITHOUT_NUMBA=1 runs the suite as if the `jit` extra were not installed (numba cannot
# be imported, so jit_compile=True warns and runs the numpy tier): CI runs the suite both ways.
if os.environ.get('DEFUN_TEST_WITHOUT_NUMBA') == '1':
    sys.modules['numba'] = None

SMOKE = {
    # tensors, dtypes, ops, eager gradients
    'test_tensor.py', 'test_dtypes_shapes.py', 'test_math_operators.py', 'test_math_gradients.py',
    'test_tape.py', 'test_variables.py', 'test_module.py', 'test_nest.py', 'test_unsupported.py',
    # graphs and the code generator
    'graph/test_graph.py', 'graph/test_executor.py', 'graph/test_gradients.py',
    # tf.function and AutoGraph
    'function/test_tracing.py', 'function/test_compiled_gradients.py',
    'function/test_autograph_off.py', 'autograph/test_impl.py', 'autograph/test_converters.py',
    # control flow, tf.data, checkpoints and SavedModel, optimizers
    'control_flow/test_cond.py', 'control_flow/test_while.py', 'data/test_iteration.py',
    'train/test_checkpoint.py', 'saved_model/test_save_traces.py',
    'keras_optimizers/test_optimizers.py',
    # the layering rule and the code in README.md and docs/
    'test_import_graph.py', 'test_docs_run.py',
}
_HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_collection_modifyitems(config, items):
    for item in items:
        relative = os.path.relpath(str(item.path), _HERE).replace(os.sep, '/')
        if relative in SMOKE:
            item.add_marker(pytest.mark.smoke)
