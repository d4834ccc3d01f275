# cython: language_level=3
"""The C contract between the generic machinery (State, batches, bots) and each game's engine.

A game engine is a table of C functions over its packed state struct (``EngineSpec``). Everything generic —
validation of actions, history, cloning, serialization, batch loops — is written once against that table.
Every function receives ``cfg``, the game's compiled, immutable parameters and content (card tables, AI cards),
so states stay pure data: no pointers, copyable with ``memcpy``.
"""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t

cdef enum:
    MAX_SEATS = 8
    MAX_ACTIONS = 8192
    MAX_MASK_WORDS = 128          # MAX_ACTIONS / 64
    MAX_RESAMPLE_SCRATCH = 65536  # bytes a native resampler may keep between draws of one decision

# Seat bitmask of the seats that must act now (several in a simultaneous phase); 0 exactly when terminal.
ctypedef uint32_t (*actors_fn)(const void* cfg, const void* st) noexcept nogil
# New game: fill the whole struct (chance drawn from the PRNG seeded with ``seed``).
ctypedef void (*init_fn)(const void* cfg, void* st, uint64_t seed) noexcept nogil
# Legal actions of ``seat`` as a bitmask over ``mask_words`` words (all zero when the seat is not acting).
ctypedef void (*legal_mask_fn)(const void* cfg, const void* st, int seat, uint64_t* words) noexcept nogil
# Apply a legal action of an acting seat. UNCHECKED: callers validate first (State.apply does).
ctypedef void (*apply_fn)(const void* cfg, void* st, int seat, int action) noexcept nogil
# Victory points by the official scoring, available at any time; ``num_seats`` values.
ctypedef void (*scores_fn)(const void* cfg, const void* st, int32_t* out) noexcept nogil
# Ranking keys (higher is better): the score with the game's tie-breaks folded in; equal keys share a place.
ctypedef void (*rank_keys_fn)(const void* cfg, const void* st, int64_t* out) noexcept nogil
# 0 when every invariant the engine relies on holds (so no function can index out of bounds), else an error
# code > 0. Called on every state that enters from outside (bytes, arrays).
ctypedef int (*validate_fn)(const void* cfg, const void* st) noexcept nogil
# Optional (NULL, the default of a zeroed spec: the kernel calls ``legal_mask`` and scans every word): the legal
# mask of ``seat``, which the caller knows is acting now, written as ``legal_mask`` writes it (every word of the
# mask; zero where no action is legal), returning the set of the mask words that may hold a legal action: bit i
# for word i, only for masks of at most 64 words; every legal action must lie in a word of the set (the words the
# move generation wrote, or its phase's block). ``legal_actions`` then lists those words only, not all of a wide
# mask (Scrapyard 37, Sparks 22, mostly holding a few actions in one to three of them). The function may also use
# ``mask_scratch`` words past the mask as scratch (0 in a zeroed spec); a set with no legal action in it is read
# as "not known": every word is scanned, so the lists are the same either way.
ctypedef uint64_t (*legal_mask_words_fn)(const void* cfg, const void* st, int seat, uint64_t* words) noexcept nogil
# Optional: the game's own instance of core/playout.pxd's loop (same draws, faster); NULL to use the generic one.
ctypedef int64_t (*playout_fn)(const void* cfg, void* st, uint64_t* rng, int64_t max_len) noexcept nogil
# Optional native determinisation for search (NULL, the default of a zeroed spec: search falls back to the game's
# Python ``resample_hidden``, drawn in batches). ``resample_prepare`` (may be NULL) reads the information set of
# ``seat`` in ``st`` once per decision and writes into ``scratch`` (``resample_scratch`` bytes, at most
# MAX_RESAMPLE_SCRATCH) what every draw shares: pools of unseen cards, counts, weights; 0 or an error code > 0.
# ``resample_draw`` then overwrites ``out`` (state_size bytes) with a fresh state consistent with all ``seat``
# knows in ``st`` (the same contract as ``resample_hidden``: it reads only what the seat may know, and reseeds the
# state's own PRNG from ``rng``); 0 or an error code > 0.
ctypedef int (*resample_prepare_fn)(const void* cfg, const void* st, int seat, void* scratch) noexcept nogil
ctypedef int (*resample_draw_fn)(const void* cfg, const void* scratch, const void* st, int seat, void* out,
                                 uint64_t* rng) noexcept nogil
