"""tf.distribute in one process: the default strategy and the one-replica strategies, as TF 2.21
behaves (the expected values were recorded from TensorFlow with the same programs)."""
import sys

import numpy as np
import pytest

import defun as tf
from defun.core.unsupported import NotInDefunError

d = tf.distribute

STRATEGIES = {'mirrored': lambda: d.MirroredStrategy(),
              'multiworker': lambda: d.MultiWorkerMirroredStrategy(),
              'onedevice': lambda: d.OneDeviceStrategy('/cpu:0')}


def test_default_strategy_and_replica_context():
    s = d.get_strategy()
    assert s.num_replicas_in_sync == 1
    assert not d.has_strategy() and not d.in_cross_replica_context()
    rc = d.get_replica_context()
    assert rc.strategy is s and rc.num_replicas_in_sync == 1
    assert rc.replica_id_in_sync_group.dtype == tf.int32 and int(rc.replica_id_in_sync_group) == 0
    np.testing.assert_array_equal(rc.all_reduce(d.ReduceOp.SUM, tf.constant([1., 2.])), [1., 2.])
    mean = rc.all_reduce('MEAN', [tf.constant(1.), tf.constant(3.)])
    assert [float(m) for m in mean] == [1.0, 3.0]
    with s.scope():   # the default strategy's scope changes nothing
        assert not d.has_strategy() and d.get_replica_context() is rc


def test_default_run_reduce_merge_call_and_dataset():
    s = d.get_strategy()
    assert float(s.run(lambda x: x * 2, args=(tf.constant(3.),))) == 6.0
    np.testing.assert_array_equal(s.reduce('SUM', tf.constant([1., 2.]), axis=None), [1., 2.])
    assert float(s.reduce(d.ReduceOp.MEAN, tf.constant([1., 2.]), axis=0)) == 1.5
    assert s.experimental_local_results([1, 2]) == ([1, 2],)

    def fn():
        return d.get_replica_context().merge_call(
            lambda strategy, x: (strategy is s, d.in_cross_replica_context(), x), args=(5,))
    assert s.run(fn) == (True, True, 5)
    dataset = tf.data.Dataset.range(10).batch(4)
    assert s.experimental_distribute_dataset(dataset) is dataset


def test_default_extended():
    s = d.get_strategy()
    v = tf.Variable(2.)
    s.extended.update(v, lambda var, g: var.assign_sub(g), args=(tf.constant(1.),))
    assert float(v) == 1.0
    grouped = s.extended.update(v, lambda var, g: var.assign_sub(g), args=(tf.constant(1.),),
                                group=False)
    assert isinstance(grouped, tuple) and len(grouped) == 1 and float(v) == 0.0
    with s.extended.colocate_vars_with(v):
        pass
    assert s.extended.variable_created_in_scope(v)


def test_reduce_op():
    assert [op.value for op in d.ReduceOp] == ['SUM', 'MEAN']
    with pytest.raises(ValueError, match="'BAD' is not a valid ReduceOp"):
        d.get_strategy().reduce('bad', tf.constant(1.), axis=None)


@pytest.mark.parametrize('name', sorted(STRATEGIES))
def test_one_replica_strategies(name):
    s = STRATEGIES[name]()
    assert s.num_replicas_in_sync == 1 and not d.has_strategy()
    with s.scope():
        assert d.has_strategy() and d.in_cross_replica_context()
        assert d.get_replica_context() is None and d.get_strategy() is s
        v = tf.Variable([1., 2.])
    r = s.run(lambda x: (x * 2, d.get_replica_context().replica_id_in_sync_group,
                         d.in_cross_replica_context(), d.get_strategy() is s,
                         d.get_replica_context().all_reduce('SUM', x)), args=(tf.constant(3.),))
    assert [float(r[0]), int(r[1]), r[2], r[3], float(r[4])] == [6.0, 0, False, True, 3.0]
    assert float(s.reduce('SUM', r[0], axis=None)) == 6.0
    assert float(s.reduce('MEAN', tf.constant([1., 2., 3.]), axis=0)) == 2.0
    np.testing.assert_array_equal(s.gather(tf.constant([[1., 2.]]), axis=0), [[1., 2.]])
    assert s.extended.variable_created_in_scope(v)
    assert not s.extended.variable_created_in_scope(tf.Variable(1.))
    s.extended.update(v, lambda var, g: var.assign_sub(g), args=(tf.constant([1., 1.]),))
    np.testing.assert_array_equal(v.numpy(), [0., 1.])
    assert s.extended.should_checkpoint and s.extended.worker_devices == (
        '/job:localhost/replica:0/task:0/device:CPU:0',)


@pytest.mark.parametrize('name', sorted(STRATEGIES))
def test_one_replica_input(name):
    s = STRATEGIES[name]()
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(4))
    assert isinstance(dd, d.DistributedDataset)
    assert [list(x.numpy()) for x in dd] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert isinstance(iter(dd), d.DistributedIterator)
    seen = []

    def dataset_fn(ctx):
        seen.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync,
                     ctx.get_per_replica_batch_size(8)))
        return tf.data.Dataset.range(6).batch(ctx.get_per_replica_batch_size(4))
    dd2 = s.distribute_datasets_from_function(dataset_fn)
    assert [list(x.numpy()) for x in dd2] == [[0, 1, 2, 3], [4, 5]] and seen == [(1, 0, 1, 8)]
    values = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(ctx.replica_id_in_sync_group))
    local = s.experimental_local_results(values)
    assert len(local) == 1 and int(local[0]) == 0
    assert isinstance(values, d.DistributedValues) == (name != 'onedevice')


