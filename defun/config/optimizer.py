"""`tf.config.optimizer`: the graph-optimizer settings TF keeps (XLA auto-clustering, Grappler
options), reported back as TF does. Of the Grappler options, defun's compiler honours those with
an observable effect on a CPU: `constant_folding` (off: constants are computed on each call),
`debug_stripper` (on: tf.debugging.Assert and the asserts built on it, check_numerics and
tf.print do nothing in functions compiled afterwards) and `disable_meta_optimizer` (both off);
the others only change how TF schedules the same computation, and XLA does not exist here."""
from defun.core import context

__all__ = ['get_jit', 'set_jit', 'get_experimental_options', 'set_experimental_options']

# TF's options in the order it reports them; all are on/off switches but the last.
_NAMES = ('layout_optimizer', 'constant_folding', 'shape_optimization', 'remapping',
          'arithmetic_optimization', 'dependency_optimization', 'loop_optimization',
          'function_optimization', 'debug_stripper', 'disable_model_pruning',
          'scoped_allocator_optimization', 'pin_to_host_optimization', 'implementation_selector',
          'auto_mixed_precision', 'use_plugin_optimizers', 'disable_meta_optimizer',
          'auto_mixed_precision_onednn_bfloat16', 'auto_mixed_precision_mkl', 'min_graph_nodes')
_ALWAYS = {'disable_model_pruning': False, 'disable_meta_optimizer': False}


def get_jit():
    """'' when off, 'autoclustering' after set_jit(True), as TF reports it."""
    return context.config_value('jit')


def set_jit(enabled):
    value = 'autoclustering' if enabled is True else ('' if not enabled else enabled)
    context.set_config_value('jit', value)


def get_experimental_options():
    """The options set (and the two TF always reports), in TF's order."""
    options = {**_ALWAYS, **context.config_value('optimizer_options')}
    return {name: options[name] for name in _NAMES if name in options}


def set_experimental_options(options):
    """Sets Grappler options as TF: unknown names are ignored; None (0 for min_graph_nodes)
    returns an option to its default."""
    merged = dict(context.config_value('optimizer_options'))
    for name, value in options.items():
        if name not in _NAMES:
            continue
        if value is None or (name == 'min_graph_nodes' and not value):
            merged.pop(name, None)
        else:
            merged[name] = int(value) if name == 'min_graph_nodes' else bool(value)
    context.set_config_value('optimizer_options', merged)
