"""Lists and dicts held by trackable objects: TF's ListWrapper / DictWrapper, and restorations that
wait on them. Expected reprs and behaviours were recorded with TensorFlow 2.21
(/work/tfenv/bin/python)."""
import copy
import pickle

import defun as tf


def test_attribute_lists_and_dicts_are_wrapped_and_print_as_tf():
    m = tf.Module()
    m.l, m.d, m.t, m.e = [1, 2], {'a': 1}, (1, 2), []
    # TF 2.21: ListWrapper([1, 2]) DictWrapper({'a': 1}) <class 'tuple'> ListWrapper([])
    assert repr(m.l) == 'ListWrapper([1, 2])' and str(m.l) == 'ListWrapper([1, 2])'
    assert repr(m.d) == "DictWrapper({'a': 1})"
    assert type(m.t) is tuple and repr(m.e) == 'ListWrapper([])'
    assert isinstance(m.l, list) and isinstance(m.d, dict)
    assert m.l == [1, 2] and m.d == {'a': 1}


def test_values_put_into_wrappers_are_wrapped_in_turn():
    c = tf.train.Checkpoint()
    c.z = {'k': [1]}
    assert repr(c.z) == "DictWrapper({'k': ListWrapper([1])})"  # TF 2.21
    m = tf.Module()
    m.l = [[1]]
    m.l.append([2])
    m.d = {}
    m.d['x'] = [3]
    assert [type(v).__name__ for v in (m.l[0], m.l[1], m.d['x'])] == ['ListWrapper'] * 3


def test_wrapper_operations_return_what_tf_returns():
    m = tf.Module()
    m.l = [1, 2]
    # TF 2.21: copies stay wrappers; slices, sums and products are plain lists.
    assert type(copy.copy(m.l)).__name__ == 'ListWrapper'
    assert type(copy.deepcopy(m.l)).__name__ == 'ListWrapper'
    assert type(m.l[:1]) is list and type(m.l + [3]) is list and type(m.l * 2) is list
    assert m.l * 2 == [1, 2, 1, 2]
    assert pickle.loads(pickle.dumps(m.l)) == [1, 2]
    tf.nest.assert_same_structure(m.l, [1, 2])  # TF accepts a ListWrapper for a list
    m.d = {'a': 1}
    assert tf.nest.map_structure(lambda x: x * 10, m.d) == {'a': 10}


def test_variables_appended_to_a_tracked_list_are_found():
    m = tf.Module()
    m.layers = []
    m.layers.append(tf.Module(name='inner'))
    m.layers[0].w = tf.Variable(1.0)
    m.slots = {}
    m.slots['b'] = tf.Variable(2.0)
    assert len(m.submodules) == 1 and sorted(v.numpy() for v in m.variables) == [1.0, 2.0]


def test_append_after_restore_restores_the_new_element(tmp_path):
    # The checkpoint guide's example: TF restores v1 when it is appended to the list.
    save = tf.train.Checkpoint()
    save.listed = [tf.Variable(1.)]
    save.listed.append(tf.Variable(2.))
    save.listed.append(tf.Variable(5.))
    save.mapped = {'one': save.listed[0]}
    save.mapped['two'] = save.listed[1]
    save_path = save.save(str(tmp_path / 'tf_list_example'))

    restore = tf.train.Checkpoint()
    v2 = tf.Variable(0.)
    restore.mapped = {'two': v2}
    restore.restore(save_path)
    assert v2.numpy() == 2.0
    restore.listed = []
    assert repr(restore.listed) == 'ListWrapper([])'
    v1 = tf.Variable(0.)
    restore.listed.append(v1)
    assert v1.numpy() == 1.0
    # TF 2.21: the saved value already bound to v2 is not restored a second time (0.0); the
    # third element is (5.0).
    later, third = tf.Variable(0.), tf.Variable(0.)
    restore.listed.append(later)
    restore.listed.append(third)
    assert later.numpy() == 0.0 and third.numpy() == 5.0


def test_dict_entry_added_after_restore_is_restored(tmp_path):
    save = tf.train.Checkpoint(model=tf.Module())
    save.model.table = {'w': tf.Variable([1.0, 2.0]), 'b': tf.Variable(3.0)}
    path = save.write(str(tmp_path / 'ckpt'))
    restore = tf.train.Checkpoint(model=tf.Module())
    restore.restore(path)
    restore.model.table = {}
    restore.model.table['b'] = tf.Variable(0.0)
    restore.model.table.update(w=tf.Variable([0.0, 0.0]))
    assert restore.model.table['b'].numpy() == 3.0
    assert restore.model.table['w'].numpy().tolist() == [1.0, 2.0]


def test_saved_model_lists_come_back_wrapped(tmp_path):
    m = tf.Module()
    m.items = [tf.Variable(1.0), (tf.Variable(2.0),)]
    tf.saved_model.save(m, str(tmp_path / 'sm'))
    loaded = tf.saved_model.load(str(tmp_path / 'sm'))
    assert type(loaded.items).__name__ == 'ListWrapper' and type(loaded.items[1]) is tuple
    assert loaded.items[1][0].numpy() == 2.0


def test_a_wrapper_shares_the_list_it_wraps():
    # TF 2.21: `m.l = x` wraps x without copying: appends through either are seen by both, and
    # C code reading the list (json, numpy) sees the same items.
    import json

    import numpy as np
    m = tf.Module()
    x = [1, 2]
    m.l = x
    assert m.l is not x and m.l == x
    x.append(3)
    assert repr(m.l) == 'ListWrapper([1, 2, 3])' and len(m.l) == 3
    assert np.array(m.l).tolist() == [1, 2, 3] and json.dumps(m.l) == '[1, 2, 3]'
    m.l.append(4)
    assert x == [1, 2, 3, 4]
    assert tuple(m.l) == (1, 2, 3, 4) and list(reversed(m.l)) == [4, 3, 2, 1]
    del m.l[0]
    m.l.sort(reverse=True)
    assert x == [4, 3, 2] and m.l.pop() == 2 and x == [4, 3]


def test_variables_appended_through_an_alias_are_tracked():
    m = tf.Module()
    m.vs = vs = []
    vs.append(tf.Variable(1.0))
    vs.append(tf.Variable(2.0))
    assert [v.numpy() for v in m.variables] == [1.0, 2.0]


def test_a_dict_wrapper_shares_the_dict_it_wraps():
    import json
    m = tf.Module()
    d = {'a': 1}
    m.d = d
    d['b'] = 2
    assert repr(m.d) == "DictWrapper({'a': 1, 'b': 2})"
    assert json.dumps(m.d) == '{"a": 1, "b": 2}'  # (TF's wrapper is not JSON-serialisable)
    m.d['c'] = tf.Variable(3.0)
    assert sorted(d) == ['a', 'b', 'c'] and [v.numpy() for v in m.variables] == [3.0]
    assert dict(m.d) == d and {**m.d} == d and m.d == d
    assert m.d.pop('a') == 1 and 'a' not in d and m.d.get('b') == 2
    # TF 2.21: copy() is a wrapper again (TF's class is _DictWrapper); | gives a plain dict.
    assert isinstance(m.d.copy(), type(m.d)) and (m.d | {'z': 0}) == {'b': 2, 'c': m.d['c'],
                                                                        'z': 0}
