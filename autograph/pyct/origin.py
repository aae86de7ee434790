"""Where generated code came from: user file, line and source text.

Converted functions are compiled with the user's file name and with every node keeping (or, for
generated nodes, inheriting) the line number of the user statement it stands for, so tracebacks and
error messages point at user code without any lookup. The readable source shown by `to_code` has
its own line numbers; `source_map` maps each of its lines back to an `OriginInfo`.
"""
import ast
import collections

import gast

from autograph.pyct import anno
from autograph.pyct import parser

OriginInfo = collections.namedtuple('OriginInfo', ['filename', 'lineno', 'function_name', 'source_line'])


def resolve(tree, filename, function_name):
    """Records an OriginInfo on every located node of a freshly parsed user tree."""
    for node in gast.walk(tree):
        if getattr(node, 'lineno', None) is not None:
            info = OriginInfo(filename, node.lineno, function_name,
                              parser.source_line(filename, node.lineno))
            anno.setanno(node, anno.Key.ORIGIN, info)


def copy_location(nodes, from_node):
    """Gives generated nodes (those without a line) the location and origin of `from_node`."""
    for root in nodes if isinstance(nodes, list) else [nodes]:
        for node in gast.walk(root):
            if not isinstance(node, (gast.stmt, gast.expr, gast.excepthandler)):
                continue
            if getattr(node, 'lineno', None) is None:
                # Generated code stands for the first line of the user statement it replaces.
                node.lineno = node.end_lineno = from_node.lineno
                node.col_offset = node.end_col_offset = from_node.col_offset
                anno.copyanno(from_node, node, anno.Key.ORIGIN)
    return nodes


def source_map(tree, generated_source):
    """Maps line numbers of `generated_source` (the unparsed `tree`) to the OriginInfo of their code.

    The generated source is parsed again and walked in step with the tree it was printed from: both
    have the same shape, so the n-th statement of one is the n-th statement of the other.
    """
    printed = ast.parse(generated_source)
    mapping = {}
    gast_statements = [n for n in gast.walk(tree) if isinstance(n, gast.stmt)]
    printed_statements = [n for n in ast.walk(printed) if isinstance(n, ast.stmt)]
    for g, p in zip(gast_statements, printed_statements):
        info = anno.getanno(g, anno.Key.ORIGIN)
        if info is not None:
            mapping.setdefault(p.lineno, info)
    return mapping
