"""Reference corpus, part 3: helpers calling helpers, closures, lambdas, assert, print, errors."""
import functools
import math

from tests.reference.registry import TFRaises, case


def _helper(x):
    if x > 0:
        return x * 10
    return x


def _loop_helper(n):
    s = 0
    for i in range(n):
        s += _helper(i - 2)
    return s


@case((5,))
def helpers_calling_helpers(n):
    return _loop_helper(n)


def _stats(values):
    lo = values[0]
    hi = values[0]
    for x in values:
        if x < lo:
            lo = x
        if x > hi:
            hi = x
    return lo, hi


@case(([4.0, -1.0, 7.5, 2.0],), tensor=False)
def helper_returning_tuple(values):
    lo, hi = _stats(values)
    return (hi - lo) * 2


@case((4,), (0,))
def nested_function(n):
    def square_if_even(v):
        if v % 2 == 0:
            return v * v
        return v

    total = 0
    for i in range(n):
        total += square_if_even(i)
    return total


@case((3,), (-3,))
def closure_reads_outer(x):
    scale = 3

    def scaled(v):
        return v * scale if v > 0 else v

    return scaled(x) + scaled(-x)


@case((5,), tensor=False)
def closure_nonlocal_counter(n):
    count = 0

    def bump():
        nonlocal count
        if count < 3:
            count += 1

    for _ in range(n):
        bump()
    return count


@case((2,), (-2,))
def lambda_with_conditional(x):
    f = lambda v: v + 1 if v > 0 else v - 1  # noqa: E731
    return f(x) * 2


@case(([3, 1, 2],), tensor=False)
def sorted_with_key_lambda(values):
    return sorted(values, key=lambda v: -v)


@case((4,), tensor=False)
def map_and_comprehension(n):
    squares = [i * i for i in range(n) if i % 2 == 0]
    doubled = list(map(lambda v: v * 2, squares))
    return squares, doubled, {i: i > 1 for i in range(n)}


def _recursive_sum(n):
    if n <= 0:
        return 0
    return n + _recursive_sum(n - 1)


@case((5,), (0,), tensor=False)
def recursion(n):
    return _recursive_sum(n)


@case((5,), tensor=False)
def partial_helper(n):
    add = functools.partial(_add, 10)
    return add(n)


def _add(a, b):
    if a > b:
        return a - b
    return a + b


class _Accumulator:

    def __init__(self):
        self.total = 0

    def add(self, v):
        if v > 0:
            self.total += v
        return self.total

    def __call__(self, v):
        return self.add(v * 2)


@case(([1, -2, 3],), tensor=False)
def method_calls(values):
    acc = _Accumulator()
    for v in values:
        acc.add(v)
    return acc.total, acc(5)


@case((2.0,), (16.0,), tensor=False)
def library_calls(x):
    if math.sqrt(x) > 2:
        return max(x, 3.0) + abs(-x)
    return min(x, 1.0)


@case((3,), tensor=False)
def python_print_in_loop(n):
    for i in range(n):
        if i % 2:
            print('odd', i)
        else:
            print('even', i, sep='-')
    print('done', end='!\n')
    return n


@case((1,), (-1,), tensor=False)
def print_in_both_branches(x):
    if x > 0:
        print('then branch')
        y = x
    else:
        print('else branch')
        y = -x
    print('after if')
    return y


@case((3,), (0,), tensor=False)
def assert_passes_or_fails(n):
    assert n > 0, 'n must be positive, got %d' % n
    return n * 2


@case((1,), (-1,), tensor=False)
def assert_without_message(n):
    assert n > 0
    return n


@case((2,), (0,), tensor=False)
def exception_inside_loop(n):
    out = []
    for i in range(3):
        try:
            out.append(6 // (n - i))
        except ZeroDivisionError:
            out.append(None)
    return out


@case((5,), (-5,), tensor=False)
def raise_from_branch(x):
    if x < 0:
        raise ValueError('negative: %d' % x)
    return x


@case(('a',), ('z',), tensor=False)
def key_error_in_loop(key):
    table = {'a': 1, 'b': 2}
    total = 0
    for _ in range(2):
        total += table[key]
    return total


@case((3,), tensor=False)
def with_statement_in_loop(n):
    log = []
    for i in range(n):
        with _Recorder(log, i):
            if i == 1:
                continue
            log.append('body%d' % i)
    return log


class _Recorder:

    def __init__(self, log, i):
        self.log = log
        self.i = i

    def __enter__(self):
        self.log.append('enter%d' % self.i)

    def __exit__(self, *exc):
        self.log.append('exit%d' % self.i)
        return False


@case((4,), tensor=False)
def generator_helper_unconverted(n):
    return list(_gen(n))


def _gen(n):
    for i in range(n):
        if i % 2:
            yield i


@case((6,), (1,))
def helper_in_condition(n):
    total = 0
    i = 0
    while _below(i, n):
        if _is_even(i) and i > 0:
            total += i
        i += 1
    return total


def _below(a, b):
    return a < b


def _is_even(v):
    return v % 2 == 0


@case((3,), (5,), tensor=False)
def global_list_append(n):
    _TRACE.clear()
    for i in range(n):
        _TRACE.append(i)
    return list(_TRACE)


_TRACE = []


@case((2,), tensor=False)
def docstring_and_default(n, scale=3):
    """A docstring is kept."""
    if n > 1:
        return n * scale
    return scale


# The return inside `while True` becomes a break flag that a tensor `if` sets: a Python loop that
# would have to stop on a tensor, which TF refuses with NotImplementedError.
@case((4,), (7,), tf_raises=TFRaises(NotImplementedError,
                                     'a return depending on a tensor inside a Python `while True`'))
def early_return_in_while_true(n):
    i = 0
    while True:
        i += 1
        if i * i > n:
            return i
