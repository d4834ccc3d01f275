"""An independent pure-Python referee for Sparks, written from RULES.md: who acts, the legal actions and the effect
of every action, on the struct's fields (``engine.unpack_state``). Chance uses the same PRNG (SplitMix64 with
Lemire's bounded draw, core/rng.pxd) drawn in the order RULES.md gives, so the test can compare every field after
every action. Slow and plain on purpose: lists and dicts, no bit tricks beyond reading the bitsets."""

from __future__ import annotations

from typing import Any

from robotcore.games.sparks import engine
from robotcore.games.sparks.data import ASSISTANT_KINDS, COLOURS, SYMBOLS, TILES, SparksContent

from ...rng_model import bounded, step

NO = 255
ANY = 4
BOARD = 63
SYM = {name: i for i, name in enumerate(SYMBOLS)}
KIND = {name: i for i, name in enumerate(ASSISTANT_KINDS)}
TILE = {name: i for i, name in enumerate(TILES)}
(PD_ADVANCE, PD_TILE, PD_REROLL, PD_ADJUST, PD_SILAS, PD_RECYCLE_PICK, PD_RECYCLE_PLACE, PD_MAX, PD_OLYMPIA,
 PD_CONRAD, PD_COMPLETE, PD_FREE_PLAY, PD_DIE_CHOICE) = range(1, 14)
DRAFT, REFILL, TAKE, ACTION, OVER = range(5)


def bits(x: int) -> list[int]:
    return [i for i in range(64) if x >> i & 1]


def col(b: int) -> int:
    return (b - 1) // 6


def val(b: int) -> int:
    return (b - 1) % 6 + 1


def mk(c: int, v: int) -> int:
    return 1 + c * 6 + v - 1


