"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

Each iteration re-deals what the searching seat cannot see (``resample_hidden``), walks one shared tree with
UCB1 over the actions available in that determinisation (availability counts), expands one action, finishes
the game with a native random playout, and backs up each seat's return at the nodes where that seat acted.
Generic over games: it uses only the common protocol.
"""

from __future__ import annotations

import math
import time

import numpy as np

from robotcore.bots.base import Bot, register
from robotcore.core import batch
from robotcore.core.state import State


class _Node:
    __slots__ = ("player", "children", "visits", "total", "avail")

    def __init__(self, player: int) -> None:
        self.player = player              # the seat whose action led to this node
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0                  # sum of ``player``'s returns through this node
        self.avail = 0                    # iterations in which this node's action was legal


@register
class ISMCTSBot(Bot):
    """``iterations`` per decision (or as many as ``budget_ms`` allows, at least one); exploration ``c``."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 500, c: float = 0.7) -> None:
        super().__init__(seed)
        self.iterations = max(1, int(iterations))
        self.c = float(c)

    def choose(self, state: State, seat: int, budget_ms: float | None = None) -> int:
        legal = self._legal(state, seat)
        if len(legal) == 1:
            return int(legal[0])
        root = _Node(-1)
        deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000.0
        done = 0
        while True:
            self._iterate(state, seat, root)
            done += 1
            if deadline is None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total))
        return int(best[0])

    def _iterate(self, state: State, seat: int, root: _Node) -> None:
        world = state.resample_hidden(seat, self.rng.next_u64())
        node = root
        path: list[_Node] = []
        player = seat                     # at the root the searching seat acts (even inside a simultaneous phase)
        while not world.is_terminal:
            legal = world.legal_actions(player)
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = untried[self.rng.below(len(untried))]
                child = _Node(player)
                child.avail = 1
                node.children[action] = child
                world.apply(action, player)
                path.append(child)
                break
            log_term = self.c
            best_value = -math.inf
            action = legal[0]
            for a in legal:
                child = node.children[a]
                value = child.total / child.visits + log_term * math.sqrt(math.log(child.avail) / child.visits)
                if value > best_value:
                    best_value, action = value, a
            node = node.children[action]
            world.apply(action, player)
            path.append(node)
            player = world.current_player
        if world.is_terminal:
            returns = world.returns()
        else:
            row = np.frombuffer(world.state_bytes(), dtype=np.uint8).copy()[None, :]
            batch.random_playouts(world.game, row, self.rng.next_u64())
            returns = list(batch.returns(world.game, row)[0])
        for n in path:
            n.visits += 1
            n.total += returns[n.player]
