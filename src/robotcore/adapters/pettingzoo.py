"""Any robotcore game as a PettingZoo AEC environment (``pip install pettingzoo``).

    from robotcore.adapters.pettingzoo import env
    e = env("robotrick")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0..player_{n-1}``; observations are ``{"observation": float32 vector, "action_mask": int8}``
(the seat's ``observation()`` and ``legal_mask()``); the agent to act is the game's ``current_player`` (the
lowest pending seat of a simultaneous phase; other seats' commitments stay hidden in their observations);
rewards are ``returns()`` at the end (winners share 1.0). An action is an integer id of any integer type
(numpy's too); anything else ("3", 2.9, True) raises ``InvalidActionError``, the game left as it was. ``env()`` is wrapped as PettingZoo's classic
environments are (``TerminateIllegalWrapper(illegal_reward=-1)``: an illegal action ends the episode with -1 for
its seat; ``AssertOutOfBoundsWrapper``; ``OrderEnforcingWrapper``); ``raw_env()`` is the environment without
them, where an illegal action raises ``IllegalActionError``. The engine's ``State`` is ``env.game_state``;
PettingZoo's ``state()`` (a global observation) raises ``NotImplementedError``: the games hide information and
the engine has no omniscient observation.

``parallel_env(name)`` is the same game under PettingZoo's parallel API, natural for simultaneous phases: each
step takes one action from every seat that is acting now (``state.actors``: several in a simultaneous phase,
one otherwise) and ignores the others' (their ``action_mask`` is all zero). The actions of one step are
checked together on a copy first. An illegal or missing one, by the convention of PettingZoo's classic
environments (``TerminateIllegalWrapper``), ends the episode with reward -1 for the seat that made it (0 for the
others) and ``infos[agent]["illegal_action"] = True``, the game left as it was; ``illegal_action="raise"``
raises ``IllegalActionError`` instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

import robotcore
from robotcore.adapters import RENDER_MODES, action_id, check_render_mode, render_in
from robotcore.core.rng import Rng
from robotcore.core.seeds import check_seed, derive_seed
from robotcore.errors import IllegalActionError


class _NoGlobalState:
    """PettingZoo's ``state()`` (a global state for centralised training), for both environments: not served."""

    metadata: dict[str, Any]

    def state(self) -> Any:
        """Not served: robotcore's games hide information, and the engine has no omniscient observation to give
        (``observe(agent)`` is what each seat sees; the engine's state itself is ``game_state``)."""
        raise NotImplementedError(
            f"{self.metadata['name']}: state() is not implemented (the engine has no omniscient observation); "
            "the engine's State is env.game_state")


class _Seeding:
    """Episode seeds as Gymnasium's environments draw them, for both environments: ``reset(seed=s)`` plays the
    game of seed ``s`` and seeds a stream that every later ``reset()`` without a seed draws its game from (and the
    agents' action spaces, for ``sample``), so that a run seeded once is the same run every time; before any
    seed, a reset is random. (An unseeded reset drew a random game even after a seeded one.)"""

    possible_agents: list[str]
    _episodes: Rng | None = None

    def action_space(self, agent: str) -> spaces.Space[Any]:
        raise NotImplementedError

    def _episode_seed(self, seed: int | None) -> int | None:
        if seed is None:
            return None if self._episodes is None else self._episodes.next_u64()
        seed = check_seed(seed)
        self._episodes = Rng(derive_seed(seed, "episodes"))
        for i, agent in enumerate(self.possible_agents):
            self.action_space(agent).seed(derive_seed(seed, "action space", i))
        return seed


