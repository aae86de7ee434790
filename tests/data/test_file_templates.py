"""File datasets built from file names that a traced function computes (interleave/flat_map of
TextLineDataset, TFRecordDataset, CsvDataset; a file dataset inside tf.function): outputs recorded
with TF 2.21."""
import pytest

import defun as tf


@pytest.fixture
def folder(tmp_path):
    for n in ['a', 'b']:
        (tmp_path / f'{n}.txt').write_text(f'{n}1\n{n}2\n')
        (tmp_path / f'{n}.csv').write_text(f'1,{n}\n2,{n}\n')
        with tf.io.TFRecordWriter(str(tmp_path / f'{n}.rec')) as writer:
            writer.write(n.encode() + b'-rec')
    return tmp_path


def names(folder, ext):
    return tf.data.Dataset.from_tensor_slices([str(folder / f'a{ext}'), str(folder / f'b{ext}')])


def test_interleave_and_flat_map_of_file_datasets_on_traced_names(folder):
    lines = names(folder, '.txt').interleave(lambda f: tf.data.TextLineDataset(f), cycle_length=2)
    assert list(lines.as_numpy_iterator()) == [b'a1', b'b1', b'a2', b'b2']
    assert list(names(folder, '.txt').flat_map(tf.data.TextLineDataset).as_numpy_iterator()) == \
        [b'a1', b'a2', b'b1', b'b2']
    records = names(folder, '.rec').interleave(tf.data.TFRecordDataset, cycle_length=1)
    assert list(records.as_numpy_iterator()) == [b'a-rec', b'b-rec']
    rows = names(folder, '.csv').flat_map(
        lambda f: tf.data.experimental.CsvDataset(f, [tf.int32, tf.string]))
    assert list(rows.as_numpy_iterator()) == [(1, b'a'), (2, b'a'), (1, b'b'), (2, b'b')]


def test_file_dataset_of_a_function_argument(folder):
    @tf.function
    def count(f):
        return tf.data.TextLineDataset(f).reduce(0, lambda s, _: s + 1)
    assert int(count(tf.constant(str(folder / 'a.txt')))) == 2
    with pytest.raises(TypeError, match='tf.string scalar or vector'):
        tf.function(lambda n: tf.data.TextLineDataset(n))(tf.constant(1.0))


def test_list_files_order_shuffle_and_no_match(tmp_path):
    for n in ['b', 'a', 'c', 'd1', 'e']:
        (tmp_path / f'{n}.txt').write_text('x')
    base = lambda ds: [p.rsplit(b'/', 1)[-1] for p in ds.as_numpy_iterator()]  # noqa: E731
    ds = tf.data.Dataset.list_files(str(tmp_path / '*.txt'), shuffle=False)
    assert base(ds) == [b'a.txt', b'b.txt', b'c.txt', b'd1.txt', b'e.txt']
    assert ds.element_spec == tf.TensorSpec([], tf.string) and ds.cardinality() == 5
    shuffled = tf.data.Dataset.list_files(str(tmp_path / '*.txt'), seed=3)
    # TF 2.21: its shuffle's orders for seed 3, a new one each epoch
    assert base(shuffled) == [b'e.txt', b'd1.txt', b'c.txt', b'b.txt', b'a.txt']
    assert base(shuffled) == [b'd1.txt', b'e.txt', b'b.txt', b'c.txt', b'a.txt']
    two = tf.data.Dataset.list_files([str(tmp_path / 'a*'), str(tmp_path / 'c*')], shuffle=False)
    assert base(two) == [b'a.txt', b'c.txt']
    with pytest.raises(tf.errors.InvalidArgumentError, match='No files matched pattern'):
        tf.data.Dataset.list_files(str(tmp_path / '*.none'))
