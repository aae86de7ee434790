"""Bad-argument fuzzing: runs every case of benchmarks/fuzz_cases.py eagerly, inside a compiled
function closing over the arguments, and inside one taking them as arguments, under defun and under
TensorFlow, and reports how often the exception classes agree.

    python benchmarks/fuzz_errors.py [--tf /work/tfenv/bin/python] [-v]

Without a TensorFlow interpreter it prints defun's own results. `--run LIB` (used internally) runs
the cases under one library and prints JSON.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402,F401  (this checkout's defun, not an installed copy)

MODES = ('eager', 'closure', 'args')
# Text that comes from numpy (or Python) rather than from an op's own message.
NUMPY_TEXT = re.compile(r'numpy|ndarray|operands could not be broadcast|is out of bounds for '
                        r'(axis|array)|cannot reshape array|setting an array element|'
                        r'object too deep|only integer scalar arrays|list index out of range|'
                        r'not broadcastable|negative dimensions are not allowed|axis remapping|'
                        r'not supported between instances|invalid literal for int|'
                        r'object has no attribute|(?<!Integer )division by zero|unsupported operand|'
                        r'The numpy boolean')


def _call(tf, mode, fn, args, kwargs):
    if mode == 'eager':
        return fn(*args, **kwargs)
    if mode == 'closure':
        return tf.function(lambda: fn(*args, **kwargs))()
    return tf.function(lambda *a, **k: fn(*a, **k))(*args, **kwargs)


def run(lib, skip):
    """Prints one JSON line per case and mode under `lib`: [key, class name or 'OK', message];
    before each call a line [key] (so that a crash of the library names the case)."""
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')
    import numpy as np
    tf = __import__(lib)
    import fuzz_cases
    for label, build in fuzz_cases.cases():
        for mode in MODES:
            key = f'{label}@{mode}'
            if key in skip:
                continue
            print(json.dumps([key]), flush=True)
            print(json.dumps([key] + _one(tf, np, mode, build)), flush=True)


def _one(tf, np, mode, build):
    try:
        fn, args, kwargs = build(tf, np)
    except AttributeError as exc:
        return ['MISSING', str(exc)[:200]]
    except Exception as exc:  # the arguments themselves failed to build
        return ['BUILD:' + type(exc).__name__, str(exc)[:200]]
    try:
        _call(tf, mode, fn, args, kwargs)
        return ['OK', '']
    except Exception as exc:
        return [type(exc).__name__, str(exc)[:300]]


def _subprocess(python, lib, known=None):
    """Runs the cases under `lib` in `python` (all but those in `known`, results already had);
    a case that crashes the process is 'CRASH'."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL='3', PYTHONPATH=root)
    results = dict(known or {})
    while True:
        with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
            json.dump(sorted(results), f)  # too long for a command line
        out = subprocess.run([python, os.path.abspath(__file__), '--run', lib, '--skip',
                              '@' + f.name], capture_output=True, text=True, env=env)
        os.unlink(f.name)
        pending = None
        for line in out.stdout.splitlines():
            if not line.startswith('['):
                continue
            row = json.loads(line)
            if len(row) == 1:
                pending = row[0]
            else:
                results[row[0]] = row[1:]
                pending = None
        if out.returncode == 0:
            return results
        if pending is None:
            sys.exit(f'{lib} run failed:\n{out.stderr[-3000:]}')
        results[pending] = ['CRASH', out.stderr[-200:]]


def compare(ours, theirs, verbose):
    both = agree = accepted = strict = leaks = escaped = 0
    rows = []
    for key, (cls, msg) in sorted(ours.items()):
        tf_cls, tf_msg = theirs.get(key, ['MISSING', ''])
        if {'MISSING', 'CRASH'} & {cls, tf_cls} or cls.startswith('BUILD') or tf_cls.startswith('BUILD'):
            continue
        if cls in ('IndexError', 'AttributeError', 'ZeroDivisionError', 'KeyError'):
            escaped += 1
        if cls != 'OK' and NUMPY_TEXT.search(msg):
            leaks += 1
            rows.append(('LEAK', key, cls, tf_cls, msg))
        if cls != 'OK' and tf_cls != 'OK':
            both += 1
            agree += cls == tf_cls
            if cls != tf_cls:
                rows.append(('CLASS', key, cls, tf_cls, msg + ' || TF: ' + tf_msg))
        elif cls == 'OK' and tf_cls != 'OK':
            accepted += 1
            rows.append(('ACCEPTS', key, cls, tf_cls, tf_msg))
        elif cls != 'OK':
            strict += 1
            rows.append(('STRICT', key, cls, tf_cls, msg))
    if verbose:
        for kind, key, cls, tf_cls, msg in rows:
            print(f'{kind:8} {key:55} defun={cls:28} tf={tf_cls:28} {msg[:200]}')
    print(f'both raise: {both}, same class: {agree} ({100.0 * agree / max(both, 1):.1f}%); '
          f'defun returns where TF raises: {accepted}; defun raises where TF returns: {strict}; '
          f'numpy/Python text in messages: {leaks}; IndexError/AttributeError/... escaping: '
          f'{escaped}')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--run')
    parser.add_argument('--skip', default='[]')
    parser.add_argument('--tf', default='/work/tfenv/bin/python')
    parser.add_argument('--cache', help='a JSON file holding (or to hold) TF\'s results; cases '
                        'missing from it are run under TF and added')
    parser.add_argument('-v', action='store_true')
    opts = parser.parse_args()
    if opts.run:
        skip = opts.skip
        if skip.startswith('@'):
            with open(skip[1:]) as f:
                skip = f.read()
        run(opts.run, set(json.loads(skip)))
        return
    ours = _subprocess(sys.executable, 'defun')
    theirs = {}
    if opts.cache and os.path.exists(opts.cache):
        with open(opts.cache) as f:
            theirs = json.load(f)
    if set(ours) - set(theirs) and os.path.exists(opts.tf):
        # Cases added since the cache was written: ask TF for those only.
        theirs = _subprocess(opts.tf, 'tensorflow', {k: v for k, v in theirs.items() if k in ours})
        if opts.cache:
            with open(opts.cache, 'w') as f:
                json.dump(theirs, f)
    if not theirs:
        print(json.dumps(ours, indent=1))
        return
    compare(ours, theirs, opts.v)


if __name__ == '__main__':
    main()
