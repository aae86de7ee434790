"""The op test specification format: each spec names an op type, how to call it, sample inputs and a
numpy reference. The registry-driven tests (test_registry.py) walk every registered op and run each
of its specs; an op with no spec fails the suite unless it is listed in TESTED_ELSEWHERE."""
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

import numpy as np


@dataclass
class Spec:
    op_type: str                    # the registry op type this spec exercises
    call: Callable                  # call(*tensors) -> tensor(s), through the public API
    inputs: Sequence                # numpy arrays (their dtypes matter)
    reference: Optional[Callable]   # reference(*arrays) -> array(s); None: checked elsewhere
    grad: bool = True               # finite-difference check (first order) on float64 inputs
    second_order: bool = True       # also check the gradient of the gradient
    rtol: float = 1e-5
    atol: float = 1e-6
    grad_tol: float = 1e-4
    id: str = field(default='')

    def label(self):
        return f'{self.op_type}{"-" + self.id if self.id else ""}'


def rand(*shape, dtype=np.float64, low=-2.0, high=2.0, seed=None):
    rng = np.random.default_rng(abs(hash((shape, low, high, seed))) % (2 ** 32))
    return rng.uniform(low, high, size=shape).astype(dtype)


def positive(*shape, dtype=np.float64, seed=None):
    return rand(*shape, dtype=dtype, low=0.5, high=2.0, seed=seed)


def ints(*shape, low=-5, high=6, dtype=np.int32, seed=None):
    rng = np.random.default_rng(abs(hash((shape, low, high, seed, 'i'))) % (2 ** 32))
    return rng.integers(low, high, size=shape).astype(dtype)
