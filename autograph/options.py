"""`Feature`: the optional conversions of `tf.autograph.experimental.Feature`, and their defaults.

As in TensorFlow 2.21, `tf.function` converts with no optional feature unless
`experimental_autograph_options` names some (`to_graph` takes them as
`experimental_optional_features`). What each changes here:

  * ASSERT_STATEMENTS: `assert` on a graph tensor becomes an assertion op (otherwise it is Python's
    assert, and a symbolic tensor there raises OperatorNotAllowedInGraphError, as in TF);
  * LISTS: `xs.append(v)` on a local list becomes an assignment, so a tensor loop carries the list
    (as a TensorArray-backed list; otherwise the body's tensors leak out of the loop, as in TF);
  * BUILTIN_FUNCTIONS: `print` of graph tensors prints their values at every call (otherwise print
    runs once, at trace time, and shows the symbolic tensors, as in TF);
  * EQUALITY_OPERATORS, AUTO_CONTROL_DEPS, NAME_SCOPES: accepted; `==` on tensors and the order
    of stateful ops are already TF's without them, and op names carry no function scopes.

defun's own, beyond TF (TF has no such member; `ALL` includes them):

  * LOOP_ELSE: `for`/`while` with an `else` clause are converted (TF cannot convert them, and runs
    such a function unconverted, with a warning; see autograph.impl).
  * ONE_SIDED_RETURNS: a tensor `if` where one branch returns and the other does not (the function
    returns later on that path) is converted, zeros standing in for the value on the path that
    has not returned yet; TF raises "the else branch must also have a return statement".
"""
import enum


class Feature(str, enum.Enum):
    """An optional AutoGraph conversion (the names and values of TF's)."""

    ALL = 'ALL'
    AUTO_CONTROL_DEPS = 'AUTO_CONTROL_DEPS'
    ASSERT_STATEMENTS = 'ASSERT_STATEMENTS'
    BUILTIN_FUNCTIONS = 'BUILTIN_FUNCTIONS'
    EQUALITY_OPERATORS = 'EQUALITY_OPERATORS'
    LISTS = 'LISTS'
    NAME_SCOPES = 'NAME_SCOPES'
    LOOP_ELSE = 'LOOP_ELSE'
    ONE_SIDED_RETURNS = 'ONE_SIDED_RETURNS'

    @classmethod
    def all(cls):
        return tuple(cls.__members__.values())

    @classmethod
    def all_but(cls, exclude):
        if not isinstance(exclude, (list, tuple, set, frozenset)):
            exclude = (exclude,)
        return tuple(set(cls.all()) - set(exclude) - {cls.ALL})


def features(options):
    """The feature names `options` (None, a Feature or a collection of them) turns on."""
    if options is None:
        return frozenset()
    if isinstance(options, (Feature, str)):
        options = (options,)
    try:
        chosen = frozenset(Feature(o).value for o in options)
    except (TypeError, ValueError) as e:
        raise ValueError('experimental_autograph_options takes tf.autograph.experimental.Feature'
                         ' values (or a collection of them); got %r' % (options,)) from e
    if Feature.ALL.value in chosen:
        return frozenset(f.value for f in Feature)
    return chosen


NONE = features(None)
