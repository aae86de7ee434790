"""`python -m defun`: version, extras and the docs location, run in a fresh interpreter."""
import importlib.util
import os
import subprocess
import sys

import defun
from defun import __main__ as main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_main():
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, '-m', 'defun'], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_prints_version_and_extras():
    text = run_main()
    assert text.splitlines()[0].startswith('defun %s ' % defun.__version__)
    for dist, mod, _why in main.EXTRAS:
        found = importlib.util.find_spec(mod) is not None
        line = [l for l in text.splitlines() if l.split()[:1] == [dist]]
        assert len(line) == 1
        assert ('not installed' not in line[0]) == found


def test_docs_location():
    text = run_main()
    docs = os.path.join(ROOT, 'docs')
    if os.path.isfile(os.path.join(docs, 'api.md')):
        assert 'docs: %s' % docs in text
    else:
        assert 'not beside the installed package' in text
