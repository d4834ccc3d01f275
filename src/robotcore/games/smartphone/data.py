"""Smartphone's replaceable content: resource types, the four components, the three suppliers and their decks,
the malus cards and how the malus pile is built, the 14 events in their fixed order, the quiz questions, and the
market-refresh and scoring constants.

The numbers are those of PhoneImpact (Inria Learning Lab) at the seed's date (``shared/research/smartphone.md``,
marked FOUND there); every text is written in our own words (French, as the seed, with an English translation),
each card keeping the reference of its source. Pass your own with ``robotcore.make("smartphone",
content=SmartphoneContent(...))`` or ``SmartphoneContent.from_json(...)``: every field is validated when the content
is built, then compiled into the engine's tables.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from robotcore.core.game import Content
from robotcore.errors import InvalidParameterError

#: Resource types, in the engine's order: precious metal, rare metal, common metal, rare earth, other material.
TYPES = ("MP", "MR", "MC", "TR", "AM")
TYPE_NAMES = {
    "MP": ("métal précieux", "precious metal"),
    "MR": ("métal rare", "rare metal"),
    "MC": ("métal commun", "common metal"),
    "TR": ("terre rare", "rare earth"),
    "AM": ("autre matière", "other material"),
}
#: The three suppliers, in the engine's order, and the one-letter codes of the notation.
SUPPLIERS = ("PolluPlus", "PolluMoins", "Recyclage")
SUPPLIER_CODES = ("P", "M", "R")
RECYCLING = 2
#: Per-card malus effects (used only by the ``harsh_malus`` variant; state.pxd ``MX_*``).
MALUS_EFFECTS = ("none", "heavy", "sticky", "lose", "wipe", "block")
#: What an event does (state.pxd ``EV_*``).
EVENT_KINDS = (
    "none",
    "quiz_take",
    "collect_recycled",
    "trading",
    "discard_supplier",
    "new_mines",
    "malus_penalty",
    "neighbour_tax",
    "double_malus",
    "hoarding_limit",
    "recycling_duel",
    "recycling_tax",
    "no_depollution",
    "end_game",
)

MAX_COMPONENTS = 6
MAX_MALUS = 24
MAX_EVENTS = 24
MAX_VISIBLE = 4
MAX_BUILD_OPTIONS = 4096
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,11}$")
_RESERVED = {"supply", "build", "take", "draw", "depollute", "stop", "pass", "discard", "give", "ask", "offer",
             "send", "cancel", "accept", "refuse", "decline", "malus", "tax", "vote", "yes", "no", "done"}


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not _NAME.match(value) or value.lower() in _RESERVED \
            or value.upper() in TYPES:
        raise InvalidParameterError(f"{what} name {value!r} must be a letter then up to 11 letters/digits/_")
    return value


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidParameterError(f"{what} must be an integer in [{lo}, {hi}], got {value!r}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) > 400:
        raise InvalidParameterError(f"{what} must be a text of at most 400 characters")
    return value


def _counts(value: Any, what: str, hi: int) -> tuple[int, int, int, int, int]:
    """Five counts in type order, from a tuple/list or a {type: count} mapping (missing types are 0)."""
    if isinstance(value, dict):
        if set(value) - set(TYPES):
            raise InvalidParameterError(f"{what}: unknown resource types {sorted(set(value) - set(TYPES))}")
        value = tuple(value.get(t, 0) for t in TYPES)
    if not isinstance(value, (list, tuple)) or len(value) != 5:
        raise InvalidParameterError(f"{what} is 5 counts: {', '.join(TYPES)}")
    return tuple(_int(x, what, 0, hi) for x in value)  # type: ignore[return-value]


def _count_json(counts: tuple[int, ...]) -> dict[str, int]:
    return {t: n for t, n in zip(TYPES, counts) if n}


@dataclass(frozen=True)
class Component:
    """A smartphone component: its points and the resource cards laid on it (``recipe``, 5 counts in type order).
    ``later_recipe`` is the 2025 board's recipe when it differs (the ``screen_precious_metal`` variant)."""

    name: str
    points: int
    recipe: tuple[int, int, int, int, int]
    title_fr: str = ""
    title_en: str = ""
    later_recipe: tuple[int, int, int, int, int] | None = None
    source: str = ""

    def __post_init__(self) -> None:
        _name(self.name, "component")
        _int(self.points, f"component {self.name} points", 0, 50)
        object.__setattr__(self, "recipe", _counts(self.recipe, f"component {self.name} recipe", 9))
        if self.later_recipe is not None:
            object.__setattr__(self, "later_recipe",
                               _counts(self.later_recipe, f"component {self.name} later recipe", 9))
        for r in (self.recipe, self.later_recipe):
            if r is not None and not 1 <= sum(r) <= 12:
                raise InvalidParameterError(f"component {self.name}: a recipe has 1 to 12 cards")
        _text(self.title_fr, "title")
        _text(self.title_en, "title")
        _text(self.source, "source")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "points": self.points, "recipe": _count_json(self.recipe),
                "title_fr": self.title_fr, "title_en": self.title_en,
                "later_recipe": None if self.later_recipe is None else _count_json(self.later_recipe),
                "source": self.source}

    @classmethod
    def from_json(cls, d: Any) -> Component:
        keys = {"name", "points", "recipe", "title_fr", "title_en", "later_recipe", "source"}
        if not isinstance(d, dict) or set(d) != keys:
            raise InvalidParameterError(f"a component is {sorted(keys)}")
        return cls(d["name"], d["points"], d["recipe"], d["title_fr"], d["title_en"], d["later_recipe"],
                   d["source"])


