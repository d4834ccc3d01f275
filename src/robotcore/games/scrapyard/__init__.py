"""Scrapyard (seed 000): build a robot from junkyard scrap in six days — a hidden simultaneous draft, a purchase,
and a workshop of free and paid actions, all simultaneous.

>>> import robotcore
>>> state = robotcore.make("scrapyard", seed=1)
>>> state.actors                       # the draft is simultaneous: every seat commits at once
[0, 1, 2, 3]
>>> state.game.action_to_str(state.legal_actions(0)[0])[:4]
'keep'

Where things are: rules in ``engine.pyx`` (move generation is ``legal_for``), what a seat sees in ``view.pyx``,
the cards and dice in ``data.py``, the rules as implemented in ``RULES.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from robotcore.core.game import Game, is_decimal
from robotcore.core.state import GameCore, State
from robotcore.errors import InvalidActionError, InvalidParameterError
from robotcore.games.scrapyard import engine, view
from robotcore.games.scrapyard.data import (
    BOOST_TARGETS,
    FAMILIES,
    RES_LETTERS,
    RESOURCES,
    TYPES,
    ScrapyardContent,
    Structure,
    Upgrade,
    cubes_text,
    parse_cubes,
)
from robotcore.types import ParamSpec, View

__all__ = ["ScrapyardGame", "ScrapyardContent", "Structure", "Upgrade"]

SIDES = ("left", "right")
_SIMPLE = ("break", "subcontract", "clean", "done")
_BENCH_VERBS = ("discard", "dismantle")


class ScrapyardGame(Game):
    """Scrapyard under given parameters. Action ids are laid out in blocks (``engine.action_layout``);
    ``action_to_str`` / ``parse_action`` and ``action_to_dict`` / ``action_from_dict`` name them."""

    name = "scrapyard"
    title = "Scrapyard"
    min_players = 2
    max_players = 4
    content_type = ScrapyardContent
    view_module: ClassVar[ModuleType] = view
    param_specs = (
        ParamSpec("players", int, 4, "number of seats: 3 or 4 (2 only with provisional_two_player=True)",
                  min=2, max=4),
        ParamSpec("workbenches", int, 3, "workbenches per workshop (the seed does not say; RULES.md)", min=1, max=4),
        ParamSpec("days", int, 6, "days in a game: the seed plays 6; fewer for short games (tests, experiments)",
                  min=1, max=6),
        ParamSpec("open_workshop", bool, True,
                  "workshop actions are seen by all as they happen (the seed); False: each seat's work stays "
                  "hidden until every seat is done (RULES.md)"),
        ParamSpec("provisional_two_player", bool, False,
                  "allow players=2: a provisional variant (the seed's 2-player rule is still to come)"),
        ParamSpec("content", ScrapyardContent, None, "replaceable content: the cards, the dice, the standard "
                  "Structure"),
    )
    variants = ({"players": 3}, {"players": 2, "provisional_two_player": True}, {"open_workshop": False})

    def _make_core(self) -> GameCore:
        content = self.content
        assert isinstance(content, ScrapyardContent)
        players = self.params["players"]
        if players == 2 and not self.params["provisional_two_player"]:
            raise InvalidParameterError(
                "Scrapyard is for 3-4 players; 2 players is a provisional variant: pass provisional_two_player=True")
        if players != 2 and self.params["provisional_two_player"]:
            raise InvalidParameterError("provisional_two_player=True needs players=2")
        return engine.make_core(_tables(content), players, self.params["workbenches"], self.params["days"],
                                self.params["open_workshop"])

    @cached_property
    def layout(self) -> dict[str, int]:
        """Offsets of the action blocks and ``num_actions``."""
        content = self.content
        assert isinstance(content, ScrapyardContent)
        out: dict[str, int] = engine.action_layout(content.num_cards, self.params["workbenches"])
        return out

    @cached_property
    def codes(self) -> tuple[str, ...]:
        """Card codes by id (``H1``, ``SW3``...)."""
        content = self.content
        assert isinstance(content, ScrapyardContent)
        return content.codes()

    @cached_property
    def _code_ids(self) -> dict[str, int]:
        return {code: i for i, code in enumerate(self.codes)}

    @property
    def max_game_length(self) -> int:
        """A bound, not a typical length: per seat and day at most 1 overflow choice after the dice, 7 draft
        decisions, 1 purchase, and 81 + workbenches workshop actions (RULES.md, "Length")."""
        return int(self.params["days"]) * self.num_players * (90 + int(self.params["workbenches"]))

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (int(view.observation_size(self.num_players)),)

    # -- notation ---------------------------------------------------------------------------------------------

    def card_code(self, card: int) -> str:
        return self.codes[card]

    def parse_card(self, text: str) -> int:
        if not isinstance(text, str) or text.strip().upper() not in self._code_ids:
            raise InvalidActionError(f"no card {text!r} in this game's content (codes like H1, SW3, BO20)")
        return self._code_ids[text.strip().upper()]

    def _decode(self, action: int) -> dict[str, Any]:
        a = self.check_action_id(action)
        L = self.layout
        n = len(self.codes)
        if a < L["break"]:
            return {"type": "keep", "card": self.codes[a - L["keep"]]}
        if a == L["break"]:
            return {"type": "break"}
        if a < L["nobuy"]:
            return {"type": "buy", "structure": TYPES[a - L["buy"]]}
        if a == L["nobuy"]:
            return {"type": "buy", "structure": "none"}
        if a < L["place"] + n:
            return {"type": "place", "card": self.codes[a - L["place"]]}
        if a < L["assemble"]:
            return {"type": "discard", "bench": a - L["discard"] + 1}
        if a < L["dismantle"]:
            b, t = divmod(a - L["assemble"], 4)
            return {"type": "assemble", "bench": b + 1, "structure": TYPES[t]}
        if a < L["repair"]:
            return {"type": "dismantle", "bench": a - L["dismantle"] + 1}
        if a < L["exchange"]:
            b, code = divmod(a - L["repair"], 255)
            code += 1
            return {"type": "repair", "bench": b + 1, "cubes": cubes_text(_code_cubes(code))}
        if a < L["subcontract"]:
            return {"type": "exchange", "resource": RES_LETTERS[a - L["exchange"]]}
        if a == L["subcontract"]:
            return {"type": "subcontract"}
        if a < L["clean"]:
            return {"type": "expand", "side": SIDES[a - L["expand"]]}
        if a == L["clean"]:
            return {"type": "clean"}
        if a == L["done"]:
            return {"type": "done"}
        code = a - L["overflow"] + 1
        mo, en = divmod(code, 36)
        (m, o), (e, y) = engine.zone_pair(mo), engine.zone_pair(en)
        return {"type": "overflow", "discard": cubes_text((m, o, e, y))}

    def _encode(self, d: Mapping[str, Any]) -> int:
        L = self.layout
        nbench = int(self.params["workbenches"])
        kind = d.get("type")
        keys = set(d)

        def need(*names: str) -> None:
            if keys != {"type", *names}:
                raise InvalidActionError(f"a {kind} action has exactly the keys type, {', '.join(names) or '-'}")

        def bench() -> int:
            b = d["bench"]
            if isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= nbench:
                raise InvalidActionError(f"bench must be 1..{nbench}, got {b!r}")
            return b - 1

        if kind in ("keep", "place"):
            need("card")
            return L[kind] + self.parse_card(d["card"])
        if kind in _SIMPLE:
            need()
            return L[kind]
        if kind == "buy":
            need("structure")
            if d["structure"] == "none":
                return L["nobuy"]
            if d["structure"] not in TYPES:
                raise InvalidActionError(f"buy a structure of {list(TYPES)} or 'none', got {d['structure']!r}")
            return L["buy"] + TYPES.index(d["structure"])
        if kind in _BENCH_VERBS:
            need("bench")
            return L[kind] + bench()
        if kind == "assemble":
            need("bench", "structure")
            if d["structure"] not in TYPES:
                raise InvalidActionError(f"assemble onto one of {list(TYPES)}, got {d['structure']!r}")
            return L["assemble"] + 4 * bench() + TYPES.index(d["structure"])
        if kind == "repair":
            need("bench", "cubes")
            cubes = _parse_action_cubes(d["cubes"])
            if max(cubes) > 3 or sum(cubes) == 0:
                raise InvalidActionError("a repair places 1 or more cubes, at most 3 of each resource")
            return L["repair"] + 255 * bench() + cubes[0] + 4 * cubes[1] + 16 * cubes[2] + 64 * cubes[3] - 1
        if kind == "exchange":
            need("resource")
            r = d["resource"]
            if not isinstance(r, str) or r.upper() not in RES_LETTERS or len(r) != 1:
                raise InvalidActionError(f"exchange for one of M, O, E, N, got {r!r}")
            return L["exchange"] + RES_LETTERS.index(r.upper())
        if kind == "expand":
            need("side")
            if d["side"] not in SIDES:
                raise InvalidActionError(f"expand side is 'left' or 'right', got {d['side']!r}")
            return L["expand"] + SIDES.index(d["side"])
        if kind == "overflow":
            need("discard")
            m, o, e, y = _parse_action_cubes(d["discard"])
            if m + o > 7 or e + y > 7 or m + o + e + y == 0:
                raise InvalidActionError("an overflow discards 1 to 7 cubes of a zone (M+O, E+N)")
            return L["overflow"] + _pair(m, o) * 36 + _pair(e, y) - 1
        raise InvalidActionError(f"unknown Scrapyard action type {kind!r}")

    def action_to_dict(self, action: int) -> dict[str, Any]:
        return self._decode(action)

    def action_from_dict(self, data: Mapping[str, Any]) -> int:
        if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
            raise InvalidActionError("a Scrapyard action is a mapping with a 'type' (keep, break, buy, place, ...)")
        try:
            return self._encode(data)
        except (TypeError, KeyError, AttributeError) as exc:
            raise InvalidActionError(f"malformed action {dict(data)!r}: {exc}") from None

    def action_to_str(self, action: int) -> str:
        d = self._decode(action)
        kind = d["type"]
        if kind in ("keep", "place"):
            return f"{kind} {d['card']}"
        if kind == "buy":
            return f"buy {d['structure']}"
        if kind in _BENCH_VERBS:
            return f"{kind} b{d['bench']}"
        if kind == "assemble":
            return f"assemble b{d['bench']} {d['structure']}"
        if kind == "repair":
            return f"repair b{d['bench']} {d['cubes']}"
        if kind == "exchange":
            return f"exchange {d['resource']}"
        if kind == "expand":
            return f"expand {d['side']}"
        if kind == "overflow":
            return f"overflow {d['discard']}"
        return str(kind)

    def parse_action(self, text: str) -> int:
        """``keep SW3``, ``break``, ``buy head``, ``buy none``, ``place H2``, ``discard b1``, ``assemble b1 arms``,
        ``dismantle b2``, ``repair b1 MME``, ``exchange N``, ``subcontract``, ``expand left``, ``clean``,
        ``done``, ``overflow MO`` (case-insensitive)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text like 'keep SW3', got {type(text).__name__}")
        parts = text.split()
        if not parts:
            raise InvalidActionError("empty action text")
        kind, args = parts[0].lower(), parts[1:]

        def bench(tok: str) -> int:
            if len(tok) < 2 or tok[0].lower() != "b" or not is_decimal(tok[1:]) or len(tok) > 3:
                raise InvalidActionError(f"a workbench is written b1, b2..., got {tok!r}")
            return int(tok[1:])

        shapes: dict[str, int] = {"keep": 1, "place": 1, "buy": 1, "discard": 1, "dismantle": 1, "assemble": 2,
                                  "repair": 2, "exchange": 1, "expand": 1, "overflow": 1,
                                  **{k: 0 for k in _SIMPLE}}
        if kind not in shapes or len(args) != shapes[kind]:
            raise InvalidActionError(f"not a Scrapyard action: {text!r}")
        d: dict[str, Any] = {"type": kind}
        if kind in ("keep", "place"):
            d["card"] = args[0]
        elif kind == "buy":
            d["structure"] = args[0].lower()
        elif kind in _BENCH_VERBS:
            d["bench"] = bench(args[0])
        elif kind == "assemble":
            d["bench"], d["structure"] = bench(args[0]), args[1].lower()
        elif kind == "repair":
            d["bench"], d["cubes"] = bench(args[0]), args[1]
        elif kind == "exchange":
            d["resource"] = args[0]
        elif kind == "expand":
            d["side"] = args[0].lower()
        elif kind == "overflow":
            d["discard"] = args[0]
        return self._encode(d)

    def is_public_action(self, action: int) -> bool:
        """Draft choices, purchases and overflow discards are hidden commitments: only their results are shown,
        when the phase (or pass) resolves. Workshop actions (place ... done) are public in the seed's open
        workshop, where everybody sees them as they happen, and hidden in a closed one (``open_workshop=False``).
        An overflow discard is always reported hidden: after the dice it is a hidden commitment (in an open
        workshop its result, the stock, is public anyway)."""
        a = self.check_action_id(action)
        L = self.layout
        return bool(self.params["open_workshop"]) and L["place"] <= a <= L["done"]

    # -- information ------------------------------------------------------------------------------------------

    def glossary(self) -> dict[str, dict[str, str]]:
        """Every card code of the content (``H1``, ``SW3``...) and ``standard`` (the Merchant's Structure a robot
        slot may show): the card's name and a line of what matters in play, from the content's fields — a
        Structure's type, VP, Upgrade slots and storage bonus, an Upgrade's family, scoring effect (X, and a
        Boost's target) and the Structures it fits, then the REP column (cubes to repair it) and the DEM column
        (cubes dismantling gives). RULES.md says what each means."""
        content = self.content
        assert isinstance(content, ScrapyardContent)
        resource = dict(zip(RESOURCES, ("Mechanical", "Motor", "Electronics", "Energy"), strict=True))

        def slots(n: int) -> str:
            return "no Upgrade slot" if n == 0 else f"{n} Upgrade slot{'s' if n != 1 else ''}"

        def fits(types: tuple[str, ...]) -> str:
            return "fits any Structure" if set(types) == set(TYPES) else "fits " + ", ".join(t.title() for t in types)

        def effect(u: Upgrade) -> str:
            gain = f"+{u.x} VP"
            if u.family == "software":
                return gain
            if u.family == "shield":
                return f"{gain} per protected Structure of the robot (one carrying a Shield)"
            if u.family == "weapon":
                return f"{gain} per Weapon on its Structure, itself included"
            if u.family == "movement":
                return f"{gain} per other Upgrade family on its Structure"
            if u.target in (None, "self"):
                return f"{gain} per Upgrade on its Structure, itself included"
            return f"{gain} per Upgrade on the {str(u.target).title()}, itself always counted"

        out: dict[str, dict[str, str]] = {}
        for code, card in zip(self.codes, content.cards, strict=True):
            if isinstance(card, Structure):
                bonus = (f"+1 VP per 3 {resource[card.bonus]} left in stock" if card.bonus is not None
                         else "no storage bonus")
                parts = [f"{card.type.title()} Structure", f"{card.vp} VP", slots(card.slots), bonus]
            else:
                parts = [f"{card.family.title()} Upgrade", effect(card), fits(card.fits)]
            parts += [f"repair {cubes_text(card.rep_cubes)}", f"dismantle gives {cubes_text(card.dem_cubes) or 'nothing'}"]
            out[code] = {"name": card.name, "text": " · ".join(parts)}
        out["standard"] = {"name": "Standard Structure", "text": " · ".join([
            "Structure of any type sold by the Merchant", f"{content.standard_vp} VP", slots(content.standard_slots),
            "no storage bonus", f"{engine.BUY_COST_WASTE} Waste, already working (no repair)"])}
        return out

    def scores_from_view(self, view: View) -> list[int]:
        """The seed's scoring again, in Python, from the robots and stocks a view shows."""
        content = self.content
        assert isinstance(content, ScrapyardContent)
        return [score_robot(content, p["robot"], p["stock"]) for p in view["players"]]

    def evaluate(self, state: State, seat: int) -> float:
        """A heuristic value of the seat's own position for one-ply bots (GreedyBot): the robot scored as if
        its missing Structures were standard ones, minus a penalty per missing Structure that grows each day;
        workbench cards by what they would add times their repair progress (or their dismantle value); the
        Reserve and hand as options; cubes, Waste and (before the workshop) Hours. See RULES.md."""
        return float(engine.evaluate(state, self.own_seat(state, seat)))      # (own_seat checks the state too)

    def balance_facts(self, final_view: View) -> list[dict[str, float]]:
        """Per seat: whether its robot is complete, the Upgrades on it, and its advanced (non-standard)
        Structures (RULES.md, "Simulation")."""
        out: list[dict[str, float]] = []
        for p in final_view["players"]:
            robot = p["robot"]
            out.append({
                "complete robots": float(bool(p["complete"])),
                "Upgrades per robot": float(sum(len(robot[t]["upgrades"]) for t in robot)),
                "advanced Structures": float(sum(1 for t in robot if robot[t]["structure"] not in (None, "standard"))),
            })
        return out

    def render(self, state: State) -> str:
        return render(self.view(state, None))

    def fields(self, state: State) -> dict[str, Any]:
        """Every field of the packed struct (omniscient; tests and tools)."""
        out: dict[str, Any] = engine.unpack_state(np.frombuffer(self.own(state).state_bytes(), dtype=np.uint8))
        return out


