"""Registry-driven op tests: every registered op is run against numpy, its graph-mode shape/dtype
inference is checked against the eager result, and its gradient against finite differences (first
and second order, float64). Specs live in tests/ops/specs_*.py."""
import importlib
import pathlib

import numpy as np
import pytest

import defun as tf
from defun.core import nest, registry
from defun.autodiff import gradient_check as testing
from defun.core.tensor import EagerTensor

SPEC_FILES = sorted(p.stem for p in pathlib.Path(__file__).parent.glob('specs_*.py'))
SPECS = [s for name in SPEC_FILES for s in importlib.import_module(f'tests.ops.{name}').SPECS]

# Op types whose behaviour needs state or structure a spec cannot express; each names its tests.
TESTED_ELSEWHERE = {
    'ReadVariableOp': 'tests/test_variables.py',
    'ImageProjectiveTransformV3': 'tests/image/test_projective_transform.py (values recorded from TF)',
    'DecodeJSONExample': 'tests/io/test_sequence_examples.py (bytes recorded from TF)',
    'ParseSequenceExampleV2': 'tests/io/test_sequence_examples.py (values recorded from TF)',
    'MutableHashTableInsert': 'tests/strings/test_mutable_tables.py',
    'MutableHashTableRemove': 'tests/strings/test_mutable_tables.py',
    'DenseHashTableInsert': 'tests/strings/test_mutable_tables.py (buckets recorded from TF)',
    'DenseHashTableRemove': 'tests/strings/test_mutable_tables.py',
    'DenseHashTableFind': 'tests/strings/test_mutable_tables.py',
    'MakeDataset': 'tests/data/test_in_function.py (datasets built from graph tensors)',
    'IteratorCreate': 'tests/data/test_in_function.py',
    'DatasetCardinality': 'tests/data/test_in_function.py (len and cardinality of arguments)',
    'IteratorGetNext': 'tests/data/test_in_function.py (explicit iterators)',
    'IteratorGetNextAsOptional': 'tests/data/test_in_function.py (for loops over datasets)',
    'IteratorGetNextAsOptionalVariant': 'tests/data/test_optional.py (get_next_as_optional)',
    'OptionalFromValue': 'tests/data/test_optional.py',
    'OptionalNone': 'tests/data/test_optional.py',
    'OptionalHasValue': 'tests/data/test_optional.py',
    'OptionalGetValue': 'tests/data/test_optional.py (values and gradients recorded from TF)',
    'AssignVariableOp': 'tests/test_variables.py',
    'AssignAddVariableOp': 'tests/test_variables.py',
    'AssignSubVariableOp': 'tests/test_variables.py',
    'SumToShape': 'every broadcasting gradient in this file',
    'ReducedShape': 'tests/graph/test_gradients.py (reductions of unknown shape)',
    'Const': 'tests/graph/test_graph.py',
    'Placeholder': 'tests/graph/test_graph.py',
    'PartitionedCall': 'tests/function/test_compiled_gradients.py',
    'StatefulPartitionedCall': 'tests/function/test_compiled_gradients.py',
    'CustomGradient': 'tests/function/test_compiled_gradients.py, tests/test_custom_gradient.py',
    'EagerPyFunc': 'tests/function/test_compiled_gradients.py',
    'PyFunc': 'tests/function/test_compiled_gradients.py',
    'RandomStandardNormal': 'tests/test_random.py (statistics, seeding, graph mode)',
    'RandomUniform': 'tests/test_random.py',
    'RandomUniformInt': 'tests/test_random.py',
    'RandomShuffle': 'tests/test_random.py',
    'TruncatedNormal': 'tests/test_random.py',
    'Multinomial': 'tests/test_random.py',
    'RandomGamma': 'tests/test_random.py',
    'RandomGammaGrad': 'tests/test_random.py (against the quantile derivative)',
    'RandomPoissonV2': 'tests/test_random.py',
    'RngReadAndSkip': 'tests/test_random_generator.py',
    'NoOp': 'tests/ops/test_math_more.py (tf.group, tf.no_op)',
    'If': 'tests/control_flow/test_cond.py',
    'StatelessIf': 'tests/control_flow/test_cond.py',
    'Case': 'tests/control_flow/test_cond.py',
    'StatelessCase': 'tests/control_flow/test_cond.py',
    'While': 'tests/control_flow/test_while.py',
    'StatelessWhile': 'tests/control_flow/test_while.py',
    'TensorArrayV3': 'tests/control_flow/test_tensor_array.py',
    'TensorArrayWriteV3': 'tests/control_flow/test_tensor_array.py',
    'TensorArrayReadV3': 'tests/control_flow/test_tensor_array.py',
    'TensorArrayGatherV3': 'tests/control_flow/test_tensor_array.py',
    'TensorArrayStack': 'tests/control_flow/test_tensor_array.py',
    'TensorArrayConcatV3': 'tests/control_flow/test_tensor_array.py',
    'TensorArraySizeV3': 'tests/control_flow/test_tensor_array.py',
    'TensorArrayWriteGrad': 'tests/control_flow/ (gradients of writes and scatters)',
    'TensorArrayWriteGradGrad': 'tests/control_flow/test_functional_loops.py (second order)',
    'TensorArrayReadGrad': 'tests/control_flow/ (gradients of reads, second order of loops)',
    'TensorArrayGatherGrad': 'tests/control_flow/test_tensor_array.py (gradients)',
    'TensorArrayReadPadded': 'tests/control_flow/test_while.py (loop variables whose shape grows)',
    'ReadFile': 'tests/io/test_io_ops.py (files written in the test)',
    'WriteFile': 'tests/io/test_io_ops.py',
    'WriteSummary': 'tests/test_summary.py (event files compared with TF\'s)',
    'FlushSummaryWriter': 'tests/test_summary.py',
    'TensorArrayReadPaddedGrad': 'tests/control_flow/test_while.py (second order, growing shapes)',
    'SparseCross': 'tests/composites/test_sparse_cross.py (crosses and hashes recorded from TF)',
    'DenseToDenseSetOperation': 'tests/composites/test_sets.py (results recorded from TF)',
    'DenseToSparseSetOperation': 'tests/composites/test_sets.py',
    'SparseToSparseSetOperation': 'tests/composites/test_sets.py',
    'SetSize': 'tests/composites/test_sets.py',
    'CollectiveAllReduce': 'tests/distribute/test_multiprocess.py (2 MPI ranks)',
    'CollectiveAllGather': 'tests/distribute/test_multiprocess.py (2 MPI ranks)',
}