@dataclass(frozen=True)
class Supplier:
    """A supplier: its deck (5 counts), how many of its cards lie face up, how many cards one supply takes and
    how many malus cards come with it."""

    name: str
    deck: tuple[int, int, int, int, int]
    visible: int
    take: int
    malus: int
    text_fr: str = ""
    text_en: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck", _counts(self.deck, f"supplier {self.name} deck", 200))
        if sum(self.deck) > 250:
            raise InvalidParameterError(f"supplier {self.name}: at most 250 cards")
        _int(self.visible, f"supplier {self.name} visible cards", 0, MAX_VISIBLE)
        _int(self.take, f"supplier {self.name} cards per supply", 1, 4)
        _int(self.malus, f"supplier {self.name} malus per supply", 0, 4)
        _text(self.text_fr, "text")
        _text(self.text_en, "text")
        _text(self.source, "source")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "deck": _count_json(self.deck), "visible": self.visible, "take": self.take,
                "malus": self.malus, "text_fr": self.text_fr, "text_en": self.text_en, "source": self.source}

    @classmethod
    def from_json(cls, d: Any) -> Supplier:
        keys = {"name", "deck", "visible", "take", "malus", "text_fr", "text_en", "source"}
        if not isinstance(d, dict) or set(d) != keys:
            raise InvalidParameterError(f"a supplier is {sorted(keys)}")
        return cls(d["name"], d["deck"], d["visible"], d["take"], d["malus"], d["text_fr"], d["text_en"],
                   d["source"])


@dataclass(frozen=True)
class MalusCard:
    """A malus card: read aloud when drawn. In the original it has no effect of its own (malus count); the
    ``harsh_malus`` variant gives it ``effect`` (``heavy``: counts as 2 malus; ``sticky``: cannot be
    depolluted; ``lose``: when drawn with a supply, lose a non-recycled resource of type ``arg``; ``wipe``: the
    face-up cards of supplier ``arg`` are discarded; ``block``: no supply at supplier ``arg`` on the next turn)."""

    name: str
    category: str
    text_fr: str
    text_en: str
    source: str
    effect: str = "none"
    arg: str = ""

    def __post_init__(self) -> None:
        _name(self.name, "malus")
        if "-" in self.name:
            raise InvalidParameterError("malus names have no '-'")
        for v, w in ((self.category, "category"), (self.text_fr, "text"), (self.text_en, "text"),
                     (self.source, "source")):
            _text(v, w)
        if self.effect not in MALUS_EFFECTS:
            raise InvalidParameterError(f"malus {self.name}: effect must be one of {list(MALUS_EFFECTS)}")
        if self.effect == "lose" and self.arg not in TYPES:
            raise InvalidParameterError(f"malus {self.name}: 'lose' takes a resource type {list(TYPES)}")
        if self.effect in ("wipe", "block") and self.arg not in SUPPLIERS:
            raise InvalidParameterError(f"malus {self.name}: '{self.effect}' takes a supplier {list(SUPPLIERS)}")
        if self.effect in ("none", "heavy", "sticky") and self.arg:
            raise InvalidParameterError(f"malus {self.name}: '{self.effect}' takes no argument")

    def engine_arg(self) -> int:
        if self.effect == "lose":
            return TYPES.index(self.arg)
        if self.effect in ("wipe", "block"):
            return SUPPLIERS.index(self.arg)
        return 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "category": self.category, "text_fr": self.text_fr, "text_en": self.text_en,
                "source": self.source, "effect": self.effect, "arg": self.arg}

    @classmethod
    def from_json(cls, d: Any) -> MalusCard:
        keys = {"name", "category", "text_fr", "text_en", "source", "effect", "arg"}
        if not isinstance(d, dict) or set(d) != keys:
            raise InvalidParameterError(f"a malus card is {sorted(keys)}")
        return cls(d["name"], d["category"], d["text_fr"], d["text_en"], d["source"], d["effect"], d["arg"])


