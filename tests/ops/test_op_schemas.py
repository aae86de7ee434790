"""TF's op signatures, declared in define_op entries and checked by the dispatch point: refused
input dtypes, attribute kinds and int32 ranges, eagerly and while a graph is built.

Expected classes and message texts were recorded from TensorFlow 2.21 (`/work/tfenv`), not from
defun.
"""
import os
import re
import warnings

import numpy as np
import pytest

import defun as tf
from defun.core import errors, op_schema
from defun.core.registry import define_op, registered_ops
from defun.core.tf_signatures import SIGNATURES

IAE = errors.InvalidArgumentError


def _traced(call):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return tf.function(call)()


# (label, call, TF 2.21's class eagerly, its class inside tf.function, a text both messages hold)
CASES = [
    ('sort bool', lambda: tf.sort(tf.constant([True, False])), IAE, TypeError, 'bool'),
    ('sort string', lambda: tf.sort(tf.constant(['b', 'a'])), IAE, TypeError, 'string'),
    ('sort complex', lambda: tf.sort(tf.constant([1 + 2j])), IAE, TypeError, 'complex128'),
    ('argsort bool', lambda: tf.argsort(tf.constant([True, False])), IAE, TypeError, 'bool'),
    ('top_k bool', lambda: tf.math.top_k(tf.constant([True, False])), IAE, TypeError,
     'allowed values'),
    ('max_pool2d nested ksize', lambda: tf.nn.max_pool2d(tf.ones([1, 4, 4, 1]), [[2], [2]], 1,
                                                         'VALID'),
     TypeError, TypeError, "Expected int for argument 'ksize' not [2]."),
    ('max_pool2d ksize beyond int32', lambda: tf.nn.max_pool2d(tf.ones([1, 4, 4, 1]), 2 ** 31, 1,
                                                               'VALID'),
     IAE, ValueError, 'Attr ksize has value 2147483648 out of range for an int32'),
    ('conv2d nested strides', lambda: tf.nn.conv2d(tf.ones([1, 4, 4, 1]), tf.ones([2, 2, 1, 1]),
                                                   [[1]], 'VALID'),
     TypeError, TypeError, "Expected int for argument 'strides' not [1]."),
    ('conv2d strides beyond int32', lambda: tf.nn.conv2d(tf.ones([1, 4, 4, 1]),
                                                         tf.ones([2, 2, 1, 1]), 2 ** 31, 'VALID'),
     IAE, ValueError, 'Attr strides has value 2147483648 out of range for an int32'),
    ('depthwise nested strides', lambda: tf.nn.depthwise_conv2d(
        tf.ones([1, 4, 4, 1]), tf.ones([2, 2, 1, 1]), [[1, 1, 1, 1]], 'VALID'),
     TypeError, TypeError, "Expected int for argument 'strides' not [1, 1, 1, 1]."),
    ('avg_pool2d int32', lambda: tf.nn.avg_pool2d(tf.ones([1, 4, 4, 1], tf.int32), 2, 1, 'VALID'),
     IAE, TypeError, 'int32'),
    ('floor int32', lambda: tf.math.floor(tf.constant([1])), IAE, TypeError, 'int32'),
    ('selu int64', lambda: tf.nn.selu(tf.constant([1], tf.int64)), IAE, TypeError, 'int64'),
    ('square string', lambda: tf.math.square(tf.constant(['a'])), IAE, TypeError, 'string'),
    ('check_numerics int32', lambda: tf.debugging.check_numerics(tf.constant([1]), 'm'), IAE,
     TypeError, 'int32'),
]


@pytest.mark.parametrize('mode', ['eager', 'graph'])
@pytest.mark.parametrize('label,call,eager,graph,text', CASES, ids=[c[0] for c in CASES])
def test_signature_refusals_raise_tfs_class(label, call, eager, graph, text, mode):
    expected = eager if mode == 'eager' else graph
    with pytest.raises(expected) as info:
        call() if mode == 'eager' else _traced(call)
    assert text in str(info.value)


def test_eager_message_is_tfs_with_the_op_and_the_input():
    with pytest.raises(IAE) as info:
        tf.math.floor(tf.constant([1]))
    assert str(info.value).startswith("Value for attr 'T' of int32 is not in the list of allowed "
                                      'values: bfloat16, half, float, double')
    assert '[Op:Floor]' in str(info.value) and 'int32[1]' in str(info.value)


