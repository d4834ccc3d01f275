"""Adapters to other frameworks' APIs (optional dependencies, imported only when used):

- ``robotcore.adapters.pettingzoo.env(name, **params)``: a PettingZoo AEC environment (wrapped as PettingZoo's
  classic environments; ``raw_env`` without the wrappers), and ``parallel_env(name, **params)``: the same game
  under PettingZoo's parallel API, one action per acting seat each step;
- ``robotcore.adapters.gymnasium.env(name, seat=0, opponents="random", **params)``: a single-agent Gymnasium
  environment, the other seats played by opponents;
- ``robotcore.adapters.openspiel.register(name)``: the game as a pyspiel game, for OpenSpiel's algorithms.

The AEC environment and OpenSpiel play a simultaneous phase turn by turn, the lowest pending seat first (hidden
commitments stay hidden; a public action of the phase is seen by the seats after it); the parallel environment
takes every pending seat's action in one step.
"""

import operator
from typing import Any

import numpy as np

from robotcore.errors import InvalidActionError, InvalidParameterError

#: The render modes every adapter serves (``render()`` returns the game's text rendering)
#: "ansi": ``render()`` returns the game's text rendering; "human": prints it (a terminal is this text's display)
RENDER_MODES = ["ansi", "human"]


def check_render_mode(render_mode: str | None) -> None:
    """Refuse a render mode the adapters' metadata does not list (None: no rendering)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise InvalidParameterError(
            f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")


def render_in(render_mode: str | None, game: Any, state: Any) -> str | None:
    """What an adapter's ``render()`` does in ``render_mode``: the game's text rendering of ``state``, returned
    ("ansi") or printed ("human"); nothing without a mode or a state."""
    if render_mode is None or state is None:
        return None
    text = str(game.render(state))
    if render_mode == "human":
        print(text)
        return None
    return text


def as_integer(value: Any) -> int | None:
    """``value`` as an int when it is of an integer type (numpy's included) and not a bool, else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def action_id(value: Any) -> int:
    """``value`` as an action id: any integer type (the spaces sample numpy ints), never a bool; anything else
    ("3", 2.9, True, None) is no action, ``InvalidActionError`` (``int()`` would have played 3, 2 and 1)."""
    action = as_integer(value)
    if action is None:
        raise InvalidActionError(f"an action is an integer id of the Discrete space, got {value!r}")
    return action