class Reference:
    def __init__(self, content: SparksContent, params: dict[str, Any], f: dict[str, Any]) -> None:
        self.c = content
        self.n = int(params["players"])
        self.solo = self.n == 1
        self.clockwise = bool(params.get("clockwise", False))
        self.turns = 8 if self.solo else 4 * self.n
        self.f = f
        lay = engine.action_layout()
        self.base = {k: v[0] for k, v in lay.items() if k != "num_actions"}
        self.num_actions = lay["num_actions"]
        self.robots = content.robots
        self.kinds = [KIND[a.kind] for a in content.assistants]
        self.params_ = [a.param for a in content.assistants]
        self.rcol = [COLOURS.index(r.colour) for r in content.robots]
        self.box = [r.box for r in content.robots]
        self.nlevels = len(content.thresholds)
        # the draft hands (the struct keeps only the record; a new game's deal is read from it, then passed here)
        self.dhand = [sum(1 << c for c, r in enumerate(f["arec"]) if r == 0x80 | (p << 4) | 15) if f["phase"] == DRAFT
                      else 0 for p in range(4)]

    # -- chance ---------------------------------------------------------------------------------------------

    def _next(self) -> int:
        self.f["rng"], out = step(self.f["rng"])
        return out

    def below(self, bound: int) -> int:
        return bounded(self._next, bound)

    def bag_die(self) -> int:
        f = self.f
        if sum(f["bag"]) == 0:
            f["bag"] = list(f["disc"])
            f["disc"] = [0, 0, 0, 0]
            if sum(f["bag"]) == 0:
                return 0
        k = self.below(sum(f["bag"]))
        for c in range(4):
            if k < f["bag"][c]:
                f["bag"][c] -= 1
                return mk(c, 1 + self.below(6))
            k -= f["bag"][c]
        raise AssertionError

    def colour_die(self, c: int) -> int:
        f = self.f
        if f["disc"][c]:
            f["disc"][c] -= 1
            return mk(c, 1 + self.below(6))
        if f["bag"][c]:
            f["bag"][c] -= 1
            return mk(c, 1 + self.below(6))
        return self.bag_die()

    def knowers(self, i: int) -> set[int]:
        """The seats that know the card under the deck at position i (seats 0 and 1 in its byte, 2 and 3 in
        ``bknow``)."""
        f = self.f
        out = {s for s in (0, 1) if f["bottom"][i] >> (6 + s) & 1}
        return out | {2 + k for k in (0, 1) if f["bknow"][k] >> i & 1}

    def draw_robot(self) -> tuple[int, set[int]]:
        f = self.f
        pool = bits(f["pool"])
        if pool:
            card = pool[self.below(len(pool))]
            f["pool"] &= ~(1 << card)
            return card, set()
        if f["nbottom"]:
            card = f["bottom"][0] & 63
            known = self.knowers(0)
            f["bottom"] = f["bottom"][1:] + [0]
            f["bknow"] = [k >> 1 for k in f["bknow"]]
            f["nbottom"] -= 1
            return card, known
        return NO, set()

    def draw_assistant(self, P: dict[str, Any]) -> None:
        deck = bits(self.f["adeck"])
        if deck:
            a = deck[self.below(len(deck))]
            self.f["adeck"] &= ~(1 << a)
            P["hand"] |= 1 << a

    # -- derived facts ----------------------------------------------------------------------------------------

    def count(self, P: dict[str, Any], kind: str) -> int:
        k = KIND[kind]
        n = sum(1 for a in bits(P["played"]) if self.kinds[a] == k)
        if P["conrad"] != NO and self.kinds[P["conrad"]] == k:
            n += 1
        return n

    def psum(self, P: dict[str, Any], kind: str) -> int:
        k = KIND[kind]
        n = sum(self.params_[a] for a in bits(P["played"]) if self.kinds[a] == k)
        if P["conrad"] != NO and self.kinds[P["conrad"]] == k:
            n += self.params_[P["conrad"]]
        return n

    def active(self) -> int:
        return 0 if self.solo else (self.f["first"] + self.f["turn"]) % self.n

    def secondary(self) -> bool:
        return self.solo and self.f["turn"] % 2 == 1

    def price(self, P: dict[str, Any]) -> int:
        v = self.c.sales_boost_value if P["tiles"] >> TILE["sales_boost"] & 1 else self.c.sell_value
        return v + self.psum(P, "sales")

    def cost(self, P: dict[str, Any]) -> int:
        c = bin(P["played"]).count("1") + 1 - (1 if P["tiles"] >> TILE["discount"] & 1 else 0)
        return max(c, 0)

    def dice_n(self, P: dict[str, Any]) -> int:
        return sum(P["avail"])

    def boxes(self, P: dict[str, Any]) -> list[int]:
        return [b for b in bits(P["tableau"]) if self.box[b] is not None] + [BOARD]

    def vacancy(self, P: dict[str, Any]) -> bool:
        for k in range(3):
            card = P["line"][k]
            if card != NO and any(P["space"][4 + 3 * k + j] == 0 for j in range(len(self.robots[card].spaces))):
                return True
        return False

    def adv_options(self, P: dict[str, Any], c: int) -> list[int]:
        open_ = [t for t in range(4) if P["track"][t] < len(self.c.track_points)]
        anyway = c == ANY
        if not anyway:
            anyway = any(self.kinds[a] == KIND["track_any"] and self.params_[a] == c for a in bits(P["played"]))
            if P["conrad"] != NO and self.kinds[P["conrad"]] == KIND["track_any"] and self.params_[P["conrad"]] == c:
                anyway = True
        if anyway:
            return open_
        return [c] if c in open_ else open_

    def tile_options(self, P: dict[str, Any]) -> list[int]:
        out = []
        for t in range(8):
            if not self.f["stacks"] >> t & 1 or P["tiles"] >> t & 1:
                continue
            if t >= TILE["bonus_point"]:
                out += [t * 4 + k for k in range(3) if P["stile"][k] == NO]
            else:
                out.append(t * 4 + 3)
        return out

    def conrad_options(self, P: dict[str, Any]) -> list[int]:
        out = [a for a in bits(P["played"]) if self.kinds[a] != KIND["conrad"]]
        if self.solo and not self.secondary():
            out = [a for a in out if self.kinds[a] != KIND["warren"]]
        return out

    def can_recruit(self, P: dict[str, Any], a: int) -> bool:
        if self.kinds[a] == KIND["conrad"] and not self.conrad_options(P):
            return False
        return not (self.kinds[a] == KIND["warren"] and self.solo and not self.secondary())

    def colour_cost(self, P: dict[str, Any], p: int, b: int) -> int:
        if col(b) == p and P["tiles"] >> TILE["ignore_colour"] & 1:
            return 0
        if self.count(P, "gordon"):
            return 1
        return self.c.ignore_colour_cost

    def fit(self, P: dict[str, Any], p: int, b: int, sp: int, src: int) -> int:
        """cogs (+16 when D9's value ignore is used), -1 if impossible"""
        if P["space"][sp]:
            return -1
        cost = 0
        if sp < 4:
            if P["level"] >= self.nlevels:
                return -1
            n = sum(1 for c in range(4) if P["space"][c]) - (1 if 0 <= src < 4 else 0)
            if n >= self.c.upgrade_cap:
                return -1
            if col(b) != sp:
                cost = self.colour_cost(P, p, b)
        elif sp == 13:
            if self.c.storage == 0:
                return -1
        else:
            k, j = divmod(sp - 4, 3)
            card = P["line"][k]
            if card == NO or j >= len(self.robots[card].spaces):
                return -1
            need_c, need_v = self.robots[card].spaces[j]
            if need_c is not None and COLOURS.index(need_c) != col(b):
                cost = self.colour_cost(P, p, b)
            if need_v is not None and need_v != val(b):
                if not (col(b) == p and P["tiles"] >> TILE["ignore_value"] & 1):
                    if P["used_ignval"] >= self.count(P, "ignore_value"):
                        return -1
                    cost += 16
        if cost & 15 > P["cogs"]:
            return -1
        return cost

    # -- who acts, what is legal --------------------------------------------------------------------------------

    def actors(self) -> list[int]:
        f = self.f
        if f["phase"] == ACTION:
            waiting = [p for p in range(self.n) if not f["done"] >> p & 1]
            if self.clockwise and waiting:
                order = [(self.active() + q) % self.n for q in range(self.n)]
                return [next(p for p in order if p in waiting)]
            return waiting
        if f["phase"] in (TAKE, REFILL):
            return [f["taker"]]
        if f["phase"] == DRAFT:
            return [p for p in range(self.n) if f["dpick"][p] == NO]
        return []

    def legal(self, p: int) -> list[int]:
        if p not in self.actors():
            return []
        f = self.f
        B = self.base
        out: set[int] = set()
        P = f["players"][p]
        if f["phase"] == DRAFT:
            return sorted(B["draft"] + a for a in bits(self.dhand[p]))
        if f["phase"] == REFILL:
            if P["nbuf"] == 0:
                out |= {B["discard_robot"] + k for k in range(3) if P["line"][k] != NO}
                out.add(B["draw"])
            else:
                out |= {B["assign"] + P["buf"][i] * 3 + k for i in range(P["nbuf"]) for k in range(3)
                        if P["line"][k] == NO}
            return sorted(out)
        if f["phase"] == TAKE:
            n = f["njunk"]
            if p == self.active() and not self.secondary() and f["take_end"] == 0xFF:
                for k in range(4):
                    if P["prod_used"] >> k & 1:
                        continue
                    c = (4 if self.n == 4 else 5) if k == 3 else k + 2
                    starts = [0] if n <= c else (list(range(n - c + 1)) if k == 1 else [0, n - c])
                    out |= {B["take"] + k * 8 + st for st in starts}
                return sorted(out)
            if self.count(P, "quincy"):
                return [B["pick"] + i for i in range(n)]
            if f["take_end"] == 0:
                return [B["pick"]]
            if f["take_end"] == 1:
                return [B["pick"] + n - 1]
            return sorted({B["pick"], B["pick"] + n - 1})
        # action phase
        if P["npend"]:
            return sorted(self.pending_legal(p))
        for t in range(24):
            if not P["avail"][t]:
                continue
            for sp in range(14):
                if self.fit(P, p, t + 1, sp, -1) >= 0:
                    out.add(B["place"] + t * 14 + sp)
            out.add(B["sell"] + t)
            if P["cogs"] >= self.c.change_cost:
                if t % 6 < 5:
                    out.add(B["up"] + t)
                if t % 6 > 0:
                    out.add(B["down"] + t)
            if P["used_octavia"] < self.count(P, "octavia"):
                out.add(B["flip"] + t)
            if P["used_frank"] < self.count(P, "frank") and (t % 6 + 1) in self.c.frank_values:
                out.add(B["frank"] + t)
            if self.count(P, "silas"):
                out.add(B["silas"] + t)
            if P["used_reroll1"] < self.count(P, "reroll_one"):
                out.add(B["reroll_one"] + t)
        if P["reroll_tile"] and self.dice_n(P):
            out.add(B["reroll"])
        if P["used_adjust"] < self.count(P, "adjust") and (self.dice_n(P) or self.section(P)):
            out.add(B["adjust"])
        if P["cogs"] >= self.c.change_cost:
            out |= self.section_changes(P)
        rearr = P["tiles"] >> TILE["rearrange"] & 1 and P["rearranged"] < self.c.rearrange_limit
        for sp in range(14):
            b = P["space"][sp]
            if not b:
                continue
            out.add(B["sell_space"] + sp)
            if rearr:
                out |= {B["rearrange"] + sp * 14 + to for to in range(14)
                        if to != sp and self.fit(P, p, b, to, sp) >= 0}
        if P["cogs"] >= self.cost(P):
            out |= {B["recruit"] + a for a in bits(P["hand"]) if self.can_recruit(P, a)}
        for b in self.boxes(P):
            if P["box_used"] >> b & 1:
                continue
            if P["sparks"]:
                out.add(B["spark_box"] + b)
            if P["cogs"] and P["used_emma"] < self.count(P, "emma"):
                out.add(B["cog_box"] + b)
        out.add(B["done"])
        return sorted(out)

    def held_effects(self, P: dict[str, Any]) -> set[int]:
        """While the held Recycle die waits to be placed: the effects whose choice comes before its placement
        (RULES.md, "Recycle: altering the held die"), when the queue has room for it."""
        B = self.base
        out: set[int] = set()
        if P["npend"] >= 12:
            return out
        if P["used_adjust"] < self.count(P, "adjust"):
            out.add(B["adjust"])
        if P["reroll_tile"]:
            out.add(B["reroll"])
        if self.count(P, "silas"):
            out |= {B["silas"] + t for t in range(24) if P["avail"][t]}
        for b in self.boxes(P):
            sym = self.c.board_box if b == BOARD else self.box[b]
            if P["box_used"] >> b & 1 or sym.kind not in ("adjust", "reroll"):
                continue
            if P["sparks"]:
                out.add(B["spark_box"] + b)
            if P["cogs"] and P["used_emma"] < self.count(P, "emma"):
                out.add(B["cog_box"] + b)
        return out

    def section(self, P: dict[str, Any]) -> list[int]:
        """The upgrade section's spaces that hold a die."""
        return [c for c in range(4) if P["space"][c]]

    def section_changes(self, P: dict[str, Any]) -> set[int]:
        """+1 / -1 to a die in the upgrade section (its value counts towards the level), within 1-6."""
        B = self.base
        out = {B["up_space"] + c for c in self.section(P) if val(P["space"][c]) < 6}
        return out | {B["down_space"] + c for c in self.section(P) if val(P["space"][c]) > 1}

    def pending_legal(self, p: int) -> set[int]:
        B = self.base
        P = self.f["players"][p]
        head, arg = P["pend"][0], P["parg"][0]
        out: set[int] = set()
        if head == PD_ADVANCE:
            out |= {B["track"] + c for c in self.adv_options(P, arg)}
        elif head == PD_TILE:
            out |= {B["tile"] + o for o in self.tile_options(P)}
        elif head == PD_CONRAD:
            out |= {B["copy"] + a for a in self.conrad_options(P)}
        elif head == PD_REROLL:
            if P["nrr"] < 12:
                out |= {B["mark"] + t for t in range(24) if P["avail"][t]}
            if P["held"] and not P["hmark"]:
                out.add(B["mark_held"])             # the held Recycle die may be rerolled too
            out.add(B["roll"])
        elif head in (PD_ADJUST, PD_SILAS):
            for t in range(24):
                if P["avail"][t]:
                    if t % 6 < 5:
                        out.add(B["up"] + t)
                    if t % 6 > 0:
                        out.add(B["down"] + t)
            out |= self.section_changes(P)
            if P["held"]:                           # the held Recycle die is one of "your dice"
                if val(P["held"]) < 6:
                    out.add(B["up_held"])
                if val(P["held"]) > 1:
                    out.add(B["down_held"])
            out.add(B["skip"])
        elif head == PD_RECYCLE_PICK:
            out |= {B["recycle"] + P["rc"][i] - 1 for i in range(P["nrc"])}
            out.add(B["skip"])
        elif head == PD_RECYCLE_PLACE:
            t = P["held"] - 1
            out |= {B["place"] + t * 14 + sp for sp in range(4, 13) if self.fit(P, p, P["held"], sp, -1) >= 0}
            if P["cogs"] >= self.c.change_cost:
                if t % 6 < 5:
                    out.add(B["up"] + t)
                if t % 6 > 0:
                    out.add(B["down"] + t)
            if P["used_octavia"] < self.count(P, "octavia"):
                out.add(B["flip"] + t)
            if P["used_reroll1"] < self.count(P, "reroll_one"):
                out.add(B["reroll_one"] + t)
            out |= self.held_effects(P)
            out.add(B["skip"])
        elif head == PD_MAX:
            out |= {B["free_box"] + arg, B["skip"]}
        elif head == PD_OLYMPIA:
            boxes = self.boxes(P)
            if arg >> 6 < 2:
                boxes = [b for b in boxes if b != arg & 63]
            out |= {B["free_box"] + b for b in boxes}
            out.add(B["skip"])
        elif head == PD_COMPLETE:
            out |= {B["complete"] + k for k in range(3) if P["line"][k] != NO and self.rcol[P["line"][k]] == arg}
            out.add(B["skip"])
        elif head == PD_FREE_PLAY:
            out |= {B["recruit"] + a for a in bits(P["hand"]) if self.can_recruit(P, a)}
            out.add(B["skip"])
        elif head == PD_DIE_CHOICE:
            out |= {B["die_choice"] + t for t in range(24)}
        return out

    # -- effects ----------------------------------------------------------------------------------------------

    def push(self, P: dict[str, Any], code: int, arg: int) -> None:
        if P["npend"] < 12:
            P["pend"][P["npend"]] = code
            P["parg"][P["npend"]] = arg
            P["npend"] += 1

    def queue(self, P: dict[str, Any]) -> list[tuple[int, int]]:
        return list(zip(P["pend"][:P["npend"]], P["parg"][:P["npend"]]))

    def set_queue(self, P: dict[str, Any], entries: list[tuple[int, int]]) -> None:
        P["pend"] = [c for c, _ in entries] + [0] * (12 - len(entries))
        P["parg"] = [a for _, a in entries] + [0] * (12 - len(entries))
        P["npend"] = len(entries)

    def push_change(self, P: dict[str, Any], code: int, arg: int) -> None:
        """A choice that alters dice (adjust, Silas, reroll): before the held die's placement if one is queued."""
        entries = self.queue(P)
        if len(entries) >= 12:
            return
        codes = [c for c, _ in entries]
        if PD_RECYCLE_PLACE in codes:
            entries.insert(codes.index(PD_RECYCLE_PLACE), (code, arg))
        else:
            entries.append((code, arg))
        self.set_queue(P, entries)

    def pop(self, P: dict[str, Any]) -> None:
        n = P["npend"]
        P["pend"] = P["pend"][1:n] + [0] * (13 - n)
        P["parg"] = P["parg"][1:n] + [0] * (13 - n)
        P["npend"] -= 1

    def gain(self, P: dict[str, Any], b: int) -> None:
        if b:
            P["avail"][b - 1] += 1

    def discard(self, b: int) -> None:
        if b:
            self.f["disc"][col(b)] += 1

    def discard_recycled(self, P: dict[str, Any]) -> None:
        for b in P["rc"][:P["nrc"]]:
            self.discard(b)
        P["rc"], P["nrc"] = [0, 0, 0], 0

    def symbol(self, p: int, kind: int, n: int, colour: int) -> None:
        P = self.f["players"][p]
        if kind == SYM["cogs"]:
            P["cogs"] = min(255, P["cogs"] + n)
        elif kind == SYM["sparks"]:
            P["sparks"] = min(255, P["sparks"] + n)
        elif kind == SYM["assistant"]:
            for _ in range(n):
                self.draw_assistant(P)
        elif kind == SYM["die"]:
            for _ in range(n):
                self.gain(P, self.bag_die())
        elif kind == SYM["die_colour"]:
            for _ in range(n):
                self.gain(P, self.colour_die(colour))
        elif kind == SYM["reroll"]:
            self.push_change(P, PD_REROLL, 0)
        elif kind == SYM["adjust"]:
            self.push_change(P, PD_ADJUST, n)
        elif kind == SYM["advance_any"]:
            for _ in range(n):
                self.push(P, PD_ADVANCE, ANY)
        elif kind == SYM["factory"]:
            P["upg_bonus"] = min(255, P["upg_bonus"] + n)
            self.check_level(p)
        elif kind == SYM["tile"]:
            for _ in range(n):
                self.push(P, PD_TILE, 0)
        elif kind == SYM["cog_assistant"]:
            P["cogs"] = min(255, P["cogs"] + 1)
            self.draw_assistant(P)
        elif kind == SYM["advance"]:
            for _ in range(n):
                self.push(P, PD_ADVANCE, colour)

    def sym_of(self, s: Any) -> tuple[int, int, int]:
        return s.engine_row()  # type: ignore[no-any-return]

    def fire(self, p: int, b: int) -> None:
        s = self.c.board_box if b == BOARD else self.box[b]
        self.symbol(p, *self.sym_of(s))

    def step_track(self, p: int, c: int) -> None:
        P = self.f["players"][p]
        pos = P["track"][c]
        if pos >= len(self.c.track_points):
            return
        P["track"][c] = pos + 1
        for i, after in enumerate(self.c.bonus_after):
            if after == pos:
                self.symbol(p, *self.sym_of(self.c.bonus_tiles[self.f["bonus"][c][i]]))

    def check_level(self, p: int) -> None:
        P = self.f["players"][p]
        if P["level"] >= self.nlevels:
            return
        dice = [P["space"][c] for c in range(4) if P["space"][c]]
        total = P["upg_bonus"] + self.psum(P, "factory_bonus") + sum(val(b) for b in dice)
        if not dice or total < self.c.thresholds[P["level"]]:
            return
        for c in range(4):
            self.discard(P["space"][c])
            P["space"][c] = 0
        P["upg_bonus"] = 0
        if self.c.level_rewards[P["level"]] == "tile":
            self.push(P, PD_TILE, 0)
        else:
            P["sparks"] = min(255, P["sparks"] + 1)
        P["level"] += 1

    def complete_robot(self, p: int, k: int) -> None:
        P = self.f["players"][p]
        card = P["line"][k]
        robot = self.robots[card]
        P["line"][k] = NO
        P["tableau"] |= 1 << card
        P["completed"] = min(255, P["completed"] + 1)
        dice = [P["space"][4 + 3 * k + j] for j in range(3)]
        for j in range(3):
            P["space"][4 + 3 * k + j] = 0
        recycle = P["stile"][k] == TILE["recycle"] and self.vacancy(P) and P["nrc"] == 0
        if recycle:
            kept = [b for b in dice if b]
            P["rc"] = kept + [0] * (3 - len(kept))
            P["nrc"] = len(kept)
        else:
            for b in dice:
                self.discard(b)
        for _ in range(robot.advance + (1 if P["stile"][k] == TILE["bonus_point"] else 0)):
            self.push(P, PD_ADVANCE, COLOURS.index(robot.colour))
        if robot.reward is not None:
            self.symbol(p, *self.sym_of(robot.reward))
        if P["stile"][k] == TILE["bonus_cog"]:
            P["cogs"] = min(255, P["cogs"] + 1)
        if robot.box is not None and self.count(P, "max"):
            self.push(P, PD_MAX, card)
        if recycle and P["nrc"]:                    # after the robot is scored (seed, Eva's example)
            if P["npend"] < 12:
                self.push(P, PD_RECYCLE_PICK, 0)
            else:
                self.discard_recycled(P)

    def onetime(self, p: int, a: int) -> None:
        P = self.f["players"][p]
        kind = ASSISTANT_KINDS and list(ASSISTANT_KINDS)[self.kinds[a]]
        prm = self.params_[a]
        if kind == "conrad":
            self.push(P, PD_CONRAD, 0)
        elif kind == "olympia":
            self.push(P, PD_OLYMPIA, (prm << 6) | 63)
        elif kind == "warren":
            for b in self.f["junk"][:self.f["njunk"]]:
                self.gain(P, b)
            self.f["junk"] = [0] * 8
            self.f["njunk"] = 0
        elif kind == "complete":
            self.push(P, PD_COMPLETE, prm)
        elif kind in ("cogs", "sparks", "tile", "die", "advance_any", "factory"):
            self.symbol(p, SYM[kind], prm, 0)
        elif kind == "free_play":
            for _ in range(prm):
                self.push(P, PD_FREE_PLAY, 0)
        elif kind == "die_choice":
            for _ in range(prm):
                self.push(P, PD_DIE_CHOICE, 0)
        elif kind == "factory_bonus":
            self.check_level(p)          # the section may meet the requirement with the new bonus at once

    def settle(self, p: int) -> None:
        P = self.f["players"][p]
        while P["npend"]:
            head, arg = P["pend"][0], P["parg"][0]
            if head == PD_ADVANCE:
                opts = self.adv_options(P, arg)
                if len(opts) > 1:
                    return
                self.pop(P)
                if opts:
                    self.step_track(p, opts[0])
            elif head == PD_TILE:
                topts = self.tile_options(P)
                if len(topts) > 1:
                    return
                self.pop(P)
                if topts:
                    self.take_tile(P, topts[0])
            elif head == PD_CONRAD:
                copts = self.conrad_options(P)
                if len(copts) > 1:
                    return
                self.pop(P)
                if copts:
                    P["conrad"] = copts[0]
                    self.onetime(p, copts[0])
            elif head == PD_RECYCLE_PICK:
                if P["nrc"] and self.vacancy(P):
                    return
                self.discard_recycled(P)
                self.pop(P)
            elif head == PD_RECYCLE_PLACE:
                if P["held"]:
                    return
                self.pop(P)
            elif head == PD_MAX:
                if P["cogs"] >= 1:
                    return
                self.pop(P)
            elif head == PD_OLYMPIA:
                exclude = None if arg >> 6 >= 2 else arg & 63
                if arg >> 6 > 0 and len([b for b in self.boxes(P) if b != exclude]) > 0:
                    return
                self.pop(P)
            elif head == PD_COMPLETE:
                if P["cogs"] >= 1 and any(P["line"][k] != NO and self.rcol[P["line"][k]] == arg for k in range(3)):
                    return
                self.pop(P)
            elif head == PD_FREE_PLAY:
                if P["hand"]:
                    return
                self.pop(P)
            elif head == PD_REROLL:
                if P["nrr"] or self.dice_n(P) or P["held"]:
                    return
                self.pop(P)
            elif head == PD_ADJUST:
                if arg > 0 and (self.dice_n(P) or self.section(P) or P["held"]):
                    return
                self.pop(P)
            elif head == PD_SILAS:
                if P["silas"] > 0 and (self.dice_n(P) or self.section(P) or P["held"]):
                    return
                P["silas"] = 0
                self.pop(P)
            else:
                return

    def take_tile(self, P: dict[str, Any], opt: int) -> None:
        t, k = divmod(opt, 4)
        P["tiles"] |= 1 << t
        if k < 3:
            P["stile"][k] = t

    def put(self, p: int, b: int, sp: int, cost: int) -> None:
        P = self.f["players"][p]
        P["cogs"] -= cost & 15
        if cost & 16:
            P["used_ignval"] += 1
        P["space"][sp] = b
        if sp < 4:
            self.check_level(p)
        elif sp < 13:
            k = (sp - 4) // 3
            card = P["line"][k]
            if card != NO and all(P["space"][4 + 3 * k + j] for j in range(len(self.robots[card].spaces))):
                self.complete_robot(p, k)

    # -- the flow -----------------------------------------------------------------------------------------------

    def start_turn(self) -> None:
        f = self.f
        for P in f["players"][:self.n]:
            for key in ("used_frank", "used_octavia", "used_adjust", "used_reroll1", "used_ignval", "reroll_tile",
                        "rearranged", "completed"):
                P[key] = 0
        if not self.secondary():
            for b in f["junk"][:f["njunk"]]:
                self.discard(b)
            f["junk"] = [0] * 8
            f["njunk"] = 0
            for _ in range(self.c.junkyard):
                b = self.bag_die()
                if b:
                    f["junk"][f["njunk"]] = b
                    f["njunk"] += 1
        f["phase"] = TAKE
        f["taker"] = self.active()
        f["ntaken"] = 0
        f["take_end"] = 2 if self.secondary() else 0xFF
        f["started"] = 1
        self.next_taker(False)

    def need(self) -> int:
        return 2 if self.n == 2 or self.secondary() else 1

    def next_taker(self, advance: bool) -> None:
        f = self.f
        while True:
            if advance:
                f["taker"] = (f["taker"] + 1) % self.n
                f["ntaken"] = 0
                f["take_end"] = 2
                if f["taker"] == self.active():
                    f["phase"] = ACTION
                    f["done"] = f["taker"] = f["ntaken"] = f["take_end"] = 0
                    return
            advance = True
            if f["take_end"] == 0xFF:
                return
            if f["njunk"] == 0 or f["ntaken"] >= self.need():
                continue
            opts = self.legal(f["taker"])
            if len(opts) > 1:
                return
            self.pick(opts[0] - self.base["pick"])
            advance = f["njunk"] == 0 or f["ntaken"] >= self.need()

    def pick(self, i: int) -> None:
        f = self.f
        P = f["players"][f["taker"]]
        if f["take_end"] == 2 and f["ntaken"] == 0 and not self.count(P, "quincy"):
            f["take_end"] = 0 if i == 0 else 1
        self.gain(P, f["junk"][i])
        f["junk"] = f["junk"][:i] + f["junk"][i + 1:] + [0]
        f["njunk"] -= 1
        f["ntaken"] += 1

    def end_turn(self) -> None:
        f = self.f
        for P in f["players"][:self.n]:
            price = self.price(P)
            for t in range(24):
                while P["avail"][t]:
                    P["avail"][t] -= 1
                    f["disc"][t // 6] += 1
                    P["cogs"] = min(255, P["cogs"] + price)
            if P["space"][13]:
                self.gain(P, P["space"][13])
                P["space"][13] = 0
        if f["turn"] + 1 >= self.turns:
            f["phase"] = OVER
            f["done"] = 0
            return
        f["phase"] = REFILL
        f["taker"] = self.active()
        f["ntaken"] = 0
        f["done"] = 0
        self.next_refiller(False)

    def free(self, P: dict[str, Any]) -> int:
        return sum(1 for k in range(3) if P["line"][k] == NO)

    def next_refiller(self, advance: bool) -> None:
        f = self.f
        while True:
            if advance:
                f["taker"] = (f["taker"] + 1) % self.n
                f["ntaken"] += 1
                if f["ntaken"] >= self.n:
                    self.after_refill()
                    return
            advance = True
            P = f["players"][f["taker"]]
            if self.free(P) == 0:
                continue
            if any(P["line"][k] != NO for k in range(3)):
                return
            self.do_draw(f["taker"])
            return

    def do_draw(self, p: int) -> None:
        P = self.f["players"][p]
        for _ in range(self.free(P) + 1):
            card, known = self.draw_robot()
            if card == NO:
                break
            P["buf"][P["nbuf"]] = card
            P["bufk"][P["nbuf"]] = sum(1 << s for s in known | {p})
            P["nbuf"] += 1
        self.finish_assign(p)

    def to_bottom(self, card: int, known: set[int]) -> None:
        f = self.f
        i = f["nbottom"]
        f["bottom"][i] = card | sum(1 << (6 + s) for s in known if s < 2)
        for s in known:
            if s >= 2:
                f["bknow"][s - 2] |= 1 << i
        f["nbottom"] += 1

    def finish_assign(self, p: int) -> None:
        P = self.f["players"][p]
        if P["nbuf"] and self.free(P) == 0:
            for card, known in zip(P["buf"][:P["nbuf"]], P["bufk"]):
                self.to_bottom(card, {s for s in range(4) if known >> s & 1})
            P["buf"] = [0] * 4
            P["bufk"] = [0] * 4
            P["nbuf"] = 0
        if P["nbuf"] == 0:
            self.next_refiller(True)
        elif P["nbuf"] == 1 and self.free(P) == 1:
            P["line"][P["line"].index(NO)] = P["buf"][0]
            P["buf"] = [0] * 4
            P["bufk"] = [0] * 4
            P["nbuf"] = 0
            self.next_refiller(True)

    def after_refill(self) -> None:
        f = self.f
        if not f["started"]:
            self.start_turn()
            return
        f["turn"] += 1
        if (self.solo and f["turn"] % 2 == 0) or (not self.solo and f["turn"] % self.n == 0):
            for P in f["players"][:self.n]:
                P["sparks"] = min(255, P["sparks"] + len(bits(P["box_used"] & ~P["box_cog"])))
                P["box_used"] = P["box_cog"] = P["used_emma"] = 0
        self.start_turn()

    # -- applying -----------------------------------------------------------------------------------------------

    def family(self, a: int) -> tuple[str, int]:
        best = max((start, name) for name, start in self.base.items() if start <= a)
        return best[1], a - best[0]

    def apply(self, p: int, a: int) -> None:
        f = self.f
        name, k = self.family(a)
        P = f["players"][p]
        if f["phase"] == DRAFT:
            f["dpick"][p] = k
            if any(f["dpick"][q] == NO for q in range(self.n)):
                return
            passed = []
            for q in range(self.n):
                f["players"][q]["hand"] |= 1 << f["dpick"][q]
                f["arec"][f["dpick"][q]] = (f["arec"][f["dpick"][q]] & 0xF0) | f["dstep"]
                passed.append(self.dhand[q] & ~(1 << f["dpick"][q]))
                f["dpick"][q] = NO
            for q in range(self.n):
                self.dhand[(q + 1) % self.n] = passed[q]
            f["dstep"] += 1
            if f["dstep"] >= self.c.hand_size:
                for q in range(self.n):
                    f["adeck"] |= self.dhand[q]
                    self.dhand[q] = 0
                f["phase"] = REFILL
                f["taker"] = f["first"]
                f["ntaken"] = 0
                self.next_refiller(False)
            return
        if f["phase"] == REFILL:
            if name == "discard_robot":
                for j in range(3):
                    b = P["space"][4 + 3 * k + j]
                    if b:
                        self.discard(b)
                        P["space"][4 + 3 * k + j] = 0
                        P["cogs"] = min(255, P["cogs"] + self.price(P))
                self.to_bottom(P["line"][k], set(range(self.n)))
                P["line"][k] = NO
                if self.free(P) == 3:
                    self.do_draw(p)
            elif name == "draw":
                self.do_draw(p)
            else:
                card, slot = divmod(k, 3)
                i = P["buf"].index(card)
                P["buf"][i] = P["buf"][P["nbuf"] - 1]
                P["bufk"][i] = P["bufk"][P["nbuf"] - 1]
                P["buf"][P["nbuf"] - 1] = 0
                P["bufk"][P["nbuf"] - 1] = 0
                P["nbuf"] -= 1
                P["line"][slot] = card
                self.finish_assign(p)
            return
        if f["phase"] == TAKE:
            if name == "take":
                tile, st = divmod(k, 8)
                c = (4 if self.n == 4 else 5) if tile == 3 else tile + 2
                c = min(c, f["njunk"])
                for b in f["junk"][st:st + c]:
                    self.gain(P, b)
                rest = f["junk"][:st] + f["junk"][st + c:f["njunk"]]
                f["junk"] = rest + [0] * (8 - len(rest))
                f["njunk"] -= c
                P["prod_used"] |= 1 << tile
                if tile == 0:
                    self.gain(P, self.bag_die())
                    self.gain(P, self.bag_die())
                elif tile == 2:
                    P["reroll_tile"] = 1
                elif tile == 3 and self.n == 4:
                    P["cogs"] = min(255, P["cogs"] + 1)
                f["take_end"] = 2
                self.next_taker(True)
            else:
                self.pick(k)
                self.next_taker(f["njunk"] == 0 or f["ntaken"] >= self.need())
            return
        self.action(p, name, k)

    def action(self, p: int, name: str, k: int) -> None:
        f = self.f
        P = f["players"][p]
        head = P["pend"][0] if P["npend"] else 0
        if name == "place":
            t, sp = divmod(k, 14)
            if head == PD_RECYCLE_PLACE:
                b = P["held"]
                P["held"] = 0
                self.pop(P)
            else:
                b = t + 1
                P["avail"][t] -= 1
            self.put(p, b, sp, self.fit(P, p, b, sp, -1))
        elif name == "sell":
            P["avail"][k] -= 1
            f["disc"][k // 6] += 1
            P["cogs"] = min(255, P["cogs"] + self.price(P))
        elif name == "sell_space":
            self.discard(P["space"][k])
            P["space"][k] = 0
            P["cogs"] = min(255, P["cogs"] + self.price(P))
        elif name in ("up", "down"):
            d = 1 if name == "up" else -1
            if head in (PD_ADJUST, PD_SILAS):
                P["avail"][k] -= 1
                P["avail"][k + d] += 1
                if head == PD_ADJUST:
                    P["parg"][0] -= 1
                else:
                    P["silas"] -= 1
            elif head == PD_RECYCLE_PLACE:
                P["cogs"] -= self.c.change_cost
                P["held"] += d
            else:
                P["cogs"] -= self.c.change_cost
                P["avail"][k] -= 1
                P["avail"][k + d] += 1
        elif name == "flip":
            P["used_octavia"] += 1
            j = (k // 6) * 6 + 5 - k % 6
            if head == PD_RECYCLE_PLACE:
                P["held"] = j + 1
            else:
                P["avail"][k] -= 1
                P["avail"][j] += 1
        elif name == "frank":
            P["used_frank"] += 1
            P["avail"][k] -= 1
            f["disc"][k // 6] += 1
            self.push(P, PD_ADVANCE, k // 6)
        elif name == "silas":
            P["avail"][k] -= 1
            f["disc"][k // 6] += 1
            P["silas"] = k % 6 + 1
            self.push_change(P, PD_SILAS, 0)
        elif name == "reroll_one":
            P["used_reroll1"] += 1
            if head == PD_RECYCLE_PLACE:
                P["held"] = mk(col(P["held"]), 1 + self.below(6))
            else:
                P["avail"][k] -= 1
                P["avail"][(k // 6) * 6 + self.below(6)] += 1
        elif name == "reroll":
            P["reroll_tile"] = 0
            self.push_change(P, PD_REROLL, 0)
        elif name == "adjust":
            P["used_adjust"] += 1
            self.push_change(P, PD_ADJUST, 1)
        elif name in ("up_held", "down_held"):
            if head == PD_ADJUST:
                P["parg"][0] -= 1
            else:
                P["silas"] -= 1
            P["held"] += 1 if name == "up_held" else -1
        elif name == "mark_held":
            P["hmark"] = 1
        elif name in ("up_space", "down_space"):
            if head == PD_ADJUST:
                P["parg"][0] -= 1
            elif head == PD_SILAS:
                P["silas"] -= 1
            else:
                P["cogs"] -= self.c.change_cost
            P["space"][k] += 1 if name == "up_space" else -1
            self.check_level(p)
        elif name == "mark":
            P["avail"][k] -= 1
            P["rr"][P["nrr"]] = k + 1
            P["nrr"] += 1
        elif name == "roll":
            for b in P["rr"][:P["nrr"]]:
                t = b - 1
                P["avail"][(t // 6) * 6 + self.below(6)] += 1
            P["rr"] = [0] * 12
            P["nrr"] = 0
            if P["hmark"]:
                P["held"] = mk(col(P["held"]), 1 + self.below(6))
                P["hmark"] = 0
            self.pop(P)
        elif name == "rearrange":
            sp, to = divmod(k, 14)
            b = P["space"][sp]
            cost = self.fit(P, p, b, to, sp)
            P["space"][sp] = 0
            P["rearranged"] += 1
            self.put(p, b, to, cost)
        elif name == "recruit":
            if head == PD_FREE_PLAY:
                self.pop(P)
            else:
                P["cogs"] -= self.cost(P)
            P["hand"] &= ~(1 << k)
            P["played"] |= 1 << k
            self.onetime(p, k)
        elif name == "spark_box":
            P["sparks"] -= 1
            P["box_used"] |= 1 << k
            self.fire(p, k)
        elif name == "cog_box":
            P["cogs"] -= 1
            P["used_emma"] += 1
            P["box_used"] |= 1 << k
            P["box_cog"] |= 1 << k
            self.fire(p, k)
        elif name == "free_box":
            arg = P["parg"][0]
            if head == PD_MAX:
                P["cogs"] -= 1
                self.pop(P)
            elif arg >> 6 >= 2:
                P["parg"][0] = ((arg >> 6) - 1) << 6 | k
            else:
                self.pop(P)
            self.fire(p, k)
        elif name == "track":
            self.pop(P)
            self.step_track(p, k)
        elif name == "tile":
            self.pop(P)
            self.take_tile(P, k)
        elif name == "copy":
            self.pop(P)
            P["conrad"] = k
            self.onetime(p, k)
        elif name == "complete":
            self.pop(P)
            P["cogs"] -= 1
            self.complete_robot(p, k)
        elif name == "die_choice":
            self.pop(P)
            b = self.colour_die(k // 6)
            if b:
                self.gain(P, mk(col(b), k % 6 + 1))
        elif name == "recycle":
            rc = P["rc"][:P["nrc"]]
            i = rc.index(k + 1)
            P["held"] = k + 1
            for j, b in enumerate(rc):
                if j != i:
                    self.discard(b)
            P["rc"] = [0, 0, 0]
            P["nrc"] = 0
            # the placement goes behind the choices that alter dice queued behind the pick, before the others
            rest = self.queue(P)[1:]
            changes = [e for e in rest if e[0] in (PD_ADJUST, PD_SILAS, PD_REROLL)]
            others = [e for e in rest if e[0] not in (PD_ADJUST, PD_SILAS, PD_REROLL)]
            self.set_queue(P, changes + [(PD_RECYCLE_PLACE, 0)] + others)
        elif name == "skip":
            if head == PD_RECYCLE_PICK:
                self.discard_recycled(P)
            elif head == PD_RECYCLE_PLACE:
                self.discard(P["held"])
                P["held"] = 0
            elif head == PD_SILAS:
                P["silas"] = 0
            self.pop(P)
        elif name == "done":
            f["done"] |= 1 << p
            if f["done"] == (1 << self.n) - 1:
                self.end_turn()
            return
        self.settle(p)
