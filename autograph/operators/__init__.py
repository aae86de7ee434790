"""The runtime operators that converted code calls as `ag__.<name>`.

Statements and expressions the converters rewrite (if, while, for, and, or, not, conditional
expressions, assert, list append, the overloaded builtins) land here. Each keeps plain Python
semantics unless a tensor of a graph under construction is involved, in which case it builds the
`defun` graph op. Each module's `__all__` lists the names it adds to `ag__`; `converted_call` is
added to the namespace by `autograph.impl`.
"""
from autograph.operators import composites, control_flow, lists, logical, py_builtins
from autograph.operators import special_values, statements
from autograph.operators.composites import *  # noqa: F401,F403
from autograph.operators.control_flow import *  # noqa: F401,F403
from autograph.operators.lists import *  # noqa: F401,F403
from autograph.operators.logical import *  # noqa: F401,F403
from autograph.operators.py_builtins import *  # noqa: F401,F403
from autograph.operators.special_values import *  # noqa: F401,F403
from autograph.operators.statements import *  # noqa: F401,F403

__all__ = (composites.__all__ + control_flow.__all__ + lists.__all__ + logical.__all__
           + py_builtins.__all__ + special_values.__all__ + statements.__all__)
