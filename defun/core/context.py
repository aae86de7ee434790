"""The only mutable global state of defun: per-thread execution mode, tape stack, name scopes and
control dependencies, each changed only through a context manager that restores it in `finally`.

The current graph is the innermost entry of a per-thread stack of frames. A frame whose graph is None
means eager execution (the bottom of the stack, and what `init_scope` pushes). A frame also carries the
name scope and the control dependencies that new ops of its graph get, so entering a nested graph
starts both afresh and leaving it brings the outer ones back.
"""
import contextlib
import random as _py_random
import threading

import numpy as np

from defun.core import names

__all__ = ['executing_eagerly', 'current_graph', 'graph_mode', 'init_scope', 'tapes',
           'tape_stack', 'recording_paused']


class _Frame:
    __slots__ = ('graph', 'scope', 'control_inputs', 'device')

    def __init__(self, graph):
        self.graph = graph
        self.scope = ''
        self.control_inputs = ()
        self.device = ''  # the device scope requested with tf.device (placement is always the CPU)


class _State(threading.local):
    def __init__(self):
        self.frames = [_Frame(None)]
        self._graph = None         # mirror of frames[-1].graph
        self._tapes = []           # active GradientTapes, innermost last
        # True when eager and no tape is active: the one flag the dispatch hot path reads (each
        # thread-local attribute read costs ~0.1 us, a sixth of a small numpy call).
        self.quiet = True
        self.variable_hooks = []   # callables told of each new Variable (function tracing)
        self.default_graph = None  # what get_default_graph() returns outside any graph
        # tf.distribute's scopes, innermost last: (strategy, its replica context inside
        # strategy.run, or None in its cross-replica context, as strategy.scope() enters)
        self.distribution = []
        # tf.summary: the default writer, the default step and the record_if condition
        self.summary_writer = None
        self.summary_step = None
        self.summary_recording = True

    @property
    def graph(self):
        return self._graph

    @graph.setter
    def graph(self, graph):
        self._graph = graph
        self.quiet = graph is None and not self._tapes

    @property
    def tapes(self):
        return self._tapes

    @tapes.setter
    def tapes(self, tapes):
        self._tapes = tapes
        self.quiet = self._graph is None and not tapes


_state = _State()


def state():
    """The calling thread's state; the dispatch hot path reads `.graph` and `.tapes` directly."""
    return _state


def executing_eagerly():
    """True unless a graph is being built (inside `function` tracing or `Graph.as_default()`)."""
    return _state.graph is None


def current_graph():
    """The graph new ops go into, or None in eager mode."""
    return _state.graph


def current_frame():
    return _state.frames[-1]


@contextlib.contextmanager
def graph_mode(graph, fresh_tapes=False):
    """Makes `graph` the current graph. With fresh_tapes, the enclosing tapes stop seeing new ops
    (a function being traced must not be recorded op by op on the caller's tapes)."""
    st = _state
    st.frames.append(_Frame(graph))
    st.graph = graph
    saved_tapes = st.tapes
    if fresh_tapes:
        st.tapes = []
    try:
        yield graph
    finally:
        st.frames.pop()
        st.graph = st.frames[-1].graph
        st.tapes = saved_tapes


@contextlib.contextmanager
def init_scope():
    """Lifts out of every graph being built into eager execution, as TF's init_scope does, so that
    variables and constants created here outlive the trace."""
    st = _state
    st.frames.append(_Frame(None))
    st.graph = None
    saved_tapes = st.tapes
    st.tapes = []  # what runs here is setup (variables, constants), never part of a gradient
    try:
        yield
    finally:
        st.frames.pop()
        st.graph = st.frames[-1].graph
        st.tapes = saved_tapes


def tapes():
    return _state.tapes


@contextlib.contextmanager
def tape_stack(new_tapes):
    """Replaces the active tapes (used to pause or isolate recording); restores them on exit."""
    st = _state
    saved = st.tapes
    st.tapes = new_tapes
    try:
        yield
    finally:
        st.tapes = saved


def push_tape(tape):
    _state.tapes = _state.tapes + [tape]


