from typing import Any

from robotcore.core.state import GameCore

STATE_SIZE: int
NUM_JOKER_ALLOCS: int
ALLOCS: list[tuple[int, int, int]]
PAIRS: list[tuple[int, int]]
PHASE_NAMES: tuple[str, ...]

def action_layout(num_types: int, num_projects: int) -> dict[str, Any]: ...
def make_core(
    machines: list[tuple[int, int, tuple[int, int, int], int, int, int]],
    projects: list[tuple[int, int, list[int]]],
    supply: tuple[int, int, int, int],
    start: tuple[tuple[int, int, int, int], tuple[int, int, int, int]],
    public_projects: int,
    sharing: int,
    first_player: int,
    end_score: int,
) -> GameCore: ...
def unpack_state(raw: Any) -> dict[str, Any]: ...
def pack_state(f: dict[str, Any]) -> bytes: ...
def _simd(on: int = -1) -> bool: ...
def repair_cost(core: GameCore, raw: Any, seat: int, slot: int) -> dict[str, Any]: ...
