"""Nicodemus (seed 001): two players play broken machines into a shared junk line, the bric-a-brac, and repair
them for points and projects; the first to 20 points ends the game.

>>> import robotcore
>>> state = robotcore.make("nicodemus", seed=1, first_player=0)
>>> state.actors
[0]
>>> state.view(0)["hand"]
['B3', 'P1', 'P5', 'P5', 'Y1']
>>> state.apply_str("play B3 production")          # returns the action id
7
>>> state.view(None)["players"][0]["resources"]
{'charcoalium': 2, 'wood': 0, 'copper': 1, 'crystal': 0}

Where things are: rules in ``engine.pyx`` (move generation is ``nm_legal_mask``), what a seat sees in
``view.pyx``, content (machines, projects, supply) in ``data.py``, the rules as implemented in ``RULES.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from robotcore.core.game import Game, is_decimal
from robotcore.core.state import GameCore, State
from robotcore.errors import InvalidActionError
from robotcore.games.nicodemus import engine, view
from robotcore.games.nicodemus.data import RESOURCES, MachineType, NicodemusContent, ProjectTile
from robotcore.types import ParamSpec, View

__all__ = ["NicodemusGame", "NicodemusContent", "MachineType", "ProjectTile", "USES", "SHARING"]

#: The three uses of a played machine, in action-id order.
USES = ("charcoalium", "production", "effect")
#: Values of the ``project_sharing`` parameter, in the engine's order.
SHARING = ("all", "repaired", "none")
_CUBES = RESOURCES[1:]
_EXCHANGES = tuple(("charcoalium", r) for r in _CUBES) + tuple((r, "charcoalium") for r in _CUBES)
_TABLE_SLOTS = 10


class NicodemusGame(Game):
    """Nicodemus under given parameters. Action ids are dense and fixed for a content (RULES.md, "Actions")."""

    name = "nicodemus"
    title = "Nicodemus"
    min_players = 2
    max_players = 2
    content_type = NicodemusContent
    view_module: ClassVar[ModuleType] = view
    param_specs = (
        ParamSpec("players", int, 2, "number of seats (the game is for exactly 2)", min=2, max=2),
        ParamSpec("first_player", int, -1, "seat that plays first: 0, 1, or -1 to draw it at random", min=-1,
                  max=1),
        ParamSpec("project_sharing", str, "all",
                  "may a machine count for several projects completed in the same turn: 'all' (any machine, "
                  "as on Board Game Arena), 'repaired' (only the machine just repaired: the strict reading of the "
                  "seed), 'none' (a variant allowing one project per turn, against the seed)",
                  choices=SHARING),
        ParamSpec("end_score", int, 20, "score that triggers the end of the game", min=1, max=100),
        ParamSpec("content", NicodemusContent, None,
                  "replaceable content: machine types, project tiles, supply, starting resources"),
    )
    variants = ({"project_sharing": "none"}, {"project_sharing": "repaired", "first_player": 1})

    def _make_core(self) -> GameCore:
        content = self.content
        assert isinstance(content, NicodemusContent)
        layout = engine.action_layout(len(content.machines), len(content.projects))
        self._layout: dict[str, tuple[int, int]] = {k: v for k, v in layout.items() if k != "num_actions"}
        self._families = sorted(((start, n, name) for name, (start, n) in self._layout.items()), reverse=True)
        self._num_actions = int(layout["num_actions"])
        self._mnames = content.machine_names
        self._pnames = content.project_names
        self._mindex = {n.lower(): i for i, n in enumerate(self._mnames)}
        self._pindex = {n.lower(): i for i, n in enumerate(self._pnames)}
        return engine.make_core(
            [m.engine_row() for m in content.machines],
            [p.engine_row() for p in content.projects],
            content.supply,
            content.start,
            content.public_projects,
            SHARING.index(self.params["project_sharing"]),
            self.params["first_player"],
            self.params["end_score"],
        )

    @property
    def max_game_length(self) -> int:
        """At most 5 actions per play (a copied exchange: play, copy, 3 exchanges; the third exchange ends the
        effect on its own, and "stop" only comes after one or two), 2 per repair (the repair and "done") plus one
        per completed project, 1 per stuck draw; each card is played and repaired at most once, and a stuck draw
        takes a card from the deck or triggers the end (3 to spare for the draws of the last round)."""
        content = self.content
        assert isinstance(content, NicodemusContent)
        n = content.num_cards
        return 5 * n + 2 * n + len(content.projects) + n + 3

    @property
    def observation_shape(self) -> tuple[int, ...]:
        content = self.content
        assert isinstance(content, NicodemusContent)
        return (int(view.observation_size(len(content.machines), len(content.projects))),)

    # -- notation ---------------------------------------------------------------------------------------------

    def _decode(self, action: int) -> tuple[str, int]:
        action = self.check_action_id(action)
        for start, _n, name in self._families:
            if action >= start:
                return name, action - start
        raise AssertionError("unreachable")

    def action_to_dict(self, action: int) -> dict[str, Any]:
        family, k = self._decode(action)
        if family == "play":
            return {"type": "play", "machine": self._mnames[k // 3], "use": USES[k % 3]}
        if family == "repair":
            jokers = engine.ALLOCS[k % engine.NUM_JOKER_ALLOCS]
            spent = [r for r, n in zip(_CUBES, jokers) for _ in range(n)]
            return {"type": "repair", "slot": k // engine.NUM_JOKER_ALLOCS + 1, "jokers": spent}
        if family in ("take1", "return1"):
            return {"type": family[:-1], "resources": [_CUBES[k]]}
        if family in ("take2", "return2"):
            a, b = engine.PAIRS[k]
            return {"type": family[:-1], "resources": [RESOURCES[a], RESOURCES[b]]}
        if family == "steal":
            return {"type": "steal", "resource": _CUBES[k]}
        if family == "exchange":
            give, get = _EXCHANGES[k]
            return {"type": "exchange", "give": give, "get": get}
        if family in ("discard_hand", "copy"):
            return {"type": family, "machine": self._mnames[k]}
        if family == "discard_slot":
            return {"type": "discard_slot", "slot": k + 1}
        if family == "keep":
            return {"type": "keep", "project": self._pnames[k]}
        if family == "complete":
            return {"type": "complete", "project": self._pnames[k // 8],
                    "workshop": [i + 1 for i in range(3) if (k % 8) >> i & 1]}
        return {"type": family}                      # draw, stop, done

    def action_to_str(self, action: int) -> str:
        d = self.action_to_dict(action)
        kind = d["type"]
        if kind == "play":
            return f"play {d['machine']} {d['use']}"
        if kind == "repair":
            return f"repair {d['slot']}" + (f" joker {'+'.join(d['jokers'])}" if d["jokers"] else "")
        if kind in ("take", "return"):
            return f"{kind} {'+'.join(d['resources'])}"
        if kind == "steal":
            return f"steal {d['resource']}"
        if kind == "exchange":
            return f"exchange {d['give']}>{d['get']}"
        if kind == "discard_hand":
            return f"discard hand {d['machine']}"
        if kind == "discard_slot":
            return f"discard slot {d['slot']}"
        if kind == "copy":
            return f"copy {d['machine']}"
        if kind == "keep":
            return f"keep {d['project']}"
        if kind == "complete":
            return f"complete {d['project']}" + (f" with {'+'.join(map(str, d['workshop']))}"
                                                 if d["workshop"] else "")
        return str(kind)

    def parse_action(self, text: str) -> int:
        """The ``action_to_str`` notation, case-insensitive: ``play B3 effect``, ``repair 4 joker wood``,
        ``take wood+copper``, ``exchange charcoalium>wood``, ``discard slot 2``, ``complete T6 with 1+2``..."""
        if not isinstance(text, str):
            raise InvalidActionError(f"a Nicodemus action is text like 'play B3 effect', got {type(text).__name__}")
        words = text.lower().split()
        try:
            return self._parse_words(words)
        except (KeyError, ValueError, IndexError):
            raise InvalidActionError(f"not a Nicodemus action: {text!r}") from None

    def _parse_words(self, w: list[str]) -> int:
        if not w:
            raise ValueError
        verb, rest = w[0], w[1:]
        if verb in ("draw", "stop", "done") and not rest:
            return self._layout[verb][0]
        if verb == "play" and len(rest) == 2:
            return self._layout["play"][0] + self._mindex[rest[0]] * 3 + USES.index(rest[1])
        if verb == "repair" and len(rest) in (1, 3):
            jokers: list[str] = []
            if len(rest) == 3:
                if rest[1] != "joker":
                    raise ValueError
                jokers = rest[2].split("+")
            return self._repair_id(self._slot(rest[0]), jokers)
        if verb in ("take", "return") and len(rest) == 1:
            return self._resources_id(verb, rest[0].split("+"))
        if verb == "steal" and len(rest) == 1:
            return self._layout["steal"][0] + _CUBES.index(rest[0])
        if verb == "exchange" and len(rest) == 1:
            give, get = rest[0].split(">")
            return self._layout["exchange"][0] + _EXCHANGES.index((give, get))
        if verb == "discard" and len(rest) == 2 and rest[0] == "hand":
            return self._layout["discard_hand"][0] + self._mindex[rest[1]]
        if verb == "discard" and len(rest) == 2 and rest[0] == "slot":
            return self._layout["discard_slot"][0] + self._slot(rest[1]) - 1
        if verb == "copy" and len(rest) == 1:
            return self._layout["copy"][0] + self._mindex[rest[0]]
        if verb == "keep" and len(rest) == 1:
            return self._layout["keep"][0] + self._pindex[rest[0]]
        if verb == "complete" and len(rest) in (1, 3):
            positions: list[int] = []
            if len(rest) == 3:
                if rest[1] != "with":
                    raise ValueError
                positions = [int(x) for x in rest[2].split("+") if is_decimal(x)]
                if len(positions) != len(rest[2].split("+")):
                    raise ValueError
            return self._complete_id(self._pindex[rest[0]], positions)
        raise ValueError

    @staticmethod
    def _slot(text: Any) -> int:
        if isinstance(text, str):
            if not is_decimal(text) or len(text) > 2:
                raise ValueError
            text = int(text)
        if isinstance(text, bool) or not isinstance(text, int) or not 1 <= text <= _TABLE_SLOTS:
            raise ValueError
        return text

    def _repair_id(self, slot: int, jokers: list[str]) -> int:
        w, c, x = (sum(1 for j in jokers if j == r) for r in _CUBES)
        counts = (w, c, x)
        if w + c + x != len(jokers):
            raise ValueError
        alloc = engine.ALLOCS.index(counts)
        return self._layout["repair"][0] + (slot - 1) * engine.NUM_JOKER_ALLOCS + alloc

    def _resources_id(self, verb: str, names: list[str]) -> int:
        if len(names) == 1:
            return self._layout[verb + "1"][0] + _CUBES.index(names[0])
        if len(names) == 2:
            a, b = sorted(RESOURCES.index(n) for n in names)
            if a == 0:
                raise ValueError
            return self._layout[verb + "2"][0] + engine.PAIRS.index((a, b))
        raise ValueError

    def _complete_id(self, project: int, positions: list[int]) -> int:
        if len(set(positions)) != len(positions) or not all(1 <= p <= 3 for p in positions):
            raise ValueError
        return self._layout["complete"][0] + project * 8 + sum(1 << (p - 1) for p in positions)

    def action_from_dict(self, data: Mapping[str, Any]) -> int:
        try:
            if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
                raise ValueError
            return self._from_dict(data)
        except (KeyError, ValueError, IndexError, TypeError, AttributeError):
            raise InvalidActionError(f"not a Nicodemus action: {data!r}") from None

    def _from_dict(self, d: Mapping[str, Any]) -> int:
        kind = d["type"]
        keys = set(d)

        def name(key: str, index: dict[str, int]) -> int:
            value = d[key]
            if not isinstance(value, str):
                raise ValueError
            return index[value.lower()]

        def strings(key: str) -> list[str]:
            value = d[key]
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                raise ValueError
            return [x.lower() for x in value]

        if kind in ("draw", "stop", "done") and keys == {"type"}:
            return self._layout[kind][0]
        if kind == "play" and keys == {"type", "machine", "use"}:
            use = d["use"]
            if not isinstance(use, str):
                raise ValueError
            return self._layout["play"][0] + name("machine", self._mindex) * 3 + USES.index(use.lower())
        if kind == "repair" and keys == {"type", "slot", "jokers"}:
            return self._repair_id(self._slot(d["slot"]), strings("jokers"))
        if kind in ("take", "return") and keys == {"type", "resources"}:
            return self._resources_id(kind, strings("resources"))
        if kind == "steal" and keys == {"type", "resource"}:
            if not isinstance(d["resource"], str):
                raise ValueError
            return self._layout["steal"][0] + _CUBES.index(d["resource"].lower())
        if kind == "exchange" and keys == {"type", "give", "get"}:
            give, get = d["give"], d["get"]
            if not isinstance(give, str) or not isinstance(get, str):
                raise ValueError
            return self._layout["exchange"][0] + _EXCHANGES.index((give.lower(), get.lower()))
        if kind in ("discard_hand", "copy") and keys == {"type", "machine"}:
            return self._layout[kind][0] + name("machine", self._mindex)
        if kind == "discard_slot" and keys == {"type", "slot"}:
            return self._layout["discard_slot"][0] + self._slot(d["slot"]) - 1
        if kind == "keep" and keys == {"type", "project"}:
            return self._layout["keep"][0] + name("project", self._pindex)
        if kind == "complete" and keys == {"type", "project", "workshop"}:
            positions = d["workshop"]
            if not isinstance(positions, list) or not all(
                    isinstance(p, int) and not isinstance(p, bool) for p in positions):
                raise ValueError
            return self._complete_id(name("project", self._pindex), positions)
        raise ValueError

    # -- information ------------------------------------------------------------------------------------------

    def glossary(self) -> dict[str, dict[str, str]]:
        """Every machine type (colour, VP, repair cost, production, effect) and every project tile (VP, what it
        needs in the workshop), worded from the content, so a replaced content describes its own cards."""
        content = self.content
        assert isinstance(content, NicodemusContent)
        copier = [m.name for m in content.machines if m.effect == "copy"]

        def amounts(counts: list[tuple[str, int]]) -> str:
            return " + ".join(f"{n} {what}" for what, n in counts if n) or "nothing"

        def production(m: MachineType) -> str:
            if m.production == "joker":
                return "a joker (wood, copper or crystal, your choice)"
            return m.production

        def effect(m: MachineType) -> str:
            fx = m.effect
            if fx == "produce":
                if m.production == "joker":
                    return ("choose wood, copper or crystal: gain 1 of it per bric-a-brac machine with a joker "
                            "production, this one included")
                return f"gain 1 {m.production} per bric-a-brac machine producing {m.production}, this one included"
            if fx == "copy":
                return f"copy the effect of another bric-a-brac machine placed before it (not {' or '.join(copier)})"
            return {
                "discard_from_hand": "discard a machine from your hand and take 2 cubes of its repair cost",
                "discard_one_of_3_before": "discard 1 of the 3 bric-a-brac machines placed just before this one "
                                           "and take 1 cube of its repair cost",
                "discard_one_of_2_before": "discard 1 of the 2 bric-a-brac machines placed just before this one "
                                           "and take 1 cube of its repair cost and 1 charcoalium",
                "exchange": "1 to 3 exchanges with the reserve: 1 charcoalium for 1 wood, copper or crystal, or "
                            "1 of those for 1 charcoalium",
                "discard_previous": "discard the bric-a-brac machine placed just before this one and take 2 cubes "
                                    "of its repair cost",
                "steal_charcoalium": "steal 1 charcoalium and 1 random machine from the opponent's hand",
                "steal_resource": "steal 1 wood, copper or crystal of your choice and 1 random machine from the "
                                  "opponent's hand",
                "strip_hand": "the opponent discards machines from hand at random until 2 remain and returns 2 "
                              "charcoalium (or all they have)",
                "return_resources": "the opponent returns 2 wood, copper or crystal of your choice to the reserve",
                "private_project": "draw 2 unused project tiles, keep 1 face up as your private project, remove "
                                   "the other from the game",
            }[fx]

        def listing(values: list[str]) -> str:
            return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]

        def needs(t: ProjectTile) -> str:
            n = t.machines
            machines = f"{n} machine" + ("s" if n != 1 else "")
            if t.condition == "identical":
                return f"{machines} of the same type"
            values = [str(x) for x in t.requires]
            each = " (one each)" if len(set(values)) == len(values) > 1 else ""
            if len(set(values)) == 1:
                values, each = values[:1], " each" if n > 1 and t.condition == "vp" else ""
                if t.condition == "colours":
                    return f"{n} {values[0]} machine" + ("s" if n != 1 else "")
            if t.condition == "colours":
                return f"{machines}: {listing(values)}{each}"
            if t.condition == "vp":
                return f"{machines} worth {listing(values)} VP{each}"
            return f"{machines} producing {listing(values)}{each}"

        out: dict[str, dict[str, str]] = {}
        for m in content.machines:
            out[m.name] = {
                "name": f"{m.colour.capitalize()} machine",
                "text": f"{m.vp} VP · repair costs {amounts(list(zip(_CUBES, m.cost)))} · produces {production(m)}"
                        f" · effect: {effect(m)} · {m.copies} cop" + ("y" if m.copies == 1 else "ies"),
            }
        for t in content.projects:
            joker = " · a joker production does not count" if t.condition == "production" else ""
            out[t.name] = {
                "name": "Project tile",
                "text": f"{t.vp} VP · needs {needs(t)} in your workshop, the machine just repaired among them; "
                        f"they are then set aside{joker}",
            }
        return out

    def scores_from_view(self, view: View) -> list[int]:
        """VP of every machine a player repaired (still in the workshop, or set aside) plus completed projects."""
        content = self.content
        assert isinstance(content, NicodemusContent)
        mvp = {m.name: m.vp for m in content.machines}
        pvp = {p.name: p.vp for p in content.projects}
        return [
            sum(mvp[m] for m in p["workshop"]) + sum(mvp[m] for m in p["set_aside"])
            + sum(pvp[t] for t in p["completed_projects"])
            for p in view["players"]
        ]

    def render(self, state: State) -> str:
        return render(self.view(state, None))

    def repair_cost(self, state: State, seat: int, slot: int) -> dict[str, Any]:
        """What repairing bric-a-brac ``slot`` (1-based) costs ``seat`` now, its workshop's reductions applied:
        charcoalium to lay, cubes per resource, and joker reductions still to spread over the cubes."""
        seat = self.own_seat(state, seat)                       # (the state checked too)
        raw = np.frombuffer(state.state_bytes(), dtype=np.uint8)
        cost = engine.repair_cost(self._core, raw, seat, slot - 1)
        return {"charcoalium": cost["charcoalium"], "cubes": dict(zip(_CUBES, cost["cubes"])),
                "jokers": cost["jokers"]}


def render(v: View) -> str:
    """A few readable lines for a view (spectator or seat)."""
    line = " ".join(f"{i + 1}:{m['machine']}" + ("*" * m["charcoalium"]) for i, m in enumerate(v["bric_a_brac"]))
    lines = [
        f"Nicodemus turn {v['turn']} phase {v['phase']}  scores {v['scores']}  deck {v['deck_size']}"
        + ("  (last round)" if v["end_triggered"] and not v["terminal"] else ""),
        f"bric-a-brac: {line or '-'}",
        f"projects: {' '.join(v['projects']['public']) or '-'}",
    ]
    for seat, p in enumerate(v["players"]):
        res = " ".join(f"{k[:2]}{n}" for k, n in p["resources"].items())
        private = f"  private {' '.join(p['private_projects'])}" if p["private_projects"] else ""
        lines.append(f"seat {seat}: {res}  workshop {' '.join(p['workshop']) or '-'}  hand {p['hand_size']}"
                     f"  done {' '.join(p['completed_projects']) or '-'}{private}")
    if v.get("hand") is not None:
        lines.append(f"hand: {' '.join(v['hand'])}")
    return "\n".join(lines)