def _pair(a: int, b: int) -> int:
    return (a + b) * (a + b + 1) // 2 + a


def _code_cubes(code: int) -> tuple[int, int, int, int]:
    return code & 3, (code >> 2) & 3, (code >> 4) & 3, (code >> 6) & 3


def _parse_action_cubes(text: object) -> tuple[int, int, int, int]:
    try:
        return parse_cubes(text, "cubes")  # type: ignore[arg-type]
    except InvalidParameterError as exc:
        raise InvalidActionError(str(exc)) from None


def _tables(content: ScrapyardContent) -> dict[str, Any]:
    """The content as the flat per-card tables ``engine.make_core`` compiles."""
    cards = content.cards
    kind, stype, vp, slots, bonus, family, x, target, fits, rep, dem = ([] for _ in range(11))
    for card in cards:
        rep.append(list(card.rep_cubes))
        dem.append(list(card.dem_cubes))
        if isinstance(card, Structure):
            kind.append(0)
            stype.append(TYPES.index(card.type))
            vp.append(card.vp)
            slots.append(card.slots)
            bonus.append(-1 if card.bonus is None else RESOURCES.index(card.bonus))
            family.append(-1)
            x.append(0)
            target.append(-1)
            fits.append(0)
        else:
            kind.append(1)
            stype.append(-1)
            vp.append(0)
            slots.append(0)
            bonus.append(-1)
            family.append(FAMILIES.index(card.family))
            x.append(card.x)
            target.append(-1 if card.target is None else BOOST_TARGETS.index(card.target))
            fits.append(sum(1 << TYPES.index(t) for t in card.fits))
    return {"kind": kind, "stype": stype, "vp": vp, "slots": slots, "bonus": bonus, "family": family, "x": x,
            "target": target, "fits": fits, "rep": rep, "dem": dem, "dice": [list(d) for d in content.dice],
            "std_vp": content.standard_vp, "std_slots": content.standard_slots}


