from typing import Any

from robotcore.core.state import GameCore

STATE_SIZE: int
PHASE_NAMES: tuple[str, ...]
END_REASONS: tuple[str | None, ...]

def action_layout(num_opts: int, num_malus: int, vis: tuple[int, ...], players: int) -> dict[str, Any]: ...
def make_core(
    players: int,
    recipes: list[list[int]],
    points: list[int],
    options: list[tuple[int, list[int]]],
    msets: list[list[tuple[int, list[list[int]]]]],
    decks: list[list[int]],
    vis: tuple[int, ...],
    take: tuple[int, ...],
    mtake: tuple[int, ...],
    malus_fx: list[int],
    malus_arg: list[int],
    top: list[int],
    pile: list[int],
    events: list[list[int]],
    harsh: bool,
    refresh_mode: int,
    finish_round: bool,
    refresh_threshold: int,
    refresh_cost: int,
    bonus: int,
) -> GameCore: ...
def unpack_state(raw: Any) -> dict[str, Any]: ...
def pack_state(f: dict[str, Any]) -> bytes: ...
def score_parts(core: GameCore, raw: Any) -> list[dict[str, int]]: ...
