"""The PRNG stored in every state: portable (fixed outputs on every platform), unbiased, usable for shuffles."""

from __future__ import annotations

import collections

import pytest

from robotcore.core.rng import Rng

from ..rng_model import MASK, SplitMix64


def test_matches_an_independent_splitmix64() -> None:
    for seed in (0, 1, 2**63, MASK, 123456789):
        a, b = Rng(seed), SplitMix64.seeded(seed)
        assert [a.next_u64() for _ in range(100)] == [b.next() for _ in range(100)]
        assert [a.below(n) for n in range(1, 300)] == [b.below(n) for n in range(1, 300)]


def test_golden_values_are_the_same_on_every_platform() -> None:
    # Recorded once; a platform that computes anything else would deal different games from the same seed.
    r = Rng(0)
    assert [r.next_u64() for _ in range(3)] == [4915080105489398647, 17271757236101976635, 4187213910478312384]
    r = Rng(12345)
    assert [r.below(52) for _ in range(10)] == [2, 7, 49, 17, 32, 10, 19, 48, 2, 14]
    r = Rng(7)
    items = list(range(10))
    r.shuffle(items)
    assert items == [3, 9, 0, 7, 4, 6, 8, 5, 2, 1]


def test_bounded_draws_are_uniform() -> None:
    r = Rng(3)
    n, bound = 60000, 6
    counts = collections.Counter(r.below(bound) for _ in range(n))
    chi2 = sum((counts[k] - n / bound) ** 2 / (n / bound) for k in range(bound))
    assert set(counts) == set(range(bound))
    assert chi2 < 20.5      # p ~ 0.001 for 5 degrees of freedom


def test_shuffles_are_uniform() -> None:
    r = Rng(4)
    counts: collections.Counter[tuple[int, ...]] = collections.Counter()
    n = 24000
    for _ in range(n):
        items = [0, 1, 2, 3]
        r.shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    chi2 = sum((c - n / 24) ** 2 / (n / 24) for c in counts.values())
    assert chi2 < 49.7      # p ~ 0.001 for 23 degrees of freedom


def test_a_large_bound_uses_rejection_correctly() -> None:
    r, ref = Rng(9), SplitMix64.seeded(9)
    bound = (1 << 31) + 1          # rejection is frequent for such bounds
    assert [r.below(bound) for _ in range(2000)] == [ref.below(bound) for _ in range(2000)]
    with pytest.raises(ValueError):
        r.below(0)
    with pytest.raises(IndexError):
        r.choice([])


def _nth_set_bit_reference(x: int, n: int) -> int:
    return [i for i in range(64) if x >> i & 1][n]


def test_nth_set_bit_is_the_same_by_pdep_and_by_the_portable_code() -> None:
    """The k-th card or action of a set, as every draw takes it: the PDEP path (where this CPU runs it) and the
    portable one agree with a plain Python definition on every n of sparse, dense, edge and random words."""
    import random

    from robotcore.core.rng import nth_set_bit

    rng = random.Random(5)
    words = [1, 1 << 63, MASK, 0x8000_0000_0000_0001, 0xFFFF_FFFF, 0xFFFF_FFFF_0000_0000, 0x00FF_00FF_00FF_00FF]
    words += [rng.getrandbits(64) & rng.getrandbits(64) for _ in range(150)]
    words += [rng.getrandbits(64) | rng.getrandbits(64) for _ in range(150)]
    for x in words:
        if x == 0:
            continue
        for n in range(bin(x).count("1")):
            want = _nth_set_bit_reference(x, n)
            assert nth_set_bit(x, n) == want, (hex(x), n)
            assert nth_set_bit(x, n, portable=True) == want, (hex(x), n)


def test_nth_set_bit_refuses_an_n_beyond_the_set() -> None:
    from robotcore.core.rng import nth_set_bit

    for x, n in ((0, 0), (0b1011, 3), (0b1011, -1), (MASK, 64)):
        with pytest.raises(ValueError):
            nth_set_bit(x, n)
