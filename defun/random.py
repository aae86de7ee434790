"""The `tf.random` namespace (and `tf.random.experimental`)."""
import types

from defun.core.context import set_random_seed as set_seed  # noqa: F401
from defun.ops.random.stateful import *  # noqa: F401,F403
from defun.ops.random.stateless import *  # noqa: F401,F403
from defun.ops.random.stateless import stateless_fold_in, stateless_split
from defun.ops.random.shuffling import index_shuffle, stateless_shuffle
from defun.state.random_generator import (Algorithm, Generator, create_rng_state,  # noqa: F401
                                    get_global_generator, set_global_generator)

# TF 2.21 exports the stateless seed splitters under tf.random too (the same functions).
split, fold_in = stateless_split, stateless_fold_in

experimental = types.SimpleNamespace(
    Generator=Generator, Algorithm=Algorithm, create_rng_state=create_rng_state,
    get_global_generator=get_global_generator, set_global_generator=set_global_generator,
    stateless_split=stateless_split, stateless_fold_in=stateless_fold_in,
    index_shuffle=index_shuffle, stateless_shuffle=stateless_shuffle)
