"""help() on the names a newcomer meets first shows a short example, and the example runs."""
import contextlib
import inspect
import io
import linecache
import textwrap

import pytest

import defun as tf

NAMES = {
    'tf.function': tf.function,
    'tf.Function': tf.Function,
    'tf.GradientTape': tf.GradientTape,
    'tf.autograph.to_code': tf.autograph.to_code,
    'tf.autograph.check': tf.autograph.check,
    'tf.Function.source': tf.Function.source,
}


def examples(doc):
    """The indented blocks that follow a line ending in '::' (reStructuredText literal blocks)."""
    lines = doc.splitlines()
    found = []
    for i, line in enumerate(lines):
        if not line.rstrip().endswith('::'):
            continue
        block = []
        for following in lines[i + 1:]:
            if following.strip() and not following.startswith(' '):
                break
            block.append(following)
        found.append(textwrap.dedent('\n'.join(block)).strip('\n') + '\n')
    return found


@pytest.mark.parametrize('name', sorted(NAMES))
def test_help_shows_an_example_that_runs(name):
    blocks = examples(inspect.getdoc(NAMES[name]))
    assert blocks, f'help({name}) has no example'
    for n, code in enumerate(blocks):
        # Registered as a source file: AutoGraph reads the source of the functions it converts.
        filename = f'<help({name}) example {n}>'
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(compile(code, filename, 'exec'), {'tf': tf, '__name__': 'example'})
        assert out.getvalue().strip(), f'the example in help({name}) prints nothing'
