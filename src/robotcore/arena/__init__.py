"""Tournaments between bots: schedules with seat rotation and paired deals, local or Ray backends, ratings,
sequential tests (SPRT), reports. ``robotcore tournament`` is its command line."""

from robotcore.arena.sprt import SPRT, sprt_llr
from robotcore.arena.tournament import Tournament, play_game, schedule

__all__ = ["Tournament", "play_game", "schedule", "SPRT", "sprt_llr"]
