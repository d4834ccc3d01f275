"""Bots written over the common protocol only: they work for every registered game.

- ``RandomBot``: uniform over the legal actions.
- ``GreedyBot``: one-ply lookahead on a determinised state (``resample_hidden``), maximising the seat's score
  lead; ties broken at random. The "simple heuristic" of the service and of the balance simulations.
- ``MonteCarloBot``: flat Monte Carlo over determinisations (PIMC): for every legal action, native random
  playouts from re-dealt states; picks the best mean return. Strong and game-agnostic; takes a time budget.
- ``MCTSBot`` (``"mcts"``): native UCT over determinisations (PIMC), one tree per re-deal.
- ``ISMCTSBot`` (``"ismcts"``): native single-observer information-set MCTS (UCB1 with availability counts over
  determinisations, native rollouts, subtrees reused between moves).
  Both take ``iterations=`` or ``ms=``, ``threads=`` and ``rollout="eval"`` (a native leaf evaluation where the
  engine has one) (``robotcore.bots.native``).

``make_bot(name, seed, **options)`` builds one by name (``BOTS`` lists them) or by ``module:Class``; every
bot's ``choose(state, seat, budget_ms=None)`` returns a legal action of ``seat``, computed by its
``act(observer, budget_ms)`` from that seat's ``Observer`` only (``robotcore.bots.base`` documents the
protocol).
"""

from robotcore.bots.base import (
           BOTS,
           Bot,
           BotLike,
           Observer,
           bot_options,
           load_bot_class,
           make_bot,
           parse_bot_spec,
           split_bot_specs,
)
from robotcore.bots.greedy import GreedyBot
from robotcore.bots.montecarlo import MonteCarloBot
from robotcore.bots.native import ISMCTSBot, MCTSBot
from robotcore.bots.random import RandomBot

__all__ = ["Bot", "BotLike", "Observer", "BOTS", "bot_options", "make_bot", "parse_bot_spec", "split_bot_specs", "load_bot_class", "RandomBot",
           "GreedyBot", "MonteCarloBot", "MCTSBot", "ISMCTSBot"]
