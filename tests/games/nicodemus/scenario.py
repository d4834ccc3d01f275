"""Hand-made Nicodemus positions for the rule tests: name the machines in each place, the rest goes to the deck.

>>> st = build(hands=("B1 P4", "R3"), table="Y2 B2", res=((3, 1, 0, 0), (0, 0, 0, 0)))
>>> st.view(0)["hand"], [m["machine"] for m in st.view(None)["bric_a_brac"]]
(['B1', 'P4'], ['Y2', 'B2'])
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

import robotcore
from robotcore.games.nicodemus import engine

NONE = 255


def game(**params: Any) -> robotcore.Game:
    params.setdefault("first_player", 0)
    return robotcore.load_game("nicodemus", **params)


def names(text: str) -> list[str]:
    return text.split()


def fields(state: robotcore.State) -> dict[str, Any]:
    return engine.unpack_state(np.frombuffer(state.state_bytes(), dtype=np.uint8))


def from_fields(g: robotcore.Game, f: dict[str, Any]) -> robotcore.State:
    return g.state_from_row(np.frombuffer(engine.pack_state(f), dtype=np.uint8))


def build(
    *,
    hands: tuple[str, str] = ("B1 B1 B2 B2 B3", "B3 B4 B4 B5 B5"),
    table: str = "",
    coal: list[int] | None = None,
    ws: tuple[str, str] = ("", ""),
    res: tuple[tuple[int, ...], tuple[int, ...]] = ((2, 0, 0, 0), (1, 1, 0, 0)),
    public: str = "T1 T2 T3 T4 T5 T6",
    private: tuple[str, str] = ("", ""),
    done: tuple[str, str] = ("", ""),
    removed: tuple[str, str] = ("", ""),
    aside: tuple[str, str] = ("", ""),
    discard: str = "",
    deck_top: str = "",
    deck_size: int | None = None,
    pile_top: str = "",
    cur: int = 0,
    first: int = 0,
    end_trig: int = 0,
    turn: int = 0,
    rng: int = 12345,
    **params: Any,
) -> robotcore.State:
    """A position in the main phase of ``cur``'s turn. ``deck_top`` lists the next machines drawn, last first
    (the deck's top is the end of the string); the other machines not placed elsewhere fill the deck below
    (``deck_size`` keeps only that many, the others being publicly discarded). Projects neither public, private,
    completed nor removed form the face-down pile, ``pile_top`` on top."""
    g = game(**params)
    content = g.content
    mi = {n: i for i, n in enumerate(content.machine_names)}
    pi = {n: i for i, n in enumerate(content.project_names)}
    copies = Counter({i: m.copies for i, m in enumerate(content.machines)})
    used: Counter[int] = Counter()

    def take(text: str) -> list[int]:
        out = [mi[n] for n in names(text)]
        used.update(out)
        return out

    hand = [Counter(take(h)) for h in hands]
    line = take(table)
    shop = [sorted(take(w)) for w in ws]
    set_aside = [Counter(take(a)) for a in aside]
    disc = Counter(take(discard))
    top = take(deck_top)
    rest = sorted((copies - used).elements())
    assert not (used - copies), "more machines than the deck holds"
    if deck_size is not None:
        keep = deck_size - len(top)
        disc.update(rest[keep:])
        rest = rest[:keep]
    deck = rest + top
    proj = {
        "public": {pi[n] for n in names(public)},
        "private": [{pi[n] for n in names(p)} for p in private],
        "done": [{pi[n] for n in names(d)} for d in done],
        "removed": [{pi[n] for n in names(r)} for r in removed],
    }
    placed = proj["public"] | set().union(*proj["private"], *proj["done"], *proj["removed"])
    ptop = [pi[n] for n in names(pile_top)]
    pile = [p for p in range(len(content.projects)) if p not in placed and p not in ptop] + ptop

    def bits(items: set[int]) -> int:
        return sum(1 << p for p in items)

    def row(c: Counter[int]) -> list[int]:
        return [c.get(t, 0) for t in range(16)]

    def pad(xs: list[int], n: int) -> list[int]:
        return list(xs) + [0] * (n - len(xs))

    vp = [m.vp for m in content.machines]
    pvp = [p.vp for p in content.projects]
    score = [sum(vp[t] for t in shop[p]) + sum(vp[t] * n for t, n in set_aside[p].items())
             + sum(pvp[q] for q in proj["done"][p]) for p in range(2)]
    f = {
        "rng": rng,
        "proj_public": bits(proj["public"]),
        "proj_private": [bits(x) for x in proj["private"]],
        "proj_done": [bits(x) for x in proj["done"]],
        "proj_removed": [bits(x) for x in proj["removed"]],
        "score": score,
        "turn": turn,
        "deck": pad(deck, 64),
        "hand": [row(h) for h in hand],
        "known": [[0] * 16, [0] * 16],
        "sure": [[0] * 16, [0] * 16],
        "hdisc": [[0] * 16, [0] * 16],
        "aside": [row(a) for a in set_aside],
        "discard": row(disc),
        "table": pad(line, 10),
        "table_coal": pad(coal or [0] * len(line), 10),
        "ws": [pad(w, 4) for w in shop],
        "res": [list(r) for r in res],
        "pile": pad(pile, 24),
        "pend": [0, 0],
        "deck_n": len(deck),
        "table_n": len(line),
        "ws_n": [len(w) for w in shop],
        "pile_n": len(pile),
        "pend_n": 0,
        "phase": 0,
        "cur": cur,
        "first": first,
        "end_trig": end_trig,
        "ctx_played": NONE,
        "ctx_card": NONE,
        "ctx_target": NONE,
        "ctx_qty": 0,
        "ctx_exch": 0,
        "proj_used": 0,
        "proj_count": 0,
    }
    return from_fields(g, f)


def resources(state: robotcore.State, seat: int) -> tuple[int, int, int, int]:
    r = state.view(None)["players"][seat]["resources"]
    return r["charcoalium"], r["wood"], r["copper"], r["crystal"]


def line(state: robotcore.State) -> list[str]:
    return [f"{m['machine']}" + ("*" * m["charcoalium"]) for m in state.view(None)["bric_a_brac"]]


def legal(state: robotcore.State, seat: int | None = None) -> list[str]:
    return state.legal_action_strs(seat)
