"""A pre-flight check: constructs that will surprise, reported before any tracing.

`check(f)` parses `f` (and its nested functions) and returns a list of `Finding`s for:

  * a Python `for` over `range(N)` with a large constant N: inside a compiled function the loop
    unrolls, adding N copies of its body to the graph;
  * `x.append(...)` in a loop on something other than a local list (an attribute, an element, a
    global or closure list): AutoGraph cannot carry it through a tensor loop;
  * an `if` that breaks or returns inside a Python `while True`: if its condition is a tensor,
    the loop cannot stop on it (NotImplementedError);
  * a variable assigned in only one branch of an `if` and used after it: with a tensor condition
    that is an error (both branches must define it).

The same findings, but for the last, are issued as `AutoGraphWarning`s when a function is first
converted, unless turned off with `set_warnings(False)`. The one-branch finding is not: whether the
condition is a tensor is known only when the code runs (`if training:` on a Python bool is
everyday code, and TF does not warn), and with a tensor condition tracing raises TF's error naming
the variable anyway.
"""
import collections
import inspect
import types
import warnings

import gast

from autograph import errors
from autograph.pyct import anno
from autograph.pyct import parser
from autograph.pyct.analysis import liveness
from autograph.pyct.analysis import reaching
from autograph.pyct.analysis import scopes

UNROLL_LIMIT = 1000

Finding = collections.namedtuple('Finding', ['filename', 'lineno', 'message'])
Finding.__str__ = lambda self: '%s:%d: %s' % (self.filename, self.lineno, self.message)

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef)
_settings = {'warn': True}


def set_warnings(enabled):
    """Turns the pre-flight warnings at conversion on or off."""
    _settings['warn'] = bool(enabled)


def _constant_range_length(node):
    if not (isinstance(node, gast.Call) and isinstance(node.func, gast.Name)
            and node.func.id == 'range' and node.args and not node.keywords):
        return None
    if not all(isinstance(a, gast.Constant) and isinstance(a.value, int) for a in node.args):
        return None
    return len(range(*[a.value for a in node.args]))


def _breaks_on_if(statements):
    for n in statements:
        for inner in gast.walk(n):
            if isinstance(inner, gast.If) and any(
                    isinstance(x, (gast.Break, gast.Return)) for x in gast.walk(inner)):
                return inner
    return None


def _module_alias(fn):
    """The name `fn`'s module gives defun (`tf` after `import defun as tf`), so that hints speak
    as the user writes; 'tf' when it has none."""
    for name, value in getattr(fn, '__globals__', {}).items():
        if isinstance(value, types.ModuleType) and value.__name__ in ('defun', 'tensorflow'):
            return name
    return 'tf'


def _unwrap(fn):
    """The Python function behind a `tf.function` (or a method bound to one), a bound method, or
    `functools.wraps`-style wrappers: what the checker parses."""
    fn = getattr(fn, 'python_function', fn)
    fn = getattr(fn, '__func__', fn)
    return inspect.unwrap(fn)


class _Checker:

    def __init__(self, filename, alias='tf'):
        self.filename = filename
        self.alias = alias
        self.findings = []

    def add(self, node, message, kind='conversion'):
        self.findings.append(_Found(Finding(self.filename, node.lineno, message), kind))

    def function(self, node):
        liveness.resolve(node)
        reaching.resolve(node)
        local_names = scopes.writes(node.body) | scopes.parameters(node)
        for n in gast.walk(node):
            if isinstance(n, gast.For):
                self._for(n)
            elif isinstance(n, gast.While):
                self._while(n)
            elif isinstance(n, gast.If):
                self._if(n)
            if isinstance(n, (gast.For, gast.While)):
                self._appends(n, local_names)

    def _for(self, node):
        length = _constant_range_length(node.iter)
        if length is not None and length > UNROLL_LIMIT:
            self.add(node, 'this Python loop over range(...) runs %d times: inside a compiled function'
                     ' it unrolls, adding %d copies of its body to the graph; iterate over'
                     ' %s.range(...) to make it one tensor loop' % (length, length, self.alias))

    def _while(self, node):
        if isinstance(node.test, gast.Constant) and node.test.value:
            inner = _breaks_on_if(node.body)
            if inner is not None:
                self.add(inner, 'this `if` leaves a Python `while True` loop: if its condition is a'
                         ' tensor, the loop cannot stop on it (NotImplementedError); give the `while`'
                         ' a tensor condition instead')

    def _appends(self, loop, local_names):
        for n in gast.walk(gast.Module(body=loop.body, type_ignores=[])):
            if (isinstance(n, gast.Call) and isinstance(n.func, gast.Attribute)
                    and n.func.attr == 'append'):
                target = n.func.value
                if not (isinstance(target, gast.Name) and target.id in local_names):
                    self.add(n, 'appending to %s in a loop: if the loop runs on tensors, only a local'
                             ' list can be carried through it; use a local list or a TensorArray'
                             % parser.unparse(gast.Expr(value=target)).strip())

    def _if(self, node):
        defined = anno.getanno(node, anno.Key.DEFINED_IN) or frozenset()
        live = anno.getanno(node, anno.Key.LIVE_OUT, frozenset())
        in_body, in_else = scopes.writes(node.body), scopes.writes(node.orelse)
        for name in sorted((in_body ^ in_else) & live - set(defined)):
            branch = 'main' if name in in_body else 'else'
            self.add(node, "'%s' is assigned only in the %s branch of this `if` but used after it:"
                     ' with a tensor condition both branches must assign it' % (name, branch),
                     kind='runtime')


# A finding and whether it is certain at conversion ('conversion') or depends on the values the
# code runs on ('runtime': reported by check() only).
_Found = collections.namedtuple('_Found', ['finding', 'kind'])


def _found(fn):
    fn = _unwrap(fn)
    node = parser.parse_entity(fn)
    if not isinstance(node, _SCOPES):
        return []
    checker = _Checker(fn.__code__.co_filename, _module_alias(fn))
    for scope in [node] + [n for n in gast.walk(node) if isinstance(n, _SCOPES) and n is not node]:
        checker.function(scope)
    return sorted(set(checker.findings), key=lambda f: f.finding.lineno)


def check(fn):
    """Returns the list of Findings for `fn` (empty when nothing looks surprising).

    `fn` may be a plain function, a method, or a `tf.function`; hints name defun as `fn`'s module
    does (`tf.range` after `import defun as tf`)::

        import defun as tf

        @tf.function
        def total(x):
            for _ in range(5000):
                x = x + 1.0
            return x

        for finding in tf.autograph.check(total):
            print(finding)   # file:line: this Python loop over range(...) runs 5000 times ...
    """
    return [found.finding for found in _found(fn)]


def warn_at_conversion(fn):
    """Conversion hook: issues each finding certain at conversion as an AutoGraphWarning (when
    enabled)."""
    if not _settings['warn']:
        return
    for found in _found(fn):
        if found.kind == 'conversion':
            finding = found.finding
            warnings.warn_explicit(finding.message, errors.AutoGraphWarning, finding.filename,
                                   finding.lineno)
