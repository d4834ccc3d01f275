"""Scrapyard's replaceable content: the 16 advanced Structures, the 100 Upgrades, the standard Structure and the
four resource dice.

The seed (000, V4.2) fixes the dice faces, the standard Structure (2 VP, 2 slots) and the numbers of cards
(4 advanced Structures of each type, 20 Upgrades of each family) but prints no advanced card. The cards below
are our defaults; RULES.md ("The cards") gives the reasoning and the simulation figures. The eight cards of the
seed's worked example (Bruno's robot) are among them with the values the example shows. Replace everything
with ``robotcore.make("scrapyard", content=ScrapyardContent(...))`` or ``ScrapyardContent.from_json(path)``.

Notation: resources are letters — ``M`` Mechanical, ``O`` mOtor, ``E`` Electronics, ``N`` eNergy — and a
column of cubes is a string such as ``"MMOE"``. Structure types are ``head``, ``body``, ``arms``, ``legs``
(letters ``H B A L``); Upgrade families are ``software``, ``shield``, ``weapon``, ``movement``, ``boost``
(codes ``SW SH WP MV BO``). Card codes number each type or family in content order: ``H1`` is the first
Head, ``WP7`` the seventh Weapon.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from robotcore.core.game import Content
from robotcore.errors import InvalidParameterError

RESOURCES = ("mech", "motor", "elec", "energy")
RES_LETTERS = "MOEN"
TYPES = ("head", "body", "arms", "legs")
TYPE_LETTERS = "HBAL"
FAMILIES = ("software", "shield", "weapon", "movement", "boost")
FAMILY_CODES = ("SW", "SH", "WP", "MV", "BO")
#: A Boost aims at a Structure type, or at the Structure that carries it ("self").
BOOST_TARGETS = (*TYPES, "self")

#: Engine limits the content must respect (state.pxd).
MAX_CARDS = 128
MAX_SLOTS = 4
MAX_REP_PER_RESOURCE = 3      # a Repair action places 0..3 cubes of each resource
MAX_ZONE_GAIN = 7             # cubes one card can return into one storage zone (REP + DEM)

Cubes = tuple[int, int, int, int]


def parse_cubes(text: str, what: str = "cubes") -> Cubes:
    """``"MMOE"`` -> (2, 1, 1, 0). Letters M, O, E, N in any order (case-insensitive); empty is allowed."""
    if not isinstance(text, str):
        raise InvalidParameterError(f"{what} must be a string of resource letters (M, O, E, N), got {text!r}")
    counts = [0, 0, 0, 0]
    for ch in text.upper():
        if ch not in RES_LETTERS:
            raise InvalidParameterError(f"{what}: {text!r} has {ch!r}; resources are M, O, E, N")
        counts[RES_LETTERS.index(ch)] += 1
    return counts[0], counts[1], counts[2], counts[3]


def cubes_text(cubes: Cubes) -> str:
    return "".join(RES_LETTERS[r] * n for r, n in enumerate(cubes))


def _check_costs(name: str, rep: Cubes, dem: Cubes) -> None:
    if sum(rep) < 1:
        raise InvalidParameterError(f"{name}: a REP column needs at least one cube")
    if max(rep) > MAX_REP_PER_RESOURCE:
        raise InvalidParameterError(f"{name}: at most {MAX_REP_PER_RESOURCE} cubes of one resource on REP")
    if max(dem) > MAX_REP_PER_RESOURCE:
        raise InvalidParameterError(f"{name}: at most {MAX_REP_PER_RESOURCE} cubes of one resource on DEM")
    if rep[0] + rep[1] + dem[0] + dem[1] > MAX_ZONE_GAIN or rep[2] + rep[3] + dem[2] + dem[3] > MAX_ZONE_GAIN:
        raise InvalidParameterError(
            f"{name}: REP + DEM may hold at most {MAX_ZONE_GAIN} cubes of one storage zone (M+O, E+N)")


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        raise InvalidParameterError("a card needs a name (1 to 60 characters)")


def _int(value: object, lo: int, hi: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidParameterError(f"{what} must be an integer in [{lo}, {hi}], got {value!r}")
    return value


class _Card:
    """What Structures and Upgrades share: a name and REP / DEM columns written as cube strings."""

    name: str
    rep: str
    dem: str

    @property
    def rep_cubes(self) -> Cubes:
        return parse_cubes(self.rep, f"{self.name}: rep")

    @property
    def dem_cubes(self) -> Cubes:
        return parse_cubes(self.dem, f"{self.name}: dem")


@dataclass(frozen=True)
class Structure(_Card):
    """An advanced Structure: its type, VP, Upgrade slots, storage bonus (+1 VP per full 3 cubes of that
    resource left in stock at the end, or None) and its REP / DEM columns (cube strings)."""

    name: str
    type: str
    vp: int
    slots: int
    bonus: str | None
    rep: str
    dem: str

    def __post_init__(self) -> None:
        _check_name(self.name)
        if self.type not in TYPES:
            raise InvalidParameterError(f"{self.name}: type must be one of {list(TYPES)}, got {self.type!r}")
        _int(self.vp, 0, 15, f"{self.name}: vp")
        _int(self.slots, 0, MAX_SLOTS, f"{self.name}: slots")
        if self.bonus is not None and self.bonus not in RESOURCES:
            raise InvalidParameterError(f"{self.name}: bonus must be one of {list(RESOURCES)} or None")
        _check_costs(self.name, self.rep_cubes, self.dem_cubes)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "vp": self.vp, "slots": self.slots, "bonus": self.bonus,
                "rep": self.rep, "dem": self.dem}


@dataclass(frozen=True)
class Upgrade(_Card):
    """An Upgrade: family, X, the Structure types it fits (its silhouettes), REP / DEM columns and, for a
    Boost, the Structure it counts (a type, or "self" for the Structure carrying it)."""

    name: str
    family: str
    x: int
    fits: tuple[str, ...]
    rep: str
    dem: str
    target: str | None = None

    def __post_init__(self) -> None:
        _check_name(self.name)
        if self.family not in FAMILIES:
            raise InvalidParameterError(f"{self.name}: family must be one of {list(FAMILIES)}")
        _int(self.x, 1, 15, f"{self.name}: x")
        fits = tuple(self.fits) if isinstance(self.fits, (list, tuple)) else ()
        if not fits or any(t not in TYPES for t in fits) or len(set(fits)) != len(fits):
            raise InvalidParameterError(f"{self.name}: fits must list distinct Structure types of {list(TYPES)}")
        object.__setattr__(self, "fits", tuple(t for t in TYPES if t in fits))
        if self.family == "boost":
            if self.target not in BOOST_TARGETS:
                raise InvalidParameterError(f"{self.name}: a Boost target must be one of {list(BOOST_TARGETS)}")
        elif self.target is not None:
            raise InvalidParameterError(f"{self.name}: only a Boost has a target")
        _check_costs(self.name, self.rep_cubes, self.dem_cubes)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "family": self.family, "x": self.x, "fits": list(self.fits),
                               "rep": self.rep, "dem": self.dem}
        if self.target is not None:
            out["target"] = self.target
        return out


def _s(name: str, type_: str, vp: int, slots: int, bonus: str | None, rep: str, dem: str) -> Structure:
    return Structure(name, type_, vp, slots, bonus, rep, dem)


def _fits(letters: str) -> tuple[str, ...]:
    return tuple(TYPES[TYPE_LETTERS.index(ch)] for ch in letters)


def _u(name: str, family: str, x: int, rep: str, dem: str, fits: str, target: str | None = None) -> Upgrade:
    return Upgrade(name, family, x, _fits(fits), rep, dem, target)


#: The 16 advanced Structures (4 of each type). VP 2-5, 2-4 slots, a storage bonus each; REP 2-5 cubes.
DEFAULT_STRUCTURES: tuple[Structure, ...] = (
    _s("Armoured Head", "head", 3, 2, "mech", "MMO", "MO"),            # the seed's "Tête blindée"
    _s("Sensor Dome", "head", 4, 2, "elec", "MOEE", "ME"),
    _s("Tactical Cortex", "head", 3, 3, "energy", "MEN", "EN"),
    _s("Scrap Skull", "head", 2, 3, "motor", "MO", "MM"),
    _s("Reinforced Chassis", "body", 4, 3, "mech", "MMMO", "MMO"),
    _s("Reactor Core", "body", 5, 2, "energy", "MOEN", "EN"),
    _s("Cargo Frame", "body", 3, 4, "motor", "MMOO", "MO"),
    _s("Salvaged Torso", "body", 2, 3, "mech", "MO", "MM"),
    _s("Titanium-plated Arms", "arms", 4, 3, "mech", "MMOE", "MO"),    # the seed's "Bras plaqués titane"
    _s("Hydraulic Claws", "arms", 3, 3, "motor", "MOO", "MO"),
    _s("Servo Arms", "arms", 3, 2, "elec", "ME", "ME"),
    _s("Gatling Mounts", "arms", 5, 4, "energy", "MMOEN", "OE"),
    _s("Tank Treads", "legs", 4, 2, "motor", "MMOO", "MMO"),
    _s("Spider Legs", "legs", 3, 3, "elec", "MOE", "ME"),
    _s("Jump Jets", "legs", 5, 3, "energy", "MOEN", "EN"),
    _s("Rusty Walkers", "legs", 2, 3, "mech", "MO", "MM"),
)

#: The 100 Upgrades, 20 per family. REP grows with X and with the scarce cubes (E, N); DEM is 1-2 cubes.
DEFAULT_UPGRADES: tuple[Upgrade, ...] = (
    # Software: +X. Mostly Head silhouettes.
    _u("Boot Loader", "software", 1, "E", "M", "HB"),
    _u("Patch Notes", "software", 1, "M", "E", "H"),
    _u("Cron Daemon", "software", 1, "E", "O", "HB"),
    _u("Firmware Flash", "software", 1, "M", "M", "H"),
    _u("Debug Console", "software", 1, "O", "E", "HB"),
    _u("Error Logger", "software", 1, "E", "MO", "H"),
    _u("Path Planner", "software", 2, "ME", "E", "H"),
    _u("Voice Module", "software", 2, "OE", "M", "H"),
    _u("Target Tracker", "software", 2, "EE", "O", "HB"),
    _u("Vision Filter", "software", 2, "MN", "E", "H"),
    _u("Swarm Protocol", "software", 2, "OE", "MO", "HA"),
    _u("Diagnostic Suite", "software", 2, "ME", "ME", "HB"),
    _u("Combat AI", "software", 3, "MEN", "E", "H"),
    _u("Neural Net", "software", 3, "EEN", "M", "H"),
    _u("Fire Control", "software", 3, "OEE", "O", "HA"),
    _u("Autopilot", "software", 3, "MEN", "OE", "HL"),
    _u("Threat Analyser", "software", 3, "MOE", "E", "H"),
    _u("Basic Hacking", "software", 4, "MEEN", "E", "H"),             # the seed's "Piratage basique"
    _u("Quantum Core", "software", 4, "OEEN", "N", "H"),
    _u("Overmind", "software", 4, "MOEN", "ME", "HB"),
    # Shield: +X per protected Structure on the whole robot. Every silhouette exists.
    _u("Light Armour", "shield", 1, "M", "M", "HBAL"),                 # "Armure légère"
    _u("Combat Armour MK-II", "shield", 1, "MO", "M", "BA"),            # "Armure de combat MK-II"
    _u("Scrap Plating", "shield", 1, "M", "O", "BL"),
    _u("Riveted Panels", "shield", 1, "M", "MM", "HB"),
    _u("Rubber Bumpers", "shield", 1, "O", "M", "AL"),
    _u("Mesh Guard", "shield", 1, "M", "O", "HA"),
    _u("Blast Visor", "shield", 1, "MO", "M", "H"),
    _u("Kevlar Wrap", "shield", 1, "O", "MO", "BAL"),
    _u("Spall Liner", "shield", 1, "MO", "O", "B"),
    _u("Shin Guards", "shield", 1, "M", "M", "L"),
    _u("Bracers", "shield", 1, "M", "O", "A"),
    _u("Helmet Rim", "shield", 1, "O", "M", "H"),
    _u("Modular Armour", "shield", 2, "MME", "MO", "HBAL"),             # "Armure modulaire"
    _u("Reactive Armour", "shield", 2, "MOE", "M", "BA"),
    _u("Energy Shield", "shield", 2, "MEN", "E", "HB"),
    _u("Force Field", "shield", 2, "OEN", "N", "BL"),
    _u("Titan Plates", "shield", 2, "MMO", "MM", "BL"),
    _u("Deflector Array", "shield", 2, "MOE", "E", "HA"),
    _u("Ceramic Tiles", "shield", 2, "MMO", "O", "AL"),
    _u("Aegis Dome", "shield", 2, "MEN", "M", "H"),
    # Weapon: +X per Weapon on its Structure (itself included). Mostly Arms.
    _u("Nail Gun", "weapon", 1, "M", "M", "A"),
    _u("Flame Spitter", "weapon", 1, "O", "M", "HA"),
    _u("Buzz Saw", "weapon", 1, "MO", "M", "A"),
    _u("Taser", "weapon", 1, "E", "M", "HA"),
    _u("Rivet Rifle", "weapon", 1, "M", "O", "BA"),
    _u("Pincer", "weapon", 1, "O", "O", "A"),
    _u("Shoulder Rockets", "weapon", 1, "MO", "E", "B"),
    _u("Eye Laser", "weapon", 1, "E", "M", "H"),
    _u("Spiked Knuckles", "weapon", 1, "M", "M", "A"),
    _u("Smoke Launcher", "weapon", 1, "O", "M", "BA"),
    _u("Laser Cannon", "weapon", 2, "MOE", "E", "A"),                   # "Canon laser"
    _u("Heavy Laser Cannon", "weapon", 2, "MME", "OE", "A"),            # "Canon laser lourd"
    _u("Plasma Torch", "weapon", 2, "OEN", "E", "A"),
    _u("Rail Gun", "weapon", 2, "MEN", "M", "BA"),
    _u("Chain Gun", "weapon", 2, "MMO", "MO", "A"),
    _u("Missile Pod", "weapon", 2, "MOE", "O", "BA"),
    _u("Tesla Coil", "weapon", 2, "EEN", "E", "HA"),
    _u("Sonic Blaster", "weapon", 2, "OEE", "M", "HA"),
    _u("Grav Hammer", "weapon", 2, "MMN", "M", "A"),
    _u("Ion Lance", "weapon", 2, "MEN", "N", "A"),
    # Movement: +X per other family present on its Structure. Mostly Legs.
    _u("Roller Skates", "movement", 1, "O", "M", "L"),
    _u("Caster Wheels", "movement", 1, "M", "O", "BL"),
    _u("Springs", "movement", 1, "M", "M", "L"),
    _u("Gyro Stabiliser", "movement", 1, "E", "O", "BL"),
    _u("Grip Pads", "movement", 1, "O", "M", "AL"),
    _u("Balance Weights", "movement", 1, "M", "O", "L"),
    _u("Piston Knees", "movement", 2, "MO", "M", "L"),
    _u("Track Drive", "movement", 2, "MOO", "O", "L"),
    _u("Hover Skirt", "movement", 2, "OE", "E", "BL"),
    _u("Magnetic Boots", "movement", 2, "ME", "M", "L"),
    _u("Climbing Hooks", "movement", 2, "MO", "O", "AL"),
    _u("Wheel Hub", "movement", 2, "OO", "M", "L"),
    _u("Leaf Springs", "movement", 2, "MM", "O", "L"),
    _u("Turbo Fan", "movement", 2, "OE", "O", "BL"),
    _u("Basic Motor", "movement", 3, "MOO", "MO", "L"),                 # "Moteur basique"
    _u("Jet Thrusters", "movement", 3, "OEN", "E", "BL"),
    _u("Servo Drive", "movement", 3, "MOE", "O", "L"),
    _u("Rocket Boots", "movement", 3, "OON", "N", "L"),
    _u("Quad Actuators", "movement", 3, "MMOE", "M", "AL"),
    _u("Fusion Pistons", "movement", 3, "OEN", "O", "L"),
    # Boost: +X per Upgrade on its target Structure (itself always counted). 4 per target.
    _u("Signal Booster", "boost", 1, "E", "M", "HBAL", "self"),
    _u("Cable Harness", "boost", 1, "M", "O", "HBAL", "self"),
    _u("Spare Fuses", "boost", 1, "E", "M", "HB", "head"),
    _u("Cooling Fins", "boost", 1, "M", "M", "BA", "body"),
    _u("Power Relay", "boost", 1, "E", "O", "BA", "arms"),
    _u("Step-up Gear", "boost", 1, "O", "M", "BL", "legs"),
    _u("Data Bus", "boost", 1, "E", "E", "HA", "head"),
    _u("Grease Pump", "boost", 1, "O", "O", "L", "legs"),
    _u("Overclock Chip", "boost", 2, "EN", "E", "HB", "self"),
    _u("Capacitor Bank", "boost", 2, "EN", "M", "B", "body"),
    _u("Arm Amplifier", "boost", 2, "ME", "O", "A", "arms"),
    _u("Leg Amplifier", "boost", 2, "OE", "M", "L", "legs"),
    _u("Head Amplifier", "boost", 2, "EE", "M", "H", "head"),
    _u("Power Router", "boost", 2, "ME", "E", "BAL", "body"),
    _u("Servo Synchroniser", "boost", 2, "OE", "M", "BA", "arms"),
    _u("Load Balancer", "boost", 2, "MN", "O", "HBAL", "self"),
    _u("Improved Detection", "boost", 3, "EEN", "E", "H", "head"),      # "Détection améliorée"
    _u("Core Amplifier", "boost", 3, "MEN", "E", "B", "body"),
    _u("Weapon Link", "boost", 3, "OEN", "O", "HA", "arms"),
    _u("Stride Optimiser", "boost", 3, "OEN", "M", "L", "legs"),
)

#: The seed's dice: Mechanical 0·1·1·1·2·2, Motor 0·0·1·1·1·1, Electronics 0·0·0·1·1·1, Energy 0·0·0·0·1·1.
DEFAULT_DICE: tuple[tuple[int, ...], ...] = (
    (0, 1, 1, 1, 2, 2),
    (0, 0, 1, 1, 1, 1),
    (0, 0, 0, 1, 1, 1),
    (0, 0, 0, 0, 1, 1),
)


@dataclass(frozen=True)
class ScrapyardContent(Content):
    """Advanced Structures and Upgrades (together at most 128 cards: the deck), the dice and the standard
    Structure sold by the Merchant."""

    structures: tuple[Structure, ...]
    upgrades: tuple[Upgrade, ...]
    dice: tuple[tuple[int, ...], ...] = DEFAULT_DICE
    standard_vp: int = 2
    standard_slots: int = 2

    def __post_init__(self) -> None:
        raw_s: object = self.structures
        raw_u: object = self.upgrades
        if not isinstance(raw_s, (list, tuple)) or not all(isinstance(s, Structure) for s in raw_s):
            raise InvalidParameterError("structures must be a sequence of Structure values")
        if not isinstance(raw_u, (list, tuple)) or not all(isinstance(u, Upgrade) for u in raw_u):
            raise InvalidParameterError("upgrades must be a sequence of Upgrade values")
        structures: tuple[Structure, ...] = tuple(raw_s)
        upgrades: tuple[Upgrade, ...] = tuple(raw_u)
        if not 1 <= len(structures) + len(upgrades) <= MAX_CARDS:
            raise InvalidParameterError(f"the deck holds 1 to {MAX_CARDS} cards")
        names = [c.name for c in structures] + [u.name for u in upgrades]
        if len(set(names)) != len(names):
            raise InvalidParameterError("card names must be distinct")
        dice = tuple(tuple(d) for d in self.dice) if isinstance(self.dice, (list, tuple)) else ()
        if len(dice) != 4 or any(len(d) != 6 for d in dice):
            raise InvalidParameterError("dice: four dice (M, O, E, N) of six faces each")
        for d in dice:
            for face in d:
                _int(face, 0, 3, "a die face")
        if max(dice[0]) + max(dice[1]) > MAX_ZONE_GAIN or max(dice[2]) + max(dice[3]) > MAX_ZONE_GAIN:
            raise InvalidParameterError("dice: one roll may bring at most 7 cubes into one storage zone")
        _int(self.standard_vp, 0, 15, "standard_vp")
        _int(self.standard_slots, 0, MAX_SLOTS, "standard_slots")
        object.__setattr__(self, "structures", structures)
        object.__setattr__(self, "upgrades", upgrades)
        object.__setattr__(self, "dice", dice)

    @classmethod
    def default(cls) -> ScrapyardContent:
        return cls(structures=DEFAULT_STRUCTURES, upgrades=DEFAULT_UPGRADES)

    # -- cards ------------------------------------------------------------------------------------------------

    @property
    def cards(self) -> tuple[Structure | Upgrade, ...]:
        """Every deck card in id order: the Structures, then the Upgrades."""
        return (*self.structures, *self.upgrades)

    @property
    def num_cards(self) -> int:
        return len(self.structures) + len(self.upgrades)

    def codes(self) -> tuple[str, ...]:
        """Short code of each card id: ``H1``... for Structures (per type), ``SW1``... for Upgrades (per family)."""
        seen: dict[str, int] = {}
        out = []
        for card in self.cards:
            prefix = (TYPE_LETTERS[TYPES.index(card.type)] if isinstance(card, Structure)
                      else FAMILY_CODES[FAMILIES.index(card.family)])
            seen[prefix] = seen.get(prefix, 0) + 1
            out.append(f"{prefix}{seen[prefix]}")
        return tuple(out)

    def describe(self, card_id: int) -> dict[str, Any]:
        card = self.cards[card_id]
        out: dict[str, Any] = {"id": card_id, "code": self.codes()[card_id], "kind":
                               "structure" if isinstance(card, Structure) else "upgrade"}
        out.update(card.to_json())
        return out

    # -- JSON -------------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "structures": [s.to_json() for s in self.structures],
            "upgrades": [u.to_json() for u in self.upgrades],
            "dice": [list(d) for d in self.dice],
            "standard_vp": self.standard_vp,
            "standard_slots": self.standard_slots,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | str | Path) -> ScrapyardContent:
        """From the ``to_json`` form, a JSON string or a path to a JSON file."""
        data = cls.json_document(data)
        keys = {"structures", "upgrades", "dice", "standard_vp", "standard_slots"}
        if not isinstance(data, dict) or not {"structures", "upgrades"} <= set(data) <= keys:
            raise InvalidParameterError("content JSON needs 'structures' and 'upgrades' (optional: "
                                        "'dice', 'standard_vp', 'standard_slots')")
        try:
            structures = tuple(Structure(**s) for s in data["structures"])
            upgrades = tuple(Upgrade(**{**u, "fits": tuple(u.get("fits", ()))}) for u in data["upgrades"])
        except (TypeError, AttributeError) as exc:
            raise InvalidParameterError(f"bad card: {exc}") from None
        extra = {k: data[k] for k in ("dice", "standard_vp", "standard_slots") if k in data}
        return cls(structures=structures, upgrades=upgrades, **extra)
