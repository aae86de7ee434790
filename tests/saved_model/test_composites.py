"""SavedModel and checkpoints with RaggedTensor and SparseTensor values: input signatures,
composite results, serving signatures (components as keyword arguments, named as TF names them),
and what a checkpoint accepts. Expected values recorded from TensorFlow 2.21."""
import pytest

import defun as tf


class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32, 1)])
    def rsum(self, rt):
        return tf.reduce_sum(rt, axis=1) * self.v

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 3], tf.float32)])
    def ssum(self, st):
        return tf.sparse.reduce_sum(st, axis=1) * self.v

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
    def make(self, x):
        return tf.RaggedTensor.from_row_lengths(tf.range(tf.reduce_sum(x)), x)

    @tf.function
    def traced(self, rt):
        return rt * 2


def _rt():
    return tf.ragged.constant([[1., 2.], [3.]])


def _st():
    return tf.sparse.SparseTensor([[0, 0], [1, 2]], [1., 2.], [2, 3])


@pytest.fixture(scope='module')
def loaded(tmp_path_factory):
    m = Model()
    m.traced(tf.ragged.constant([[1, 2], [3]]))
    path = str(tmp_path_factory.mktemp('composites'))
    tf.saved_model.save(m, path, signatures={'r': m.rsum, 's': m.ssum, 'm': m.make})
    return tf.saved_model.load(path)


def test_loaded_functions_take_and_return_composites(loaded):
    assert loaded.rsum(_rt()).numpy().tolist() == [6., 6.]
    assert loaded.ssum(_st()).numpy().tolist() == [2., 4.]
    assert loaded.make(tf.constant([1, 2], tf.int64)).to_list() == [[0], [1, 2]]
    assert loaded.traced(tf.ragged.constant([[5], [6, 7]])).to_list() == [[10], [12, 14]]
    with pytest.raises(ValueError, match='Could not find matching concrete function'):
        loaded.traced(tf.ragged.constant([[5], [6, 7], []]))   # traced for two rows only
    assert loaded.rsum.input_signature == (tf.RaggedTensorSpec([None, None], tf.float32, 1),)


def test_a_dense_tensor_does_not_fit_a_ragged_signature(loaded):
    with pytest.raises(TypeError, match='Binding inputs to tf.function failed'):
        loaded.rsum(tf.constant([[1., 2.]]))


def test_signatures_take_components_by_tf_names(loaded):
    r = loaded.signatures['r']
    assert r.structured_input_signature == ((), {
        'rt': tf.TensorSpec([None], tf.float32, 'rt'),
        'rt_1': tf.TensorSpec([None], tf.int64, 'rt_1')})
    rt = _rt()
    assert r(rt=rt.flat_values, rt_1=rt.row_splits)['output_0'].numpy().tolist() == [6., 6.]
    s = loaded.signatures['s']
    assert sorted(s.structured_input_signature[1]) == ['st', 'st_1', 'st_2']
    st = _st()
    out = s(st=st.indices, st_1=st.values, st_2=st.dense_shape)
    assert out['output_0'].numpy().tolist() == [2., 4.]
    with pytest.raises(TypeError, match='Binding inputs to tf.function failed'):
        r(rt=rt.flat_values)


def test_signature_with_a_ragged_result(loaded):
    m = loaded.signatures['m']
    assert m.structured_outputs == {
        'output_0': tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int64)}
    assert m(x=tf.constant([1, 2], tf.int64))['output_0'].to_list() == [[0], [1, 2]]


def test_checkpoints_refuse_composites_and_skip_them_as_attributes(tmp_path):
    rt = tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])
    with pytest.raises(ValueError, match='expecting r to be a trackable object'):
        tf.train.Checkpoint(r=rt)
    m = tf.Module()
    m.r, m.v = rt, tf.Variable(1.)
    path = tf.train.Checkpoint(m=m).save(str(tmp_path / 'c'))
    assert [n for n, _ in tf.train.list_variables(path)] == [
        '_CHECKPOINTABLE_OBJECT_GRAPH', 'm/v/.ATTRIBUTES/VARIABLE_VALUE',
        'save_counter/.ATTRIBUTES/VARIABLE_VALUE']


def test_iterator_over_ragged_elements_checkpoints_its_position(tmp_path):
    rt = tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])
    it = iter(tf.data.Dataset.from_tensor_slices(rt).batch(2).unbatch())
    assert next(it).numpy().tolist() == [1, 2]
    ck = tf.train.Checkpoint(it=it)
    path = ck.save(str(tmp_path / 'c'))
    assert [next(it).numpy().tolist() for _ in range(2)] == [[3], []]
    ck.restore(path)
    assert [next(it).numpy().tolist() for _ in range(2)] == [[3], []]
