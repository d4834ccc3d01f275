"""An independent, deliberately plain Python implementation of Nicodemus's rules (RULES.md), used to check the
Cython engine move by move. It shares no code with the engine: the bric-a-brac is a list of [machine, charcoalium]
pairs, hands are Counters, projects are Python sets, the action ids are laid out again from RULES.md ("Actions"),
and chance is the same SplitMix64 stream re-implemented here (RULES.md, "Chance"), so that random steals and
discards can be compared exactly.

It loads the engine's field layout (``engine.unpack_state``) and writes it back (``fields()``) so that the two can
be compared field by field after every action.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

MASK = (1 << 64) - 1
NONE = 255
COAL, WOOD, COPPER, CRYSTAL, JOKER = 0, 1, 2, 3, 4
CUBES = (WOOD, COPPER, CRYSTAL)
PHASES = ("main", "choose_resource", "take_cost_1", "take_cost_2", "discard_hand", "discard_slot", "exchange",
          "steal", "return", "keep_project", "copy", "projects", "over")
USES = ("charcoalium", "production", "effect")
SUB_PROMPTS = set(PHASES) - {"main", "over"}


# -- chance: SplitMix64 and Lemire's bounded draw -----------------------------------------------------------------

def rng_next(counter: int) -> tuple[int, int]:
    counter = (counter + 0x9E3779B97F4A7C15) & MASK
    z = counter
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return counter, z ^ (z >> 31)


def rng_below(counter: int, bound: int) -> tuple[int, int]:
    counter, z = rng_next(counter)
    m = (z >> 32) * bound
    if (m & 0xFFFFFFFF) < bound:
        threshold = ((1 << 32) - bound) % bound
        while (m & 0xFFFFFFFF) < threshold:
            counter, z = rng_next(counter)
            m = (z >> 32) * bound
    return counter, m >> 32


# -- content ------------------------------------------------------------------------------------------------------

@dataclass
class Machine:
    name: str
    colour: int
    vp: int
    cost: dict[int, int]          # WOOD/COPPER/CRYSTAL -> cubes
    production: int
    effect: str


@dataclass
class Project:
    name: str
    vp: int
    condition: str
    requires: list[Any]
    machines: int


COLOUR_INDEX = {"blue": 0, "purple": 1, "red": 2, "yellow": 3}
RESOURCE_INDEX = {"charcoalium": 0, "wood": 1, "copper": 2, "crystal": 3, "joker": 4}


def machines_of(content: Any) -> list[Machine]:
    return [Machine(m.name, COLOUR_INDEX[m.colour], m.vp, {WOOD: m.cost[0], COPPER: m.cost[1], CRYSTAL: m.cost[2]},
                    RESOURCE_INDEX[m.production], m.effect) for m in content.machines]


def projects_of(content: Any) -> list[Project]:
    out = []
    for p in content.projects:
        req: list[Any] = list(p.requires)
        if p.condition == "colours":
            req = [COLOUR_INDEX[x] for x in req]
        elif p.condition == "production":
            req = [RESOURCE_INDEX[x] for x in req]
        out.append(Project(p.name, p.vp, p.condition, req, p.machines))
    return out


@dataclass
class Layout:
    """Action ids, family after family (RULES.md, "Actions")."""

    types: int
    projects: int
    base: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        sizes = [("play", 3 * self.types), ("repair", 200), ("draw", 1), ("take1", 3), ("take2", 6), ("steal", 3),
                 ("return1", 3), ("return2", 6), ("exchange", 6), ("stop", 1), ("discard_hand", self.types),
                 ("discard_slot", 10), ("copy", self.types), ("keep", self.projects),
                 ("complete", 8 * self.projects), ("done", 1)]
        n = 0
        for name, size in sizes:
            self.base[name] = n
            n += size
        self.total = n


def joker_allocations() -> list[tuple[int, int, int]]:
    """Every way to spend 0..3 joker reductions on (wood, copper, crystal), by size then lexicographically."""
    out = []
    for size in range(4):
        for combo in itertools.combinations_with_replacement((WOOD, COPPER, CRYSTAL), size):
            out.append((combo.count(WOOD), combo.count(COPPER), combo.count(CRYSTAL)))
    return out


ALLOCATIONS = joker_allocations()
PAIRS = list(itertools.combinations_with_replacement(CUBES, 2))     # ww wc wx cc cx xx
EXCHANGES = [(COAL, r) for r in CUBES] + [(r, COAL) for r in CUBES]


def counter_of(row: list[int]) -> Counter[int]:
    return Counter({t: n for t, n in enumerate(row) if n})


def row_of(c: Counter[int], size: int = 16) -> list[int]:
    return [c.get(t, 0) for t in range(size)]


def bits_of(items: set[int]) -> int:
    return sum(1 << p for p in items)


def set_of(bits: int) -> set[int]:
    return {p for p in range(32) if bits >> p & 1}


class Reference:
    """Nicodemus over plain Python structures, loaded from (and written back to) the engine's field dict."""

    def __init__(self, content: Any, params: dict[str, Any], f: dict[str, Any]) -> None:
        self.m = machines_of(content)
        self.p = projects_of(content)
        self.supply = list(content.supply)
        self.sharing = params["project_sharing"]
        self.end_score = params["end_score"]
        self.layout = Layout(len(self.m), len(self.p))
        self.rng = f["rng"]
        self.public = set_of(f["proj_public"])
        self.private = [set_of(x) for x in f["proj_private"]]
        self.done = [set_of(x) for x in f["proj_done"]]
        self.removed = [set_of(x) for x in f["proj_removed"]]
        self.score = list(f["score"])
        self.turn = f["turn"]
        self.deck = list(f["deck"][: f["deck_n"]])
        self.hand = [counter_of(r) for r in f["hand"]]
        self.known = [counter_of(r) for r in f["known"]]
        self.sure = [counter_of(r) for r in f["sure"]]
        self.hdisc = [counter_of(r) for r in f["hdisc"]]
        self.aside = [counter_of(r) for r in f["aside"]]
        self.discard = counter_of(f["discard"])
        self.table = [[f["table"][i], f["table_coal"][i]] for i in range(f["table_n"])]
        self.ws = [list(f["ws"][p][: f["ws_n"][p]]) for p in range(2)]
        self.res = [list(r) for r in f["res"]]
        self.pile = list(f["pile"][: f["pile_n"]])
        self.pend = list(f["pend"][: f["pend_n"]])
        self.phase = PHASES[f["phase"]]
        self.cur = f["cur"]
        self.first = f["first"]
        self.end_trig = bool(f["end_trig"])
        self.played = f["ctx_played"]
        self.card = f["ctx_card"]
        self.target = f["ctx_target"]
        self.qty = f["ctx_qty"]
        self.exchanges = f["ctx_exch"]
        self.used = {i for i in range(4) if f["proj_used"] >> i & 1}
        self.completed_now = f["proj_count"]

    # -- writing back ---------------------------------------------------------------------------------------------
    def fields(self) -> dict[str, Any]:
        def pad(xs: list[int], n: int) -> list[int]:
            return list(xs) + [0] * (n - len(xs))

        return {
            "rng": self.rng,
            "proj_public": bits_of(self.public),
            "proj_private": [bits_of(x) for x in self.private],
            "proj_done": [bits_of(x) for x in self.done],
            "proj_removed": [bits_of(x) for x in self.removed],
            "score": list(self.score),
            "turn": self.turn,
            "deck": pad(self.deck, 64),
            "hand": [row_of(c) for c in self.hand],
            "known": [row_of(c) for c in self.known],
            "sure": [row_of(c) for c in self.sure],
            "hdisc": [row_of(c) for c in self.hdisc],
            "aside": [row_of(c) for c in self.aside],
            "discard": row_of(self.discard),
            "table": pad([t for t, _ in self.table], 10),
            "table_coal": pad([c for _, c in self.table], 10),
            "ws": [pad(w, 4) for w in self.ws],
            "res": [list(r) for r in self.res],
            "pile": pad(self.pile, 24),
            "pend": pad(self.pend, 2),
            "deck_n": len(self.deck),
            "table_n": len(self.table),
            "ws_n": [len(w) for w in self.ws],
            "pile_n": len(self.pile),
            "pend_n": len(self.pend),
            "phase": PHASES.index(self.phase),
            "cur": self.cur,
            "first": self.first,
            "end_trig": int(self.end_trig),
            "ctx_played": self.played,
            "ctx_card": self.card,
            "ctx_target": self.target,
            "ctx_qty": self.qty,
            "ctx_exch": self.exchanges,
            "proj_used": sum(1 << i for i in self.used),
            "proj_count": self.completed_now,
        }

    # -- shared quantities ----------------------------------------------------------------------------------------
    def reserve(self, r: int) -> int:
        v = self.supply[r] - self.res[0][r] - self.res[1][r]
        if r == COAL:
            v -= sum(c for _, c in self.table)
        return v

    def cubes(self, seat: int) -> int:
        return sum(self.res[seat][r] for r in CUBES)

    def hand_size(self, seat: int) -> int:
        return sum(self.hand[seat].values())

    def gain(self, seat: int, r: int, n: int) -> None:
        """From the reserve; what it lacks comes from the opponent, up to what they hold."""
        from_reserve = max(0, min(n, self.reserve(r)))
        from_opponent = min(n - from_reserve, self.res[1 - seat][r])
        self.res[seat][r] += from_reserve + from_opponent
        self.res[1 - seat][r] -= from_opponent

    def draw_random(self, bound: int) -> int:
        self.rng, k = rng_below(self.rng, bound)
        return k

    def random_card(self, seat: int) -> int:
        listed = sorted(self.hand[seat].elements())
        return listed[self.draw_random(len(listed))]

    def seat_score(self, seat: int) -> int:
        return (sum(self.m[t].vp for t in self.ws[seat])
                + sum(self.m[t].vp * n for t, n in self.aside[seat].items())
                + sum(self.p[q].vp for q in self.done[seat]))

    # -- who acts ---------------------------------------------------------------------------------------------
    def actors(self) -> list[int]:
        return [] if self.phase == "over" else [self.cur]

    # -- applicability of effects -----------------------------------------------------------------------------
    def exchanges_possible(self, seat: int) -> list[int]:
        out = []
        o = 1 - seat
        for i, (give, get) in enumerate(EXCHANGES):
            if self.res[seat][give] >= 1 and (self.reserve(get) >= 1 or self.res[o][get] >= 1):
                out.append(i)
        return out

    def can_apply(self, card: int, seat: int, line_after: int, hand_after: int) -> bool:
        """Effect of ``card`` with the played machine last of ``line_after`` machines and ``hand_after`` in hand."""
        fx = self.m[card].effect
        o = 1 - seat
        if fx == "produce":
            return True
        if fx == "discard_from_hand":
            return hand_after >= 1
        if fx in ("discard_one_of_3_before", "discard_one_of_2_before", "discard_previous"):
            return line_after >= 2
        if fx == "exchange":
            return bool(self.exchanges_possible(seat))
        if fx == "steal_charcoalium":
            return self.res[o][COAL] > 0 or self.hand_size(o) > 0
        if fx == "steal_resource":
            return self.cubes(o) > 0 or self.hand_size(o) > 0
        if fx == "strip_hand":
            return self.hand_size(o) > 2 or self.res[o][COAL] > 0
        if fx == "return_resources":
            return self.cubes(o) > 0
        if fx == "private_project":
            return len(self.pile) > 0
        assert fx == "copy"
        return bool(self.copy_targets(seat, line_after, hand_after))

    def copy_targets(self, seat: int, line_after: int, hand_after: int) -> set[int]:
        before = [t for t, _ in self.table[: line_after - 1]]
        return {t for t in before if self.m[t].effect != "copy" and self.can_apply(t, seat, line_after, hand_after)}

    # -- repairs ----------------------------------------------------------------------------------------------
    def reductions(self, seat: int) -> Counter[int]:
        return Counter(self.m[t].production for t in self.ws[seat])

    def repair_choices(self, seat: int, slot: int) -> list[int]:
        red = self.reductions(seat)
        t = self.table[slot][0]
        coal = max(0, len(self.table) - 1 - slot - red[COAL])
        if self.res[seat][COAL] < coal:
            return []
        left = {r: max(0, self.m[t].cost[r] - red[r]) for r in CUBES}
        jokers = min(red[JOKER], sum(left.values()))
        out = []
        for a, alloc in enumerate(ALLOCATIONS):
            spend = dict(zip(CUBES, alloc))
            if sum(alloc) != jokers or any(spend[r] > left[r] for r in CUBES):
                continue
            if all(left[r] - spend[r] <= self.res[seat][r] for r in CUBES):
                out.append(a)
        return out

    # -- projects ---------------------------------------------------------------------------------------------
    def meets(self, q: int, machines: list[int]) -> bool:
        proj = self.p[q]
        if len(machines) != proj.machines:
            return False
        if proj.condition == "identical":
            return len(set(machines)) == 1
        attr = {"colours": lambda t: self.m[t].colour, "vp": lambda t: self.m[t].vp,
                "production": lambda t: self.m[t].production}[proj.condition]
        return sorted(attr(t) for t in machines) == sorted(proj.requires)

    def project_choices(self, seat: int) -> list[int]:
        if self.sharing == "none" and self.completed_now > 0:
            return []
        old = self.ws[seat][:-1]
        new = self.ws[seat][-1]
        out = []
        for q in sorted(self.public | self.private[seat]):
            for chosen in itertools.combinations(range(len(old)), self.p[q].machines - 1):
                if self.sharing != "all" and set(chosen) & self.used:
                    continue
                # one action per distinct choice: interchangeable machines (same type, same "counted this turn")
                # are taken lowest position first
                skip = False
                for i in chosen:
                    for j in range(i):
                        if j not in chosen and old[j] == old[i] and (j in self.used) == (i in self.used):
                            skip = True
                if skip:
                    continue
                if self.meets(q, [new] + [old[i] for i in chosen]):
                    out.append(self.layout.base["complete"] + 8 * q + sum(1 << i for i in chosen))
        return out

    # -- legal actions ----------------------------------------------------------------------------------------
    def legal(self, seat: int) -> list[int]:
        if self.phase == "over" or seat != self.cur:
            return []
        b = self.layout.base
        o = 1 - seat
        out: list[int] = []
        if self.phase == "main":
            for t in sorted(self.hand[seat]):
                if self.hand[seat][t] == 0:
                    continue
                out += [b["play"] + 3 * t, b["play"] + 3 * t + 1]
                if self.can_apply(t, seat, len(self.table) + 1, self.hand_size(seat) - 1):
                    out.append(b["play"] + 3 * t + 2)
            for slot in range(len(self.table)):
                out += [b["repair"] + 20 * slot + a for a in self.repair_choices(seat, slot)]
            if self.hand_size(seat) == 0 and not any(b["repair"] <= a < b["draw"] for a in out):
                out.append(b["draw"])
        elif self.phase == "choose_resource":
            out = [b["take1"] + i for i in range(3)]
        elif self.phase == "take_cost_1":
            out = [b["take1"] + i for i, r in enumerate(CUBES) if self.m[self.target].cost[r]]
        elif self.phase == "take_cost_2":
            out = self.two_of(self.m[self.target].cost, "take")
        elif self.phase == "discard_hand":
            out = [b["discard_hand"] + t for t in sorted(self.hand[seat]) if self.hand[seat][t]]
        elif self.phase == "discard_slot":
            reach = 3 if self.m[self.card].effect == "discard_one_of_3_before" else 2
            n = len(self.table)
            out = [b["discard_slot"] + i for i in range(max(0, n - 1 - reach), n - 1)]
        elif self.phase == "exchange":
            out = [b["exchange"] + i for i in self.exchanges_possible(seat)]
            if self.exchanges >= 1:
                out.append(b["stop"])
        elif self.phase == "steal":
            out = [b["steal"] + i for i, r in enumerate(CUBES) if self.res[o][r]]
        elif self.phase == "return":
            out = self.two_of({r: self.res[o][r] for r in CUBES}, "return")
        elif self.phase == "keep_project":
            out = [b["keep"] + q for q in self.pend]
        elif self.phase == "copy":
            out = [b["copy"] + t for t in self.copy_targets(seat, len(self.table), self.hand_size(seat))]
        elif self.phase == "projects":
            out = self.project_choices(seat) + [b["done"]]
        return sorted(out)

    def two_of(self, have: dict[int, int], verb: str) -> list[int]:
        b = self.layout.base
        pairs = [b[verb + "2"] + i for i, (x, y) in enumerate(PAIRS)
                 if (have[x] >= 2 if x == y else have[x] >= 1 and have[y] >= 1)]
        if pairs:
            return pairs
        return [b[verb + "1"] + i for i, r in enumerate(CUBES) if have[r] >= 1]

    # -- stepping ---------------------------------------------------------------------------------------------
    def apply(self, seat: int, action: int) -> None:
        assert action in self.legal(seat), (seat, action, self.phase)
        self.step(action)
        while self.phase in SUB_PROMPTS:
            # choices among hidden cards (P1's discard from the hand, Y1's kept tile) are always asked: answering
            # them by itself would show the opponent something hidden (RULES.md, "Actions")
            if self.phase in ("discard_hand", "keep_project"):
                break
            options = self.legal(self.cur)
            if len(options) != 1:
                break
            self.step(options[0])

    def family(self, action: int) -> tuple[str, int]:
        best = max((start, name) for name, start in self.layout.base.items() if start <= action)
        return best[1], action - best[0]

    def step(self, action: int) -> None:
        kind, k = self.family(action)
        seat, o = self.cur, 1 - self.cur
        if kind == "play":
            t, use = divmod(k, 3)
            self.hand[seat][t] -= 1
            self.forget(o, t)
            self.table.append([t, 0])
            self.played = self.card = t
            if USES[use] == "charcoalium":
                self.gain(seat, COAL, self.m[t].vp)
                self.finish_play()
            elif USES[use] == "production":
                if self.m[t].production == JOKER:
                    self.qty = 1
                    self.phase = "choose_resource"
                else:
                    self.gain(seat, self.m[t].production, 1)
                    self.finish_play()
            else:
                self.effect(t)
        elif kind == "repair":
            self.repair(seat, k // 20, ALLOCATIONS[k % 20])
        elif kind == "draw":
            self.refill(seat)
            self.end_turn()
        elif kind == "take1":
            self.gain(seat, CUBES[k], self.qty if self.phase == "choose_resource" else 1)
            self.finish_play()
        elif kind == "take2":
            for r in PAIRS[k]:
                self.gain(seat, r, 1)
            self.finish_play()
        elif kind == "steal":
            self.res[o][CUBES[k]] -= 1
            self.res[seat][CUBES[k]] += 1
            self.steal_machine(seat)
            self.finish_play()
        elif kind == "return1":
            self.res[o][CUBES[k]] -= 1
            self.finish_play()
        elif kind == "return2":
            for r in PAIRS[k]:
                self.res[o][r] -= 1
            self.finish_play()
        elif kind == "exchange":
            give, get = EXCHANGES[k]
            self.res[seat][give] -= 1
            self.gain(seat, get, 1)
            self.exchanges += 1
            if self.exchanges == 3:
                self.finish_play()
        elif kind == "stop":
            self.finish_play()
        elif kind == "discard_hand":
            self.hand[seat][k] -= 1
            self.forget(o, k)
            self.discard[k] += 1
            self.target = k
            self.phase = "take_cost_2"
        elif kind == "discard_slot":
            self.discard_from_line(k)
        elif kind == "copy":
            self.effect(k)
        elif kind == "keep":
            self.private[seat].add(k)
            self.removed[seat] |= set(self.pend) - {k}
            self.pend = []
            self.finish_play()
        elif kind == "complete":
            q, chosen = divmod(k, 8)
            self.done[seat].add(q)
            self.public.discard(q)
            self.private[seat].discard(q)
            self.score[seat] += self.p[q].vp
            self.used |= {i for i in range(3) if chosen >> i & 1} | {len(self.ws[seat]) - 1}
            self.completed_now += 1
        else:
            assert kind == "done"
            self.close_projects(seat)
            self.end_turn()

    def forget(self, observer: int, t: int) -> None:
        """The observer saw a machine of type t leave the other hand: one known copy may have been it, and the
        copies certainly in the hand are one fewer at most (and never more than the known ones)."""
        if self.known[observer][t] > 0:
            self.known[observer][t] -= 1
        if self.sure[observer][t] > 0:
            self.sure[observer][t] -= 1
        self.sure[observer][t] = min(self.sure[observer][t], self.known[observer][t])

    def effect(self, card: int) -> None:
        self.card = card
        seat, o = self.cur, 1 - self.cur
        fx = self.m[card].effect
        if fx == "produce":
            prod = self.m[card].production
            count = sum(1 for t, _ in self.table if self.m[t].production == prod)
            if prod == JOKER:
                self.qty = count
                self.phase = "choose_resource"
                return
            self.gain(seat, prod, count)
        elif fx == "discard_from_hand":
            self.phase = "discard_hand"
            return
        elif fx in ("discard_one_of_3_before", "discard_one_of_2_before"):
            self.phase = "discard_slot"
            return
        elif fx == "discard_previous":
            self.discard_from_line(len(self.table) - 2)
            return
        elif fx == "exchange":
            self.exchanges = 0
            self.phase = "exchange"
            return
        elif fx == "steal_charcoalium":
            if self.res[o][COAL]:
                self.res[o][COAL] -= 1
                self.res[seat][COAL] += 1
            self.steal_machine(seat)
        elif fx == "steal_resource":
            if self.cubes(o):
                self.phase = "steal"
                return
            self.steal_machine(seat)
        elif fx == "strip_hand":
            if self.hand_size(o) > 2:               # any known machine may now be among the discards
                self.sure[seat] = Counter()
            while self.hand_size(o) > 2:
                t = self.random_card(o)
                self.hand[o][t] -= 1
                self.hdisc[seat][t] += 1
            self.res[o][COAL] -= min(2, self.res[o][COAL])
        elif fx == "return_resources":
            self.phase = "return"
            return
        elif fx == "private_project":
            for _ in range(min(2, len(self.pile))):
                self.pend.append(self.pile.pop())
            self.phase = "keep_project"
            return
        else:
            self.phase = "copy"
            return
        self.finish_play()

    def discard_from_line(self, slot: int) -> None:
        t, _coal = self.table.pop(slot)         # its charcoalium goes back to the reserve
        self.discard[t] += 1
        self.target = t
        fx = self.m[self.card].effect
        if fx == "discard_one_of_2_before":
            self.gain(self.cur, COAL, 1)
        self.phase = "take_cost_2" if fx == "discard_previous" else "take_cost_1"

    def steal_machine(self, thief: int) -> None:
        victim = 1 - thief
        if self.hand_size(victim) == 0:
            return
        t = self.random_card(victim)
        self.hand[victim][t] -= 1
        self.hand[thief][t] += 1
        self.forget(thief, t)
        self.known[victim][t] += 1
        self.sure[victim][t] += 1

    def repair(self, seat: int, slot: int, alloc: tuple[int, int, int]) -> None:
        red = self.reductions(seat)
        t = self.table[slot][0]
        for r, j in zip(CUBES, alloc):
            self.res[seat][r] -= max(0, self.m[t].cost[r] - red[r] - j)
        after = len(self.table) - 1 - slot
        paid = max(0, after - red[COAL])
        for i in range(paid):                    # right to left: reductions cover the far end first
            self.table[slot + 1 + i][1] += 1
        self.res[seat][COAL] -= paid
        _, coal = self.table.pop(slot)
        self.res[seat][COAL] += coal
        self.ws[seat].append(t)
        self.score[seat] += self.m[t].vp
        self.used = set()
        self.completed_now = 0
        self.phase = "projects"

    def close_projects(self, seat: int) -> None:
        kept = []
        for i, t in enumerate(self.ws[seat]):
            if i in self.used:
                self.aside[seat][t] += 1
            else:
                kept.append(t)
        if len(kept) >= 4:
            for t in kept[:-1]:
                self.aside[seat][t] += 1
            kept = kept[-1:]
        self.ws[seat] = sorted(kept)

    def refill(self, seat: int) -> None:
        need = 5 - self.hand_size(seat)
        if need <= 0:
            return
        if need > len(self.deck):
            self.end_trig = True
        for _ in range(min(need, len(self.deck))):
            self.hand[seat][self.deck.pop()] += 1

    def finish_play(self) -> None:
        self.refill(self.cur)
        self.end_turn()

    def end_turn(self) -> None:
        self.played = self.card = self.target = NONE
        self.qty = self.exchanges = self.completed_now = 0
        self.used = set()
        if len(self.table) >= 10:
            for t, _ in self.table[:5]:
                self.discard[t] += 1
            self.table = self.table[5:]
        if max(self.score) >= self.end_score:
            self.end_trig = True
        self.turn += 1
        if self.end_trig and self.cur != self.first:
            self.phase = "over"
            return
        self.cur = 1 - self.cur
        self.phase = "main"

    def scores(self) -> list[int]:
        return list(self.score)
