"""The shared kernel: the generic State, the engine contract, the PRNG, bitsets and batch loops.

No game logic lives here; each game's rules are in ``robotcore.games.<name>.engine``.
"""

from robotcore.core.game import Content, Game
from robotcore.core.state import TERMINAL, GameCore, State

__all__ = ["Content", "Game", "GameCore", "State", "TERMINAL"]
