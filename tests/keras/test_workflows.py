"""Keras 3 programs, written as TF 2.21 users write them (`import tensorflow as tf`, `tf.keras`,
`import keras`), run on defun as `tensorflow`, against the output TF 2.21 + Keras 3.15.1 printed for
the same programs (tests/keras/expected/, recorded with /work/tfenv). Each program runs in its own
process, so importing Keras never touches the process running the other tests."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

from tests.keras import readiness

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PROGRAMS = sorted(p.stem for p in (HERE / 'programs').glob('*.py'))
REL_TOL, ABS_TOL = 1e-4, 1e-6   # float32 rounding, as the conformance runner's

pytestmark = pytest.mark.skipif(bool(readiness.missing()), reason=readiness.missing())

BOOTSTRAP = ('import runpy, sys\n'
             'from defun import tf_compat\n'
             'tf_compat.install()\n'
             'sys.argv = [sys.argv[1]]\n'
             'runpy.run_path(sys.argv[0], run_name="__main__")\n')
NUMBER = re.compile(r'[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|(?<![A-Za-z])(?:nan|inf)(?![A-Za-z])')


def run(code, *args):
    env = dict(os.environ, PYTHONPATH=str(ROOT), KERAS_BACKEND='tensorflow',
               TF_CPP_MIN_LOG_LEVEL='3')
    done = subprocess.run([sys.executable, '-c', code, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def agree(got, want):
    """Same text between numbers, numbers within float32 rounding."""
    got_lines, want_lines = got.splitlines(), want.splitlines()
    assert len(got_lines) == len(want_lines), (got, want)
    for g, w in zip(got_lines, want_lines):
        assert NUMBER.sub('#', g) == NUMBER.sub('#', w), (g, w)
        for a, b in zip(NUMBER.findall(g), NUMBER.findall(w)):
            if a == b:
                continue
            a, b = float(a), float(b)
            assert abs(a - b) <= ABS_TOL + REL_TOL * abs(b), (g, w)


@pytest.mark.parametrize('name', PROGRAMS)
def test_program_gives_tf_output(name):
    got = run(BOOTSTRAP, str(HERE / 'programs' / f'{name}.py'))
    agree(got, (HERE / 'expected' / f'{name}.txt').read_text())


def test_import_keras_after_defun_runs_on_defun():
    code = ('import sys\n'
            'import defun as tf\n'
            'import keras\n'
            'print(keras.backend.backend(), sys.modules["tensorflow"] is tf,\n'
            '      tf.keras.Sequential is keras.Sequential,\n'
            '      tf.keras.optimizers.Adam is keras.optimizers.Adam,\n'
            '      tf.optimizers.Adam is keras.optimizers.Adam)\n'
            'from tensorflow.keras import layers\n'
            'print(layers.Dense is keras.layers.Dense)\n')
    assert run(code).split() == ['tensorflow', 'True', 'True', 'True', 'False', 'True']

