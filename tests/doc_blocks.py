"""Runs the code of a Markdown page top to bottom, as a reader would paste it.

Every ```python block runs, in order, in one namespace per page. A ```text block right after a
python block is what that block prints: its output must match (doctest's rules, with `...`
standing for any text and runs of whitespace alike). Other blocks (shell commands, indented
listings) are not run. Run on one page, it prints a JSON report and exits 0 only if
every block ran and printed what the page says (run it as
`python -c "from tests import doc_blocks; doc_blocks.main()" PAGE` with the repository on the
path: as a script, tests/ itself would come first on the path and shadow packages by its folders).
"""
import contextlib
import doctest
import io
import json
import linecache
import re
import sys
import traceback

FENCE = re.compile(r'^```([\w-]*)[ \t]*\n(.*?)^```[ \t]*$', re.M | re.S)
_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def blocks(text):
    """[(line number, code, expected output or None)] for the page's python blocks."""
    found = list(FENCE.finditer(text))
    result = []
    for i, m in enumerate(found):
        if m.group(1) != 'python':
            continue
        follows = found[i + 1] if i + 1 < len(found) else None
        expected = None
        if follows is not None and follows.group(1) == 'text' and \
                not text[m.end():follows.start()].strip():
            expected = follows.group(2)
        result.append((text.count('\n', 0, m.start()) + 2, m.group(2), expected))
    return result


def run_page(path):
    """{'ok': bool, 'blocks': n, 'error': text or None} for the page at `path`."""
    with open(path) as f:
        text = f.read()
    namespace = {'__name__': '__main__'}
    page_blocks = blocks(text)
    for line, code, expected in page_blocks:
        out = io.StringIO()
        # The block's lines are registered as a source file, so that AutoGraph (which reads the
        # source of the functions it converts) and tracebacks see them.
        filename = f'{path}, block at line {line}'
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, filename, 'exec'), namespace)
        except BaseException:
            return {'ok': False, 'blocks': len(page_blocks),
                    'error': f'the block at line {line} failed:\n{traceback.format_exc()}'}
        if expected is not None and not _CHECKER.check_output(expected, out.getvalue(), _FLAGS):
            return {'ok': False, 'blocks': len(page_blocks),
                    'error': f'the block at line {line} printed:\n{out.getvalue()}\n'
                             f'where the page shows:\n{expected}'}
    return {'ok': True, 'blocks': len(page_blocks), 'error': None}


def main():
    report = run_page(sys.argv[1])
    print(json.dumps(report))
    sys.exit(0 if report['ok'] else 1)
