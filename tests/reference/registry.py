"""The reference corpus registry: each entry is a plain function and the arguments it runs on.

An entry runs in three modes (tests/reference/test_corpus.py): natively, converted by
`autograph.to_graph` on the same Python values, and compiled by `defun.function` with its numeric
arguments given as tensors (only entries registered with `tensor=True`, the default). Where
TensorFlow cannot agree with Python, the entry says which error TF raises, and why (`TFRaises`).
"""
import collections

Case = collections.namedtuple('Case', ['fn', 'arg_sets', 'tensor', 'tf_raises'])

CASES = []


class TFRaises(collections.namedtuple('TFRaises', ['error', 'reason', 'args'])):
    """A compiled run that TensorFlow itself cannot make agree with Python: it raises `error`.

    `reason` says why (TF's rule, not ours), so the expectation is documented where it is asserted.
    `args`: the argument tuples it applies to (None: all of the entry's).
    """

    def __new__(cls, error, reason, args=None):
        return super().__new__(cls, error, reason, args)

    def applies_to(self, args):
        return self.args is None or tuple(args) in [tuple(a) for a in self.args]


def case(*arg_sets, tensor=True, tf_raises=None):
    """Registers the decorated function with the argument tuples it is run on.

    tensor=False: the compiled mode is not run (the function is about Python values only).
    tf_raises=TFRaises(error, reason): compiled with tensor arguments, TensorFlow raises `error` for
    every argument set (a genuine TF limitation); the compiled run must raise it too.
    """
    if tf_raises is not None and not (isinstance(tf_raises, TFRaises) and tf_raises.reason):
        raise TypeError('tf_raises must be a TFRaises(error, reason) with a reason')

    def register(fn):
        CASES.append(Case(fn, arg_sets, tensor, tf_raises))
        return fn
    return register
