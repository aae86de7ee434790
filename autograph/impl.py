"""convert / converted_call: which functions AutoGraph converts, and the cache of conversions.

`convert(fn)` returns a callable with `fn`'s signature that runs the converted code, or `fn` itself
when it must not be converted: functions marked `do_not_convert`, functions of allow-listed modules
(numpy, the standard library, `defun`, AutoGraph itself), and functions whose source cannot be read
(these get one warning). Functions using what AutoGraph cannot convert (generators, a loop's else
clause without the LOOP_ELSE feature) run unconverted with a warning, as in TF, or raise their
NotImplementedError when AUTOGRAPH_STRICT_CONVERSION is set (TF's switch). Conversions are cached weakly per
function object (and the compiled code per code object), so dropping a closure frees its converted
twin. Bound methods convert their function and bind the result to the same object.

`converted_call(f, args, kwargs)` is what every call in converted code goes through: builtins
AutoGraph overloads (print, range, len, ...) go to their overloads, user functions are converted
recursively, everything else is called as is.
"""
import functools
import inspect
import os
import sys
import sysconfig
import types
import warnings
import weakref

from defun import control_flow as cf
from defun.ops.array import joining as array_ops

from autograph import conversion
from autograph import errors
from autograph import operators
from autograph import options
from autograph.pyct import loader
from autograph.pyct import parser

# Modules (by top-level package) whose functions are never converted.
ALLOWLIST = frozenset([
    'builtins', 'numpy', 'defun', 'autograph', 'gast', 'astunparse', 'functools', 'collections',
    'inspect', 'typing', 'abc', 'copy', 'math', 'cmath', 'random', 're', 'itertools', 'operator',
    'contextlib', 'dataclasses', 'enum', 'weakref', 'threading', 'logging', 'warnings', 'os',
    'sys', 'io', 'json', 'time', 'pytest', '_pytest', 'scipy', 'tensorflow', 'importlib',
    'keras'])  # as TF: Keras's own code is never converted

DO_NOT_CONVERT = 'autograph_do_not_convert'


def _namespace(features):
    namespace = types.ModuleType('ag__', 'The runtime operators, as seen by converted code.')
    for name in operators.__all__:
        setattr(namespace, name, getattr(operators, name))

    def call(f, args, kwargs=None):
        # The functions a converted function calls convert with its own optional features.
        return converted_call(f, args, kwargs, features)
    namespace.converted_call = call
    return namespace


_USER_FRAMES = errors.UserFrames()
_code_cache = {}                               # (code, features) -> ConvertedCode
_function_cache = weakref.WeakKeyDictionary()  # function -> {features: converted function}
_unconverted = weakref.WeakSet()
# Hooks run on the original function before its first conversion (autograph.check's warnings).
conversion_hooks = []


_STDLIB_DIR = os.path.abspath(sysconfig.get_paths()['stdlib']) + os.sep
_SITE_DIRS = tuple(os.path.abspath(p) + os.sep for p in {sysconfig.get_paths()['purelib'],
                                                         sysconfig.get_paths()['platlib']})


def _in_standard_library(fn):
    if fn.__code__.co_filename.startswith('<frozen '):
        return True
    filename = os.path.abspath(fn.__code__.co_filename)
    return filename.startswith(_STDLIB_DIR) and not filename.startswith(_SITE_DIRS)


def _package_dir(name):
    module = sys.modules.get(name)
    path = getattr(module, '__file__', None)
    return os.path.dirname(os.path.abspath(path)) + os.sep if path else None


def _in_allowlisted_package(fn):
    filename = os.path.abspath(fn.__code__.co_filename)
    return any(d is not None and filename.startswith(d)
               for d in (_package_dir('defun'), _package_dir('autograph')))


def is_allowlisted(fn):
    """True for functions of allow-listed packages and of the standard library."""
    module = getattr(fn, '__module__', None) or ''
    if module.split('.')[0] in ALLOWLIST:
        return True
    if isinstance(fn, types.FunctionType) and _in_allowlisted_package(fn):
        # Decorators such as defun.custom_gradient use functools.wraps, which copies the user's
        # __module__ onto defun's own wrapper: the code's file tells the truth.
        return True
    return isinstance(fn, types.FunctionType) and _in_standard_library(fn)


def _installed_code(fn):
    """True for code of defun, AutoGraph, the standard library or an installed package."""
    filename = os.path.abspath(fn.__code__.co_filename)
    return (_in_allowlisted_package(fn) or _in_standard_library(fn)
            or filename.startswith(_SITE_DIRS))


def _should_convert(fn, user_requested=False):
    # As TF: the function handed to tf.function / to_graph itself is converted whatever its module
    # is called (only installed code is not); the functions it calls follow the allow-list.
    allowlisted = _installed_code(fn) if user_requested else is_allowlisted(fn)
    if getattr(fn, DO_NOT_CONVERT, False) or allowlisted:
        return False
    if _USER_FRAMES.is_converted(fn.__code__):
        return False  # already converted code (e.g. a nested function of a converted function)
    return not (inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn))


def _strict_conversion():
    # TF's switch (its reference tests set it): a function AutoGraph cannot convert is an error.
    return os.environ.get('AUTOGRAPH_STRICT_CONVERSION', '') not in ('', '0')


def _unsupported(fn, features, error):
    """What TF does with a function using a construct AutoGraph cannot convert (`error`, a
    NotImplementedError): raise it in strict mode, else warn and run `fn` unconverted."""
    if _strict_conversion():
        raise error
    warnings.warn('AutoGraph could not transform %s and will run it as-is (Python control flow on'
                  ' tensors inside it will fail while tracing). Cause: %s. To silence this warning,'
                  ' decorate the function with autograph.experimental.do_not_convert'
                  % (fn.__qualname__, error), errors.AutoGraphWarning, stacklevel=4)
    _function_cache.setdefault(fn, {})[features] = fn  # warned once per set of features
    return fn


