"""The SavedModel loader never trusts its files: corrupted and hostile directories each raise a
clear FormatError (a ValueError) naming the file and the node, nothing in them runs, and nothing is
allocated beyond a bound."""
import json
import os
import random
import shutil

import numpy as np
import pytest

import defun as tf
from defun.saved_model import FormatError

SENTINEL = '/tmp/defun_hostile_model_ran_code'


class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1., 2.], [3., 4.]])

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.matmul(x, self.w), lambda: x)
        return tf.reduce_sum(y * 2.0)


@pytest.fixture(scope='module')
def pristine(tmp_path_factory):
    path = str(tmp_path_factory.mktemp('hostile') / 'model')
    tf.saved_model.save(Model(), path)
    return path


@pytest.fixture
def model_dir(pristine, tmp_path):
    path = str(tmp_path / 'copy')
    shutil.copytree(pristine, path)
    if os.path.exists(SENTINEL):
        os.remove(SENTINEL)
    return path


def _document(path):
    with open(os.path.join(path, 'saved_model.json')) as f:
        return json.load(f)


def _write(path, document):
    with open(os.path.join(path, 'saved_model.json'), 'w') as f:
        json.dump(document, f)


def _ops(document):
    return document['library'][0]['graph']['ops']


def _all_ops(graph):
    for op in graph['ops']:
        yield op
        for value in op['attrs'].values():
            if value.get('t') == 'graph':
                yield from _all_ops(value['v'])


def _op(document, op_type):
    return next(op for entry in document['library'] for op in _all_ops(entry['graph'])
                if op['type'] == op_type)


def test_pristine_copy_loads(model_dir):
    assert tf.saved_model.load(model_dir)(tf.constant([[1., 1.]])).numpy() == 20.0


def _expect_refusal(path, match):
    with pytest.raises(FormatError, match=match):
        tf.saved_model.load(path)
    assert not os.path.exists(SENTINEL)


def test_truncated_json(model_dir):
    target = os.path.join(model_dir, 'saved_model.json')
    with open(target, 'r+') as f:
        f.truncate(os.path.getsize(target) // 2)
    _expect_refusal(model_dir, 'not valid JSON')


def test_unknown_op_type(model_dir):
    document = _document(model_dir)
    _op(document, 'MatMul')['type'] = 'os.system'
    _write(model_dir, document)
    _expect_refusal(model_dir, "not registered in defun")


def test_attribute_the_op_does_not_take(model_dir):
    document = _document(model_dir)
    _op(document, 'ReadVariableOp')['attrs']['__reduce__'] = {'t': 'py', 'v': 'os.system'}
    _write(model_dir, document)
    _expect_refusal(model_dir, "takes no attribute '__reduce__'")


def test_huge_shapes_are_refused_before_allocation(model_dir):
    document = _document(model_dir)
    placeholder = _op(document, 'Placeholder')
    placeholder['attrs']['shape'] = {'t': 'shape', 'v': [1 << 20, 1 << 20, 1 << 20]}
    _write(model_dir, document)
    _expect_refusal(model_dir, 'beyond the bound')


@pytest.mark.parametrize('reference', ['self', 'later'])
def test_cyclic_and_forward_references(model_dir, reference):
    document = _document(model_dir)
    ops = _ops(document)
    i = next(i for i, op in enumerate(ops) if op['inputs'])
    ops[i]['inputs'][0] = [i if reference == 'self' else len(ops) - 1, 0]
    _write(model_dir, document)
    _expect_refusal(model_dir, 'not to an earlier op')


def test_names_with_code_in_them(model_dir):
    document = _document(model_dir)
    _op(document, 'MatMul')['name'] = f"x = open({SENTINEL!r}, 'w')  # "
    _write(model_dir, document)
    _expect_refusal(model_dir, 'cannot be rebuilt')


def test_dunder_attribute_names(model_dir):
    document = _document(model_dir)
    document['objects'][0]['children'].append(['__class__', 1])
    _write(model_dir, document)
    _expect_refusal(model_dir, "'__class__' is not an attribute name")


def test_a_pickled_object_inside_the_npz(model_dir):
    class Evil:
        def __reduce__(self):
            return (open, (SENTINEL, 'w'))
    target = os.path.join(model_dir, 'saved_model.npz')
    names = list(np.load(target).files) or ['c0']
    np.savez(target, **{name: np.array([Evil()], dtype=object) for name in names})
    _expect_refusal(model_dir, 'arrays cannot be read')


def test_a_compressed_member_is_refused(model_dir):
    target = os.path.join(model_dir, 'saved_model.npz')
    arrays = dict(np.load(target))
    np.savez_compressed(target, **arrays)
    if not arrays:
        pytest.skip('the model has no constant arrays')
    _expect_refusal(model_dir, 'compressed')


def test_deep_nesting(model_dir):
    with open(os.path.join(model_dir, 'saved_model.json'), 'w') as f:
        f.write('{"format": "defun-saved-model", "version": 1, "objects": ' + '[' * 100000)
    _expect_refusal(model_dir, 'not valid JSON|nested too deeply')


def test_dangling_function_reference(model_dir):
    document = _document(model_dir)
    document['signatures']['serving_default'] = 'no_such_function'
    _write(model_dir, document)
    _expect_refusal(model_dir, "unknown function 'no_such_function'")


def test_variable_value_that_does_not_match(model_dir):
    document = _document(model_dir)
    variable = next(o for o in document['objects'] if o['kind'] == 'variable')
    variable['dtype'] = 'int64'
    _write(model_dir, document)
    _expect_refusal(model_dir, 'does not match its dtype and shape')


def test_random_corruption_never_escapes_as_another_error(pristine, tmp_path):
    rng = random.Random(1234)
    with open(os.path.join(pristine, 'saved_model.json'), 'rb') as f:
        original = f.read()
    outcomes = {'loaded': 0, 'refused': 0}
    for trial in range(150):
        path = str(tmp_path / f'trial{trial}')
        shutil.copytree(pristine, path)
        data = bytearray(original)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.choice(b'{}[]",:0123456789-aetnulsfr')
        with open(os.path.join(path, 'saved_model.json'), 'wb') as f:
            f.write(bytes(data))
        try:
            tf.saved_model.load(path)
            outcomes['loaded'] += 1
        except (FormatError, OSError):
            outcomes['refused'] += 1
        shutil.rmtree(path)
    assert outcomes['refused'] > 0
    assert not os.path.exists(SENTINEL)
