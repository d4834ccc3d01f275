"""An independent pure-Python referee of Smartphone, written from RULES.md: legal actions and the effect of
every action on the whole state (bookkeeping fields and PRNG draws included), so that test_reference.py can
check the engine field by field after every move.

It shares only the content and the action numbering (``SmartphoneGame._layout`` / ``build_options``) with the
engine; the rules are re-implemented here in plain Python over the ``unpack_state`` dictionary.

What each seat knows of the hands (RULES.md, "What each seat knows of a hand") is kept here as every seat's own
lower bound of every other hand (``self.bound[o][h]``), updated by the rules as stated there, next to the public
bound (``known``); the struct's ``private_known`` (each seat's bound minus the public one) and ``private_of`` are
derived from them when the fields are read.

The upper bounds likewise: the public one (``upper[h][t]``, h's PolluPlus and PolluMoins cards of type t together)
in the fields, and every seat's own (``self.ubound[o][h]``), from which the struct's ``private_upper`` (the public
bound minus the seat's) is derived.
"""

from __future__ import annotations

import copy
from typing import Any

from ...rng_model import SplitMix64 as Rng

NO = 0xFF
PH = {name: i for i, name in enumerate(("main", "pick", "lose", "depollute", "offer", "answer", "event_pick",
                                        "event_discard", "event_tax", "vote", "over"))}
EV_KINDS = ("none", "quiz_take", "collect_recycled", "trading", "discard_supplier", "new_mines", "malus_penalty",
            "neighbour_tax", "double_malus", "hoarding_limit", "recycling_duel", "recycling_tax", "no_depollution",
            "end_game")
REFRESH = ("vote", "first_player", "automatic", "off")
END = {"smartphone": 1, "end_event": 2, "malus_pile": 3, "events_exhausted": 4}
TRADING, NODEP = 1, 2
MALUS_ITEM = 32


