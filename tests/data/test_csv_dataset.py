"""tf.data.experimental.CsvDataset. Every expected value and message here was recorded from
TF 2.21 (/work/tfenv/bin/python) on the same files."""
import numpy as np
import pytest

import defun as tf

CsvDataset = tf.data.experimental.CsvDataset
IAE = tf.errors.InvalidArgumentError

MISSING = '1,2,3,4\n,2,3,4\n1,,3,4\n1,2,,4\n1,2,3,\n,,,\n'
QUOTED = 'a,b\n1,"x,y"\n2,"he said ""hi"""\n'


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in [('missing', MISSING), ('quoted', QUOTED), ('short', '1,2\n3\n'),
                       ('bad', '1,zz\n'), ('blank', '1,2\n\n3,4\n')]:
        path = tmp_path / f'{name}.csv'
        path.write_text(text)
        paths[name] = str(path)
    return paths


def rows(ds):
    return [tuple(v.tolist() if hasattr(v, 'tolist') else v for v in r)
            for r in ds.as_numpy_iterator()]


def test_defaults_fill_missing_fields(files):
    ds = CsvDataset(files['missing'], [999, 999, 999, 999])
    assert repr(ds) == ('<CsvDatasetV2 element_spec=(' + ', '.join(
        ['TensorSpec(shape=(), dtype=tf.int32, name=None)'] * 4) + ')>')
    stacked = list(ds.map(lambda *items: tf.stack(items)).as_numpy_iterator())
    np.testing.assert_array_equal(stacked, [[1, 2, 3, 4], [999, 2, 3, 4], [1, 999, 3, 4],
                                            [1, 2, 999, 4], [1, 2, 3, 999], [999] * 4])
    assert stacked[0].dtype == np.int32


def test_select_cols_and_exclude_cols(files):
    picked = CsvDataset(files['missing'], [999, 999], select_cols=[1, 3])
    assert rows(picked) == [(2, 4), (2, 4), (999, 4), (2, 4), (2, 999), (999, 999)]
    with pytest.raises(IAE, match='Expect 2 fields but have more in record'):
        rows(CsvDataset(files['missing'], [5, 6], exclude_cols=[0]))
    with pytest.raises(IAE, match='Expect 1 fields but have 0 in record'):
        rows(CsvDataset(files['missing'], [5], select_cols=[7]))
    with pytest.raises(IAE, match='select_cols should be strictly increasing indices'):
        CsvDataset(files['missing'], [5, 6], select_cols=[3, 1])
    with pytest.raises(IAE, match='select_cols should match output size'):
        CsvDataset(files['missing'], [5, 6, 8], select_cols=[0, 1])
    with pytest.raises(IAE, match='Either select_cols or exclude_cols should be empty'):
        CsvDataset(files['missing'], [5, 6], exclude_cols=[0], select_cols=[1, 2])


def test_column_types_quotes_and_header(files):
    ds = CsvDataset(files['missing'], [999., tf.float64, 's', tf.constant(5, tf.int64)])
    assert [s.dtype for s in ds.element_spec] == [tf.float32, tf.float64, tf.string, tf.int64]
    with pytest.raises(IAE, match='Field 1 is required but missing in record!'):
        rows(ds)
    quoted = CsvDataset(files['quoted'], [tf.int32, tf.string], header=True)
    assert rows(quoted) == [(1, b'x,y'), (2, b'he said "hi"')]
    both = CsvDataset([files['missing'], files['quoted']], ['a', 'b'], header=True,
                      select_cols=[0, 1])
    assert rows(both) == [(b'a', b'2'), (b'1', b'b'), (b'1', b'2'), (b'1', b'2'), (b'a', b'b'),
                          (b'1', b'x,y'), (b'2', b'he said "hi"')]
    with pytest.raises(IAE, match='Expect 2 fields but have more in record'):
        rows(CsvDataset(files['quoted'], ['a', 'b'], use_quote_delim=False))


def test_na_value_and_tfs_reading_of_small_int_defaults(files):
    # TF takes a number default equal to a dtype's enum number (1 float32, 2 float64, 3 int32,
    # 7 string, 9 int64) as that dtype, a column without a default.
    specs = CsvDataset(files['missing'], [1, 2, 3, 4, True, 7, 9, 9.0]).element_spec
    assert [s.dtype for s in specs] == [tf.float32, tf.float64, tf.int32, tf.int32, tf.float32,
                                        tf.string, tf.int64, tf.int64]
    assert rows(CsvDataset(files['missing'], [5, 6, 8, 4], na_value='3')) == \
        [(1, 2, 8, 4), (5, 2, 8, 4), (1, 6, 8, 4), (1, 2, 8, 4), (1, 2, 8, 4), (5, 6, 8, 4)]
    with pytest.raises(IAE, match='Field 2 is required but missing in record!'):
        rows(CsvDataset(files['missing'], [5, 6, 7, 8]))


def test_bad_records(files, tmp_path):
    with pytest.raises(IAE, match='Expect 2 fields but have 1 in record'):
        rows(CsvDataset(files['short'], [tf.int32, tf.int32]))
    with pytest.raises(IAE, match='Field 1 in record is not a valid int32: zz'):
        rows(CsvDataset(files['bad'], [tf.int32, tf.int32]))
    with pytest.raises(IAE, match='Field 1 in record is not a valid double: zz'):
        rows(CsvDataset(files['bad'], [tf.int32, tf.float64]))
    # Fields are parsed before they are counted: a wrong delimiter is a bad number first.
    with pytest.raises(IAE, match='Field 0 in record is not a valid int32: 1,2,3,4'):
        rows(CsvDataset(files['missing'], [5, 6], field_delim=';'))
    with pytest.raises(IAE, match='Expect 2 fields but have 1 in record'):
        rows(CsvDataset(files['blank'], [0, 0]))
    with pytest.raises(tf.errors.NotFoundError, match='nofile.csv; No such file or directory'):
        rows(CsvDataset(str(tmp_path / 'nofile.csv'), [5]))
    with pytest.raises(ValueError, match='bool'):
        CsvDataset(files['missing'], [tf.bool])


def test_iterated_inside_a_function(files):
    @tf.function
    def total():
        s = tf.constant(0)
        for a, b, c, d in CsvDataset(files['missing'], [0, 0, 0, 0]):
            s += a + b + c + d
        return s

    assert total().numpy() == 40


def test_file_names_given_as_a_constant_inside_a_function(files):
    # Recorded from TF 2.21: 9 lines; the sum of column 0 times column 3 (empty fields 0) is 12.
    @tf.function
    def count_and_sum():
        n, s = tf.constant(0), tf.constant(0)
        for _ in tf.data.TextLineDataset(tf.constant([files['missing'], files['quoted']])):
            n += 1
        for a, b in CsvDataset(tf.constant(files['missing']), [0, 0], select_cols=[0, 3]):
            s += a * b
        return n, s

    n, s = count_and_sum()
    assert (n.numpy(), s.numpy()) == (9, 12)
