# cython: language_level=3
"""Native tree search over any engine's C function table, written once for every game.

Two searches share one tree and one iteration (``_iterate``):

- **ISMCTS** (single-observer information-set MCTS, Cowling, Powley & Whitehouse 2012): one tree per thread;
  every iteration starts from a new determinisation of what the searching seat cannot see, walks the tree with
  UCB1 over the actions available in that determinisation (availability counts), expands one action, finishes
  the game with a native random playout and backs up each seat's return at the nodes where that seat acted.
- **PIMC** (UCT over determinisations): ``worlds`` determinisations, one perfect-information UCT tree each
  (in a fixed world every child is available whenever its parent is visited, so availability counts are
  UCT's parent counts); the decision sums the root visits of every world.

Selection, expansion, determinisation, rollouts and backup run under ``nogil`` over ``EngineSpec``: ``actors``,
``legal_mask``, ``apply``, ``playout`` (or core/playout.pxd's generic loop) and ``rank_keys`` (returns). The
determinisation is the engine's optional native ``resample_draw`` when it has one (one fresh world per ISMCTS
iteration, the information set read once per decision by ``resample_prepare``); otherwise the caller passes a
pool of worlds drawn at the Python level (``resample_hidden``) and the iterations cycle through them.

Parallelism is root parallelism: each thread owns its trees and its random stream; the root statistics are
summed. ISMCTS tree ``t`` of ``T`` is seeded from ``(seed, t)`` and takes iterations ``t, t+T, ...``; PIMC world
``j`` has its own tree and stream whichever thread runs it, so PIMC's result does not depend on the thread
count. With an iteration budget every result is a function of the inputs and the seed alone; a time budget
stops each thread at a deadline (checked every 16 iterations) and is not reproducible by nature.

Node arrays grow by doubling (``realloc``); a tree holds one node per iteration at most. Bounds checks are off
in the loops: node indices come from the tree itself, action ids from the engine's mask (< num_actions), and
the world pool's shape is checked against the state size at entry.
"""

cimport cython
cimport numpy as cnp
from libc.math cimport log, sqrt
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from robotcore.core.bits cimport lowest_bit
from robotcore.core.playout cimport draw_listed_action, list_nonzero_words, random_playout_loop
from robotcore.core.rng cimport rng_mix, rng_seed
from robotcore.core.state cimport (
    MAX_MASK_WORDS,
    MAX_SEATS,
    EngineSpec,
    GameCore,
    State,
    compute_returns,
    empty_state,
)

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from robotcore.errors import BatchInUseError

cnp.import_array()

#: The longest playout a search follows (its path buffer holds this many nodes per thread: 16 MB at most)
MAX_SEARCH_LEN = 1 << 22


cdef extern from "<time.h>" nogil:
    """
    static double robotcore_wall_seconds(void) {
        struct timespec ts;
        timespec_get(&ts, TIME_UTC);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    """
    double robotcore_wall_seconds()


ctypedef struct Node:
    int32_t child          # first child (-1: none)
    int32_t sibling        # next sibling (-1: none)
    uint32_t visits        # iterations through this node
    uint32_t avail         # iterations in which this node's action was legal at its parent
    double total           # sum of ``player``'s returns over the visits
    uint16_t action        # the action that leads here from the parent
    int16_t player         # the seat that played it (-1 at the root)


ctypedef struct Tree:
    Node* nodes
    int32_t n
    int32_t cap
    uint64_t rng           # the tree's own random stream (expansion picks and rollouts)
    int64_t iterations


cdef enum:
    LOG_TABLE = 4096


# log(n) for small n: UCB1 takes one logarithm per child considered, the largest cost of the walk itself; the
# table holds the very values libm gives, so the search is unchanged
cdef double _LOGS[LOG_TABLE]
cdef int _li
_LOGS[0] = 0.0
for _li in range(1, LOG_TABLE):
    _LOGS[_li] = log(<double>_li)


cdef inline double _log_n(uint32_t n) noexcept nogil:
    return _LOGS[n] if n < LOG_TABLE else log(<double>n)


