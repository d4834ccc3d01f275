"""A long mutation campaign over ``from_bytes``, beyond the suite's few hundred examples a game (``test_fuzz``).

Real mid-game states are mutated in four ways (random bytes, one bit, "interesting" values such as 0, 0xFF and
a byte plus or minus one, and a chunk of 1-64 bytes copied from another real state of the same game, which
gives plausible but inconsistent structs), their checksum fixed, and handed to ``from_bytes``. Every state it
accepts goes through the suite's own property (``check_accepted_state_plays_everywhere``: native playouts,
views, observations, masks, resampling and play to the end, every state reached accepted again). A Python
exception is saved as ``found-<game>-<n>.bin`` with its traceback; a crash ends the process with a signal, so
run it from a shell and read the exit code. Not collected by pytest (a speed goal is no timed test):

    python -m tests.conformance.campaign --seconds 300            # every game, 5 minutes each
    python -m tests.conformance.campaign --games sparks --seconds 60 --seed 3
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

import robotcore
from robotcore.errors import CorruptStateError

from ..conftest import random_play
from .test_fuzz import _reframe, check_accepted_state_plays_everywhere, struct_start

INTERESTING = (0, 1, 2, 3, 0x7F, 0x80, 0xFE, 0xFF)


def mutate(rng: random.Random, data: bytearray, start: int, size: int, donor: bytes) -> None:
    """Mutate the struct ``data[start:start + size]`` in place (its first 8 bytes, the PRNG counter, aside:
    any value of it is a valid state)."""
    kind = rng.randrange(4)
    if kind == 0:
        for _ in range(rng.randrange(1, 8)):
            data[start + rng.randrange(8, size)] = rng.randrange(256)
    elif kind == 1:
        bit = rng.randrange(64, 8 * size)
        data[start + bit // 8] ^= 1 << (bit % 8)
    elif kind == 2:
        for _ in range(rng.randrange(1, 4)):
            at = start + rng.randrange(8, size)
            data[at] = rng.choice([*INTERESTING, (data[at] + 1) & 255, (data[at] - 1) & 255])
    else:
        first = rng.randrange(8, size)
        for i in range(first, min(size, first + rng.choice((1, 2, 4, 8, 16, 32, 64)))):
            data[start + i] = donor[i]


def campaign(name: str, seconds: float, seed: int, out: Path) -> tuple[int, int, int]:
    """(mutations tried, accepted, found) for one game."""
    game = robotcore.load_game(name)
    rng = random.Random(seed)
    pool = [random_play(game.new_initial_state(seed=seed * 100 + i), random.Random(i), steps=rng.randrange(400))
            for i in range(40)]
    tried = accepted = found = 0
    end = time.process_time() + seconds
    while time.process_time() < end:
        state, donor = rng.choice(pool), rng.choice(pool)
        data = bytearray(state.to_bytes())
        mutate(rng, data, struct_start(state), game.state_size, donor.state_bytes())
        tried += 1
        blob = _reframe(bytes(data))
        try:
            again = game.from_bytes(blob)
        except CorruptStateError:
            continue
        accepted += 1
        try:
            check_accepted_state_plays_everywhere(game, again, tried)
        except Exception:                           # noqa: BLE001 - recorded, and the campaign goes on
            found += 1
            path = out / f"found-{name}-{seed}-{tried}.bin"
            path.write_bytes(blob)
            print(f"FOUND {path}\n{traceback.format_exc()}", flush=True)
    return tried, accepted, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(robotcore.list_games()))
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU seconds per game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("."), help="where found states are saved")
    args = parser.parse_args()
    total = 0
    for name in args.games.split(","):
        tried, accepted, found = campaign(name, args.seconds, args.seed, args.out)
        print(f"{name}: {tried} mutations, {accepted} accepted and played everywhere, {found} found", flush=True)
        total += found
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
