"""tf.train.CheckpointView and TrackableView: node numbering, match and diff recorded with TF 2.21
(TF saves `Checkpoint(root)` with a 'root' self-dependency and 'save_counter' on node 0)."""
import pytest

import defun as tf


class SimpleModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.a_var = tf.Variable(5.0)
        self.b_var = tf.Variable(4.0)
        self.vars = [tf.Variable(1.0), tf.Variable(2.0)]


def _saved(tmp_path):
    root = SimpleModule(name='root')
    leaf = root.leaf = SimpleModule(name='leaf')
    leaf.leaf3 = tf.Variable(6.0, name='leaf3')
    leaf.leaf4 = tf.Variable(7.0, name='leaf4')
    return root, tf.train.Checkpoint(root).save(str(tmp_path / 'ckpt'))


def _other():
    root2 = SimpleModule(name='root')
    leaf2 = root2.leaf2 = SimpleModule(name='leaf2')
    leaf2.leaf3 = tf.Variable(6.0)
    leaf2.leaf4 = tf.Variable(7.0)
    return root2


def test_checkpoint_view_numbers_nodes_as_tf(tmp_path):
    _, path = _saved(tmp_path)
    view = tf.train.CheckpointView(path)
    assert view.children(0) == {'a_var': 1, 'b_var': 2, 'vars': 3, 'leaf': 4, 'root': 0,
                                'save_counter': 5}
    assert view.children(3) == {'0': 6, '1': 7}
    assert view.children(4) == {'a_var': 8, 'b_var': 9, 'vars': 10, 'leaf3': 11, 'leaf4': 12}
    assert view.children(10) == {'0': 13, '1': 14} and view.children(14) == {}
    assert view.descendants() == list(range(15))
    with pytest.raises(IndexError):
        view.children(99)


def test_match_and_diff_as_tf(tmp_path):
    _, path = _saved(tmp_path)
    view = tf.train.CheckpointView(path)
    root2 = _other()
    matched = view.match(root2)
    assert list(matched) == [0, 1, 2, 3, 6, 7] and matched[0] is root2
    assert matched[1] is root2.a_var and matched[6] is root2.vars[0]
    same, only_saved, only_live = view.diff(root2)
    assert list(same) == [0, 1, 2, 3, 6, 7]
    assert only_saved == [4, 5, 8, 9, 10, 11, 12, 13, 14]
    leaf2 = root2.leaf2
    assert [id(v) for v in only_live] == [id(v) for v in [
        leaf2, leaf2.a_var, leaf2.b_var, leaf2.vars, leaf2.leaf3, leaf2.leaf4, leaf2.vars[0],
        leaf2.vars[1]]]


def test_trackable_view(tmp_path):
    root, path = _saved(tmp_path)
    view = tf.train.TrackableView(root)
    assert list(view.children(root)) == ['a_var', 'b_var', 'vars', 'leaf']
    assert view.root is root and len(view.descendants()) == 14
    assert [type(v).__name__ for v in view.descendants()][:5] == [
        'SimpleModule', 'ResourceVariable', 'ResourceVariable', 'ListWrapper', 'SimpleModule']


def test_root_self_dependency_restores(tmp_path):
    root, path = _saved(tmp_path)
    fresh = SimpleModule(name='root')
    fresh.leaf = SimpleModule(name='leaf')
    fresh.leaf.leaf3 = tf.Variable(0.0)
    fresh.leaf.leaf4 = tf.Variable(0.0)
    tf.train.Checkpoint(fresh).restore(path).assert_consumed()
    assert fresh.leaf.leaf4.numpy() == 7.0
    loose = tf.train.Checkpoint(model=SimpleModule())
    loose.restore(path).expect_partial()
