"""tf.data.experimental.make_csv_dataset: type inference, order, shuffling, epochs, labels and
parallel reads, recorded with TF 2.21."""
import pytest

import defun as tf

make = tf.data.experimental.make_csv_dataset


@pytest.fixture
def pattern(tmp_path):
    (tmp_path / 'a.csv').write_text('x,y,name,big,label\n1,2.5,ab,3000000000,0\n3,,cd,5,1\n'
                                    '5,6.25,,7,0\n')
    (tmp_path / 'b.csv').write_text('x,y,name,big,label\n7,8.5,ef,9,1\n9,1e40,gh,11,0\n')
    return str(tmp_path / '*.csv')


def show(ds):
    out = []
    for e in ds.as_numpy_iterator():
        if isinstance(e, tuple):
            out.append(({k: v.tolist() for k, v in e[0].items()}, e[1].tolist()))
        else:
            out.append({k: v.tolist() for k, v in e.items()})
    return out


def test_inferred_types_and_file_order(pattern):
    ds = make(pattern, 2, num_epochs=1, shuffle=False)
    assert show(ds) == [
        {'x': [1, 3], 'y': [2.5, 0.0], 'name': [b'ab', b'cd'], 'big': [3000000000, 5],
         'label': [0, 1]},
        {'x': [5, 7], 'y': [6.25, 8.5], 'name': [b'', b'ef'], 'big': [7, 9], 'label': [0, 1]},
        {'x': [9], 'y': [1e+40], 'name': [b'gh'], 'big': [11], 'label': [0]}]
    assert [s.dtype for s in ds.element_spec.values()] == [tf.int32, tf.float64, tf.string,
                                                           tf.int64, tf.int32]
    assert list(ds.element_spec) == ['x', 'y', 'name', 'big', 'label']


def test_label_select_shuffle_and_epochs_as_tf(pattern):
    ds = make(pattern, 2, label_name='label', select_columns=['x', 'label'], num_epochs=2,
              shuffle=True, shuffle_seed=5)
    assert show(ds) == [({'x': [7, 5]}, [1, 0]), ({'x': [9, 1]}, [0, 0]), ({'x': [3, 9]}, [1, 0]),
                        ({'x': [1, 5]}, [0, 0]), ({'x': [3, 7]}, [1, 1])]


def test_forever_whole_batches_and_parallel_reads(pattern, tmp_path):
    ds = make(str(tmp_path / 'a.csv'), 2, shuffle=False)
    assert [b['x'] for b in show(ds.take(3))] == [[1, 3], [5, 1], [3, 5]]
    ds = make(pattern, 3, num_epochs=1, shuffle=False, num_parallel_reads=2,
              column_defaults=[0, 0.0, '', tf.int64, 0])
    got = show(ds)
    assert got[0]['x'] == [1, 7, 3] and got[1]['x'] == [9, 5]
    assert got[1]['y'] == [float('inf'), 6.25]      # a float32 column: 1e40 overflows, as TF
    with pytest.raises(ValueError, match='label_name'):
        make(pattern, 2, label_name='nope')
