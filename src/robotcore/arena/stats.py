"""Tournament statistics: score shares, win rates and their intervals, Bradley–Terry ratings, the plot.

Intervals are over deals, the independent unit of a paired schedule: a bot's value per deal is its mean over
that deal's games (rotations share the seed), and the 95% interval is mean ± t(0.975, D-1) · sd / √D, taken with
two pseudo-deals added, one at 0 and one at 1 (the values lie in [0, 1]), as Agresti and Coull add two successes
and two failures to a binomial: a run whose deals all came out alike (every deal split 1-1, or a sweep) then gets
an interval as wide as its number of deals allows, not one of zero width.

A solo game (one seat) holds one bot, so its games compare nothing by themselves: the bots are compared on each
deal, which every bot played with the same seed, ranked by their scores there (``comparable``); score shares,
win rates, ratings, the pairwise table and the SPRT read those rankings.

Ratings: Bradley–Terry fitted by Hunter's (2004) MM algorithm — the method of OpenSpiel's ``evaluation/elo.cc``
— on every pair of different bots in every game (the one placed higher wins, a shared place is half a win
each). This full rank-breaking is a consistent estimator of Plackett–Luce strengths (Azari Soufiani, Parkes &
Xia 2013), works the same for two players or five, and, unlike online raters (openskill, TrueSkill), does not
depend on the order in which games finished. Shown on the Elo scale (400 · log10 of the strength), centred on
the mean bot. Each pair of bots gets a pseudo-count of 0.1 drawn game so that a bot that never lost keeps a
finite rating. The 95% interval is the hull of two (and of the rating): the percentiles of 200 bootstrap
resamples of the deals (seeded by the tournament seed: they carry the deals' own spread, the games of a deal
being alike), and the Wald interval of a fit with one more win each way per pair (``wald_intervals``: the
pseudo-inverse of its Fisher information), which is as wide as the number of games allows when every resample
is the same. A bot that won (lost) every comparison has no upper (lower) bound: +inf (-inf).
"""

from __future__ import annotations

import math
import random
import statistics
from pathlib import Path
from typing import Any

# Student's t quantiles t(0.975, df) for df = 1..30; beyond, the normal 1.96 is within 2%.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


def t975(df: int) -> float:
    return _T975[df - 1] if df <= len(_T975) else 1.96 + 2.4 / df

RATING_MODEL = ("Bradley-Terry (MM) over every pair of bots in each game (full rank-breaking: consistent for "
                "Plackett-Luce), Elo scale centred on the mean bot, 95% intervals: the hull of a bootstrap over "
                "deals and the fit's Wald interval; unbounded on the side of a bot that won (lost) every comparison")


def _per_bot_values(rec: dict[str, Any], key: str, num_bots: int) -> dict[int, float]:
    """Each bot's value in one game. With fewer bots than seats a bot holds several seats, played as one side:
    its returns are its seats' together (its share of the game), it won when its seats alone placed first,
    and its score is its seats' mean."""
    if key == "win":
        # first place alone: a first place shared with another bot is a draw (in the score share), no win (an
        # all-draw match read a win rate of 1.000 for both bots)
        firsts = {b for seat, b in enumerate(rec["bots"]) if rec["places"][seat] == 0}
        return {b: 1.0 if firsts == {b} else 0.0 for b in rec["bots"]}
    vals: dict[int, list[float]] = {}
    for seat, b in enumerate(rec["bots"]):
        vals.setdefault(b, []).append(float(rec[key][seat]))
    if key == "returns":
        return {b: sum(v) for b, v in vals.items()}
    return {b: sum(v) / len(v) for b, v in vals.items()}


def score_shares(records: list[dict[str, Any]], num_bots: int, num_players: int) -> list[float]:
    """Each bot's mean share of the games (of the deals, in a solo game) so far: the live standings."""
    tot = [0.0] * num_bots
    cnt = [0] * num_bots
    for r in comparable(records, num_players):
        for b, v in _per_bot_values(r, "returns", num_bots).items():
            tot[b] += v
            cnt[b] += 1
    return [t / c if c else float("nan") for t, c in zip(tot, cnt)]


def pair_score(rec: dict[str, Any], a: int, b: int) -> float | None:
    """A's score against B in one game (1 placed higher, 0.5 level, 0 lower; a bot in several seats by its best
    place), None if not both played."""
    pa = [rec["places"][s] for s, x in enumerate(rec["bots"]) if x == a]
    pb = [rec["places"][s] for s, x in enumerate(rec["bots"]) if x == b]
    if not pa or not pb:
        return None
    best_a, best_b = min(pa), min(pb)
    return 1.0 if best_a < best_b else 0.0 if best_a > best_b else 0.5


def _interval(values: list[float]) -> tuple[float, float, float]:
    """Mean of per-deal values in [0, 1] (shares, rates) and its 95% t-interval with the two pseudo-deals, 0 and
    1, added (module docstring), clipped to [0, 1]; no interval under 2 deals."""
    m = statistics.fmean(values) if values else float("nan")
    if len(values) < 2:
        return m, float("nan"), float("nan")
    padded = [*values, 0.0, 1.0]
    centre = statistics.fmean(padded)
    half = t975(len(padded) - 1) * statistics.stdev(padded) / math.sqrt(len(padded))
    return m, max(0.0, centre - half), min(1.0, centre + half)


