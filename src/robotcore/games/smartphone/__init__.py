"""Smartphone (seed 004; the original is PhoneImpact by the Inria Learning Lab): each player builds a smartphone
(touch screen, battery, shell, motherboard) from resource cards bought from three suppliers that trade speed for
pollution, while an event after each round changes the rules.

>>> import robotcore
>>> state = robotcore.make("smartphone", seed=1)
>>> state.actors
[0]
>>> state.view(0)["market"]["Recyclage"]
['AM']
>>> state.apply_str("supply PolluPlus") == state.game.parse_action("supply PolluPlus")
True
>>> state.legal_action_strs()
['take P1', 'take P2', 'take P3', 'draw P']

Where things are: rules in ``engine.pyx`` (move generation is ``sp_legal_mask``), what a seat sees in
``view.pyx``, content (components, decks, malus cards, events, quiz) in ``data.py``, the rules as implemented in
``RULES.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from itertools import combinations_with_replacement, product
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from robotcore.core.game import Game
from robotcore.core.state import GameCore, State
from robotcore.errors import InvalidActionError, InvalidParameterError
from robotcore.games.smartphone import engine, view
from robotcore.games.smartphone.data import (
    EVENT_KINDS,
    MALUS_EFFECTS,
    RECYCLING,
    SUPPLIER_CODES,
    SUPPLIERS,
    TYPE_NAMES,
    TYPES,
    Component,
    Event,
    MalusCard,
    Quiz,
    SmartphoneContent,
    Supplier,
)
from robotcore.types import ParamSpec, View

__all__ = ["SmartphoneGame", "SmartphoneContent", "Component", "Supplier", "MalusCard", "Event", "Quiz",
           "KIND_NAMES", "REFRESH_MODES", "LENGTHS"]

#: Resource card kinds (supplier code, type), in the engine's order.
KIND_NAMES = tuple(f"{SUPPLIER_CODES[k // 5]}-{TYPES[k % 5]}" for k in range(15))
#: Values of the ``market_refresh`` parameter, in the engine's order (state.pxd ``RF_*``).
REFRESH_MODES = ("vote", "first_player", "automatic", "off")
#: Values of the ``length`` parameter: the 45-minute game (every event) and the 20-minute one.
LENGTHS = ("45", "20")
#: The greedy heuristic's weights (``evaluate``): a malus card, and a card still to pick during one's supply.
MALUS_COST = 0.4
CARD_VALUE = 0.6
_SIMPLE = {"stop": "stop", "pass": "pass", "decline": "decline", "take_malus": "take malus", "tax_take": "tax take",
           "send": "send", "cancel": "cancel", "accept": "accept", "refuse": "refuse", "vote_yes": "vote yes",
           "vote_no": "vote no", "done": "done"}


def build_ways(content: SmartphoneContent, later: bool) -> list[list[tuple[int, list[tuple[int, int, int]]]]]:
    """Per component, per type of its recipe: the ways to take that type's cards from the suppliers whose deck
    holds it, as cards per supplier (PolluPlus, PolluMoins, Recyclage)."""
    out: list[list[tuple[int, list[tuple[int, int, int]]]]] = []
    for c, recipe in enumerate(content.recipes(later)):
        per_type = []
        for t, need in enumerate(recipe):
            if not need:
                continue
            allowed = [s for s in range(3) if content.suppliers[s].deck[t] > 0]
            if not allowed:
                raise InvalidParameterError(f"component {content.components[c].name} needs {TYPES[t]}, which no "
                                            "deck holds")
            ways = []
            for combo in combinations_with_replacement(allowed, need):
                ways.append((combo.count(0), combo.count(1), combo.count(2)))
            per_type.append((t, ways))
        out.append(per_type)
    return out


def build_options(content: SmartphoneContent, later: bool) -> list[tuple[int, tuple[int, ...]]]:
    """Every way to build each component: which supplier each card of its recipe comes from (only suppliers
    whose deck holds that type), as (component, 15 counts per kind), grouped by component; within a component
    the product of its types' ways, the first type varying slowest."""
    out: list[tuple[int, tuple[int, ...]]] = []
    for c, per_type in enumerate(build_ways(content, later)):
        for choice in product(*[[(t, w) for w in ways] for t, ways in per_type]):
            counts = [0] * 15
            for t, way in choice:
                for s in range(3):
                    counts[s * 5 + t] += way[s]
            out.append((c, tuple(counts)))
    if len(out) > 4096:
        raise InvalidParameterError(f"the recipes give {len(out)} build options; at most 4096")
    return out


