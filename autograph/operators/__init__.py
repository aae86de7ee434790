"""The runtime operators that converted code calls as `ag__.<name>`.

Statements and expressions the converters rewrite (if, while, for, and, or, not, conditional
expressions, assert, list append, the overloaded builtins) land here. Each keeps plain Python
semantics unless a tensor of a graph under construction is involved, in which case it builds the
`defun` graph op. `converted_call` is added to the `ag__` namespace by `autograph.impl`.
"""
from autograph.operators.composites import ldu
from autograph.operators.composites import store
from autograph.operators.control_flow import for_stmt
from autograph.operators.control_flow import if_stmt
from autograph.operators.control_flow import while_stmt
from autograph.operators.lists import list_append
from autograph.operators.lists import stack
from autograph.operators.logical import and_
from autograph.operators.logical import if_exp
from autograph.operators.logical import not_
from autograph.operators.logical import or_
from autograph.operators.py_builtins import IndexedIterable
from autograph.operators.py_builtins import OVERLOADS
from autograph.operators.py_builtins import print_
from autograph.operators.py_builtins import range_
from autograph.operators.special_values import Undefined
from autograph.operators.special_values import UndefinedReturnValue
from autograph.operators.special_values import ld
from autograph.operators.special_values import retval
from autograph.operators.statements import assert_stmt

__all__ = ['ldu', 'store', 'for_stmt', 'if_stmt', 'while_stmt', 'list_append', 'stack', 'and_',
           'if_exp', 'not_', 'or_', 'IndexedIterable', 'OVERLOADS', 'print_', 'range_', 'Undefined',
           'UndefinedReturnValue', 'ld', 'retval', 'assert_stmt']