cdef enum:
    LEAF_RANDOM = 0        # random rollout to the end
    LEAF_EVAL = 1          # random rollout of at most ``depth`` decisions, then the engine's ``evaluate``


cdef enum:
    ERR_MEMORY = -1
    ERR_ENGINE = -2        # an acting seat without a legal action, or a resampler error
    CHECK_EVERY = 16
    PIMC_ROUND = 4         # iterations of each tree between two looks at the clock (PIMC on a time budget)
    MAX_NODES = 0x7FFFFFF0


cdef int _tree_init(Tree* t, int32_t cap, uint64_t rng) noexcept nogil:
    if cap < 16:
        cap = 16
    t.nodes = <Node*>malloc(cap * sizeof(Node))
    if t.nodes == NULL:
        return ERR_MEMORY
    t.cap = cap
    t.n = 1
    t.rng = rng
    t.iterations = 0
    t.nodes[0].child = -1
    t.nodes[0].sibling = -1
    t.nodes[0].visits = 0
    t.nodes[0].avail = 0
    t.nodes[0].total = 0.0
    t.nodes[0].action = 0
    t.nodes[0].player = -1
    return 0


cdef int32_t _tree_add(Tree* t, int32_t parent, int player, int action) noexcept nogil:
    """A new child of ``parent`` (first in its list); its index, or ERR_MEMORY."""
    cdef Node* grown
    cdef int32_t i
    cdef int64_t cap
    if t.n == t.cap:
        cap = 2 * <int64_t>t.cap
        if cap > MAX_NODES:
            return ERR_MEMORY
        grown = <Node*>realloc(t.nodes, cap * sizeof(Node))
        if grown == NULL:
            return ERR_MEMORY
        t.nodes = grown
        t.cap = <int32_t>cap
    i = t.n
    t.n += 1
    t.nodes[i].child = -1
    t.nodes[i].sibling = t.nodes[parent].child
    t.nodes[parent].child = i
    t.nodes[i].visits = 0
    t.nodes[i].avail = 0
    t.nodes[i].total = 0.0
    t.nodes[i].action = <uint16_t>action
    t.nodes[i].player = <int16_t>player
    return i


cdef inline int64_t _playout(const EngineSpec* spec, const void* cfg, void* st, uint64_t* rng,
                             int64_t max_len) noexcept nogil:
    if spec.playout != NULL:
        return spec.playout(cfg, st, rng, max_len)
    return random_playout_loop(spec.actors, spec.legal_mask, spec.apply, spec.mask_words, cfg, st, rng, max_len)


cdef int64_t _bounded_playout(const EngineSpec* spec, const void* cfg, void* st, uint64_t* rng,
                             int64_t depth) noexcept nogil:
    """Core/playout.pxd's loop stopped after ``depth`` decisions (or at the end); the count, or -2 when an acting
    seat has no legal action."""
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef uint8_t nonzero[MAX_MASK_WORDS]
    cdef uint32_t bits
    cdef int player, count
    cdef int64_t n = 0
    while n < depth:
        bits = spec.actors(cfg, st)
        if bits == 0:
            return n
        player = lowest_bit(bits)
        spec.legal_mask(cfg, st, player, words)
        count = list_nonzero_words(words, 0, spec.mask_words, nonzero)
        if count == 0:
            return -2
        spec.apply(cfg, st, player, draw_listed_action(words, nonzero, count, rng))
        n += 1
    return n


