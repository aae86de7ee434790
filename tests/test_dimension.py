"""tf.compat.v1.Dimension and TensorShape.dims. Expected values recorded with TensorFlow 2.21
(/work/tfenv/bin/python)."""
import pickle

import pytest

import defun as tf

D = tf.compat.v1.Dimension


def test_reprs_values_and_dims():
    assert (repr(D(16)), str(D(16)), repr(D(None)), str(D(None))) == \
        ('Dimension(16)', '16', 'Dimension(None)', '?')
    assert D(16).value == 16 and D(None).value is None and int(D(16)) == 16
    assert [repr(d) for d in tf.TensorShape([1, None]).dims] == ['Dimension(1)', 'Dimension(None)']
    assert tf.TensorShape(None).dims is None
    assert D(D(3)).value == 3 and [0, 1, 2, 3][D(3)] == 3
    assert (bool(D(0)), bool(D(None)), bool(D(3))) == (False, False, True)


def test_comparisons_and_compatibility():
    d, n = D(16), D(None)
    assert (d == 16, d == D(16), n == 16, d != 3) == (True, True, None, True)
    assert (d < 20, n < 3) == (True, None)
    assert d.is_compatible_with(16) and n.is_compatible_with(3)
    assert not d.is_compatible_with(D(3))
    d.assert_is_compatible_with(16)
    with pytest.raises(ValueError, match='Dimensions 16 and 3 are not compatible'):
        d.merge_with(3)
    assert d.merge_with(None).value == 16 and n.merge_with(4).value == 4
    with pytest.raises(TypeError, match='unhashable'):
        hash(d)


def test_arithmetic_keeps_unknowns_unknown():
    d, n = D(16), D(None)
    assert [str(x) for x in (d + 1, 1 + d, d * 2, n + 1, d // 3, d % 5, d - 1, 20 - d)] == \
        ['17', '17', '32', '?', '5', '1', '15', '4']


def test_bad_values():
    with pytest.raises(ValueError, match='Dimension -1 must be >= 0'):
        D(-1)
    with pytest.raises(TypeError, match='Dimension value must be integer or None'):
        D(1.5)


def test_dimension_value_and_at_index():
    assert tf.compat.dimension_value(D(5)) == 5 and tf.compat.v1.dimension_value(3) == 3
    assert repr(tf.compat.dimension_at_index(tf.TensorShape(None), 3)) == 'Dimension(None)'
    assert repr(tf.compat.dimension_at_index(tf.TensorShape([2, 3]), 1)) == 'Dimension(3)'


def test_migration_guide_cell():
    # The TF1 -> TF2 migration guide's example prints True.
    shape, i, other_dim = tf.TensorShape([16, 3]), 0, 16
    dim = D(None) if shape.rank is None else shape.dims[i]
    assert dim.is_compatible_with(other_dim) is True


def test_shapes_and_dimensions_pickle():
    assert pickle.loads(pickle.dumps(tf.TensorShape([2, None]))) == tf.TensorShape([2, None])
    assert pickle.loads(pickle.dumps(D(7))).value == 7
