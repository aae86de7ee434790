"""Run on every rank by tests/distribute/test_multiprocess.py (`mpiexec -n 2 python mpi_worker.py
CHECK...`); each rank writes one JSON line per check to rank<r>.jsonl in $DEFUN_TEST_RESULTS (a file
per rank: the ranks' stdout lines would interleave)."""
import json
import os
import signal
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import defun as tf  # noqa: E402
from defun.train import checkpoint_format  # noqa: E402
from tests.distribute import programs  # noqa: E402

def _socket_inodes():
    inodes = set()
    for fd in os.listdir('/proc/self/fd'):
        try:
            target = os.readlink(f'/proc/self/fd/{fd}')
        except OSError:
            continue
        if target.startswith('socket:['):
            inodes.add(target[len('socket:['):-1])
    return inodes


def _address(text):
    host, port = text.split(':')
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        return '.'.join(str(b) for b in raw[::-1]), int(port, 16)
    words = [raw[i:i + 4][::-1] for i in range(0, 16, 4)]
    return ':'.join(b.hex() for b in words), int(port, 16)


def _sockets():
    inodes, found = _socket_inodes(), []
    for proto in ('tcp', 'tcp6', 'udp', 'udp6'):
        with open(f'/proc/net/{proto}') as f:
            for line in list(f)[1:]:
                fields = line.split()
                if fields[9] in inodes:
                    found.append([proto, _address(fields[1]), _address(fields[2])])
    return found


INHERITED_SOCKETS = _sockets()   # before MPI starts: what the launcher left open in this process
d = tf.distribute
STRATEGY = d.MultiWorkerMirroredStrategy()
RANK = STRATEGY.cluster_resolver.task_id or 0   # None when started without a launcher


def check_basics():
    with STRATEGY.scope():
        v = tf.Variable(np.full(3, RANK + 1.0, np.float32))   # rank 0's value wins
    rc_values = STRATEGY.run(lambda: d.get_replica_context().all_reduce(
        'SUM', [tf.constant(RANK + 1.0), tf.constant([RANK, 2 * RANK], tf.int64)]))
    mean = STRATEGY.run(lambda: d.get_replica_context().all_reduce('MEAN', tf.constant(RANK * 2.)))
    uneven = tf.range(RANK + 2, dtype=tf.float32)               # rank 0: [0 1], rank 1: [0 1 2]
    slices = tf.IndexedSlices(tf.constant([[RANK + 1., 0.]]), tf.constant([RANK]),
                              tf.constant([2, 2]))
    summed = STRATEGY.run(lambda: d.get_replica_context().all_reduce('SUM', slices))
    x = tf.Variable(RANK + 1.)
    with tf.GradientTape() as tape:
        y = STRATEGY.run(lambda: d.get_replica_context().all_reduce('SUM', x * x))
    return {
        'slices': [summed.values.numpy().tolist(), summed.indices.numpy().tolist()],
        'gradient': float(tape.gradient(y, x)),
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
    @tf.function
    def total(dataset):   # a graph loop over the distributed dataset, a collective per batch
        t = tf.constant(0, tf.int64)
        for x in dataset:
            t += STRATEGY.reduce('SUM', STRATEGY.run(tf.reduce_sum, args=(x,)), axis=None)
        return t
    outs = [step(tf.constant(float(RANK + i))) for i in range(3)]
    source = step.get_concrete_function(tf.constant(0.)).function_source
    return {'outs': [[o.numpy().tolist() for o in out] for out in outs],
            'traces': step.experimental_get_tracing_count(),
            'collectives_in_source': source.count('k_CollectiveAllReduce('),
            'loop_total': int(total(STRATEGY.experimental_distribute_dataset(
                tf.data.Dataset.range(10).batch(4))))}


def check_train():
    model, losses, step = programs.train(STRATEGY, 20, seed=RANK)
    return {'weights': programs.weights(model), 'losses': losses,
            'traces': step.experimental_get_tracing_count()}


def check_hang():
    """The last rank stops taking part (alive, asleep) while the others wait in a collective with
    a 1-second timeout."""
    strategy = d.MultiWorkerMirroredStrategy(
        communication_options=d.experimental.CommunicationOptions(timeout_seconds=1))
    strategy.reduce('SUM', tf.constant(1.), axis=None)
    if RANK == strategy.num_replicas_in_sync - 1:
        time.sleep(60)
    strategy.reduce('SUM', tf.constant(1.), axis=None)
    return {}


def check_fail():
    """The last rank raises after one collective while the others wait in the next one."""
    STRATEGY.reduce('SUM', tf.constant(1.), axis=None)
    if RANK == STRATEGY.num_replicas_in_sync - 1:
        raise RuntimeError('rank failed on purpose')
    STRATEGY.reduce('SUM', tf.constant(1.), axis=None)
    return {}


def check_sockets():
    """This rank's TCP/UDP sockets after collectives have run, and those it had before MPI
    started (the launcher's, inherited)."""
    STRATEGY.run(lambda: d.get_replica_context().all_reduce('SUM', tf.ones([1000])))
    return {'sockets': _sockets(), 'inherited': INHERITED_SOCKETS}


def check_resume():
    """Trains to step 20 from the latest checkpoint in $DEFUN_TEST_CKPT (saving every 5 steps);
    with $DEFUN_TEST_KILL_AT, the last rank kills itself (SIGKILL) after that step."""
    writes = []
    real_write = checkpoint_format.write
    checkpoint_format.write = lambda *args: writes.append(args[0]) or real_write(*args)
    model, optimizer, iterator = programs.build(STRATEGY, seed=RANK)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, iterator=iterator)
    manager = tf.train.CheckpointManager(checkpoint, os.environ['DEFUN_TEST_CKPT'], max_to_keep=2)
    restored = manager.restore_or_initialize()
    kill_at = int(os.environ.get('DEFUN_TEST_KILL_AT', '0'))
    step = programs.make_step(STRATEGY, model, optimizer)
    start = int(optimizer.iterations.numpy())
    for number in range(start + 1, 21):
        step(iterator)
        if number % 5 == 0:
            manager.save()
        if number == kill_at and RANK == STRATEGY.num_replicas_in_sync - 1:
            with open(os.path.join(os.environ['DEFUN_TEST_RESULTS'], 'killed_at'), 'w') as f:
                f.write(repr(time.time()))
            os.kill(os.getpid(), signal.SIGKILL)
    return {'restored': restored and os.path.basename(restored), 'start': start,
            'weights': programs.weights(model), 'writes': [os.path.basename(w) for w in writes]}


with open(os.path.join(os.environ['DEFUN_TEST_RESULTS'], f'rank{RANK}.jsonl'), 'a') as log:
    for name in sys.argv[1:]:
        log.write(json.dumps([name, globals()[f'check_{name}']()]) + '\n')
        log.flush()
