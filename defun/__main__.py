"""`python -m defun`: print defun's version, which optional extras import, and where the docs are
(the pages installed with the package or beside a source checkout, and their online address when
the installed package's metadata records one)."""
import importlib.metadata
import importlib.util
import os
import sys

from defun.version import VERSION

# The examples' extras (pyproject's `examples` extra), the mpi extra and the test extras, with
# what each is for.
EXTRAS = (
    ('tqdm', 'tqdm', 'progress bars in examples/'),
    ('matplotlib', 'matplotlib', 'loss plots in examples/ (--plot)'),
    ('scikit-learn', 'sklearn', 'the digits data set in examples/'),
    ('mpi4py', 'mpi4py', 'tf.distribute across processes (the mpi extra)'),
    ('pillow', 'PIL', 'image codecs: tf.io.decode_png/jpeg, encode_png/jpeg (the image extra)'),
    ('pytest', 'pytest', 'the test suite'),
    ('pytest-xdist', 'xdist', 'the test suite on several processes (-n 2)'),
    ('hypothesis', 'hypothesis', 'property tests'),
)


def extras_found():
    """Return `[(distribution, module, purpose, importable)]` for each optional extra."""
    return [(dist, mod, why, importlib.util.find_spec(mod) is not None) for dist, mod, why in EXTRAS]


def docs_dir():
    """Return the folder holding the docs pages: the source checkout's docs/ beside the package,
    else the copy `pip install` puts under `<prefix>/share/doc/defun/docs`; None if neither."""
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(os.path.dirname(here), 'docs'),
                      os.path.join(sys.prefix, 'share', 'doc', 'defun', 'docs')):
        if os.path.isfile(os.path.join(candidate, 'features.md')):
            return candidate
    return None


def online_docs():
    """Return the documentation addresses the installed package's metadata records, if any."""
    try:
        urls = importlib.metadata.metadata('defun').get_all('Project-URL') or []
    except importlib.metadata.PackageNotFoundError:
        return []
    return [u.split(',', 1)[1].strip() for u in urls if ',' in u]


def report():
    """Return the text `python -m defun` prints."""
    lines = ['defun %s (Python %s)' % (VERSION, sys.version.split()[0]), 'optional extras:']
    for dist, _mod, why, found in extras_found():
        lines.append('  %-13s %-13s %s' % (dist, 'found' if found else 'not installed', why))
    docs = docs_dir()
    readme = os.path.join(os.path.dirname(docs), 'README.md') if docs else None
    if docs:
        start = readme if os.path.isfile(readme) else os.path.join(docs, 'features.md')
        lines.append('docs: %s (start with %s)' % (docs, start))
    else:
        lines.append('docs: not installed here; they are the README.md and docs/ folder of '
                     "defun's source repository")
    for url in online_docs():
        lines.append('online: %s' % url)
    return '\n'.join(lines)


if __name__ == '__main__':
    print(report())
