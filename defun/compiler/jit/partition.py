"""Which ops of a graph run natively: the partition of a jit-compiled graph into clusters.

Each live op is tried alone on a scratch Lowerer (its lowering, and for control flow its whole
cond and body, must write without NotLowerable); ops whose inputs are all known at build time are
left to the executor's constant folding. Lowerable ops gather, in graph order, into clusters: an
op joins the open cluster unless it reads a value that a numpy-tier op computed from the cluster
(that would be a cycle), and the cluster closes as soon as a numpy-tier op reads from it. So every
input of a cluster is computed before its last op and every reader of its outputs comes after, and
the executor writes the whole cluster as one call at the place of its last op. Stateful ops never
join (they stay in program order in the numpy tier), except inside a native loop, where a
variable read is hoisted before the call (lowerer.HostValue). A cluster without loops or branches
and of fewer than MIN_CLUSTER_OPS array-computing ops gains nothing over numpy's own calls and is
left there too.
"""
from defun.compiler.jit import fusion
from defun.compiler.jit.lowerer import Lowerer, NotLowerable, NumpyIsFaster

__all__ = ['Cluster', 'Partition', 'partition']


class ClusterDef:
    """What the executor reads of a cluster standing in its lines for an op: it runs code of
    its own (like an emitter's), no state, one call."""

    emit = True
    stateful = False
    graph_kernel = None
    is_identity = False
    num_outputs = None


class Cluster:
    """Ops written as one native function: `ops` in graph order, `inputs` (tensors computed
    outside, in first-read order), `outputs` (tensors read outside). In the executor's lines it
    stands for its ops (type, name, inputs, outputs and origin, for error messages)."""

    type = 'NativeCluster'
    opdef = ClusterDef()
    attrs = {}
    control_inputs = ()

    def __init__(self):
        self.ops, self.inputs, self.outputs = [], [], []
        self.native = None    # the NativeCall once compiled (native_call.py)

    @property
    def last(self):
        return self.ops[-1]

    @property
    def name(self):
        return f'native({self.ops[0].name}..{self.last.name})'

    @property
    def origin(self):
        return self.last.origin


class Partition:
    """`clusters`; `fallbacks`: (op, reason) for each live op left to the numpy tier."""

    def __init__(self, clusters, fallbacks):
        self.clusters, self.fallbacks = clusters, fallbacks
        self.by_op = {op: c for c in clusters for op in c.ops}

    def drop(self, cluster, reason):
        """Leaves `cluster`'s ops to the numpy tier, for `reason`."""
        self.clusters.remove(cluster)
        self.fallbacks += [(op, reason) for op in cluster.ops if not op.opdef.is_identity]
        self.by_op = {op: c for c in self.clusters for op in c.ops}

    def drop_readers_of(self, ops, reason):
        """Leaves the clusters whose outputs one of `ops` reads to the numpy tier, for `reason`."""
        for cluster in list(self.clusters):
            outs = {id(t) for t in cluster.outputs}
            if any(id(t) in outs for op in ops for t in op.inputs):
                self.drop(cluster, reason)

    def absorb(self, inner):
        """Adds the clusters and fallbacks of `inner` (a sub-graph's partition) to this report."""
        self.clusters += inner.clusters
        self.fallbacks += inner.fallbacks


def partition(graph, inputs, outputs, live, keep_out=()):
    """The Partition of the `live` ops of `graph` computing `outputs` from `inputs`; the ops in
    `keep_out` ({op: reason}) stay in the numpy tier."""
    order = [op for op in graph.get_operations() if op in live]
    input_ids = {id(t) for t in inputs}
    used = {id(t) for t in outputs} | {id(t) for op in order for t in op.inputs}
    lowerable, fallbacks, constant = set(), [], set()
    for op in order:
        if op.outputs and all(id(t) in input_ids for t in op.outputs) or op.opdef.is_placeholder:
            continue
        if op.opdef.fold is not None and not op.inputs and not op.opdef.stateful:
            constant.update(id(t) for t in op.outputs)
            continue
        reason = keep_out.get(op) or _why_not(op, constant, used)
        if reason is None:
            lowerable.add(op)
            continue
        fallbacks.append((op, reason))
        if reason == _FOLDED:
            constant.update(id(t) for t in op.outputs)
    _leave_chains_to_numpy(order, lowerable, fallbacks)
    clusters = _clusters(order, lowerable)
    kept = []
    for c in clusters:
        compute = [op for op in c.ops if not op.opdef.is_identity]
        if any(_runs_subgraphs(op) for op in compute) or _weight(compute) >= MIN_CLUSTER_OPS:
            _connect(c, order, outputs)
            kept.append(c)
        else:
            fallbacks += [(op, 'a few ops on small arrays: numpy runs them as fast as a native '
                               'call') for op in compute]
    return Partition(kept, fallbacks)


