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
