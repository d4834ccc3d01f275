# cython: language_level=3
"""Batch loops over an ``(N, state_size)`` uint8 array of states, written once for every game.

Each function validates every row it is given with the engine's invariant check (a corrupted row is reported,
never stepped), then works under ``nogil``, so several Python threads can run batches at once on disjoint
arrays (or disjoint rows of one). Calls whose memory overlaps a call in flight in another thread are refused
with ``BatchInUseError`` when either of them writes (``random_playouts``, ``step``): a user's mistake gets an
error, never a torn row or a crash. The guard sees batch calls only: writing into the rows by other means
(``states[r] = ...`` from another thread) while a call plays them is a data race it cannot catch, as with any
array a native call reads without the GIL, and the engines may then read a row that passed validation but
changed since (out of bounds: a crash). Don't write rows a batch call is playing. Reading calls (``legal_masks``, ``scores``...) may share rows with each
other, and take read-only arrays. Random policies draw from a per-row stream derived from ``(seed, row)``: results do not depend on how the
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

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from robotcore.core.seeds import check_seed, check_seeds
from robotcore.errors import BatchInUseError, CorruptStateError, InvalidParameterError

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


# The memory ranges of the batch calls in flight: [low, high, writes], guarded by _in_flight_lock.
_in_flight: list = []
_in_flight_lock = threading.Lock()


cdef tuple _byte_range(object states):
    """The [low, high) addresses an array's elements span (any strides)."""
    low = high = states.__array_interface__["data"][0]
    for extent, stride in zip(states.shape, states.strides):
        if extent == 0:
            return (low, low)
        if stride < 0:
            low += (extent - 1) * stride
        else:
            high += (extent - 1) * stride
    return (low, high + states.itemsize)


class _Claim:
    """Holds an array's memory for the duration of one batch call (a context manager)."""

    def __init__(self, object states, bint writes):
        self.entry = [*_byte_range(states), writes]

    def __enter__(self):
        low, high, writes = self.entry
        with _in_flight_lock:
            for other in _in_flight:
                if low < other[1] and other[0] < high and (writes or other[2]) and low < high:
                    raise BatchInUseError(
                        "these rows overlap a batch call in flight in another thread; calls that step or play "
                        "rows need rows of their own (a copy, or disjoint slices)")
            _in_flight.append(self.entry)
        return self

    def __exit__(self, *exc):
        with _in_flight_lock:
            _in_flight.remove(self.entry)
        return False


cdef GameCore _game_core(game):
    """The engine of a robotcore Game (anything else, or an engine never bound, is refused: its functions would be
    called without the GIL on rows they were not made for)."""
    core = getattr(game, "core", None)
    if not isinstance(core, GameCore) or (<GameCore>core).cfg == NULL:
        raise InvalidParameterError(f"a batch call needs a robotcore Game, got {type(game).__name__}")
    return <GameCore>core


cdef GameCore _core(game, cnp.ndarray states, bint writes=False):
    cdef GameCore core = _game_core(game)
    cdef int i
    # the array's own dimensions and flags, read in C: a subclass's shape attribute may say otherwise
    if cnp.PyArray_NDIM(states) != 2 or cnp.PyArray_DIM(states, 1) != core.spec.state_size \
            or cnp.PyArray_TYPE(states) != cnp.NPY_UINT8:
        shape = tuple([cnp.PyArray_DIM(states, i) for i in range(cnp.PyArray_NDIM(states))])
        raise CorruptStateError(
            f"a {game.name} batch must be (N, {core.spec.state_size}) uint8, got {states.dtype} {shape}"
        )
    if not cnp.PyArray_IS_C_CONTIGUOUS(states):
        raise InvalidParameterError("a batch must be a C-contiguous array (np.ascontiguousarray makes one)")
    if writes and not cnp.PyArray_ISWRITEABLE(states):
        raise InvalidParameterError("this call plays the rows in place: the array must be writeable")
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


def random_playout_generic(game, cnp.ndarray states not None, seed) -> cnp.ndarray:
    """``random_playouts`` through the generic function-pointer loop even when the game has its own (tests
    compare the two: they must reach identical states)."""
    cdef GameCore core = _core(game, states, True)
    cdef uint8_t[:, ::1] sv = states
    cdef Py_ssize_t r, n = sv.shape[0]
    cdef uint64_t rng, s64 = check_seed(seed)
    result = np.zeros(n, dtype=np.int64)
    cdef int64_t[::1] out = result
    with _Claim(states, True):
        _check_rows(core, sv)
        for r in range(n):
            rng = _row_stream(s64, r)
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


def random_playouts(game, cnp.ndarray states not None, seed, threads=1) -> cnp.ndarray:
    """Play every row to the end with uniformly random legal actions, in place.

    Returns an int64 array: the number of actions played per row (``PLAYOUT_INVALID_ROW`` for a row that fails
    the invariant check). ``threads`` > 1 splits the rows between that many threads. ``seed`` follows the one
    rule of ``robotcore.core.seeds``.
    """
    cdef GameCore core = _core(game, states, True)
    cdef uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0]
    cdef int64_t[::1] out
    cdef int64_t max_len = game.max_game_length
    cdef uint64_t s64 = check_seed(seed)
    cdef int nthreads = _check_threads(threads)
    result = np.zeros(n, dtype=np.int64)
    out = result
    if n == 0:
        return result
    with _Claim(states, True):
        if nthreads == 1:
            with nogil:
                _playouts(&core.spec, core.cfg, sv, out, 0, n, s64, max_len)
            return result

        def run(Py_ssize_t start, Py_ssize_t stop):
            with nogil:
                _playouts(&core.spec, core.cfg, sv, out, start, stop, s64, max_len)

        bounds = np.linspace(0, n, nthreads + 1).astype(np.int64)
        with ThreadPoolExecutor(nthreads) as pool:
            for f in [pool.submit(run, int(bounds[i]), int(bounds[i + 1])) for i in range(nthreads)]:
                f.result()
    return result


