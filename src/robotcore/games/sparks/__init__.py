"""Sparks (seed 002): build robots and upgrade your factory with dice drafted from a shared junkyard, over four
rounds; a simultaneous action phase of micro-actions each turn, assistants, upgrade tiles, score tracks.

>>> import robotcore
>>> state = robotcore.make("sparks", players=3, seed=1)
>>> state.view(None)["phase"]
'refill'
>>> state.game.action_to_str(state.legal_actions(state.actors[0])[0]).split()[0]
'assign'

Where things are: rules in ``engine.pyx`` (move generation is ``legal_for``), what a seat sees in ``view.pyx``,
the cards, tiles and tracks in ``data.py``, the rules as implemented in ``RULES.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from robotcore.core.game import Game, is_decimal
from robotcore.core.state import GameCore, State
from robotcore.errors import InvalidActionError, InvalidParameterError
from robotcore.games.sparks import engine, view
from robotcore.games.sparks.data import (
    ASSISTANT_KINDS,
    COLOURS,
    GOALS,
    SYMBOLS,
    TILES,
    Assistant,
    RobotCard,
    SparksContent,
    Symbol,
)
from robotcore.types import ParamSpec, View

__all__ = ["SparksGame", "SparksContent", "RobotCard", "Assistant", "Symbol", "SPACE_NAMES"]

DIE_LETTERS = "RBGY"
PROD_NAMES = ("t2", "t3", "t4", "t5")
#: Names of a player's die spaces: the upgrade section's coloured spaces, the robot spaces, the storage.
SPACE_NAMES = tuple(f"up-{c}" for c in COLOURS) + tuple(f"s{k + 1}.{j + 1}" for k in range(3) for j in range(3)) \
    + ("store",)
SLOT_NAMES = ("s1", "s2", "s3")
TILE_SLOTS = ("s1", "s2", "s3", "-")
_DIE_NAMES = tuple(f"{DIE_LETTERS[t // 6]}{t % 6 + 1}" for t in range(24))

#: argument kinds of each family, in id order (the first is the most significant)
_ARGS: dict[str, tuple[str, ...]] = {
    "take": ("prod", "pos"), "pick": ("pos",), "place": ("die", "space"), "sell": ("die",),
    "sell_space": ("space",), "up": ("die",), "down": ("die",), "flip": ("die",), "frank": ("die",),
    "silas": ("die",), "reroll_one": ("die",), "reroll": (), "mark": ("die",), "roll": (),
    "rearrange": ("space", "to"), "recruit": ("assistant",), "spark_box": ("box",), "cog_box": ("box",),
    "free_box": ("box",), "track": ("colour",), "tile": ("tile", "tslot"), "copy": ("assistant",),
    "complete": ("slot",), "die_choice": ("die",), "recycle": ("die",), "skip": (), "done": (),
    "discard_robot": ("slot",), "draw": (), "assign": ("robot", "slot"), "draft": ("assistant",), "adjust": (),
    "up_space": ("space",), "down_space": ("space",), "up_held": (), "down_held": (), "mark_held": (),
}
_SIZES = {"prod": 4, "pos": 8, "die": 24, "space": 14, "to": 14, "assistant": 32, "box": 64, "robot": 64,
          "colour": 4, "tile": 8, "tslot": 4, "slot": 3}
_KEYS = {"prod": "tile", "pos": "position", "die": "die", "space": "space", "to": "to", "assistant": "assistant",
         "box": "box", "robot": "robot", "colour": "track", "tile": "tile", "tslot": "slot", "slot": "slot"}


def _goals_check(value: int) -> None:
    return None


class SparksGame(Game):
    """Sparks under given parameters. Action ids are laid out in families (``engine.action_layout``; RULES.md,
    "Actions"); ``action_to_str`` / ``parse_action`` and ``action_to_dict`` / ``action_from_dict`` name them."""

    name = "sparks"
    title = "Sparks"
    min_players = 1
    max_players = 4
    content_type = SparksContent
    view_module: ClassVar[ModuleType] = view
    param_specs = (
        ParamSpec("players", int, 4, "number of seats: 1 (the solo game) to 4", min=1, max=4),
        ParamSpec("goals", int, -1, "goal tiles dealt face up: -1 for the default (none with 2-4 players, 1 in "
                  "the solo game), 2 for the goal-tile variant; in the solo game, the difficulty (0 allowed)",
                  min=-1, max=6),
        ParamSpec("draft", bool, False, "the assistant draft variant (deal 7, keep one, pass left)"),
        ParamSpec("clockwise", bool, False, "play the action phase seat by seat, clockwise from the active player "
                  "(the seed's rule for when a choice depends on another's; default: simultaneous, RULES.md)"),
        ParamSpec("content", SparksContent, None, "replaceable content: robots, assistants, tiles, tracks, "
                  "thresholds, scoring constants"),
    )
    #: the conformance suite runs over each of these (solo included: its resampling threshold scales with the
    #: seats, and the transition-leak test needs another seat's action, so it skips a solo game)
    #: (every player count and every parameter value at least once, combined to keep the suite's time in bounds)
    variants = ({"players": 1}, {"players": 1, "goals": 0}, {"players": 1, "goals": 3, "draft": True},
                {"players": 2, "draft": True}, {"players": 3, "goals": 2, "draft": True}, {"goals": 2, "draft": True},
                {"players": 3, "clockwise": True})

    def _make_core(self) -> GameCore:
        content = self.content
        assert isinstance(content, SparksContent)
        layout = engine.action_layout()
        self.layout: dict[str, tuple[int, int]] = {k: v for k, v in layout.items() if k != "num_actions"}
        self._families = sorted(((start, n, name) for name, (start, n) in self.layout.items()), reverse=True)
        self._rnames = content.robot_names
        self._anames = content.assistant_names
        self._rindex = {n.lower(): i for i, n in enumerate(self._rnames)}
        self._aindex = {n.lower(): i for i, n in enumerate(self._anames)}
        return engine.make_core(_tables(content), self.params["players"], self.num_goals, self.params["draft"],
                                self.params["clockwise"])

    @property
    def num_goals(self) -> int:
        g = int(self.params["goals"])
        if g >= 0:
            return g
        return 1 if self.params["players"] == 1 else 0

    @property
    def max_game_length(self) -> int:
        """A bound on the actions of a game: per turn and seat at most 2 (taking dice) + 12 (refill: discards,
        draw, placements) + the action phase. An action-phase action uses up a die, a cog, a spark, a card, a
        once-per-turn use or a Rearrange move (RULES.md, "Why every game ends"); the dice, cogs and sparks a seat
        can gain in one turn are bounded by the dice it takes and the completions, level-ups, bonus spaces,
        boxes and assistants that pay it, and cogs carry over, so the bound is per game: 1500 per turn and seat."""
        n = int(self.params["players"])
        turns = 8 if n == 1 else 4 * n
        return turns * n * 1500 + 200

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (int(view.observation_size()),)

    # -- notation ---------------------------------------------------------------------------------------------

    def _decode(self, action: int) -> tuple[str, list[int]]:
        a = self.check_action_id(action)
        for start, _n, name in self._families:
            if a >= start:
                k = a - start
                kinds = _ARGS[name]
                args: list[int] = []
                for kind in reversed(kinds):
                    k, r = divmod(k, _SIZES[kind])
                    args.append(r)
                return name, args[::-1]
        raise AssertionError("unreachable")

    def _arg_text(self, kind: str, v: int) -> str:
        if kind == "prod":
            return PROD_NAMES[v]
        if kind == "pos":
            return str(v)
        if kind == "die":
            return _DIE_NAMES[v]
        if kind in ("space", "to"):
            return SPACE_NAMES[v]
        if kind == "assistant":
            return self._anames[v] if v < len(self._anames) else f"?{v}"
        if kind == "robot":
            return self._rnames[v] if v < len(self._rnames) else f"?{v}"
        if kind == "box":
            return "board" if v == 63 else (self._rnames[v] if v < len(self._rnames) else f"?{v}")
        if kind == "colour":
            return COLOURS[v]
        if kind == "tile":
            return TILES[v]
        if kind == "tslot":
            return TILE_SLOTS[v]
        return SLOT_NAMES[v]

    def _arg_value(self, kind: str, text: Any) -> int:
        if not isinstance(text, str):
            raise ValueError
        t = text.strip().lower()
        if kind == "prod":
            return PROD_NAMES.index(t)
        if kind == "pos":
            if not is_decimal(t) or len(t) > 1 or int(t) >= 8:
                raise ValueError
            return int(t)
        if kind == "die":
            return [d.lower() for d in _DIE_NAMES].index(t)
        if kind in ("space", "to"):
            return SPACE_NAMES.index(t)
        if kind in ("assistant", "robot", "box"):
            if kind == "box" and t == "board":
                return 63
            index = self._aindex if kind == "assistant" else self._rindex
            if t in index:
                return index[t]
            if t.startswith("?") and is_decimal(t[1:]) and len(t) <= 3:
                v = int(t[1:])
                limit = 32 if kind == "assistant" else 64
                if (len(index) <= v < limit) and not (kind == "box" and v == 63):
                    return v
            raise ValueError
        if kind == "colour":
            return COLOURS.index(t)
        if kind == "tile":
            return TILES.index(t)
        if kind == "tslot":
            return TILE_SLOTS.index(t)
        return SLOT_NAMES.index(t)

    def _encode(self, name: str, values: list[int]) -> int:
        kinds = _ARGS[name]
        if len(values) != len(kinds):
            raise ValueError
        k = 0
        for kind, v in zip(kinds, values):
            k = k * _SIZES[kind] + v
        return self.layout[name][0] + k

    def action_to_dict(self, action: int) -> dict[str, Any]:
        name, args = self._decode(action)
        out: dict[str, Any] = {"type": name}
        for kind, v in zip(_ARGS[name], args):
            out[_KEYS[kind]] = self._arg_text(kind, v)
        return out

    def action_from_dict(self, data: Mapping[str, Any]) -> int:
        try:
            if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
                raise ValueError
            name = data["type"]
            kinds = _ARGS[name]
            if set(data) != {"type", *(_KEYS[k] for k in kinds)}:
                raise ValueError
            return self._encode(name, [self._arg_value(k, data[_KEYS[k]]) for k in kinds])
        except (KeyError, ValueError, IndexError, TypeError, AttributeError):
            raise InvalidActionError(f"not a Sparks action: {data!r}") from None

    def action_to_str(self, action: int) -> str:
        name, args = self._decode(action)
        return " ".join([name, *(self._arg_text(k, v) for k, v in zip(_ARGS[name], args))])

    def parse_action(self, text: str) -> int:
        """The ``action_to_str`` notation, case-insensitive: ``take t4 3``, ``pick 0``, ``place R3 s1.2``,
        ``place B5 up-blue``, ``sell G2``, ``up Y4``, ``rearrange s1.1 store``, ``recruit Gordon``,
        ``spark_box R2``, ``spark_box board``, ``track red``, ``tile recycle s2``, ``tile discount -``,
        ``assign R7 s1``, ``done``..."""
        if not isinstance(text, str):
            raise InvalidActionError(f"a Sparks action is text like 'place R3 s1.2', got {type(text).__name__}")
        words = text.split()
        try:
            if not words or words[0].lower() not in _ARGS:
                raise ValueError
            name = words[0].lower()
            kinds = _ARGS[name]
            if len(words) - 1 != len(kinds):
                raise ValueError
            return self._encode(name, [self._arg_value(k, w) for k, w in zip(kinds, words[1:])])
        except (ValueError, IndexError, KeyError):
            raise InvalidActionError(f"not a Sparks action: {text!r}") from None

    def is_public_action(self, action: int) -> bool:
        """Draft picks are hidden commitments (shown when every seat has picked, as the cards they kept stay in
        the hand: never). Every other action is made in the open."""
        return self._decode(action)[0] != "draft"

    # -- information ------------------------------------------------------------------------------------------

    def glossary(self) -> dict[str, dict[str, str]]:
        """Every robot card (its colour, die spaces, track advance, reward, power box), every assistant (its
        timing, effect and points) and every effect symbol (by its text, as a view writes a bonus tile: "cogs x2"),
        worded from this game's content (RULES.md, "Components")."""
        content = self.content
        assert isinstance(content, SparksContent)

        def count(n: int, one: str, many: str) -> str:
            return f"{n} {one if n == 1 else many}"

        def symbol(s: Symbol) -> str:
            n, colour = s.n, s.colour or ""
            words = {
                "cogs": count(n, "cog", "cogs"), "sparks": count(n, "spark", "sparks"),
                "assistant": "draw " + count(n, "assistant", "assistants"),
                "die": count(n, "die", "dice") + " from the bag",
                "die_colour": count(n, f"{colour} die", f"{colour} dice"),
                "reroll": "reroll any of your dice",
                "adjust": "±1 to one die" if n == 1 else f"{n} free ±1 steps on your dice",
                "advance_any": f"advance {n} on any track",
                "factory": f"+{n} towards the next factory upgrade",
                "tile": "an upgrade tile" if n == 1 else f"{n} upgrade tiles",
                "cog_assistant": "1 cog and 1 assistant",
                "advance": f"advance {n} on the {colour} track",
            }
            return words.get(s.kind, s.text())

        def space(colour: str | None, value: int | None) -> str:
            if colour is None:
                return "any" if value is None else f"any {value}"
            return colour if value is None else f"{colour} {value}"

        def either(values: tuple[int, ...]) -> str:
            words = [str(v) for v in values]
            return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]

        def either_many(n: int, one: str, many: str) -> str:
            return one if n == 1 else many.format(n=n)

        usual = content.ignore_colour_cost
        # the two assistants whose effect the number of players changes (RULES.md, "Assistants")
        players = int(self.params["players"])
        quincy = {1: "on secondary turns, take your dice from anywhere in the junkyard",
                  2: "on the other's turns, take your two dice from anywhere in the junkyard, not only side by side"
                  }.get(players, "on others' turns, take your die from anywhere in the junkyard")
        warren = ("on a secondary turn, take every die left in the junkyard" if players == 1
                  else "once the dice are taken, take every die left in the junkyard")
        # what each kind of assistant does, worded from its param (n) and the colour it names, and the content
        effects: dict[str, Callable[[int, str], str]] = {
            "conrad": lambda n, c: "copies the effect and points of another played assistant (tucked under it)",
            "emma": lambda n, c: "one cog may stand for a spark on a power box",
            "frank": lambda n, c: f"discard a die of value {either(content.frank_values)} to advance 1 on its "
                                  "colour's track",
            "gordon": lambda n, c: "ignoring a colour costs 1 cog" + ("" if usual == 1 else f" instead of {usual}"),
            "max": lambda n, c: "on completing a robot with a power box, pay 1 cog to fire it at once",
            "factory_bonus": lambda n, c: f"+{n} towards every factory upgrade",
            "octavia": lambda n, c: "turn one die to its opposite face",
            "olympia": lambda n, c: either_many(n, "fire one of your power boxes for free",
                                                "fire {n} different power boxes of yours for free"),
            "track_any": lambda n, c: f"an advance on the {c} track may go to any track",
            "quincy": lambda n, c: quincy,
            "silas": lambda n, c: "discard a die and spread its pips as ±1 steps over your other dice",
            "warren": lambda n, c: warren,
            "complete": lambda n, c: f"pay 1 cog to complete a {c} robot of your line",
            "cogs": lambda n, c: "gain " + count(n, "cog", "cogs"),
            "sparks": lambda n, c: "gain " + count(n, "spark", "sparks"),
            "tile": lambda n, c: either_many(n, "take an upgrade tile", "take {n} upgrade tiles"),
            "die": lambda n, c: "take " + count(n, "die", "dice") + " from the bag",
            "advance_any": lambda n, c: f"advance {n} on any tracks",
            "adjust": lambda n, c: "a free ±1 to one die",
            "reroll_one": lambda n, c: "reroll one die",
            "sales": lambda n, c: f"sell dice for {count(n, 'cog', 'cogs')} more",
            "ignore_value": lambda n, c: "ignore one value requirement",
            "free_play": lambda n, c: either_many(n, "play another assistant from your hand for free",
                                                  "play {n} more assistants from your hand for free"),
            "factory": lambda n, c: f"+{n} towards the next factory upgrade",
            "die_choice": lambda n, c: either_many(n, "take a die of any colour, set to any value",
                                                   "take {n} dice of any colour, each set to any value"),
        }

        def effect(a: Assistant) -> str:
            colour = COLOURS[a.param] if 0 <= a.param < len(COLOURS) else str(a.param)
            word = effects.get(a.kind)
            return word(a.param, colour) if word is not None else f"{a.kind} {a.param}"

        out: dict[str, dict[str, str]] = {}
        for r in content.robots:
            parts = ["dice: " + ", ".join(space(c, v) for c, v in r.spaces),
                     f"+{r.advance} on the {r.colour} track" if r.advance else "no track advance"]
            if r.reward is not None:
                parts.append("reward: " + symbol(r.reward))
            if r.box is not None:
                parts.append("power box: " + symbol(r.box))
            out[r.name] = {"name": f"{r.colour.capitalize()} robot", "text": " · ".join(parts)}
        for a in content.assistants:
            out[a.name] = {"name": a.name,
                           "text": f"{a.timing}: {effect(a)} · {count(a.points, 'point', 'points')}"}
        # the effect symbols, by the text a view writes a bonus tile with ("cogs x2"): the page words the robots'
        # rewards and power boxes and the board's box by these entries too, so that a symbol is worded here only;
        # the text says where this content puts it (card names never clash: SparksContent refuses symbol names)
        places: dict[str, tuple[Symbol, list[str]]] = {}
        for where, symbols in (("bonus tiles", content.bonus_tiles),
                               ("robots' rewards", [r.reward for r in content.robots]),
                               ("robots' power boxes", [r.box for r in content.robots]),
                               ("the board's power box", [content.board_box])):
            for sym in symbols:
                if sym is not None and where not in places.setdefault(sym.text(), (sym, []))[1]:
                    places[sym.text()][1].append(where)
        for key, (sym, found_on) in places.items():
            out[key] = {"name": symbol(sym), "text": "an effect, on " + ", ".join(found_on)}
        return out

    def scores_from_view(self, view: View) -> list[int]:
        """The official scoring again, in Python, from a view alone."""
        content = self.content
        assert isinstance(content, SparksContent)
        return [score_player(content, p, view["goals"]) for p in view["players"]]

    def balance_facts(self, final_view: View) -> list[dict[str, float]]:
        """Per seat: the solo game's win (solo only), and how often each assistant was played and each upgrade
        tile owned at the end (RULES.md, "Simulation"), as grouped facts ("assistants played: Conrad")."""
        out: list[dict[str, float]] = []
        for p in final_view["players"]:
            facts: dict[str, float] = {}
            if "solo" in final_view:
                facts["solo won"] = float(bool(final_view["solo"]["won"]))
            for name in p["played"]:
                facts[f"assistants played: {name}"] = facts.get(f"assistants played: {name}", 0.0) + 1.0
            for name in p["tiles"]:
                facts[f"tiles owned: {name}"] = 1.0
            out.append(facts)
        return out

    def evaluate(self, state: State, seat: int) -> float:
        """Score plus progress (robot spaces filled, the upgrade section's sum towards the next level, dice, cogs,
        sparks and cards while the game is young), minus the best other seat's (RULES.md, "Bots")."""
        return float(engine.evaluate(state, self.own_seat(state, seat)))      # (own_seat checks the state too)

    def solo_won(self, state: State) -> bool | None:
        """The solo game's result (every goal tile met and at least ``solo_target`` points), None before the end
        or with several players."""
        v = self.view(state, None)
        if "solo" not in v or not v["terminal"]:
            return None
        return bool(v["solo"]["won"])

    def fields(self, state: State) -> dict[str, Any]:
        """Every field of the packed struct (omniscient; tests and tools)."""
        out: dict[str, Any] = engine.unpack_state(np.frombuffer(self.own(state).state_bytes(), dtype=np.uint8))
        return out

    def with_fields(self, fields: Mapping[str, Any], seed: int = 0) -> State:
        """A state from (possibly edited) ``fields`` output, checked by the engine's invariants (fields of another
        shape: ``InvalidParameterError``; a struct the invariants refuse: ``CorruptStateError``)."""
        try:
            raw = engine.pack_state(dict(fields))
        except (KeyError, IndexError, TypeError, ValueError, OverflowError) as exc:
            raise InvalidParameterError(f"fields are not a Sparks state's ({type(exc).__name__}: {exc})") from None
        return self.state_from_row(np.frombuffer(raw, dtype=np.uint8), seed)

    def render(self, state: State) -> str:
        return render(self.view(state, None))


