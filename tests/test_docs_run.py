"""The code in README.md and docs/*.md runs top to bottom and prints what the page shows
(tests/doc_blocks.py says how), each page in a fresh interpreter in an empty folder; and the pages
speak to users: no issue numbers, reviews or paths outside the repository."""
import json
import os
import re
import subprocess
import sys

import pytest

from tests import doc_blocks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ['README.md'] + sorted(os.path.join('docs', n) for n in os.listdir(os.path.join(ROOT, 'docs'))
                               if n.endswith('.md'))


def read(page):
    with open(os.path.join(ROOT, page)) as f:
        return f.read()


@pytest.mark.parametrize('page', [p for p in PAGES if doc_blocks.blocks(read(p))])
def test_page_code_runs_and_prints_what_the_page_shows(page, tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT, MPLBACKEND='Agg')
    out = subprocess.run([sys.executable, '-c', 'from tests import doc_blocks; doc_blocks.main()',
                          os.path.join(ROOT, page)], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.stdout.strip(), out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report['ok'], report['error']


def test_readme_shows_code_within_its_first_40_lines():
    first = read('README.md').splitlines()[:40]
    assert '```python' in first
    assert 'import defun as tf' in first


INTERNAL = re.compile(r'issue [0-9]|issue #[0-9]|the review|\.\./shared|\bhelper\b')


@pytest.mark.parametrize('page', PAGES)
def test_pages_speak_to_users(page):
    found = INTERNAL.findall(read(page))
    assert found == [], f'{page} speaks the project\'s internal language: {found}'


def test_the_runner_checks_output_and_reports_the_failing_block(tmp_path):
    page = tmp_path / 'page.md'
    page.write_text('# t\n\n```python\nprint(1 + 1)\n```\n```text\n3\n```\n')
    report = doc_blocks.run_page(str(page))
    assert not report['ok'] and 'block at line 4' in report['error']
    page.write_text('```python\nx = [1, 2, 3]\n```\n\n```python\nprint(x)\n```\n```text\n[1, ...]\n```\n'
                    '    indented listings are not run\n```sh\nexit 1\n```\n')
    assert doc_blocks.run_page(str(page)) == {'ok': True, 'blocks': 2, 'error': None}