# Optional heuristic leaf evaluation for search (NULL, the default: search only rolls out to the end). Writes
# ``num_seats`` values in [0, 1] into ``out``, on the scale of ``compute_returns`` (higher is better), for a
# state that may be a determinisation; used by the search bots when asked (``rollout="eval"``).
ctypedef void (*evaluate_fn)(const void* cfg, const void* st, double* out) noexcept nogil
# Optional, for a game of one seat (NULL, the default: the lone seat always wins, as a ranking of one seat says):
# whether the seat won the finished game ``st`` (a solo game's goal). Its return is then 1.0 for a win and 0.0
# for a loss, and a lost game's ``Outcome`` has no winner.
ctypedef bint (*solo_won_fn)(const void* cfg, const void* st) noexcept nogil
# Optional, with ``solo_won`` (NULL, the default: search backs up the returns, 1.0 or 0.0): what a finished solo
# game is worth to search, in [0, 1]: 1.0 exactly when it was won, less the further a lost game was from its
# goal. Random playouts almost never win a solo game, so 0-or-1 returns left the search nothing to tell its
# moves apart by; the returns themselves are unchanged.
ctypedef double (*solo_value_fn)(const void* cfg, const void* st) noexcept nogil


ctypedef struct EngineSpec:
    uint32_t state_size
    int32_t num_actions
    int32_t num_seats
    int32_t mask_words
    init_fn init
    actors_fn actors
    legal_mask_fn legal_mask
    apply_fn apply
    scores_fn scores
    rank_keys_fn rank_keys
    validate_fn validate
    playout_fn playout
    resample_prepare_fn resample_prepare
    resample_draw_fn resample_draw
    uint32_t resample_scratch
    evaluate_fn evaluate
    legal_mask_words_fn legal_mask_words
    uint32_t mask_scratch
    solo_won_fn solo_won
    solo_value_fn solo_value


@cython.final
cdef class GameCore:
    """An engine bound to one set of parameters: the function table plus the compiled config it reads."""
    cdef EngineSpec spec
    cdef void* cfg_mem            # owned copy of the config (aligned for any field type)
    cdef const void* cfg
    cdef readonly bytes header    # identifies game, parameters and content in serialized states

    cdef int bind(self, const EngineSpec* spec, const void* cfg, size_t cfg_size) except -1


@cython.final
cdef class State:
    cdef readonly object game
    cdef GameCore core
    cdef uint8_t* data            # the packed struct (core.spec.state_size bytes)
    cdef uint32_t* hist           # (seat << 16) | action, one entry per applied action
    cdef Py_ssize_t hist_len
    cdef Py_ssize_t hist_cap
    cdef readonly uint64_t seed
    # legal_actions() is usually followed by apply() on the same state: the actors and the mask computed for the
    # first are kept for the second. mask_seat < 0 means no valid cache; whatever writes to data resets it. The
    # mask lives in the same allocation as the struct and the history (mask_words + mask_scratch words after the
    # struct).
    cdef int mask_seat
    cdef uint32_t mask_actors
    cdef uint64_t mask_which       # with spec.legal_mask_words: the set of the cached mask's words it returned
    cdef uint64_t* mask_words

    cdef int _reserve(self, Py_ssize_t cap) except -1
    cdef int _seat(self, object seat) except -2
    cdef int _named_seat(self, object seat) except -2
    cpdef State clone(self)
    cdef int apply_unchecked(self, int seat, int action) except -1
    cdef uint32_t actor_bits(self) noexcept


cdef State new_state(object game, GameCore core, uint64_t seed)
cdef State empty_state(object game, GameCore core, uint64_t seed, Py_ssize_t hist_cap)


# Copies the optional native hooks (resampler, leaf evaluation) of a game's view module into ``spec``: they live in
# view.pyx, which cimports the engine, so an engine reads them from the view's ``NATIVE_HOOKS`` capsule (an
# EngineSpec named "robotcore.EngineSpec") when it makes a core.
cdef int take_native_hooks(EngineSpec* spec, object hooks) except -1
cdef void compute_returns(const EngineSpec* spec, const void* cfg, const void* st, double* out) noexcept nogil
