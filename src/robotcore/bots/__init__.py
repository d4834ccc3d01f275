"""Bots written over the common protocol only: they work for every registered game.

- ``RandomBot``: uniform over the legal actions.
- ``GreedyBot``: one-ply lookahead on a determinised state (``resample_hidden``), maximising the seat's score
  lead; ties broken at random. The "simple heuristic" of the service and of the balance simulations.
- ``MonteCarloBot``: flat Monte Carlo over determinisations (PIMC): for every legal action, native random
  playouts from re-dealt states; picks the best mean return. Strong and game-agnostic; takes a time budget.
- ``ISMCTSBot``: single-observer information-set MCTS (UCB1 with availability counts over determinisations,
  native rollouts); takes an iteration count or a time budget.

``make_bot(name, seed, **options)`` builds one by name (``BOTS`` lists them); every bot's
``choose(state, seat, budget_ms=None)`` returns a legal action of ``seat``.
"""

from robotcore.bots.base import BOTS, Bot, make_bot
from robotcore.bots.greedy import GreedyBot
from robotcore.bots.ismcts import ISMCTSBot
from robotcore.bots.montecarlo import MonteCarloBot
from robotcore.bots.random import RandomBot

__all__ = ["Bot", "BOTS", "make_bot", "RandomBot", "GreedyBot", "MonteCarloBot", "ISMCTSBot"]
