"""The one rule for seeds, everywhere (``make``, ``resample_hidden``, batches, bots): a seed is an integer in
``[0, 2**64)``. Anything else (negative, too large, a bool, a float) is refused with ``InvalidParameterError``
rather than silently wrapped, so two different seeds never name the same game."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np
import numpy.typing as npt

from robotcore.errors import InvalidParameterError

SEED_LIMIT = 1 << 64


def check_seed(seed: object, what: str = "seed") -> int:
    """``seed`` as an int in ``[0, 2**64)``, or ``InvalidParameterError``."""
    if type(seed) is int and 0 <= seed < SEED_LIMIT:        # the common call, checked first (search calls it often)
        return seed
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise InvalidParameterError(f"{what} must be an int in [0, 2**64), got {type(seed).__name__}")
    value = int(seed)
    if not 0 <= value < SEED_LIMIT:
        raise InvalidParameterError(f"{what} must be an int in [0, 2**64), got {value}")
    return value


def derive_seed(*parts: object) -> int:
    """A seed in ``[0, 2**64)`` drawn from ``parts`` (JSON values: a user's seed, names, indices), for the seeds
    a tool gives its bots and deals: different parts give unrelated seeds, for any seed a user gives (an
    arithmetic rule such as ``seed * 1000 + i`` wraps past 2**64, and two users' seeds then share bots)."""
    blob = json.dumps(parts, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "little")


def check_seeds(seeds: Any) -> npt.NDArray[np.uint64]:
    """A one-dimensional array of seeds as uint64, each checked by the rule of ``check_seed``."""
    if not isinstance(seeds, np.ndarray):       # a list: each element checked as it is (no float conversion)
        try:
            items = list(seeds)
        except TypeError:
            raise InvalidParameterError(f"seeds must be a sequence of ints, got {type(seeds).__name__}") from None
        return np.array([check_seed(s) for s in items], dtype=np.uint64)
    if seeds.ndim != 1:
        raise InvalidParameterError(f"seeds must be one-dimensional, got shape {seeds.shape}")
    if seeds.dtype == np.uint64:
        return np.ascontiguousarray(seeds)
    if seeds.dtype.kind in "iu":
        if seeds.size and int(seeds.min()) < 0:
            raise InvalidParameterError(f"seeds must be ints in [0, 2**64), got {int(seeds.min())}")
        return seeds.astype(np.uint64)
    if seeds.dtype == object:
        return np.array([check_seed(s) for s in seeds.tolist()], dtype=np.uint64)
    raise InvalidParameterError(f"seeds must be ints in [0, 2**64), got an array of {seeds.dtype}")