# A cluster without loops or branches needs this many ops to be compiled: a native call costs
# about 1 us more than a numpy call (measured: x * 2.0 + 1.0 on 10 floats, 4.9 us native against
# 4.1 us in numpy), and the numpy tier already writes short elementwise runs into dead buffers
# (measured: the real training steps' two- and three-op clusters made them 2-12% slower).
MIN_CLUSTER_OPS = 4


def _weight(ops):
    """How many of `ops` count towards MIN_CLUSTER_OPS: those computing arrays, not shape
    plumbing (lowerings marked `plumbing`: Shape, Reshape, BroadcastTo...) nor scalars, which
    the numpy tier runs for a fraction of a native call's cost (measured: the mean's five-op
    gradient cluster, OnesLike..RealDiv, made the real MLP step slower); at least 1."""
    counted = [op for op in ops if op.outputs and op.outputs[0].shape.rank != 0 and
               not getattr(op.opdef.lowering, 'plumbing', False)]
    return max(len(counted), 1)
_FOLDED = 'inputs known when the graph is built: folded by the executor'


def _why_not(op, constant, used):
    """None when `op` lowers on its own, else the reason it stays in the numpy tier."""
    if op.opdef.stateful and not _runs_subgraphs(op):
        return f'{op.type}: reads or changes state (kept in program order by the numpy tier)'
    if op.inputs and op.opdef.foldable and op.opdef.lowering is not None and \
            all(id(t) in constant for t in op.inputs):
        return _FOLDED
    lowerer = Lowerer()
    names = {id(t): lowerer.input(t, ('input', i)) for i, t in enumerate(op.inputs)}
    try:
        lowerer.lower_ops([op], names, used)
    except NumpyIsFaster as exc:
        return exc      # a reason, kept as its class (see _leave_chains_to_numpy)
    except NotLowerable as exc:
        return str(exc)
    return None


def _leave_chains_to_numpy(order, lowerable, fallbacks):
    """Leaves the elementwise ops of a large array's shape to the numpy tier when numpy runs one
    of them faster (a transcendental function): the numpy tier evaluates such a chain in
    cache-sized blocks, while cutting it into native and numpy pieces makes each piece a full
    pass over memory (measured: 4x slower on exp(-x*x)*sin(x)+0.5*x over 10M float32s)."""
    shapes = {op.outputs[0].shape.as_tuple(): op for op, reason in fallbacks
              if isinstance(reason, NumpyIsFaster) and op.outputs[0].shape.is_fully_defined()}
    for op in order:
        if op in lowerable and fusion.fusable(op) and not op.opdef.is_identity:
            slow = shapes.get(op.outputs[0].shape.as_tuple())
            if slow is not None:
                lowerable.discard(op)
                fallbacks.append((op, f'in an elementwise chain with {slow.type} {slow.name!r}, '
                                      'which numpy runs faster: the chain runs there in blocks'))


def _runs_subgraphs(op):
    return any(hasattr(v, 'get_operations') for v in op.attrs.values())


def _clusters(order, lowerable):
    clusters, current, produced = [], None, set()
    for op in order:
        if op in lowerable:
            if current is None:
                current, produced = Cluster(), set()
                clusters.append(current)
            current.ops.append(op)
            produced.update(id(t) for t in op.outputs)
        elif current is not None and any(id(t) in produced for t in op.inputs):
            current = None   # a numpy-tier op reads the cluster: it is complete
    return clusters


def _produced(cluster):
    return {id(t) for op in cluster.ops for t in op.outputs}


def _connect(cluster, order, outputs):
    """Fills the cluster's inputs and outputs (constants are written into the native code)."""
    members = set(cluster.ops)
    produced = _produced(cluster)
    seen = set()
    for op in cluster.ops:
        for t in op.inputs:
            if id(t) in produced or id(t) in seen:
                continue
            seen.add(id(t))
            if not t.op.inputs and t.op.opdef.fold is not None and not t.op.opdef.stateful:
                continue   # a constant: the lowerer writes it
            cluster.inputs.append(t)
    read_outside = {id(t) for t in outputs}
    read_outside.update(id(t) for op in order if op not in members for t in op.inputs)
    cluster.outputs = [t for op in cluster.ops for t in op.outputs if id(t) in read_outside]
