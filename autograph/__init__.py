"""AutoGraph: rewrite Python control flow over tensors into graph control flow.

`to_graph(f)` returns `f` converted: its `if`/`while`/`for` on tensors become `defun.cond` /
`defun.while_loop`, `and`/`or`/`not`, conditional expressions, `assert` and `print` become their
graph forms, and the functions it calls are converted in turn; on Python values everything behaves
exactly as before. `to_code(f)` shows the converted source. `check(f)` reports, before any tracing,
constructs that usually surprise (see `autograph.preflight`). `defun.function` applies this to the
functions it traces.
"""
from autograph import experimental
from autograph import impl
from autograph import options
from autograph import preflight
from autograph.errors import AutoGraphWarning
from autograph.impl import do_not_convert
from autograph.preflight import check

impl.conversion_hooks.append(preflight.warn_at_conversion)


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """Returns the converted version of a function or method (the same object if not convertible).

    `recursive` is accepted for TensorFlow compatibility: calls are always converted recursively.
    `experimental_optional_features` turns on optional conversions (`experimental.Feature`).
    """
    del recursive
    return impl.convert(entity, options.features(experimental_optional_features),
                        user_requested=True)


def trace(*args):
    """Prints `args` when it runs, as Python's print: inside a compiled function that is while it
    is traced (symbolic tensors show as `Tensor("name:0", ...)`), as `tf.autograph.trace`."""
    print(*args)


def to_code(entity, recursive=True, experimental_optional_features=None):
    """Returns the source of the converted function, as a string: what AutoGraph made of your
    `if`/`while`/`for` (`ag__.if_stmt(...)`, `ag__.for_stmt(...)`). `entity` may be a function,
    a method or a `tf.function` (its Python function is shown)::

        import defun as tf

        def clip(x):
            if x > 1.0:
                x = tf.constant(1.0)
            return x

        print(tf.autograph.to_code(clip))   # def clip(x): ... ag__.if_stmt(x > 1.0, ...)
    """
    del recursive
    entity = getattr(entity, 'python_function', entity)
    return impl.converted_source(entity, options.features(experimental_optional_features))


__all__ = ['to_graph', 'to_code', 'trace', 'do_not_convert', 'experimental', 'check', 'AutoGraphWarning',
           'preflight']
