"""Reference corpus, part 2: while and for loops, break and continue, returns from loops, lists."""
import defun
from tests.reference.registry import TFRaises, case

# A Python loop (its condition a Python value) cannot stop on a tensor: AutoGraph turns the break
# into a flag that a tensor `if` sets, so the condition becomes a tensor after the first iteration,
# and TF raises NotImplementedError ("condition of while loop started as non-Tensor, then changed
# to Tensor"; see TF's autograph/tests/loop_control_flow_illegal_cases_test.py).
PY_WHILE_TENSOR_BREAK = TFRaises(NotImplementedError,
                                 'a Python while loop whose break depends on a tensor')


@case((2.0,))
def while_counter(x):
    i = 0
    total = 0.0
    while i < 4:
        total += x * i
        i += 1
    return total, i


@case((20,), (3,), tf_raises=PY_WHILE_TENSOR_BREAK)
def while_with_break(limit):
    s = 0
    i = 0
    while i < 1000:
        s += i
        i += 1
        if s > limit:
            break
    return s, i


@case((10,), (1,))
def sum_odd_continue(n):
    s = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        s += i
    return s


@case((4,), (6,), (0,))
def nested_break_inner_only(n):
    count = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            count += 1
    return count


@case(([1, 0, 2, 0, 3, -1, 10],), ([0, 0],), ([],), tensor=False)
def break_and_continue(values):
    total = 0
    count = 0
    for x in values:
        if x == 0:
            continue
        if x < 0:
            break
        total += x
        count += 1
    return total, count


@case(([3, 9, 4, 1],), ([5],), tensor=False)
def running_max(values):
    best = values[0]
    for x in values:
        if x > best:
            best = x
    return best


@case((4,), (0,))
def loop_variable_after_loop(n):
    i = -1
    last_sq = 0
    for i in range(n):
        last_sq = i * i
    return i, last_sq


@case((5,))
def factorial_for(n):
    acc = 1
    for i in range(n):
        acc *= i + 1
    return acc


@case((12,), (2,))
def range_with_step(n):
    acc = 0
    for i in range(2, n, 3):
        acc += i
    return acc


@case(([1, 2, 3, 4],), ([],), tensor=False)
def find_first_even(values):
    for v in values:
        if v % 2 == 0:
            return v
    return None


@case((10,), (3,))
def return_from_while(n):
    i = 0
    while i < n:
        if i * i > 20:
            return i
        i += 1
    return -1


@case((3,), (5,))
def return_from_nested_loops(n):
    for i in range(n):
        for j in range(n):
            if i * j == 6:
                return i, j
    return -1, -1


@case((6,), (2,))
def return_from_loop_in_if(n):
    if n > 3:
        for i in range(n):
            if i == 4:
                return i * 100
        n = n + 1
    return n


@case((5,), (0,))
def while_else(n):
    i = 0
    while i < n:
        i += 2
    else:
        i = i * 10
    return i


@case(([1, 5, 3], 5), ([1, 2], 9), tensor=False)
def for_else_search(values, target):
    for index, v in enumerate(values):
        if v == target:
            found = index
            break
    else:
        found = -1
    return found