def comparable(records: list[dict[str, Any]], num_players: int) -> list[dict[str, Any]]:
    """The records the comparisons between bots read: the games themselves, or in a solo game (a game holds one
    bot) one ranking per deal of at least two games, each bot placed by its score there (places as a game's:
    0 the best, a tie shares the place; returns: the best score's bots share 1.0; a game lost by a forfeit
    below every other)."""
    if num_players > 1:
        return records
    deals: dict[int, list[dict[str, Any]]] = {}
    for r in records:
        deals.setdefault(r["deal"], []).append(r)
    out = []
    for deal, games in sorted(deals.items()):
        if len(games) < 2:
            continue
        games = sorted(games, key=lambda g: g["index"])
        scores = [g["scores"][0] for g in games]
        keys = [-math.inf if "forfeit" in g else float(x) for g, x in zip(games, scores)]    # a forfeit: last
        best = max(keys)
        top = keys.count(best)
        out.append({"index": games[-1]["index"], "deal": deal, "bots": [g["bots"][0] for g in games],
                    "scores": scores, "places": [sum(1 for t in keys if t > k) for k in keys],
                    "returns": [1.0 / top if k == best else 0.0 for k in keys]})
    return out


def _by_deal(records: list[dict[str, Any]], key: str, num_bots: int) -> list[list[float]]:
    deals: dict[int, list[dict[int, float]]] = {}
    for r in records:
        deals.setdefault(r["deal"], []).append(_per_bot_values(r, key, num_bots))
    out: list[list[float]] = [[] for _ in range(num_bots)]
    for games in deals.values():
        for b in range(num_bots):
            vals = [g[b] for g in games if b in g]
            if vals:
                out[b].append(sum(vals) / len(vals))
    return out


def _pair_wins(records: list[dict[str, Any]], num_bots: int, prior: float) -> list[list[float]]:
    """wins[a][b]: a's wins over b in every game both played (``pair_score``: a bot in several seats is placed
    by its best one; a level place is half a win each), plus ``prior``/2."""
    wins = [[0.0] * num_bots for _ in range(num_bots)]
    for i in range(num_bots):
        for j in range(num_bots):
            if i != j:
                wins[i][j] += prior / 2
    for r in records:
        present = set(r["bots"])
        for a in present:
            for b in present:
                if a != b:
                    wins[a][b] += pair_score(r, a, b) or 0.0
    return wins


def bradley_terry(records: list[dict[str, Any]], num_bots: int, prior: float = 0.1,
                  iterations: int = 2000) -> list[float]:
    """Elo-scale ratings (mean 0) from full rank-breaking of each game's places (module docstring)."""
    wins = _pair_wins(records, num_bots, prior)
    games = [[wins[i][j] + wins[j][i] for j in range(num_bots)] for i in range(num_bots)]
    gamma = [1.0] * num_bots
    for _ in range(iterations):
        new = []
        for i in range(num_bots):
            w = sum(wins[i])
            d = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(num_bots) if j != i and games[i][j])
            new.append(w / d if d > 0 else gamma[i])
        g = math.exp(statistics.fmean(math.log(x) for x in new))
        new = [x / g for x in new]
        delta = max(abs(a - b) for a, b in zip(new, gamma))
        gamma = new
        if delta < 1e-10:
            break
    return [400.0 * math.log10(x) for x in gamma]


def wald_intervals(records: list[dict[str, Any]], num_bots: int, prior: float = 2.0) -> list[tuple[float, float]]:
    """95% Wald intervals (Elo scale) of centred Bradley-Terry ratings, from the Fisher information of a fit with
    ``prior`` drawn games per pair (one win each way, as Agresti and Coull add a success and a failure: a
    sweep's estimate is finite and its information not nil): the pseudo-inverse of Σ n_ij p_ij (1 - p_ij)
    (e_i - e_j)(e_i - e_j)ᵀ (natural-log strengths), p_ij the fitted chance that i beats j and n_ij their
    comparisons."""
    import numpy as np

    k = num_bots
    ratings = bradley_terry(records, k, prior=prior)
    wins = _pair_wins(records, k, prior)
    theta = [r * math.log(10) / 400.0 for r in ratings]
    info = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            n = wins[i][j] + wins[j][i]
            p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            w = n * p * (1.0 - p)
            info[i, i] += w
            info[j, j] += w
            info[i, j] -= w
            info[j, i] -= w
    cov = np.linalg.pinv(info)
    half = [1.96 * math.sqrt(max(0.0, float(cov[i, i]))) * 400.0 / math.log(10) for i in range(k)]
    return [(r - h, r + h) for r, h in zip(ratings, half)]


def _swept(records: list[dict[str, Any]], bot: int, num_bots: int) -> tuple[bool, bool]:
    """(won every comparison, lost every comparison) of ``bot`` against the others, over the games it played
    with another bot (both False when it met none)."""
    scores = [s for other in range(num_bots) if other != bot
              for s in (pair_score(r, bot, other) for r in records) if s is not None]
    return bool(scores) and all(s == 1.0 for s in scores), bool(scores) and all(s == 0.0 for s in scores)