class Reference:
    def __init__(self, game: Any, fields: dict[str, Any]) -> None:
        from robotcore.games.smartphone import MALUS_EFFECTS  # noqa: F401  (content names only)

        c = game.content
        p = game.params
        self.n = p["players"]
        self.harsh = p["harsh_malus"]
        self.refresh = p["market_refresh"]
        self.finish_round = p["finish_round"]
        self.recipes = c.recipes(p["screen_precious_metal"])
        self.points = [x.points for x in c.components]
        self.options = game._options
        self.layout = game._layout
        self.vis = [s.visible for s in c.suppliers]
        self.take = [s.take for s in c.suppliers]
        self.mtake = [s.malus for s in c.suppliers]
        self.deck_types = [[s.deck[t] > 0 for t in range(5)] for s in c.suppliers]
        self.nmalus = len(c.malus)
        self.fx = [m.effect for m in c.malus]
        self.arg = [m.engine_arg() for m in c.malus]
        self.top = [c.malus_names.index(x) for x in c.malus_top]
        self.events = game._events
        self.threshold = c.refresh_threshold
        self.cost = c.refresh_cost
        self.bonus = c.recycling_bonus
        self.f = copy.deepcopy(fields)
        self.rng = Rng(self.f["rng"])
        # bound[o][h][k]: the cards of kind k seat o is sure h holds (o != h); the struct keeps the excess over the
        # public bound for the 10 non-recycled kinds only (the only ones stolen)
        self.bound = [[[self.f["known"][h][k] + (self.f["private_known"][o][h][k] if k < 10 else 0)
                        for k in range(15)] for h in range(5)] for o in range(5)]
        # ubound[o][h][t]: at most how many non-recycled cards of type t seat o is sure h holds (o != h)
        self.ubound = [[[self.f["upper"][h][t] - self.f["private_upper"][o][h][t] for t in range(5)]
                        for h in range(5)] for o in range(5)]

    # -- ids ------------------------------------------------------------------------------------------------

    def id(self, family: str, k: int = 0) -> int:
        start, size = self.layout[family]
        assert 0 <= k < size
        return int(start + k)

    def decode(self, a: int) -> tuple[str, int]:
        for family, (start, size) in self.layout.items():
            if start <= a < start + size:
                return family, a - start
        raise AssertionError(a)

    def slot_id(self, sup: int, i: int) -> int:
        return self.id("take", sum(self.vis[:sup]) + i)

    def slot_of(self, k: int) -> tuple[int, int]:
        sup = 0
        while k >= self.vis[sup]:
            k -= self.vis[sup]
            sup += 1
        return sup, k

    # -- counts ---------------------------------------------------------------------------------------------

    def pile_size(self) -> int:
        return len(self.top) - self.f["top_next"] + sum(self.f["pile"][: self.nmalus])

    def deck_size(self, sup: int) -> int:
        return sum(self.f["deck"][sup * 5: sup * 5 + 5])

    def visible(self, sup: int) -> list[int]:
        return [i for i in range(self.vis[sup]) if self.f["market"][sup][i] != NO]

    def in_hand(self, p: int, sup: int) -> int:
        return sum(self.f["hand"][p][sup * 5: sup * 5 + 5])

    def losable(self, p: int) -> int:
        return sum(self.f["hand"][p][:10])

    def recycled(self, p: int) -> int:
        return sum(self.f["hand"][p][10:15]) + sum(self.f["laid"][p][10:15])

    def weight(self, p: int) -> int:
        return sum(n * (2 if self.harsh and self.fx[t] == "heavy" else 1)
                   for t, n in enumerate(self.f["malus"][p][: self.nmalus]))

    def sticky(self, t: int) -> bool:
        return self.harsh and self.fx[t] == "sticky"

    def turn_player(self) -> int:
        return (self.f["first"] + self.f["turns"]) % self.n

    def score(self, p: int) -> int:
        f = self.f
        pts = sum(self.points[c] for c in range(len(self.points)) if f["built"][p] >> c & 1)
        laid_r = [sum(f["laid"][q][10:15]) for q in range(self.n)]
        if max(laid_r) > 0 and laid_r[p] == max(laid_r):
            pts += self.bonus
        return pts - f["penalty"] * self.weight(p)

    def scores(self) -> list[int]:
        return [self.score(p) for p in range(self.n)]

    # -- legal actions --------------------------------------------------------------------------------------

    def actors(self) -> list[int]:
        return [] if self.f["phase"] == PH["over"] else [self.f["cur"]]

    def can_supply(self, p: int, sup: int) -> bool:
        if not self.visible(sup) and self.deck_size(sup) == 0:
            return False
        if self.mtake[sup] and self.pile_size() == 0:
            return False
        return not (self.f["block"][p] >> sup & 1)

    def ev_kind(self) -> str:
        return self.events[self.f["ev_cur"]].kind

    def ev_pickable(self, sup: int, i: int) -> bool:
        t = self.f["market"][sup][i]
        if t == NO:
            return False
        if self.ev_kind() == "collect_recycled":
            return ("MP", "MR", "MC", "TR", "AM")[t] in self.events[self.f["ev_cur"]].types
        return True

    def ev_picks(self) -> list[tuple[int, int]]:
        return [(s, i) for s in range(3) for i in range(self.vis[s]) if self.ev_pickable(s, i)]

    def legal(self, seat: int) -> list[int]:
        f = self.f
        ph = f["phase"]
        if ph == PH["over"] or seat != f["cur"]:
            return []
        out: list[int] = []
        hand = f["hand"][seat]
        if ph == PH["main"]:
            out += [self.id("supply", s) for s in range(3) if self.can_supply(seat, s)]
            for o, (c, counts) in enumerate(self.options):
                if not f["built"][seat] >> c & 1 and all(counts[k] <= hand[k] for k in range(15)):
                    out.append(self.id("build", o))
            if not f["flags"] & NODEP:
                out += [self.id("depollute", t) for t in range(self.nmalus)
                        if f["malus"][seat][t] and not self.sticky(t)]
            if not out or f["flags"] & NODEP:
                out.append(self.id("pass"))
            if f["flags"] & TRADING and not f["offered"] and (
                    self.losable(seat) or any(n and not self.sticky(t) for t, n in
                                              enumerate(f["malus"][seat][: self.nmalus]))):
                out += [self.id("offer", q) for q in range(self.n) if q != seat]
        elif ph == PH["pick"]:
            sup = f["pick_sup"]
            out += [self.slot_id(sup, i) for i in self.visible(sup)]
            if self.deck_size(sup):
                out.append(self.id("draw", sup))
        elif ph == PH["lose"]:
            kinds = [s * 5 + f["lose_type"] for s in (0, 1) if hand[s * 5 + f["lose_type"]]]
            out += [self.id("discard", k) for k in kinds] or [self.id("done")]
        elif ph == PH["depollute"]:
            out += [self.id("depollute", t) for t in range(self.nmalus) if f["malus"][seat][t] and not self.sticky(t)]
            out.append(self.id("stop"))
        elif ph == PH["offer"]:
            give = f["offer_give"][: f["offer_give_n"]]
            if len(give) < 2:
                out += [self.id("give", k) for k in range(10) if hand[k] > give.count(k)]
                out += [self.id("give_malus", t) for t in range(self.nmalus)
                        if f["malus"][seat][t] > give.count(MALUS_ITEM + t) and not self.sticky(t)]
            if f["offer_ask_n"] < 2:
                out += [self.id("ask", k) for k in range(10)]
            if f["offer_give_n"] and f["offer_ask_n"]:
                out.append(self.id("send"))
            out.append(self.id("cancel"))
        elif ph == PH["answer"]:
            ask = f["offer_ask"][: f["offer_ask_n"]]
            if all(hand[k] >= ask.count(k) for k in ask):
                out.append(self.id("accept"))
            out.append(self.id("refuse"))
        elif ph == PH["event_pick"]:
            out += [self.slot_id(s, i) for s, i in self.ev_picks()]
            if not out:                                  # every pick is taken (card 5 included)
                out.append(self.id("decline"))
        elif ph == PH["event_discard"]:
            ev = self.events[f["ev_cur"]]
            if ev.kind == "discard_supplier":
                sup = ("PolluPlus", "PolluMoins", "Recyclage").index(ev.supplier)
                out += [self.id("discard", sup * 5 + t) for t in range(5) if hand[sup * 5 + t]]
            elif ev.kind == "hoarding_limit":
                over = [t for t in range(5) if hand[t] + hand[5 + t] > ev.limit]
                kinds = sorted(s * 5 + t for t in over for s in (0, 1) if hand[s * 5 + t])
                out += [self.id("discard", k) for k in kinds] or [self.id("done")]
            else:
                out += [self.id("discard", k) for k in range(10) if hand[k]]
                if f["ev_left"] == ev.amount and self.pile_size():
                    out.append(self.id("take_malus"))
        elif ph == PH["event_tax"]:
            if self.losable(f["offer_to"]):
                out.append(self.id("tax_take"))
            out += [self.id("give_malus", t) for t in range(self.nmalus) if f["malus"][seat][t]]
        elif ph == PH["vote"]:
            out += [self.id("vote_yes"), self.id("vote_no")]
        return sorted(out)

    # -- moving cards -----------------------------------------------------------------------------------------

    def others(self, p: int) -> list[int]:
        return [o for o in range(self.n) if o != p]

    def lose(self, p: int, k: int, n: int = 1) -> None:
        """n cards of kind k leave p's hand in public: every bound of the hand drops by n (not below 0)."""
        self.f["hand"][p][k] -= n
        self.f["known"][p][k] = max(0, self.f["known"][p][k] - n)
        for o in self.others(p):
            self.bound[o][p][k] = max(0, self.bound[o][p][k] - n)
        if k < 10:                                  # the upper bounds of its type drop with them
            self.f["upper"][p][k % 5] -= n
            for o in self.others(p):
                self.ubound[o][p][k % 5] -= n

    def gain_seen(self, p: int, k: int) -> None:
        """A card enters p's hand face up: every bound of the hand rises by one."""
        self.f["hand"][p][k] += 1
        self.f["known"][p][k] += 1
        for o in self.others(p):
            self.bound[o][p][k] += 1
        if k < 10:
            self.raise_upper(p, k % 5)

    def gain_unseen(self, p: int, seers: tuple[int, ...] = (), t: int = -1) -> None:
        """A non-recycled card of a type nobody but ``seers`` saw (type t) enters p's hand: every upper bound of
        the hand rises by one, but a seer's of types other than t."""
        for u in range(5):
            self.raise_upper(p, u, [o for o in self.others(p) if o not in seers or u == t])

    def raise_upper(self, p: int, t: int, seats: list[int] | None = None) -> None:
        """Every upper bound of p's type t rises by one (``seats``' own: by default every other seat's). A rise
        saturates at 0xFFFF (no hand comes near: a bound that high stays true), where no bound moves."""
        if self.f["upper"][p][t] == 0xFFFF:
            return
        self.f["upper"][p][t] += 1
        for o in self.others(p) if seats is None else seats:
            self.ubound[o][p][t] += 1

    def cap_upper(self, p: int, t: int, limit: int) -> None:
        """p showed it holds at most ``limit`` non-recycled cards of type t: every upper bound is at most that."""
        self.f["upper"][p][t] = min(self.f["upper"][p][t], limit)
        for o in self.others(p):
            self.ubound[o][p][t] = min(self.ubound[o][p][t], limit)

    def show(self, p: int, k: int, count: int) -> None:
        """An offer shows ``count`` cards of kind k in p's hand: every bound of the hand is at least that."""
        self.f["known"][p][k] = max(self.f["known"][p][k], count)
        for o in self.others(p):
            self.bound[o][p][k] = max(self.bound[o][p][k], count)

    def draw_from_deck(self, sup: int) -> int:
        r = self.rng.below(self.deck_size(sup))
        for t in range(5):
            if r < self.f["deck"][sup * 5 + t]:
                self.f["deck"][sup * 5 + t] -= 1
                return t
            r -= self.f["deck"][sup * 5 + t]
        raise AssertionError

    def draw_malus(self) -> int:
        f = self.f
        if f["top_next"] < len(self.top):
            f["top_next"] += 1
            return self.top[f["top_next"] - 1]
        r = self.rng.below(sum(f["pile"][: self.nmalus]))
        for t in range(self.nmalus):
            if r < f["pile"][t]:
                f["pile"][t] -= 1
                return t
            r -= f["pile"][t]
        raise AssertionError

    def refill(self) -> None:
        for sup in range(3):
            for i in range(self.vis[sup]):
                if self.f["market"][sup][i] == NO and self.deck_size(sup):
                    self.f["market"][sup][i] = self.draw_from_deck(sup)

    def steal(self, thief: int, victim: int) -> None:
        total = self.losable(victim)
        if not total:
            return
        r = self.rng.below(total)
        for k in range(10):
            if r < self.f["hand"][victim][k]:
                break
            r -= self.f["hand"][victim][k]
        # everyone sees the card's back (its supplier); the thief and the victim see the card
        self.f["hand"][victim][k] -= 1
        self.f["hand"][thief][k] += 1
        kinds = range(k // 5 * 5, k // 5 * 5 + 5)
        for j in kinds:
            self.f["known"][victim][j] = max(0, self.f["known"][victim][j] - 1)
        for o in self.others(victim):
            for j in kinds:
                if o != thief or j == k:
                    self.bound[o][victim][j] = max(0, self.bound[o][victim][j] - 1)
        self.bound[victim][thief][k] += 1
        # upper bounds: the victim's public ones stay (a card of unknown type left); the thief saw its type
        self.ubound[thief][victim][k % 5] -= 1
        self.gain_unseen(thief, (victim,), k % 5)

    def market_out(self, sup: int) -> None:
        for i in range(self.vis[sup]):
            t = self.f["market"][sup][i]
            if t != NO:
                self.f["out"][sup * 5 + t] += 1
                self.f["market"][sup][i] = NO

    # -- flow ---------------------------------------------------------------------------------------------------

    def over(self, reason: int) -> None:
        f = self.f
        if f["end_reason"] == 0:
            f["end_reason"] = reason
        f["phase"] = PH["over"]
        f["cur"] = 0
        f["ev_cur"] = NO

    def trigger(self, reason: int) -> None:
        if not self.f["end_trig"]:
            self.f["end_trig"] = 1
            self.f["end_reason"] = reason

    def new_round(self) -> None:
        f = self.f
        f["round"] += 1
        f["first"] = (f["first"] + 1) % self.n
        f["cur"] = f["first"]
        f["turns"] = 0
        f["refreshed"] = 0
        f["phase"] = PH["main"]
        f["ev_cur"] = NO
        f["ev_pos"] = f["ev_n"] = f["ev_left"] = 0

    def set_order(self, seats: list[int]) -> None:
        self.f["order"] = seats + [0] * (5 - len(seats))
        self.f["ev_n"] = len(seats)

    def star_key(self, p: int) -> tuple[int, int, int]:
        return (-self.recycled(p), self.weight(p), self.f["quiz"][p])

    def end_event(self) -> None:
        f = self.f
        if f["ev_cur"] != NO and self.ev_kind() in ("quiz_take", "collect_recycled", "new_mines"):
            self.refill()
        f["ev_cur"] = NO
        f["ev_pos"] = f["ev_n"] = f["ev_left"] = 0
        if self.pile_size() == 0:
            self.over(END["malus_pile"])
            return
        counts = [0] * 5
        for sup in range(3):
            for i in self.visible(sup):
                counts[f["market"][sup][i]] += 1
        if (self.refresh != "off" and not f["refreshed"] and self.pile_size() >= self.cost
                and max(counts) >= self.threshold):
            if self.refresh == "automatic":
                self.do_refresh(None)
                return
            start = (f["first"] + 1) % self.n
            self.set_order([(start + i) % self.n for i in range(self.n)])
            if self.refresh == "first_player":
                f["ev_n"] = 1
            f["ev_pos"] = 0
            f["cur"] = f["order"][0]
            f["phase"] = PH["vote"]
            return
        self.new_round()

    def do_refresh(self, payer: int | None) -> None:
        for sup in range(3):
            self.market_out(sup)
        for _ in range(self.cost):
            t = self.draw_malus()
            if payer is None:
                self.f["mout"][t] += 1
            else:
                self.f["malus"][payer][t] += 1
        self.refill()
        self.f["refreshed"] = 1
        if self.pile_size() == 0:
            self.over(END["malus_pile"])
        else:
            self.new_round()

    def asks(self, p: int) -> bool:
        f = self.f
        ev = self.events[f["ev_cur"]]
        if ev.kind == "quiz_take":
            f["ev_left"] = ev.amount
            return bool(self.ev_picks())
        if ev.kind == "collect_recycled":
            f["ev_left"] = 1
            return self.recycled(p) > 0 and bool(self.ev_picks())
        if ev.kind == "new_mines":
            f["ev_left"] = 1
            return bool(self.ev_picks()) and self.pile_size() > 0
        if ev.kind == "discard_supplier":
            sup = ("PolluPlus", "PolluMoins", "Recyclage").index(ev.supplier)
            f["ev_left"] = min(ev.amount, self.in_hand(p, sup))
            return f["ev_left"] > 0
        if ev.kind == "hoarding_limit":
            f["ev_left"] = 0
            return True
        f["ev_left"] = ev.amount                                   # recycling tax
        return self.recycled(p) < ev.limit and (self.losable(p) > 0 or self.pile_size() > 0)

    def visit(self) -> None:
        f = self.f
        while f["ev_pos"] < f["ev_n"]:
            p = f["order"][f["ev_pos"]]
            if self.asks(p):
                f["cur"] = p
                f["phase"] = PH["event_pick"] if self.ev_kind() in ("quiz_take", "collect_recycled", "new_mines") \
                    else PH["event_discard"]
                return
            f["ev_pos"] += 1
        self.end_event()

    def next_visit(self) -> None:
        self.f["ev_pos"] += 1
        self.visit()

    def quiz(self) -> None:
        q = list(range(self.n))
        for i in range(self.n - 1, 0, -1):
            j = self.rng.below(i + 1)
            q[i], q[j] = q[j], q[i]
        self.f["quiz"] = q + [0] * (5 - self.n)

    def champion(self, value: Any) -> int:
        best, bv = -1, 0
        for p in range(self.n):
            v = value(p)
            if v > bv or (v == bv and v > 0 and self.star_key(p) < self.star_key(best)):
                best, bv = p, v
        return best

    def draw_event(self) -> None:
        f = self.f
        ev = self.events[f["ev_cur"]]
        if ev.star or ev.kind == "recycling_duel":
            self.quiz()
        f["ev_pos"] = 0
        kind = ev.kind
        if kind == "quiz_take":
            order = sorted(range(self.n), key=lambda p: f["quiz"][p])     # the closest answer takes
            self.set_order(order)
            f["ev_n"] = 1
            self.visit()
        elif kind in ("collect_recycled", "discard_supplier", "hoarding_limit", "recycling_tax"):
            self.set_order([(f["first"] + i) % self.n for i in range(self.n)])
            self.visit()
        elif kind == "new_mines":
            self.set_order(sorted(range(self.n), key=lambda p: (self.weight(p), *self.star_key(p))))
            self.visit()
        elif kind == "trading":
            f["flags"] |= TRADING
            self.end_event()
        elif kind == "malus_penalty":
            f["penalty"] = ev.amount
            self.end_event()
        elif kind == "double_malus":
            f["mult"] = ev.amount
            self.end_event()
        elif kind == "no_depollution":
            f["flags"] |= NODEP
            self.end_event()
        elif kind == "neighbour_tax":
            w = [self.weight(p) for p in range(self.n)]
            for i in range(self.n):
                p = (f["first"] + i) % self.n
                left = (p + 1) % self.n
                if w[left] > w[p]:
                    self.steal(p, left)
            self.end_event()
        elif kind == "recycling_duel":
            champ = self.champion(self.recycled)
            pollu = [self.in_hand(p, 0) + sum(f["laid"][p][0:5]) for p in range(self.n)]
            target = self.champion(lambda p: pollu[p])
            if champ >= 0 and target == champ:
                # nobody taxes themself: another player with as many PolluPlus cards is the target
                others = [p for p in range(self.n) if p != champ and pollu[p] == pollu[champ]]
                if others:
                    target = min(others, key=self.star_key)
            if champ >= 0 and target >= 0 and champ != target and (
                    self.losable(target) or any(f["malus"][champ][: self.nmalus])):
                f["order"][0], f["order"][1] = champ, target
                f["ev_n"] = 2
                f["offer_to"] = target
                f["cur"] = champ
                f["phase"] = PH["event_tax"]
            else:
                self.end_event()
        elif kind == "end_game":
            self.over(END["end_event"])
        else:
            self.end_event()

    def end_round(self) -> None:
        f = self.f
        f["flags"] &= ~NODEP
        if f["end_trig"]:
            self.over(f["end_reason"])
        elif f["ev_next"] >= len(self.events):
            self.over(END["events_exhausted"])
        else:
            f["ev_cur"] = f["ev_next"]
            f["ev_next"] += 1
            self.draw_event()

    def end_turn(self) -> None:
        f = self.f
        p = self.turn_player()
        self.refill()
        f["block"][p] = (f["block"][p] >> 4) & 7
        f["offered"] = f["dep_n"] = f["picks_left"] = f["malus_left"] = f["pick_sup"] = f["lose_type"] = 0
        f["turns"] += 1
        if f["end_trig"] and not self.finish_round:
            self.over(f["end_reason"])
        elif f["turns"] >= self.n:
            self.end_round()
        else:
            f["cur"] = self.turn_player()
            f["phase"] = PH["main"]

    def draw_supply_malus(self) -> None:
        f = self.f
        p = f["cur"]
        while f["malus_left"] and self.pile_size():
            t = self.draw_malus()
            f["malus"][p][t] += 1
            f["malus_left"] -= 1
            if self.harsh:
                if self.fx[t] == "wipe":
                    self.market_out(self.arg[t])
                elif self.fx[t] == "block":
                    f["block"][p] |= 1 << (4 + self.arg[t])
                elif self.fx[t] == "lose":
                    f["lose_type"] = self.arg[t]
                    f["phase"] = PH["lose"]
                    return
        f["malus_left"] = 0
        if self.pile_size() == 0:
            self.trigger(END["malus_pile"])
        self.end_turn()

    def clear_offer(self) -> None:
        f = self.f
        f["offer_give"] = [0, 0]
        f["offer_ask"] = [0, 0]
        f["offer_give_n"] = f["offer_ask_n"] = f["offer_to"] = 0

    # -- apply --------------------------------------------------------------------------------------------------

    def apply(self, seat: int, action: int) -> None:
        assert action in self.legal(seat)
        f = self.f
        family, k = self.decode(action)
        p = f["cur"]
        ph = f["phase"]
        if ph == PH["main"]:
            if family == "supply":
                f["pick_sup"] = k
                f["picks_left"] = self.take[k]
                f["phase"] = PH["pick"]
            elif family == "build":
                c, counts = self.options[k]
                for kind, n in enumerate(counts):
                    if n:
                        self.lose(p, kind, n)
                        f["laid"][p][kind] += n
                f["built"][p] |= 1 << c
                if f["built"][p] == (1 << len(self.points)) - 1:
                    self.trigger(END["smartphone"])
                self.end_turn()
            elif family == "depollute":
                f["malus"][p][k] -= 1
                f["mout"][k] += 1
                f["dep_n"] = 1
                if any(f["malus"][p][t] and not self.sticky(t) for t in range(self.nmalus)):
                    f["phase"] = PH["depollute"]
                else:
                    self.end_turn()
            elif family == "pass":
                self.end_turn()
            else:
                self.clear_offer()
                f["offer_to"] = k
                f["offered"] = 1
                f["phase"] = PH["offer"]
        elif ph == PH["pick"]:
            sup = f["pick_sup"]
            if family == "draw":
                f["hand"][p][sup * 5 + self.draw_from_deck(sup)] += 1
                if sup < 2:
                    self.gain_unseen(p)
            else:
                s2, i = self.slot_of(k)
                self.gain_seen(p, s2 * 5 + f["market"][s2][i])
                f["market"][s2][i] = NO
            f["picks_left"] -= 1
            if f["picks_left"] == 0 or (not self.visible(sup) and not self.deck_size(sup)):
                f["picks_left"] = 0
                f["malus_left"] = self.mtake[sup] * f["mult"]
                self.draw_supply_malus()
        elif ph == PH["lose"]:
            if family == "discard":
                self.lose(p, k)
                f["out"][k] += 1
            else:                                   # done: no non-recycled card of the type
                self.cap_upper(p, f["lose_type"], 0)
            f["lose_type"] = 0
            self.draw_supply_malus()
        elif ph == PH["depollute"]:
            if family == "depollute":
                f["malus"][p][k] -= 1
                f["mout"][k] += 1
                f["dep_n"] = 2
            self.end_turn()
        elif ph == PH["offer"]:
            if family == "cancel":
                self.clear_offer()
                f["phase"] = PH["main"]
            elif family == "send":
                f["cur"] = f["offer_to"]
                f["phase"] = PH["answer"]
            elif family == "ask":
                f["offer_ask"][f["offer_ask_n"]] = k
                f["offer_ask_n"] += 1
            elif family == "give":
                f["offer_give"][f["offer_give_n"]] = k
                f["offer_give_n"] += 1
                self.show(p, k, f["offer_give"][: f["offer_give_n"]].count(k))
            else:
                f["offer_give"][f["offer_give_n"]] = MALUS_ITEM + k
                f["offer_give_n"] += 1
        elif ph == PH["answer"]:
            if family == "accept":
                giver, taker = self.turn_player(), f["offer_to"]
                for code in f["offer_give"][: f["offer_give_n"]]:
                    if code >= MALUS_ITEM:
                        f["malus"][giver][code - MALUS_ITEM] -= 1
                        f["malus"][taker][code - MALUS_ITEM] += 1
                    else:
                        self.lose(giver, code)
                        self.gain_seen(taker, code)
                for code in f["offer_ask"][: f["offer_ask_n"]]:
                    self.lose(taker, code)
                    self.gain_seen(giver, code)
            self.clear_offer()
            f["cur"] = self.turn_player()
            f["phase"] = PH["main"]
        elif ph == PH["event_pick"]:
            if family == "decline":
                self.next_visit()
                return
            s2, i = self.slot_of(k)
            self.gain_seen(p, s2 * 5 + f["market"][s2][i])
            f["market"][s2][i] = NO
            ev = self.events[f["ev_cur"]]
            if ev.kind == "new_mines":
                for _ in range(ev.amount):
                    if self.pile_size():
                        f["mout"][self.draw_malus()] += 1
                self.next_visit()
                return
            f["ev_left"] -= 1
            if f["ev_left"] > 0 and self.ev_picks():
                return
            self.next_visit()
        elif ph == PH["event_discard"]:
            ev = self.events[f["ev_cur"]]
            if family == "done":                    # event 9: at most the limit of each type is left
                for t in range(5):
                    self.cap_upper(p, t, ev.limit)
                self.next_visit()
                return
            if family == "take_malus":
                f["malus"][p][self.draw_malus()] += 1
                self.next_visit()
                return
            self.lose(p, k)
            f["out"][k] += 1
            if ev.kind == "hoarding_limit":
                return
            f["ev_left"] -= 1
            sup = ("PolluPlus", "PolluMoins", "Recyclage").index(ev.supplier) if ev.supplier else 0
            if f["ev_left"] == 0:
                self.next_visit()
            elif ev.kind == "recycling_tax" and self.losable(p) == 0:
                self.next_visit()
            elif ev.kind == "discard_supplier" and self.in_hand(p, sup) == 0:
                self.next_visit()
        elif ph == PH["event_tax"]:
            if family == "tax_take":
                self.steal(p, f["offer_to"])
            else:
                f["malus"][p][k] -= 1
                f["malus"][f["offer_to"]][k] += 1
            f["offer_to"] = 0
            self.end_event()
        elif ph == PH["vote"]:
            if family == "vote_no":
                f["ev_pos"] = f["ev_n"] = 0
                self.new_round()
                return
            f["ev_pos"] += 1
            if f["ev_pos"] < f["ev_n"]:
                f["cur"] = f["order"][f["ev_pos"]]
                return
            payer = f["cur"] if self.refresh == "first_player" else None
            f["ev_pos"] = f["ev_n"] = 0
            self.do_refresh(payer)

    def fields(self) -> dict[str, Any]:
        out = copy.deepcopy(self.f)
        out["rng"] = self.rng.state
        known = self.f["known"]
        excess = [[[self.bound[o][h][k] - known[h][k] if o != h and o < self.n and h < self.n else 0
                    for k in range(15)] for h in range(5)] for o in range(5)]
        assert not any(any(row[10:]) for rows in excess for row in rows), "private knowledge of a recycled card"
        out["private_known"] = [[row[:10] for row in rows] for rows in excess]
        out["private_of"] = sum(1 << h for h in range(5) if any(any(out["private_known"][o][h]) for o in range(5)))
        upper = self.f["upper"]
        out["private_upper"] = [[[upper[h][t] - self.ubound[o][h][t] if o != h and o < self.n and h < self.n else 0
                                  for t in range(5)] for h in range(5)] for o in range(5)]
        for h in range(self.n):                     # every bound is true: the hand holds no more
            for t in range(5):
                held = self.f["hand"][h][t] + self.f["hand"][h][5 + t]
                assert upper[h][t] >= held and all(self.ubound[o][h][t] >= held for o in self.others(h))
        return out
