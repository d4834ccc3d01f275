"""robotcore: a fast Cython core for robot-themed board games, with a typed Python API.

>>> import robotcore
>>> robotcore.list_games()
['nicodemus', 'robotrick', 'scrapyard', 'smartphone', 'sparks']
>>> state = robotcore.make("robotrick", seed=7)
>>> state.current_player
0
"""

from robotcore.core.game import Content, Game
from robotcore.core.state import TERMINAL, State
from robotcore.errors import (
    BatchInUseError,
    CorruptStateError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidParameterError,
    InvalidSeatError,
    NotYourTurnError,
    RobotcoreError,
    UnknownGameError,
)
from robotcore.registry import GameName, from_bytes, list_games, load_game, make
from robotcore.types import Outcome, ParamSpec, View

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "make",
    "load_game",
    "list_games",
    "from_bytes",
    "Game",
    "GameName",
    "State",
    "Content",
    "Outcome",
    "ParamSpec",
    "View",
    "TERMINAL",
    "RobotcoreError",
    "UnknownGameError",
    "InvalidParameterError",
    "InvalidSeatError",
    "InvalidActionError",
    "IllegalActionError",
    "NotYourTurnError",
    "GameOverError",
    "CorruptStateError",
    "BatchInUseError",
]
