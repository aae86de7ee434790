"""The reference corpus registry: each entry is a plain function and the arguments it runs on.

An entry runs in three modes (tests/reference/test_corpus.py): natively, converted by
`autograph.to_graph` on the same Python values, and compiled by `defun.function` with its numeric
arguments given as tensors (only entries registered with `tensor=True`, the default).
"""
import collections

Case = collections.namedtuple('Case', ['fn', 'arg_sets', 'tensor'])

CASES = []


def case(*arg_sets, tensor=True):
    """Registers the decorated function with the argument tuples it is run on."""
    def register(fn):
        CASES.append(Case(fn, arg_sets, tensor))
        return fn
    return register
