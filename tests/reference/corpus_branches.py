"""Reference corpus, part 1: conditionals, early returns, logical and conditional expressions.

Every function here is plain Python. `case(*arg_tuples, tensor=...)` registers it with the argument
tuples it is run on; `tensor=False` keeps it out of the compiled-with-tensor-inputs mode (it relies on
Python-only values such as strings or lists, or on printing values).
"""
from tests.reference.registry import TFRaises, case


@case((3,), (-4,), (0,))
def abs_by_branch(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y


@case((95,), (85,), (72,), (10,))
def grade(score):
    if score >= 90:
        g = 4
    elif score >= 80:
        g = 3
    elif score >= 70:
        g = 2
    else:
        g = 0
    return g


@case((1.0, 1.0), (-1.0, 2.0), (-1.0, -1.0), (3.0, -0.5))
def quadrant(x, y):
    if x >= 0:
        if y >= 0:
            q = 1
        else:
            q = 4
    else:
        if y >= 0:
            q = 2
        else:
            q = 3
    return q


@case((5.0,), (-2.0,), (0.0,))
def sign(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


@case((-5,), (5,), (50,))
def clamp(x):
    if x > 10:
        x = 10
    if x < 0:
        x = 0
    return x


@case((3,), (-3,))
def if_without_else_keeps_value(x):
    y = x
    if x < 0:
        y = 0
    return y + 1


@case((True,), (False,), tensor=False)
def undefined_in_one_branch(flag):
    if flag:
        value = 1
    return value


@case((2,), (-2,), tensor=False)
def defined_in_one_branch_not_used(x):
    if x > 0:
        tmp = x * 3
        x = tmp + 1
    return x


@case((4,), (-1,))
def return_in_both_branches(x):
    if x > 1:
        return x * 2
    else:
        return x - 1


@case((3,), (-3,), tensor=False)
def return_dict_from_branches(x):
    if x > 0:
        return {'v': x, 'positive': True}
    return {'v': -x, 'positive': False}


@case((1,), (7,), (12,))
def nested_return_then_code(x):
    if x > 5:
        if x > 10:
            return 100
        x = x * 2
    return x + 1


# Returning a value on one path and None (falling off the end) on another cannot be one tensor:
# under a tensor condition TF raises ValueError ("the else branch must also have a return
# statement"; TF's autograph/tests/early_return_test.py, return_possibly_undefined_illegal).
@case((0,), (3,), tf_raises=TFRaises(ValueError, 'a value returned under a tensor condition on one'
                                                 ' path only, None on the other'))
def falls_off_end(x):
    if x > 1:
        return x


@case((1, 1), (1, -1), (-1, -1))
def logical_ops(a, b):
    both = a > 0 and b > 0
    either = a > 0 or b > 0
    neither = not (a > 0) and not (b > 0)
    return both, either, neither


@case((0, 5), (3, 0), ([], 'x'), ('', None), tensor=False)
def and_or_return_operands(a, b):
    return (a and b), (a or b), (b and a), (b or a)


@case((4.0, 2.0), (1.0, 0.0), (1.0, 4.0))
def short_circuit_division(x, y):
    if y != 0 and x / y > 1.0:
        return 1
    return 0


@case((0,), (3,), tensor=False)
def short_circuit_side_effects(n):
    calls = []

    def probe(v):
        calls.append(v)
        return v

    result = probe(n) or probe(n + 1) and probe(n + 2)
    return result, calls


@case((-1,), (5,), (15,))
def chained_comparison(x):
    return 0 < x < 10


@case((1, 2, 3), (3, 2, 1), (1, 1, 1))
def chained_three(a, b, c):
    return a < b < c, a == b == c


@case((3,), (-3,))
def conditional_expression(x):
    return x * 2 if x > 0 else -x


@case((5,), (-5,), (0,))
def nested_conditional_expression(x):
    return 'pos' if x > 0 else 'neg' if x < 0 else 'zero'


@case((4,), (11,), tensor=False)
def conditional_expression_lazy(x):
    seen = []
    y = seen.append('big') or x if x > 10 else seen.append('small') or -x
    return y, seen


@case((None,), (0,), ([1],), tensor=False)
def not_on_python_values(v):
    return not v, v is None, not not v


@case((2,), (7,))
def if_elif_chain_with_and(x):
    if x > 5 and x < 10:
        kind = 2
    elif x > 0 and not x > 5:
        kind = 1
    else:
        kind = 0
    return kind


@case(('double', 2), ('other', 2), tensor=False)
def python_mode_string(mode, x):
    if mode == 'double':
        y = x * 2
    else:
        y = x
    return y


@case((3,), (-3,))
def branch_swaps_variables(x):
    a, b = 1, 2
    if x > 0:
        a, b = b, a
    return a * 10 + b


@case((6,), (1,))
def augmented_assign_in_branch(x):
    total = 0
    if x > 2:
        total += x
        total *= 2
    else:
        total -= x
    return total


@case((3,), (0,), tensor=False)
def walrus_in_condition(x):
    if (y := x * 2) > 4:
        return y
    return -y