def pop_tape(tape):
    st = _state
    st.tapes = [t for t in st.tapes if t is not tape]


def recording_paused(tape):
    """Stops `tape` recording (GradientTape.stop_recording) until the block ends."""
    return tape_stack([t for t in _state.tapes if t is not tape])


@contextlib.contextmanager
def name_scope(name):
    """Enters a name scope of the current graph; returns the full scope prefix ('a/b/')."""
    frame = _state.frames[-1]
    saved = frame.scope
    if name is None or name == '':
        new = ''
    elif name.endswith('/'):
        new = name  # an absolute scope, as TF allows
    else:
        graph = frame.graph
        if graph is not None:  # TF checks scope names while building a graph only
            names.check_scope_name(name, nested=bool(saved))
        base = saved + name
        new = (graph.unique_name(base, mark_as_used=True) if graph is not None else base) + '/'
    frame.scope = new
    try:
        yield new
    finally:
        frame.scope = saved


@contextlib.contextmanager
def control_dependencies(control_inputs):
    """Adds control inputs to every op created in the block (None clears them, as in TF)."""
    frame = _state.frames[-1]
    saved = frame.control_inputs
    frame.control_inputs = () if control_inputs is None else saved + tuple(control_inputs)
    try:
        yield
    finally:
        frame.control_inputs = saved


@contextlib.contextmanager
def device_scope(device_name):
    """Makes `device_name` (already canonical; '' clears it) the requested device in the block."""
    frame = _state.frames[-1]
    saved = frame.device
    frame.device = device_name
    try:
        yield
    finally:
        frame.device = saved


def requested_device():
    return _state.frames[-1].device


@contextlib.contextmanager
def variable_creation_hook(hook):
    """Calls hook(variable) for every Variable created in the block; the hook may raise to refuse."""
    st = _state
    st.variable_hooks.append(hook)
    try:
        yield
    finally:
        st.variable_hooks.remove(hook)


def variable_hooks():
    """The active variable-creation hooks, outermost first."""
    return tuple(_state.variable_hooks)


def variable_created(variable):
    for hook in reversed(_state.variable_hooks):
        hook(variable)


@contextlib.contextmanager
def distribution_scope(strategy, replica_context=None):
    """Makes `strategy` the current tf.distribute strategy in the block: in its replica context
    `replica_context` (strategy.run), or in its cross-replica context when that is None."""
    st = _state
    st.distribution.append((strategy, replica_context))
    try:
        yield
    finally:
        st.distribution.pop()


def current_distribution():
    """(strategy, replica context or None) of the innermost tf.distribute scope, or None."""
    entries = _state.distribution
    return entries[-1] if entries else None


# Process-wide switches and counters, as TF's are: how often each at-most-n-times warning has been
# logged, and whether tracebacks hide defun's own frames (tf.debugging.*_traceback_filtering).
# 'collective' is the engine of the processes this one runs with (a launcher started them; set by
# tf.distribute's first multi-process strategy), which checkpoint writing asks who the chief is.
_process = {'log_counts': {}, 'traceback_filtering': True, 'lock': threading.Lock(),
            'collective': None}


def set_process_collective(engine):
    """Records the collective engine this process runs with (one per process: its world)."""
    _process['collective'] = engine


def process_collective():
    """The engine of this process's world of processes (rank, barrier), or None when alone."""
    return _process['collective']


def log_first_n(token, n):
    """True the first n times it is asked about `token` (TF's logging.log_first_n)."""
    with _process['lock']:
        count = _process['log_counts'].get(token, 0)
        _process['log_counts'][token] = count + 1
    return count < n


def traceback_filtering_enabled():
    return _process['traceback_filtering']


def set_traceback_filtering(enabled):
    _process['traceback_filtering'] = bool(enabled)


# Random state is process-wide, as TF's global seed is: tf.random.set_seed affects every thread.
# 'op_seeds' draws the op seeds of unseeded ops (TF's internal_operation_seed); 'streams' holds the
# generator of each eager op kernel the user seeded (TF caches such kernels, so calling the same
# seeded op again continues its sequence); 'generator' is tf.random's global Generator.
_random = {'seed': None, 'op_seeds': None, 'streams': {}, 'entropy': None, 'generator': None,
           'lock': threading.RLock()}   # re-entrant: the global generator's factory draws entropy
