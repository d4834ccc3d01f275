# cython: language_level=3
"""Batch loops over an ``(N, state_size)`` uint8 array of states, written once for every game.

Each function validates every row it is given with the engine's invariant check (a corrupted row is reported,
never stepped), then works under ``nogil``, so several Python threads can run batches at once (on disjoint
rows). Random policies draw from a per-row stream derived from ``(seed, row)``: results do not depend on how the
rows are split between threads. Bounds checks are off in the loops: row indices come from ``range(N)`` and
the row width is checked against the game's state size at entry (``_core``).
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

from robotcore.core.bits cimport lowest_bit, nth_set_bit, popcount
from robotcore.core.rng cimport rng_below, rng_mix, rng_seed
from robotcore.core.playout cimport random_playout_loop
from robotcore.core.state cimport MAX_MASK_WORDS, MAX_SEATS, EngineSpec, GameCore, compute_returns

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from robotcore.errors import CorruptStateError

cnp.import_array()

cdef enum:
    ST_APPLIED = 1
    ST_ILLEGAL = 0
    ST_ALREADY_OVER = -1
    ST_INVALID_ROW = -2
    PO_INVALID_ROW = -1
    PO_TOO_LONG = -2     # = playout.pxd's PLAYOUT_TOO_LONG

#: Row statuses returned by ``step``.
APPLIED = ST_APPLIED
ILLEGAL = ST_ILLEGAL
ALREADY_OVER = ST_ALREADY_OVER
INVALID_ROW = ST_INVALID_ROW

#: ``random_playouts`` result for a row that failed the invariant check / exceeded the length bound.
PLAYOUT_INVALID_ROW = PO_INVALID_ROW
PLAYOUT_TOO_LONG = PO_TOO_LONG


cdef GameCore _core(game, object states):
    cdef GameCore core = game.core
    if states.ndim != 2 or states.shape[1] != core.spec.state_size:
        raise CorruptStateError(
            f"a {game.name} batch must be (N, {core.spec.state_size}) uint8, got shape {states.shape}"
        )
    return core


cdef inline uint64_t _row_stream(uint64_t seed, Py_ssize_t row) noexcept nogil:
    return rng_seed(seed ^ rng_mix(<uint64_t>row + 1))


cdef int64_t native_random_playout(
    const EngineSpec* spec, const void* cfg, void* st, uint64_t* rng, int64_t max_len
) noexcept nogil:
    """Play uniformly random legal actions (current player each time) to the end; returns the action count."""
    if spec.playout != NULL:
        return spec.playout(cfg, st, rng, max_len)
    return random_playout_loop(spec.actors, spec.legal_mask, spec.apply, spec.mask_words, cfg, st, rng, max_len)


def random_playout_generic(game, cnp.ndarray states not None, uint64_t seed) -> cnp.ndarray:
    """``random_playouts`` through the generic function-pointer loop even when the game has its own (tests
    compare the two: they must reach identical states)."""
    cdef GameCore core = _core(game, states)
    cdef uint8_t[:, ::1] sv = states
    cdef Py_ssize_t r, n = sv.shape[0]
    cdef uint64_t rng
    result = np.zeros(n, dtype=np.int64)
    cdef int64_t[::1] out = result
    _check_rows(core, sv)
    for r in range(n):
        rng = _row_stream(seed, r)
        out[r] = random_playout_loop(core.spec.actors, core.spec.legal_mask, core.spec.apply,
                                     core.spec.mask_words, core.cfg, &sv[r, 0], &rng, game.max_game_length)
    return result


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _playouts(
    const EngineSpec* spec, const void* cfg, uint8_t[:, ::1] states, int64_t[::1] out,
    Py_ssize_t start, Py_ssize_t stop, uint64_t seed, int64_t max_len
) noexcept nogil:
    cdef Py_ssize_t r
    cdef uint64_t rng
    for r in range(start, stop):
        if spec.validate(cfg, &states[r, 0]) != 0:
            out[r] = PO_INVALID_ROW
            continue
        rng = _row_stream(seed, r)
        out[r] = native_random_playout(spec, cfg, &states[r, 0], &rng, max_len)


def random_playouts(game, cnp.ndarray states not None, uint64_t seed, int threads=1) -> cnp.ndarray:
    """Play every row to the end with uniformly random legal actions, in place.

    Returns an int64 array: the number of actions played per row (``PLAYOUT_INVALID_ROW`` for a row that fails
    the invariant check). ``threads`` > 1 splits the rows between that many threads.
    """
    cdef GameCore core = _core(game, states)
    cdef uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0]
    cdef int64_t[::1] out
    cdef int64_t max_len = game.max_game_length
    result = np.zeros(n, dtype=np.int64)
    out = result
    if n == 0:
        return result
    if threads <= 1:
        with nogil:
            _playouts(&core.spec, core.cfg, sv, out, 0, n, seed, max_len)
        return result

    def run(Py_ssize_t start, Py_ssize_t stop):
        with nogil:
            _playouts(&core.spec, core.cfg, sv, out, start, stop, seed, max_len)

    bounds = np.linspace(0, n, threads + 1).astype(np.int64)
    with ThreadPoolExecutor(threads) as pool:
        for f in [pool.submit(run, int(bounds[i]), int(bounds[i + 1])) for i in range(threads)]:
            f.result()
    return result


@cython.boundscheck(False)
@cython.wraparound(False)
def new_states(game, const uint64_t[::1] seeds) -> cnp.ndarray:
    """An ``(N, state_size)`` uint8 array: row i is a new game with seed ``seeds[i]``."""
    cdef GameCore core = game.core
    cdef Py_ssize_t n = seeds.shape[0], r
    result = np.zeros((n, core.spec.state_size), dtype=np.uint8)
    cdef uint8_t[:, ::1] sv = result
    with nogil:
        for r in range(n):
            core.spec.init(core.cfg, &sv[r, 0], seeds[r])
    return result


@cython.boundscheck(False)
@cython.wraparound(False)
def step(game, cnp.ndarray states not None, const int32_t[::1] actions) -> cnp.ndarray:
    """Apply ``actions[i]`` for the current player of row i, in place, after checking it is legal.

    Returns int8 statuses: APPLIED, ILLEGAL (row unchanged), ALREADY_OVER or INVALID_ROW.
    """
    cdef GameCore core = _core(game, states)
    cdef uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0], r
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef uint32_t bits
    cdef int seat, a
    if actions.shape[0] != n:
        raise ValueError(f"{n} rows but {actions.shape[0]} actions")
    result = np.zeros(n, dtype=np.int8)
    cdef int8_t[::1] out = result
    with nogil:
        for r in range(n):
            if core.spec.validate(core.cfg, &sv[r, 0]) != 0:
                out[r] = ST_INVALID_ROW
                continue
            bits = core.spec.actors(core.cfg, &sv[r, 0])
            if bits == 0:
                out[r] = ST_ALREADY_OVER
                continue
            a = actions[r]
            if a < 0 or a >= core.spec.num_actions:
                out[r] = ST_ILLEGAL
                continue
            seat = lowest_bit(bits)
            core.spec.legal_mask(core.cfg, &sv[r, 0], seat, words)
            if not (words[a >> 6] >> (a & 63)) & 1:
                out[r] = ST_ILLEGAL
                continue
            core.spec.apply(core.cfg, &sv[r, 0], seat, a)
            out[r] = ST_APPLIED
    return result


@cython.boundscheck(False)
@cython.wraparound(False)
def legal_masks(game, cnp.ndarray states not None) -> cnp.ndarray:
    """``(N, num_actions)`` bool: the legal actions of each row's current player (all False when over).

    Raises CorruptStateError if any row fails the invariant check.
    """
    cdef GameCore core = _core(game, states)
    cdef uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0], r
    cdef int i, na = core.spec.num_actions
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef uint32_t bits
    _check_rows(core, sv)
    result = np.zeros((n, na), dtype=np.bool_)
    cdef uint8_t[:, ::1] out = result.view(np.uint8)
    with nogil:
        for r in range(n):
            bits = core.spec.actors(core.cfg, &sv[r, 0])
            if bits == 0:
                continue
            core.spec.legal_mask(core.cfg, &sv[r, 0], lowest_bit(bits), words)
            for i in range(na):
                out[r, i] = (words[i >> 6] >> (i & 63)) & 1
    return result


@cython.boundscheck(False)
@cython.wraparound(False)
def current_players(game, cnp.ndarray states not None) -> cnp.ndarray:
    """int32 per row: the lowest acting seat, or TERMINAL (-4)."""
    cdef GameCore core = _core(game, states)
    cdef uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0], r
    cdef uint32_t bits
    _check_rows(core, sv)
    result = np.zeros(n, dtype=np.int32)
    cdef int32_t[::1] out = result
    with nogil:
        for r in range(n):
            bits = core.spec.actors(core.cfg, &sv[r, 0])
            out[r] = lowest_bit(bits) if bits else -4
    return result


@cython.boundscheck(False)
@cython.wraparound(False)
def returns(game, cnp.ndarray states not None) -> cnp.ndarray:
    """``(N, num_players)`` float64: winners share 1.0 (all zero for unfinished rows)."""
    cdef GameCore core = _core(game, states)
    cdef uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0], r
    cdef int i, ns = core.spec.num_seats
    cdef double buf[MAX_SEATS]
    _check_rows(core, sv)
    result = np.zeros((n, ns), dtype=np.float64)
    cdef double[:, ::1] out = result
    with nogil:
        for r in range(n):
            compute_returns(&core.spec, core.cfg, &sv[r, 0], buf)
            for i in range(ns):
                out[r, i] = buf[i]
    return result


@cython.boundscheck(False)
@cython.wraparound(False)
def scores(game, cnp.ndarray states not None) -> cnp.ndarray:
    """``(N, num_players)`` int32 victory points."""
    cdef GameCore core = _core(game, states)
    cdef uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0], r
    cdef int i, ns = core.spec.num_seats
    cdef int32_t buf[MAX_SEATS]
    _check_rows(core, sv)
    result = np.zeros((n, ns), dtype=np.int32)
    cdef int32_t[:, ::1] out = result
    with nogil:
        for r in range(n):
            core.spec.scores(core.cfg, &sv[r, 0], buf)
            for i in range(ns):
                out[r, i] = buf[i]
    return result


cdef int _check_rows(GameCore core, uint8_t[:, ::1] sv) except -1:
    cdef Py_ssize_t r
    for r in range(sv.shape[0]):
        if core.spec.validate(core.cfg, &sv[r, 0]) != 0:
            raise CorruptStateError(f"row {r} fails the engine's invariant check")
    return 0
