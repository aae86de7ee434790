"""`autograph.experimental`: do_not_convert, set_loop_options and Feature, as in
`tf.autograph.experimental`."""
from autograph.impl import do_not_convert
from autograph.options import Feature


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                     shape_invariants=None):
    """Options for the loop whose body this call is in (at its top level).

    AutoGraph removes the call from converted code and passes `maximum_iterations` and
    `shape_invariants` (a list of `(variable, shape)` pairs) to the loop; the other two are accepted
    for compatibility and have no effect here. Outside a converted loop the call does nothing.
    """
    del parallel_iterations, swap_memory, maximum_iterations, shape_invariants


__all__ = ['do_not_convert', 'set_loop_options', 'Feature']
