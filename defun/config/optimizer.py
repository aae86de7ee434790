"""`tf.config.optimizer`: the graph-optimizer settings TF keeps (XLA auto-clustering, Grappler
options). defun records them and reports them back as TF does; its own compiler (pruning, folding,
CSE) always runs and there is no XLA, so they change nothing about execution."""
from defun.core import context

__all__ = ['get_jit', 'set_jit', 'get_experimental_options', 'set_experimental_options']

_DEFAULT_OPTIONS = {'disable_model_pruning': False, 'disable_meta_optimizer': False}


def get_jit():
    """'' when off, 'autoclustering' after set_jit(True), as TF reports it."""
    return context.config_value('jit')


def set_jit(enabled):
    value = 'autoclustering' if enabled is True else ('' if not enabled else enabled)
    context.set_config_value('jit', value)


def get_experimental_options():
    options = dict(context.config_value('optimizer_options'))
    for key, value in _DEFAULT_OPTIONS.items():
        options.setdefault(key, value)
    return options


def set_experimental_options(options):
    merged = dict(context.config_value('optimizer_options'))
    merged.update(options)
    context.set_config_value('optimizer_options', merged)