def test_graph_message_is_tfs():
    with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType int32 not in "
                                        'list of allowed values: bfloat16, float16, float32, '
                                        'float64'):
        _traced(lambda: tf.math.floor(tf.constant([1])))


def test_symbolic_ksize_is_iterated_as_tf_refuses_in_graphs():
    x = tf.ones([1, 4, 4, 1])
    assert tf.nn.max_pool2d(x, tf.constant([2, 2]), 1, 'VALID').shape == (1, 3, 3, 1)
    with pytest.raises(errors.OperatorNotAllowedInGraphError):
        _traced(lambda: tf.nn.max_pool2d(x, tf.constant([2, 2]), 1, 'VALID'))


def test_top_k_index_type_as_tf():
    values, indices = tf.math.top_k([1.0, 3.0, 2.0], 2, index_type=tf.int64)
    assert indices.dtype == tf.int64 and indices.numpy().tolist() == [1, 2]
    assert values.numpy().tolist() == [3.0, 2.0]


def test_dtype_by_enum_number_as_tf():
    assert tf.as_dtype(2) == tf.float64
    ones = tf.ones(2, 3)  # TF: shape [2], dtype 3 (int32)
    assert ones.dtype == tf.int32 and ones.numpy().tolist() == [1, 1]
    with pytest.raises(TypeError, match='Cannot convert the argument `type_value`: 99'):
        tf.as_dtype(99)


def test_accepted_dtypes_still_run():
    assert tf.sort(tf.constant([3, 1, 2])).numpy().tolist() == [1, 2, 3]
    assert tf.math.floor(tf.constant([1.5], tf.float16)).numpy().tolist() == [1.0]
    assert tf.math.square(tf.constant([2], tf.uint8)).numpy().tolist() == [4]
    assert tf.nn.max_pool2d(tf.ones([1, 2, 2, 1], tf.int32), 2, 1, 'VALID').numpy().item() == 1


def test_every_declared_schema_names_known_dtypes():
    declared = [op for op in registered_ops() if op.schema is not None]
    assert len(declared) >= 35
    for op in declared:
        for bound in op.schema.type_attrs.values():
            assert bound.dtypes, f'{op.type}: type attribute {bound.name} allows no dtype defun has'


def test_schema_attribute_kinds_and_minimums():
    schema = op_schema.Schema('Example', ('x: T',), ('T: {float, double}', 'k: int >= 1',
                                                       'sizes: list(int32) >= 2',
                                                       'mode: {"A", "B"}', 'flag: bool'))
    x = tf.constant([1.0])
    schema.check_attrs({'k': 1, 'sizes': [1, 2], 'mode': 'A', 'flag': True}, graph=True)
    with pytest.raises(ValueError, match="Attr 'k' of 'Example' Op passed 0 less than minimum 1."):
        schema.check_attrs({'k': 0}, graph=True)
    with pytest.raises(IAE, match="Value for attr 'k' of 0 must be at least minimum 1"):
        schema.check_attrs({'k': 0}, graph=False)
    with pytest.raises(ValueError, match='passed list of length 1 less than minimum 2'):
        schema.check_attrs({'sizes': [1]}, graph=True)
    with pytest.raises(TypeError, match="Expected list for 'sizes' argument to 'Example' Op"):
        schema.check_attrs({'sizes': 3}, graph=False)
    with pytest.raises(ValueError, match='''passed string 'C' not in: "A", "B".'''):
        schema.check_attrs({'mode': 'C'}, graph=True)
    with pytest.raises(TypeError, match="Expected bool for argument 'flag' not 1."):
        schema.check_attrs({'flag': 1}, graph=False)
    schema.check_inputs([x], False, lambda t: t.dtype)
    with pytest.raises(IAE, match="Value for attr 'T' of int32"):
        schema.check_inputs([tf.constant([1])], False, lambda t: t.dtype)


