"""An independent, deliberately plain Python implementation of Robotrick's rules (RULES.md), used to check
the Cython engine move by move. It shares no code with the engine: cards are (colour, strength) pairs, sets
are Python sets, Droco's criteria are written from their text.

It works on the engine's field layout (``engine.unpack_state``) so the two can be compared field by field; it
cannot know the engine's PRNG, so a new round's deal is copied from the engine (``take_deal``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

DROCO = 3
PASS = 52


def col(card: int) -> int:
    return card // 13


def strength(card: int) -> int:
    return card % 13 + 1


def cards(bits: int) -> set[int]:
    return {c for c in range(52) if bits >> c & 1}


def bits(cs: set[int] | list[int]) -> int:
    return sum(1 << c for c in set(cs))


def next_player(rnd: int, p: int) -> int:
    """Seat order clockwise is 0, 1, 2; Droco is placed in round 1 between seat 0 and its left neighbour
    (seat 1), in round 2 between the two others (1 and 2), in round 3 between seat 0 and its right
    neighbour (seat 2)."""
    table = [[0, DROCO, 1, 2], [0, 1, DROCO, 2], [0, 1, 2, DROCO]][rnd]
    return table[(table.index(p) + 1) % 4]


def winner(trick: list[tuple[int, int]], trump: int) -> int:
    """trick = [(player, card), ...] in play order. Rule B if any trump, else rule A."""
    led = col(trick[0][1])
    trumps = [(strength(c), p) for p, c in trick if col(c) == col(trump)]
    if trumps:
        return max(trumps)[1]
    return max((strength(c), p) for p, c in trick if col(c) == led)[1]


@dataclass
class Cfg:
    vp: list[int]
    ai: list[tuple[str, str, str]]   # (lead, follow, discard) rule names
    hangars: int = 3
    rounds: int = 3
    same_ai: bool = False


def _order_key_high(c: int, trump_col: int) -> tuple[int, int, int]:
    # strongest first; ties: non-trump first, then colour order R, G, O, B
    return (-strength(c), 1 if col(c) == trump_col else 0, col(c))


def _order_key_low(c: int, trump_col: int) -> tuple[int, int, int]:
    return (strength(c), 1 if col(c) == trump_col else 0, col(c))


def strongest(cs: set[int], tc: int) -> int:
    return min(cs, key=lambda c: _order_key_high(c, tc))


def weakest(cs: set[int], tc: int) -> int:
    return min(cs, key=lambda c: _order_key_low(c, tc))


def takes_lead(card: int, trick: list[tuple[int, int]], trump: int) -> bool:
    return winner(trick + [(DROCO, card)], trump) == DROCO


def droco_card(hand: set[int], trick: list[tuple[int, int]], trump: int, rules: tuple[str, str, str]) -> int:
    tc = col(trump)
    lead_rule, follow_rule, discard_rule = rules
    trumps = {c for c in hand if col(c) == tc}
    others = hand - trumps
    if not trick:
        by_col = {k: {c for c in hand if col(c) == k} for k in range(4) if any(col(c) == k for c in hand)}
        if lead_rule == "highest":
            return strongest(hand, tc)
        if lead_rule == "lowest":
            return weakest(hand, tc)
        if lead_rule == "highest_of_longest":
            k = min(by_col, key=lambda k: (-len(by_col[k]), -max(map(strength, by_col[k])), k))
            return max(by_col[k])
        if lead_rule == "lowest_of_shortest":
            k = min(by_col, key=lambda k: (len(by_col[k]), min(map(strength, by_col[k])), k))
            return min(by_col[k])
        if lead_rule == "highest_trump":
            return max(trumps) if trumps else strongest(hand, tc)
        if lead_rule == "lowest_trump":
            return min(trumps) if trumps else weakest(hand, tc)
        if lead_rule == "highest_non_trump":
            return strongest(others, tc) if others else max(trumps)
        if lead_rule == "lowest_non_trump":
            return weakest(others, tc) if others else min(trumps)
        raise AssertionError(lead_rule)
    led = col(trick[0][1])
    follow = sorted(c for c in hand if col(c) == led)
    if follow:
        if follow_rule == "highest":
            return follow[-1]
        if follow_rule == "lowest":
            return follow[0]
        if follow_rule == "cheapest_win":
            return next((c for c in follow if takes_lead(c, trick, trump)), follow[0])
        if follow_rule == "highest_if_win":
            return follow[-1] if takes_lead(follow[-1], trick, trump) else follow[0]
        if follow_rule == "duck":
            return next((c for c in reversed(follow) if not takes_lead(c, trick, trump)), follow[0])
        raise AssertionError(follow_rule)
    if discard_rule == "lowest":
        return weakest(hand, tc)
    if discard_rule == "highest":
        return strongest(hand, tc)
    if discard_rule == "cheapest_trump_win":
        win = [c for c in sorted(trumps) if takes_lead(c, trick, trump)]
        if win:
            return win[0]
        return weakest(others, tc) if others else min(trumps)
    if discard_rule == "highest_trump":
        return max(trumps) if trumps else weakest(hand, tc)
    if discard_rule == "lowest_non_trump":
        return weakest(others, tc) if others else min(trumps)
    if discard_rule == "highest_non_trump":
        return strongest(others, tc) if others else min(trumps)
    raise AssertionError(discard_rule)


class Reference:
    """Robotrick rules over the engine's field dict."""

    def __init__(self, cfg: Cfg, fields: dict[str, Any]) -> None:
        self.cfg = cfg
        self.f = copy.deepcopy(fields)

    # who acts ---------------------------------------------------------------------------------------------
    def trick(self) -> list[tuple[int, int]]:
        f = self.f
        return [(f["trick_player"][i], f["trick_card"][i]) for i in range(f["trick_len"])]

    def to_play(self) -> int:
        f = self.f
        if f["trick_len"] == 0:
            return f["leader"]
        return next_player(f["round"], f["trick_player"][f["trick_len"] - 1])

    def actors(self) -> list[int]:
        f = self.f
        if f["phase"] == 0:
            return [p for p in range(3) if f["pass_count"][p] < 2]
        if f["phase"] == 1:
            return [self.to_play()]
        return []

    def legal(self, seat: int) -> list[int]:
        f = self.f
        hand = cards(f["hand"][seat])
        if f["phase"] == 0:
            return sorted(PASS + c for c in hand) if f["pass_count"][seat] < 2 else []
        if f["phase"] == 1 and self.to_play() == seat:
            trick = self.trick()
            if trick:
                follow = {c for c in hand if col(c) == col(trick[0][1])}
                if follow:
                    return sorted(follow)
            return sorted(hand)
        return []

    # stepping ---------------------------------------------------------------------------------------------
    def apply(self, seat: int, action: int) -> None:
        assert action in self.legal(seat), (seat, action)
        f = self.f
        if action >= PASS:
            card = action - PASS
            f["hand"][seat] &= ~(1 << card)
            f["passed"][seat] |= 1 << card
            f["pass_count"][seat] += 1
            if all(n == 2 for n in f["pass_count"]):
                for p in range(3):
                    f["hand"][(p + 1) % 3] |= f["passed"][p]
                f["phase"] = 1
        else:
            self.play(seat, action)
        while f["phase"] == 1 and self.to_play() == DROCO:
            rules = self.cfg.ai[f["ai_card"]]
            self.play(DROCO, droco_card(cards(f["hand"][DROCO]), self.trick(), f["trump"], rules))

    def play(self, player: int, card: int) -> None:
        f = self.f
        trick = self.trick()
        if trick and col(card) != col(trick[0][1]) and player != DROCO:
            f["voids"] |= 1 << (player * 4 + col(trick[0][1]))
        f["hand"][player] &= ~(1 << card)
        f["trick_card"][f["trick_len"]] = card
        f["trick_player"][f["trick_len"]] = player
        f["trick_len"] += 1
        f["played"] |= 1 << card
        f["played_at"][card] = 1 + f["trick_no"] * 4 + player
        if f["trick_len"] < 4:
            return
        trick = self.trick()
        w = winner(trick, f["trump"])
        if w == DROCO:
            for p, c in trick:
                if p != DROCO:
                    f["face_down"][p] |= 1 << c
        else:
            droco = next(c for p, c in trick if p == DROCO)
            if len(cards(f["face_up"][w])) < self.cfg.hangars:
                f["face_up"][w] |= 1 << droco
            else:
                f["face_down"][w] |= 1 << droco
        f["leader"] = w
        f["trick_len"] = 0
        f["trick_no"] += 1
        if f["trick_no"] == 12:
            for p in range(3):
                f["round_scores"][f["round"]][p] = self.round_score(p)
            f["round"] += 1
            f["phase"] = 2 if f["round"] == self.cfg.rounds else 3   # 3: waiting for the deal
            if f["phase"] == 3:              # a finished round other than the last is kept for the views
                f["past_played_at"][f["round"] - 1] = list(f["played_at"])
                f["past_trump"][f["round"] - 1] = f["trump"]

    def round_score(self, p: int) -> int:
        f = self.f
        return sum(self.cfg.vp[c] for c in cards(f["face_up"][p])) - sum(
            self.cfg.vp[c] for c in cards(f["face_down"][p])
        )

    def take_deal(self, engine_fields: dict[str, Any]) -> None:
        """Start a new round with the engine's deal: fresh captures, no trick, the pass phase."""
        f = self.f
        assert f["phase"] == 3
        for key in ("hand", "aside", "trump", "ai_card", "ai_used", "rng"):
            f[key] = copy.deepcopy(engine_fields[key])
        f["face_up"] = [0, 0, 0]
        f["face_down"] = [0, 0, 0]
        f["passed"] = [0, 0, 0]
        f["pass_count"] = [0, 0, 0]
        f["played"] = 0
        f["played_at"] = [0] * 52
        f["voids"] = 0
        f["trick_len"] = 0
        f["trick_no"] = 0
        f["leader"] = DROCO
        f["phase"] = 0

    def scores(self) -> list[int]:
        f = self.f
        out = [sum(f["round_scores"][r][p] for r in range(f["round"])) for p in range(3)]
        if f["phase"] in (0, 1):
            for p in range(3):
                out[p] += self.round_score(p)
        return out