@case((4,), tensor=False)
def squares_list(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


@case((5,), tensor=False)
def list_append_in_if_in_loop(n):
    evens, odds = [], []
    for i in range(n):
        if i % 2:
            odds.append(i)
        else:
            evens.append(i)
    return evens, odds


@case((3,), tensor=False)
def nested_lists(n):
    rows = []
    for i in range(n):
        row = []
        for j in range(n):
            row.append((i + 1) * (j + 1))
        rows.append(row)
    return rows


@case((4,), tensor=False)
def list_aliasing_kept(n):
    a = []
    b = a
    for i in range(n):
        a.append(i)
    return b, a is b


@case((['a', 'b', 'c'],), tensor=False)
def enumerate_loop(items):
    out = []
    for i, item in enumerate(items):
        out.append('%d:%s' % (i, item))
    return out


@case(([1, 2, 3], [10, 20, 30, 40]), tensor=False)
def zip_loop(xs, ys):
    total = 0
    for x, y in zip(xs, ys):
        total += x * y
    return total


@case(({'a': 1, 'b': 2},), tensor=False)
def dict_items_loop(d):
    keys = []
    total = 0
    for k, v in sorted(d.items()):
        keys.append(k)
        total += v
    return keys, total


@case((6,), (1,))
def nested_loops_with_continue(n):
    total = 0
    for i in range(n):
        if i == 2:
            continue
        j = 0
        while j < i:
            j += 1
            if j == 3:
                continue
            total += j
    return total


@case((30,), (2,))
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@case((100,), (1,), tensor=False)
def primes_below(limit):
    primes = []
    n = 2
    while n < limit:
        is_prime = True
        for p in primes:
            if p * p > n:
                break
            if n % p == 0:
                is_prime = False
                break
        if is_prime:
            primes.append(n)
        n += 1
    return len(primes), primes[-3:]


# Python raises UnboundLocalError after zero iterations; a tensor loop cannot leave a variable
# unbound, so TF starts it as zeros and asserts at run time that the loop ran (InvalidArgumentError,
# "loop must iterate at least once to initialize last").
@case((5,), (0,), tf_raises=TFRaises(defun.errors.InvalidArgumentError,
                                     'a variable first assigned in a tensor loop that runs 0 times',
                                     args=[(0,)]))
def loop_defines_variable_used_after(n):
    for i in range(n):
        last = i * 2
    return last


@case((3,), (0,), tf_raises=PY_WHILE_TENSOR_BREAK)
def while_true_with_break(n):
    i = 0
    while True:
        i += 1
        if i >= n:
            break
    return i


@case((4,))
def loop_in_cond_in_loop(n):
    total = 0
    for i in range(n):
        if i % 2 == 0:
            for j in range(i):
                total += j
        else:
            total -= 1
    return total


@case((3,), (8,))
def countdown_with_continue_and_break(n):
    out = 0
    while n > 0:
        n -= 1
        if n == 5:
            continue
        if n == 1:
            break
        out = out * 10 + n
    return out


@case(((1, 2, 3),), tensor=False)
def tuple_unpack_target(values):
    pairs = []
    for a, b in [(v, v * v) for v in values]:
        pairs.append(a + b)
    return pairs


@case((5,))
def triangle_sum(n):
    s = 0
    for i in range(1, n + 1):
        for j in range(i):
            s += 1
    return s


@case(([2, 4, 5, 6],), ([1],), tensor=False)
def all_even_via_loop(values):
    ok = True
    for v in values:
        if v % 2:
            ok = False
            break
    return ok


@case((3,), (0,))
def loop_over_python_list_of_numbers(k):
    total = 0
    for w in [1, 2, 3]:
        total = total + w * k
    return total


@case((5,), tensor=False)
def list_pop_and_index(n):
    stack = []
    for i in range(n):
        stack.append(i)
        if len(stack) > 2:
            stack.pop(0)
    return stack


@case((20,), (3,), (0,))
def tensor_while_with_break(limit):
    # The tensor twin of while_with_break: the condition reads `limit`, so the loop is staged.
    s = 0
    i = 0
    while i < limit * 10:
        s += i
        i += 1
        if s > limit:
            break
    return s, i


@case((4,), (7,), (0,))
def return_from_tensor_while(n):
    # The tensor twin of early_return_in_while_true.
    i = 0
    while i < n + 10:
        i += 1
        if i * i > n:
            return i
    return -1


@case((3,), (6,))
def return_from_loop_then_fall_through_to_return(n):
    total = 0
    for i in range(n):
        if total > 4:
            return total * 10
        total += i
    total = total + 100
    return total


# The loop may end without returning, and the function then falls off its end (None): under a
# tensor loop that is a value on one path and None on the other, which TF refuses with ValueError
# (as for falls_off_end in corpus_branches).
@case((2,), (6,), tf_raises=TFRaises(ValueError, 'a return inside a tensor loop, None after it'))
def return_from_loop_or_fall_off_end(n):
    for i in range(n):
        if i == 4:
            return i * 100
