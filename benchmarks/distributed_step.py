"""D1: what tf.distribute costs: start-up (import, the strategy, which starts MPI under a
launcher), an all-reduce of 1,000 and of 1,000,000 float32, and a compiled training step of an MLP
(64-256-10, Adam, global batch 256) with the time its collectives take. Run it alone and under a
launcher, and compare the two lines:

    OPENBLAS_NUM_THREADS=1 python benchmarks/distributed_step.py
    OPENBLAS_NUM_THREADS=1 mpiexec -n 2 python benchmarks/distributed_step.py
"""
import time

START = time.perf_counter()
import numpy as np  # noqa: E402

import defun as tf  # noqa: E402

IMPORTED = time.perf_counter()
STEPS, GLOBAL_BATCH = 200, 256


def allreduce_ms(engine, size, repeats):
    array = np.ones(size, np.float32)
    engine.allreduce(array, 'sum')
    engine.barrier()
    start = time.perf_counter()
    for _ in range(repeats):
        engine.allreduce(array, 'sum')
    return (time.perf_counter() - start) / repeats * 1e3


def make_step(strategy):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4096, 64)).astype(np.float32)
    y = rng.integers(0, 10, 4096).astype(np.int32)
    with strategy.scope():
        params = [tf.Variable(rng.normal(0, .1, (64, 256)).astype(np.float32)),
                  tf.Variable(np.zeros(256, np.float32)),
                  tf.Variable(rng.normal(0, .1, (256, 10)).astype(np.float32)),
                  tf.Variable(np.zeros(10, np.float32))]
        optimizer = tf.keras.optimizers.Adam(0.01)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(GLOBAL_BATCH)
    iterator = iter(strategy.experimental_distribute_dataset(dataset))

    @tf.function
    def step(iterator):
        def replica_step(batch):
            features, labels = batch
            with tf.GradientTape() as tape:
                w1, b1, w2, b2 = params
                logits = tf.nn.relu(features @ w1 + b1) @ w2 + b2
                loss = tf.nn.compute_average_loss(
                    tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits),
                    global_batch_size=GLOBAL_BATCH)
            optimizer.apply_gradients(zip(tape.gradient(loss, params), params))
            return loss
        return strategy.reduce('SUM', strategy.run(replica_step, args=(next(iterator),)), None)
    return lambda: step(iterator)


def main():
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    ready = time.perf_counter()
    engine = strategy.extended.engine
    spent = [0.0]
    allreduce = engine.allreduce

    def timed(array, op):   # the time the step's collectives take (waiting for peers included)
        began = time.perf_counter()
        try:
            return allreduce(array, op)
        finally:
            spent[0] += time.perf_counter() - began
    small, large = allreduce_ms(engine, 1000, 200), allreduce_ms(engine, 1000000, 10)
    step = make_step(strategy)
    for _ in range(5):
        step()
    engine.allreduce = timed
    engine.barrier()
    spent[0], began = 0.0, time.perf_counter()
    for _ in range(STEPS):
        step()
    step_ms = (time.perf_counter() - began) / STEPS * 1e3
    if engine.rank == 0:
        print(f'{engine.world_size} process(es): import {IMPORTED - START:.2f} s, strategy '
              f'{ready - IMPORTED:.2f} s; allreduce 1e3 float32 {small:.3f} ms, 1e6 {large:.1f} ms; '
              f'step {step_ms:.2f} ms, of which collectives {spent[0] / STEPS * 1e3:.2f} ms')


if __name__ == '__main__':
    main()
