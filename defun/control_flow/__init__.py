"""Control flow, a layer above graphs, the executor and autodiff: cond, case and switch_case
(cond.py; the If and Case ops in cond_ops.py), while_loop (while_ops.py; the While op's runner in
while_runner.py), TensorArray, map_fn/scan/foldl/foldr, the sub-graph tracing they share
(subgraph.py) and trial tracing into a throwaway graph (trial_tracing.py).

The op tables in defun/ops/ never import this package; these modules define their own ops with
define_op, because those ops hold sub-graphs and their gradients build sub-graphs.
"""
from defun.control_flow.cond import *  # noqa: F401,F403
from defun.control_flow.while_ops import *  # noqa: F401,F403
from defun.control_flow.tensor_array import *  # noqa: F401,F403
from defun.control_flow.higher_order import *  # noqa: F401,F403
from defun.control_flow import trial_tracing  # noqa: F401

__all__ = ['cond', 'case', 'switch_case', 'while_loop', 'TensorArray', 'map_fn', 'scan', 'foldl',
           'foldr']