def test_two_inputs_of_one_type_attribute_must_agree():
    schema = op_schema.Schema('Pair', ('x: T', 'y: T'), ('T: {float, double}',))
    a, b = tf.constant([1.0]), tf.constant([1.0], tf.float64)
    with pytest.raises(TypeError, match="Input 'y' of 'Pair' Op has type float64 that does not "
                                        "match type float32 of argument 'x'."):
        schema.check_inputs([a, b], True, lambda t: t.dtype)
    with pytest.raises(IAE, match=r'cannot compute Pair as input #1\(zero-based\) was expected '
                                  'to be a float tensor but is a double tensor'):
        schema.eager_check([a, b], None)
    schema.eager_check([a, a], None)


def test_an_unknown_attribute_kind_is_refused_at_definition():
    with pytest.raises(ValueError, match='unknown kind'):
        define_op('SchemaProbeNeverDefined', np.negative, lambda x: (x.dtype, None),
                  attrs=('k: complex',))


def test_argmax_and_argmin_take_bool_as_tf():
    assert tf.argmax(tf.constant([False, True])).numpy() == 1
    assert _traced(lambda: tf.argmin(tf.constant([True, False]))).numpy() == 1


PY_FUNCTION_CASES = [
    ('py_function inp tensor', lambda: tf.py_function(lambda x: x, tf.constant(1.0),
                                                      Tout=tf.float32),
     TypeError, errors.OperatorNotAllowedInGraphError, ''),
    ('py_function func None', lambda: tf.py_function(None, [tf.constant(1.0)], Tout=tf.float32),
     TypeError, TypeError, "Don't set the `inp` argument when using tf.py_function as a decorator"),
    ('numpy_function inp None', lambda: tf.numpy_function(lambda x: x, None, Tout=tf.float32),
     TypeError, TypeError, 'Missing argument `inp`'),
]


@pytest.mark.parametrize('mode', ['eager', 'graph'])
@pytest.mark.parametrize('label,call,eager,graph,text', PY_FUNCTION_CASES,
                         ids=[c[0] for c in PY_FUNCTION_CASES])
def test_py_function_argument_rules_as_tf(label, call, eager, graph, text, mode):
    with pytest.raises(eager if mode == 'eager' else graph) as info:
        call() if mode == 'eager' else _traced(call)
    assert text in str(info.value)


def test_python_ints_beyond_int64_while_a_graph_is_built_as_tf():
    # TF 2.21: in a graph, numpy reads 2**63 as uint64 (a requested int64 wraps); eagerly it fails.
    assert _traced(lambda: tf.constant(2 ** 63)).dtype == tf.uint64
    assert _traced(lambda: tf.constant(2 ** 63)).numpy() == 2 ** 63
    wrapped = _traced(lambda: tf.add(tf.constant(1, tf.int64), 2 ** 63))
    assert wrapped.numpy() == -9223372036854775807
    with pytest.raises(ValueError, match="Can't convert Python sequence with out-of-range"):
        tf.constant(2 ** 63)
    with pytest.raises(TypeError, match='Failed to convert elements of 1180591620717411303424'):
        _traced(lambda: tf.constant(2 ** 70))


@pytest.mark.parametrize('call,text', [
    (lambda: tf.math.cumsum(tf.constant([True])), "attr 'T' of bool"),
    (lambda: tf.math.cumprod(tf.constant(['a'])), "attr 'T' of string"),
    (lambda: tf.reduce_max(tf.constant(['a'])), "attr 'T' of string"),
])
def test_reductions_refuse_as_tf(call, text):
    with pytest.raises(IAE, match=text):
        call()
    with pytest.raises(TypeError, match='not in list of allowed values'):
        _traced(call)


def test_window_arguments_read_as_tfs_wrappers_read_them():
    x = tf.ones([1, 4, 4, 1])
    assert tf.nn.avg_pool2d(x, 1.5, 1, 'VALID').shape == (1, 4, 4, 1)  # make_int truncates
    with pytest.raises(TypeError, match="Expected int for argument 'ksize' not None."):
        tf.nn.avg_pool2d(x, [None, 2], 1, 'VALID')
    for call in (lambda: tf.nn.max_pool2d(x, 2, [], 'VALID'),
                 lambda: tf.nn.conv2d(x, tf.ones([2, 2, 1, 1]), [1, 2, 2], 'VALID')):
        with pytest.raises(ValueError, match='strides should be of length 1, 2 or 4'):
            call()
        with pytest.raises(ValueError, match='strides should be of length 1, 2 or 4'):
            _traced(call)