class SmartphoneGame(Game):
    """Smartphone under given parameters. Action ids are dense and fixed for a content (RULES.md, "Actions")."""

    name = "smartphone"
    title = "Smartphone"
    min_players = 2
    max_players = 5
    content_type = SmartphoneContent
    view_module: ClassVar[ModuleType] = view
    param_specs = (
        ParamSpec("players", int, 4, "number of seats: 3-5 as in the original, 2 an untested extrapolation",
                  min=2, max=5),
        ParamSpec("length", str, "45", "'45': the 45-minute game with every event; '20': the 20-minute game "
                  "(events 1, 5, 6, 7 and 13 only)", choices=LENGTHS),
        ParamSpec("screen_precious_metal", bool, False,
                  "the 2025 board: the touch screen also needs a precious metal"),
        ParamSpec("harsh_malus", bool, False,
                  "each malus card has its own effect (research section 4); default: malus count only"),
        ParamSpec("market_refresh", str, "vote",
                  "when 4 identical resource cards lie face up after an event: 'vote' (the players may replace "
                  "all face-up cards, unanimously, 3 malus going from the pile out of the game), 'first_player' "
                  "(the round's first player decides and takes the 3 malus), 'automatic', 'off'",
                  choices=REFRESH_MODES),
        ParamSpec("finish_round", bool, True,
                  "a completed smartphone or an empty malus pile ends the game after the round (as the later rules "
                  "say); False: at the end of that turn"),
        ParamSpec("content", SmartphoneContent, None,
                  "replaceable content: components, suppliers, malus cards, events, quiz"),
    )
    #: the conformance suite runs each: every player count, both lengths, every parameter value at least once
    #: (combined, to keep the suite's time in bounds)
    variants = (
        {"players": 2, "harsh_malus": True},
        {"players": 3, "length": "20", "market_refresh": "first_player"},
        {"players": 5, "market_refresh": "automatic", "screen_precious_metal": True},
        {"players": 5, "length": "20", "harsh_malus": True},
        {"length": "20"},
        {"market_refresh": "off", "finish_round": False},
    )

    def _make_core(self) -> GameCore:
        content = self.content
        assert isinstance(content, SmartphoneContent)
        players = self.params["players"]
        self._events = content.event_sequence(self.params["length"] == "20")
        self.event_numbers = tuple(e.number for e in self._events)
        self._options = build_options(content, self.params["screen_precious_metal"])
        vis = tuple(s.visible for s in content.suppliers)
        layout = engine.action_layout(len(self._options), len(content.malus), vis, players)
        self._layout: dict[str, tuple[int, int]] = {k: v for k, v in layout.items() if k != "num_actions"}
        self._num_actions = int(layout["num_actions"])
        mindex = {m.name: i for i, m in enumerate(content.malus)}
        top, rest = content.malus_pile(players)
        pile = [0] * len(content.malus)
        for name in rest:
            pile[mindex[name]] += 1
        self._total_cards = sum(sum(s.deck) for s in content.suppliers)
        self._strings, self._dicts = self._notation(content)
        self._by_str = {s.lower(): a for a, s in enumerate(self._strings)}
        self._by_dict = {json.dumps(d, sort_keys=True): a for a, d in enumerate(self._dicts)}
        return engine.make_core(
            players,
            [list(r) for r in content.recipes(self.params["screen_precious_metal"])],
            [c.points for c in content.components],
            [(c, list(counts)) for c, counts in self._options],
            [[(t, [list(w) for w in ways]) for t, ways in per_type]
             for per_type in build_ways(content, self.params["screen_precious_metal"])],
            [list(s.deck) for s in content.suppliers],
            vis,
            tuple(s.take for s in content.suppliers),
            tuple(s.malus for s in content.suppliers),
            [MALUS_EFFECTS.index(m.effect) for m in content.malus],
            [m.engine_arg() for m in content.malus],
            [mindex[n] for n in top],
            pile,
            [list(e.engine_row()) for e in self._events],
            self.params["harsh_malus"],
            REFRESH_MODES.index(self.params["market_refresh"]),
            self.params["finish_round"],
            content.refresh_threshold,
            content.refresh_cost,
            content.recycling_bonus,
        )

    @property
    def max_game_length(self) -> int:
        """Rounds are at most one more than the events of the sequence (one is drawn after each round; the game
        ends when none is left). A turn is at most 7 trade steps (offer, 4 items, send, answer), the action, 4
        picks, a loss per malus drawn (4 x 9 at most) and a second depollution; an event asks each player at most
        10 things (9 cards to take or discard and an answer), plus the vote; event 9's discards are bounded by
        the cards."""
        n = self.num_players
        rounds = len(self._events) + 1
        return rounds * n * (7 + 1 + 4 + 36 + 1) + len(self._events) * (n * 10 + n) + self._total_cards

    @property
    def observation_shape(self) -> tuple[int, ...]:
        content = self.content
        assert isinstance(content, SmartphoneContent)
        return (int(view.observation_size(self.num_players, len(content.components), len(content.malus),
                                          len(self._events))),)

    # -- notation ---------------------------------------------------------------------------------------------

    def _notation(self, content: SmartphoneContent) -> tuple[list[str], list[dict[str, Any]]]:
        strings: list[str] = []
        dicts: list[dict[str, Any]] = []
        cnames = content.component_names
        mnames = content.malus_names
        for family, (_start, size) in sorted(self._layout.items(), key=lambda kv: kv[1][0]):
            for k in range(size):
                if family == "supply":
                    strings.append(f"supply {SUPPLIERS[k]}")
                    dicts.append({"type": "supply", "supplier": SUPPLIERS[k]})
                elif family == "build":
                    comp, counts = self._options[k]
                    cards = {}
                    for t in range(5):
                        codes = "".join(SUPPLIER_CODES[s] * counts[s * 5 + t] for s in range(3))
                        if codes:
                            cards[TYPES[t]] = codes
                    strings.append(f"build {cnames[comp]} " + " ".join(f"{t}:{c}" for t, c in cards.items()))
                    dicts.append({"type": "build", "component": cnames[comp], "cards": cards})
                elif family in ("depollute", "give_malus"):
                    strings.append(f"{family.split('_')[0]} {mnames[k]}")
                    dicts.append({"type": family, "malus": mnames[k]})
                elif family == "take":
                    sup, slot = 0, k
                    while slot >= content.suppliers[sup].visible:
                        slot -= content.suppliers[sup].visible
                        sup += 1
                    strings.append(f"take {SUPPLIER_CODES[sup]}{slot + 1}")
                    dicts.append({"type": "take", "supplier": SUPPLIERS[sup], "slot": slot + 1})
                elif family == "draw":
                    strings.append(f"draw {SUPPLIER_CODES[k]}")
                    dicts.append({"type": "draw", "supplier": SUPPLIERS[k]})
                elif family in ("discard", "give", "ask"):
                    strings.append(f"{family} {KIND_NAMES[k]}")
                    dicts.append({"type": family, "card": KIND_NAMES[k]})
                elif family == "offer":
                    strings.append(f"offer {k}")
                    dicts.append({"type": "offer", "seat": k})
                else:
                    strings.append(_SIMPLE[family])
                    dicts.append({"type": family})
        assert len(strings) == self._num_actions
        return strings, dicts

    def action_to_str(self, action: int) -> str:
        return self._strings[self.check_action_id(action)]

    def action_to_dict(self, action: int) -> dict[str, Any]:
        d = self._dicts[self.check_action_id(action)]
        out: dict[str, Any] = json.loads(json.dumps(d))        # a fresh copy
        return out

    def parse_action(self, text: str) -> int:
        """The ``action_to_str`` notation, case-insensitive: ``supply PolluPlus``, ``take P2``, ``draw M``,
        ``build shell MR:P MC:M AM:PPR``, ``depollute M06``, ``discard P-MR``, ``offer 2``, ``vote yes``..."""
        if not isinstance(text, str):
            raise InvalidActionError(f"a Smartphone action is text like 'supply PolluPlus', got {type(text).__name__}")
        key = " ".join(text.split()).lower()
        try:
            return self._by_str[key]
        except KeyError:
            raise InvalidActionError(f"not a Smartphone action: {text!r}") from None

    def action_from_dict(self, data: Mapping[str, Any]) -> int:
        try:
            if not isinstance(data, Mapping):
                raise TypeError
            key = json.dumps(dict(data), sort_keys=True)
            return self._by_dict[key]
        except (KeyError, TypeError, ValueError):
            raise InvalidActionError(f"not a Smartphone action: {data!r}") from None

    # -- information ------------------------------------------------------------------------------------------

    def scores_from_view(self, view: View) -> list[int]:
        """Component points, +bonus for the most recycled cards laid (all tied, when at least one), minus the
        malus penalty (event 6) per malus weight."""
        content = self.content
        assert isinstance(content, SmartphoneContent)
        points = {c.name: c.points for c in content.components}
        players = view["players"]
        best = max(p["recycled_laid"] for p in players)
        penalty = view["rules"]["malus_penalty"]
        return [sum(points[c] for c in p["built"])
                + (content.recycling_bonus if best > 0 and p["recycled_laid"] == best else 0)
                - penalty * p["malus_weight"] for p in players]

    def score_parts(self, state: State) -> list[dict[str, int]]:
        """Per seat: component points, recycling bonus and malus penalty."""
        out: list[dict[str, int]] = engine.score_parts(self._core, np.frombuffer(self.own(state).state_bytes(), np.uint8))
        return out

    def glossary(self) -> dict[str, dict[str, str]]:
        """What the names a view shows stand for, from this game's content: each component (its title, points
        and recipe, the 2025 board's too where it differs), malus card (its category, text and harsh effect),
        supplier (its text, what a supply takes, its face-up cards and deck), resource kind (``P-MR``: the type
        from that supplier, for the kinds its deck holds) and resource type (``MR``: which decks hold it, which
        components need it)."""
        content = self.content
        assert isinstance(content, SmartphoneContent)
        later = bool(self.params["screen_precious_metal"])
        harsh = bool(self.params["harsh_malus"])

        def cards(counts: tuple[int, ...]) -> str:               # a recipe: "MR MC AM AM AM"
            return " ".join(" ".join([TYPES[t]] * n) for t, n in enumerate(counts) if n)

        def deck(counts: tuple[int, ...]) -> str:                # a deck: "3 MP, 16 MR, 26 MC, 8 TR, 22 AM"
            return ", ".join(f"{n} {TYPES[t]}" for t, n in enumerate(counts) if n) or "empty"

        def one_line(text: str) -> str:
            return " ".join(text.split())

        def effect(m: MalusCard) -> str:                        # its harsh effect, or ""
            arg = m.arg
            return {"heavy": "counts as 2 malus",
                    "sticky": "cannot be depolluted nor offered in a trade",
                    "lose": f"drawn with a supply, its drawer discards one non-recycled {arg} "
                            f"({TYPE_NAMES.get(arg, ('', arg))[1]})",
                    "wipe": f"drawn with a supply, {arg}'s face-up cards leave the game",
                    "block": f"drawn with a supply, no supply at {arg} on its drawer's next turn"}.get(m.effect, "")

        out: dict[str, dict[str, str]] = {}
        recipes = content.recipes(later)
        for c, recipe in zip(content.components, recipes, strict=True):
            parts = [f"component · {c.points} points", f"{sum(recipe)} cards: {cards(recipe)}"]
            if c.later_recipe is not None and c.later_recipe != c.recipe:
                other, board = (c.recipe, "original board") if later else (c.later_recipe, "2025 board")
                parts.append(f"{board}: {cards(other)}")
            out[c.name] = {"name": c.title_en or c.title_fr or c.name, "text": " · ".join(parts)}
        for m in content.malus:
            text = one_line(m.text_en or m.text_fr) or "a malus card"
            if effect(m):
                text += f" ({'effect' if harsh else 'harsh variant'}: {effect(m)})"
            out[m.name] = {"name": "malus card" + (f" · {one_line(m.category)}" if m.category.strip() else ""),
                           "text": text}
        for s, sup in enumerate(content.suppliers):
            code = SUPPLIER_CODES[s]
            parts = [f"a supply takes {sup.take} card{'s' if sup.take != 1 else ''} + {sup.malus} malus",
                     f"{sup.visible} face up", f"deck of {sum(sup.deck)}: {deck(sup.deck)}"]
            lead = one_line(sup.text_en or sup.text_fr)
            out[sup.name] = {"name": sup.name, "text": " · ".join(([lead] if lead else []) + parts)}
            for t, n in enumerate(sup.deck):
                if not n:
                    continue
                kind = f"{code}-{TYPES[t]}"
                text = f"resource card · {n} of the {sum(sup.deck)} cards of the {sup.name} deck"
                if s == RECYCLING:
                    text += f" · recycled: never lost, counts for the recycling bonus (+{content.recycling_bonus})"
                out[kind] = {"name": f"{TYPE_NAMES[TYPES[t]][1]} from {sup.name}", "text": text}
        for t, name in enumerate(TYPES):
            decks = [f"{sup.name} {sup.deck[t]}" for sup in content.suppliers if sup.deck[t]]
            needs = [f"{c.name} {r[t]}" for c, r in zip(content.components, recipes, strict=True) if r[t]]
            parts = ["resource type", "in the decks: " + (", ".join(decks) or "none"),
                     "needed by: " + (", ".join(needs) or "no component")]
            out[name] = {"name": TYPE_NAMES[name][1], "text": " · ".join(parts)}
        return out

    def fields(self, state: State) -> dict[str, Any]:
        """Every field of the packed struct (omniscient; tests and tools)."""
        out: dict[str, Any] = engine.unpack_state(np.frombuffer(self.own(state).state_bytes(), dtype=np.uint8))
        return out

    def balance_facts(self, final_view: View) -> list[dict[str, float]]:
        """Per seat: components built; and, the same for every seat, the rounds played and how the game ended
        (RULES.md, "Simulation")."""
        ended = final_view["end_reason"]
        game_facts = {"rounds": float(final_view["round"])}
        for reason, label in (("smartphone", "ended by smartphone"), ("end_event", "ended by event 13"),
                              ("malus_pile", "ended by malus pile")):
            game_facts[label] = float(ended == reason)
        return [{"components built": float(len(p["built"])), **game_facts} for p in final_view["players"]]

    def evaluate(self, state: State, seat: int) -> float:
        """A heuristic value for one-ply bots (GreedyBot), from what the seat sees: its score, plus for each
        component still to build its points times 0.9 times the squared share of its recipe the hand covers
        (cards shared out greedily, biggest component first), minus MALUS_COST (0.4) per malus weight (events
        6, 7 and 10, the pile's end), plus 0.3 per recycled card owned; during its own supply, plus CARD_VALUE
        (0.6) per card still to pick and minus MALUS_COST per malus card still to come; minus the best other
        player's score."""
        v = self.view(state, self.own_seat(state, seat))
        content = self.content
        assert isinstance(content, SmartphoneContent)
        recipes = content.recipes(self.params["screen_precious_metal"])
        hand = v["hand"]
        have = [sum(n for k, n in hand.items() if k.endswith(t)) for t in TYPES]
        me = v["players"][seat]
        value: float = float(me["score"])
        order = sorted(range(len(recipes)), key=lambda c: -content.components[c].points)
        for c in order:
            if content.components[c].name in me["built"]:
                continue
            need = recipes[c]
            covered = 0
            for t in range(5):
                use = min(need[t], have[t])
                covered += use
                have[t] -= use
            value += content.components[c].points * 0.9 * (covered / sum(need)) ** 2
        value += 0.3 * float(me["recycled_owned"]) - MALUS_COST * float(me["malus_weight"])
        turn = v["turn_state"]
        if turn["supplier"] is not None and v["actors"] == [seat]:
            # a supply in progress: the cards still to pick, and the malus cards that will come with them
            sup = content.suppliers[SUPPLIERS.index(turn["supplier"])]
            pending = turn["malus_left"] if turn["malus_left"] else sup.malus * v["rules"]["malus_multiplier"]
            value += CARD_VALUE * float(turn["picks_left"]) - MALUS_COST * float(pending)
        others = [int(p["score"]) for i, p in enumerate(v["players"]) if i != seat]
        return value - (max(others) if others else 0)

    def render(self, state: State) -> str:
        return render(self.view(state, None))


def render(v: View) -> str:
    """A few readable lines for a view (spectator or seat)."""
    market = "  ".join(f"{s}: {' '.join(t or '-' for t in cards)}" for s, cards in v["market"].items())
    lines = [
        f"Smartphone round {v['round']} phase {v['phase']}  scores {v['scores']}  malus pile {v['malus_pile']}"
        + (f"  over ({v['end_reason']})" if v["terminal"] else ""),
        f"market: {market}   decks {v['deck_sizes']}",
        f"events drawn {v['events']['drawn']}  upcoming {v['events']['upcoming']}",
    ]
    for seat, p in enumerate(v["players"]):
        lines.append(f"seat {seat}: hand {p['hand_by_supplier']}  built {p['built'] or '-'}  malus "
                     f"{p['malus_count']}  recycled {p['recycled_owned']}")
    if v.get("hand") is not None:
        lines.append(f"hand: {v['hand']}")
    return "\n".join(lines)


assert EVENT_KINDS[13] == "end_game"