cdef inline void _search_returns(const EngineSpec* spec, const void* cfg, const void* w,
                                 double* ret) noexcept nogil:
    """What a finished game is worth to search: its returns, or a solo game's graded value where its engine has
    one (``EngineSpec.solo_value``)."""
    if spec.num_seats == 1 and spec.solo_value != NULL:
        ret[0] = spec.solo_value(cfg, w)
    else:
        compute_returns(spec, cfg, w, ret)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int _iterate(const EngineSpec* spec, const void* cfg, Tree* t, void* w, int seat, double c,
                  int64_t max_len, int32_t* path, int leaf, int64_t depth) noexcept nogil:
    """One iteration from the world ``w`` (played in place): select, expand, roll out (or evaluate), back up."""
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef uint8_t nonzero[MAX_MASK_WORDS]
    cdef double ret[MAX_SEATS]
    cdef int32_t node = 0, ch, best
    cdef int64_t npath = 0
    cdef int player = seat, i, count, a, nw = spec.mask_words
    cdef uint32_t bits
    cdef double v, bestv
    cdef Node* nd
    while True:
        bits = spec.actors(cfg, w)
        if bits == 0:
            break
        if npath > 0 or not (bits >> seat) & 1:
            player = lowest_bit(bits)         # at the root the searching seat acts, even in a simultaneous phase
        if npath > max_len:
            return ERR_ENGINE
        spec.legal_mask(cfg, w, player, words)
        best = -1
        bestv = -1e300
        ch = t.nodes[node].child
        while ch >= 0:
            nd = &t.nodes[ch]
            a = nd.action
            if nd.player == player and (words[a >> 6] >> (a & 63)) & 1:
                words[a >> 6] &= ~((<uint64_t>1) << (a & 63))
                nd.avail += 1
                v = nd.total / nd.visits + c * sqrt(_log_n(nd.avail) / nd.visits)
                if v > bestv:
                    bestv = v
                    best = ch
            ch = nd.sibling
        count = list_nonzero_words(words, 0, nw, nonzero)
        if count > 0:                         # expand one untried action, chosen uniformly
            a = draw_listed_action(words, nonzero, count, &t.rng)
            ch = _tree_add(t, node, player, a)
            if ch < 0:
                return ERR_MEMORY
            t.nodes[ch].avail = 1
            spec.apply(cfg, w, player, a)
            path[npath] = ch
            npath += 1
            break
        if best < 0:
            return ERR_ENGINE                 # an acting seat without a legal action
        node = best
        spec.apply(cfg, w, player, t.nodes[node].action)
        path[npath] = node
        npath += 1
    if leaf == LEAF_EVAL:
        if depth > 0 and _bounded_playout(spec, cfg, w, &t.rng, depth) < 0:
            return ERR_ENGINE
        if spec.actors(cfg, w) != 0:
            spec.evaluate(cfg, w, ret)
        else:
            _search_returns(spec, cfg, w, ret)
    else:
        if spec.actors(cfg, w) != 0:
            if _playout(spec, cfg, w, &t.rng, max_len) < 0:
                return ERR_ENGINE
        _search_returns(spec, cfg, w, ret)
    for i in range(npath):
        nd = &t.nodes[path[i]]
        nd.visits += 1
        nd.total += ret[nd.player]
    t.iterations += 1
    return 0


