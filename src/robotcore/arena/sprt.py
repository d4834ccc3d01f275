"""A sequential probability ratio test for "is A stronger than B", as fishtest runs it.

Each game gives A a score x in {0, 1/2, 1} against B (A placed above B, level, below). H0: A's Elo advantage
is ``elo0``; H1: it is ``elo1`` (logistic Elo: expected score s = 1 / (1 + 10^(-elo/400))). The log-likelihood
ratio is the generalised SPRT of fishtest's ``LLR_logistic``: under each hypothesis the win/draw/loss
distribution closest (in Kullback–Leibler divergence) to the observed frequencies among those whose mean score
is s0 (or s1), found with a Lagrange multiplier, and LLR = N · Σ p̂ log(p1 / p0). (The cheaper normal
approximation N (s1 - s0)(2m - s0 - s1) / (2v) overshot its false-positive rate in our simulated runs.) The test stops with H1 when LLR >= log((1 - beta) / alpha)
and with H0 when LLR <= log(beta / (1 - alpha)); alpha and beta are the error rates it promises (checked over
many simulated runs in tests/arena). Before ``min_games`` games, or with no variance yet, it keeps going.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from robotcore.errors import InvalidParameterError


def expected_score(elo: float) -> float:
    return float(1.0 / (1.0 + 10.0 ** (-elo / 400.0)))


_SCORES = (0.0, 0.5, 1.0)


def _closest(freq: tuple[float, float, float], s: float) -> tuple[float, float, float]:
    """The distribution on (loss, draw, win) with mean score ``s`` closest to ``freq`` (KL(freq || p)):
    p_i = freq_i / (1 + theta (x_i - s)), theta solving sum_i freq_i (x_i - s) / (1 + theta (x_i - s)) = 0."""
    xs = [x for x, f in zip(_SCORES, freq) if f > 0]
    lo = -1.0 / (max(xs) - s) if max(xs) > s else -1e12
    hi = 1.0 / (s - min(xs)) if min(xs) < s else 1e12
    lo, hi = lo * (1 - 1e-12), hi * (1 - 1e-12)

    pairs = [(x - s, f) for x, f in zip(_SCORES, freq) if f > 0]
    theta = 0.0
    for _ in range(100):                # safeguarded Newton: g decreases in theta on (lo, hi)
        g = sum(f * d / (1 + theta * d) for d, f in pairs)
        if abs(g) < 1e-15:
            break
        if g > 0:
            lo = theta
        else:
            hi = theta
        dg = -sum(f * d * d / (1 + theta * d) ** 2 for d, f in pairs)
        step = theta - g / dg if dg < 0 else 0.5 * (lo + hi)
        theta = step if lo < step < hi else 0.5 * (lo + hi)
    return tuple(f / (1 + theta * (x - s)) for x, f in zip(_SCORES, freq))  # type: ignore[return-value]


def sprt_llr(wins: float, draws: float, losses: float, elo0: float, elo1: float) -> float:
    n = wins + draws + losses
    if n == 0:
        return 0.0
    # a tiny pseudo-count of every outcome keeps the statistic finite while one outcome has been seen only
    eps = 1e-3
    counts = (losses + eps, draws + eps, wins + eps)
    total = sum(counts)
    freq = (counts[0] / total, counts[1] / total, counts[2] / total)
    p0 = _closest(freq, expected_score(elo0))
    p1 = _closest(freq, expected_score(elo1))
    return n * sum(f * math.log(b / a) for f, a, b in zip(freq, p0, p1) if f > 0)


@dataclass
class SPRT:
    """The running test; ``update`` with A's score of each game, then read ``decision``."""

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05
    min_games: int = 8
    wins: float = 0.0
    draws: float = 0.0
    losses: float = 0.0
    decision: str | None = field(default=None)

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                # (an infinite bound decided at once, and wrote -Infinity, which is no JSON, into the results)
                raise InvalidParameterError(f"{name} must be a finite number, got {value!r}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise InvalidParameterError("alpha and beta must be in (0, 0.5)")
        if not self.elo1 > self.elo0:
            raise InvalidParameterError("elo1 must be greater than elo0")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def games(self) -> float:
        return self.wins + self.draws + self.losses

    @property
    def llr(self) -> float:
        return sprt_llr(self.wins, self.draws, self.losses, self.elo0, self.elo1)

    def update(self, score: float) -> str | None:
        """Record one game (A's score 1, 0.5 or 0); the decision ("H1": A is stronger by elo1, "H0") once
        reached, else None. A decided test ignores later games."""
        return self.update_many([score])

    def update_many(self, scores: list[float]) -> str | None:
        """Record several games at once (a deal's: its games are paired), then look at the bounds: the test
        decides between groups only. A decided test ignores later games."""
        if self.decision is not None:
            return self.decision
        for score in scores:
            if score > 0.5:
                self.wins += 1
            elif score < 0.5:
                self.losses += 1
            else:
                self.draws += 1
        if self.games >= self.min_games:
            llr = self.llr
            if llr >= self.upper:
                self.decision = "H1"
            elif llr <= self.lower:
                self.decision = "H0"
        return self.decision

    def to_json(self) -> dict[str, float | str | None]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "wins": self.wins, "draws": self.draws, "losses": self.losses, "llr": round(self.llr, 4),
                "lower": round(self.lower, 4), "upper": round(self.upper, 4), "decision": self.decision}