@dataclass(frozen=True)
class Quiz:
    """A quiz question (for a user interface: the engine replaces answering it by a seeded draw)."""

    question_fr: str
    question_en: str
    answer_fr: str
    answer_en: str
    source: str = ""

    def __post_init__(self) -> None:
        for v in (self.question_fr, self.question_en, self.answer_fr, self.answer_en, self.source):
            _text(v, "quiz text")

    def to_json(self) -> dict[str, Any]:
        return {"question_fr": self.question_fr, "question_en": self.question_en, "answer_fr": self.answer_fr,
                "answer_en": self.answer_en, "source": self.source}

    @classmethod
    def from_json(cls, d: Any) -> Quiz:
        keys = {"question_fr", "question_en", "answer_fr", "answer_en", "source"}
        if not isinstance(d, dict) or set(d) != keys:
            raise InvalidParameterError(f"a quiz is {sorted(keys)}")
        return cls(**d)


@dataclass(frozen=True)
class Event:
    """An event card: its number, what it does (``kind`` with its numbers: ``amount``, ``limit``, ``types``,
    ``supplier``; RULES.md "Events" says what each kind reads), whether it is marked ``*`` (players are
    ordered by the tie-break order), its texts and source, and the quiz it asks when it has one."""

    number: int
    kind: str
    star: bool
    title_fr: str
    title_en: str
    text_fr: str
    text_en: str
    source: str = ""
    amount: int = 0
    limit: int = 0
    types: tuple[str, ...] = ()
    supplier: str = ""
    quiz: Quiz | None = None

    def __post_init__(self) -> None:
        _int(self.number, "event number", 1, 99)
        if self.kind not in EVENT_KINDS:
            raise InvalidParameterError(f"event {self.number}: kind must be one of {list(EVENT_KINDS)}")
        if not isinstance(self.star, bool):
            raise InvalidParameterError(f"event {self.number}: star is a bool")
        for v in (self.title_fr, self.title_en, self.text_fr, self.text_en, self.source):
            _text(v, "event text")
        _int(self.amount, f"event {self.number} amount", 0, 9)
        _int(self.limit, f"event {self.number} limit", 0, 9)
        types = tuple(self.types)
        if not all(t in TYPES for t in types) or len(set(types)) != len(types):
            raise InvalidParameterError(f"event {self.number}: types are distinct names among {list(TYPES)}")
        object.__setattr__(self, "types", types)
        if self.supplier and self.supplier not in SUPPLIERS:
            raise InvalidParameterError(f"event {self.number}: supplier must be one of {list(SUPPLIERS)}")
        need = {"quiz_take": ("amount",), "discard_supplier": ("amount", "supplier"), "malus_penalty": ("amount",),
                "double_malus": ("amount",), "hoarding_limit": ("limit",), "recycling_tax": ("amount", "limit"),
                "collect_recycled": ("types",), "new_mines": ("amount",)}.get(self.kind, ())
        for k in need:
            if not getattr(self, k):
                raise InvalidParameterError(f"event {self.number} ({self.kind}) needs a non-zero {k}")
        if self.quiz is not None and not isinstance(self.quiz, Quiz):
            raise InvalidParameterError(f"event {self.number}: quiz must be a Quiz")

    def engine_row(self) -> tuple[int, int, int, int, int, int]:
        mask = sum(1 << TYPES.index(t) for t in self.types)
        sup = SUPPLIERS.index(self.supplier) if self.supplier else 0
        return EVENT_KINDS.index(self.kind), int(self.star), self.amount, self.limit, mask, sup

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "kind": self.kind, "star": self.star, "title_fr": self.title_fr,
                "title_en": self.title_en, "text_fr": self.text_fr, "text_en": self.text_en,
                "source": self.source, "amount": self.amount, "limit": self.limit, "types": list(self.types),
                "supplier": self.supplier, "quiz": None if self.quiz is None else self.quiz.to_json()}

    @classmethod
    def from_json(cls, d: Any) -> Event:
        keys = {"number", "kind", "star", "title_fr", "title_en", "text_fr", "text_en", "source", "amount",
                "limit", "types", "supplier", "quiz"}
        if not isinstance(d, dict) or set(d) != keys or not isinstance(d["types"], list):
            raise InvalidParameterError(f"an event is {sorted(keys)}")
        quiz = None if d["quiz"] is None else Quiz.from_json(d["quiz"])
        return cls(d["number"], d["kind"], d["star"], d["title_fr"], d["title_en"], d["text_fr"], d["text_en"],
                   d["source"], d["amount"], d["limit"], tuple(d["types"]), d["supplier"], quiz)