def _flat(value):
    return [v for v in nest.flatten(value)]


PACKAGE_DIR = str(pathlib.Path(tf.__file__).parent)


def package_ops():
    """The ops defun itself defines (tests define throwaway ops of their own)."""
    return [op for op in registry.registered_ops() if op.defined_at.startswith(PACKAGE_DIR)]


def test_every_op_has_a_spec():
    covered = {s.op_type for s in SPECS} | set(TESTED_ELSEWHERE)
    missing = [op.type for op in package_ops() if op.type not in covered]
    assert not missing, f'ops without a test spec: {missing}'


def test_every_op_declares_its_gradient():
    missing = [op.type for op in package_ops() if op.grad is registry.MISSING]
    assert not missing, f'ops with neither a gradient nor no_gradient: {missing}'


def test_specs_name_real_ops():
    known = {op.type for op in registry.registered_ops()}
    assert not [s.op_type for s in SPECS if s.op_type not in known]


@pytest.mark.parametrize('spec', SPECS, ids=lambda s: s.label())
def test_forward_matches_numpy(spec):
    if spec.reference is None:
        pytest.skip('reference checked in a dedicated test')
    result = _flat(spec.call(*[EagerTensor(a) for a in spec.inputs]))
    expected = _flat(spec.reference(*[np.array(a) for a in spec.inputs]))
    assert len(result) == len(expected)
    for r, e in zip(result, expected):
        e = np.asarray(e)
        assert r.dtype.np_dtype == e.dtype, f'{spec.label()}: dtype {r.dtype.name} vs {e.dtype}'
        assert r.shape.as_tuple() == e.shape
        if e.dtype.kind in 'fc':
            np.testing.assert_allclose(r.numpy(), e, rtol=spec.rtol, atol=spec.atol)
        else:
            np.testing.assert_array_equal(r.numpy(), e)


def _graph_outputs(spec, known_shapes):
    graph = tf.Graph()
    with graph.as_default():
        phs = [tf.compat.v1.placeholder(tf.as_dtype(a.dtype),
                                        a.shape if known_shapes else [None] * a.ndim)
               for a in spec.inputs]
        return _flat(spec.call(*phs))


@pytest.mark.parametrize('spec', SPECS, ids=lambda s: s.label())
def test_inferred_shape_and_dtype_match_eager(spec):
    eager = _flat(spec.call(*[EagerTensor(a) for a in spec.inputs]))
    symbolic = _graph_outputs(spec, known_shapes=True)
    assert len(eager) == len(symbolic)
    for e, s in zip(eager, symbolic):
        assert s.dtype is e.dtype
        assert s.shape.is_compatible_with(e.shape), f'{s.shape} vs {e.shape}'
    unknown = _graph_outputs(spec, known_shapes=False)
    for e, s in zip(eager, unknown):
        assert s.dtype is e.dtype
        assert s.shape.is_compatible_with(e.shape), f'{s.shape} vs {e.shape}'


def _float_inputs(spec):
    return [a for a in spec.inputs if np.asarray(a).dtype.kind == 'f']


def _float_outputs(spec):
    outs = _flat(spec.call(*[EagerTensor(a) for a in spec.inputs]))
    return [o for o in outs if o is not None and o.dtype.is_floating]


GRAD_SPECS = [s for s in SPECS if s.grad and _float_inputs(s) and _float_outputs(s)]
SECOND_SPECS = [s for s in GRAD_SPECS if s.second_order]


@pytest.mark.parametrize('spec', GRAD_SPECS, ids=lambda s: s.label())
def test_gradient_matches_finite_differences(spec):
    assert testing.gradient_error(spec.call, spec.inputs) < spec.grad_tol


@pytest.mark.parametrize('spec', SECOND_SPECS, ids=lambda s: s.label())
def test_second_order_gradient_matches_finite_differences(spec):
    assert testing.second_order_error(spec.call, spec.inputs) < spec.grad_tol * 10
