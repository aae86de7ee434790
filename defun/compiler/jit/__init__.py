"""The native tier: what tf.function(jit_compile=True) compiles with numba (the `defun[jit]` extra).

The executor asks `native_partition` for a jit graph's clusters (partition.py) and writes each as
one call of its NativeCall (native_call.py) in the numpy tier's generated function; everything else
runs there as usual. Each op says how it is lowered in its OpDef (`lowering`, written by
lowerer.py's Lowerer); `report.compiler_ir` shows what ran natively, what fell back and why.
Without numba, jit graphs run the numpy tier and a warning names the extra, once.
"""
from defun.compiler.jit import backend
from defun.compiler.jit.lowerer import NotLowerable
from defun.compiler.jit.native_call import NativeCall
from defun.compiler.jit import partition

__all__ = ['native_partition', 'NotLowerable']


def native_partition(graph, inputs, outputs, live, name, numpy_tier, keep_out=()):
    """The Partition of jit graph `graph` with a NativeCall per cluster, or None when numba is not
    available (after warning once). `numpy_tier(cluster)` builds the numpy-tier callable a
    cluster falls back to if numba cannot compile it; `keep_out`: {op: why it stays there}."""
    if not backend.available():
        backend.warn_unavailable()
        return None
    plan = partition.partition(graph, inputs, outputs, live, dict(keep_out))
    for k, cluster in enumerate(list(plan.clusters)):
        suffix = f'{name}_{k}' if len(plan.clusters) > 1 else name
        try:
            cluster.native = NativeCall(cluster, suffix, lambda c=cluster: numpy_tier(c))
        except Exception as exc:  # noqa: BLE001 - a jit function never fails where numpy runs
            plan.drop(cluster, f'its native code could not be built: {type(exc).__name__}: {exc}')
    return plan