# -- the default content (PhoneImpact, seed era; research FOUND values) -------------------------------------------

_BOARD = "PhoneImpact docs/pdf/docCommuns/plateau.pdf @48bda3f; Sources_plateau.md (ISF SystExt 2017)"

DEFAULT_COMPONENTS = (
    Component("shell", 4, (0, 1, 1, 0, 3), "Coque", "Shell", None, _BOARD),
    Component("battery", 6, (0, 1, 2, 0, 1), "Batterie", "Battery", None, _BOARD),
    Component("screen", 8, (0, 1, 1, 1, 2), "Écran tactile", "Touch screen", (1, 1, 1, 1, 2),
              _BOARD + "; 2025 board (HEAD Plateau.pdf): +1 MP"),
    Component("motherboard", 10, (1, 2, 2, 1, 2), "Carte mère", "Motherboard", None, _BOARD),
)

_DECKS = "PhoneImpact docs/Materiel.md + data/csv/resources_distribution.csv @48bda3f"
DEFAULT_SUPPLIERS = (
    Supplier("PolluPlus", (3, 16, 26, 8, 22), 3, 3, 2,
             "Mine classique, sans effort pour l'environnement : beaucoup de cartes, beaucoup de malus.",
             "Conventional mining with no care for the environment: many cards, many malus.", _DECKS),
    Supplier("PolluMoins", (2, 10, 15, 5, 17), 2, 2, 1,
             "Mine qui fait des efforts : moins de cartes, moins de malus.",
             "Mining that makes an effort: fewer cards, fewer malus.", _DECKS),
    Supplier("Recyclage", (2, 0, 6, 0, 9), 1, 1, 0,
             "Filière de recyclage : une seule carte, aucun malus, ni métal rare ni terre rare ; "
             "une carte recyclée ne peut jamais être perdue.",
             "Recycling: one card, no malus, no rare metal and no rare earth; a recycled card can never be lost.",
             _DECKS),
)


def _mc(name: str, category: str, fr: str, en: str, source: str, effect: str = "none", arg: str = "") -> MalusCard:
    return MalusCard(name, category, fr, en, source, effect, arg)