def score_robot(content: ScrapyardContent, robot: Mapping[str, Any], stock: Mapping[str, int]) -> int:
    """The seed's scoring of one robot as a view shows it (``robot[type] = {"structure": code or "standard" or
    None, "upgrades": [codes]}``, ``stock`` by resource name)."""
    codes = {code: i for i, code in enumerate(content.codes())}
    cards = content.cards
    if any(robot[t]["structure"] is None for t in TYPES):
        return 0
    total = 0
    fams: dict[str, list[str]] = {t: [cards[codes[u]].family for u in robot[t]["upgrades"]]  # type: ignore[union-attr]
                                  for t in TYPES}
    protected = sum(1 for t in TYPES if "shield" in fams[t])
    for t in TYPES:
        s = robot[t]["structure"]
        if s == "standard":
            total += content.standard_vp
        else:
            card = cards[codes[s]]
            assert isinstance(card, Structure)
            total += card.vp + (stock[card.bonus] // 3 if card.bonus else 0)
        for code in robot[t]["upgrades"]:
            u = cards[codes[code]]
            assert isinstance(u, Upgrade)
            if u.family == "software":
                total += u.x
            elif u.family == "shield":
                total += u.x * protected
            elif u.family == "weapon":
                total += u.x * fams[t].count("weapon")
            elif u.family == "movement":
                total += u.x * len(set(fams[t]) - {"movement"})
            else:
                aim = t if u.target == "self" else u.target
                assert aim is not None
                total += u.x * (len(robot[aim]["upgrades"]) + (0 if aim == t else 1))
    return total


def render(v: View) -> str:
    """A few readable lines for a view (spectator or seat)."""
    lines = [f"Scrapyard day {v['day']}/{v['days']} phase {v['phase']}  dice {v['dice']}  deck {v['deck']['size']}  "
             f"discard {v['discard']['size']}  scores {v['scores']}"]
    for i, p in enumerate(v["players"]):
        robot = " ".join(f"{t[0].upper()}:{p['robot'][t]['structure'] or '-'}"
                         + (f"[{','.join(p['robot'][t]['upgrades'])}]" if p['robot'][t]['upgrades'] else "")
                         for t in TYPES)
        benches = " ".join(f"b{b['bench']}:{b['card'] or '-'}" + (f"({b['placed'] or '-'}/{b['rep']})" if b["card"] else "")
                           for b in p["benches"])
        stock = p["stock"]
        lines.append(f"seat {i}: {robot} | {benches} | M{stock['mech']} O{stock['motor']} E{stock['elec']} "
                     f"N{stock['energy']} W{stock['waste']} h{p['hours']}")
    if v.get("hand") is not None:
        lines.append(f"hand: {' '.join(v['hand']) or '-'}")
    return "\n".join(lines)
