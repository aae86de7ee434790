"""`function` / Function: the trace cache in front of ConcreteFunctions, with retraces that explain
themselves.

A call binds its arguments to the Python signature (defaults applied, so `f(x)` and `f(x, 2.0)` with
default 2.0 share a trace), encodes them into a TraceKey, and looks the key up; lookup -> trace -> add
reads top to bottom in `_concrete_for`. A miss first tries the existing traces that accept the call
(unknown dims; only traces with such dims, indexed by `TraceKey.coarse`, so a miss costs the same
however many traces are cached), then traces; with `reduce_retracing` the new trace is relaxed
against the previous one (dims that differ become None). Every retrace records which argument
changed, from what to what (retraces.py): after TF's threshold a warning prints that history with
the call site and the usual fixes, and `explain_retraces()` returns it on demand.

Methods: Function is a descriptor; each instance gets its own bound Function, held in a
WeakKeyDictionary whose values refer back to the instance only weakly, so dropping the instance frees
its traces. Tracing is serialised per Function by a lock; calls of existing traces take no lock.
Traces keyed by an object's identity hold it weakly, and are dropped on the next miss after it dies.
"""
import functools
import threading
import weakref

from autograph import impl as autograph_impl
from autograph import options as autograph_options
from defun.functions.autograph_off import explain_python_control_flow
from defun.core import context, error_helpers, nest
from defun.compiler.jit.report import compiler_ir
from defun.functions.call_binding import Binder, WeakMethod, weak_refs
from defun.functions.input_signature import beyond_signature, signature_key
from defun.functions.retraces import RetraceLog
from defun.functions.call_plan import MISS
from defun.core.tensor import EagerTensor
from defun.functions.trace_key import TraceKey
from defun.functions.trace_leaves import UnconvertibleArray, positional_key
from defun.functions.tracing import VariablePolicy, trace_function

__all__ = ['function', 'Function']

_state = context.state()
_config = context.CONFIG  # read by the hot path (run_functions_eagerly), without a call