DEFAULT_GRAPH_SEED = 87654321


def set_random_seed(seed):
    """tf.random.set_seed: sets the global seed and restarts every eager op-seed sequence."""
    if seed is not None and (isinstance(seed, bool) or not hasattr(seed, '__index__')):
        raise TypeError(f'set_seed: `seed` must be an int or None, got {seed!r}')
    with _random['lock']:
        _random['seed'] = None if seed is None else int(seed)
        _random['op_seeds'] = None if seed is None else _py_random.Random(int(seed))
        _random['streams'] = {}


def global_seed():
    return _random['seed']


def next_operation_seed():
    """The op seed of the next unseeded eager op while a global seed is set (deterministic in it)."""
    with _random['lock']:
        return _random['op_seeds'].randint(0, 2 ** 31 - 1)


def random_stream(key, make):
    """The random stream of the eager kernel `key` (op type, dtype and its two seeds), made by
    `make()` the first time; set_random_seed drops them all."""
    streams = _random['streams']
    stream = streams.get(key)
    if stream is None:
        with _random['lock']:
            stream = streams.get(key)
            if stream is None:
                stream = streams[key] = make()
    return stream


def random_generator():
    """A process-wide numpy Generator seeded from OS entropy (for draws that have no seed)."""
    gen = _random['entropy']
    if gen is None:
        with _random['lock']:
            if _random['entropy'] is None:
                _random['entropy'] = np.random.default_rng()
            gen = _random['entropy']
    return gen


def global_random_generator(factory):
    """tf.random.get_global_generator's object, made by factory() on first use."""
    with _random['lock']:
        if _random['generator'] is None:
            _random['generator'] = factory()
        return _random['generator']


def set_global_random_generator(generator):
    with _random['lock']:
        _random['generator'] = generator


def default_graph(factory):
    """The calling thread's default graph (created on first use) for get_default_graph()."""
    st = _state
    if st.default_graph is None:
        st.default_graph = factory()
    return st.default_graph


def reset_default_graph():
    """Drops the calling thread's default graph (the next get_default_graph() makes a new one);
    TF's AssertionError while a graph is being built."""
    if _state.graph is not None:
        raise AssertionError('Do not use tf.reset_default_graph() to clear nested graphs. If you '
                             'need a cleared graph, exit the nesting and create a new graph.')
    _state.default_graph = None


# tf.config settings are process-wide in TF (one runtime per process), so they are here too: a plain
# dict read by Function calls (run_functions_eagerly) and random ops (op determinism).
_config = {'run_functions_eagerly': False, 'op_determinism': False, 'soft_placement': True,
           'intra_op_parallelism_threads': 0, 'inter_op_parallelism_threads': 0,
           'visible_devices': None, 'logical_devices': None, 'log_device_placement': False,
           'jit': '', 'optimizer_options': {}, 'tensor_float_32': True}


# Read-only outside this module (set through set_config_value): Function.__call__'s hot path
# reads run_functions_eagerly here without a function call.
CONFIG = _config


def config_value(key):
    """One tf.config setting (KeyError for a name that is not one)."""
    return _config[key]


def set_config_value(key, value):
    if key not in _config:
        raise KeyError(key)
    _config[key] = value


# The settings TF keeps in its eager context object, which `context._reset_context()` starts
# afresh; run_functions_eagerly, op determinism and TF32 are process-wide flags outside it.
_CONTEXT_SETTINGS = {key: _config[key] for key in (
    'soft_placement', 'intra_op_parallelism_threads', 'inter_op_parallelism_threads',
    'visible_devices', 'logical_devices', 'log_device_placement', 'jit', 'optimizer_options')}


def reset_context_settings():
    """Puts the settings of TF's eager context object back to their defaults."""
    for key, value in _CONTEXT_SETTINGS.items():
        _config[key] = dict(value) if isinstance(value, dict) else value


def functions_run_eagerly():
    return _config['run_functions_eagerly']


