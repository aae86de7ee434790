"""What jit_compile made of a graph, as text: the report behind
Function.experimental_get_compiler_ir (TF's name; XLA's stages become ours).

Stages: 'hlo' (the default) lists each native cluster (its ops, inputs and outputs, whether numba
compiled it and how long its first call took) and each op left to the numpy tier with the reason;
'source' is the generated numba source; 'optimized_hlo' the LLVM IR numba compiled (after a
call); 'py' the numpy tier's generated Python, where the clusters appear as calls.
"""
from defun.core import errors

__all__ = ['compiler_ir']

_STAGES = ('hlo', 'source', 'optimized_hlo', 'py')


def compiler_ir(graph_callable, fn_name, stage='hlo', device_name=None, platform_name=None):
    """The text of `stage` for the compiled graph of `fn_name` (see the module docstring)."""
    if stage not in _STAGES:
        raise ValueError(f"Unknown stage {stage!r} for experimental_get_compiler_ir: expected "
                         f"one of {', '.join(map(repr, _STAGES))}")
    plan = graph_callable.native
    if stage == 'py':
        return graph_callable.source
    if plan is None:
        raise errors.InvalidArgumentError(
            None, None, f"Function {fn_name!r} is not compiled by the native tier: it needs "
            f"tf.function(jit_compile=True) and numba (pip install 'defun[jit]').")
    if stage == 'source':
        return '\n'.join(c.native.source for c in plan.clusters)
    if stage == 'optimized_hlo':
        return '\n'.join(_llvm(c) for c in plan.clusters)
    return _summary(plan, fn_name)


def _llvm(cluster):
    ir = cluster.native.dispatcher.inspect_llvm()
    if not ir:
        return f'; {cluster.name}: not compiled yet (numba compiles on the first call)'
    return '\n'.join(ir.values())


def _summary(plan, fn_name):
    lines = [f'jit_compile report for {fn_name!r}: {len(plan.clusters)} native cluster(s), '
             f'{len(plan.fallbacks)} op(s) in the numpy tier']
    for c in plan.clusters:
        native = c.native
        if native.failure:
            state = f'numba could not compile it, runs in the numpy tier: {native.failure}'
        elif native.first_call_seconds is None:
            state = 'not called yet'
        else:
            state = f'compiled (first call {native.first_call_seconds:.3f} s)'
        lines.append(f'native {c.name}: {state}')
        lines.append('  ops: ' + ', '.join(f'{op.type}({op.name})' for op in c.ops))
        lines.append('  inputs: ' + ', '.join(t.name for t in c.inputs))
        lines.append('  outputs: ' + ', '.join(t.name for t in c.outputs))
        lines.append(f'  module: {native.path}')
    for op, reason in plan.fallbacks:
        lines.append(f'numpy tier {op.type}({op.name}): {reason}')
    return '\n'.join(lines)