#: 23 malus cards (texts in our own words; effects only for the harsh variant). Research section 4.
DEFAULT_MALUS = (
    _mc("M01", "Définition", "Minerai : roche dont on tire un métal une fois broyée et traitée.",
        "Ore: rock from which a metal is obtained once crushed and processed.", "PhoneImpact glossary; lelementarium.fr"),
    _mc("M02", "Définition", "Stériles : roches creusées et mises de côté pour atteindre le minerai.",
        "Waste rock: rock dug out and set aside to reach the ore.", "Nassar et al. 2022, doi:10.1021/acs.est.1c07875"),
    _mc("M03", "Définition", "Résidus : boues laissées par le traitement du minerai, retenues par des digues.",
        "Tailings: sludge left by ore processing, held back by dams.", "UNEP/GRID-Arendal 2017, grida.no/publications/383"),
    _mc("M04", "Teneur", "Pour une tonne de minerai de cuivre, à peine 6 kg de métal en moyenne.",
        "A tonne of copper ore yields barely 6 kg of metal on average.", "Nassar et al. 2022 (table S4)"),
    _mc("M05", "Extraction", "Fabriquer un téléphone fait creuser 10 à 15 kg de roche, l'or à lui seul environ 7 kg.",
        "Making one phone digs up 10 to 15 kg of rock, about 7 kg for the gold alone.", "University of Plymouth, 2019"),
    _mc("M06", "Catastrophe", "Brumadinho, 2019 : une digue à résidus lâche au Brésil, 270 morts.",
        "Brumadinho, 2019: a tailings dam gives way in Brazil, 270 dead.",
        "fr.wikipedia.org/wiki/Rupture_du_barrage_de_Brumadinho; ARIA", "heavy"),
    _mc("M07", "Catastrophe", "Mariana, 2015 : la coulée de boue minière descend le fleuve jusqu'à l'océan, ~650 km.",
        "Mariana, 2015: the mining mudflow runs down the river to the ocean, ~650 km.",
        "aria.developpement-durable.gouv.fr/accident/47369/", "wipe", "PolluPlus"),
    _mc("M08", "Catastrophe", "Baia Mare, 2000 : une fuite de cyanure stérilise ~600 km de rivière.",
        "Baia Mare, 2000: a cyanide spill kills ~600 km of river.", "ARIA fiche 17265", "heavy"),
    _mc("M09", "Catastrophe", "Ajka, 2010 : la boue rouge d'une usine d'alumine submerge des villages hongrois.",
        "Ajka, 2010: red sludge from an alumina plant floods Hungarian villages.", "ARIA fiche 39047", "lose", "MC"),
    _mc("M10", "Pollution", "Drainage acide : les déchets miniers sulfurés acidifient l'eau qui emporte plomb et arsenic.",
        "Acid drainage: sulphide mine waste turns water acid, and it carries lead and arsenic away.",
        "BRGM RR-39503-FR", "sticky"),
    _mc("M11", "Pollution", "L'or se sépare souvent au cyanure, qu'on retrouve ensuite dans les résidus.",
        "Gold is often separated with cyanide, which then ends up in the tailings.",
        "mineralinfo.fr, Exploitation minière et traitement des minerais (2017)"),
    _mc("M12", "Séquelles", "Salsigne (Aude) : la mine d'or fermée laisse toujours de l'arsenic dans la vallée.",
        "Salsigne (Aude): the closed gold mine still leaves arsenic in the valley.", "vie-publique.fr/rapport/26411",
        "sticky"),
    _mc("M13", "Conflits", "Étain, tantale, tungstène et or financent des conflits armés : l'UE impose des contrôles.",
        "Tin, tantalum, tungsten and gold fund armed conflicts: the EU requires checks.",
        "EU Regulation 2017/821 (eur-lex summary)", "lose", "MR"),
    _mc("M14", "Conflits", "Cobalt : environ trois quarts viennent de RD Congo, où travaillent des enfants.",
        "Cobalt: about three quarters come from DR Congo, where children work in the mines.",
        "USGS MCS 2024; Amnesty International 2016", "block", "PolluPlus"),
    _mc("M15", "Conflits", "Dans les Andes, les mines de cuivre et de lithium assèchent l'eau des villages.",
        "In the Andes, copper and lithium mines drain the villages' water.",
        "OCMAL mapa.conflictosmineros.net; miningwatch.ca"),
    _mc("M16", "Tensions", "Terres rares : la Chine en extrait près de 70 % (presque tout en 2010).",
        "Rare earths: China mines nearly 70 % of them (almost all in 2010).", "USGS Mineral Commodity Summaries 2024 / 2011",
        "lose", "TR"),
    _mc("M17", "Tensions", "Gallium : sous-produit de l'aluminium, produit presque entièrement en Chine.",
        "Gallium: a by-product of aluminium, made almost entirely in China.",
        "USGS MCS 2024; mineralinfo.fr/fr/substance/gallium-ga"),
    _mc("M18", "Pollution", "Baotou : un lac de résidus de terres rares d'une dizaine de km² imprègne les sols.",
        "Baotou: a rare-earth tailings lake of about ten km² seeps into the ground.", "dialogue.earth article 5495",
        "heavy"),
    _mc("M19", "Recyclage", "En 2022, à peine un cinquième des 62 Mt de déchets électroniques a été recyclé de façon suivie.",
        "In 2022, barely a fifth of the 62 Mt of e-waste was recycled in a tracked way.",
        "Global E-waste Monitor 2024 (ITU/UNITAR)"),
    _mc("M20", "Recyclage", "Terres rares, indium, tantale, gallium : moins de 1 % sont récupérés en fin de vie.",
        "Rare earths, indium, tantalum, gallium: under 1 % is recovered at end of life.",
        "UNEP 2011 Recycling rates of metals; GEM 2024"),
    _mc("M21", "Recyclage", "Recycler pollue aussi : du plomb dans le sang d'enfants près d'une fonderie belge (2020).",
        "Recycling pollutes too: lead in the blood of children near a Belgian smelter (2020).", "Le Monde, 24/09/2020",
        "sticky"),
    _mc("M22", "Usage", "On remplace son téléphone environ tous les deux ans, alors que la plupart fonctionnent encore.",
        "Phones are replaced about every two years, while most still work.",
        "ADEME/FNE 2017; ADEME guide Longue vie à notre smartphone 2022"),
    _mc("M23", "Fabrication", "La fabrication pèse 70 à 80 % de l'impact environnemental d'un smartphone.",
        "Manufacturing is 70 to 80 % of a smartphone's environmental impact.", "ADEME (E. Fangeat, 2020)"),
)
#: The definition cards laid on top of the malus pile, in this order (research section 4).
DEFAULT_MALUS_TOP = ("M01", "M02", "M03")
#: The canonical list the rest of the pile is taken from (its first 12 x players - 3 cards, then shuffled).
DEFAULT_MALUS_ORDER = tuple(f"M{i:02d}" for i in range(4, 24)) * 2 + tuple(f"M{i:02d}" for i in range(4, 21))
DEFAULT_MALUS_PER_PLAYER = 12