def test_depthwise_strides_as_tf():
    x, w = tf.ones([1, 4, 4, 1]), tf.ones([2, 2, 1, 1])
    assert tf.nn.depthwise_conv2d(x, w, [1, 1, 2, 1], 'VALID').shape == (1, 3, 2, 1)
    with pytest.raises(TypeError, match="Expected list for 'strides' argument to "
                                        "'depthwise_conv2d_native' Op, not 2."):
        tf.nn.depthwise_conv2d(x, w, 2, 'VALID')
    with pytest.raises(TypeError):
        tf.nn.depthwise_conv2d(x, w, 'a', 'VALID')


# Signatures from the table of TF's OpDefs (core/tf_signatures.py), where each op's own check
# used to be: (label, call, TF 2.21's class eagerly, its class inside tf.function, a text of
# TF's message), recorded from TensorFlow 2.21.
TABLE_CASES = [
    ('logical_and int32', lambda: tf.math.logical_and(tf.constant([1]), tf.constant([1])), IAE,
     TypeError, 'int32'),
    ('truncatemod uint8', lambda: tf.truncatemod(tf.constant([1], tf.uint8),
                                                 tf.constant([1], tf.uint8)),
     IAE, TypeError, 'uint8'),
    ('polygamma half', lambda: tf.math.polygamma(tf.constant([1.], tf.float16),
                                                 tf.constant([1.], tf.float16)),
     IAE, TypeError, 'allowed values'),
    ('polygamma int32', lambda: tf.math.polygamma(tf.constant([1]), tf.constant([1])), IAE,
     TypeError, 'int32'),
    ('complex float16', lambda: tf.complex(tf.constant([1.], tf.float16),
                                           tf.constant([1.], tf.float16)),
     TypeError, TypeError, 'The `real` and `imag` components have incorrect types: float16 '
                           'float16. They must be consistent, and one of [tf.float32, tf.float64]'),
    ('complex float32 float64', lambda: tf.complex(tf.constant([1.]),
                                                   tf.constant([1.], tf.float64)),
     TypeError, TypeError, 'incorrect types: float32 float64'),
    ('is_nan int32', lambda: tf.math.is_nan(tf.constant([1])), IAE, TypeError, 'int32'),
    ('bitwise_and float', lambda: tf.bitwise.bitwise_and(tf.constant([1.]), tf.constant([1.])),
     IAE, TypeError, 'allowed values'),
    ('maximum complex', lambda: tf.maximum(tf.constant([1j]), tf.constant([1j])), IAE, TypeError,
     'complex128'),
    ('inv int32', lambda: tf.linalg.inv(tf.constant([[1, 0], [0, 1]])), IAE, TypeError, 'int32'),
    ('nextafter int32', lambda: tf.math.nextafter(tf.constant([1]), tf.constant([2])), IAE,
     TypeError, 'int32'),
]


@pytest.mark.parametrize('mode', ['eager', 'graph'])
@pytest.mark.parametrize('label,call,eager,graph,text', TABLE_CASES,
                         ids=[c[0] for c in TABLE_CASES])
def test_table_signatures_raise_tfs_class(label, call, eager, graph, text, mode):
    expected = eager if mode == 'eager' else graph
    with pytest.raises(expected) as info:
        call() if mode == 'eager' else _traced(call)
    assert text in str(info.value)


# Types a signature allows but no CPU kernel of TF's runs: NotFoundError eagerly and
# InvalidArgumentError from a function, as TF 2.21.
KERNEL_CASES = [
    ('rint half', lambda: tf.math.rint(tf.constant([1.5], tf.float16)),
     'Rint[T=DT_HALF]', "Op 'Rint'"),
    ('erfinv half', lambda: tf.math.erfinv(tf.constant([0.5], tf.float16)),
     'Erfinv[T=DT_HALF]', "Op 'Erfinv'"),
    ('truncatemod half', lambda: tf.truncatemod(tf.constant([1.], tf.float16),
                                                tf.constant([1.], tf.float16)),
     'TruncateMod[T=DT_HALF]', "Op 'TruncateMod'"),
    ('floordiv complex', lambda: tf.math.floordiv(tf.constant([1j]), tf.constant([1j])),
     'FloorDiv[T=DT_COMPLEX128]', "Op 'FloorDiv'"),
    ('cholesky half', lambda: tf.linalg.cholesky(tf.constant([[2., 1.], [1., 2.]], tf.float16)),
     'Cholesky[T=DT_HALF]', "Op 'Cholesky'"),
    ('reciprocal int32', lambda: tf.math.reciprocal(tf.constant([2])),
     'Reciprocal[T=DT_INT32]', "Op 'Reciprocal'"),
]


