"""TF's rejection samplers (gamma, Poisson, binomial) and its multinomial, bit for bit.

Each output of these kernels draws from its own Philox stream, the op's stream skipped by a fixed
number of 128-bit counters per output (256; 42 for binomial inversion), so a sample does not
depend on how many draws the others rejected. Within an output the algorithm takes uniforms or
normals from whole Philox blocks, last element first (TF's buffers pop from the end), and
computes in double with the C library's functions (Python's `math` calls the same). Outputs are
ordered parameter-major in the draw and stored sample-major, as TF's kernels do.
"""
import math

import numpy as np

from defun.ops.random.philox import philox4x32

__all__ = ['gamma', 'poisson', 'binomial', 'multinomial']

_MASK32, _MASK64 = 0xFFFFFFFF, (1 << 64) - 1
_PREFETCH = 4    # blocks computed up front per output: enough for almost every sample


class _Blocks:
    """The Philox blocks of n streams at once (stream i starts at counter + skip * i), each as
    TF's two uniform doubles: Uint64ToDouble of words (0, 1) and (2, 3)."""

    def __init__(self, draws, n, skip):
        self.key, self.counter, self.skip = draws.key, draws.counter, skip
        offsets = (np.repeat(np.arange(n, dtype=np.uint64) * np.uint64(skip), _PREFETCH) +
                   np.tile(np.arange(_PREFETCH, dtype=np.uint64), n))
        self.pairs = _doubles(self._at(offsets)).reshape(n, _PREFETCH, 2).tolist()

    def _at(self, offsets):
        start = np.uint64(self.counter & _MASK64)
        low = start + offsets   # wraps modulo 2**64, carrying into the high word
        high = np.uint64(self.counter >> 64) + (low < start).astype(np.uint64)
        mask, shift = np.uint64(_MASK32), np.uint64(32)
        counters = np.stack([low & mask, low >> shift, high & mask, high >> shift], 1)
        return philox4x32(counters.astype(np.uint32), self.key)

    def pair(self, i, j):
        """Block j of stream i as two uniform doubles."""
        if j < _PREFETCH:
            return list(self.pairs[i][j])
        offset = np.array([i * self.skip + j], np.uint64)
        return _doubles(self._at(offset)).reshape(2).tolist()


def _doubles(words):
    """TF's Uint64ToDouble of each pair of words (high word first): [n, 2] doubles in [0, 1)."""
    hi = words[:, 0::2].astype(np.uint64) & np.uint64(0xFFFFF)
    lo = words[:, 1::2].astype(np.uint64)
    bits = (hi << np.uint64(32)) | lo | np.uint64(1023 << 52)
    return bits.view(np.float64) - 1.0


class _Stream:
    """One output's generator: Philox blocks in order, turned into TF's distributions."""

    __slots__ = ('blocks', 'index', 'next')

    def __init__(self, blocks, index):
        self.blocks, self.index, self.next = blocks, index, 0

    def uniform_double(self):
        pair = self.blocks.pair(self.index, self.next)
        self.next += 1
        return pair

    def normal_double(self):
        u1, u2 = self.uniform_double()
        u1 = max(u1, 1e-7)
        v1 = 2 * math.pi * u2
        r = math.sqrt(-2.0 * math.log(u1))
        return [math.sin(v1) * r, math.cos(v1) * r]


class _Buffer:
    """TF's sample buffer: a distribution's results handed out last first."""

    __slots__ = ('fill', 'values')

    def __init__(self, fill):
        self.fill, self.values = fill, []

    def __call__(self):
        if not self.values:
            self.values = self.fill()
        return self.values.pop()


def _layout(n_params, per_param, sample):
    """Runs sample(param_index, output_index) for every output in TF's order and stores the
    results sample-major: [per_param, n_params] flattened."""
    out = [None] * (n_params * per_param)
    for output in range(n_params * per_param):
        p, s = divmod(output, per_param)
        out[s * n_params + p] = sample(p, output)
    return out


def gamma(draws, alpha_flat, per_alpha, stateless):
    """Gamma(alpha) samples as TF's RandomGamma / StatelessRandomGamma kernels (Marsaglia and
    Tsang's method on double normals and uniforms)."""
    alphas = [float(a) for a in alpha_flat]
    blocks = _Blocks(draws, len(alphas) * per_alpha, 256)

    def sample(p, output):
        stream = _Stream(blocks, output)
        alpha = alphas[p]
        if alpha == 1.0:
            u = stream.uniform_double()[1]
            return -math.log1p(-u) if stateless else -math.log(1.0 - u)
        return _marsaglia_tsang(alpha, _Buffer(stream.normal_double),
                                _Buffer(stream.uniform_double))
    return np.array(_layout(len(alphas), per_alpha, sample), np.float64)