_EVENTS = "PhoneImpact data/csv/events.csv @48bda3f"
_Q1 = Quiz("Combien de roche faut-il extraire pour obtenir 1 g d'or ?",
           "How much rock must be mined to obtain 1 g of gold?",
           "Environ 5 tonnes (estimation 2024 ; 3 tonnes dans la version 2025).",
           "About 5 tonnes (2024 estimate; 3 tonnes in the 2025 version).", _EVENTS)


def _ev(number: int, kind: str, star: bool, tfr: str, ten: str, fr: str, en: str, source: str = _EVENTS,
        **kw: Any) -> Event:
    return Event(number, kind, star, tfr, ten, fr, en, source, **kw)


#: The 14 events, stacked in this fixed order (research section 5); 1 and 5 are marked *, 13 ends the game.
DEFAULT_EVENTS = (
    _ev(1, "quiz_take", True, "Quiz", "Quiz",
        "Question : combien de roche pour 1 g d'or ? Le meilleur au quiz prend une carte ressource visible.",
        "Question: how much rock for 1 g of gold? The best at the quiz takes one face-up resource card.",
        amount=1, quiz=_Q1),
    _ev(2, "collect_recycled", False, "Coup de pouce", "A helping hand",
        "La collecte des vieux téléphones rapporte : qui possède une carte recyclée prend une carte visible "
        "recyclable (métal précieux, métal commun ou autre matière).",
        "Collecting old phones pays off: whoever owns a recycled card takes one face-up recyclable card "
        "(precious metal, common metal or other material).", types=("MP", "MC", "AM")),
    _ev(3, "trading", False, "La loi change", "The law changes",
        "2005, marché européen du carbone : désormais les joueurs peuvent échanger ressources et malus.",
        "2005, the EU carbon market: from now on players may trade resources and malus.", amount=2),
    _ev(4, "discard_supplier", False, "La loi change", "The law changes",
        "2017, règlement européen sur les minerais de conflit : défaussez 2 ressources PolluPlus de votre main.",
        "2017, the EU conflict-minerals regulation: discard 2 PolluPlus resources from your hand.",
        amount=2, supplier="PolluPlus"),
    _ev(5, "new_mines", True, "Coup de pouce", "A helping hand",
        "De nouvelles mines ouvrent près de Techcity : chacun, en commençant par le moins pollué, prend une "
        "carte visible ; retirez un malus de la pioche par carte prise.",
        "New mines open near Techcity: each player, the least polluted first, takes a face-up card; remove "
        "one malus from the pile per card taken.", amount=1),
    _ev(6, "malus_penalty", False, "Événement majeur", "Major event",
        "Après une catastrophe minière, loi pollueur-payeur : chaque malus gardé coûtera 1 point à la fin.",
        "After a mining disaster, a polluter-pays law: every malus kept will cost 1 point at the end.", amount=1),
    _ev(7, "neighbour_tax", False, "Taxe", "Tax",
        "Les vertueux sont aidés : chacun prend une carte non recyclée au hasard à son voisin de gauche si celui-ci "
        "a strictement plus de malus que lui.",
        "The virtuous are helped: each player takes a random non-recycled card from their left neighbour if that "
        "neighbour holds strictly more malus."),
    _ev(8, "double_malus", False, "Événement majeur", "Major event",
        "Les teneurs des minerais baissent : les malus des fournisseurs sont doublés jusqu'à la fin.",
        "Ore grades fall: suppliers' malus are doubled until the end.", amount=2),
    _ev(9, "hoarding_limit", False, "La loi change", "The law changes",
        "Loi anti-stockage : gardez au plus 2 ressources de chaque type en main (hors cartes recyclées).",
        "Anti-hoarding law: keep at most 2 resources of each type in hand (recycled cards excepted).", limit=2),
    _ev(10, "recycling_duel", False, "Taxe", "Tax",
        "Le champion du recyclage prend une ressource au plus gros client de PolluPlus, ou lui donne un malus.",
        "The recycling champion takes a resource from PolluPlus's biggest customer, or gives them a malus."),
    _ev(11, "recycling_tax", False, "Taxe", "Tax",
        "Taxe recyclage : qui a moins de 3 cartes recyclées perd 2 ressources ou prend 1 malus.",
        "Recycling tax: whoever has fewer than 3 recycled cards loses 2 resources or takes 1 malus.",
        amount=2, limit=3),
    _ev(12, "no_depollution", False, "Information", "Information",
        "Dépolluer n'est pas toujours possible : personne ne se défausse de malus au prochain tour.",
        "Cleaning up is not always possible: nobody discards malus during the next round."),
    _ev(13, "end_game", False, "Événement majeur", "Major event",
        "2040 : les mines ferment. Fin de la partie.", "2040: the mines close. The game ends."),
    _ev(14, "none", False, "Carte supplémentaire", "Spare card",
        "Carte de réserve, sans effet.", "Spare card, no effect."),
)
#: The 20-minute game keeps these events only (seed).
DEFAULT_SHORT_EVENTS = (1, 5, 6, 7, 13)