class RobotcoreAEC(_NoGlobalState, _Seeding, AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": RENDER_MODES, "is_parallelizable": False}

    def __init__(self, name: str, render_mode: str | None = None, **params: Any) -> None:
        super().__init__()
        self.game = robotcore.load_game(name, **params)
        self.metadata = {**self.metadata, "name": f"robotcore_{name}_v0"}
        check_render_mode(render_mode)
        self.render_mode = render_mode
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, self.game.observation_shape, np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self.game_state: robotcore.State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game_state = self.game.new_initial_state(self._episode_seed(seed))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.game_state is not None
        seat = self._seat[agent]
        return {
            "observation": self.game_state.observation(seat),
            "action_mask": self.game_state.legal_mask(seat).astype(np.int8),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game_state is not None
        self.game_state.apply(action_id(action), self._seat[agent])
        self._cumulative_rewards[agent] = 0.0
        if self.game_state.is_terminal:
            for a, r in zip(self.possible_agents, self.game_state.returns()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self._deads_step_first()
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.possible_agents[self.game_state.current_player]

    def render(self) -> str | None:
        return render_in(self.render_mode, self.game, self.game_state)

    def close(self) -> None:
        pass


def raw_env(name: str, render_mode: str | None = None, **params: Any) -> RobotcoreAEC:
    """The AEC environment without PettingZoo's wrappers: an illegal action raises ``IllegalActionError`` (the
    game left as it was); no check of the call order."""
    return RobotcoreAEC(name, render_mode=render_mode, **params)


def env(name: str, render_mode: str | None = None, **params: Any) -> AECEnv:
    """The AEC environment wrapped as PettingZoo's classic environments are: ``TerminateIllegalWrapper`` (an
    illegal action ends the episode, reward -1 for its seat), ``AssertOutOfBoundsWrapper`` and
    ``OrderEnforcingWrapper`` (no step before ``reset()``). ``env.unwrapped`` is the ``raw_env``."""
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw_env(name, render_mode=render_mode, **params),
                                                       illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def _spaces(game: robotcore.Game, agents: list[str]) -> tuple[dict[str, spaces.Space[Any]], dict[str, spaces.Space[Any]]]:
    obs: dict[str, spaces.Space[Any]] = {
        a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, game.observation_shape, np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        })
        for a in agents
    }
    return obs, {a: spaces.Discrete(game.num_actions) for a in agents}


class RobotcoreParallel(_NoGlobalState, _Seeding, ParallelEnv):  # type: ignore[misc]
    metadata = {"render_modes": RENDER_MODES, "name": "robotcore_parallel_v0"}

    def __init__(self, name: str, render_mode: str | None = None, illegal_action: str = "terminate",
                 **params: Any) -> None:
        self.game = robotcore.load_game(name, **params)
        if illegal_action not in ("terminate", "raise"):
            raise robotcore.InvalidParameterError(
                f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.metadata = {**self.metadata, "name": f"robotcore_{name}_parallel_v0"}
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self.agents: list[str] = []
        self.observation_spaces, self.action_spaces = _spaces(self.game, self.possible_agents)
        self.game_state: robotcore.State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _observe(self) -> dict[str, dict[str, Any]]:
        assert self.game_state is not None
        return {
            a: {"observation": self.game_state.observation(i), "action_mask": self.game_state.legal_mask(i).astype(np.int8)}
            for i, a in enumerate(self.possible_agents) if a in self.agents
        }

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self.game_state = self.game.new_initial_state(self._episode_seed(seed))
        self.agents = self.possible_agents[:]
        return self._observe(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        if self.game_state is None or not self.agents:
            raise IllegalActionError("the episode is over (or not started): call reset()")
        trial = self.game_state.clone()
        for seat in trial.actors:           # every acting seat's action, checked on a copy first
            agent = self.possible_agents[seat]
            action = actions.get(agent)
            if action is not None:
                action = action_id(action)
            if action is None or not trial.is_legal(action, seat):
                if self.illegal_action == "raise":
                    raise IllegalActionError(f"{agent} must play a legal action this step, got {action!r}")
                return self._end_on_illegal(agent)
            trial.apply(action, seat)
        self.game_state = trial
        done = self.game_state.is_terminal
        returns = self.game_state.returns() if done else [0.0] * self.game.num_players
        rewards = {a: float(returns[i]) for i, a in enumerate(self.possible_agents) if a in self.agents}
        observations = self._observe()
        terminations = {a: done for a in self.agents}
        truncations = {a: False for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _end_on_illegal(self, offender: str) -> tuple[dict[str, Any], ...]:
        observations = self._observe()
        rewards = {a: -1.0 if a == offender else 0.0 for a in self.agents}
        terminations = {a: True for a in self.agents}
        truncations = {a: False for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: {"illegal_action": a == offender} for a in self.agents}
        self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return render_in(self.render_mode, self.game, self.game_state)

    def close(self) -> None:
        pass


def parallel_env(name: str, render_mode: str | None = None, illegal_action: str = "terminate",
                 **params: Any) -> RobotcoreParallel:
    return RobotcoreParallel(name, render_mode=render_mode, illegal_action=illegal_action, **params)
