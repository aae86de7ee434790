"""Each example in examples/ runs to completion in its short (CI) mode in a fresh process, and
--plot writes a PNG; an example whose optional extra is not installed is skipped."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, 'examples')

# example -> (the optional modules it needs, a line its output must contain)
CASES = {
    'quickstart.py': ((), 'step'),
    'digits_pipeline.py': (('sklearn',), 'test accuracy'),
    'cnn_digits.py': (('sklearn',), 'test accuracy'),
    'char_rnn.py': ((), 'sample:'),
    'diff_sim.py': ((), 'finite difference'),
    'serve_module.py': ((), 'served by the SavedModel'),
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
    needs, expected = CASES[script]
    for module in needs:
        pytest.importorskip(module)
    out = run(script, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert expected in out.stdout


def test_serving_agrees_with_training(tmp_path):
    out = run('serve_module.py', cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(':', 1) for line in out.stdout.splitlines()
                 if line.startswith(('in the training process', 'served by')))
    values = [[float(v) for v in text.split()] for text in lines.values()]
    assert len(values) == 3 and values[0] == values[1] == values[2]


def test_every_example_takes_short_and_plot():
    # Each example parses the shared flags and saves its loss plot when asked (run below for the
    # quick ones; the others' short runs above go through the same two calls).
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


@pytest.mark.parametrize('script', ['quickstart.py', 'diff_sim.py', 'char_rnn.py'])
def test_plot_flag_writes_a_png(script, tmp_path):
    pytest.importorskip('matplotlib')
    target = tmp_path / 'loss.png'
    out = run(script, '--plot', str(target), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert target.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'


def test_simulation_gradient_matches_finite_difference(tmp_path):
    out = run('diff_sim.py', cwd=tmp_path)
    line = next(l for l in out.stdout.splitlines() if 'finite difference' in l)
    grad = float(line.split('d distance / d angle:')[1].split('(')[0])
    fd = float(line.split('finite difference')[1].strip(' )'))
    assert abs(grad - fd) <= 0.02 * abs(fd)
