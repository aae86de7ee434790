"""Real training steps on scikit-learn's digits (an MLP, a CNN, a char-RNN; see steps_tf2.py), timed
for defun, the hand-written numpy floor (steps_numpy.py) and, when another interpreter with
TensorFlow is named, TensorFlow running the very same TF2 code in a worker process (steps_worker.py).
Rounds interleave the sides (their order rotating), and the table gives medians of per-round times
and of per-round ratios (with their interquartile range). Before timing, every side trains a fresh
model from the same initial weights for a few steps and the losses must agree. (JAX would need its
own program; not measured.)

    OPENBLAS_NUM_THREADS=1 python benchmarks/real_steps.py [--tf-python /path/to/python]
        [--rounds 11] [--workloads mlp,cnn,rnn] [--tf-threads 1] [--jit]

With --jit, defun also runs every step as tf.function(jit_compile=True) (the native tier; needs the
'jit' extra), a side of its own, `defun+jit`, checked and timed like the others.

The TF interpreter may also be given as $DEFUN_BENCH_TF_PYTHON. TensorFlow runs with one intra- and
one inter-op thread by default, as numpy runs with one BLAS thread. Needs scikit-learn (the 'bench'
extra).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# The checkout this file is in is measured, not whichever defun is installed.
sys.path[:0] = [HERE, os.path.dirname(HERE)]
from common import calls_for, fmt_time, timed  # noqa: E402

import numpy as np  # noqa: E402

import defun  # noqa: E402
import steps_data  # noqa: E402
import steps_numpy  # noqa: E402
import steps_tf2  # noqa: E402

NAMES = ('mlp', 'cnn', 'rnn')
TITLES = {'mlp': 'MLP 64-128-10 step, batch 128, SGD',
          'cnn': 'CNN conv16-maxpool-conv32-avgpool-dense, batch 64, Adam',
          'rnn': 'char-RNN 24 steps, 64 units, embedding, batch 32, Adam'}
LOSS_STEPS, RTOL = 3, 1e-4


class TFWorker:
    """A steps_worker.py process in another interpreter, answering one JSON request at a time."""

    def __init__(self, python, arrays, threads):
        self._data = tempfile.NamedTemporaryFile(suffix='.npz', delete=False)
        np.savez(self._data, **arrays)
        self._data.close()
        worker = os.path.join(HERE, 'steps_worker.py')
        # TensorFlow's start-up chatter is kept out of the report, and shown if the worker dies.
        self._log = tempfile.TemporaryFile(mode='w+')
        self._proc = subprocess.Popen([python, worker, self._data.name, str(threads)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self._log, text=True)
        self.version = self._read()['tensorflow']

    def _read(self):
        line = self._proc.stdout.readline()
        if not line:
            code = self._proc.wait()
            self._log.seek(0)
            raise RuntimeError(f'the TensorFlow worker exited (code {code}):\n'
                               f'{self._log.read()[-2000:]}')
        return json.loads(line)

    def ask(self, **request):
        self._proc.stdin.write(json.dumps(request) + '\n')
        self._proc.stdin.flush()
        return self._read()

    def close(self):
        try:
            self.ask(op='quit')
        except (RuntimeError, OSError):
            pass
        self._proc.wait()
        self._log.close()
        os.unlink(self._data.name)


def losses(arrays, name, worker=None, jit=False):
    """{side: the first LOSS_STEPS losses of a fresh model}, each side from the same weights."""
    numpy_step = steps_numpy.make(name, arrays)
    result = {'numpy': [float(numpy_step()) for _ in range(LOSS_STEPS)]}
    for side, jit_compile in _defun_sides(jit):
        step, args = steps_tf2.build(defun, name, arrays, jit_compile)
        result[side] = [float(step(*args)) for _ in range(LOSS_STEPS)]
    if worker is not None:
        result['tf'] = worker.ask(op='losses', name=name, steps=LOSS_STEPS)['losses']
    return result


def _defun_sides(jit):
    """(side, jit_compile) of each defun side measured."""
    return [('defun', None)] + ([('defun+jit', True)] if jit else [])


def check_losses(found):
    reference = found['numpy']
    for side, values in found.items():
        if not np.allclose(values, reference, rtol=RTOL, atol=RTOL):
            raise AssertionError(f'{side} losses {values} differ from numpy\'s {reference}')


class Side:
    """One timed side of a workload: in-process (a callable) or the TF worker."""

    def __init__(self, call=None, worker=None, name=None, min_time=0.05):
        self.call, self.worker, self.name = call, worker, name
        if worker is None:
            call()
            self.number = calls_for(call, min_time)
        else:
            self.number = worker.ask(op='calibrate', name=name, min_time=min_time)['number']
        self.samples = []

    def sample(self):
        if self.worker is None:
            self.samples.append(timed(self.call, self.number))
        else:
            self.samples.append(self.worker.ask(op='time', name=self.name,
                                                number=self.number)['seconds'])


def measure(arrays, name, rounds, worker=None, min_time=0.05, jit=False):
    sides = {'numpy': Side(steps_numpy.make(name, arrays), min_time=min_time)}
    for side, jit_compile in _defun_sides(jit):
        step, args = steps_tf2.build(defun, name, arrays, jit_compile)
        sides[side] = Side(lambda step=step, args=args: step(*args), min_time=min_time)
    if worker is not None:
        sides['tf'] = Side(worker=worker, name=name, min_time=min_time)
    order = list(sides.values())
    for r in range(rounds):
        for side in order[r % len(order):] + order[:r % len(order)]:
            side.sample()
    return {key: side.samples for key, side in sides.items()}


def ratio(samples, top, bottom):
    """'median (p25-p75)' of the per-round ratios top / bottom, or '-' when a side is missing."""
    if top not in samples or bottom not in samples:
        return '-'
    ratios = [a / b for a, b in zip(samples[top], samples[bottom])]
    if len(ratios) < 2:
        return f'{ratios[0]:.2f}x'
    low, _, high = statistics.quantiles(ratios, n=4)
    return f'{statistics.median(ratios):.2f}x ({low:.2f}-{high:.2f})'


def table(results):
    jit = any('defun+jit' in samples for samples in results.values())
    sides = ('numpy', 'defun') + (('defun+jit',) if jit else ()) + ('tf',)
    pairs = [('defun', 'numpy'), ('defun', 'tf'), ('tf', 'numpy')]
    if jit:
        pairs += [('defun+jit', 'numpy'), ('defun+jit', 'defun')]
    heads = ['numpy', 'defun'] + (['defun+jit'] if jit else []) + ['TensorFlow'] + \
        [f'{a} / {b}'.replace('tf', 'TF') for a, b in pairs]
    lines = ['| workload | ' + ' | '.join(heads) + ' |', '|---|' + '---|' * len(heads)]
    for name, samples in results.items():
        times = [fmt_time(statistics.median(samples[k])).strip() if k in samples else '-'
                 for k in sides]
        cells = times + [ratio(samples, *pair) for pair in pairs]
        lines.append(f'| {TITLES[name]} | ' + ' | '.join(cells) + ' |')
    return '\n'.join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--tf-python', default=os.environ.get('DEFUN_BENCH_TF_PYTHON'))
    parser.add_argument('--rounds', type=int, default=11)
    parser.add_argument('--workloads', default=','.join(NAMES))
    parser.add_argument('--tf-threads', type=int, default=1)
    parser.add_argument('--min-time', type=float, default=0.05)
    parser.add_argument('--jit', action='store_true',
                        help='also time defun with tf.function(jit_compile=True)')
    args = parser.parse_args(argv)
    arrays = steps_data.make_arrays()
    worker = TFWorker(args.tf_python, arrays, args.tf_threads) if args.tf_python else None
    try:
        results = {}
        for name in args.workloads.split(','):
            check_losses(losses(arrays, name, worker, args.jit))
            results[name] = measure(arrays, name, args.rounds, worker, args.min_time, args.jit)
    finally:
        if worker is not None:
            worker.close()
    print(f'numpy {np.__version__}, OPENBLAS_NUM_THREADS={os.environ.get("OPENBLAS_NUM_THREADS")}'
          + (f', TensorFlow {worker.version} ({args.tf_threads} thread(s))' if worker else
             ', TensorFlow not measured (--tf-python)') + f', {args.rounds} interleaved rounds')
    print(table(results))


if __name__ == '__main__':
    main()
