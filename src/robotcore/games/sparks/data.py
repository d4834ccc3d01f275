"""Sparks's replaceable content: the robot deck, the assistant deck, the upgrade tiles, the score tracks and
their bonus tiles, the factory thresholds and every scoring constant.

The seed (an English rulebook whose numbers and icons were lost) and ``shared/research/sparks.md`` give the
structure; most numbers are the research's DEFAULTs (RULES.md marks each value CONFIRMED, INFERRED or DEFAULT).
Pass your own with ``robotcore.make("sparks", content=SparksContent(...))`` or ``SparksContent.from_json(...)``:
every field is validated here, then compiled into the engine's tables.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from robotcore.core.game import Content
from robotcore.errors import InvalidParameterError

#: Die and track colours in the engine's order; seat i plays colour i (its "player colour").
COLOURS = ("red", "blue", "green", "yellow")
#: Symbols of rewards, power boxes, bonus tiles and one-time assistants (state.pxd ``SY_*``).
SYMBOLS = ("cogs", "sparks", "assistant", "die", "die_colour", "reroll", "adjust", "advance_any", "factory",
           "tile", "cog_assistant", "advance")
#: Assistant effects (state.pxd ``AK_*``), with their timing.
ASSISTANT_KINDS = {
    "conrad": "one-time", "emma": "once per round", "frank": "once per turn", "gordon": "permanent",
    "max": "permanent", "factory_bonus": "permanent", "octavia": "once per turn", "olympia": "one-time",
    "track_any": "permanent", "quincy": "permanent", "silas": "permanent", "warren": "one-time",
    "complete": "one-time", "cogs": "one-time", "sparks": "one-time", "tile": "one-time", "die": "one-time",
    "advance_any": "one-time", "adjust": "once per turn", "reroll_one": "once per turn", "sales": "permanent",
    "ignore_value": "once per turn", "free_play": "one-time", "factory": "one-time", "die_choice": "one-time",
}
KIND_NAMES = tuple(ASSISTANT_KINDS)
#: Upgrade tile types, in the engine's order (state.pxd ``TL_*``): 3 general, 2 die, 3 slot upgrades.
TILES = ("rearrange", "discount", "sales_boost", "ignore_colour", "ignore_value", "bonus_point", "bonus_cog",
         "recycle")
SLOT_TILES = ("bonus_point", "bonus_cog", "recycle")
GOALS = ("assistants", "level", "same_colour", "power_boxes", "sparks", "third_bonus")
#: Production tiles: dice taken, effect. The last one is two-sided (4 players: 4 dice and 1 cog).
PRODUCTION = ("2+2 from the bag", "3 from anywhere", "4 and one reroll", "5 (4 players: 4 and 1 cog)")

MAX_ROBOTS = 63
MAX_ASSISTANTS = 32
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,15}$")


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidParameterError(f"{what} must be an integer in [{lo}, {hi}], got {value!r}")
    return value


def _colour(value: Any, what: str, allow_none: bool = False) -> str | None:
    if value is None and allow_none:
        return None
    if value not in COLOURS:
        raise InvalidParameterError(f"{what} must be one of {list(COLOURS)}" + (" or null" if allow_none else ""))
    return str(value)


@dataclass(frozen=True)
class Symbol:
    """One effect symbol: ``kind`` (SYMBOLS), a count ``n`` and, for ``die_colour`` / ``advance``, a colour."""

    kind: str
    n: int = 1
    colour: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in SYMBOLS:
            raise InvalidParameterError(f"symbol kind must be one of {list(SYMBOLS)}, got {self.kind!r}")
        _int(self.n, f"symbol {self.kind} count", 1, 6)
        if self.kind in ("die_colour", "advance"):
            _colour(self.colour, f"symbol {self.kind} colour")
        elif self.colour is not None:
            raise InvalidParameterError(f"symbol {self.kind} takes no colour")

    def engine_row(self) -> tuple[int, int, int]:
        return SYMBOLS.index(self.kind), self.n, (COLOURS.index(self.colour) if self.colour else 0)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "n": self.n}
        if self.colour is not None:
            out["colour"] = self.colour
        return out

    @classmethod
    def from_json(cls, data: Any) -> Symbol:
        if not isinstance(data, dict) or not {"kind", "n"} <= set(data) <= {"kind", "n", "colour"}:
            raise InvalidParameterError("a symbol is {kind, n[, colour]}")
        return cls(data["kind"], data["n"], data.get("colour"))

    def text(self) -> str:
        return f"{self.kind}{'' if self.n == 1 else ' x' + str(self.n)}{' ' + self.colour if self.colour else ''}"


@dataclass(frozen=True)
class RobotCard:
    """A robot: its colour, its die spaces (each a colour or None = any, and a value 1-6 or None = any), the
    spaces it advances on its colour's track when completed, an optional immediate reward and an optional power
    box (activated with a spark after completion)."""

    name: str
    colour: str
    spaces: tuple[tuple[str | None, int | None], ...]
    advance: int
    reward: Symbol | None = None
    box: Symbol | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise InvalidParameterError(f"robot name {self.name!r} must be a letter then letters/digits")
        _colour(self.colour, f"robot {self.name} colour")
        spaces = tuple(tuple(s) for s in self.spaces)
        if not 1 <= len(spaces) <= 3:
            raise InvalidParameterError(f"robot {self.name} has 1 to 3 die spaces")
        for s in spaces:
            if len(s) != 2:
                raise InvalidParameterError(f"robot {self.name}: a space is (colour or None, value or None)")
            _colour(s[0], f"robot {self.name} space colour", allow_none=True)
            if s[1] is not None:
                _int(s[1], f"robot {self.name} space value", 1, 6)
        _int(self.advance, f"robot {self.name} advance", 0, 6)
        for sym in (self.reward, self.box):
            if sym is not None and not isinstance(sym, Symbol):
                raise InvalidParameterError(f"robot {self.name}: reward and box are Symbols")
        object.__setattr__(self, "spaces", spaces)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour, "spaces": [list(s) for s in self.spaces],
                "advance": self.advance, "reward": self.reward.to_json() if self.reward else None,
                "box": self.box.to_json() if self.box else None}

    @classmethod
    def from_json(cls, data: Any) -> RobotCard:
        if not isinstance(data, dict) or set(data) != {"name", "colour", "spaces", "advance", "reward", "box"}:
            raise InvalidParameterError("a robot is {name, colour, spaces, advance, reward, box}")
        if not isinstance(data["spaces"], list) or not all(isinstance(s, list) for s in data["spaces"]):
            raise InvalidParameterError("a robot's spaces are lists [colour, value]")
        return cls(data["name"], data["colour"], tuple(tuple(s) for s in data["spaces"]), data["advance"],
                   Symbol.from_json(data["reward"]) if data["reward"] is not None else None,
                   Symbol.from_json(data["box"]) if data["box"] is not None else None)


@dataclass(frozen=True)
class Assistant:
    """An assistant card: its name, effect kind (ASSISTANT_KINDS, which fixes its timing), a parameter (a count,
    a colour index for ``track_any`` / ``complete``) and its points."""

    name: str
    kind: str
    param: int
    points: int

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise InvalidParameterError(f"assistant name {self.name!r} must be a letter then letters/digits")
        if self.kind not in ASSISTANT_KINDS:
            raise InvalidParameterError(f"assistant {self.name}: kind must be one of {list(ASSISTANT_KINDS)}")
        hi = 3 if self.kind in ("track_any", "complete") else 6
        _int(self.param, f"assistant {self.name} param", 0, hi)
        if self.kind == "olympia" and not 1 <= self.param <= 2:
            raise InvalidParameterError(f"assistant {self.name}: Olympia fires 1 or 2 boxes")
        _int(self.points, f"assistant {self.name} points", 0, 9)

    @property
    def timing(self) -> str:
        return ASSISTANT_KINDS[self.kind]

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Assistant:
        if not isinstance(data, dict) or set(data) != {"name", "kind", "param", "points"}:
            raise InvalidParameterError("an assistant is {name, kind, param, points}")
        return cls(data["name"], data["kind"], data["param"], data["points"])


# -- the defaults (research §6) ---------------------------------------------------------------------------------

def _robots() -> tuple[RobotCard, ...]:
    out = []
    for ci, x in enumerate(COLOURS):
        o, o2 = COLOURS[(ci + 1) % 4], COLOURS[(ci + 2) % 4]
        c = x[0].upper()
        rows: list[tuple[tuple[tuple[str | None, int | None], ...], int, Symbol | None, Symbol | None]] = [
            (((x, None), (x, None)), 1, Symbol("cogs"), None),
            (((x, None), (x, None)), 1, None, Symbol("cogs", 2)),
            (((x, None), (None, 6)), 2, None, None),
            (((x, None), (None, 1)), 1, Symbol("sparks"), None),
            (((x, 5), (x, None)), 2, None, None),
            (((x, 2), (x, None)), 1, None, Symbol("reroll")),
            (((x, None), (o, None)), 1, Symbol("assistant"), None),
            (((x, None), (x, None), (x, None)), 3, None, None),
            (((x, None), (x, None), (o, None)), 2, Symbol("cogs"), Symbol("adjust")),
            (((x, 6), (x, 6)), 3, None, None),
            (((x, 1), (x, 1)), 2, Symbol("sparks"), None),
            (((x, None), (None, 4), (None, 4)), 2, None, Symbol("die")),
            (((x, 3), (x, 4)), 2, None, Symbol("advance_any")),
            (((x, None), (o, None), (o2, None)), 2, Symbol("die_colour", 1, x), None),
            (((x, None), (x, None), (None, 5)), 2, None, Symbol("factory", 2)),
        ]
        for i, (spaces, adv, reward, box) in enumerate(rows):
            out.append(RobotCard(f"{c}{i + 1}", x, spaces, adv, reward, box))
    return tuple(out)


DEFAULT_ROBOTS = _robots()

DEFAULT_ASSISTANTS = (
    Assistant("Conrad", "conrad", 0, 0),
    Assistant("Emma", "emma", 0, 1),
    Assistant("Frank", "frank", 0, 1),
    Assistant("Gordon", "gordon", 0, 1),
    Assistant("Max", "max", 0, 1),
    Assistant("Margot", "factory_bonus", 2, 1),
    Assistant("Theodora", "factory_bonus", 2, 1),
    Assistant("Octavia", "octavia", 0, 1),
    Assistant("Olympia", "olympia", 2, 2),
    Assistant("Penelope", "track_any", 0, 2),
    Assistant("Walter", "track_any", 1, 2),
    Assistant("Quincy", "quincy", 0, 1),
    Assistant("Silas", "silas", 0, 1),
    Assistant("Warren", "warren", 0, 2),
    Assistant("Terry", "complete", 2, 2),
    Assistant("John", "complete", 0, 2),
    Assistant("Graham", "complete", 1, 2),
    Assistant("Michael", "complete", 3, 2),
    Assistant("D1", "cogs", 3, 2),
    Assistant("D2", "sparks", 2, 2),
    Assistant("D3", "tile", 1, 1),
    Assistant("D4", "die", 2, 2),
    Assistant("D5", "advance_any", 2, 2),
    Assistant("D6", "adjust", 1, 0),
    Assistant("D7", "reroll_one", 1, 1),
    Assistant("D8", "sales", 1, 0),
    Assistant("D9", "ignore_value", 1, 0),
    Assistant("D10", "free_play", 1, 1),
    Assistant("D11", "factory", 3, 1),
    Assistant("D12", "die_choice", 1, 1),
)

DEFAULT_BONUS_TILES = (
    Symbol("die"), Symbol("cogs", 2), Symbol("cogs", 2), Symbol("advance_any"), Symbol("advance_any"),
    Symbol("sparks"), Symbol("cog_assistant"), Symbol("tile"),
    Symbol("die_colour", 1, "red"), Symbol("die_colour", 1, "blue"), Symbol("die_colour", 1, "green"),
    Symbol("die_colour", 1, "yellow"),
)


@dataclass(frozen=True)
class SparksContent(Content):
    """Everything on the cards and boards. Defaults: research §6 (RULES.md lists each value with its mark)."""

    robots: tuple[RobotCard, ...] = DEFAULT_ROBOTS
    assistants: tuple[Assistant, ...] = DEFAULT_ASSISTANTS
    bonus_tiles: tuple[Symbol, ...] = DEFAULT_BONUS_TILES
    #: points of each upgrade tile type (TILES order)
    tile_points: tuple[int, ...] = (1, 1, 1, 0, 0, 0, 1, 1)
    #: tiles per stack (at least 4: nobody owns two identical tiles, so a stack never runs out)
    tile_copies: int = 4
    #: how many of the 8 stacks are laid out (at random)
    stacks_in_play: int = 6
    #: points of each scoring space of a track (the marker starts outside, at 0)
    track_points: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 17, 20)
    #: the bonus spaces sit after these scoring spaces (1-based), the same on every track
    bonus_after: tuple[int, ...] = (2, 5, 8)
    #: the sum needed to reach level 1, 2, ... (the marker starts at level 0)
    thresholds: tuple[int, ...] = (5, 7, 9, 11, 13)
    #: reward of each level: "spark" or "tile"
    level_rewards: tuple[str, ...] = ("spark", "tile", "spark", "tile", "spark")
    upgrade_cap: int = 3
    dice_per_colour: int = 11
    junkyard: int = 7
    storage: int = 1
    sell_value: int = 1
    sales_boost_value: int = 2
    ignore_colour_cost: int = 2
    change_cost: int = 1
    set_points: int = 5
    cogs_per_point: int = 3
    goal_points: int = 6
    #: thresholds of the goal tiles (GOALS order; the last one is fixed by the seed: 2 tracks)
    goal_targets: tuple[int, ...] = (5, 4, 4, 4, 4, 2)
    solo_target: int = 50
    frank_values: tuple[int, ...] = (1, 2)
    board_box: Symbol = field(default_factory=lambda: Symbol("cogs", 1))
    hand_size: int = 6
    draft_deal: int = 7
    #: Rearrange moves allowed per turn (a loop bound; RULES.md)
    rearrange_limit: int = 12

    def __post_init__(self) -> None:
        robots = tuple(self.robots)
        if not 12 <= len(robots) <= MAX_ROBOTS or not all(isinstance(r, RobotCard) for r in robots):
            raise InvalidParameterError(f"robots must hold 12 to {MAX_ROBOTS} RobotCard values")
        assistants = tuple(self.assistants)
        if not 1 <= len(assistants) <= MAX_ASSISTANTS or not all(isinstance(a, Assistant) for a in assistants):
            raise InvalidParameterError(f"assistants must hold 1 to {MAX_ASSISTANTS} Assistant values")
        names = [r.name for r in robots] + [a.name for a in assistants]
        if any(n.lower() == "board" for n in names):
            raise InvalidParameterError("'board' names the board's power box: no card may be called so")
        clash = sorted(n for n in names if n.lower() in SYMBOLS)
        if clash:       # the glossary names each effect symbol by its text ("cogs", "cogs x2"), beside the cards
            raise InvalidParameterError(f"{', '.join(clash)}: an effect symbol's name, no card may be called so")
        if len({n.lower() for n in names}) != len(names):
            raise InvalidParameterError("robot and assistant names must be distinct (case-insensitively)")
        tp = tuple(self.track_points)
        if not 3 <= len(tp) <= 16:
            raise InvalidParameterError("a track has 3 to 16 scoring spaces")
        for v in tp:
            _int(v, "track points", 0, 60)
        ba = tuple(self.bonus_after)
        if not 1 <= len(ba) <= 4 or list(ba) != sorted(set(ba)) or not all(
                isinstance(b, int) and 1 <= b < len(tp) for b in ba):
            raise InvalidParameterError("bonus_after: 1 to 4 increasing scoring spaces inside the track")
        bonus = tuple(self.bonus_tiles)
        if len(bonus) != 4 * len(ba) or not all(isinstance(b, Symbol) for b in bonus):
            raise InvalidParameterError(f"bonus_tiles must hold {4 * len(ba)} Symbols (one per bonus space)")
        if any(b.kind in ("reroll", "adjust") for b in bonus):
            raise InvalidParameterError("a bonus tile cannot be reroll or adjust")
        tpts = tuple(self.tile_points)
        if len(tpts) != len(TILES):
            raise InvalidParameterError("tile_points gives the points of each of the 8 tile types")
        for v in tpts:
            _int(v, "tile points", 0, 9)
        _int(self.tile_copies, "tile_copies", 4, 9)
        _int(self.stacks_in_play, "stacks_in_play", 1, 8)
        th = tuple(self.thresholds)
        if not 1 <= len(th) <= 8:
            raise InvalidParameterError("1 to 8 factory levels")
        for v in th:
            _int(v, "threshold", 1, 60)
        lr = tuple(self.level_rewards)
        if len(lr) != len(th) or not all(r in ("spark", "tile") for r in lr):
            raise InvalidParameterError("level_rewards: 'spark' or 'tile' for each level")
        _int(self.upgrade_cap, "upgrade_cap", 1, 4)
        _int(self.dice_per_colour, "dice_per_colour", 6, 14)
        _int(self.junkyard, "junkyard", 5, 8)
        _int(self.storage, "storage", 0, 1)
        _int(self.sell_value, "sell_value", 0, 3)
        _int(self.sales_boost_value, "sales_boost_value", 0, 4)
        _int(self.ignore_colour_cost, "ignore_colour_cost", 0, 5)
        _int(self.change_cost, "change_cost", 1, 3)
        _int(self.set_points, "set_points", 0, 30)
        _int(self.cogs_per_point, "cogs_per_point", 1, 10)
        _int(self.goal_points, "goal_points", 0, 30)
        gt = tuple(self.goal_targets)
        if len(gt) != len(GOALS):
            raise InvalidParameterError("goal_targets has one threshold per goal")
        for v in gt:
            _int(v, "goal target", 1, 30)
        if gt[5] > 4:
            raise InvalidParameterError("the bonus-space goal counts at most 4 tracks")
        _int(self.solo_target, "solo_target", 0, 300)
        fv = tuple(self.frank_values)
        if not fv or not all(isinstance(v, int) and 1 <= v <= 6 for v in fv):
            raise InvalidParameterError("frank_values: die values 1-6")
        if not isinstance(self.board_box, Symbol):
            raise InvalidParameterError("board_box is a Symbol")
        _int(self.hand_size, "hand_size", 1, 8)
        _int(self.draft_deal, "draft_deal", 1, 8)
        if self.draft_deal < self.hand_size:
            raise InvalidParameterError("the draft deals at least hand_size cards")
        if 4 * self.draft_deal > len(assistants):
            raise InvalidParameterError("the assistant deck must hold a draft deal for 4 players")
        if 4 * 4 + 4 > len(robots):
            raise InvalidParameterError("the robot deck must hold at least 20 cards (4 per player and more)")
        _int(self.rearrange_limit, "rearrange_limit", 0, 30)
        fixed: tuple[tuple[str, Any], ...] = (
            ("robots", robots), ("assistants", assistants), ("bonus_tiles", bonus), ("tile_points", tpts),
            ("track_points", tp), ("bonus_after", ba), ("thresholds", th), ("level_rewards", lr),
            ("goal_targets", gt), ("frank_values", fv))
        for k, v in fixed:
            object.__setattr__(self, k, v)

    @classmethod
    def default(cls) -> SparksContent:
        return cls()

    @functools.cached_property     # (views read it on every call; the content never changes)
    def robot_names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.robots)

    @functools.cached_property     # (views read it on every call; the content never changes)
    def assistant_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.assistants)

    @functools.cached_property     # (views read it on every call; the content never changes)
    def bonus_texts(self) -> tuple[str, ...]:
        """Each bonus tile as a view writes it ("cogs x2")."""
        return tuple(b.text() for b in self.bonus_tiles)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name in ("robots", "assistants", "bonus_tiles"):
                out[f.name] = [x.to_json() for x in v]
            elif f.name == "board_box":
                out[f.name] = v.to_json()
            elif isinstance(v, tuple):
                out[f.name] = list(v)
            else:
                out[f.name] = v
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any] | str | Path) -> SparksContent:
        """From the ``to_json`` form, a JSON string or a path to a JSON file."""
        data = cls.json_document(data)
        names = {f.name for f in dataclasses.fields(cls)}
        if not isinstance(data, dict) or set(data) != names:
            raise InvalidParameterError(f"content JSON must have exactly the keys {sorted(names)}")
        kw: dict[str, Any] = {}
        for k, v in data.items():
            if k in ("robots", "assistants", "bonus_tiles"):
                if not isinstance(v, list):
                    raise InvalidParameterError(f"{k} is a list")
                maker = {"robots": RobotCard.from_json, "assistants": Assistant.from_json,
                         "bonus_tiles": Symbol.from_json}[k]
                kw[k] = tuple(maker(x) for x in v)
            elif k == "board_box":
                kw[k] = Symbol.from_json(v)
            elif isinstance(v, list):
                kw[k] = tuple(v)
            else:
                kw[k] = v
        return cls(**kw)