cdef struct Job:
    const EngineSpec* spec
    const void* cfg
    int mode               # 0: ISMCTS, 1: PIMC
    int seat
    double c
    int64_t max_len
    double deadline        # wall seconds; 0: none
    int64_t iterations     # this job's iterations (ISMCTS) or iterations per world (PIMC)
    Tree* trees            # ISMCTS: one; PIMC: this job's worlds' trees
    int ntrees
    uint8_t* worlds        # PIMC: one world per tree; ISMCTS: the pool (NULL with a native resampler)
    int64_t nworlds
    int64_t pool_start     # ISMCTS: the first pool index and the step between this job's iterations
    int64_t pool_step
    const void* root       # the real state, for a native resampler only
    const void* scratch
    int leaf
    int64_t depth
    int status


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _run(Job* job) noexcept nogil:
    cdef const EngineSpec* spec = job.spec
    cdef size_t size = spec.state_size
    cdef uint8_t* w = <uint8_t*>malloc(size + 8)
    cdef int32_t* path = <int32_t*>malloc((job.max_len + 2) * sizeof(int32_t))
    cdef int64_t i = 0, j, k, n, pool = job.pool_start
    cdef int status = 0, r
    cdef Tree* t
    if w == NULL or path == NULL:
        job.status = ERR_MEMORY
        free(w)
        free(path)
        return
    while status == 0:
        if job.deadline > 0.0:
            if i > 0 and (job.mode == 1 or i % CHECK_EVERY == 0) and robotcore_wall_seconds() >= job.deadline:
                break
        elif i >= job.iterations:
            break
        if job.mode == 0:
            t = &job.trees[0]
            if job.worlds == NULL:
                if spec.resample_draw(job.cfg, job.scratch, job.root, job.seat, w, &t.rng) != 0:
                    status = ERR_ENGINE
                    break
            else:
                memcpy(w, job.worlds + (pool % job.nworlds) * size, size)
                pool += job.pool_step
            r = _iterate(spec, job.cfg, t, w, job.seat, job.c, job.max_len, path, job.leaf, job.depth)
            if r != 0:
                status = r
            i += 1
        else:
            # PIMC: each tree runs its iterations of a round in a row, the whole budget at once when it is
            # iterations, PIMC_ROUND between looks at the clock. The trees are independent (each has its own world
            # and random stream), so they end as they would taking turns one iteration each, but one tree's nodes
            # stay in the L1 cache instead of all the trees' taking turns through L2 (the walk waits on the load
            # of every child it looks at).
            n = PIMC_ROUND if job.deadline > 0.0 else job.iterations - i
            for j in range(job.ntrees):
                t = &job.trees[j]
                for k in range(n):
                    memcpy(w, job.worlds + j * size, size)
                    r = _iterate(spec, job.cfg, t, w, job.seat, job.c, job.max_len, path, job.leaf, job.depth)
                    if r != 0:
                        status = r
                        break
                if status != 0:
                    break
            i += n
    job.status = status
    free(w)
    free(path)


cdef inline uint64_t _stream(uint64_t seed, uint64_t k) noexcept nogil:
    return rng_seed(seed ^ rng_mix(k + 1))


@cython.final
cdef class Forest:
    """The trees of one search (one per thread for ISMCTS, one per world for PIMC) and their root statistics."""

    cdef Tree* trees
    cdef int ntrees
    cdef readonly int seat
    cdef readonly str mode
    cdef GameCore core          # the engine (game and parameters) its trees were grown on
    cdef bint busy              # a search is growing it (in another thread): nothing else may touch the trees

    def __cinit__(self):
        self.trees = NULL
        self.ntrees = 0
        self.busy = False

    def __dealloc__(self):
        cdef int i
        if self.trees != NULL:
            for i in range(self.ntrees):
                free(self.trees[i].nodes)
            free(self.trees)

    def __init__(self, *args, **kwargs):
        raise TypeError("a Forest comes from search()")

    cdef int _alloc(self, int n, uint64_t seed, int32_t cap) except -1:
        cdef int i
        self.trees = <Tree*>malloc(n * sizeof(Tree))
        if self.trees == NULL:
            raise MemoryError()
        for i in range(n):
            self.trees[i].nodes = NULL
        self.ntrees = n
        for i in range(n):
            if _tree_init(&self.trees[i], cap, _stream(seed, <uint64_t>i)) != 0:
                raise MemoryError()
        return 0

    @property
    def num_trees(self) -> int:
        return self.ntrees

    @property
    def nodes(self) -> int:
        cdef int i
        cdef int64_t n = 0
        for i in range(self.ntrees):
            n += self.trees[i].n
        return n

    @property
    def iterations(self) -> int:
        """Iterations run into these trees (PIMC: summed over its worlds), reused ones included."""
        cdef int i
        cdef int64_t n = 0
        for i in range(self.ntrees):
            n += self.trees[i].iterations
        return n

    def root_stats(self) -> dict:
        """``{action: (visits, total return)}`` of the searching seat's root children, summed over the trees."""
        cdef int i
        cdef int32_t ch
        cdef Node* nd
        out: dict = {}
        for i in range(self.ntrees):
            ch = self.trees[i].nodes[0].child
            while ch >= 0:
                nd = &self.trees[i].nodes[ch]
                if nd.player == self.seat:
                    v, tot = out.get(nd.action, (0, 0.0))
                    out[nd.action] = (v + nd.visits, tot + nd.total)
                ch = nd.sibling
        return out

    def descend(self, int player, int action) -> bool:
        """Make the child reached by ``player`` playing ``action`` the root of every tree (the rest is freed).
        False, and nothing changed, when some tree has no such child."""
        cdef int i
        cdef int32_t ch
        cdef int32_t* found
        _not_busy(self)
        found = <int32_t*>malloc(max(self.ntrees, 1) * sizeof(int32_t))
        if found == NULL:
            raise MemoryError()
        try:
            for i in range(self.ntrees):
                ch = self.trees[i].nodes[0].child
                while ch >= 0 and not (self.trees[i].nodes[ch].player == player
                                       and self.trees[i].nodes[ch].action == action):
                    ch = self.trees[i].nodes[ch].sibling
                if ch < 0:
                    return False
                found[i] = ch
            for i in range(self.ntrees):
                if _reroot(&self.trees[i], found[i]) != 0:
                    raise MemoryError()
            return True
        finally:
            free(found)