class Function:
    """A Python function compiled per input signature, as `tf.function` returns.

    Each new kind of argument (dtype and shape of a tensor, value of a Python number) traces the
    function once into a graph, compiled to Python source; later calls with that kind run it::

        @tf.function
        def scale(x):
            return x * 2.0

        scale(tf.constant([1.0, 2.0]))      # traces, then runs
        scale(tf.constant([3.0, 4.0]))      # runs the same trace
        print(scale.source(tf.constant([1.0, 2.0])))   # the generated Python
        print(scale.experimental_get_tracing_count(), scale.explain_retraces())   # 1 []

    `get_concrete_function(*args)` returns the trace (`ConcreteFunction`: `graph`,
    `function_source`, `backward_source`).
    """

    def __init__(self, python_function, name=None, input_signature=None, autograph=True,
                 reduce_retracing=False, jit_compile=None, experimental_autograph_options=None):
        if not callable(python_function):
            raise TypeError(f'tf.function expects a callable, got {python_function!r}')
        self._python_function = python_function
        self._name = name or getattr(python_function, '__name__', type(python_function).__name__)
        self._autograph = autograph
        self._autograph_options = experimental_autograph_options
        self._autograph_features = autograph_options.features(experimental_autograph_options)
        self._reduce_retracing = reduce_retracing
        self._jit_compile = jit_compile
        self._input_signature = None if input_signature is None else tuple(input_signature)
        self._binder = Binder(python_function, self._input_signature)
        # How many positional arguments the hot path in __call__ accepts (-1: never).
        self._all_positional = (len(self._binder.names) if self._binder.simple
                                and input_signature is None else -1)
        self._cache = {}            # TraceKey -> ConcreteFunction
        self._saving = {}           # TraceKey -> its trace made for a SavedModel
        self._memo = {}             # (names, tree, leaves) -> ConcreteFunction
        self._plans = {}            # arguments' (dtype, shape) pairs -> CallPlan of the trace
        self._hot = None            # CallPlan: the last one __call__ ran
        self._flat_tree = TraceKey.flat_tree(len(self._binder.names))
        self._holders = {}          # TraceKey -> weak refs of objects keyed by identity
        self._dead = []             # keys whose objects died: dropped on the next miss
        self._general = {}          # key.coarse() -> cached keys accepting more than themselves
        self._lock = threading.RLock()
        self._tracing_count = 0
        self._variables_created = False
        self._retrace_log = RetraceLog(self._name)
        self._instances = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, python_function, updated=())

    # -- the TF surface
    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self):
        return self._tracing_count

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Every cached trace's signature in TF's text, in trace order."""
        return ('\n\n' if verbose else '\n').join(
            c.pretty_printed_signature(verbose) for c in self._cache.values())

    def _list_all_concrete_functions(self):
        """Every cached trace, in trace order (the input_signature's traced first when there is
        none yet). TF's name: Keras's export archive calls it on the functions it exports."""
        if not self._cache and self._input_signature is not None:
            self.get_concrete_function()
        return list(self._cache.values())

    def source(self, *args, **kwargs):
        """The generated Python source of the trace these arguments select (tracing if needed):
        `get_concrete_function(*args, **kwargs).function_source` (see `help(tf.Function)`)."""
        return self.get_concrete_function(*args, **kwargs).function_source

    def explain_retraces(self):
        """Every retrace so far: which arguments changed (name, old, new) and where it was called."""
        return list(self._retrace_log.entries)

    def __repr__(self):
        return f'<defun.Function {self._name}>'

    # -- methods
    def __get__(self, instance, owner):
        if instance is None:
            return self
        try:
            bound = self._instances.get(instance)
        except TypeError:
            bound = None  # unhashable instance: no per-instance cache possible
        if bound is None:
            bound = Function(WeakMethod(self._python_function, instance), self._name,
                             self._input_signature, self._autograph, self._reduce_retracing,
                             self._jit_compile, self._autograph_options)
            try:
                self._instances[instance] = bound
            except TypeError:
                pass
        return bound

    # -- calling
    def __call__(self, *args, **kwargs):
        try:
            # The hot path: the last trace called with eager tensors, called so again while
            # nothing records, runs through its CallPlan (the generated function itself).
            plan = self._hot
            if plan is not None and not kwargs and _state.quiet and \
                    not _config['run_functions_eagerly']:
                result = plan.call(args)
                if result is not MISS:
                    return result
            return self._call(args, kwargs)
        except Exception as exc:
            # TF's traceback filtering: the user's frames only (see error_helpers.filtered).
            raise error_helpers.filtered(exc)

    def _call(self, args, kwargs):
        """The one lookup: memo -> key -> cache -> trace, then the call."""
        if context.functions_run_eagerly():  # tf.config.run_functions_eagerly(True)
            return self._python_function(*args, **kwargs)
        # 1. The memo of plans: eager tensors given positionally, by their (dtype, shape) pairs.
        plan = self._plans.get(self._positional_key(args)) if not kwargs and \
            self._all_positional == len(args) else None
        if plan is not None:
            self._hot = plan
            return plan.call(args) if _state.quiet else plan.concrete.call_flat(list(args))
        # 2. The key: the arguments bound to the signature and encoded.
        names, values, _ = self._binder.bind(args, kwargs)
        if self._input_signature is not None:
            if len(values) > len(self._input_signature) and self._binder.signature is not None:
                names, values = beyond_signature(self._name, self._binder.signature.parameters,
                                                 names, values, len(self._input_signature))
            key, feeds = signature_key(self._name, self._input_signature, names, values)
            # Trace from the converted tensors, not the raw values (a Python list where a
            # TensorSpec stands is one tensor here, as in TF).
            values = nest.pack_sequence_as(list(self._input_signature), feeds,
                                           expand_composites=True)
            return self._cached_or_traced(key, values, feeds, ()).call_flat(feeds)
        try:
            key, feeds, holders = TraceKey.build(names, values)
        except UnconvertibleArray as exc:
            self._trace_stand_ins(names, values)
            raise ValueError(str(exc)) from None
        # The key's raw fields (hashed in C) map to a trace; keys holding objects by identity stay
        # out of this memo, since their liveness must be checked on every call.
        concrete = self._memo.get((names, key.tree, key.leaves))
        if concrete is None:
            # 3. the cache, 4. a trace.
            concrete = self._cached_or_traced(key, values, feeds, holders)
            if not holders and not concrete.captures_enclosing_graph():
                self._remember(names, key, concrete)
        return concrete.call_flat(feeds)

    def _positional_key(self, args):
        """The flat (dtype, shape) pairs of `args` when all are eager tensors, else None."""
        key = []
        for v in args:
            if v.__class__ is not EagerTensor:
                return None
            array = v.array
            key.append(array.dtype)
            key.append(array.shape)
        return tuple(key)

    def _remember(self, names, key, concrete):
        """Memoizes a trace by its key's raw fields, and by its arguments' (dtype, shape) pairs
        (a CallPlan) when it takes eager tensors positionally."""
        self._memo[(names, key.tree, key.leaves)] = concrete
        positional = positional_key(key.leaves)
        if names == self._binder.names and key.tree == self._flat_tree and positional is not None:
            self._plans[positional] = concrete.call_plan(positional)

    def _cached_or_traced(self, key, values, feeds, holders):
        concrete = self._cache.get(key)
        if concrete is None or not self._holders_alive(key):
            concrete = self._concrete_for(key, values, feeds, holders)
        return concrete

    def _trace_stand_ins(self, names, values):
        """Traces with string tensors standing in for arrays of objects (see UnconvertibleArray),
        so that the trace's own error comes first, as in TF."""
        def stand_in(value):
            try:
                TraceKey.build(('x',), [value])
            except UnconvertibleArray as exc:
                return exc.stand_in
            return value

        values = nest.map_structure(stand_in, values)
        key, feeds, holders = TraceKey.build(names, values)
        if self._cache.get(key) is None:
            self._concrete_for(key, values, feeds, holders)

    def get_concrete_function(self, *args, **kwargs):
        """The ConcreteFunction for these arguments (values or TensorSpecs), tracing if needed."""
        return self._cached_or_traced(*self._key_for(args, kwargs))

    def experimental_get_compiler_ir(self, *args, **kwargs):
        """TF's view of what jit_compile made of the trace for these arguments: returns
        `get(stage='hlo')`, the text of one stage ('hlo': the report of what ran natively,
        what fell back to the numpy tier and why; 'source': the native source; 'optimized_hlo':
        the LLVM IR of the compiled code; 'py': the numpy tier's Python)."""
        concrete = self.get_concrete_function(*args, **kwargs)
        return functools.partial(compiler_ir, concrete.callable, self._name)

    def _key_for(self, args, kwargs):
        names, values, _ = self._binder.bind(args, kwargs) if (args or kwargs) else (
            self._binder.names, list(self._input_signature or ()), None)
        if self._input_signature is not None:
            if len(values) > len(self._input_signature) and self._binder.signature is not None:
                names, values = beyond_signature(self._name, self._binder.signature.parameters,
                                                 names, values, len(self._input_signature))
            key, feeds = signature_key(self._name, self._input_signature, names,
                                       values if (args or kwargs) else
                                       list(self._input_signature), specs=True)
            return key, values, feeds, ()
        key, feeds, holders = TraceKey.build(names, values)
        return key, values, feeds, holders

    def concrete_functions_for_saving(self):
        """The traces a SavedModel keeps, made as TF makes them in a save context: each trace
        (or, never called, the input_signature's) is made once more, so its Python side effects
        run again and the tracing count grows; these are kept apart from the traces calls use
        and serve later saves too."""
        with self._lock:
            self._drop_dead()
            keys = list(self._cache) or (
                [self._key_for((), {})[0]] if self._input_signature is not None else [])
            for key in keys:
                if key not in self._saving:
                    self._saving[key] = self._saving_trace(key)
            return [self._saving[key] for key in keys]

    def _saving_trace(self, key):
        original = self._cache.get(key)
        if original is None:
            # Never called (an input_signature): its one trace is made as a first call's, so it
            # may create variables, and calls use it too (TF traces it once).
            rebuilt, values, feeds, holders = self._key_for((), {})
            return self._concrete_for(rebuilt, values, feeds, holders)
        args, kwargs = original.structured_input_signature
        rebuilt, values, feeds, _ = self._key_for(args, kwargs)
        if rebuilt != key:
            return original  # not rebuildable from its specs (Variables as arguments): reuse
        concrete = trace_function(self._traced_python_function(), self._name, self._binder,
                                  key, values, feeds, VariablePolicy(False, self._name))
        self._tracing_count += 1
        return concrete

    def _holders_alive(self, key):
        refs = self._holders.get(key)
        return refs is None or all(r() is not None for r in refs)

    def _concrete_for(self, key, values, feeds, holders):
        """lookup -> trace -> add, under the lock so each key traces once."""
        with self._lock:
            self._drop_dead()
            concrete = self._cache.get(key)
            if concrete is not None and self._holders_alive(key):
                return concrete
            # Only keys accepting more than themselves can take a call another key made; they
            # are indexed by what they share with every key they accept, so this never scans
            # every trace (retracing stays as cheap at the 1,000th trace as at the 10th).
            for cached_key in self._general.get(key.coarse(), ()):
                if cached_key.accepts(key) and self._holders_alive(cached_key):
                    return self._cache[cached_key]
            trace_key = self._relaxed(key)
            self._retrace_log.record(trace_key, self._tracing_count + 1)
            concrete = self._trace(trace_key, values, feeds)
            if concrete.captures_enclosing_graph():
                return concrete  # valid only inside the enclosing trace: never cached
            self._add(trace_key, concrete, holders)
            return concrete

    def _add(self, key, concrete, holders):
        self._cache[key] = concrete
        self._holders[key] = weak_refs(
            holders, lambda _ref, key=key, dead=self._dead: dead.append(key))
        if not key.exact():
            self._general.setdefault(key.coarse(), []).append(key)
        self._retrace_log.traced(key)

    def _drop_dead(self):
        """Frees the traces made for objects that have died since (their weak references
        queued the keys: a callback may run inside any allocation, so it only appends)."""
        while self._dead:
            key = self._dead.pop()
            if not self._holders_alive(key) and self._cache.pop(key, None) is not None:
                self._saving.pop(key, None)
                self._holders.pop(key, None)
                general = self._general.get(key.coarse(), [])
                if key in general:
                    general.remove(key)

    def _relaxed(self, key):
        last = self._retrace_log.last_key
        if not self._reduce_retracing or last is None:
            return key
        relaxed = last.relax(key)
        return key if relaxed is None else relaxed

    def _trace(self, key, values, feeds):
        fn = self._traced_python_function()
        # As TF: only the first trace may create variables. A later one doing so is refused with
        # TF's "singleton" message if the first trace created some, else "non-first call".
        first = self._tracing_count == 0
        policy = VariablePolicy(allowed=first, fn_name=self._name,
                                later_call=not first and not self._variables_created)
        with context.jit_scope(self._jit_compile):   # the graphs record it (compiler/jit)
            concrete = trace_function(fn, self._name, self._binder, key, values, feeds, policy)
        self._tracing_count += 1
        if policy.created:
            self._variables_created = True
            self._tracing_count += 1  # TF counts the second, creation-free trace too
            # TF's rule: after a trace that created variables, trace again with creation
            # forbidden, so a function that creates a variable on every call fails now.
            with context.jit_scope(self._jit_compile):
                concrete = trace_function(fn, self._name, self._binder, key, values, feeds,
                                          VariablePolicy(False, self._name))
        return concrete

    def _traced_python_function(self):
        fn = self._python_function
        if not self._autograph:
            return explain_python_control_flow(fn, self._name)
        if isinstance(fn, WeakMethod):  # a method: convert the function, keep the weak binding
            return fn.rebound(autograph_impl.convert(fn.function, self._autograph_features,
                                                     user_requested=True))
        return autograph_impl.convert(fn, self._autograph_features, user_requested=True)


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """Compiles `func` into a graph per input signature, as `tf.function` (TF's parameters;
    an unknown keyword is Python's TypeError, as in TF). A decorator or a call::

        @tf.function
        def step(x, y):
            if tf.reduce_sum(x) > 0:        # AutoGraph: a tensor `if` becomes tf.cond
                return x * y
            return x - y

        print(step(tf.constant([1.0, 2.0]), tf.constant(3.0)))   # tf.Tensor([3. 6.], ...)
        square = tf.function(lambda x: x * x, input_signature=[tf.TensorSpec([None], tf.float32)])
        print(square(tf.constant([3.0])))   # one trace serves every length

    `input_signature` fixes the trace (shapes may have None); `reduce_retracing=True` generalises
    shapes after a retrace; `autograph=False` leaves Python control flow as it is (it then runs
    once, while tracing). The result is a `Function`: see `help(tf.Function)` for what it shows.
    `experimental_implements`, `experimental_attributes` and `experimental_follow_type_hints` are
    accepted and have no effect here; `experimental_compile` is the old name of `jit_compile`
    (no XLA either way)."""
    if experimental_relax_shapes is not None:
        reduce_retracing = reduce_retracing or experimental_relax_shapes
    if experimental_compile is not None and jit_compile is None:
        jit_compile = experimental_compile

    def decorate(fn):
        return Function(fn, input_signature=input_signature, autograph=autograph,
                        reduce_retracing=reduce_retracing, jit_compile=jit_compile,
                        experimental_autograph_options=experimental_autograph_options)
    if func is None:
        return decorate
    return decorate(func)



def call_converted(fn, args):
    """Calls `fn(*args)` converted by AutoGraph as a tf.function body is: for the other tracers of
    user code (tf.data's map, filter and reduce functions), so only this module imports autograph."""
    return autograph_impl.converted_call(fn, args)
