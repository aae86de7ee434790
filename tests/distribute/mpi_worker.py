"""Run on every rank by tests/distribute/test_multiprocess.py (`mpiexec -n 2 python mpi_worker.py
CHECK...`); each rank writes one JSON line per check to rank<r>.jsonl in $DEFUN_TEST_RESULTS (a file
per rank: the ranks' stdout lines would interleave)."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import defun as tf  # noqa: E402
from tests.distribute import programs  # noqa: E402

d = tf.distribute
STRATEGY = d.MultiWorkerMirroredStrategy()
RANK = STRATEGY.cluster_resolver.task_id


def check_basics():
    with STRATEGY.scope():
        v = tf.Variable(np.full(3, RANK + 1.0, np.float32))   # rank 0's value wins
    rc_values = STRATEGY.run(lambda: d.get_replica_context().all_reduce(
        'SUM', [tf.constant(RANK + 1.0), tf.constant([RANK, 2 * RANK], tf.int64)]))
    mean = STRATEGY.run(lambda: d.get_replica_context().all_reduce('MEAN', tf.constant(RANK * 2.)))
    uneven = tf.range(RANK + 2, dtype=tf.float32)               # rank 0: [0 1], rank 1: [0 1 2]
    return {
        'world': STRATEGY.num_replicas_in_sync, 'task': [STRATEGY.cluster_resolver.task_type, RANK],
        'variable': v.numpy().tolist(),
        'all_reduce': [float(rc_values[0]), rc_values[1].numpy().tolist()],
        'mean': float(mean),
        'reduce_sum': float(STRATEGY.reduce('SUM', uneven, axis=0)),
        'reduce_mean_axis': float(STRATEGY.reduce('MEAN', uneven, axis=0)),
        'gather': STRATEGY.gather(uneven, axis=0).numpy().tolist(),
        'should_checkpoint': STRATEGY.extended.should_checkpoint,
    }


def check_input():
    split = STRATEGY.experimental_distribute_dataset(tf.data.Dataset.range(7).batch(3))

    def dataset_fn(ctx):
        return tf.data.Dataset.range(8).shard(ctx.num_input_pipelines, ctx.input_pipeline_id).batch(
            ctx.get_per_replica_batch_size(4))
    from_fn = STRATEGY.distribute_datasets_from_function(dataset_fn)
    values = STRATEGY.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(ctx.replica_id_in_sync_group * 10))
    return {'split': [x.numpy().tolist() for x in split],
            'from_function': [x.numpy().tolist() for x in from_fn],
            'values': int(STRATEGY.run(lambda v: v + 1, args=(values,)))}


def check_graph():
    @tf.function
    def step(x):
        def replica_fn(x):
            grads = [x * 2., tf.reshape(x, [1, 1]), tf.cast(x, tf.float64)]
            return d.get_replica_context().all_reduce('SUM', grads)
        return STRATEGY.run(replica_fn, args=(x,))
    outs = [step(tf.constant(float(RANK + i))) for i in range(3)]
    source = step.get_concrete_function(tf.constant(0.)).function_source
    return {'outs': [[o.numpy().tolist() for o in out] for out in outs],
            'traces': step.experimental_get_tracing_count(),
            'collectives_in_source': source.count('k_CollectiveAllReduce(')}


def check_train():
    model, _, _, losses, step = programs.train(STRATEGY, 20, seed=RANK)
    return {'weights': programs.weights(model), 'losses': losses,
            'traces': step.experimental_get_tracing_count()}


with open(os.path.join(os.environ['DEFUN_TEST_RESULTS'], f'rank{RANK}.jsonl'), 'a') as log:
    for name in sys.argv[1:]:
        log.write(json.dumps([name, globals()[f'check_{name}']()]) + '\n')
        log.flush()