def _sym(s: Symbol | None) -> tuple[int, int, int] | None:
    return None if s is None else s.engine_row()


def _tables(c: SparksContent) -> dict[str, Any]:
    colour = {name: i for i, name in enumerate(COLOURS)}
    robots = []
    for r in c.robots:
        spaces = [(4 if col is None else colour[col], 0 if val is None else val) for col, val in r.spaces]
        robots.append((colour[r.colour], spaces, r.advance, _sym(r.reward), _sym(r.box)))
    kinds = list(ASSISTANT_KINDS)
    assistants = [(kinds.index(a.kind), a.param, a.points) for a in c.assistants]
    return {
        "robots": robots, "assistants": assistants, "bonus_tiles": [b.engine_row() for b in c.bonus_tiles],
        "board_box": c.board_box.engine_row(), "tile_points": list(c.tile_points),
        "track_points": list(c.track_points), "bonus_after": list(c.bonus_after),
        "thresholds": list(c.thresholds), "level_tile": [1 if r == "tile" else 0 for r in c.level_rewards],
        "goal_targets": list(c.goal_targets), "frank_values": list(c.frank_values),
        "upgrade_cap": c.upgrade_cap, "dice_per_colour": c.dice_per_colour, "junkyard": c.junkyard,
        "storage": c.storage, "sell_value": c.sell_value, "sales_boost_value": c.sales_boost_value,
        "ignore_colour_cost": c.ignore_colour_cost, "change_cost": c.change_cost, "set_points": c.set_points,
        "cogs_per_point": c.cogs_per_point, "goal_points": c.goal_points, "solo_target": c.solo_target,
        "hand_size": c.hand_size, "draft_deal": c.draft_deal, "rearrange_limit": c.rearrange_limit,
        "tile_copies": c.tile_copies, "stacks_in_play": c.stacks_in_play,
    }


