from typing import final

import numpy.typing as npt

from robotcore.core.state import GameCore, State

@final
class Forest:
    def __init__(self, *args: object, **kwargs: object) -> None: ...
    @property
    def seat(self) -> int: ...
    @property
    def mode(self) -> str: ...
    @property
    def num_trees(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def iterations(self) -> int: ...
    def root_stats(self) -> dict[int, tuple[int, float]]: ...
    def descend(self, player: int, action: int) -> bool: ...

MAX_SEARCH_LEN: int

def search(
    core: GameCore,
    seat: int,
    mode: str,
    *,
    worlds: npt.ArrayLike | None = None,
    root: State | None = None,
    iterations: int = 0,
    budget_ms: float = 0.0,
    threads: int = 1,
    seed: int = 0,
    c: float = 0.7,
    max_len: int = 100000,
    forest: Forest | None = None,
    num_worlds: int = 0,
    rollout: str = "random",
    depth: int = 0,
) -> Forest: ...

def native_evaluate(core: GameCore) -> bool: ...
def evaluate(state: State) -> list[float]: ...
def native_resample(root: State, seat: int, seed: int) -> State: ...
def native_draws(root: State, seat: int, n: int, seed: int = 0, validate: bool = False) -> int: ...
def _identity_resampler_core(state: State) -> tuple[GameCore, State]: ...
