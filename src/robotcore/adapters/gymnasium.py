"""Any robotcore game as a single-agent Gymnasium environment (``pip install gymnasium``): one seat is the
learner, the others are played by opponents.

    from robotcore.adapters.gymnasium import env
    e = env("robotrick", seat=0, opponents="greedy")
    obs, info = e.reset(seed=1)
    while True:
        action = e.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = e.step(action)
        if terminated:
            break

- Observations are the learner seat's ``observation()`` (a float32 vector); the legal actions are in
  ``info["action_mask"]`` (int8, as the ecosystem's maskable agents expect) and ``env.action_masks()`` (bool,
  the name sb3-contrib's MaskablePPO calls).
- ``opponents``: ``"random"`` (uniform among legal actions, drawn from the environment's own generator), the
  name of a built-in bot (``"greedy"``, ``"montecarlo"``, ``"ismcts"``), a bot object with
  ``choose(state, seat, budget_ms)``, or a list of those, one per other seat. Opponents act whenever they are
  among the acting seats and the learner is not; in a simultaneous phase the learner commits when its seat is
  pending, and the others' commitments stay hidden from its observation. A bot object's ``reset`` hook is
  called at each ``reset()`` and its ``observe`` hook after every other seat's action (the learner's too), as
  in a tournament; one object given for every opponent seat plays them all (give a list, one object per seat,
  to a bot that keeps what it learns by seat).
- The reward is the learner's ``returns()`` at the end (winners share 1.0), 0 before. Games always end:
  ``truncated`` is never set.
- An illegal action, by the convention of PettingZoo's classic environments (``TerminateIllegalWrapper``), ends
  the episode with reward -1 and ``info["illegal_action"] = True``, the game left as it was;
  ``illegal_action="raise"`` raises ``IllegalActionError`` instead (the state unchanged too).
- Once the episode has ended (``terminated``), ``step()`` raises ``GameOverError`` until ``reset()``.
- ``reset(seed=s)`` makes the game, the random opponents and the built-in bots deterministic.
- Registered with Gymnasium as ``robotcore/<game>-v0`` (``gymnasium.make("robotcore/robotrick-v0", seat=1)``
  once this module is imported; ``"robotcore.adapters.gymnasium:robotcore/robotrick-v0"`` imports it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import robotcore
from robotcore.adapters import RENDER_MODES, action_id, as_integer, check_render_mode, render_in
from robotcore.errors import GameOverError, InvalidParameterError
from robotcore.tools.match import tell_others


class Opponent(Protocol):
    def choose(self, state: robotcore.State, seat: int, budget_ms: float | None = None) -> int: ...


class RobotcoreEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    metadata = {"render_modes": RENDER_MODES}

    def __init__(self, name: str, seat: int = 0, opponents: str | Opponent | Sequence[str | Opponent] = "random",
                 render_mode: str | None = None, illegal_action: str = "terminate", **params: Any) -> None:
        self.game = robotcore.load_game(name, **params)
        if illegal_action not in ("terminate", "raise"):
            raise InvalidParameterError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self._ended_by_illegal = False
        n = self.game.num_players
        index = as_integer(seat)                  # any integer type (numpy's too), never a bool
        if index is None or not 0 <= index < n:
            raise InvalidParameterError(f"seat must be 0..{n - 1}, got {seat!r}")
        self.seat = index
        others = [s for s in range(n) if s != index]
        specs: list[str | Opponent] = (list(opponents) if isinstance(opponents, (list, tuple))
                                       else [opponents] * len(others))  # type: ignore[list-item]
        if len(specs) != len(others):
            raise InvalidParameterError(f"{name} with {n} seats needs {len(others)} opponents, got {len(specs)}")
        self._specs: dict[int, str | Opponent] = dict(zip(others, specs))
        self._make_opponents(0)              # a bad opponent spec fails here, not at the first reset
        self._opponents: dict[int, Opponent | None] = {}
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, self.game.observation_shape, np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: robotcore.State | None = None

    def _make_opponents(self, seed: int) -> None:
        self._opponents = {}
        for other, spec in self._specs.items():
            if spec == "random":
                self._opponents[other] = None
            elif isinstance(spec, str):
                from robotcore.bots import make_bot  # only when a built-in bot is named

                self._opponents[other] = make_bot(spec, seed=(seed * 8 + other) % (1 << 64), for_game=self.game)
            else:
                self._opponents[other] = spec

    def _reset_opponents(self) -> None:
        """A new game for each opponent's bot: its ``reset`` hook, once per object (built-in bots are made anew)."""
        for bot in {id(b): b for b in self._opponents.values() if b is not None}.values():
            if hasattr(bot, "reset"):
                bot.reset()

    def _apply(self, action: int, seat: int) -> None:
        """Play ``seat``'s action and tell the opponents' bots of it (their ``observe`` hook), as every runner does."""
        assert self.state is not None
        self.state.apply(action, seat)
        tell_others(self.state, self._opponents, seat, action)

    def _play_others(self) -> None:
        assert self.state is not None
        while not self.state.is_terminal and self.seat not in self.state.actors:
            other = self.state.actors[0]
            bot = self._opponents[other]
            if bot is None:
                legal = self.state.legal_actions(other)
                action = legal[int(self.np_random.integers(len(legal)))]
            else:
                action = bot.choose(self.state, other, None)
            self._apply(action, other)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions (all False once the game is over)."""
        assert self.state is not None
        return self.state.legal_mask(self.seat)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63))
        self.state = self.game.new_initial_state(game_seed)
        self._ended_by_illegal = False
        self._make_opponents(game_seed)
        self._reset_opponents()
        self._play_others()
        return self.state.observation(self.seat), self._info()

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise InvalidParameterError("call reset() before step()")
        if self._ended_by_illegal or self.state.is_terminal:
            why = "it ended on an illegal action" if self._ended_by_illegal else "the game ended"
            raise GameOverError(f"the episode is over ({why}): call reset()")
        a = action_id(action)
        if self.illegal_action == "terminate" and not self.state.is_legal(a, self.seat):
            self._ended_by_illegal = True
            info = {**self._info(), "illegal_action": True}
            return self.state.observation(self.seat), -1.0, True, False, info
        self._apply(a, self.seat)
        self._play_others()
        terminated = self.state.is_terminal
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        return self.state.observation(self.seat), reward, terminated, False, self._info()

    def render(self) -> str | None:
        return render_in(self.render_mode, self.game, self.state)


def env(name: str, seat: int = 0, opponents: str | Opponent | Sequence[str | Opponent] = "random",
        render_mode: str | None = None, illegal_action: str = "terminate", **params: Any) -> RobotcoreEnv:
    return RobotcoreEnv(name, seat=seat, opponents=opponents, render_mode=render_mode,
                        illegal_action=illegal_action, **params)


# Gymnasium ids: ``gymnasium.make("robotcore/robotrick-v0", seat=1, opponents="greedy")`` once this module is
# imported, or ``gymnasium.make("robotcore.adapters.gymnasium:robotcore/robotrick-v0")``, which imports it (and
# so ``make_vec`` and the registry's tools serve these environments too)
for _name in robotcore.list_games():
    gymnasium.register(id=f"robotcore/{_name}-v0", entry_point=f"{__name__}:RobotcoreEnv", kwargs={"name": _name})
