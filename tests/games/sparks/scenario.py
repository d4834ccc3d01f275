"""Hand-made Sparks positions for the rule tests: a real state driven to a phase, then its struct edited
(dice and cards moved from where they are, so that every invariant still holds) and checked again by the
engine (``SparksGame.with_fields``)."""

from __future__ import annotations

from typing import Any

import robotcore
from robotcore.games.sparks import SPACE_NAMES, SparksGame
from robotcore.games.sparks.data import COLOURS, TILES

LETTERS = "RBGY"
PD = {"advance": 1, "tile": 2, "reroll": 3, "adjust": 4, "silas": 5, "recycle_pick": 6, "recycle_place": 7,
      "max": 8, "olympia": 9, "conrad": 10, "complete": 11, "free_play": 12, "die_choice": 13}


def die(text: str) -> int:
    """'R3' -> die byte."""
    return 1 + LETTERS.index(text[0].upper()) * 6 + int(text[1]) - 1


def game(**params: Any) -> SparksGame:
    g = robotcore.load_game("sparks", **params)
    assert isinstance(g, SparksGame)
    return g


def drive(state: robotcore.State, phase: str, limit: int = 5000) -> robotcore.State:
    """Apply each actor's first legal action (``done`` last in the action phase) until ``phase``."""
    g = state.game
    done = g.parse_action("done")
    n = 0
    while state.view(None)["phase"] != phase:
        assert not state.is_terminal and n < limit
        seat = state.actors[0]
        legal = state.legal_actions(seat)
        state.apply(done if done in legal else legal[0], seat)
        n += 1
    return state


def at_action(players: int = 4, seed: int = 0, **params: Any) -> tuple[SparksGame, robotcore.State]:
    g = game(players=players, **params)
    return g, drive(g.new_initial_state(seed), "action")


def fields(g: SparksGame, s: robotcore.State) -> dict[str, Any]:
    return g.fields(s)


def build(g: SparksGame, f: dict[str, Any]) -> robotcore.State:
    return g.with_fields(f)


