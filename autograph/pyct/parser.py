"""Source <-> gast: read a function's source, parse it, and print trees back as source.

`parse_entity(fn)` returns the function's gast node with line and column numbers already pointing at
the user's file, so that code compiled from the converted tree reports the user's own lines. Plain
functions are parsed from their (dedented) source block; lambdas from the whole file, because the
lines holding a lambda are rarely a complete statement on their own (the file is parsed with
Python's own `ast`, and only the lambda found is turned into gast: converting a whole module to
gast costs ten times as much, for every lambda converted).
"""
import ast
import inspect
import linecache

import astunparse
import gast


class SourceUnavailableError(Exception):
    """The source of a function cannot be read or parsed, so it cannot be converted."""


def parse_str(source):
    """Parses a module's source into a gast Module."""
    return gast.parse(source)


def unparse(node):
    """Returns readable source for a gast node (or a list of nodes)."""
    nodes = node if isinstance(node, list) else [node]
    module = gast.Module(body=[n for n in nodes], type_ignores=[])
    return astunparse.unparse(gast.gast_to_ast(module)).strip() + '\n'


def _dedent(lines):
    """Strips the first line's indentation from every line; returns (text, removed width)."""
    first = lines[0]
    indent = first[:len(first) - len(first.lstrip())]
    out = []
    for line in lines:
        if line.startswith(indent):
            out.append(line[len(indent):])
        elif not line.strip():
            out.append('\n')
        else:
            # A continuation line (e.g. inside a string) less indented than the def: keep as is.
            out.append(line)
    return ''.join(out), len(indent)


def _shift_locations(tree, line_offset, col_offset):
    for node in gast.walk(tree):
        if getattr(node, 'lineno', None) is not None:
            node.lineno += line_offset
            node.col_offset += col_offset
            if getattr(node, 'end_lineno', None) is not None:
                node.end_lineno += line_offset
                node.end_col_offset += col_offset


def _parse_function(fn):
    # The source of fn's own code: inspect follows `__wrapped__` for a function, which for a
    # functools.wraps wrapper is another function (with other globals), as TF's
    # getimmediatesource avoids.
    try:
        lines, first_lineno = inspect.getsourcelines(fn.__code__)
    except (OSError, TypeError) as e:
        raise SourceUnavailableError(str(e)) from e
    source, width = _dedent(lines)
    try:
        module = gast.parse(source)
    except SyntaxError as e:
        raise SourceUnavailableError('cannot parse the source of %s: %s' % (fn.__qualname__, e)) from e
    defs = [n for n in module.body if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef))]
    if len(defs) != 1 or defs[0].name != fn.__code__.co_name:
        raise SourceUnavailableError('the source block of %s is not a single def' % fn.__qualname__)
    _shift_locations(defs[0], first_lineno - 1, width)
    return defs[0]


def _lambda_position(fn):
    """(line, column) where the lambda's body code starts, from the code's position table."""
    for line, _, col, _ in fn.__code__.co_positions():
        if line is not None and col is not None and (line, col) != (fn.__code__.co_firstlineno, 0):
            return line, col
    return None


def _contains(node, position):
    start = (node.lineno, node.col_offset)
    end = (node.end_lineno, node.end_col_offset)
    return start <= position <= end


def _nodes_spanning(module, line):
    """The nodes of `module` whose lines (decorators included) hold `line`, and their children
    without positions: where a lambda starting on that line can be (a big table of lambdas is
    not walked whole for each)."""
    stack = [module]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            start = getattr(child, 'lineno', None)
            if start is None:
                stack.append(child)
                continue
            start = min([start] + [d.lineno for d in getattr(child, 'decorator_list', ())])
            if start <= line <= child.end_lineno:
                stack.append(child)


def _parse_lambda(fn):
    filename = fn.__code__.co_filename
    source = ''.join(linecache.getlines(filename, fn.__globals__))
    if not source:
        raise SourceUnavailableError('no source for the file %s' % filename)
    try:
        module = ast.parse(source)
    except SyntaxError as e:
        raise SourceUnavailableError('cannot parse %s: %s' % (filename, e)) from e
    line = fn.__code__.co_firstlineno
    candidates = [n for n in _nodes_spanning(module, line)
                  if isinstance(n, ast.Lambda) and n.lineno == line]
    position = _lambda_position(fn)
    if len(candidates) > 1 and position is not None:
        inside = [n for n in candidates if _contains(n.body, position)]
        # Nested lambdas all contain the position; the innermost (shortest) one is the function.
        candidates = sorted(inside, key=lambda n: (n.end_lineno - n.lineno,
                                                   n.end_col_offset - n.col_offset))[:1]
    if len(candidates) != 1:
        raise SourceUnavailableError(
            'cannot tell which lambda on line %d of %s is %r' % (line, filename, fn))
    return gast.ast_to_gast(candidates[0])


def parse_entity(fn):
    """Returns the gast FunctionDef or Lambda node of `fn`, located in the user's file.

    Raises SourceUnavailableError when the source cannot be found or parsed.
    """
    if fn.__name__ == '<lambda>':
        return _parse_lambda(fn)
    return _parse_function(fn)


def source_line(filename, lineno):
    """The text of one line of a user's file, stripped, or '' when unknown."""
    return linecache.getline(filename, lineno).strip()