_QUIZ_SRC = "research/smartphone.md section 2"
DEFAULT_QUIZ = (
    Quiz("Quelle part de l'impact d'un smartphone vient de sa fabrication ?",
         "What share of a smartphone's impact comes from making it?", "70 à 80 %", "70 to 80 %",
         "ADEME (E. Fangeat, 2020)"),
    Quiz("Quel métal pèse le plus lourd dans un smartphone ?", "Which metal weighs the most in a smartphone?",
         "Le cuivre (environ 10 g)", "Copper (about 10 g)", "French Senate study, Calcul_proportions_metaux.md"),
    Quiz("Quelle part des déchets électroniques a été recyclée de façon suivie en 2022 ?",
         "What share of e-waste was recycled in a tracked way in 2022?", "Environ 22 %", "About 22 %",
         "Global E-waste Monitor 2024"),
    Quiz("Combien de grammes d'or contient un smartphone ?", "How many grams of gold are in a smartphone?",
         "Quelques centièmes de gramme (~0,02 à 0,04 g)", "A few hundredths of a gram (~0.02 to 0.04 g)",
         _QUIZ_SRC + ": Bookhagen et al. 2020; Univ. Plymouth 2019"),
)


@dataclass(frozen=True)
class SmartphoneContent(Content):
    """Components (1 to 6), the three suppliers (PolluPlus, PolluMoins, Recyclage, in that order), the malus cards
    (1 to 24) and the pile recipe (``malus_top`` in order on top, then the first ``malus_per_player`` x players - len(top)
    cards of ``malus_order``, shuffled), the events (1 to 24, in stacking order) and the 20-minute selection,
    quiz questions, the market refresh (``refresh_threshold`` identical face-up cards, ``refresh_cost`` malus)
    and the recycling bonus."""

    components: tuple[Component, ...]
    suppliers: tuple[Supplier, ...]
    malus: tuple[MalusCard, ...]
    malus_top: tuple[str, ...]
    malus_order: tuple[str, ...]
    malus_per_player: int
    events: tuple[Event, ...]
    short_events: tuple[int, ...]
    quiz: tuple[Quiz, ...] = field(default=())
    refresh_threshold: int = 4
    refresh_cost: int = 3
    recycling_bonus: int = 2

    def __post_init__(self) -> None:
        comps = tuple(self.components)
        if not 1 <= len(comps) <= MAX_COMPONENTS or not all(isinstance(c, Component) for c in comps):
            raise InvalidParameterError(f"components must hold 1 to {MAX_COMPONENTS} Component values")
        sups = tuple(self.suppliers)
        if len(sups) != 3 or not all(isinstance(s, Supplier) for s in sups) \
                or tuple(s.name for s in sups) != SUPPLIERS:
            raise InvalidParameterError(f"suppliers are exactly {list(SUPPLIERS)}, in that order")
        if any(sups[RECYCLING].deck[TYPES.index(t)] for t in ("MR", "TR")):
            raise InvalidParameterError("the Recyclage deck holds neither rare metal nor rare earth (seed)")
        malus = tuple(self.malus)
        if not 1 <= len(malus) <= MAX_MALUS or not all(isinstance(m, MalusCard) for m in malus):
            raise InvalidParameterError(f"malus must hold 1 to {MAX_MALUS} MalusCard values")
        names = [c.name for c in comps] + [m.name for m in malus]
        if len({n.lower() for n in names}) != len(names):
            raise InvalidParameterError("component and malus names must be distinct (case-insensitively)")
        mnames = {m.name for m in malus}
        top, order = tuple(self.malus_top), tuple(self.malus_order)
        if not all(n in mnames for n in top + order):
            raise InvalidParameterError("malus_top and malus_order name malus cards of the content")
        _int(self.malus_per_player, "malus_per_player", 1, 40)
        if len(top) > 8 or len(top) + len(order) < 5 * self.malus_per_player or len(top) >= 2 * self.malus_per_player:
            raise InvalidParameterError("the malus pile needs malus_per_player x 5 cards (at most 8 on top, fewer "
                                        "than a 2-player pile)")
        if 5 * self.malus_per_player > 200:
            raise InvalidParameterError("a malus pile holds at most 200 cards")
        events = tuple(self.events)
        if not 1 <= len(events) <= MAX_EVENTS or not all(isinstance(e, Event) for e in events):
            raise InvalidParameterError(f"events must hold 1 to {MAX_EVENTS} Event values")
        numbers = [e.number for e in events]
        if len(set(numbers)) != len(numbers):
            raise InvalidParameterError("event numbers must be distinct")
        short = tuple(self.short_events)
        if not short or not all(n in numbers for n in short) or len(set(short)) != len(short):
            raise InvalidParameterError("short_events names distinct event numbers of the content")
        quiz = tuple(self.quiz)
        if not all(isinstance(q, Quiz) for q in quiz):
            raise InvalidParameterError("quiz holds Quiz values")
        _int(self.refresh_threshold, "refresh_threshold", 1, 16)
        _int(self.refresh_cost, "refresh_cost", 0, 9)
        _int(self.recycling_bonus, "recycling_bonus", 0, 20)
        for k, v in (("components", comps), ("suppliers", sups), ("malus", malus), ("malus_top", top),
                     ("malus_order", order), ("events", events), ("short_events", short), ("quiz", quiz)):
            object.__setattr__(self, k, v)

    @classmethod
    def default(cls) -> SmartphoneContent:
        return cls(DEFAULT_COMPONENTS, DEFAULT_SUPPLIERS, DEFAULT_MALUS, DEFAULT_MALUS_TOP, DEFAULT_MALUS_ORDER,
                   DEFAULT_MALUS_PER_PLAYER, DEFAULT_EVENTS, DEFAULT_SHORT_EVENTS, DEFAULT_QUIZ)

    @functools.cached_property     # (views read it on every call; the content never changes)
    def component_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.components)

    @functools.cached_property     # (views read it on every call; the content never changes)
    def malus_names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.malus)

    def recipes(self, later: bool) -> list[tuple[int, int, int, int, int]]:
        """Each component's recipe (the 2025 one where it has one, when ``later``)."""
        return [c.later_recipe if later and c.later_recipe is not None else c.recipe for c in self.components]

    def malus_pile(self, players: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The malus pile for ``players``: the cards on top in order, and the cards shuffled below them."""
        n = self.malus_per_player * players - len(self.malus_top)
        return self.malus_top, self.malus_order[:n]

    def event_sequence(self, short: bool) -> list[Event]:
        """The events in drawing order (the 20-minute selection when ``short``)."""
        if not short:
            return list(self.events)
        return [e for e in self.events if e.number in self.short_events]

    def to_json(self) -> dict[str, Any]:
        return {
            "components": [c.to_json() for c in self.components],
            "suppliers": [s.to_json() for s in self.suppliers],
            "malus": [m.to_json() for m in self.malus],
            "malus_top": list(self.malus_top),
            "malus_order": list(self.malus_order),
            "malus_per_player": self.malus_per_player,
            "events": [e.to_json() for e in self.events],
            "short_events": list(self.short_events),
            "quiz": [q.to_json() for q in self.quiz],
            "refresh_threshold": self.refresh_threshold,
            "refresh_cost": self.refresh_cost,
            "recycling_bonus": self.recycling_bonus,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | str | Path) -> SmartphoneContent:
        """From the ``to_json`` form, a JSON string or a path to a JSON file."""
        d = cls.json_document(data)
        keys = {"components", "suppliers", "malus", "malus_top", "malus_order", "malus_per_player", "events",
                "short_events", "quiz", "refresh_threshold", "refresh_cost", "recycling_bonus"}
        if not isinstance(d, dict) or set(d) != keys:
            raise InvalidParameterError(f"content JSON must have exactly the keys {sorted(keys)}")
        for k in ("components", "suppliers", "malus", "malus_top", "malus_order", "events", "short_events", "quiz"):
            if not isinstance(d[k], list):
                raise InvalidParameterError(f"{k} is a list")
        return cls(
            tuple(Component.from_json(c) for c in d["components"]),
            tuple(Supplier.from_json(s) for s in d["suppliers"]),
            tuple(MalusCard.from_json(m) for m in d["malus"]),
            tuple(d["malus_top"]), tuple(d["malus_order"]), d["malus_per_player"],
            tuple(Event.from_json(e) for e in d["events"]), tuple(d["short_events"]),
            tuple(Quiz.from_json(q) for q in d["quiz"]), d["refresh_threshold"], d["refresh_cost"],
            d["recycling_bonus"],
        )
