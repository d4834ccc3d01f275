from typing import Any

import numpy as np
import numpy.typing as npt

from robotcore.core.state import State

KIND_NAMES: tuple[str, ...]

def observation_size(players: int, ncomp: int, nmalus: int, nev: int) -> int: ...
def view(game: Any, state: State, seat: int | None) -> dict[str, Any]: ...
def omniscient(game: Any, state: State) -> dict[str, Any]: ...
def observation(state: State, seat: int) -> npt.NDArray[np.float32]: ...
#: the native resampler (and leaf evaluation) as a capsule of a partial EngineSpec, read by engine.make_core
NATIVE_HOOKS: object

def resample(game: Any, state: State, seat: int, seed: int) -> State: ...
