"""The native search bots: UCT over determinisations (``mcts``, PIMC) and single-observer ISMCTS (``ismcts``).

Both run in ``robotcore.bots._search`` (Cython, ``nogil``, over the engine's C function table), so one
implementation serves every game. Determinisations come from the engine's native resampler when it has one
(``EngineSpec.resample_draw``: a fresh world per ISMCTS iteration); otherwise from the game's Python
``resample_hidden``, drawn once per decision as a pool of ``worlds`` states that the iterations cycle through
(ISMCTS) or one tree per world (PIMC). Options:

- ``iterations``: the budget per decision (deterministic for a seed); ``ms``: a time budget per decision
  instead (the ``budget_ms`` argument of ``choose`` overrides both);
- ``c``: the UCB1 exploration constant (returns are in [0, 1]: the winners share 1.0; a solo game whose engine
  grades its results, ``EngineSpec.solo_value`` (Sparks), backs up that value instead of its 0-or-1 return);
  default 0.7, and 0.3 for ``mcts`` with ``rollout="eval"``;
- ``threads``: root parallelism (ISMCTS: one tree per thread, the result depends on the thread count; PIMC:
  worlds spread over threads, the result does not);
- ``worlds``: PIMC: its determinisations (trees) per decision; ISMCTS in a game without a native resampler: the
  pool of worlds drawn through ``resample_hidden`` (with one, every iteration draws its own world); default ``iterations // 32`` within [32, 4096], or 6 per millisecond of a time budget (at most ``MAX_WORLDS``, 8192, as the option): in a
  120-game Robotrick tournament at 1000 iterations, pools of 31, 62 and 1000 worlds (a fresh world every
  iteration) rated -9 [-36, 20], +13 [-17, 42] and -4 [-35, 35], no measurable difference);
- ``rollout``: ``"random"`` (the default: a uniformly random playout to the end of the game) or ``"eval"``: a
  random playout of at most ``depth`` decisions (default 0: none), then the engine's native leaf evaluation
  (``EngineSpec.evaluate``, per-seat values in [0, 1]): Scrapyard has one (its greedy heuristic; its random
  playouts carry little signal) and Nicodemus (the score race; best after some random decisions, e.g.
  ``depth=20``); an error in a game without one;
- ``reuse`` (ISMCTS): keep the subtree reached by the actions seen since the last decision, when every one of
  them was visible to the seat (a hidden action of another seat starts a new tree). PIMC (``mcts``) does not
  take it: its trees belong to determinisations that the next decision draws afresh.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from robotcore.bots import _search
from robotcore.bots.base import Bot, Observer, int_option, number_option, register
from robotcore.core.game import Game
from robotcore.errors import InvalidParameterError

#: The most determinisations a search bot draws for one decision (its ``worlds`` option, and the pool a time budget
#: asks for)
MAX_WORLDS = 8192


class _NativeSearchBot(Bot):
    mode: ClassVar[str]
    default_c: ClassVar[float] = 0.7
    #: c when ``rollout="eval"`` (leaf values are win shares close to 1/players, not 0-or-1 results)
    default_eval_c: ClassVar[float] = 0.7

    def __init__(self, seed: int = 0, iterations: int = 1000, ms: float | None = None, c: float | None = None,
                 threads: int = 1, worlds: int | None = None, rollout: str = "random", depth: int = 0) -> None:
        super().__init__(seed)
        self.iterations = int_option("iterations", iterations)
        self.ms = None if ms is None else number_option("ms", ms, positive=True, unit=" (milliseconds)")
        c = (self.default_eval_c if rollout == "eval" else self.default_c) if c is None else c
        self.c = number_option("c", c)
        self.threads = int_option("threads", threads, 1, 256)
        # at most MAX_WORLDS: every world is drawn (and in PIMC its tree made) before the search looks at the
        # clock, so 262,144 worlds took 17.6 s and 1.2 GB on a 1 ms budget
        self.worlds = None if worlds is None else int_option("worlds", worlds, 1, MAX_WORLDS)
        if rollout not in ("random", "eval"):
            raise InvalidParameterError(f"rollout must be 'random' or 'eval', got {rollout!r}")
        self.rollout = rollout
        self.depth = int_option("depth", depth, 0, 1 << 20)
        if depth and rollout != "eval":
            raise InvalidParameterError("depth applies to rollout='eval' only")
        #: the last search's figures: iterations, nodes, worlds drawn, seconds
        self.last: dict[str, Any] = {}

    def reset(self) -> None:
        self.last = {}

    def _pool_size(self, budget_ms: float | None) -> int:
        if self.worlds is not None:
            return self.worlds
        if budget_ms is not None:
            return max(32, min(MAX_WORLDS, int(budget_ms * 6)))
        return max(1, min(self.iterations, max(32, min(4096, self.iterations // 32))))

    def check_game(self, game: Game) -> None:
        if self.rollout == "eval" and not _search.native_evaluate(game.core):
            raise InvalidParameterError(f"{game.title} has no native leaf evaluation: use rollout='random'")

    def _search(self, observer: Observer, budget_ms: float | None, forest: Any) -> Any:
        game = observer.game
        core = game.core
        self.check_game(game)
        seed = self.rng.next_u64()
        t0 = time.perf_counter()
        worlds = root = None
        n = self._pool_size(budget_ms)
        if self.mode == "pimc" and budget_ms is None:
            n = min(n, self.iterations)
        if not core.native_resample:
            worlds = observer.worlds([self.rng.next_u64() for _ in range(n)])
        else:
            root = observer._native_root()
        budget = 0.0
        if budget_ms is not None:
            budget = max(0.001, budget_ms - 1000.0 * (time.perf_counter() - t0))
        before = forest.iterations if forest is not None else 0
        per = self.iterations
        if self.mode == "pimc":
            per = max(1, self.iterations // n)
        out = _search.search(core, observer.seat, self.mode, worlds=worlds, root=root, iterations=per,
                             budget_ms=budget, threads=self.threads, seed=seed, c=self.c,
                             max_len=game.max_game_length, forest=forest, num_worlds=n, rollout=self.rollout,
                             depth=self.depth)
        drawn = n
        if self.mode == "ismcts" and root is not None:      # a native world per iteration of this search
            drawn = out.iterations - before
        self.last = {"iterations": out.iterations, "nodes": out.nodes, "worlds": drawn,
                     "seconds": time.perf_counter() - t0}
        return out

    @staticmethod
    def _best(stats: dict[int, tuple[int, float]], legal: list[int]) -> int:
        best, key = legal[0], (-1, -1.0)
        for a in legal:
            v, total = stats.get(a, (0, 0.0))
            k = (v, total)
            if k > key:
                best, key = a, k
        return int(best)


@register
class MCTSBot(_NativeSearchBot):
    """UCT over determinisations (PIMC): ``worlds`` re-deals of what the seat cannot see, a perfect-information
    UCT tree on each (``iterations`` shared between them), the action with the most root visits summed."""

    name = "mcts"
    mode = "pimc"
    # Scrapyard, 3000 iterations with eval leaves, 32 games against greedy: c=0.3 scored a share of 0.336
    # [0.256, 0.416], c=0.7 0.281 [0.199, 0.364] (ismcts: 0.328 and 0.359, no difference: it keeps 0.7)
    default_eval_c = 0.3

    def __init__(self, seed: int = 0, iterations: int = 1000, ms: float | None = None, c: float | None = None,
                 threads: int = 1, worlds: int | None = 16, rollout: str = "random", depth: int = 0) -> None:
        # no ``reuse``: PIMC deals fresh worlds at each decision, so there is no subtree to keep
        super().__init__(seed, iterations, ms, c, threads, worlds, rollout, depth)

    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        legal = self._legal(observer)
        if len(legal) == 1:
            return int(legal[0])
        budget = budget_ms if budget_ms is not None else self.ms
        forest = self._search(observer, budget, None)
        return self._best(forest.root_stats(), legal)


@register
class ISMCTSBot(_NativeSearchBot):
    """Single-observer ISMCTS: one tree over the seat's information sets, a new determinisation per
    iteration, UCB1 with availability counts, native random rollouts; subtrees reused between moves."""

    name = "ismcts"
    mode = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 1000, ms: float | None = None, c: float | None = None,
                 threads: int = 1, worlds: int | None = None, reuse: bool = True, rollout: str = "random",
                 depth: int = 0) -> None:
        super().__init__(seed, iterations, ms, c, threads, worlds, rollout, depth)
        if not isinstance(reuse, bool):
            raise InvalidParameterError(f"reuse must be true or false, got {reuse!r}")
        self.reuse = reuse
        self._forest: Any = None
        self._history: list[tuple[int, int | None]] = []
        self._seat = -1
        self._game: Any = None

    def reset(self) -> None:
        super().reset()
        self._forest = None
        self._history = []

    def _reused(self, observer: Observer) -> Any:
        forest, self._forest = self._forest, None
        if forest is None or not self.reuse or observer.seat != self._seat or observer.game != self._game:
            return None
        history = observer.history
        old = self._history
        if len(history) <= len(old) or history[:len(old)] != old:
            return None
        for seat, action in history[len(old):]:
            if action is None or not forest.descend(seat, action):
                return None
        return forest

    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        legal = self._legal(observer)
        forest = self._reused(observer)
        if len(legal) == 1 and forest is None:
            return int(legal[0])
        budget = budget_ms if budget_ms is not None else self.ms
        forest = self._search(observer, budget, forest)
        if self.reuse:
            self._forest, self._history = forest, observer.history
            self._seat, self._game = observer.seat, observer.game
        return self._best(forest.root_stats(), legal)
