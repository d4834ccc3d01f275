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

    from robotcore.adapters.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # Dict observation spaces, as PettingZoo's own card envs use
        for _ in range(3):                   # api_test plays a single episode: run it a few times
            api_test(env(name), num_cycles=1000)
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
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sum(state.returns()) == pytest.approx(1.0)