def test_all_reduce_in_a_function_and_nested_scopes():
    s = d.MirroredStrategy()

    def step():
        return d.get_replica_context().all_reduce('SUM', [tf.constant(1.), tf.constant([2., 3.])])
    out = tf.function(lambda: s.run(step))()
    assert float(out[0]) == 1.0 and list(out[1].numpy()) == [2., 3.]
    with pytest.raises(RuntimeError, match='Mixing different tf.distribute.Strategy objects'):
        with s.scope():
            with d.MirroredStrategy().scope():
                pass
    with s.scope():
        with s.scope():
            assert d.get_strategy() is s


def test_reduce_in_replica_context_and_input_context_errors():
    s = d.MirroredStrategy()
    with pytest.raises(RuntimeError, match='requires being in cross-replica context'):
        s.run(lambda: s.reduce('SUM', tf.constant(1.), axis=None))
    with pytest.raises(ValueError, match='`global_batch_size` 5 is not divisible by '
                                         '`num_replicas_in_sync` 4'):
        d.InputContext(2, 1, 4).get_per_replica_batch_size(5)
    assert str(d.InputContext(2, 1, 4)) == 'tf.distribute.InputContext(input pipeline id 1, total: 2)'


def test_strategies_defun_does_not_run():
    for cls in (d.TPUStrategy, d.ParameterServerStrategy, d.experimental.CentralStorageStrategy):
        with pytest.raises(NotInDefunError, match=cls.__name__):
            cls()
    assert not isinstance(d.get_strategy(), d.TPUStrategy)
    with pytest.raises(ValueError, match='one replica per process'):
        d.MirroredStrategy(['/cpu:0', '/cpu:1'])


def test_loss_scaling_follows_the_replica_context():
    s = d.MirroredStrategy()
    with s.scope():
        with pytest.raises(RuntimeError, match='`compute_average_loss` in cross replica context'):
            tf.nn.compute_average_loss(tf.constant([1., 2.]))
        with pytest.raises(RuntimeError, match='`scale_regularization_loss` in cross replica'):
            tf.nn.scale_regularization_loss(tf.constant(2.))
    assert float(s.run(lambda: tf.nn.compute_average_loss(tf.constant([1., 2.])))) == 1.5
    assert float(s.run(lambda: tf.nn.scale_regularization_loss(
        [tf.constant(2.), tf.constant(3.)]))) == 5.0


def test_optimizer_step_in_a_replica_context():
    s = d.MirroredStrategy()
    with s.scope():
        w = tf.Variable([1., 2.])
        opt = tf.optimizers.SGD(0.5)

    @tf.function
    def train():
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * w)
            opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
        s.run(step)
    train()
    np.testing.assert_allclose(w.numpy(), [0., 0.])


def test_one_process_needs_no_mpi(monkeypatch):
    for variable in ('PMI_SIZE', 'OMPI_COMM_WORLD_SIZE', 'MV2_COMM_WORLD_SIZE',
                     'SLURM_STEP_NUM_TASKS'):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setitem(sys.modules, 'mpi4py', None)      # as if mpi4py were not installed
    monkeypatch.setitem(sys.modules, 'mpi4py.MPI', None)
    s = d.MultiWorkerMirroredStrategy()
    assert s.num_replicas_in_sync == 1
    assert (s.cluster_resolver.task_type, s.cluster_resolver.task_id) == (None, None)


def test_a_launcher_without_mpi4py_names_the_extra(monkeypatch):
    monkeypatch.setenv('PMI_SIZE', '2')
    monkeypatch.setitem(sys.modules, 'mpi4py', None)
    monkeypatch.setitem(sys.modules, 'mpi4py.MPI', None)
    with pytest.raises(ImportError, match=r"pip install 'defun\[mpi\]'"):
        d.MultiWorkerMirroredStrategy()


def test_communication_options():
    options = d.experimental.CommunicationOptions(timeout_seconds=3)
    assert (options.bytes_per_pack, options.timeout_seconds) == (0, 3)
    assert options.implementation is d.experimental.CommunicationImplementation.AUTO
    assert repr(options) == ('Options(bytes_per_pack=0,timeout_seconds=3, '
                             'implementation=CommunicationImplementation.AUTO)')
    with pytest.raises(ValueError, match='`bytes_per_pack` must be >=0, Received -1.'):
        d.experimental.CommunicationOptions(bytes_per_pack=-1)
    with pytest.raises(NotInDefunError, match='NCCL'):
        d.experimental.CommunicationOptions(
            implementation=d.experimental.CommunicationImplementation.NCCL)
    s = d.MultiWorkerMirroredStrategy(communication_options=options)
    assert s.num_replicas_in_sync == 1


def test_a_distributed_dataset_in_a_function():
    s = d.MirroredStrategy()
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(4))

    @tf.function
    def total(ds):
        t = tf.constant(0, tf.int64)
        for x in ds:
            t += s.reduce('SUM', s.run(tf.reduce_sum, args=(x,)), axis=None)
        return t
    assert int(total(dd)) == 45
    it = iter(dd)
    step = tf.function(lambda it: s.run(lambda v: v * 2, args=(next(it),)))
    assert list(step(it).numpy()) == [0, 2, 4, 6] and list(step(it).numpy()) == [8, 10, 12, 14]
    assert step.experimental_get_tracing_count() == 1
