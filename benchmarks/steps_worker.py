"""The TensorFlow side of benchmarks/real_steps.py, run by another interpreter (one with TensorFlow;
defun never depends on it): it builds the steps_tf2.py workloads with `import tensorflow as tf` from
the arrays in an .npz file and answers one JSON request per line on stdin, one JSON reply per line
on stdout, so that the driver can interleave its rounds with the in-process numpy and defun runs.

    {"op": "losses", "name": "cnn", "steps": 3}   -> {"losses": [...]} from a fresh model
    {"op": "calibrate", "name": "cnn", "min_time": 0.05} -> {"number": calls per sample}
    {"op": "time", "name": "cnn", "number": 8}    -> {"seconds": seconds per call}
    {"op": "quit"}
"""
import json
import os
import sys

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')
os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')
# Replies go to a private copy of stdout; anything TensorFlow prints goes to stderr instead.
_REPLIES = os.fdopen(os.dup(1), 'w')
os.dup2(2, 1)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import calls_for, timed  # noqa: E402
import steps_tf2  # noqa: E402


def main():
    data, threads = sys.argv[1], int(sys.argv[2])
    tf.config.threading.set_intra_op_parallelism_threads(threads)
    tf.config.threading.set_inter_op_parallelism_threads(threads)
    with np.load(data) as npz:
        arrays = dict(npz)
    timed_steps = {}
    reply({'tensorflow': tf.__version__})
    for line in sys.stdin:
        request = json.loads(line)
        op, name = request['op'], request.get('name')
        if op == 'quit':
            break
        if op == 'losses':
            step, args = steps_tf2.build(tf, name, arrays)
            reply({'losses': [float(step(*args)) for _ in range(request['steps'])]})
            continue
        if name not in timed_steps:
            timed_steps[name] = steps_tf2.build(tf, name, arrays)
        step, args = timed_steps[name]
        call = lambda: step(*args)
        if op == 'calibrate':
            reply({'number': calls_for(call, request['min_time'])})
        else:
            reply({'seconds': timed(call, request['number'])})


def reply(obj):
    _REPLIES.write(json.dumps(obj) + '\n')
    _REPLIES.flush()


if __name__ == '__main__':
    main()