cdef int _not_busy(Forest forest) except -1:
    if forest.busy:
        raise BatchInUseError("this Forest is being searched in another thread: wait for that search to end")
    return 0


cdef int _reroot(Tree* t, int32_t sub) noexcept nogil:
    """Replace the tree by the subtree under ``sub`` (breadth-first copy; children keep their order)."""
    cdef int32_t cap = t.cap, n = 1, p = 0, old, ch, last
    cdef Node* nodes = <Node*>malloc(cap * sizeof(Node))
    cdef int32_t* orig = <int32_t*>malloc(cap * sizeof(int32_t))
    if nodes == NULL or orig == NULL:
        free(nodes)
        free(orig)
        return ERR_MEMORY
    nodes[0] = t.nodes[sub]
    nodes[0].child = -1
    nodes[0].sibling = -1
    orig[0] = sub
    while p < n:
        old = orig[p]
        ch = t.nodes[old].child
        last = -1
        while ch >= 0:
            nodes[n] = t.nodes[ch]
            nodes[n].child = -1
            nodes[n].sibling = -1
            orig[n] = ch
            if last < 0:
                nodes[p].child = n
            else:
                nodes[last].sibling = n
            last = n
            n += 1
            ch = t.nodes[ch].sibling
        p += 1
    free(orig)
    free(t.nodes)
    t.nodes = nodes
    t.n = n
    return 0


cdef object _check_worlds(GameCore core, object worlds):
    # a copy of our own: the search reads it without the GIL, and the caller's array could change meanwhile
    arr = np.array(worlds, dtype=np.uint8, order="C", copy=True)
    if arr.ndim != 2 or arr.shape[1] != core.spec.state_size or arr.shape[0] < 1:
        raise ValueError(f"worlds must be an (N >= 1, {core.spec.state_size}) uint8 array")
    cdef const uint8_t[:, ::1] v = arr
    cdef Py_ssize_t r
    for r in range(arr.shape[0]):
        if core.spec.validate(core.cfg, &v[r, 0]) != 0:
            raise ValueError(f"world {r} fails the engine's invariant check")
    return arr


