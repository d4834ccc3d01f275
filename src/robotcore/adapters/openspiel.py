"""Any robotcore game as a pyspiel game (``pip install open_spiel``), so OpenSpiel's algorithms and test
harness run on it: ``register("robotrick")`` then ``pyspiel.load_game("robotcore_robotrick")``.

Chance is sampled inside the state (OpenSpiel's SAMPLED_STOCHASTIC chance mode). ``register(name, deals=K)``
registers ``robotcore_<name>_deals`` instead, an EXPLICIT_STOCHASTIC game whose root is a chance node with ``K``
equally likely outcomes, outcome ``i`` being the engine's seed ``i``: every later die or shuffle follows from that
seed and the actions, so a state is its history, and OpenSpiel's serialization (``serialize_game_and_state``,
``random_sim_test(serialize=True)``), which needs the game's RNG state in sampled mode and cannot get it from a
Python game, works. The ``K`` worlds are a sample of the game's chance, fixed by ``K``. Simultaneous phases are
played turn by turn (the lowest pending seat first, as ``turn_based_simultaneous_game`` does); utilities are the
returns (winners share 1.0, a constant-sum game; a game of one seat, Sparks' solo game, gives 1.0 for a win and
0.0 for a loss, and is declared general-sum). This is a compatibility route, not a speed route: pyspiel
calls back into Python for every method.

Information states (``information_state_string``) are the seat's view plus the history as the seat saw it
(others' hidden commitments as "hidden"); ``resample_from_infostate`` is ``State.resample_hidden``. Observers
(``open_spiel.python.observation.make_observation``) honour the observation type: ``private_info=NONE`` is the
spectator's view (``state.view(None)``), the same for every player, string only; ``SINGLE_PLAYER`` is the seat's
view and ``observation()``; ``ALL_PLAYERS`` (an omniscient observer) and ``public_info=False`` are refused with
``InvalidParameterError``. Information states are strings only (``information_state_tensor()`` raises, as the
game type's ``provides_information_state_tensor=False`` says). OpenSpiel's
Python algorithms that need them work (``open_spiel.python.algorithms.ismcts``, ``mcts`` on either form);
CFR-family tools enumerate the whole tree and are out of reach for games of this size. OpenSpiel's C++
``MCTSBot`` and ``ISMCTSBot`` crash (segmentation fault) on any Python-defined game, OpenSpiel's own
``python_tic_tac_toe`` included: a limitation of OpenSpiel's bridge, not of this adapter; use the Python bots
or robotcore's own.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

import robotcore
from robotcore.core.game import is_decimal

PREFIX = "robotcore_"


#: The ``deals`` default each explicit-form name of ours was registered with in this process (pyspiel keeps one
#: game type per name)
_REGISTERED: dict[str, int] = {}


def _spec_value(value: Any) -> Any:
    """A parameter's default as pyspiel declares it: pyspiel's game-string parser reads ``length=20`` as an int
    and checks it against the declared type, so a string default written in digits is declared as that int."""
    return int(value) if isinstance(value, str) and is_decimal(value) and str(int(value)) == value else value


def _variant(name: str, params: dict[str, Any]) -> robotcore.Game:
    """The game of ``params`` as pyspiel hands them over (its parser reads ``length=20`` as an int: a parameter
    whose default is a string takes the text of what it is given)."""
    defaults = robotcore.load_game(name).plain_params()
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise robotcore.InvalidParameterError(f"{name} has no parameter {', '.join(unknown)}")
    plain = {k: str(v) if isinstance(defaults[k], str) and not isinstance(v, str) else v for k, v in params.items()}
    return robotcore.load_game(name, **plain)


def register(name: str, deals: int = 0, **params: Any) -> str:
    """Register ``name`` with pyspiel (once a process) and return the pyspiel game string of the game with these
    parameters: ``robotcore_<name>`` for its defaults, else with the others as pyspiel parameters
    (``robotcore_scrapyard(players=3)``), so that several variants live in one process and a serialized game
    says which it is. ``deals`` > 0: the explicit-chance form (module docstring), whose pyspiel parameter
    ``deals`` defaults to this value; pyspiel keeps one game type per name, so registering the explicit form
    again with another ``deals`` is an ``InvalidParameterError`` (pass ``deals`` as a pyspiel parameter
    instead). Replaced content (``content=``) cannot be a pyspiel parameter and is refused."""
    if "content" in params:
        raise robotcore.InvalidParameterError(
            "replaced content cannot be a pyspiel parameter: register the game's own content")
    game = robotcore.load_game(name, **params)
    defaults = robotcore.load_game(name).plain_params()
    if isinstance(deals, bool) or not isinstance(deals, int) or not 0 <= deals <= 1 << 20:
        raise robotcore.InvalidParameterError(f"deals must be an int from 0 to 2**20, got {deals!r}")
    explicit = deals > 0
    short = PREFIX + name + ("_deals" if explicit else "")
    given = {k: v for k, v in sorted(game.plain_params().items()) if v != defaults[k]}
    game_string = short + ("(" + ",".join(f"{k}={v}" for k, v in given.items()) + ")" if given else "")
    if short in pyspiel.registered_names():
        held = _REGISTERED.get(short)
        if held is not None and held != deals:
            raise robotcore.InvalidParameterError(
                f"{short} is registered with deals={held} in this process; pyspiel keeps one game type per "
                f"name, so deals={deals} cannot be its default as well (load it with deals as a parameter: "
                f"{short}(deals={deals}))")
        return game_string
    cls = type(game)
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"robotcore {game.title}" + (" (explicit chance)" if explicit else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if explicit
                     else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # the winners share 1.0 (a constant sum); a solo game's one seat gets 1.0 for a win and 0.0 for a loss,
        # so a game that may be played alone is general-sum (OpenSpiel then wants no utility sum), all its variants
        utility=(pyspiel.GameType.Utility.CONSTANT_SUM if cls.min_players > 1
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**{k: _spec_value(v) for k, v in defaults.items()},
                                 **({"deals": deals} if explicit else {"seed": -1})},
    )

    def game_info(rc_game: robotcore.Game, num_deals: int) -> Any:
        return pyspiel.GameInfo(
            num_distinct_actions=rc_game.num_actions,
            max_chance_outcomes=num_deals,
            num_players=rc_game.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if game_type.utility == pyspiel.GameType.Utility.CONSTANT_SUM else None,
            max_game_length=rc_game.max_game_length,
        )

    class _Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, pyspiel_params: dict[str, Any] | None = None) -> None:
            params = pyspiel_params or {}
            self.deals = int(params.get("deals", deals)) if explicit else 0
            if explicit and not 0 < self.deals <= 1 << 20:
                raise robotcore.InvalidParameterError(f"deals must be 1..2**20, got {self.deals}")
            self.rc_game = _variant(name, {k: v for k, v in params.items() if k not in ("deals", "seed")})
            super().__init__(game_type, game_info(self.rc_game, self.deals), params)
            seed = params.get("seed", -1)
            self.rng = random.Random(None if seed < 0 else seed)

        def new_initial_state(self) -> _State:
            if self.deals:
                return _State(self, None)                  # the root chance node: which deal
            return _State(self, self.rc_game.new_initial_state(self.rng.getrandbits(64)))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            if isinstance(iig_obs_type, dict):     # pyspiel's make_observer(params), without a type
                iig_obs_type, params = None, iig_obs_type
            if params:
                raise robotcore.InvalidParameterError(f"observation parameters are not supported, got {params!r}")
            return _Observer(self.rc_game, iig_obs_type)

    class _State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, g: _Game, state: robotcore.State | None) -> None:
            super().__init__(g)
            self.rc = state                     # None: the root chance node of the explicit form
            self.rc_game = g.rc_game
            self.deals = g.deals
            # (seat, action) of the game so far; kept through resample_from_infostate (resample_hidden returns
            # a state without history), so that information states stay the observer's: there the actions that
            # observer could not see are None (the world drew them again, which ones it does not say)
            self.actions: list[tuple[int, int | None]] = []

        def current_player(self) -> int:
            if self.rc is None:
                return int(pyspiel.PlayerId.CHANCE)
            p = self.rc.current_player
            return int(pyspiel.PlayerId.TERMINAL) if p == robotcore.TERMINAL else int(p)

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(i, 1.0 / self.deals) for i in range(self.deals)] if self.rc is None else []

        def _legal_actions(self, player: int) -> list[int]:
            if self.rc is None:
                return list(range(self.deals)) if player == pyspiel.PlayerId.CHANCE else []
            return list(self.rc.legal_actions(player)) if player == self.rc.current_player else []

        def _apply_action(self, action: int) -> None:
            if self.rc is None:
                if not 0 <= action < self.deals:
                    raise robotcore.IllegalActionError(
                        f"chance outcome {action} is not one of the {self.deals} deals (0..{self.deals - 1})")
                self.rc = self.rc_game.new_initial_state(int(action))
            else:
                seat = self.rc.current_player
                self.rc.apply(action, seat)               # raises on an illegal action: nothing recorded
                self.actions.append((seat, int(action)))

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                return f"deal {action}"
            return str(self.rc_game.action_to_str(action))

        def is_terminal(self) -> bool:
            return self.rc is not None and bool(self.rc.is_terminal)

        def returns(self) -> list[float]:
            if self.rc is None:
                return [0.0] * self.rc_game.num_players
            return [float(r) for r in self.rc.returns()]

        def __str__(self) -> str:
            return "root" if self.rc is None else self.rc.to_bytes().hex()

        def __deepcopy__(self, memo: Any) -> _State:
            twin = _State(self.get_game(), None if self.rc is None else self.rc.clone())
            twin.actions = self.actions[:]
            return twin

        def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> _State:
            """A state the player cannot tell from this one (``State.resample_hidden``), for OpenSpiel's
            determinising algorithms; the sampler's draw seeds the re-deal."""
            if self.rc is None:
                return _State(self.get_game(), None)
            seed = int(float(probability_sampler()) * (1 << 53))
            world = _State(self.get_game(), self.rc.resample_hidden(player_id, seed))
            # the real actions hidden from the player are not the world's: kept, they made the other seats'
            # information states in the world contradict their views (a pass of R1 listed, R9 passed)
            public = self.rc_game.is_public_action
            world.actions = [(seat, a) if seat == player_id or (a is not None and public(a)) else (seat, None)
                             for seat, a in self.actions]
            return world

    class _Observer:
        """What a player observes, by OpenSpiel's observation type (``pyspiel.IIGObservationType``):

        - ``private_info=SINGLE_PLAYER`` (the default observation and the information state): the seat's view,
          and the seat's ``observation()`` as the tensor;
        - ``private_info=NONE`` (public information only): the spectator's view (``state.view(None)``), the
          same for every player; the engine has no public tensor, so such an observer has none
          (``tensor`` is None, as OpenSpiel's observers of public-information games);
        - ``perfect_recall=True`` (information states) adds every action of the history as the observer saw it
          (others' hidden commitments as "hidden"; with public information only, every action that is not
          public), string only: ``information_state_tensor()`` raises ``SpielError``, as for any OpenSpiel
          game that does not provide it;
        - ``private_info=ALL_PLAYERS`` (every seat's hidden information: an omniscient observer) and
          ``public_info=False`` (the private part alone) are refused: a robotcore view is one seat's or the
          spectator's, whole.
        """

        def __init__(self, g: robotcore.Game, iig_obs_type: Any = None) -> None:
            private = pyspiel.PrivateInfoType
            self.game = g
            self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            self.private = iig_obs_type is None or iig_obs_type.private_info == private.SINGLE_PLAYER
            if iig_obs_type is not None:
                if iig_obs_type.private_info == private.ALL_PLAYERS:
                    raise robotcore.InvalidParameterError(
                        "private_info=ALL_PLAYERS (every seat's hidden information) is not served: robotcore "
                        "observes as one seat (SINGLE_PLAYER) or as a spectator (NONE)")
                if not iig_obs_type.public_info:
                    raise robotcore.InvalidParameterError(
                        "public_info=False is not served: a robotcore view is one seat's or the spectator's, "
                        "whole (public information included)")
            # a tensor only for the seat's current observation: the engine has no public tensor, and no tensor of
            # the history (its observation() forgets the order of past moves), so a perfect-recall tensor would
            # not be one (the game type says provides_information_state_tensor=False)
            self.tensor: np.ndarray[Any, Any] | None = (
                np.zeros(g.observation_shape, np.float32) if self.private and not self.perfect_recall else None)
            self.dict = {} if self.tensor is None else {"observation": self.tensor}

        def set_from(self, state: _State, player: int) -> None:
            if self.tensor is None:
                raise pyspiel.SpielError(
                    "InformationStateTensor unimplemented: the game provides information-state strings only "
                    "(provides_information_state_tensor=False)" if self.perfect_recall else
                    "this observation type has no tensor (public information only): use string_from")
            if state.rc is None:
                self.tensor[:] = 0
            else:
                self.tensor[:] = state.rc.observation(player)

        def string_from(self, state: _State, player: int) -> str:
            import json

            if state.rc is None:
                return "root"
            view = state.rc.view(player if self.private else None)
            if not self.perfect_recall:
                return json.dumps(view, sort_keys=True)
            seen = [[seat, "hidden" if action is None or not (
                        (self.private and seat == player) or self.game.is_public_action(action)) else action]
                    for seat, action in state.actions]
            return json.dumps({"view": view, "actions": seen}, sort_keys=True)

    pyspiel.register_game(game_type, _Game)
    _REGISTERED[short] = deals
    return game_string
