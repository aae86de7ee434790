"""A trace's placeholders take the names of the TensorSpecs that name them, as TF 2.21's."""
import defun as tf


def test_placeholders_named_after_their_specs():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name='images'),
                                  tf.TensorSpec([], tf.int32)])
    def f(x, n):
        return x * tf.cast(n, tf.float32)
    cf = f.get_concrete_function()
    assert [t.name for t in cf.inputs] == ['images:0', 'n:0']
    assert [op.name for op in cf.graph.get_operations() if op.type == 'Placeholder'] == [
        'images', 'n']
    g = tf.function(lambda d: d['a'] * 2)
    assert [t.name for t in g.get_concrete_function(
        {'a': tf.TensorSpec([], tf.float32, name='alpha')}).inputs] == ['alpha:0']
    for specs, names in (((tf.TensorSpec([], name='a'), tf.TensorSpec([], name='a')),
                          ['a:0', 'a_1:0']),
                         ((tf.TensorSpec([], name='b'), tf.TensorSpec([])), ['b:0', 'b_1:0']),
                         ((tf.TensorSpec([], name='x y'), tf.TensorSpec([])),
                          ['Placeholder:0', 'b:0'])):
        add = tf.function(lambda a, b: a + b)
        assert [t.name for t in add.get_concrete_function(*specs).inputs] == names
