"""Nicodemus's replaceable content: the 16 machine types (56 cards), the 17 project tiles, the supply and the
starting resources.

The defaults are the published game's, as recovered from the Board Game Arena implementation and checked against
the card art (``shared/research/nicodemus.md``; RULES.md lists them). Pass your own with
``robotcore.make("nicodemus", content=NicodemusContent(...))`` or ``NicodemusContent.from_json(...)``: every field
is validated when the content is built, then compiled into the engine's tables.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from robotcore.core.game import Content
from robotcore.errors import InvalidParameterError

#: Resource names, in the engine's order (0 charcoalium, 1 wood, 2 copper, 3 crystal).
RESOURCES = ("charcoalium", "wood", "copper", "crystal")
#: What a production zone may show: a resource, or a joker (wood, copper or crystal at the owner's choice).
PRODUCTIONS = (*RESOURCES, "joker")
COLOURS = ("blue", "purple", "red", "yellow")
#: Machine effects, in the engine's order (state.pxd ``FX_*``).
EFFECTS = (
    "produce",
    "discard_from_hand",
    "discard_one_of_3_before",
    "discard_one_of_2_before",
    "exchange",
    "discard_previous",
    "steal_charcoalium",
    "steal_resource",
    "strip_hand",
    "return_resources",
    "private_project",
    "copy",
)
EFFECT_TEXT = {
    "produce": "gain 1 of its production for each bric-a-brac machine with the same production, this one "
               "included (joker: choose wood, copper or crystal, and count the joker machines)",
    "discard_from_hand": "discard a machine from your hand and take 2 cubes of its repair cost",
    "discard_one_of_3_before": "discard 1 of the 3 machines placed just before this one and take 1 cube of its "
                               "repair cost",
    "discard_one_of_2_before": "discard 1 of the 2 machines placed just before this one and take 1 cube of its "
                               "repair cost and 1 charcoalium",
    "exchange": "up to 3 exchanges with the reserve: 1 charcoalium for 1 resource of your choice, or back",
    "discard_previous": "discard the machine placed just before this one and take 2 cubes of its repair cost",
    "steal_charcoalium": "steal 1 charcoalium and 1 machine drawn at random from the opponent's hand",
    "steal_resource": "steal 1 resource of your choice and 1 machine drawn at random from the opponent's hand",
    "strip_hand": "the opponent discards machines at random until 2 remain and returns 2 charcoalium",
    "return_resources": "the opponent returns 2 resources of your choice to the reserve",
    "private_project": "draw 2 unused projects, keep 1 face up as your private project, remove the other",
    "copy": "copy the effect of another machine of the bric-a-brac (not a copier)",
}
#: Project conditions, in the engine's order (state.pxd ``PK_*``).
CONDITIONS = ("colours", "vp", "production", "identical")

MAX_TYPES = 16
MAX_PROJECTS = 24
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,11}$")
_RESERVED = {"with", "joker", "slot", "hand"}


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not _NAME.match(value) or value.lower() in _RESERVED:
        raise InvalidParameterError(f"{what} name {value!r} must be a letter then up to 11 letters/digits")
    return value


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidParameterError(f"{what} must be an integer in [{lo}, {hi}], got {value!r}")
    return value


@dataclass(frozen=True)
class MachineType:
    """One machine type: its colour family, victory points, repair cost in cubes (wood, copper, crystal; never
    charcoalium), production zone, effect, and how many copies the deck holds."""

    name: str
    colour: str
    vp: int
    cost: tuple[int, int, int]
    production: str
    effect: str
    copies: int

    def __post_init__(self) -> None:
        _name(self.name, "machine")
        if self.colour not in COLOURS:
            raise InvalidParameterError(f"machine {self.name}: colour must be one of {list(COLOURS)}")
        _int(self.vp, f"machine {self.name} VP", 0, 15)
        cost = tuple(self.cost)
        if len(cost) != 3:
            raise InvalidParameterError(f"machine {self.name}: cost is (wood, copper, crystal)")
        for x in cost:
            _int(x, f"machine {self.name} cost", 0, 9)
        if sum(cost) < 1:
            raise InvalidParameterError(f"machine {self.name}: a repair costs at least one cube")
        if self.production not in PRODUCTIONS:
            raise InvalidParameterError(f"machine {self.name}: production must be one of {list(PRODUCTIONS)}")
        if self.effect not in EFFECTS:
            raise InvalidParameterError(f"machine {self.name}: effect must be one of {list(EFFECTS)}")
        _int(self.copies, f"machine {self.name} copies", 0, 64)
        object.__setattr__(self, "cost", cost)

    def engine_row(self) -> tuple[int, int, tuple[int, int, int], int, int, int]:
        return (COLOURS.index(self.colour), self.vp, self.cost, PRODUCTIONS.index(self.production),
                EFFECTS.index(self.effect), self.copies)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "colour": self.colour, "vp": self.vp,
            "cost": dict(zip(RESOURCES[1:], self.cost)), "production": self.production,
            "effect": self.effect, "copies": self.copies,
        }

    @classmethod
    def from_json(cls, data: Any) -> MachineType:
        if not isinstance(data, dict) or set(data) != {"name", "colour", "vp", "cost", "production", "effect",
                                                        "copies"}:
            raise InvalidParameterError("a machine is {name, colour, vp, cost, production, effect, copies}")
        cost = data["cost"]
        if not isinstance(cost, dict) or set(cost) - set(RESOURCES[1:]):
            raise InvalidParameterError("a machine cost maps wood/copper/crystal to counts")
        return cls(data["name"], data["colour"], data["vp"], tuple(cost.get(r, 0) for r in RESOURCES[1:]),
                   data["production"], data["effect"], data["copies"])

    def describe(self) -> dict[str, Any]:
        return {**self.to_json(), "effect_text": EFFECT_TEXT[self.effect]}


@dataclass(frozen=True)
class ProjectTile:
    """One project tile: its VP and the machines it needs in the workshop (``machines`` of them, set aside when
    it is completed). ``requires`` lists one value per machine: colours, VP values or productions (a joker
    production never counts); for ``identical`` it is empty (all the machines of the same type)."""

    name: str
    vp: int
    condition: str
    requires: tuple[Any, ...]
    machines: int

    def __post_init__(self) -> None:
        _name(self.name, "project")
        _int(self.vp, f"project {self.name} VP", 0, 30)
        if self.condition not in CONDITIONS:
            raise InvalidParameterError(f"project {self.name}: condition must be one of {list(CONDITIONS)}")
        _int(self.machines, f"project {self.name} machines", 1, 4)
        req = tuple(self.requires)
        allowed: tuple[Any, ...]
        if self.condition == "identical":
            if req:
                raise InvalidParameterError(f"project {self.name}: 'identical' takes no requirement list")
        else:
            allowed = {"colours": COLOURS, "vp": tuple(range(16)), "production": RESOURCES}[self.condition]
            if len(req) != self.machines or not all(type(x) is type(allowed[0]) and x in allowed for x in req):
                raise InvalidParameterError(
                    f"project {self.name}: requires {self.machines} values among {list(allowed)}")
        object.__setattr__(self, "requires", req)

    def engine_row(self) -> tuple[int, int, list[int]]:
        if self.condition == "identical":
            values = [0] * self.machines
        elif self.condition == "colours":
            values = [COLOURS.index(x) for x in self.requires]
        elif self.condition == "production":
            values = [RESOURCES.index(x) for x in self.requires]
        else:
            values = [int(x) for x in self.requires]
        return self.vp, CONDITIONS.index(self.condition), values

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "vp": self.vp, "condition": self.condition, "requires": list(self.requires),
                "machines": self.machines}

    @classmethod
    def from_json(cls, data: Any) -> ProjectTile:
        if not isinstance(data, dict) or set(data) != {"name", "vp", "condition", "requires", "machines"}:
            raise InvalidParameterError("a project is {name, vp, condition, requires, machines}")
        if not isinstance(data["requires"], list):
            raise InvalidParameterError("a project's requires is a list")
        return cls(data["name"], data["vp"], data["condition"], tuple(data["requires"]), data["machines"])

    def describe(self) -> str:
        if self.condition == "identical":
            return f"{self.machines} identical machines"
        if self.condition == "vp":
            return f"{self.machines} machines worth " + ", ".join(f"{v} VP" for v in self.requires)
        if self.condition == "colours":
            return "machines: " + ", ".join(self.requires)
        return "productions: " + ", ".join(self.requires) + " (jokers do not count)"


def _m(name: str, colour: str, vp: int, cost: tuple[int, int, int], prod: str, effect: str,
       copies: int) -> MachineType:
    return MachineType(name, colour, vp, cost, prod, effect, copies)


#: The 16 machine types of the published game (56 cards). Cost = (wood, copper, crystal).
DEFAULT_MACHINES = (
    _m("B1", "blue", 1, (0, 1, 1), "wood", "produce", 4),
    _m("B2", "blue", 1, (2, 0, 0), "charcoalium", "produce", 4),
    _m("B3", "blue", 2, (0, 1, 2), "copper", "produce", 4),
    _m("B4", "blue", 2, (0, 2, 1), "crystal", "produce", 4),
    _m("B5", "blue", 3, (3, 1, 0), "joker", "produce", 4),
    _m("P1", "purple", 1, (1, 1, 0), "joker", "discard_from_hand", 4),
    _m("P2", "purple", 1, (2, 0, 0), "crystal", "discard_one_of_3_before", 4),
    _m("P3", "purple", 2, (0, 2, 1), "copper", "discard_one_of_2_before", 4),
    _m("P4", "purple", 2, (2, 0, 1), "wood", "exchange", 4),
    _m("P5", "purple", 3, (1, 1, 2), "charcoalium", "discard_previous", 4),
    _m("R1", "red", 1, (1, 0, 1), "crystal", "steal_charcoalium", 2),
    _m("R2", "red", 2, (1, 1, 1), "copper", "steal_resource", 2),
    _m("R3", "red", 3, (1, 0, 3), "charcoalium", "strip_hand", 2),
    _m("R4", "red", 3, (1, 3, 0), "wood", "return_resources", 2),
    _m("Y1", "yellow", 3, (2, 0, 2), "wood", "private_project", 4),
    _m("Y2", "yellow", 3, (0, 3, 1), "charcoalium", "copy", 4),
)

#: The 17 project tiles of the published game.
DEFAULT_PROJECTS = (
    ProjectTile("T1", 5, "colours", ("blue", "purple", "red", "yellow"), 4),
    ProjectTile("T2", 1, "colours", ("blue", "blue"), 2),
    ProjectTile("T3", 1, "colours", ("purple", "purple"), 2),
    ProjectTile("T4", 3, "colours", ("red", "red"), 2),
    ProjectTile("T5", 3, "colours", ("yellow", "yellow"), 2),
    ProjectTile("T6", 2, "identical", (), 2),
    ProjectTile("T7", 3, "vp", (1, 1), 2),
    ProjectTile("T8", 2, "vp", (2, 2), 2),
    ProjectTile("T9", 1, "vp", (3, 3), 2),
    ProjectTile("T10", 2, "production", ("charcoalium", "wood"), 2),
    ProjectTile("T11", 2, "production", ("charcoalium", "copper"), 2),
    ProjectTile("T12", 2, "production", ("charcoalium", "crystal"), 2),
    ProjectTile("T13", 2, "production", ("charcoalium", "charcoalium"), 2),
    ProjectTile("T14", 2, "production", ("wood", "wood"), 2),
    ProjectTile("T15", 2, "production", ("copper", "copper"), 2),
    ProjectTile("T16", 3, "production", ("crystal", "crystal"), 2),
    ProjectTile("T17", 3, "production", ("wood", "copper", "crystal"), 3),
)

#: Reserve at the start: 12 charcoalium, 8 wood, 8 copper, 8 crystal.
DEFAULT_SUPPLY = (12, 8, 8, 8)
#: Starting resources (charcoalium, wood, copper, crystal): the first player, then the second.
DEFAULT_START = ((2, 0, 0, 0), (1, 1, 0, 0))
DEFAULT_PUBLIC_PROJECTS = 6


def _counts(value: Any, what: str) -> tuple[int, int, int, int]:
    if not isinstance(value, (list, tuple)) or len(value) != 4:
        raise InvalidParameterError(f"{what} is 4 counts: charcoalium, wood, copper, crystal")
    return tuple(_int(x, what, 0, 64) for x in value)  # type: ignore[return-value]


@dataclass(frozen=True)
class NicodemusContent(Content):
    """Machine types (1 to 16, 11 to 64 cards in all), project tiles (1 to 24), the supply, the starting
    resources of the first and the second player, and how many projects are laid face up at the start."""

    machines: tuple[MachineType, ...]
    projects: tuple[ProjectTile, ...]
    supply: tuple[int, int, int, int] = DEFAULT_SUPPLY
    start: tuple[tuple[int, int, int, int], tuple[int, int, int, int]] = DEFAULT_START
    public_projects: int = DEFAULT_PUBLIC_PROJECTS

    def __post_init__(self) -> None:
        machines = tuple(self.machines)
        if not 1 <= len(machines) <= MAX_TYPES or not all(isinstance(m, MachineType) for m in machines):
            raise InvalidParameterError(f"machines must hold 1 to {MAX_TYPES} MachineType values")
        cards = sum(m.copies for m in machines)
        if not 11 <= cards <= 64:
            raise InvalidParameterError(f"the deck must hold 11 to 64 machines (1 face up and 5 per player), "
                                        f"got {cards}")
        projects = tuple(self.projects)
        if not 1 <= len(projects) <= MAX_PROJECTS or not all(isinstance(p, ProjectTile) for p in projects):
            raise InvalidParameterError(f"projects must hold 1 to {MAX_PROJECTS} ProjectTile values")
        names = [m.name for m in machines] + [p.name for p in projects]
        if len({n.lower() for n in names}) != len(names):
            raise InvalidParameterError("machine and project names must be distinct (case-insensitively)")
        supply = _counts(self.supply, "supply")
        if not isinstance(self.start, (list, tuple)) or len(self.start) != 2:
            raise InvalidParameterError("start holds the resources of the first and of the second player")
        start = (_counts(self.start[0], "start"), _counts(self.start[1], "start"))
        if any(start[0][r] + start[1][r] > supply[r] for r in range(4)):
            raise InvalidParameterError("the starting resources exceed the supply")
        _int(self.public_projects, "public_projects", 0, len(projects))
        object.__setattr__(self, "machines", machines)
        object.__setattr__(self, "projects", projects)
        object.__setattr__(self, "supply", supply)
        object.__setattr__(self, "start", start)

    @classmethod
    def default(cls) -> NicodemusContent:
        return cls(DEFAULT_MACHINES, DEFAULT_PROJECTS)

    @functools.cached_property     # (views read it on every call; the content never changes)
    def machine_names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.machines)

    @functools.cached_property     # (views read it on every call; the content never changes)
    def project_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.projects)

    @property
    def num_cards(self) -> int:
        return sum(m.copies for m in self.machines)

    def to_json(self) -> dict[str, Any]:
        return {
            "machines": [m.to_json() for m in self.machines],
            "projects": [p.to_json() for p in self.projects],
            "supply": dict(zip(RESOURCES, self.supply)),
            "start": [dict(zip(RESOURCES, s)) for s in self.start],
            "public_projects": self.public_projects,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | str | Path) -> NicodemusContent:
        """From the ``to_json`` form, a JSON string or a path to a JSON file."""
        data = cls.json_document(data)
        keys = {"machines", "projects", "supply", "start", "public_projects"}
        if not isinstance(data, dict) or set(data) != keys:
            raise InvalidParameterError(f"content JSON must have exactly the keys {sorted(keys)}")

        def counts(d: Any) -> tuple[int, ...]:
            if not isinstance(d, dict) or set(d) != set(RESOURCES):
                raise InvalidParameterError("resource counts map charcoalium, wood, copper and crystal")
            return tuple(d[r] for r in RESOURCES)

        if not isinstance(data["machines"], list) or not isinstance(data["projects"], list):
            raise InvalidParameterError("machines and projects are lists")
        if not isinstance(data["start"], list) or len(data["start"]) != 2:
            raise InvalidParameterError("start lists the first and the second player's resources")
        return cls(
            machines=tuple(MachineType.from_json(m) for m in data["machines"]),
            projects=tuple(ProjectTile.from_json(p) for p in data["projects"]),
            supply=counts(data["supply"]),  # type: ignore[arg-type]
            start=(counts(data["start"][0]), counts(data["start"][1])),  # type: ignore[arg-type]
            public_projects=data["public_projects"],
        )