def search(GameCore core, int seat, str mode, *, worlds=None, State root=None, int64_t iterations=0,
           double budget_ms=0.0, int threads=1, uint64_t seed=0, double c=0.7, int64_t max_len=100000,
           Forest forest=None, int num_worlds=0, str rollout="random", int64_t depth=0) -> Forest:
    """Run one search for ``seat`` and return its trees.

    ``mode`` is ``"ismcts"`` or ``"pimc"``. Determinisations come from ``worlds`` (an ``(N, state_size)`` array of
    states drawn by the game's ``resample_hidden`` for ``seat``) or, when ``worlds`` is None, from the engine's
    native resampler applied to ``root`` (which only the resampler reads). PIMC takes one tree per world (or
    ``num_worlds`` native draws). ``iterations`` is the budget (ISMCTS: in total; PIMC: per world) unless
    ``budget_ms`` > 0 sets a time budget instead. ``forest`` continues earlier ISMCTS trees (tree reuse).
    ``rollout`` is ``"random"`` (a random playout to the end; ``depth`` must be 0) or ``"eval"``: a random
    playout of at most ``depth`` decisions (0: none), then the engine's ``EngineSpec.evaluate`` when the game
    is not over.
    """
    cdef int m, leaf
    cdef int t, j, nt
    cdef const EngineSpec* spec = &core.spec
    cdef uint8_t* wp = NULL
    cdef int64_t nworlds = 0, per
    cdef double deadline = 0.0
    cdef Job* jobs
    cdef char[::1] scratch_view
    cdef const void* scratch = NULL
    cdef const void* rootp = NULL
    cdef int32_t cap
    cdef uint64_t rng
    cdef int64_t lo, hi
    if mode == "ismcts":
        m = 0
    elif mode == "pimc":
        m = 1
    else:
        raise ValueError(f"mode must be 'ismcts' or 'pimc', got {mode!r}")
    if not 0 <= seat < spec.num_seats:
        raise ValueError(f"seat must be in [0, {spec.num_seats})")
    if threads < 1 or threads > 256:
        raise ValueError("threads must be from 1 to 256")
    if iterations < 0 or (iterations == 0 and budget_ms <= 0.0):
        raise ValueError("give iterations >= 1 or a positive budget_ms")
    if not 2 <= max_len <= MAX_SEARCH_LEN:
        raise ValueError(f"max_len must be from 2 to {MAX_SEARCH_LEN}, got {max_len}")
    if not 0.0 <= c <= 1e6:                  # (NaN fails too)
        raise ValueError(f"the exploration constant c must be from 0 to 1e6, got {c}")
    if not budget_ms >= 0.0:
        raise ValueError(f"budget_ms must be >= 0, got {budget_ms}")
    if rollout == "random":
        leaf = LEAF_RANDOM
        if depth != 0:
            raise ValueError("depth applies to rollout='eval' only")
    elif rollout == "eval":
        leaf = LEAF_EVAL
        if spec.evaluate == NULL:
            raise ValueError("this engine has no native leaf evaluation (EngineSpec.evaluate)")
        if depth < 0:
            raise ValueError("depth must be >= 0")
    else:
        raise ValueError(f"rollout must be 'random' or 'eval', got {rollout!r}")
    if worlds is not None:
        arr = _check_worlds(core, worlds)
        wp = <uint8_t*>cnp.PyArray_DATA(arr)
        nworlds = arr.shape[0]
    else:
        if spec.resample_draw == NULL:
            raise ValueError("this engine has no native resampler: pass worlds drawn by resample_hidden")
        if root is None or root.core is not core:
            raise ValueError("a native resampler needs the root state of this game")
        # a copy: the search reads the root without the GIL, while another thread may play on the State (and move
        # its memory as its history grows)
        root_copy = (<const char*>root.data)[:spec.state_size]
        rootp = <const char*>root_copy
        if spec.resample_scratch:
            scratch_buf = bytearray(spec.resample_scratch)
            scratch_view = scratch_buf
            scratch = &scratch_view[0]
        if spec.resample_prepare != NULL:
            if spec.resample_prepare(core.cfg, rootp, seat, <void*>scratch) != 0:
                raise ValueError("the engine's resampler found no world consistent with the seat's information")
        if m == 1:
            nworlds = num_worlds if num_worlds > 0 else 16
            arr = np.empty((nworlds, spec.state_size), dtype=np.uint8)
            wp = <uint8_t*>cnp.PyArray_DATA(arr)
            for j in range(nworlds):
                rng = _stream(seed ^ <uint64_t>0xA5A5A5A5A5A5A5A5ULL, <uint64_t>j)
                if spec.resample_draw(core.cfg, scratch, rootp, seat, wp + j * spec.state_size, &rng) != 0:
                    raise ValueError("the engine's resampler failed")
    if budget_ms > 0.0:
        deadline = robotcore_wall_seconds() + budget_ms / 1000.0
    if m == 0:
        nt = threads
        if forest is not None:
            _not_busy(forest)
            if forest.mode != "ismcts" or forest.seat != seat or forest.ntrees != nt or forest.core is not core:
                raise ValueError("the reused forest does not match this search (mode, seat, threads and game)")
        else:
            cap = <int32_t>min(max(iterations // nt + 2, 1024), 1 << 20)
            forest = Forest.__new__(Forest)
            forest.seat = seat
            forest.mode = mode
            forest.core = core
            forest._alloc(nt, seed, cap)
    else:
        if forest is not None:
            raise ValueError("forest (tree reuse) applies to mode='ismcts' only")
        nt = <int>min(threads, nworlds)
        cap = <int32_t>min(max(iterations + 2, 256), 1 << 20)
        forest = Forest.__new__(Forest)
        forest.seat = seat
        forest.mode = mode
        forest.core = core
        forest._alloc(<int>nworlds, seed, cap)
    jobs = <Job*>malloc(nt * sizeof(Job))
    if jobs == NULL:
        raise MemoryError()
    forest.busy = True
    try:
        for t in range(nt):
            jobs[t].spec = spec
            jobs[t].cfg = core.cfg
            jobs[t].mode = m
            jobs[t].seat = seat
            jobs[t].c = c
            jobs[t].max_len = max_len
            jobs[t].deadline = deadline
            jobs[t].root = rootp
            jobs[t].scratch = scratch
            jobs[t].leaf = leaf
            jobs[t].depth = depth
            jobs[t].status = 0
            if m == 0:
                per = iterations // nt + (1 if t < iterations % nt else 0)
                jobs[t].iterations = per
                jobs[t].trees = &forest.trees[t]
                jobs[t].ntrees = 1
                jobs[t].worlds = wp
                jobs[t].nworlds = nworlds
                jobs[t].pool_start = t + nt * forest.trees[t].iterations
                jobs[t].pool_step = nt
            else:
                # worlds [lo, hi) to thread t: contiguous blocks, each world keeping its own tree and stream
                lo = (nworlds * t) // nt
                hi = (nworlds * (t + 1)) // nt
                jobs[t].iterations = iterations
                jobs[t].trees = &forest.trees[lo]
                jobs[t].ntrees = <int>(hi - lo)
                jobs[t].worlds = wp + lo * spec.state_size
                jobs[t].nworlds = hi - lo
                jobs[t].pool_start = 0
                jobs[t].pool_step = 1
        if nt == 1:
            with nogil:
                _run(&jobs[0])
        else:
            def work(int k):
                with nogil:
                    _run(&jobs[k])
            with ThreadPoolExecutor(nt) as pool:
                for f in [pool.submit(work, t) for t in range(nt)]:
                    f.result()
        for t in range(nt):
            if jobs[t].status == ERR_MEMORY:
                raise MemoryError("search tree")
            if jobs[t].status != 0:
                raise RuntimeError("the engine reported an acting seat without a legal action during search")
    finally:
        forest.busy = False
        free(jobs)
    return forest



def native_evaluate(GameCore core) -> bool:
    """Whether the engine provides a native leaf evaluation (``EngineSpec.evaluate``, for ``rollout="eval"``)."""
    return core.spec.evaluate != NULL


def evaluate(State state not None) -> list:
    """The engine's native leaf evaluation of ``state``: one value in [0, 1] per seat (tests)."""
    cdef double out[MAX_SEATS]
    cdef int i
    if state.core.spec.evaluate == NULL:
        raise ValueError("this engine has no native leaf evaluation (EngineSpec.evaluate)")
    state.core.spec.evaluate(state.core.cfg, state.data, out)
    return [out[i] for i in range(state.core.spec.num_seats)]


# -- the native resampler from Python (tests, bench) --------------------------------------------------------------

cdef object _prepared(State root, int seat):
    """The scratch of the engine's ``resample_prepare`` for ``seat`` in ``root`` (a bytearray, maybe empty)."""
    cdef const EngineSpec* spec = &root.core.spec
    cdef char[::1] view
    if spec.resample_draw == NULL:
        raise ValueError("this engine has no native resampler")
    if not 0 <= seat < spec.num_seats:
        raise ValueError(f"seat must be in [0, {spec.num_seats})")
    buf = bytearray(max(spec.resample_scratch, 1))
    view = buf
    if spec.resample_prepare != NULL:
        if spec.resample_prepare(root.core.cfg, root.data, seat, &view[0]) != 0:
            raise ValueError("the engine's resampler found no world consistent with the seat's information")
    return buf


def native_resample(State root not None, int seat, uint64_t seed) -> State:
    """One draw of the engine's native resampler (``resample_prepare`` then ``resample_draw``, the very
    functions the search calls) with the stream ``rng_seed(seed)``, as a State without history: the draw a
    game's ``resample_hidden(seat, seed)`` makes."""
    buf = _prepared(root, seat)
    cdef char[::1] view = buf
    cdef const EngineSpec* spec = &root.core.spec
    cdef State out = empty_state(root.game, root.core, seed, 16)
    cdef uint64_t rng = rng_seed(seed)
    if spec.resample_draw(root.core.cfg, &view[0], root.data, seat, out.data, &rng) != 0:
        raise ValueError("the engine's resampler failed")
    return out


def native_draws(State root not None, int seat, int64_t n, uint64_t seed=0, bint validate=False) -> int:
    """``n`` native draws for ``seat`` from ``root`` (one prepare, then ``n`` draws into one buffer, without the
    GIL), for timing; with ``validate`` each world goes through the engine's invariant check. Returns the
    number of worlds that failed it (0 without ``validate``)."""
    buf = _prepared(root, seat)
    cdef char[::1] view = buf
    cdef const EngineSpec* spec = &root.core.spec
    cdef const void* cfg = root.core.cfg
    cdef uint8_t* w = <uint8_t*>malloc(spec.state_size + 8)
    cdef uint64_t rng = rng_seed(seed)
    cdef int64_t i, bad = 0
    cdef int err = 0
    root_copy = (<const char*>root.data)[:spec.state_size]     # read without the GIL: a copy (see search)
    cdef const void* rootp = <const char*>root_copy
    if w == NULL:
        raise MemoryError()
    with nogil:
        for i in range(n):
            if spec.resample_draw(cfg, &view[0], rootp, seat, w, &rng) != 0:
                err = 1
                break
            if validate and spec.validate(cfg, w) != 0:
                bad += 1
    free(w)
    if err:
        raise ValueError("the engine's resampler failed")
    return bad


# -- a test double for the native resampler path -------------------------------------------------------------------

cdef size_t _identity_size = 0
_KEEP: list = []


cdef int _identity_draw(const void* cfg, const void* scratch, const void* st, int seat, void* out,
                        uint64_t* rng) noexcept nogil:
    memcpy(out, st, _identity_size)
    return 0


def _identity_resampler_core(State state):
    """Tests only: ``(core, root)`` — a copy of ``state``'s engine whose native ``resample_draw`` hands back the
    state itself (it draws nothing, so it hides nothing: never use it to play), and ``state`` bound to it. It
    lets the tests run the native determinisation path, which no game provides yet, and compare it with the
    pool path fed the same worlds."""
    global _identity_size
    cdef GameCore src = state.core
    cdef GameCore core = GameCore.__new__(GameCore)
    cdef State root
    core.spec = src.spec
    core.spec.resample_prepare = NULL
    core.spec.resample_draw = _identity_draw
    core.spec.resample_scratch = 0
    core.cfg = src.cfg                     # borrowed: src is kept alive below
    _KEEP.append(src)
    _identity_size = src.spec.state_size
    root = empty_state(state.game, core, state.seed, 16)
    memcpy(root.data, state.data, src.spec.state_size)
    return core, root
