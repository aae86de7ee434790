"""docs/: every public name has a docstring, docs/api.md is what docs/generate_api.py writes now,
and no link in README.md or docs/ points outside the repository (or at a file that is not there)."""
import importlib.util
import inspect
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, 'docs')


def load_generator():
    spec = importlib.util.spec_from_file_location('generate_api', os.path.join(DOCS, 'generate_api.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = load_generator()


@pytest.mark.parametrize('path', GEN.NAMESPACES)
def test_every_public_callable_has_a_docstring(path):
    module = GEN.namespace(path)
    missing = [name for name in GEN.public_names(module)
               if callable(getattr(module, name)) and not inspect.getdoc(getattr(module, name))]
    assert missing == [], 'tf.%s: no docstring on %s' % (path, missing)


def test_api_md_is_current():
    with open(GEN.OUT) as f:
        current = f.read() == GEN.render()
    assert current, ('docs/api.md is stale (a public name, signature, docstring or op changed): '
                     'run python docs/generate_api.py and commit docs/api.md')


def test_op_wrappers_name_their_op_and_gradient():
    # tf.sin creates the registered op `Sin`, which has a gradient; tf.equal's op has none (TF's rule).
    text = GEN.render()
    assert '`Sin` (differentiable)' in text.split('### `tf.sin(')[1].split('###')[0]
    assert '`Equal` (not differentiable)' in text.split('### `tf.equal(')[1].split('###')[0]


def markdown_files():
    files = [os.path.join(ROOT, 'README.md')]
    files += [os.path.join(DOCS, n) for n in sorted(os.listdir(DOCS)) if n.endswith('.md')]
    return files


LINK = re.compile(r'\]\(([^)\s]+)')


@pytest.mark.parametrize('path', markdown_files(), ids=os.path.basename)
def test_links_stay_inside_the_repository(path):
    with open(path) as f:
        text = f.read()
    assert not re.search(r'https?://|www\.', text), 'external address in %s' % path
    for target in LINK.findall(text):
        file_part = target.split('#')[0]
        if not file_part:
            continue
        resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
        assert resolved.startswith(ROOT + os.sep), '%s links outside the repository: %s' % (path, target)
        assert os.path.exists(resolved), '%s links to a missing file: %s' % (path, target)