@pytest.mark.parametrize('label,call,eager_text,graph_text', KERNEL_CASES,
                         ids=[c[0] for c in KERNEL_CASES])
def test_types_without_a_cpu_kernel_as_tf(label, call, eager_text, graph_text):
    with pytest.raises(errors.NotFoundError, match=re.escape(eager_text)):
        call()
    with pytest.raises(IAE, match=f'No OpKernel was registered to support {graph_text}'):
        _traced(call)


def test_every_op_tf_has_takes_tfs_signature():
    ops = {op.type: op for op in registered_ops()}
    assert len(SIGNATURES) >= 280
    without = [t for t, (inputs, attrs) in SIGNATURES.items()
               if (inputs or attrs) and ops[t].schema is None]
    # These take defun's own inputs (a resource's state array, a TensorArray's buffer, sparse
    # crosses' components flat where TF groups them by type-list attributes).
    assert sorted(without) == ['FlushSummaryWriter', 'RngReadAndSkip', 'SparseCross',
                               'TensorArraySizeV3', 'WriteSummary']
    # Those of defun's own (gradient helpers, data and TensorArray plumbing) have no OpDef in TF;
    # SparseCross takes its inputs flat (TF's SparseCrossV2 / SparseCrossHashed split them), and
    # tf.summary's WriteSummary and FlushSummaryWriter hold their writer as an attribute (TF's take
    # a resource). The run-time-axis forms of GatherV2, ConcatV2 and ExpandDims (TF's axis is an
    # input; defun's is an attribute) and their gradients are five more. Throwaway ops other tests
    # define (in the same worker) are not counted.
    package = os.path.dirname(tf.__file__)
    assert len([t for t, op in ops.items() if t not in SIGNATURES
                and op.defined_at.startswith(package)]) < 39


def test_signatures_still_run_what_tf_runs():
    assert tf.add(tf.constant(['a']), tf.constant(['b'])).numpy().tolist() == [b'ab']
    assert tf.math.rint(tf.constant([2.5])).numpy().tolist() == [2.0]
    assert tf.complex(1.0, 2.0).numpy() == 1 + 2j
    assert tf.bitwise.left_shift(tf.constant([1], tf.uint8), tf.constant([3], tf.uint8)).numpy() == 8
    assert _traced(lambda: tf.math.logical_not(tf.constant([True]))).numpy().tolist() == [False]


def test_checks_left_to_signatures_run_what_tf_runs():
    # Values recorded from TensorFlow 2.21.
    assert tf.boolean_mask([1., 2., 3.], [1., 0., 2.]).numpy().tolist() == [1.0, 3.0]
    inverse = tf.linalg.inv(tf.constant([[2., 0.], [0., 4.]], tf.float16))
    assert inverse.dtype == tf.float16 and inverse.numpy().tolist() == [[0.5, 0.0], [0.0, 0.25]]
    q, r = tf.linalg.qr(tf.constant([[3., 1.], [4., 2.]], tf.float16))
    # TF computes in half precision throughout, defun in float32 rounded once: within an ulp.
    np.testing.assert_allclose(q.numpy(), [[-0.599609375, -0.7998046875],
                                           [-0.7998046875, 0.60009765625]], atol=1e-3)
    np.testing.assert_allclose(r.numpy(), [[-5.0, -2.19921875], [0.0, 0.400390625]], atol=1e-3)
    with pytest.raises(IAE, match="Value for attr 'Tindices' of float is not in the list of "
                                  'allowed values: int16, int32, int64'):
        tf.gather_nd(tf.ones([2]), tf.constant([[0.]]))
