"""tf.nest over lists, tuples, dicts (sorted by key) and namedtuples; everything else is a leaf."""
import collections
import dataclasses

import pytest

import defun as tf
from defun.core import nest

Point = collections.namedtuple('Point', ['x', 'y'])


@dataclasses.dataclass
class Box:
    value: int


def test_flatten_orders_dicts_by_key_and_keeps_leaves():
    structure = {'b': [1, (2, 3)], 'a': Point(4, {'z': 5, 'y': 6}), 'c': None}
    assert nest.flatten(structure) == [4, 6, 5, 1, 2, 3, None]


def test_flatten_of_leaf_is_a_singleton():
    assert nest.flatten(7) == [7]
    assert nest.flatten(None) == [None]
    box = Box(1)
    assert nest.flatten(box) == [box]
    t = tf.constant([1.0, 2.0])
    assert nest.flatten(t)[0] is t and len(nest.flatten(t)) == 1
    assert nest.flatten([]) == [] and nest.flatten({}) == []


def test_pack_sequence_as_round_trips():
    structure = {'b': [1, (2, 3)], 'a': Point(4, {'z': 5, 'y': 6})}
    flat = nest.flatten(structure)
    packed = nest.pack_sequence_as(structure, [v * 10 for v in flat])
    assert packed == {'b': [10, (20, 30)], 'a': Point(40, {'z': 50, 'y': 60})}
    assert type(packed['a']) is Point and type(packed['b']) is list
    assert type(packed['b'][1]) is tuple
    assert list(packed) == ['b', 'a']  # the template's own key order is kept


def test_pack_sequence_as_wrong_length_raises():
    with pytest.raises(ValueError):
        nest.pack_sequence_as([1, 2], [1])
    with pytest.raises(ValueError):
        nest.pack_sequence_as(1, [1, 2])
    assert nest.pack_sequence_as(1, [5]) == 5


def test_ordered_dict_keeps_its_type():
    od = collections.OrderedDict([('b', 1), ('a', 2)])
    packed = nest.pack_sequence_as(od, [10, 20])
    assert type(packed) is collections.OrderedDict
    assert packed == {'a': 10, 'b': 20}


def test_map_structure():
    assert nest.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)]) == [11, (22, 33)]
    assert nest.map_structure(lambda v: v * 2, {'k': Point(1, 2)}) == {'k': Point(2, 4)}
    with pytest.raises(ValueError):
        nest.map_structure(lambda a, b: a, [1, 2], [1, 2, 3])
    with pytest.raises(TypeError):
        nest.map_structure(lambda a, b: a, [1, 2], (1, 2))
    assert nest.map_structure(lambda a, b: a, [1, 2], (1, 2), check_types=False) == [1, 2]
    with pytest.raises(ValueError):
        nest.map_structure(lambda v: v)
    with pytest.raises(ValueError):
        nest.map_structure(lambda v: v, [1], bogus=True)


def test_assert_same_structure():
    nest.assert_same_structure([1, (2, {'a': 3})], ['x', ('y', {'a': 'z'})])
    with pytest.raises(ValueError):
        nest.assert_same_structure([1, 2], [1, [2]])
    with pytest.raises(ValueError):
        nest.assert_same_structure({'a': 1}, {'b': 1})
    with pytest.raises(TypeError):
        nest.assert_same_structure([1], (1,))
    nest.assert_same_structure([1], (1,), check_types=False)


def test_unsortable_dict_keys_raise_type_error():
    with pytest.raises(TypeError, match='sortable'):
        nest.flatten({1: 'a', 'b': 2})


def test_tf_nest_is_this_module():
    assert tf.nest.flatten is nest.flatten


def test_flatten_up_to_keeps_what_lies_below_the_shallow_leaves():
    shallow = {'b': 0, 'a': [0, (0,)]}
    deep = {'a': ([1, 2], [3]), 'b': {'x': 4}}
    assert nest.flatten_up_to(shallow, deep) == [[1, 2], 3, {'x': 4}]
    paths = [(p, d) for p, _, d in nest.flatten_up_to_with_paths(shallow, deep)]
    assert paths == [(('a', 0), [1, 2]), (('a', 1, 0), 3), (('b',), {'x': 4})]


@pytest.mark.parametrize('shallow, deep, path', [
    ([0, 0], [1], ()), ({'a': 0}, {'b': 1}, ()), ({'a': [0]}, {'a': 1}, ('a',)),
    ([0, (0, 0)], [1, (2,)], (1,))])
def test_flatten_up_to_names_where_the_structures_differ(shallow, deep, path):
    with pytest.raises(nest.StructureMismatch) as info:
        nest.flatten_up_to(shallow, deep)
    assert isinstance(info.value, ValueError) and info.value.path == path


def test_flatten_up_to_none_fills_a_whole_subtree_when_asked():
    assert nest.flatten_up_to({'a': (0, 0), 'b': 0}, {'a': None, 'b': 2}, none_fills=True) == \
        [None, None, 2]
    with pytest.raises(nest.StructureMismatch):
        nest.flatten_up_to({'a': (0, 0)}, {'a': None})


def test_substructures_lists_every_container_outermost_first():
    inner, dct = [2], {'x': 1, 3: (4,)}   # keys that do not sort are fine here
    outer = [inner, dct]
    assert [id(c) for c in nest.substructures(outer)][:3] == [id(outer), id(inner), id(dct)]
    assert nest.substructures(outer)[3] == (4,) and nest.substructures(5) == []
