"""Datasets inside compiled functions: AutoGraph `for x in ds` (with break, Python accumulators,
nested structures, partial batches), ds.reduce, Dataset arguments traced by element_spec, datasets
built from graph tensors, and explicit iterators. Expected values computed with plain Python."""
import numpy as np
import pytest

import defun as tf

D = tf.data.Dataset


def test_for_over_closed_dataset_with_python_accumulator():
    ds = D.range(10, output_type=tf.int32)

    @tf.function
    def total():
        s = 0
        for x in ds:
            s += x
        return s
    assert int(total()) == 45 and int(total()) == 45   # each call iterates afresh


def test_for_with_break():
    ds = D.range(100)

    @tf.function
    def f():
        s = tf.constant(0, tf.int64)
        for x in ds:
            if x > 4:
                break
            s += x
        return s
    assert int(f()) == sum(range(5))

    @tf.function
    def infinite():
        n = tf.constant(0)
        for _ in D.range(3).repeat():
            n += 1
            if n >= 7:
                break
        return n
    assert int(infinite()) == 7


def test_for_over_nested_structures_and_partial_batches():
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    y = np.arange(5, dtype=np.int32)
    ds = D.from_tensor_slices({'x': x, 'y': y}).batch(2)

    @tf.function
    def f(d):
        total, count = 0., 0
        for batch in d:
            total += tf.reduce_sum(batch['x'])
            count += tf.shape(batch['y'])[0]
        return total, count
    total, count = f(ds)
    assert float(total) == x.sum() and int(count) == 5


def test_dataset_argument_traces_by_element_spec():
    @tf.function
    def f(d):
        s = tf.constant(0, tf.int64)
        for a, b in d:
            s += tf.reduce_sum(tf.cast(a * b, tf.int64))
        return s
    d1 = D.from_tensor_slices((np.arange(4), np.arange(4)))
    d2 = D.from_tensor_slices((np.arange(3) + 1, np.arange(3)))
    assert int(f(d1)) == 14 and int(f(d2)) == 8
    assert f.experimental_get_tracing_count() == 1
    f(D.from_tensor_slices((np.arange(3.), np.arange(3.))))      # another spec: retrace
    assert f.experimental_get_tracing_count() == 2


def test_reduce_and_map_inside_function_with_captures():
    @tf.function
    def f(d, w):
        return d.map(lambda x: tf.cast(x, tf.float32) * w).reduce(0., lambda s, x: s + x)
    assert float(f(D.range(4), tf.constant(2.0))) == 12.0
    assert float(f(D.range(5), tf.constant(1.0))) == 10.0

    @tf.function
    def g():
        return D.range(5).reduce(np.int64(0), lambda s, x: s + x)
    assert int(g()) == 10


def test_dataset_built_from_graph_tensors():
    @tf.function
    def f(x):
        s = tf.constant(0.)
        for v in D.from_tensor_slices(x).map(lambda t: t * 2.):
            s += v
        return s
    assert float(f(tf.constant([1., 2., 3.]))) == 12.0
    assert float(f(tf.constant([1., 1.]))) == 4.0

    @tf.function
    def g(n):
        return D.range(n).flat_map(lambda i: D.range(i)).reduce(np.int64(0),
                                                                lambda s, v: s + 1)
    assert int(g(tf.constant(4, tf.int64))) == 6


def test_training_loop_inside_function():
    xs = np.linspace(-1, 1, 32).astype(np.float32)
    ys = 3 * xs + 1
    w, b = tf.Variable(0.), tf.Variable(0.)
    ds = D.from_tensor_slices((xs, ys)).shuffle(32, seed=1).batch(8)

    @tf.function
    def epoch():
        for x, y in ds:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((w * x + b - y) ** 2)
            gw, gb = tape.gradient(loss, [w, b])
            w.assign_sub(0.5 * gw)
            b.assign_sub(0.5 * gb)
        return loss
    for _ in range(30):
        epoch()
    assert abs(float(w) - 3) < 0.05 and abs(float(b) - 1) < 0.05


def test_explicit_iterator_in_function():
    ds = D.range(3)

    @tf.function
    def f():
        it = iter(ds)
        a = next(it)
        b = next(it)
        opt = it.get_next_as_optional()
        return a + b, opt.has_value()
    s, has = f()
    assert int(s) == 1 and bool(has)

    @tf.function
    def g():
        it = iter(D.range(1))
        next(it)
        return next(it)
    with pytest.raises(tf.errors.OutOfRangeError):
        g()


def test_eager_iterator_argument_is_advanced_by_the_graph():
    # TF's function guide: an iterator passed to a tf.function is consumed by next() inside it
    @tf.function
    def consume(iterator):
        return next(iterator)
    it = iter(D.from_tensor_slices([1, 2, 3]))
    assert [int(consume(it)) for _ in range(3)] == [1, 2, 3]
    assert consume.experimental_get_tracing_count() == 1
    with pytest.raises(StopIteration):
        next(it)


def test_loop_variables_relax_like_tf_reduce():
    # TF's function guide: a scalar accumulating elements of unknown shape (TF runs the loop as a
    # reduce, which relaxes the state's shape; recorded: the output has unknown shape)
    @tf.function
    def train(dataset):
        loss = tf.constant(0)
        for x, y in dataset:
            loss += tf.abs(y - x)
        return loss
    ds = D.from_generator(lambda: [(1, 2)] * 3, (tf.int32, tf.int32))
    assert int(train(ds)) == 3
    assert train.get_concrete_function(ds).structured_outputs.shape.rank is None


def test_enumerate_and_zip_of_datasets_in_function():
    @tf.function
    def f(d):
        s = tf.constant(0, tf.int64)
        for i, x in enumerate(d):
            s += i * x
        for a, b in zip(d, d):
            s += a * b
        return s
    assert int(f(D.range(4))) == sum(i * i for i in range(4)) * 2


def test_dataset_loops_have_no_gradient_as_in_tf():
    # recorded from TF 2.21: TF runs these loops as ReduceDataset, which has no gradient
    ds = D.range(3).map(lambda x: tf.cast(x, tf.float32))
    w = tf.Variable(2.0)

    @tf.function
    def loop():
        with tf.GradientTape() as tape:
            loss = tf.constant(0.)
            for x in ds:
                loss += w * x
        return loss, tape.gradient(loss, w)
    loss, grad = loop()
    assert float(loss) == 6.0 and grad is None
    with tf.GradientTape() as tape:
        total = ds.reduce(0., lambda s, x: s + w * x)
    assert float(total) == 6.0 and tape.gradient(total, w) is None


def test_len_and_cardinality_of_dataset_arguments():
    # recorded from TF 2.21: the cardinality of an argument is known when the graph runs
    @tf.function
    def f(d):
        return len(d), d.cardinality()
    n, c = f(D.range(5))
    assert int(n) == 5 and int(c) == 5
    n, c = f(D.range(7))
    assert int(n) == 7 and f.experimental_get_tracing_count() == 1
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='len requires dataset with definitive cardinality'):
        f(D.range(3).repeat())