def convert(fn, features=options.NONE, user_requested=False):
    """The converted version of `fn` (a function, bound method or callable), or `fn` itself.

    `features` names the optional conversions to apply (see `autograph.options`);
    `user_requested`: `fn` is what the user handed to tf.function or to_graph.
    """
    if isinstance(fn, types.MethodType):
        converted = convert(fn.__func__, features, user_requested)
        return fn if converted is fn.__func__ else types.MethodType(converted, fn.__self__)
    if not isinstance(fn, types.FunctionType) or not _should_convert(fn, user_requested):
        return fn
    cached = _function_cache.get(fn, {}).get(features)
    if cached is not None:
        return cached
    if fn in _unconverted:
        return fn
    if inspect.isgeneratorfunction(fn):
        return _unsupported(fn, features,
                            NotImplementedError('generators are not supported by AutoGraph'))
    try:
        converted = _convert_function(fn, features)
    except NotImplementedError as e:
        return _unsupported(fn, features, e)
    except parser.SourceUnavailableError as e:
        _unconverted.add(fn)
        warnings.warn('AutoGraph cannot read the source of %s (%s), so it runs unconverted: Python'
                      ' control flow on tensors inside it will fail while tracing'
                      % (fn.__qualname__, e), errors.AutoGraphWarning, stacklevel=3)
        return fn
    _function_cache.setdefault(fn, {})[features] = converted
    return converted


def _convert_function(fn, features):
    result = _code_cache.get((fn.__code__, features))
    if result is None:
        if not any(code is fn.__code__ for code, _ in _code_cache):
            for hook in conversion_hooks:
                hook(fn)
        result = conversion.convert_code(fn, features)
        for code in loader.code_objects(result.code):
            generated = code is result.code or code in result.helper_codes
            _USER_FRAMES.register([code], fn.__name__ if generated else code.co_name)
        _code_cache[fn.__code__, features] = result
    return _error_rewriting_wrapper(conversion.instantiate(result, fn, _ag_cell(features)), fn)


def _error_rewriting_wrapper(converted, original):
    """Calls `converted`; exceptions leave with the user's location in their message."""

    def wrapper(*args, **kwargs):
        try:
            return converted(*args, **kwargs)
        except Exception as e:
            raise errors.rewrite(e, _USER_FRAMES, parser.source_line)

    for attribute in ('__name__', '__qualname__', '__doc__', '__module__'):
        setattr(wrapper, attribute, getattr(original, attribute))
    try:
        wrapper.__signature__ = inspect.signature(original)
    except (TypeError, ValueError):
        pass
    wrapper.autograph_converted = converted
    return wrapper


def converted_call(f, args, kwargs=None, features=options.NONE):
    """Calls `f(*args, **kwargs)`, converting `f` (with `features`) first when it is user code."""
    kwargs = kwargs or {}
    overload = _overload(f)
    if overload is not None:
        return overload(*args, **kwargs)
    if isinstance(f, functools.partial):
        return converted_call(f.func, f.args + tuple(args), {**f.keywords, **kwargs}, features)
    if isinstance(f, (types.FunctionType, types.MethodType)):
        return convert(f, features)(*args, **kwargs)
    if not isinstance(f, type) and callable(f) and isinstance(getattr(type(f), '__call__', None),
                                                              types.FunctionType):
        return convert(types.MethodType(type(f).__call__, f), features)(*args, **kwargs)
    return f(*args, **kwargs)


def _overload(f):
    try:
        return _OVERLOADS.get(f)
    except TypeError:  # unhashable callable
        return None


def _map_fn(fn, elems, *args, **kwargs):
    """`tf.map_fn` called from converted code converts `fn` too, as TF's map_fn does
    (`autograph.tf_convert`): Python `if`/`while` on tensors inside `fn` become graph control flow."""
    return cf.map_fn(convert(fn), elems, *args, **kwargs)


# What converted code calls instead of a function, keyed by the function object: the builtins
# AutoGraph overloads, `stack` (which also takes a TensorArray-backed list) and `map_fn`.
_OVERLOADS = {**operators.OVERLOADS, array_ops.stack: operators.stack, cf.map_fn: _map_fn}


def do_not_convert(func=None):
    """Marks `func` (or, as `@do_not_convert()`, the decorated function) to run unconverted."""
    if func is None:
        return do_not_convert
    if isinstance(func, types.FunctionType):
        setattr(func, DO_NOT_CONVERT, True)
        return func

    @functools.wraps(func)
    def unconverted(*args, **kwargs):
        return func(*args, **kwargs)
    setattr(unconverted, DO_NOT_CONVERT, True)
    return unconverted


def converted_source(fn, features=options.NONE):
    """Readable source of the converted `fn`; raises ValueError when it is not converted."""
    target = fn.__func__ if isinstance(fn, types.MethodType) else fn
    if not isinstance(target, types.FunctionType) or not _should_convert(target, True):
        raise ValueError('%r is not converted by AutoGraph (not a user function, allow-listed or'
                         ' marked do_not_convert)' % (fn,))
    result = _code_cache.get((target.__code__, features))
    if result is None:
        result = conversion.convert_code(target, features)
    return result.source()


# The `ag__` namespace converted code sees: one cell per set of optional features, shared by
# every function converted with those features (at most one per subset of Feature).
_AG_CELLS = {}


def _ag_cell(features):
    cell = _AG_CELLS.get(features)
    if cell is None:
        cell = _AG_CELLS.setdefault(features, conversion.new_cell(_namespace(features)))
    return cell


AG = _ag_cell(options.NONE).cell_contents