def bot_labels(specs: list[str]) -> list[str]:
    """The bots' names in results: their specs, with ``#i`` (the position) on a spec given more than once."""
    return [f"{spec}#{i}" if specs.count(spec) > 1 else spec for i, spec in enumerate(specs)]


def summarise(config: dict[str, Any], records: list[dict[str, Any]], num_players: int) -> dict[str, Any]:
    names = bot_labels(config["bots"])
    k = len(names)
    ranked = comparable(records, num_players)        # what compares the bots (a solo game's deals: their scores)
    shares = _by_deal(ranked, "returns", k)
    winsd = _by_deal(ranked, "win", k)
    scores = _by_deal(records, "scores", k)
    ratings = bradley_terry(ranked, k)
    wald = wald_intervals(ranked, k)
    deals: dict[int, list[dict[str, Any]]] = {}
    for r in ranked:
        deals.setdefault(r["deal"], []).append(r)
    keys = sorted(deals)
    rng = random.Random(config["seed"])
    boots: list[list[float]] = []
    if len(keys) >= 2:
        for _ in range(200):
            sample = [g for _ in keys for g in deals[keys[rng.randrange(len(keys))]]]
            boots.append(bradley_terry(sample, k, iterations=300))
    rows = []
    for b, name in enumerate(names):
        played = [r for r in records if b in r["bots"]]
        moves = sum(r["moves"][s] for r in played for s, x in enumerate(r["bots"]) if x == b)
        ms = sum(r["ms_per_move"][s] * r["moves"][s] for r in played for s, x in enumerate(r["bots"]) if x == b)
        m, lo, hi = _interval(shares[b])
        wm, wlo, whi = _interval(winsd[b])
        if boots:
            col = sorted(x[b] for x in boots)
            rci = [min(col[int(0.025 * (len(col) - 1))], wald[b][0], ratings[b]),
                   max(col[int(0.975 * (len(col) - 1))], wald[b][1], ratings[b])]
            unbeaten, beaten = _swept(ranked, b, k)
            if unbeaten:
                rci[1] = math.inf
            if beaten:
                rci[0] = -math.inf
        else:
            rci = [float("nan"), float("nan")]
        rows.append({
            "bot": name, "games": len(played), "score_share": m, "score_share_ci": [lo, hi],
            "win_rate": wm, "win_rate_ci": [wlo, whi],
            "mean_score": statistics.fmean(scores[b]) if scores[b] else float("nan"),
            "rating": ratings[b], "rating_ci": rci, "moves": moves, "ms_per_move": ms / moves if moves else 0.0,
            "forfeits": sum(1 for r in played if r.get("forfeit", {}).get("bot") == name),
            "max_ms": max((r.get("max_ms", r["ms_per_move"])[s] for r in played for s, x in enumerate(r["bots"])
                           if x == b), default=0.0),
            "over_budget": sum(r.get("over_budget", [0] * len(r["bots"]))[s] for r in played
                               for s, x in enumerate(r["bots"]) if x == b),
        })
    pairwise = []
    for a in range(k):
        for b in range(a + 1, k):
            vals = [s for s in (pair_score(r, a, b) for r in ranked) if s is not None]
            if vals:
                pairwise.append({"a": names[a], "b": names[b], "games": len(vals),
                                 "a_wins": sum(v == 1.0 for v in vals), "draws": sum(v == 0.5 for v in vals),
                                 "b_wins": sum(v == 0.0 for v in vals), "a_score": statistics.fmean(vals)})
    return {"game": config["game"], "params": config["params"], "seed": config["seed"], "games": len(records),
            # a bot's share by chance: one seat's in n, or with fewer bots than seats (a solo game: one deal's
            # ranking of them all) its seats' together
            "deals": len(keys), "players": num_players, "chance": 1.0 / (min(k, num_players) if num_players > 1 else k),
            "bots": rows,
            "pairwise": pairwise, "rating_model": RATING_MODEL}


def plot_ratings(summary: dict[str, Any], path: Path) -> bool:
    """Ratings with their 95% intervals as a PNG (needs matplotlib; False, and nothing written, without it)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = sorted(summary["bots"], key=lambda r: r["rating"])
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
    ys = list(range(len(rows)))
    xs = [r["rating"] for r in rows]
    # (an interval under 2 deals, or the unbounded side of a sweep, is not drawn)
    lo = [r["rating"] - r["rating_ci"][0] if math.isfinite(r["rating_ci"][0]) else 0 for r in rows]
    hi = [r["rating_ci"][1] - r["rating"] if math.isfinite(r["rating_ci"][1]) else 0 for r in rows]
    ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", capsize=4)
    ax.set_yticks(ys, [r["bot"] for r in rows])
    ax.set_xlabel("rating (Elo scale, 95% bootstrap interval)")
    ax.set_title(f"{summary['game']}: {summary['games']} games")
    ax.axvline(0, color="grey", lw=0.5)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