def clear_dice(f: dict[str, Any], p: int) -> None:
    """Every die of seat p (available, on its spaces) back to the bag."""
    P = f["players"][p]
    for t in range(24):
        f["bag"][t // 6] += P["avail"][t]
        P["avail"][t] = 0
    for sp in range(14):
        b = P["space"][sp]
        if b:
            f["bag"][(b - 1) // 6] += 1
            P["space"][sp] = 0


def give(f: dict[str, Any], p: int, *dice: str) -> None:
    """Available dice for seat p, taken from the bag (else the discard pile)."""
    for d in dice:
        b = die(d)
        c = (b - 1) // 6
        if f["bag"][c]:
            f["bag"][c] -= 1
        else:
            f["disc"][c] -= 1
        f["players"][p]["avail"][b - 1] += 1


def on_space(f: dict[str, Any], p: int, space: str, d: str) -> None:
    b = die(d)
    c = (b - 1) // 6
    if f["bag"][c]:
        f["bag"][c] -= 1
    else:
        f["disc"][c] -= 1
    f["players"][p]["space"][SPACE_NAMES.index(space)] = b


def _take_card(f: dict[str, Any], card: int) -> None:
    if f["pool"] >> card & 1:
        f["pool"] &= ~(1 << card)
        return
    for i in range(f["nbottom"]):
        if f["bottom"][i] & 63 == card:
            del f["bottom"][i]
            f["bottom"].append(0)
            f["bknow"] = [(k & ((1 << i) - 1)) | ((k >> (i + 1)) << i) for k in f["bknow"]]
            f["nbottom"] -= 1
            return
    for P in f["players"]:
        for k in range(3):
            if P["line"][k] == card:
                for j in range(3):
                    b = P["space"][4 + 3 * k + j]
                    if b:
                        f["bag"][(b - 1) // 6] += 1
                        P["space"][4 + 3 * k + j] = 0
                P["line"][k] = 255
                return
        if P["tableau"] >> card & 1:
            P["tableau"] &= ~(1 << card)
            return
    raise AssertionError(f"card {card} not found")


def set_line(g: SparksGame, f: dict[str, Any], p: int, names: list[str | None]) -> None:
    """Seat p's assembly line: these robots (None: an empty slot); the cards it held go back to the deck."""
    P = f["players"][p]
    for k in range(3):
        for j in range(3):
            b = P["space"][4 + 3 * k + j]
            if b:
                f["bag"][(b - 1) // 6] += 1
                P["space"][4 + 3 * k + j] = 0
        if P["line"][k] != 255:
            f["pool"] |= 1 << P["line"][k]
            P["line"][k] = 255
    idx = {n: i for i, n in enumerate(g.content.robot_names)}
    for k, name in enumerate(names):
        if name is not None:
            _take_card(f, idx[name])
            P["line"][k] = idx[name]


def complete(g: SparksGame, f: dict[str, Any], p: int, *names: str) -> None:
    """Put robots in seat p's tableau."""
    idx = {n: i for i, n in enumerate(g.content.robot_names)}
    for name in names:
        _take_card(f, idx[name])
        f["players"][p]["tableau"] |= 1 << idx[name]


def set_hand(g: SparksGame, f: dict[str, Any], p: int, names: list[str], played: list[str] = ()) -> None:  # type: ignore[assignment]
    """Seat p's hand and played assistants (the cards come from wherever they are; its old hand to the deck)."""
    idx = {n: i for i, n in enumerate(g.content.assistant_names)}
    P = f["players"][p]
    f["adeck"] |= P["hand"]
    P["hand"] = 0
    for name in list(names) + list(played):
        bit = 1 << idx[name]
        f["adeck"] &= ~bit
        for Q in f["players"]:
            if Q["hand"] & bit:
                Q["hand"] &= ~bit
                f["adeck"] |= 0
                # keep the other hand's size: give it a card from the deck
                spare = f["adeck"] & -f["adeck"]
                f["adeck"] &= ~spare
                Q["hand"] |= spare
            assert not Q["played"] & bit
        if name in names:
            P["hand"] |= bit
        else:
            P["played"] |= bit


def set_tiles(f: dict[str, Any], p: int, *tiles: str, slots: dict[str, int] | None = None) -> None:
    """Seat p owns these upgrade tiles (their stacks put in play); slot tiles in ``slots`` (0-based)."""
    P = f["players"][p]
    for t in tiles:
        i = TILES.index(t)
        if not f["stacks"] >> i & 1:
            # swap a stack nobody owns out of play for this one
            for j in range(8):
                owned = any(Q["tiles"] >> j & 1 for Q in f["players"])
                if f["stacks"] >> j & 1 and not owned and TILES[j] not in tiles:
                    f["stacks"] &= ~(1 << j)
                    break
            f["stacks"] |= 1 << i
        P["tiles"] |= 1 << i
    for t, k in (slots or {}).items():
        P["stile"][k] = TILES.index(t)


def pend(f: dict[str, Any], p: int, kind: str, arg: int = 0) -> None:
    P = f["players"][p]
    P["pend"][P["npend"]] = PD[kind]
    P["parg"][P["npend"]] = arg
    P["npend"] += 1


def legal(g: SparksGame, s: robotcore.State, seat: int) -> list[str]:
    return [g.action_to_str(a) for a in s.legal_actions(seat)]


def act(g: SparksGame, s: robotcore.State, seat: int, *texts: str) -> None:
    for text in texts:
        s.apply(g.parse_action(text), seat)


def hold_recycled(*texts: str, played: tuple[str, ...] = (), hand: tuple[str, ...] = (), cogs: int = 0,
                  sparks: int = 0, tableau: tuple[str, ...] = (), extra: tuple[str, ...] = (), reroll_tile: int = 0,
                  tiles: tuple[str, ...] = (), section: bool = False) -> tuple[SparksGame, robotcore.State]:
    """Seat 0 of a 4-player action phase completes R5 (R5, any red) in its Recycle slot and holds the R5, with R10
    (R6, R6) and R8 (three red dice, any value) beside it; then plays ``texts``. ``played``/``hand``: its
    assistants; ``tableau``: robots completed before (their boxes); ``extra``: more available dice; ``section``:
    a B2 in the upgrade section."""
    g, s = at_action(players=4, seed=0)
    f = fields(g, s)
    clear_dice(f, 0)
    set_line(g, f, 0, ["R5", "R10", "R8"])
    give(f, 0, "R5", "R4", *extra)
    if section:
        on_space(f, 0, "up-blue", "B2")
    set_tiles(f, 0, "recycle", *tiles, slots={"recycle": 0})
    set_hand(g, f, 0, list(hand), played=list(played))
    complete(g, f, 0, *tableau)
    P = f["players"][0]
    P["cogs"], P["sparks"], P["reroll_tile"] = cogs, sparks, reroll_tile
    s = build(g, f)
    act(g, s, 0, "place R5 s1.1", "place R4 s1.2", "recycle R5")
    assert player(s, 0)["held"] == "R5" and player(s, 0)["tracks"]["red"] == 2
    act(g, s, 0, *texts)
    return g, s


def player(s: robotcore.State, p: int) -> dict[str, Any]:
    out: dict[str, Any] = s.view(None)["players"][p]
    return out


_ = COLOURS