cdef int _check_threads(object threads) except -1:
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= 1024:
        raise InvalidParameterError(f"threads must be an int from 1 to 1024, got {threads!r}")
    return <int>threads


@cython.boundscheck(False)
@cython.wraparound(False)
def new_states(game, seeds) -> cnp.ndarray:
    """An ``(N, state_size)`` uint8 array: row i is a new game with seed ``seeds[i]`` (ints in [0, 2**64), any
    sequence or integer array: ``check_seeds``)."""
    cdef GameCore core = _game_core(game)
    cdef const uint64_t[::1] sd = check_seeds(seeds)
    cdef Py_ssize_t n = sd.shape[0], r
    result = np.zeros((n, core.spec.state_size), dtype=np.uint8)
    cdef uint8_t[:, ::1] sv = result
    with nogil:
        for r in range(n):
            core.spec.init(core.cfg, &sv[r, 0], sd[r])
    return result


def _action_ids(actions, int num_actions):
    """``actions`` as a contiguous int32 array, each value out of [0, num_actions) as -1 (illegal in every row):
    a wider integer is never wrapped into an action id by the narrowing. Integer values only."""
    if not isinstance(actions, np.ndarray):
        items = list(actions) if isinstance(actions, (list, tuple)) else None
        if items is not None and any(isinstance(a, (bool, np.bool_)) for a in items):
            raise InvalidParameterError("actions are ints: a bool is no action id")
        if items is not None and all(isinstance(a, (int, np.integer)) for a in items):
            # read one by one: numpy would make [1, 2**63, -2**63] floats, and 2**70 an object; none is an id
            return np.array([int(a) if 0 <= a < num_actions else -1 for a in items], dtype=np.int32)
    arr = np.asarray(actions)
    if arr.ndim == 1 and arr.dtype == object and all(
            isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in arr.tolist()):
        # ints past int64 (an object array holding 2**70): no action id either
        arr = np.array([a if 0 <= a < num_actions else -1 for a in arr.tolist()], dtype=np.int32)
    if arr.ndim != 1 or not (arr.dtype.kind in "iu" or (arr.size == 0 and arr.dtype.kind == "f")):
        raise InvalidParameterError(f"actions must be a one-dimensional sequence of ints, got {arr.dtype} "
                                    f"of shape {arr.shape}")
    if arr.dtype == np.int32 and arr.flags.c_contiguous:
        return arr
    return np.where((arr >= 0) & (arr < num_actions), arr, -1).astype(np.int32)


@cython.boundscheck(False)
@cython.wraparound(False)
def step(game, cnp.ndarray states not None, actions) -> cnp.ndarray:
    """Apply ``actions[i]`` (a sequence or a one-dimensional array of ints) for the current player of row i, in
    place, after checking it is legal.

    Returns int8 statuses: APPLIED, ILLEGAL (row unchanged: an id that is not legal there, or no action id at
    all), ALREADY_OVER or INVALID_ROW.
    """
    cdef GameCore core = _core(game, states, True)
    cdef const int32_t[::1] acts = _action_ids(actions, core.spec.num_actions)
    cdef uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0], r
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef uint32_t bits
    cdef int seat, a
    if acts.shape[0] != n:
        raise InvalidParameterError(f"{n} rows but {acts.shape[0]} actions")
    result = np.zeros(n, dtype=np.int8)
    cdef int8_t[::1] out = result
    with _Claim(states, True):
        with nogil:
            for r in range(n):
                if core.spec.validate(core.cfg, &sv[r, 0]) != 0:
                    out[r] = ST_INVALID_ROW
                    continue
                bits = core.spec.actors(core.cfg, &sv[r, 0])
                if bits == 0:
                    out[r] = ST_ALREADY_OVER
                    continue
                a = acts[r]
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
    cdef const uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0], r
    cdef int i, na = core.spec.num_actions
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef uint32_t bits
    result = np.zeros((n, na), dtype=np.bool_)
    cdef uint8_t[:, ::1] out = result.view(np.uint8)
    with _Claim(states, False):
        _check_rows(core, sv)
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
    cdef const uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0], r
    cdef uint32_t bits
    result = np.zeros(n, dtype=np.int32)
    cdef int32_t[::1] out = result
    with _Claim(states, False):
        _check_rows(core, sv)
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
    cdef const uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0], r
    cdef int i, ns = core.spec.num_seats
    cdef double buf[MAX_SEATS]
    result = np.zeros((n, ns), dtype=np.float64)
    cdef double[:, ::1] out = result
    with _Claim(states, False):
        _check_rows(core, sv)
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
    cdef const uint8_t[:, ::1] sv = states
    cdef Py_ssize_t n = sv.shape[0], r
    cdef int i, ns = core.spec.num_seats
    cdef int32_t buf[MAX_SEATS]
    result = np.zeros((n, ns), dtype=np.int32)
    cdef int32_t[:, ::1] out = result
    with _Claim(states, False):
        _check_rows(core, sv)
        with nogil:
            for r in range(n):
                core.spec.scores(core.cfg, &sv[r, 0], buf)
                for i in range(ns):
                    out[r, i] = buf[i]
    return result


cdef int _check_rows(GameCore core, const uint8_t[:, ::1] sv) except -1:
    cdef Py_ssize_t r
    for r in range(sv.shape[0]):
        if core.spec.validate(core.cfg, &sv[r, 0]) != 0:
            raise CorruptStateError(f"row {r} fails the engine's invariant check")
    return 0
