"""An independent, deliberately plain Python implementation of Scrapyard's rules (RULES.md), used to check the
Cython engine move by move. It shares no code with the engine: card sets are Python sets, the draft keeps its
own list of who held each hand, legal actions are built as JSON actions and named with the game's notation,
scores are computed from the card objects of the content.

It works on the engine's field layout (``engine.unpack_state``) so the two can be compared field by field. It
cannot know the engine's PRNG, so the dice and the cards of each deal are copied from the engine (``chance``).
"""

from __future__ import annotations

import copy
from typing import Any

from robotcore.games.scrapyard.data import RES_LETTERS, RESOURCES, TYPES, Structure, Upgrade

DELIVERY, DRAFT, PURCHASE, WORKSHOP, OVER = range(5)
NO_CARD, STANDARD, NOT_BROKEN, NO_PENDING = 0xFF, 0xFE, 0xFF, 0xFFFF
KEPT, BROKEN = 0x10, 0x20


def cards(bits: int) -> set[int]:
    return {c for c in range(128) if bits >> c & 1}


def bits(cs: set[int] | list[int]) -> int:
    return sum(1 << c for c in set(cs))


class Reference:
    def __init__(self, game: Any, fields: dict[str, Any]) -> None:
        self.game = game
        self.content = game.content
        self.cards = self.content.cards
        self.n = game.num_players
        self.nbench = game.params["workbenches"]
        self.open = game.params["open_workshop"]      # workshop actions seen as they happen (else at its end)
        self.f = copy.deepcopy(fields)
        # who held each hand (by the seat it was dealt to), pass by pass: rebuilt as the draft goes
        self.holders: dict[int, list[int]] = {t: [t] for t in range(self.n)}
        if self.f["phase"] == DRAFT and self.f["step"] != 0:
            raise ValueError("start the reference at a deal")

    # -- helpers ------------------------------------------------------------------------------------------

    def is_structure(self, c: int) -> bool:
        return isinstance(self.cards[c], Structure)

    def P(self, p: int) -> dict[str, Any]:
        return self.f["pl"][p]

    @staticmethod
    def caps(P: dict[str, Any]) -> tuple[int, int]:
        return 5 + (5 if P["ext"] & 1 else 0), 5 + (5 if P["ext"] & 2 else 0)

    def excess(self, P: dict[str, Any]) -> tuple[int, int]:
        mo, en = self.caps(P)
        return max(0, P["res"][0] + P["res"][1] - mo), max(0, P["res"][2] + P["res"][3] - en)

    def overflow_options(self, P: dict[str, Any]) -> list[tuple[int, int, int, int]]:
        emo, een = self.excess(P)
        if not emo and not een:
            return []
        out = []
        for m in range(emo + 1):
            if m > P["res"][0] or emo - m > P["res"][1]:
                continue
            for e in range(een + 1):
                if e > P["res"][2] or een - e > P["res"][3]:
                    continue
                out.append((m, emo - m, e, een - e))
        return out

    def can_buy(self, P: dict[str, Any]) -> bool:
        return P["waste"] >= 6 and NO_CARD in P["structure"]

    def slots_of(self, P: dict[str, Any], t: int) -> int:
        s = P["structure"][t]
        if s == NO_CARD:
            return 0
        if s == STANDARD:
            return self.content.standard_slots
        card = self.cards[s]
        assert isinstance(card, Structure)
        return card.slots

    def repaired(self, P: dict[str, Any], b: int) -> bool:
        c = P["bench"][b]
        return all(P["bench_rep"][b][r] >= self.cards[c].rep_cubes[r] for r in range(4))

    def enc(self, d: dict[str, Any]) -> int:
        return int(self.game.action_from_dict(d))

    def slot(self, c: int) -> int:
        for t in range(self.n):
            for j in range(self.f["dealt"][t]):
                if self.f["day_card"][t * 7 + j] == c:
                    return t * 7 + j
        raise AssertionError(f"card {c} is not in today's deal")

    # -- who acts, what is legal -----------------------------------------------------------------------------

    def actors(self) -> list[int]:
        f = self.f
        out = []
        for p in range(self.n):
            P = self.P(p)
            if f["phase"] == WORKSHOP:
                if not f["done"] >> p & 1:
                    out.append(p)
            elif f["phase"] == OVER or f["pending"][p] != NO_PENDING:
                continue
            elif f["phase"] == DRAFT and f["broke_at"][p] == NOT_BROKEN:
                out.append(p)
            elif f["phase"] == PURCHASE and self.can_buy(P):
                out.append(p)
            elif f["phase"] == DELIVERY and self.overflow_options(P):
                out.append(p)
        return out

    def legal_dicts(self, p: int) -> list[dict[str, Any]]:
        f = self.f
        P = self.P(p)
        if p not in self.actors():
            return []
        codes = self.game.codes
        if f["phase"] == DRAFT:
            return [{"type": "break"}] + [{"type": "keep", "card": codes[c]} for c in sorted(cards(P["hand"]))]
        if f["phase"] == PURCHASE:
            return [{"type": "buy", "structure": "none"}] + [
                {"type": "buy", "structure": TYPES[t]} for t in range(4) if P["structure"][t] == NO_CARD]
        options = self.overflow_options(P)
        if options:
            return [{"type": "overflow", "discard": "".join(RES_LETTERS[r] * k[r] for r in range(4))}
                    for k in options]
        if f["phase"] != WORKSHOP:
            return []
        out: list[dict[str, Any]] = [{"type": "done"}]
        hours, waste = P["hours"], P["waste"]
        benches = [b for b in range(self.nbench) if P["bench"][b] != NO_CARD]
        if len(benches) < self.nbench:
            out += [{"type": "place", "card": codes[c]} for c in cards(P["hand"])]
        for b in benches:
            c = P["bench"][b]
            card = self.cards[c]
            out.append({"type": "discard", "bench": b + 1})
            if hours:
                out.append({"type": "dismantle", "bench": b + 1})
            if self.repaired(P, b):
                for t in range(4):
                    if isinstance(card, Structure):
                        ok = TYPES[t] == card.type and P["structure"][t] == NO_CARD
                    else:
                        ok = TYPES[t] in card.fits and P["structure"][t] != NO_CARD \
                            and P["nup"][t] < self.slots_of(P, t)
                    if ok:
                        out.append({"type": "assemble", "bench": b + 1, "structure": TYPES[t]})
            elif hours:
                need = [card.rep_cubes[r] - P["bench_rep"][b][r] for r in range(4)]
                lim = [min(need[r], P["res"][r]) for r in range(4)]
                for m in range(lim[0] + 1):
                    for o in range(lim[1] + 1):
                        for e in range(lim[2] + 1):
                            for y in range(lim[3] + 1):
                                if m + o + e + y:
                                    out.append({"type": "repair", "bench": b + 1,
                                                "cubes": "M" * m + "O" * o + "E" * e + "N" * y})
        if waste >= 5:
            out += [{"type": "exchange", "resource": r} for r in RES_LETTERS]
        if waste >= 4 and hours < 7:
            out.append({"type": "subcontract"})
        if hours:
            out.append({"type": "clean"})
            if waste >= 3:
                out += [{"type": "expand", "side": side} for i, side in enumerate(("left", "right"))
                        if not P["ext"] >> i & 1]
        return out

    def legal(self, p: int) -> list[int]:
        return sorted(self.enc(d) for d in self.legal_dicts(p))

    # -- steps --------------------------------------------------------------------------------------------

    def apply(self, p: int, action: int, engine_fields: dict[str, Any]) -> None:
        """Apply ``action`` of seat p; ``engine_fields`` (the engine's state after the same action) provides
        the chance outcomes (dice, deals) when the action leads to one."""
        self.chance = engine_fields
        d = self.game.action_to_dict(action)
        f = self.f
        if f["phase"] == WORKSHOP:
            self.workshop(p, d)
            return
        f["pending"][p] = action
        if f["phase"] == DRAFT:
            if all(f["pending"][q] != NO_PENDING for q in range(self.n) if f["broke_at"][q] == NOT_BROKEN):
                self.resolve_pass()
        elif f["phase"] == PURCHASE:
            if all(f["pending"][q] != NO_PENDING for q in range(self.n) if self.can_buy(self.P(q))):
                for q in range(self.n):
                    a = f["pending"][q]
                    f["pending"][q] = NO_PENDING
                    if a == NO_PENDING:
                        continue
                    kind = self.game.action_to_dict(a)["structure"]
                    if kind != "none":
                        self.P(q)["waste"] -= 6
                        self.P(q)["structure"][TYPES.index(kind)] = STANDARD
                self.start_workshop()
        else:
            if all(f["pending"][q] != NO_PENDING for q in range(self.n) if self.overflow_options(self.P(q))):
                for q in range(self.n):
                    if f["pending"][q] != NO_PENDING:
                        self.discard_cubes(self.P(q), self.game.action_to_dict(f["pending"][q])["discard"])
                        f["pending"][q] = NO_PENDING
                self.deal()

    @staticmethod
    def discard_cubes(P: dict[str, Any], text: str) -> None:
        for ch in text:
            P["res"][RES_LETTERS.index(ch)] -= 1

    def auto_overflow(self, P: dict[str, Any]) -> None:
        options = self.overflow_options(P)
        if len(options) == 1:
            for r in range(4):
                P["res"][r] -= options[0][r]

    def start_day(self) -> None:
        f = self.f
        f["dice"] = list(self.chance["dice"])
        for r, die in enumerate(self.content.dice):
            assert f["dice"][r] in die
        for p in range(self.n):
            P = self.P(p)
            for r in range(4):
                P["res"][r] += f["dice"][r]
            self.auto_overflow(P)
        f["phase"] = DELIVERY
        if not any(self.overflow_options(self.P(p)) for p in range(self.n)):
            self.deal()

    def deal(self) -> None:
        f = self.f
        deck = cards(f["deck"])
        if len(deck) < 7 * self.n:
            deck |= cards(f["disc"])
            f["disc"] = 0
            f["disc_pub"] = 0
            f["priv_disc"] = [0, 0, 0, 0]
        dealt = list(self.chance["dealt"])
        total = min(7 * self.n, len(deck))
        # one card at a time in seat order: the first seats get the extra cards of a short deal
        assert dealt[: self.n] == [total // self.n + (1 if p < total % self.n else 0) for p in range(self.n)]
        f["day_card"] = list(self.chance["day_card"])
        f["day_fate"] = [0] * 28
        f["dealt"] = dealt
        for p in range(self.n):
            hand = {f["day_card"][p * 7 + j] for j in range(dealt[p])}
            assert hand <= deck and len(hand) == dealt[p]
            deck -= hand
            self.P(p)["hand"] = bits(hand)
        f["deck"] = bits(deck)
        f["broke_at"] = [NOT_BROKEN] * 4
        f["step"] = 0
        f["phase"] = DRAFT
        self.holders = {t: [t] for t in range(self.n)}
        for p in range(self.n):
            if dealt[p] == 0:
                f["broke_at"][p] = 0
        if all(f["broke_at"][p] != NOT_BROKEN for p in range(self.n)):
            self.end_draft()

    def resolve_pass(self) -> None:
        f = self.f
        x = f["step"]
        direction = -1 if (f["day"] + 1) % 2 == 1 else 1      # odd days to the right, even days to the left
        keepers = []
        for p in range(self.n):
            if f["broke_at"][p] != NOT_BROKEN:
                continue
            d = self.game.action_to_dict(f["pending"][p])
            f["pending"][p] = NO_PENDING
            P = self.P(p)
            if d["type"] == "break":
                hand = cards(P["hand"])
                for c in hand:
                    f["day_fate"][self.slot(c)] = BROKEN | x
                f["disc"] |= bits(hand)
                f["priv_disc"][p] |= bits(hand)
                P["hand"] = 0
                P["waste"] = min(12, P["waste"] + len(hand))
                P["hours"] = min(7, P["hours"] + len(hand))
                f["broke_at"][p] = x
            else:
                c = self.game.parse_card(d["card"])
                P["hand"] &= ~(1 << c)
                f["reserve"][p] |= 1 << c
                f["day_fate"][self.slot(c)] = KEPT | x
                keepers.append(p)
        # each remaining hand goes to the next keeper in the day's direction (its holder itself if alone)
        track_of = {}
        for t, hs in self.holders.items():
            if len(hs) == x + 1 and hs[-1] in keepers:
                track_of[hs[-1]] = t
        new_hands = {}
        for p in keepers:
            q = p
            while True:
                q = (q + direction) % self.n
                if q in keepers:
                    break
            new_hands[q] = self.P(p)["hand"]
            self.holders[track_of[p]].append(q)
        for q, h in new_hands.items():
            self.P(q)["hand"] = h
        f["step"] = x + 1
        for q in keepers:
            if self.P(q)["hand"] == 0:
                f["broke_at"][q] = x + 1
        self.learn_broken(revealed=False)
        if all(f["broke_at"][p] != NOT_BROKEN for p in range(self.n)):
            self.end_draft()

    def learn_broken(self, revealed: bool) -> None:
        """What each seat can tell of today's broken cards: a hand it held and that was then broken (by itself or
        later by another seat) is known but for the cards the others kept from it after its last look — until
        the reveal, when those become public. Of those it only saw the backs: a broken card is known when no
        card with its back was kept from the hand after that look."""
        f = self.f
        for t, hs in self.holders.items():
            slots = [(f["day_card"][t * 7 + j], f["day_fate"][t * 7 + j]) for j in range(f["dealt"][t])]
            broken = [c for c, fate in slots if fate & BROKEN]
            for h in set(hs):
                last = max(i for i, q in enumerate(hs) if q == h)
                kept_backs = set() if revealed else \
                    {self.is_structure(c) for c, fate in slots if fate & KEPT and fate & 15 > last}
                f["priv_disc"][h] |= bits([c for c in broken if self.is_structure(c) not in kept_backs])

    def end_draft(self) -> None:
        self.f["phase"] = PURCHASE
        if not any(self.can_buy(self.P(p)) for p in range(self.n)):
            self.start_workshop()

    def start_workshop(self) -> None:
        f = self.f
        f["phase"] = WORKSHOP
        f["done"] = 0
        for p in range(self.n):
            self.P(p)["hand"] = f["reserve"][p]
            f["reserve"][p] = 0
            f["pending"][p] = NO_PENDING
        # the reveal: a seat that held a hand learns which of its cards were broken
        self.learn_broken(revealed=True)
        for p in range(self.n):
            f["pub"][p] = copy.deepcopy(self.P(p))
            if self.legal_dicts_unchecked(p) == [{"type": "done"}]:
                f["done"] |= 1 << p
        if f["done"] == (1 << self.n) - 1:
            self.end_day()

    def legal_dicts_unchecked(self, p: int) -> list[dict[str, Any]]:
        done = self.f["done"]
        self.f["done"] &= ~(1 << p)
        try:
            return self.legal_dicts(p)
        finally:
            self.f["done"] = done

    def held_cards(self, P: dict[str, Any]) -> set[int]:
        out = cards(P["hand"]) | {c for c in P["bench"] if c != NO_CARD}
        out |= {c for c in P["structure"] if c not in (NO_CARD, STANDARD)}
        for t in range(4):
            out |= set(P["up"][t][: P["nup"][t]])
        return out

    def end_day(self) -> None:
        f = self.f
        for p in range(self.n):
            P = self.P(p)
            f["disc_pub"] |= bits(self.held_cards(f["pub"][p]) & cards(f["disc"]))
            f["disc"] |= P["hand"]
            f["disc_pub"] |= P["hand"]
            P["hand"] = 0
            P["hours"] = 0
        empty = {"hand": 0, "bench": [0] * 4, "bench_rep": [[0] * 4 for _ in range(4)], "structure": [0] * 4,
                 "up": [[0] * 4 for _ in range(4)], "nup": [0] * 4, "res": [0] * 4, "waste": 0, "hours": 0,
                 "ext": 0}
        f["pub"] = [copy.deepcopy(empty) for _ in range(4)]
        f["day_card"] = [0] * 28
        f["day_fate"] = [0] * 28
        f["dealt"] = [0] * 4
        f["broke_at"] = [NOT_BROKEN] * 4
        f["worked"] = [0] * 4
        f["done"] = 0
        f["step"] = 0
        f["day"] += 1
        if f["day"] == self.game.params["days"]:
            f["phase"] = OVER
        else:
            self.start_day()

    def workshop(self, p: int, d: dict[str, Any]) -> None:
        f = self.f
        P = self.P(p)
        kind = d["type"]
        if not self.open and kind != "done":
            f["worked"][p] = min(255, f["worked"][p] + 1)      # the table sees that p acted, not what it did
        if kind == "overflow":
            self.discard_cubes(P, d["discard"])
        elif kind == "done":
            f["done"] |= 1 << p
        elif kind == "place":
            c = self.game.parse_card(d["card"])
            b = P["bench"].index(NO_CARD)
            P["hand"] &= ~(1 << c)
            P["bench"][b] = c
            P["bench_rep"][b] = [0, 0, 0, 0]
        elif kind in ("discard", "dismantle", "assemble"):
            b = d["bench"] - 1
            c = P["bench"][b]
            if kind == "assemble":
                t = TYPES.index(d["structure"])
                if self.is_structure(c):
                    P["structure"][t] = c
                else:
                    P["up"][t][P["nup"][t]] = c
                    P["nup"][t] += 1
            else:
                if kind == "dismantle":
                    P["hours"] -= 1
                    for r in range(4):
                        P["res"][r] += self.cards[c].dem_cubes[r] + P["bench_rep"][b][r]
                f["disc"] |= 1 << c
                f["priv_disc"][p] |= 1 << c
                if self.open:
                    f["disc_pub"] |= 1 << c
            P["bench"][b] = NO_CARD
            P["bench_rep"][b] = [0, 0, 0, 0]
            if kind == "dismantle":
                self.auto_overflow(P)
        elif kind == "repair":
            b = d["bench"] - 1
            P["hours"] -= 1
            for ch in d["cubes"]:
                r = RES_LETTERS.index(ch)
                P["res"][r] -= 1
                P["bench_rep"][b][r] += 1
        elif kind == "exchange":
            P["waste"] -= 5
            P["res"][RES_LETTERS.index(d["resource"])] += 1
            self.auto_overflow(P)
        elif kind == "subcontract":
            P["waste"] -= 4
            P["hours"] += 1
        elif kind == "expand":
            P["waste"] -= 3
            P["hours"] -= 1
            P["ext"] |= 1 if d["side"] == "left" else 2
        elif kind == "clean":
            P["hours"] -= 1
            P["waste"] = min(12, P["waste"] + 1)
        if not f["done"] >> p & 1 and self.legal_dicts(p) == [{"type": "done"}]:
            f["done"] |= 1 << p
        if f["done"] == (1 << self.n) - 1:
            self.end_day()

    # -- scoring ------------------------------------------------------------------------------------------

    def public(self, p: int) -> dict[str, Any]:
        """What the others see: the live position, but in a closed workshop the position revealed at its start."""
        return self.f["pub"][p] if self.f["phase"] == WORKSHOP and not self.open else self.P(p)

    def scores(self) -> list[int]:
        return [robot_score(self.content, self.public(p)) for p in range(self.n)]


def robot_score(content: Any, P: dict[str, Any]) -> int:
    """The seed's scoring, from the card objects: 0 without 4 Structures; Structure VP, storage bonuses, then
    Software +X, Shield +X per protected Structure, Weapon +X per Weapon on its Structure, Movement +X per
    other family on its Structure, Boost +X per Upgrade on its target (itself always counted)."""
    cards_ = content.cards
    if NO_CARD in P["structure"]:
        return 0
    ups = {t: [cards_[u] for u in P["up"][t][: P["nup"][t]]] for t in range(4)}
    protected = sum(1 for t in range(4) if any(u.family == "shield" for u in ups[t]))
    total = 0
    for t in range(4):
        s = P["structure"][t]
        if s == STANDARD:
            total += content.standard_vp
        else:
            card = cards_[s]
            total += card.vp
            if card.bonus:
                total += P["res"][RESOURCES.index(card.bonus)] // 3
        for u in ups[t]:
            assert isinstance(u, Upgrade)
            if u.family == "software":
                total += u.x
            elif u.family == "shield":
                total += u.x * protected
            elif u.family == "weapon":
                total += u.x * sum(1 for v in ups[t] if v.family == "weapon")
            elif u.family == "movement":
                total += u.x * len({v.family for v in ups[t]} - {"movement"})
            else:
                aim = t if u.target == "self" else TYPES.index(u.target)
                total += u.x * (len(ups[aim]) + (0 if aim == t else 1))
    return total
