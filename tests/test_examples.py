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
    'distributed_digits.py': (('sklearn',), 'test accuracy'),
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


@pytest.mark.parametrize('script', ['diff_sim.py', 'char_rnn.py'])
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
