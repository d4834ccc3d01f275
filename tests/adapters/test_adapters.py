"""Every registered game passes PettingZoo's API and seed tests and OpenSpiel's random simulation test through
the adapters (skipped only where those frameworks are not installed; the `test` extra installs them on Linux
x86-64)."""

from __future__ import annotations

import warnings

import pytest

import robotcore

GAMES = robotcore.list_games()


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from robotcore.adapters.pettingzoo import env, raw_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # Dict observation spaces, as PettingZoo's own card envs use
        for _ in range(3):                   # api_test plays a single episode: run it a few times
            api_test(env(name), num_cycles=1000)
        api_test(raw_env(name), num_cycles=1000)
        seed_test(lambda: env(name), num_cycles=200)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_episode_rewards_are_the_returns(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from robotcore.adapters.pettingzoo import env

    e = env(name)
    e.reset(seed=4)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        assert obs["action_mask"].sum() > 0 or terminated
        e.step(None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"]))
    assert sum(total.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from robotcore.adapters.openspiel import register

    game = pyspiel.load_game(register(name), {"seed": 1})
    pyspiel.random_sim_test(game, num_sims=6, serialize=False, verbose=False)   # through Python: slow
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_parallel_api_and_seed_tests(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from gymnasium.utils.env_checker import data_equivalence
    from pettingzoo.test import parallel_api_test

    from robotcore.adapters.pettingzoo import parallel_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(3):
            parallel_api_test(parallel_env(name), num_cycles=5000)

    # PettingZoo's parallel_seed_test samples actions without their masks, so its episodes end on an illegal
    # action at the first step and compare nothing: seeded determinism is checked here, with masked sampling,
    # over whole games
    def episode(seed: int) -> list[tuple[object, ...]]:
        e = parallel_env(name)
        obs, _ = e.reset(seed=seed)
        for i, agent in enumerate(e.possible_agents):
            e.action_space(agent).seed(seed + i)
        trajectory: list[tuple[object, ...]] = []
        while e.agents:
            actions = {a: e.action_space(a).sample(obs[a]["action_mask"]) for a in e.agents}
            obs, rewards, terminations, truncations, infos = e.step(actions)
            assert not any(info.get("illegal_action") for info in infos.values())
            trajectory.append((actions, obs, rewards, terminations, truncations))
        assert sum(rewards.values()) == pytest.approx(1.0)            # the game's own end
        return trajectory

    first, second = episode(42), episode(42)
    assert len(first) > 10 and len(first) == len(second)
    assert all(data_equivalence(x, y) for x, y in zip(first, second))
    other = episode(43)
    assert len(other) != len(first) or not all(data_equivalence(x, y) for x, y in zip(first, other))


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_parallel_plays_every_acting_seat_and_refuses_illegal_steps(name: str) -> None:
    pytest.importorskip("pettingzoo")
    import random

    from robotcore.adapters.pettingzoo import parallel_env
    from robotcore.errors import IllegalActionError

    e = parallel_env(name, illegal_action="raise")
    obs, _ = e.reset(seed=3)
    rng = random.Random(3)
    steps = 0
    while e.agents:
        assert e.game_state is not None
        acting = [e.possible_agents[s] for s in e.game_state.actors]
        assert [a for a in obs if obs[a]["action_mask"].any()] == acting
        before = e.game_state.to_bytes()
        with pytest.raises(IllegalActionError):
            e.step({})                                   # an acting seat without an action
        assert e.game_state.to_bytes() == before
        actions = {a: rng.choice(list(obs[a]["action_mask"].nonzero()[0])) for a in acting}
        obs, rewards, terminations, _, _ = e.step(actions)
        steps += 1
    assert sum(rewards.values()) == pytest.approx(1.0) and all(terminations.values())
    assert steps <= len(e.game_state.history)

    e = parallel_env(name)                               # the default: an illegal action ends the episode
    obs, _ = e.reset(seed=3)
    acting = e.possible_agents[e.game_state.actors[0]]  # type: ignore[union-attr]
    illegal = int((obs[acting]["action_mask"] == 0).nonzero()[0][0])
    _, rewards, terminations, _, infos = e.step({acting: illegal})
    assert rewards[acting] == -1.0 and infos[acting]["illegal_action"] and all(terminations.values())
    assert e.agents == [] and e.game_state is not None and e.game_state.history == []


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_single_agent_env_passes_check_env(name: str) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from robotcore.adapters.gymnasium import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # unbounded Box observations
        check_env(env(name, seat=0), skip_render_check=True)
        check_env(env(name, seat=1, opponents="greedy"), skip_render_check=True)


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_episode_is_the_game_with_the_learner_in_its_seat(name: str) -> None:
    pytest.importorskip("gymnasium")
    import numpy as np

    from robotcore.adapters.gymnasium import env
    from robotcore.errors import IllegalActionError

    game = robotcore.load_game(name)
    seat = game.num_players - 1
    e = env(name, seat=seat, opponents="greedy", illegal_action="raise")
    obs, info = e.reset(seed=7)
    rng = np.random.default_rng(7)
    total = 0.0
    while True:
        assert e.state is not None and seat in e.state.actors
        assert (info["action_mask"].astype(bool) == e.state.legal_mask(seat)).all()
        assert (obs == e.state.observation(seat)).all()
        illegal = (info["action_mask"] == 0).nonzero()[0]
        if len(illegal):
            before = e.state.to_bytes()
            with pytest.raises(IllegalActionError):
                e.step(int(illegal[0]))
            assert e.state.to_bytes() == before
        action = int(rng.choice(info["action_mask"].nonzero()[0]))
        obs, reward, terminated, truncated, info = e.step(action)
        total += reward
        assert not truncated
        if terminated:
            break
        assert reward == 0.0
    assert total == e.state.returns()[seat]
    again = env(name, seat=seat, opponents="greedy")
    again.reset(seed=7)
    replayed = game.replay(e.state.seed, e.state.history)
    assert replayed == e.state                   # the episode is an ordinary game of the engine
    assert again.state is not None and again.state.seed == e.state.seed


def test_gymnasium_refuses_a_bad_opponent_when_made_not_at_reset() -> None:
    pytest.importorskip("gymnasium")
    from robotcore.adapters.gymnasium import env

    with pytest.raises(robotcore.InvalidParameterError, match="bot 'mcts': .*no native leaf evaluation"):
        env("robotrick", opponents="mcts:rollout=eval")
    with pytest.raises(robotcore.InvalidParameterError, match="no bot named"):
        env("robotrick", opponents=["random", "nobody"])


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_explicit_chance_form_serializes(name: str) -> None:
    """With the root deal as an explicit chance node, OpenSpiel's own serialization works (in sampled mode
    it needs the game's RNG state, which a Python game cannot give)."""
    pyspiel = pytest.importorskip("pyspiel")
    from robotcore.adapters.openspiel import register

    game = pyspiel.load_game(register(name, deals=1000))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    state.apply_action(17)
    assert state.rc.state_bytes() == robotcore.make(name, seed=17).state_bytes()
    for _ in range(8):
        state.apply_action(state.legal_actions()[-1])
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert state2.history() == state.history() and str(state2) == str(state)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_information_states_and_resampling(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from robotcore.adapters.openspiel import register

    game = pyspiel.load_game(register(name), {"seed": 3})
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(player) == state.information_state_string(player)
    assert world.rc.state_bytes() != state.rc.state_bytes()          # the hidden part was re-dealt
    # the other seats' actions hidden from the player are not the world's: not listed as the real ones (the
    # world's information state of seat 0 listed its real pass while its view showed the card the world drew)
    import json

    public = world.rc.game.is_public_action
    for i, (seat, a) in enumerate(state.actions):
        if seat != player and not public(a):
            assert json.loads(world.information_state_string(seat))["actions"][i] == [seat, "hidden"]
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 20,
                           random_state=np.random.RandomState(1))
    assert bot.step(state) in state.legal_actions()


def test_openspiel_variants_are_pyspiel_parameters_of_one_game_type() -> None:
    """One game type per name holds every variant as pyspiel parameters (several in one process; the game string
    says which, so a serialized game and state come back as the same variant); only another default of the
    explicit form's ``deals`` is refused, which pyspiel's one type per name cannot hold."""
    pyspiel = pytest.importorskip("pyspiel")
    import robotcore
    from robotcore.adapters.openspiel import register

    short = register("robotrick")
    assert register("robotrick") == short == "robotcore_robotrick"
    variant = register("robotrick", hangars=4, rounds=1)     # a variant is a pyspiel parameter of the same type
    assert variant == "robotcore_robotrick(hangars=4,rounds=1)"
    assert pyspiel.load_game(variant).rc_game == robotcore.load_game("robotrick", hangars=4, rounds=1)
    assert pyspiel.load_game(short).rc_game == robotcore.load_game("robotrick")
    explicit = register("robotrick", deals=1000)
    assert register("robotrick", deals=1000) == explicit
    with pytest.raises(robotcore.InvalidParameterError, match="deals=1000"):
        register("robotrick", deals=7)
    three = register("smartphone", players=3, length="20")      # a string of digits: declared as an int
    assert three == "robotcore_smartphone(length=20,players=3)"
    game = pyspiel.load_game(three)
    assert game.rc_game == robotcore.load_game("smartphone", players=3, length="20") and game.num_players() == 3
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    explicit4 = pyspiel.load_game(register("robotrick", deals=1000, hangars=4))
    state = explicit4.new_initial_state()
    state.apply_action(3)
    state.apply_action(state.legal_actions()[0])
    again, twin = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(explicit4, state))
    assert again.rc_game == robotcore.load_game("robotrick", hangars=4) and twin.history() == state.history()
    solo = pyspiel.load_game(register("sparks", players=1))
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM and solo.num_players() == 1
    with pytest.raises(robotcore.InvalidParameterError):
        pyspiel.load_game("robotcore_scrapyard(players=9)")
    with pytest.raises(robotcore.InvalidParameterError, match="content"):
        register("robotrick", content=robotcore.load_game("robotrick").content)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_observer_honours_the_observation_type(name: str) -> None:
    """private_info=NONE is the spectator's view: nothing private, the same for every player and unchanged when
    the hidden part is re-dealt; SINGLE_PLAYER is the seat's own view; ALL_PLAYERS (omniscient) is refused."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.observation import make_observation

    from robotcore.adapters.openspiel import register

    game = pyspiel.load_game(register(name), {"seed": 5})
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    iig, private = pyspiel.IIGObservationType, pyspiel.PrivateInfoType
    n = game.num_players()
    for recall in (False, True):
        public = make_observation(game, iig(perfect_recall=recall, public_info=True, private_info=private.NONE))
        own = make_observation(game, iig(perfect_recall=recall, public_info=True,
                                         private_info=private.SINGLE_PLAYER))
        strings = {public.string_from(state, p) for p in range(n)}
        assert len(strings) == 1 and public.tensor is None
        assert public.string_from(state, 0) != own.string_from(state, 0)        # the seat's hand is not public
        for p in range(n):
            world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert world.rc.state_bytes() != state.rc.state_bytes()
            assert {public.string_from(world, q) for q in range(n)} == strings
    with pytest.raises(robotcore.InvalidParameterError, match="ALL_PLAYERS"):
        make_observation(game, iig(perfect_recall=False, public_info=True, private_info=private.ALL_PLAYERS))


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_refused_action_leaves_no_trace(name: str) -> None:
    """An illegal apply_action raises and changes nothing: history, information states, the engine state."""
    pyspiel = pytest.importorskip("pyspiel")
    from robotcore.adapters.openspiel import register

    game = pyspiel.load_game(register(name), {"seed": 2})
    state = game.new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    before = ([state.information_state_string(p) for p in range(game.num_players())], state.history(),
              state.rc.to_bytes())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(robotcore.IllegalActionError):
        state.apply_action(illegal)
    after = ([state.information_state_string(p) for p in range(game.num_players())], state.history(),
             state.rc.to_bytes())
    assert after == before


def test_pettingzoo_state_is_the_api_method_and_game_state_the_engine() -> None:
    """PettingZoo's state() is a method of its API (a global observation), not served: it raises
    NotImplementedError, also through PettingZoo's conversions; the engine's State is game_state."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.utils.conversions import parallel_to_aec

    from robotcore.adapters.pettingzoo import env, parallel_env

    for e in (env("nicodemus"), parallel_env("nicodemus"), parallel_to_aec(parallel_env("nicodemus"))):
        e.reset(seed=1)
        with pytest.raises(NotImplementedError, match="omniscient"):
            e.state()
        assert isinstance(e.unwrapped.game_state, robotcore.State)


def test_openspiel_explicit_chance_root_refuses_other_outcomes() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from robotcore.adapters.openspiel import register

    game = pyspiel.load_game(register("robotrick", deals=1000), {"deals": 10})
    state = game.new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == list(range(10))
    for outcome in (10, 123456):
        with pytest.raises(robotcore.IllegalActionError, match="not one of the 10 deals"):
            state.apply_action(outcome)
        assert state.is_chance_node() and state.history() == []
    state.apply_action(9)
    assert state.rc.seed == 9


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_information_state_tensor_is_not_provided(name: str) -> None:
    """The game type says provides_information_state_tensor=False: information_state_tensor() raises, as
    OpenSpiel's games that do not provide it do, instead of handing out the observation tensor (which forgets
    the order of past moves: not an information state); a perfect-recall observer has no tensor."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.observation import make_observation

    from robotcore.adapters.openspiel import register

    game = pyspiel.load_game(register(name), {"seed": 1})
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensor unimplemented"):
        state.information_state_tensor(0)
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensor unimplemented"):
        game.information_state_tensor_shape()
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert info.tensor is None and info.string_from(state, 0) == state.information_state_string(0)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()   # the observation still has one


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_env_is_wrapped_as_the_classic_envs_and_raw_env_is_not(name: str) -> None:
    """env(): TerminateIllegalWrapper(illegal_reward=-1), AssertOutOfBoundsWrapper, OrderEnforcingWrapper, as
    PettingZoo's classic environments; raw_env(): the bare environment, where an illegal action raises."""
    pytest.importorskip("pettingzoo")
    import numpy as np

    from robotcore.adapters.pettingzoo import RobotcoreAEC, env, raw_env
    from robotcore.errors import IllegalActionError

    e = env(name)
    assert isinstance(e.unwrapped, RobotcoreAEC)
    with pytest.raises(AttributeError, match="before reset"):
        e.agent_selection                               # noqa: B018 (OrderEnforcingWrapper's check)
    e.reset(seed=1)
    with pytest.raises(AssertionError):
        e.step(e.unwrapped.game.num_actions)           # AssertOutOfBoundsWrapper
    offender = e.agent_selection
    illegal = int(np.flatnonzero(e.observe(offender)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                  # PettingZoo's warning on the illegal move
        e.step(illegal)
    assert all(e.terminations.values())
    assert e._cumulative_rewards == {a: -1.0 if a == offender else 0.0 for a in e.possible_agents}
    assert e.unwrapped.game_state.history == []

    raw = raw_env(name)
    raw.reset(seed=1)
    before = raw.game_state.to_bytes()
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    assert raw.game_state.to_bytes() == before and not any(raw.terminations.values())


def test_render_mode_is_checked_against_the_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    """"ansi" returns the game's text, "human" prints it (PettingZoo's render_test makes its environments with
    "human", which was refused: RL review); anything else is refused."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import render_test

    from robotcore.adapters import gymnasium, pettingzoo

    for make in (pettingzoo.env, pettingzoo.raw_env, pettingzoo.parallel_env, gymnasium.env):
        with pytest.raises(robotcore.InvalidParameterError, match="render_mode must be None or one of"):
            make("robotrick", render_mode="rgb_array")
        e = make("robotrick", render_mode="ansi")
        e.reset(seed=1)
        assert e.render().startswith("Robotrick")
        e = make("robotrick", render_mode="human")
        e.reset(seed=1)
        capsys.readouterr()
        assert e.render() is None and capsys.readouterr().out.startswith("Robotrick")
    render_test(lambda render_mode=None: pettingzoo.env("nicodemus", render_mode=render_mode))


@pytest.mark.parametrize("illegal_action", ["terminate", "raise"])
def test_gymnasium_step_after_the_end_raises_until_reset(illegal_action: str) -> None:
    """A finished episode (by the game's end or an illegal action) refuses further steps with GameOverError,
    instead of answering an illegal action with -1; reset() starts again."""
    pytest.importorskip("gymnasium")
    import numpy as np

    from robotcore.adapters.gymnasium import env

    e = env("nicodemus", illegal_action=illegal_action)
    _, info = e.reset(seed=1)
    terminated = False
    while not terminated:
        _, reward, terminated, _, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert e.state is not None and e.state.is_terminal
    for action in (0, e.game.num_actions - 1):
        with pytest.raises(robotcore.GameOverError, match="the game ended"):
            e.step(action)
    _, info = e.reset(seed=2)
    if illegal_action == "terminate":
        _, reward, terminated, _, _ = e.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
        assert terminated and reward == -1.0
        with pytest.raises(robotcore.GameOverError, match="illegal action"):
            e.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_docs_name_every_adapter_entry_point_with_its_defaults() -> None:
    """The README's and the package docstring's signatures are the code's (the README once gave the Gymnasium
    env's opponents a default of "greedy"; the docstring left out the Gymnasium env and parallel_env)."""
    import inspect
    from pathlib import Path

    import robotcore.adapters

    pytest.importorskip("gymnasium")
    from robotcore.adapters import gymnasium

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    default = inspect.signature(gymnasium.env).parameters["opponents"].default
    documented = f'robotcore.adapters.gymnasium.env(name, seat=0, opponents="{default}"'
    assert documented in readme and documented in (robotcore.adapters.__doc__ or "")
    for entry in ("pettingzoo.env(", "raw_env", "parallel_env(", "openspiel.register("):
        assert entry in (robotcore.adapters.__doc__ or "") and entry in readme
    assert "lowest pending seat first" in readme


def test_gymnasium_takes_integer_ids_of_any_integer_type_and_nothing_else() -> None:
    """``step`` read its action with ``int()``: "3", 2.9 and True were taken as actions 3, 2 and 1; a numpy seat
    was refused (found by fuzzing). Any integer type is an id (the Discrete space samples numpy ints)."""
    pytest.importorskip("gymnasium")
    import numpy as np

    import robotcore
    from robotcore.adapters import gymnasium as rc_gym

    env = rc_gym.env("robotrick", seat=np.int64(1))
    assert env.seat == 1 and type(env.seat) is int
    obs, info = env.reset(seed=3)
    for bad in ("3", 2.9, True, None, np.float64(1.0)):
        with pytest.raises(robotcore.InvalidActionError):
            env.step(bad)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.int32(legal))                      # a numpy id is an id
    with pytest.raises(robotcore.InvalidParameterError):
        rc_gym.env("robotrick", seat=True)


@pytest.mark.parametrize("illegal_action", ["terminate", "raise"])
def test_pettingzoo_raw_and_parallel_take_integer_ids_of_any_integer_type_and_nothing_else(
        illegal_action: str) -> None:
    """``raw_env`` and ``parallel_env`` read actions with ``int()``: "3", 2.9 and True were played as 3, 2 and 1
    (as Gymnasium's ``step`` did before). They are no action: ``InvalidActionError``, the game left as it was,
    whatever the illegal-action policy; a numpy id is an id."""
    pytest.importorskip("pettingzoo")
    import numpy as np

    from robotcore.adapters.pettingzoo import parallel_env, raw_env

    aec = raw_env("robotrick")
    aec.reset(seed=4)
    agent = aec.agent_selection
    legal = int(np.flatnonzero(aec.observe(agent)["action_mask"])[0])
    before = aec.game_state.to_bytes()
    for bad in (str(legal), legal + 0.0, legal + 0.9, True, np.float64(legal)):
        with pytest.raises(robotcore.InvalidActionError):
            aec.step(bad)
        assert aec.game_state.to_bytes() == before and aec.agent_selection == agent
    aec.step(np.int16(legal))
    assert aec.game_state.to_bytes() != before

    par = parallel_env("robotrick", illegal_action=illegal_action)
    obs, _ = par.reset(seed=4)
    acting = [a for a in par.agents if obs[a]["action_mask"].any()]
    ids = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in acting}
    before = par.game_state.to_bytes()
    for bad in (str(ids[acting[-1]]), float(ids[acting[-1]]), True):
        with pytest.raises(robotcore.InvalidActionError):
            par.step({**ids, acting[-1]: bad})
        assert par.game_state.to_bytes() == before and par.agents
    par.step({a: np.uint8(i) for a, i in ids.items()})
    assert par.game_state.to_bytes() != before


@pytest.mark.parametrize("which", ["env", "parallel_env"])
def test_pettingzoo_resets_after_a_seeded_one_are_reproducible(which: str) -> None:
    """Gymnasium's convention: reset(seed=s) seeds the game and the resets without a seed that follow (and the
    action spaces' samples), so that a run seeded once is the same every time (RL review: the unseeded resets
    drew random games, and two equally seeded environments sampled different actions)."""
    pytest.importorskip("pettingzoo")
    from robotcore.adapters import pettingzoo as pz

    def run() -> list[object]:
        e = getattr(pz, which)("robotrick")
        e.reset(seed=42)
        out: list[object] = [e.unwrapped.game_state.to_bytes()]
        for _ in range(3):
            e.reset()
            out.append(e.unwrapped.game_state.to_bytes())
        out.append(e.action_space("player_0").sample())
        return out

    first, second = run(), run()
    assert first == second and len(set(first[:4])) == 4           # the same run, four different games
    e = getattr(pz, which)("robotrick")
    e.reset()
    e2 = getattr(pz, which)("robotrick")
    e2.reset()
    assert e.unwrapped.game_state.to_bytes() != e2.unwrapped.game_state.to_bytes()    # never seeded: random


def test_gymnasium_opponent_bots_hear_every_new_game_and_every_move() -> None:
    """A bot object's reset and observe hooks were never called by the Gymnasium environment (RL review), so a
    stateful opponent carried one game's memory into the next; they are called as in a tournament."""
    pytest.importorskip("gymnasium")
    import numpy as np

    from robotcore.adapters.gymnasium import env
    from robotcore.bots import Bot

    class Counting(Bot):
        def reset(self) -> None:
            self.resets = getattr(self, "resets", 0) + 1
            self.heard: list[tuple[int, int, int | None]] = []

        def observe(self, observer, seat, action) -> None:  # noqa: ANN001
            self.heard.append((observer.seat, seat, action))

        def act(self, observer, budget_ms=None) -> int:  # noqa: ANN001
            return observer.legal_actions()[0]

    mine, theirs = Counting(1), Counting(2)
    e = env("robotrick", seat=0, opponents=[mine, theirs])
    for episode in range(2):
        obs, info = e.reset(seed=episode)
        while True:
            obs, reward, terminated, truncated, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
            if terminated:
                break
        history = e.unwrapped.state.history
        for seat, bot in ((1, mine), (2, theirs)):
            assert bot.resets == episode + 1
            assert [(s, a) for _, s, a in bot.heard if a is not None] == [
                (s, a) for s, a in history if s != seat and e.unwrapped.game.is_public_action(a)]
            assert {o for o, _, _ in bot.heard} == {seat}
            assert len(bot.heard) == sum(1 for s, _ in history if s != seat)


def test_gymnasium_ids_are_registered_for_every_game() -> None:
    """gymnasium.make and make_vec had no id to find (RL review): robotcore/<game>-v0, parameters as keywords."""
    gymnasium = pytest.importorskip("gymnasium")

    for name in robotcore.list_games():
        e = gymnasium.make(f"robotcore.adapters.gymnasium:robotcore/{name}-v0", seat=1)
        obs, info = e.reset(seed=3)
        assert obs.shape == robotcore.load_game(name).observation_shape and e.unwrapped.seat == 1
    e = gymnasium.make("robotcore/sparks-v0", players=2)
    assert e.unwrapped.game.num_players == 2
    vec = gymnasium.make_vec("robotcore/nicodemus-v0", num_envs=2)
    assert vec.reset(seed=1)[0].shape == (2, *robotcore.load_game("nicodemus").observation_shape)