def _marsaglia_tsang(alpha, normal, uniform):
    small = alpha < 1
    d = alpha + (2.0 / 3 if small else -1.0 / 3)
    c = 1.0 / 3 / math.sqrt(d)
    while True:
        x = normal()
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = uniform()
        if u < 1 - 0.0331 * (x * x) * (x * x) or math.log(u) < 0.5 * x * x + d * (
                1 - v + math.log(v)):
            res = d * v
            if small:
                res *= math.pow(uniform(), 1 / alpha)
            return res


def poisson(draws, rate_flat, per_rate):
    """Poisson(rate) samples as TF's RandomPoisson kernels: Knuth's product of uniforms below
    rate 10, Hormann's transformed rejection above, in double whatever the rate's dtype."""
    rates = [float(r) for r in rate_flat]
    blocks = _Blocks(draws, len(rates) * per_rate, 256)

    def sample(p, output):
        return _poisson_one(rates[p], _Buffer(_Stream(blocks, output).uniform_double))
    return np.array(_layout(len(rates), per_rate, sample), np.float64)


def _poisson_one(rate, uniform):
    if rate < 10:
        limit, prod, x = math.exp(-rate), 1.0, 0
        while True:
            prod *= uniform()
            if prod <= limit:
                return x
            x += 1
    log_rate = math.log(rate)
    b = 0.931 + 2.53 * math.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + rate + 0.43)
        if us >= 0.07 and v <= 0.9277 - 3.6224 / (b - 2):
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if math.log(v * inv_alpha / (a / (us * us) + b)) <= \
                -rate + k * log_rate - math.lgamma(k + 1):
            return k


def binomial(draws, counts_flat, probs_flat, per_batch, single):
    """Binomial(count, prob) samples as TF's RandomBinomial kernels: inversion by geometric
    waiting times when count * min(p, 1 - p) < 10, Hormann's BTRS above. `single`: the
    parameters are float32 (the products and 1 - p are computed in that precision)."""
    n_batches = len(counts_flat)
    blocks = {42: _Blocks(draws, n_batches * per_batch, 42),
              256: _Blocks(draws, n_batches * per_batch, 256)}
    t = np.float32 if single else np.float64

    def sample(p, output):
        count, prob = t(counts_flat[p]), t(probs_flat[p])
        if float(count) <= 0.0 or prob <= 0:
            return 0.0
        if prob >= 1:
            return float(count)
        flip = prob > t(0.5)
        q = t(t(1) - prob) if flip else prob
        big = t(count * q) >= t(10)
        uniform = _Buffer(_Stream(blocks[256 if big else 42], output).uniform_double)
        k = (_btrs if big else _inversion)(float(count), float(q), uniform)
        return float(count) - k if flip else k
    return np.array(_layout(n_batches, per_batch, sample), np.float64)


def _inversion(count, prob, uniform):
    total, n = 0.0, 0
    while True:
        total += math.ceil(math.log(uniform()) / math.log1p(-prob))
        if total > count:
            return n
        n += 1


_TAIL = [0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287]


def _stirling_tail(k):
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(count, prob, uniform):
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    while True:
        u = uniform()
        v = uniform()
        u = u - 0.5
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return k
        if k < 0 or k > count:
            continue
        v = math.log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1))) +
                 (count + 1) * math.log((count - m + 1) / (count - k + 1)) +
                 (k + 0.5) * math.log(r * (count - k + 1) / (k + 1)) +
                 _stirling_tail(m) + _stirling_tail(count - m) - _stirling_tail(k) -
                 _stirling_tail(count - k))
        if v <= bound:
            return k


def multinomial(draws, logits, num_samples):
    """Class indices as TF's (Stateless)Multinomial kernel on one thread: each row's unnormalised
    CDF of exp(logit - max) in double (non-finite logits add nothing), searched for a uniform
    double times its total; the uniforms are consecutive word pairs of one stream."""
    batch, classes = logits.shape
    uniforms = draws.random((batch * num_samples,), np.float64).reshape(batch, num_samples)
    out = np.zeros((batch, num_samples), np.int64)
    for b in range(batch):
        row = logits[b]
        finite = np.isfinite(row)
        top = float(np.max(row[finite])) if finite.any() else float(np.finfo(row.dtype).min)
        weights = [math.exp(float(x) - top) if ok else 0.0 for x, ok in zip(row, finite)]
        cdf = np.cumsum(weights)
        total = cdf[-1] if classes else 0.0
        out[b] = np.searchsorted(cdf, uniforms[b] * total, side='right')
    return out