def check_random_seed(op_seed):
    """With op determinism enabled, a random op needs a global or an op-level seed, as in TF."""
    if _config['op_determinism'] and op_seed is None and _random['seed'] is None:
        raise RuntimeError('Random ops require a seed to be set when determinism is enabled. '
                           'Please set a seed before running the op, e.g. by calling '
                           'tf.random.set_seed(1).')


# Automatic object names ('sgd', 'sgd_1', ...) count per prefix over the whole process, as Keras's.
_object_names = {'counts': {}, 'lock': threading.Lock()}


def unique_object_name(prefix):
    """`prefix` the first time it is asked for, then `prefix_1`, `prefix_2`, ..."""
    with _object_names['lock']:
        count = _object_names['counts'].get(prefix, 0)
        _object_names['counts'][prefix] = count + 1
    return prefix if count == 0 else f'{prefix}_{count}'


# Variables are numbered once per process (Variable.unique_id outlives any reuse of id()).
_variable_ids = {'next': 0, 'lock': threading.Lock()}


def new_variable_id():
    with _variable_ids['lock']:
        _variable_ids['next'] += 1
        return _variable_ids['next']


# TF's process-wide switch (tf.compat.v1.enable/disable_tensor_equality): with it, `==` on tensors
# and Variables is elementwise and they are unhashable; without it, both are by identity.
_equality = {'enabled': True}


def tensor_equality_enabled():
    return _equality['enabled']


def set_tensor_equality(enabled):
    _equality['enabled'] = bool(enabled)


def in_tf1_graph():
    """True while a plain Graph (Graph.as_default, not a function being traced) is current."""
    graph = _state.graph
    return graph is not None and not getattr(graph, 'building_function', True)


# jit_compile (the native tier, defun/compiler/jit/): `requested`, per thread, is what the
# innermost tf.function being traced asked for (None: inherit, as TF's nested functions join the
# outer one's cluster); FuncGraphs record it when they are created. `backend_hidden` makes the
# native backend look absent (tests of the fallback without uninstalling it).
_jit = threading.local()


def jit_requested():
    """True when graphs traced now are to be compiled by the native tier."""
    return bool(getattr(_jit, 'requested', None))


@contextlib.contextmanager
def jit_scope(requested):
    """Graphs traced in the block are jit-compiled (True), not (False), or as outside (None)."""
    saved = getattr(_jit, 'requested', None)
    if requested is not None:
        _jit.requested = bool(requested)
    try:
        yield
    finally:
        _jit.requested = saved


def jit_backend_hidden():
    return bool(getattr(_jit, 'hidden', False))


@contextlib.contextmanager
def hide_jit_backend():
    """In the block, the native tier's backend counts as not installed (jit_compile=True runs
    the numpy tier and warns, as without the `defun[jit]` extra)."""
    saved = getattr(_jit, 'hidden', False)
    _jit.hidden = True
    try:
        yield
    finally:
        _jit.hidden = saved


# Native code the jit tier compiled in this process, by the hash of its source: compiled code
# only (never a graph, tensor or Variable), shared by every graph with the same source.
_native = {'modules': {}, 'lock': threading.RLock()}


def native_module(key, make):
    """The module compiled for source hash `key`, made once per process by `make()`."""
    with _native['lock']:
        module = _native['modules'].get(key)
        if module is None:
            module = _native['modules'][key] = make()
        return module


def summary_settings():
    """The calling thread's tf.summary defaults: `.summary_writer`, `.summary_step` and
    `.summary_recording` (set through `summary_defaults`, or for good by set_as_default/set_step)."""
    return _state


@contextlib.contextmanager
def summary_defaults(**changes):
    """Sets some of the tf.summary defaults (writer=, step=, recording=) inside the block."""
    keys = {'writer': 'summary_writer', 'step': 'summary_step', 'recording': 'summary_recording'}
    saved = {keys[k]: getattr(_state, keys[k]) for k in changes}
    for k, value in changes.items():
        setattr(_state, keys[k], value)
    try:
        yield
    finally:
        for attr, value in saved.items():
            setattr(_state, attr, value)
