"""`python -m defun`: print defun's version, which optional extras import, and where the docs are."""
import importlib.util
import os
import sys

from defun.version import VERSION

# The examples' extras (pyproject's `examples` extra) and the test extras, with what each is for.
EXTRAS = (
    ('tqdm', 'tqdm', 'progress bars in examples/'),
    ('matplotlib', 'matplotlib', 'loss plots in examples/ (--plot)'),
    ('scikit-learn', 'sklearn', 'the digits data set in examples/'),
    ('pillow', 'PIL', 'image codecs: tf.io.decode_png/jpeg, encode_png/jpeg (the image extra)'),
    ('pytest', 'pytest', 'the test suite'),
    ('hypothesis', 'hypothesis', 'property tests'),
)


def extras_found():
    """Return `[(distribution, module, purpose, importable)]` for each optional extra."""
    return [(dist, mod, why, importlib.util.find_spec(mod) is not None) for dist, mod, why in EXTRAS]


def docs_dir():
    """Return the repository's docs/ folder beside the installed package, or None if absent."""
    here = os.path.dirname(os.path.abspath(__file__))
    candidate = os.path.join(os.path.dirname(here), 'docs')
    return candidate if os.path.isfile(os.path.join(candidate, 'api.md')) else None


def report():
    """Return the text `python -m defun` prints."""
    lines = ['defun %s (Python %s)' % (VERSION, sys.version.split()[0]), 'optional extras:']
    for dist, _mod, why, found in extras_found():
        lines.append('  %-13s %-13s %s' % (dist, 'found' if found else 'not installed', why))
    docs = docs_dir()
    if docs:
        lines.append('docs: %s (start with api.md)' % docs)
    else:
        lines.append('docs: not beside the installed package; they are the docs/ folder of the '
                     'repository (api.md, compiled_functions.md, porting.md)')
    return '\n'.join(lines)


if __name__ == '__main__':
    print(report())
