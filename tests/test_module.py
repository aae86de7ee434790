"""tf.Module: names, name scopes, collections in TF's order, traversal paths, tf.function methods
and lazily created variables, gradients. Expected names and orders were recorded by running the
same code under TensorFlow 2.21 (/work/tfenv)."""
import numpy as np
import pytest

import defun as tf
from defun.state import module


class Leaf(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(1.0, name='w')
        self.b = tf.Variable(2.0, name='b', trainable=False)


class Tree(tf.Module):
    def __init__(self):
        super().__init__()
        self.z = Leaf(name='zz')
        self.a = [Leaf(), {'k2': Leaf(name='k2'), 'k1': tf.Variable(3.0, name='v_k1')}]
        self.t = (self.z, tf.Variable(4.0, name='t1'))
        self.n = None


def test_collections_follow_tf_order_without_duplicates():
    m = Tree()
    assert m.name == 'tree' and m.name_scope.name == 'tree/'
    # Recorded from TF 2.21: own leaves (attributes sorted, nest order) before sub-modules' leaves.
    assert [s.name for s in m.submodules] == ['leaf', 'k2', 'zz']
    assert [v.name for v in m.variables] == ['v_k1:0', 't1:0', 'b:0', 'leaf/w:0', 'b:0',
                                             'k2/w:0', 'b:0', 'zz/w:0']
    assert [v.name for v in m.trainable_variables] == ['v_k1:0', 't1:0', 'leaf/w:0', 'k2/w:0',
                                                       'zz/w:0']
    assert [v.name for v in m.non_trainable_variables] == ['b:0', 'b:0', 'b:0']
    assert len({id(v) for v in m.variables}) == len(m.variables)


def test_flatten_with_path_reports_every_path():
    m = Tree()
    paths = [p for p, _ in m._flatten(with_path=True,
                                      predicate=lambda x: isinstance(x, tf.Variable))]
    # Recorded from TF 2.21 (with paths, a module reached twice is reported on both paths).
    assert paths == [('a', 1, 'k1'), ('t', 1), ('a', 0, 'b'), ('a', 0, 'w'), ('a', 1, 'k2', 'b'),
                     ('a', 1, 'k2', 'w'), ('t', 0, 'b'), ('t', 0, 'w'), ('z', 'b'), ('z', 'w')]


def test_walk_non_recursive_and_cycles():
    m = Tree()
    own = list(module.walk(m, recursive=False, predicate=lambda x: isinstance(x, tf.Variable)))
    assert [v.name for v in own] == ['v_k1:0', 't1:0']
    a, b = tf.Module(name='a'), tf.Module(name='b')
    a.child, b.parent = b, a
    a.v = tf.Variable(1.0, name='va')
    assert [s.name for s in a.submodules] == ['b']
    assert [v.name for v in a.variables] == ['va:0']


def test_names_validated_as_tf():
    for bad in ['1x', 'a b', 'a/b', '']:
        with pytest.raises(ValueError, match='is not a valid module name'):
            tf.Module(name=bad)
    with pytest.raises(TypeError):
        tf.Module(name=3)

    class CamelCaseHTTPModule(tf.Module):
        pass
    assert CamelCaseHTTPModule().name == 'camel_case_http_module'


def test_name_scopes_nest_and_prefix_variables():
    with tf.name_scope('outer'):
        mo = tf.Module(name='mo')
    assert mo.name_scope.name == 'outer/mo/'
    with mo.name_scope:
        with mo.name_scope:  # the same scope object entered twice
            v = tf.Variable(1.0, name='q')
        assert tf.Variable(1.0, name='r').name == 'outer/mo/r:0'
    assert v.name == 'outer/mo/q:0'
    assert tf.Variable(1.0, name='s').name == 's:0'


def test_with_name_scope():
    class W(tf.Module):
        @tf.Module.with_name_scope
        def make(self):
            return tf.Variable(1.0, name='inner')
    assert W(name='wmod').make().name == 'wmod/inner:0'
    assert W.make.__name__ == 'make'


class Flexible(tf.Module):
    def __init__(self, out, name=None):
        super().__init__(name=name)
        self.is_built = False
        self.out = out

    @tf.function
    def __call__(self, x):
        if not self.is_built:
            self.w = tf.Variable(tf.ones([x.shape[-1], self.out]), name='w')
            self.is_built = True
        return tf.matmul(x, self.w)


def test_lazy_variables_in_function_method_per_instance():
    m = Flexible(2)
    np.testing.assert_allclose(m(tf.ones([1, 3])).numpy(), [[3., 3.]])
    assert [v.name for v in m.variables] == ['w:0']
    m(tf.ones([2, 3]))
    # TF 2.21 counts 3: the first call traces twice (creating, then checking no creation).
    assert m.__call__.experimental_get_tracing_count() == 3
    m2 = Flexible(2)
    m2(tf.ones([1, 3]))
    assert m2.__call__.experimental_get_tracing_count() == 2
    assert m.w is not m2.w


def test_variable_created_on_every_call_is_refused():
    class Bad(tf.Module):
        @tf.function
        def __call__(self, x):
            self.v = tf.Variable(1.0)
            return x * self.v
    with pytest.raises(ValueError, match='singleton tf.Variables created on the first call'):
        Bad()(tf.constant(1.0))


def test_gradient_tape_over_trainable_variables():
    class Linear(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0], [2.0]], name='w')
            self.b = tf.Variable([0.5], name='b')
            self.frozen = tf.Variable(3.0, trainable=False)

        @tf.function
        def __call__(self, x):
            return tf.matmul(x, self.w) + self.b * self.frozen

    model = Linear()
    x = tf.constant([[1.0, 1.0], [2.0, 0.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) ** 2)
    gb, gw = tape.gradient(loss, model.trainable_variables)  # attributes sorted: b, w
    # d/dw sum((xw + 3b)^2) = 2 x^T (xw + 3b); d/db = 6 sum(xw + 3b)
    y = x.numpy() @ np.array([[1.], [2.]]) + 1.5
    np.testing.assert_allclose(gw.numpy(), 2 * x.numpy().T @ y, rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), [6 * y.sum()], rtol=1e-6)


def test_module_name_scope_in_a_graph_is_uniquified():
    names = []

    @tf.function
    def f():
        names.extend([tf.Module(name='inner').name_scope.name,
                      tf.Module(name='inner').name_scope.name])
        return 0
    f()
    assert names == ['inner/', 'inner_1/']  # as TF 2.21


def test_variable_repr_scalar_is_python_scalar():
    # Recorded from TF 2.21.
    assert repr(tf.Variable(0.1, name='x')) == \
        "<tf.Variable 'x:0' shape=() dtype=float32, numpy=0.10000000149011612>"
    assert repr(tf.Variable(True, name='t')) == \
        "<tf.Variable 't:0' shape=() dtype=bool, numpy=True>"
