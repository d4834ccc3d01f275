"""Hand-made Smartphone positions for the rule tests: edit the packed struct's fields (cards taken from the decks
and the malus pile so that every card stays in one place), then rebuild a validated State."""

from __future__ import annotations

from typing import Any

import numpy as np

import robotcore
from robotcore.games.smartphone import KIND_NAMES, SmartphoneGame, engine
from robotcore.games.smartphone.data import SUPPLIERS, TYPES

FL_TRADING = 1
FL_NODEP = 2
PHASES = engine.PHASE_NAMES


def game(**params: Any) -> SmartphoneGame:
    g = robotcore.load_game("smartphone", **params)
    assert isinstance(g, SmartphoneGame)
    return g


def kind(name: str) -> int:
    """'P-MR' -> its kind index."""
    return KIND_NAMES.index(name)


def fields(g: SmartphoneGame, seed: int = 0) -> dict[str, Any]:
    return g.fields(g.new_initial_state(seed))


def from_fields(g: SmartphoneGame, f: dict[str, Any]) -> robotcore.State:
    return g.state_from_row(np.frombuffer(engine.pack_state(f), dtype=np.uint8))


def give(f: dict[str, Any], seat: int, name: str, n: int = 1, known: int = 0) -> None:
    """n cards of kind ``name`` from its deck into a hand (``known`` of them seen by everyone): the upper bounds
    rise as play raises them, by one for the type of a card seen and for every type of a card unseen (non-recycled
    kinds only)."""
    k = kind(name)
    assert f["deck"][k] >= n, f"deck has {f['deck'][k]} {name}"
    f["deck"][k] -= n
    f["hand"][seat][k] += n
    f["known"][seat][k] += known
    if k < 10:
        f["upper"][seat][k % 5] += known
        for t in range(5):
            f["upper"][seat][t] += n - known


def clear_hand(f: dict[str, Any], seat: int) -> None:
    for k in range(15):
        f["deck"][k] += f["hand"][seat][k]
        f["hand"][seat][k] = 0
        f["known"][seat][k] = 0
    f["upper"][seat] = [0] * 5
    for rows in f["private_upper"]:
        rows[seat] = [0] * 5


def set_market(f: dict[str, Any], supplier: str, types: list[str | None]) -> None:
    """The face-up cards of a supplier (the old ones go back to its deck)."""
    sup = SUPPLIERS.index(supplier)
    for i, t in enumerate(f["market"][sup]):
        if t != 0xFF:
            f["deck"][sup * 5 + t] += 1
            f["market"][sup][i] = 0xFF
    for i, name in enumerate(types):
        if name is None:
            continue
        t = TYPES.index(name)
        assert f["deck"][sup * 5 + t] > 0
        f["deck"][sup * 5 + t] -= 1
        f["market"][sup][i] = t


def malus_index(g: SmartphoneGame, name: str) -> int:
    return g.content.malus_names.index(name)  # type: ignore[union-attr]


def give_malus(g: SmartphoneGame, f: dict[str, Any], seat: int, name: str, n: int = 1) -> None:
    t = malus_index(g, name)
    assert f["pile"][t] >= n
    f["pile"][t] -= n
    f["malus"][seat][t] += n


def skip_top(g: SmartphoneGame, f: dict[str, Any]) -> None:
    """The definition cards on top of the malus pile are set aside (so that draws come from the shuffled part)."""
    top = g.content.malus_top  # type: ignore[union-attr]
    for name in top[f["top_next"]:]:
        f["mout"][malus_index(g, name)] += 1
    f["top_next"] = len(top)


def empty_pile_but(g: SmartphoneGame, f: dict[str, Any], keep: int) -> None:
    """Set aside all malus cards of the pile but ``keep`` (taken in card order)."""
    skip_top(g, f)
    left = keep
    for t in range(len(f["pile"])):
        stay = min(left, f["pile"][t])
        f["mout"][t] += f["pile"][t] - stay
        f["pile"][t] = stay
        left -= stay


def pile_of(g: SmartphoneGame, f: dict[str, Any], *names: str) -> None:
    """Make the malus pile exactly the named cards (from the set-aside ones; every other card set aside)."""
    empty_pile_but(g, f, 0)
    for name in names:
        t = malus_index(g, name)
        f["mout"][t] -= 1
        f["pile"][t] += 1


def turn_of(f: dict[str, Any], seat: int, players: int) -> None:
    """Make it ``seat``'s turn in the current round (main phase)."""
    f["turns"] = (seat - f["first"]) % players
    f["cur"] = seat
    f["phase"] = 0


def before_event(g: SmartphoneGame, f: dict[str, Any], number: int) -> None:
    """The last turn of a round, the next event to draw being ``number``; depollution is forbidden this round so
    the turn player may pass (``pass_to_event``)."""
    n = g.num_players
    f["turns"] = n - 1
    f["cur"] = (f["first"] + n - 1) % n
    f["phase"] = 0
    f["flags"] |= FL_NODEP
    f["ev_next"] = g.event_numbers.index(number)
    f["round"] = f["ev_next"]


def at_event(g: SmartphoneGame, f: dict[str, Any], number: int) -> robotcore.State:
    """The position right after event ``number`` is drawn (the last player of the round passed)."""
    before_event(g, f, number)
    state = from_fields(g, f)
    state.apply_str("pass")
    return state


def phase(g: SmartphoneGame, state: robotcore.State) -> str:
    return PHASES[g.fields(state)["phase"]]


def hand(state: robotcore.State, seat: int) -> dict[str, int]:
    return dict(state.view(seat)["hand"])