def goals_met(content: SparksContent, p: Mapping[str, Any]) -> list[str]:
    """The goal tiles a player (as a view shows it) meets."""
    robots = {r.name: r for r in content.robots}
    t = content.goal_targets
    colours = [sum(1 for n in p["tableau"] if robots[n].colour == c) for c in COLOURS]
    boxes = sum(1 for n in p["tableau"] if robots[n].box is not None)
    sparks = p["sparks"] + len(p["boxes_used"]) - len(p["boxes_cog"])
    third = content.bonus_after[2] if len(content.bonus_after) >= 3 else None
    tracks = sum(1 for c in COLOURS if third is not None and p["tracks"][c] > third)
    met = [len(p["played"]) >= t[0], p["level"] >= t[1], max(colours) >= t[2], boxes >= t[3], sparks >= t[4],
           tracks >= t[5]]
    return [g for g, ok in zip(GOALS, met) if ok]


def score_player(content: SparksContent, p: Mapping[str, Any], goals: list[str]) -> int:
    """The seed's end scoring of one player as a view shows it."""
    robots = {r.name: r for r in content.robots}
    assistants = {a.name: a for a in content.assistants}
    total: int = 0
    for c in COLOURS:
        pos = p["tracks"][c]
        if pos:
            total += content.track_points[pos - 1]
    total += int(p["level"]) * len(p["played"])
    total += sum(assistants[a].points for a in p["played"])
    if p["conrad"] is not None:
        total += assistants[p["conrad"]].points
    total += sum(content.tile_points[TILES.index(t)] for t in p["tiles"])
    total += min(sum(1 for n in p["tableau"] if robots[n].colour == c) for c in COLOURS) * content.set_points
    total += int(p["cogs"]) // content.cogs_per_point
    total += sum(1 for g in goals_met(content, p) if g in goals) * content.goal_points
    return total


def render(v: View) -> str:
    """A few readable lines for a view (spectator or seat)."""
    lines = [f"Sparks turn {v['turn'] + 1}/{v['turns']} phase {v['phase']} active {v['active']}  "
             f"junkyard {' '.join(v['junkyard']) or '-'}  scores {v['scores']}"]
    for i, p in enumerate(v["players"]):
        line = " | ".join(f"{s['robot'] or '-'}[{','.join(d or '.' for d in s['dice'])}]" for s in p["line"])
        lines.append(f"seat {i} ({p['colour']}): cogs {p['cogs']} sparks {p['sparks']} level {p['level']} "
                     f"tracks {list(p['tracks'].values())} dice {' '.join(p['dice']) or '-'} line {line}")
    if v.get("hand") is not None:
        lines.append(f"hand: {' '.join(v['hand']) or '-'}")
    return "\n".join(lines)


_ = (SYMBOLS, RobotCard, Assistant, _goals_check)
