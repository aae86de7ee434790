"""`python -m defun`: version, extras and the docs location, run in a fresh interpreter."""
import functools
import importlib.util
import os
import subprocess
import sys

import defun
from defun import __main__ as main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@functools.lru_cache(maxsize=None)   # one fresh interpreter serves every test here
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
    assert 'docs: %s (start with %s)' % (docs, os.path.join(ROOT, 'README.md')) in text


def test_docs_installed_with_the_package_are_found(tmp_path, monkeypatch):
    # pip install puts README.md and docs/*.md under <prefix>/share/doc/defun (pyproject's
    # data-files); the package itself then lives in site-packages, with no docs/ beside it.
    installed = tmp_path / 'share' / 'doc' / 'defun'
    (installed / 'docs').mkdir(parents=True)
    (installed / 'docs' / 'features.md').write_text('# What defun covers\n')
    (installed / 'README.md').write_text('# defun\n')
    monkeypatch.setattr(main, '__file__', str(tmp_path / 'site-packages' / 'defun' / '__main__.py'))
    monkeypatch.setattr(sys, 'prefix', str(tmp_path))
    assert main.docs_dir() == str(installed / 'docs')
    assert 'docs: %s (start with %s)' % (installed / 'docs', installed / 'README.md') in main.report()
    monkeypatch.setattr(sys, 'prefix', str(tmp_path / 'elsewhere'))
    assert main.docs_dir() is None
    assert "source repository" in main.report()
