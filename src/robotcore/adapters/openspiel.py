"""Any robotcore game as a pyspiel game (``pip install open_spiel``), so OpenSpiel's algorithms and test
harness run on it: ``register("robotrick")`` then ``pyspiel.load_game("robotcore_robotrick")``.

Chance is sampled inside the state (OpenSpiel's SAMPLED_STOCHASTIC chance mode); simultaneous phases are played
turn by turn (the lowest pending seat first, as ``turn_based_simultaneous_game`` does); utilities are the
returns (winners share 1.0, a constant-sum game). This is a compatibility route, not a speed route: pyspiel
calls back into Python for every method.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

import robotcore

PREFIX = "robotcore_"


def register(name: str, **params: Any) -> str:
    """Register ``name`` (with these parameters) with pyspiel; returns the pyspiel short name."""
    game = robotcore.load_game(name, **params)
    short = PREFIX + name
    if short in pyspiel.registered_names():
        return short
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"robotcore {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.num_players,
        min_num_players=game.num_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"seed": -1},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=game.num_actions,
        max_chance_outcomes=0,
        num_players=game.num_players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
        max_game_length=game.max_game_length,
    )

    class _Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, pyspiel_params: dict[str, Any] | None = None) -> None:
            super().__init__(game_type, info, pyspiel_params or {})
            self.rc_game = game
            seed = (pyspiel_params or {}).get("seed", -1)
            self.rng = random.Random(None if seed < 0 else seed)

        def new_initial_state(self) -> _State:
            return _State(self, self.rc_game.new_initial_state(self.rng.getrandbits(64)))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            return _Observer(self.rc_game)

    class _State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, g: _Game, state: robotcore.State) -> None:
            super().__init__(g)
            self.rc = state

        def current_player(self) -> int:
            p = self.rc.current_player
            return int(pyspiel.PlayerId.TERMINAL) if p == robotcore.TERMINAL else int(p)

        def _legal_actions(self, player: int) -> list[int]:
            return list(self.rc.legal_actions(player)) if player == self.rc.current_player else []

        def _apply_action(self, action: int) -> None:
            self.rc.apply(action, self.rc.current_player)

        def _action_to_string(self, player: int, action: int) -> str:
            return str(self.rc.game.action_to_str(action))

        def is_terminal(self) -> bool:
            return bool(self.rc.is_terminal)

        def returns(self) -> list[float]:
            return [float(r) for r in self.rc.returns()]

        def __str__(self) -> str:
            return self.rc.to_bytes().hex()

        def __deepcopy__(self, memo: Any) -> _State:
            return _State(self.get_game(), self.rc.clone())

    class _Observer:
        def __init__(self, g: robotcore.Game) -> None:
            self.game = g
            self.tensor = np.zeros(g.observation_shape, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state: _State, player: int) -> None:
            self.tensor[:] = state.rc.observation(player)

        def string_from(self, state: _State, player: int) -> str:
            import json

            return json.dumps(state.rc.view(player), sort_keys=True)

    pyspiel.register_game(game_type, _Game)
    return short
