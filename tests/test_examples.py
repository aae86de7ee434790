"""Each example in examples/ runs to completion in its short (CI) mode in a fresh process, with
--plot writing a PNG (when matplotlib is installed) and its own results checked from the same run
(one process per example: each costs seconds); an example whose optional extra is not installed
is skipped, and one whose extra is missing says how to install it."""
import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, 'examples')


def serving_agrees_with_training(stdout):
    lines = dict(line.split(':', 1) for line in stdout.splitlines()
                 if line.startswith(('in the training process', 'served by')))
    values = [[float(v) for v in text.split()] for text in lines.values()]
    assert len(values) == 3 and values[0] == values[1] == values[2]


def gradient_matches_finite_difference(stdout):
    line = next(l for l in stdout.splitlines() if 'finite difference' in l)
    grad = float(line.split('d distance / d angle:')[1].split('(')[0])
    fd = float(line.split('finite difference')[1].strip(' )'))
    assert abs(grad - fd) <= 0.02 * abs(fd)


# example -> (the optional modules it needs, a line its output must contain, a check of its output)
CASES = {
    'quickstart.py': ((), 'step', None),
    'digits_pipeline.py': (('sklearn',), 'test accuracy', None),
    'cnn_digits.py': (('sklearn',), 'test accuracy', None),
    'char_rnn.py': ((), 'sample:', None),
    'diff_sim.py': ((), 'finite difference', gradient_matches_finite_difference),
    'serve_module.py': ((), 'served by the SavedModel', serving_agrees_with_training),
    'distributed_digits.py': (('sklearn',), 'test accuracy', None),
    'keras_digits.py': (('sklearn', 'keras'), 'test accuracy', None),
}


def run(script, *flags, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT, DEFUN_EXAMPLES_SHORT='1', MPLBACKEND='Agg')
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *flags], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=300)


def test_every_example_is_listed():
    scripts = {n for n in os.listdir(EXAMPLES) if n.endswith('.py') and n != 'example_utils.py'}
    assert scripts == set(CASES)


@pytest.mark.parametrize('script', sorted(CASES))
def test_example_runs_in_short_mode(script, tmp_path):
    needs, expected, check = CASES[script]
    for module in needs:
        pytest.importorskip(module)
    plotting = importlib.util.find_spec('matplotlib') is not None
    target = tmp_path / 'loss.png'
    out = run(script, *(['--plot', str(target)] if plotting else []), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert expected in out.stdout
    if check is not None:
        check(out.stdout)
    if plotting:
        assert target.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'


def test_every_example_takes_short_and_plot():
    # Each example parses the shared flags and saves its loss plot when asked (checked by running
    # above when matplotlib is installed; this holds without it too).
    for script in CASES:
        with open(os.path.join(EXAMPLES, script)) as f:
            source = f.read()
        assert 'parse_args(' in source and 'save_plot(args' in source, script


def test_a_missing_extra_says_how_to_install_it(tmp_path):
    # Hide scikit-learn (installed or not): the example stops with the install line, not a traceback.
    path = os.path.join(EXAMPLES, 'cnn_digits.py')
    code = ('import runpy, sys; sys.modules["sklearn"] = None; sys.argv = [%r]; '
            'sys.path.insert(0, %r); runpy.run_path(%r, run_name="__main__")' % (path, EXAMPLES, path))
    env = dict(os.environ, PYTHONPATH=ROOT, DEFUN_EXAMPLES_SHORT='1')
    out = subprocess.run([sys.executable, '-c', code], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 1
    assert "cnn_digits.py needs scikit-learn for the digits data set" in out.stderr
    assert "python -m pip install '.[examples]'" in out.stderr
    assert 'Traceback' not in out.stderr


def test_progress_lines_go_through_tqdm_write(monkeypatch):
    # A plain print under a tqdm bar splits the bar; tqdm.write prints above it and redraws it.
    tqdm = pytest.importorskip('tqdm')
    monkeypatch.syspath_prepend(EXAMPLES)
    import example_utils
    written = []
    monkeypatch.setattr(tqdm.tqdm, 'write', classmethod(lambda cls, text, *a, **k: written.append(text)))
    example_utils.say('epoch 1: mean loss 0.5')
    assert written == ['epoch 1: mean loss 0.5']
