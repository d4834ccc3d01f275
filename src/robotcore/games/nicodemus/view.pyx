# cython: language_level=3
"""What each seat may see of a Nicodemus state (views, observation tensors) and re-dealing what it may not
(``resample``, the determinisation hook for ISMCTS/PIMC search).

Hidden from a seat: the opponent's hand (but for the machines the seat saw go there: stolen from it, and not
seen leaving since), the order and content of the deck, the machines discarded face down from the opponent's
hand by the seat's own R3 attack, the face-down project pile, the projects the opponent removed from the game
with Y1 and the two projects the opponent is choosing between, the PRNG. Everything else is public: the
bric-a-brac and its charcoalium, workshops, resources, scores, set-aside machines, public discards, hand sizes,
public and private projects.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from cpython.pycapsule cimport PyCapsule_New
from libc.math cimport exp
from libc.string cimport memcpy, memset

from robotcore.core.bits cimport lowest_bit, popcount
from robotcore.core.rng cimport rng_next, rng_seed, rng_shuffle_u8
from robotcore.core.state cimport EngineSpec, State
from robotcore.games.nicodemus.engine cimport hand_count, nm_validate, reserve_of
from robotcore.games.nicodemus.state cimport (
    COAL, FX_COPY, MAX_CARDS, MAX_PROJECTS, MAX_TYPES, NO_CARD, NUM_PHASES, PH_KEEP, PH_OVER, PH_PROJECTS,
    TABLE_SLOTS, WORKSHOP_MAX, NMConfig, NMState,
)

import numpy as np

from robotcore.games.nicodemus.data import RESOURCES
from robotcore.games.nicodemus.engine import PHASE_NAMES

cnp.import_array()


def observation_size(int num_types, int num_projects) -> int:
    """Length of the observation vector for this content (RULES.md, "Observation")."""
    return 27 * num_types + 7 * num_projects + 54


# -- views ------------------------------------------------------------------------------------------------------

cdef list _type_list(const uint8_t* counts, int T, tuple names):
    out = []
    cdef int t, k
    for t in range(T):
        for k in range(counts[t]):
            out.append(names[t])
    return out


cdef list _project_list(uint32_t bits, tuple names):
    out = []
    while bits:
        out.append(names[lowest_bit(bits)])
        bits &= bits - 1
    return out


cdef int _total(const uint8_t* counts, int T) noexcept nogil:
    cdef int t, n = 0
    for t in range(T):
        n += counts[t]
    return n


cdef dict _resources(const uint8_t* r):
    return {RESOURCES[i]: r[i] for i in range(4)}


cdef object _name_or_none(int card, tuple names):
    return None if card == NO_CARD else names[card]


cdef dict _public(game, State state):
    cdef const NMState* s = <const NMState*>state.data
    cdef const NMConfig* cfg = <const NMConfig*>state.core.cfg
    cdef int T = cfg.num_types, p, i
    cdef uint8_t reserve[4]
    mnames = game.content.machine_names
    pnames = game.content.project_names
    for i in range(4):
        reserve[i] = <uint8_t>reserve_of(cfg, s, i)
    players = []
    for p in range(2):
        players.append({
            "score": s.score[p],
            "resources": _resources(s.res[p]),
            "workshop": [mnames[s.ws[p][i]] for i in range(s.ws_n[p])],
            "hand_size": hand_count(s, p),
            "set_aside": _type_list(s.aside[p], T, mnames),
            "private_projects": _project_list(s.proj_private[p], pnames),
            "completed_projects": _project_list(s.proj_done[p], pnames),
            "removed_projects": popcount(s.proj_removed[p]),
            "discarded_face_down": _total(s.hdisc[1 - p], T),
        })
    turn = {
        "played": _name_or_none(s.ctx_played, mnames),
        "copying": (mnames[s.ctx_card] if s.ctx_played != NO_CARD and s.ctx_card != s.ctx_played
                    and cfg.effect[s.ctx_played] == FX_COPY else None),
        "discarded": _name_or_none(s.ctx_target, mnames),
        "gain": s.ctx_qty,
        "exchanges": s.ctx_exch,
        "projects_drawn": s.pend_n,
        "repaired": (mnames[s.ws[s.cur][s.ws_n[s.cur] - 1]] if s.phase == PH_PROJECTS else None),
        "counted_for_projects": [i + 1 for i in range(WORKSHOP_MAX) if (s.proj_used >> i) & 1],
        "projects_completed": s.proj_count,
    }
    return {
        "game": "nicodemus",
        "phase": PHASE_NAMES[s.phase],
        "actors": state.actors,
        "turn": s.turn,
        "first_player": s.first,
        "end_triggered": bool(s.end_trig),
        "terminal": s.phase == PH_OVER,
        "scores": [s.score[0], s.score[1]],
        "bric_a_brac": [{"machine": mnames[s.table[i]], "charcoalium": s.table_coal[i]}
                        for i in range(s.table_n)],
        "deck_size": s.deck_n,
        "reserve": _resources(reserve),
        "players": players,
        "projects": {"public": _project_list(s.proj_public, pnames), "pile_size": s.pile_n},
        "discard": _type_list(s.discard, T, mnames),
        "turn_state": turn,
    }


def view(game, State state, seat) -> dict:
    cdef const NMState* s = <const NMState*>state.data
    cdef const NMConfig* cfg = <const NMConfig*>state.core.cfg
    cdef int me, T = cfg.num_types
    out = _public(game, state)
    out["seat"] = seat
    if seat is None:
        return out
    me = seat
    mnames = game.content.machine_names
    pnames = game.content.project_names
    out["hand"] = _type_list(s.hand[me], T, mnames)
    out["opponent_known"] = _type_list(s.known[me], T, mnames)
    out["my_face_down_discards"] = _type_list(s.hdisc[1 - me], T, mnames)
    out["removed_projects"] = _project_list(s.proj_removed[me], pnames)
    out["project_choice"] = ([pnames[s.pend[i]] for i in range(s.pend_n)]
                             if s.phase == PH_KEEP and s.cur == me else [])
    return out


def omniscient(game, State state) -> dict:
    cdef const NMState* s = <const NMState*>state.data
    cdef const NMConfig* cfg = <const NMConfig*>state.core.cfg
    cdef int T = cfg.num_types, p, i
    out = _public(game, state)
    mnames = game.content.machine_names
    pnames = game.content.project_names
    out["seat"] = "omniscient"
    out["hands"] = [_type_list(s.hand[p], T, mnames) for p in range(2)]
    out["known"] = [_type_list(s.known[p], T, mnames) for p in range(2)]
    out["face_down_discards"] = [_type_list(s.hdisc[1 - p], T, mnames) for p in range(2)]
    out["deck"] = [mnames[s.deck[i]] for i in range(s.deck_n)]
    out["project_pile"] = [pnames[s.pile[i]] for i in range(s.pile_n)]
    out["project_choice"] = [pnames[s.pend[i]] for i in range(s.pend_n)]
    out["removed_projects"] = [_project_list(s.proj_removed[p], pnames) for p in range(2)]
    return out


# -- observation ------------------------------------------------------------------------------------------------

@cython.boundscheck(False)
@cython.wraparound(False)
def observation(State state, int seat) -> cnp.ndarray:
    cdef const NMState* s = <const NMState*>state.data
    cdef const NMConfig* cfg = <const NMConfig*>state.core.cfg
    cdef int T = cfg.num_types, P = cfg.num_projects, o = 1 - seat, t, i, p, r, k, rel, q
    cdef int size = 27 * T + 7 * P + 54
    cdef cnp.ndarray arr = np.zeros(size, dtype=np.float32)
    cdef float* x = <float*>cnp.PyArray_DATA(arr)
    cdef int pos = 0
    cdef uint32_t bit
    for t in range(T):
        x[pos + t] = s.hand[seat][t] / 4.0
        x[pos + T + t] = s.known[seat][t] / 4.0
        x[pos + 2 * T + t] = s.hdisc[o][t] / 4.0
    pos += 3 * T
    x[pos] = hand_count(s, seat) / 5.0
    x[pos + 1] = hand_count(s, o) / 5.0
    x[pos + 2] = s.deck_n / <float>cfg.num_cards
    x[pos + 3] = _total(s.hdisc[seat], T) / 5.0
    pos += 4
    for i in range(TABLE_SLOTS):
        if i < s.table_n:
            x[pos + s.table[i]] = 1.0
            x[pos + T] = s.table_coal[i] / 4.0
        pos += T + 1
    for rel in range(2):
        p = (seat + rel) % 2
        for i in range(s.ws_n[p]):
            x[pos + i * T + s.ws[p][i]] = 1.0
        pos += WORKSHOP_MAX * T
    for rel in range(2):
        p = (seat + rel) % 2
        for t in range(T):
            x[pos + t] = s.aside[p][t] / 4.0
        pos += T
    for t in range(T):
        x[pos + t] = s.discard[t] / 4.0
    pos += T
    for rel in range(2):
        p = (seat + rel) % 2
        for r in range(4):
            x[pos + r] = s.res[p][r] / 8.0
        pos += 4
    for r in range(4):
        if cfg.supply[r]:
            x[pos + r] = reserve_of(cfg, s, r) / <float>cfg.supply[r]
    pos += 4
    x[pos] = s.score[seat] / 20.0
    x[pos + 1] = s.score[o] / 20.0
    pos += 2
    for q in range(P):
        bit = 1u << q
        x[pos] = (s.proj_public & bit) != 0
        x[pos + 1] = (s.proj_private[seat] & bit) != 0
        x[pos + 2] = (s.proj_private[o] & bit) != 0
        x[pos + 3] = (s.proj_done[seat] & bit) != 0
        x[pos + 4] = (s.proj_done[o] & bit) != 0
        x[pos + 5] = (s.proj_removed[seat] & bit) != 0
        if s.phase == PH_KEEP and s.cur == seat:
            for i in range(s.pend_n):
                if s.pend[i] == q:
                    x[pos + 6] = 1.0
        pos += 7
    x[pos] = s.pile_n / <float>P
    pos += 1
    x[pos + s.phase] = 1.0
    pos += NUM_PHASES
    x[pos] = s.phase != PH_OVER and s.cur == seat
    x[pos + 1] = s.first == seat
    x[pos + 2] = s.end_trig
    x[pos + 3] = s.phase == PH_OVER
    pos += 4
    if s.ctx_played != NO_CARD:
        x[pos + s.ctx_played] = 1.0
    if s.ctx_card != NO_CARD:
        x[pos + T + s.ctx_card] = 1.0
    if s.ctx_target != NO_CARD:
        x[pos + 2 * T + s.ctx_target] = 1.0
    pos += 3 * T
    x[pos] = s.ctx_qty / 8.0
    x[pos + 1] = s.ctx_exch / 3.0
    x[pos + 2] = s.proj_count / 4.0
    x[pos + 3] = s.pend_n / 2.0
    for i in range(WORKSHOP_MAX):
        x[pos + 4 + i] = (s.proj_used >> i) & 1
    pos += 8
    assert pos == size
    return arr


# -- resampling -------------------------------------------------------------------------------------------------

cdef int ni_resample_draw(const void* cfgp, const void* scratch, const void* st, int seat, void* dst,
                          uint64_t* rngp) noexcept nogil:
    """The native resampler (``EngineSpec.resample_draw``, no prepare step; ``st`` valid): ``dst``
    becomes a copy of ``st`` where everything ``seat`` cannot see is drawn again, consistently with what it
    knows: the opponent's hand, the face-down discards of the opponent's hand and the deck are re-dealt from the
    machines the seat has not seen elsewhere, the machines it knows the opponent holds (``known``) staying in the
    opponent's hand or those face-down discards; the project pile, the projects the opponent removed and the
    pair it is choosing between are re-dealt among themselves. The PRNG is re-seeded.

    The known machines taken since the seat's last R3 (``sure``) stay in the hand; the other known ones are
    placed uniformly over the rest of the hand and the hidden discards: the exact posterior until the seat plays
    R3 and right after it, an approximation once the victim has drawn again, never an impossible world (RULES.md,
    "What a seat sees", says what is guaranteed and what is not)."""
    cdef NMState* s = <NMState*>dst
    cdef const NMConfig* cfg = <const NMConfig*>cfgp
    cdef uint64_t rng = rngp[0]
    cdef int T = cfg.num_types, o = 1 - seat, t, i, k, n = 0, nh, nd, nk, ns, free, m = 0, pos
    cdef uint8_t pool[MAX_CARDS]
    cdef uint8_t region[MAX_CARDS]
    cdef uint8_t unseen[MAX_TYPES]
    cdef uint8_t projs[MAX_PROJECTS]
    cdef uint32_t removed
    cdef bint hidden_pend
    if dst != st:
        memcpy(dst, st, sizeof(NMState))
    # machines: opponent's hand + face-down discards unseen by the seat (one region), and the deck
    nh = hand_count(s, o)
    nd = _total(s.hdisc[seat], T)
    nk = _total(s.known[seat], T)
    # the pool in type order before the shuffle: what the seat cannot tell apart must not steer the draw, so
    # the result depends on what the seat knows and the seed only (never on where the hidden machines are)
    memset(unseen, 0, MAX_TYPES)
    for i in range(s.deck_n):
        unseen[s.deck[i]] += 1
    for t in range(T):
        for k in range(s.hand[o][t] + s.hdisc[seat][t] - s.known[seat][t] + unseen[t]):
            pool[n] = <uint8_t>t
            n += 1
    rng_shuffle_u8(&rng, pool, n)
    free = nh + nd - nk
    # the machines the seat knows are in the hand itself (``sure``) go there; the other known ones and the free
    # draws are spread over the rest of the hand and the hidden discards
    memset(s.hand[o], 0, MAX_TYPES)
    memset(s.hdisc[seat], 0, MAX_TYPES)
    ns = 0
    for t in range(T):
        s.hand[o][t] = s.sure[seat][t]
        ns += s.sure[seat][t]
        for k in range(s.known[seat][t] - s.sure[seat][t]):
            region[m] = <uint8_t>t
            m += 1
    for i in range(free):
        region[m] = pool[i]
        m += 1
    rng_shuffle_u8(&rng, region, m)
    for i in range(m):
        if i < nh - ns:
            s.hand[o][region[i]] += 1
        else:
            s.hdisc[seat][region[i]] += 1
    for i in range(s.deck_n):
        s.deck[i] = pool[free + i]
    # projects hidden from the seat
    hidden_pend = s.phase == PH_KEEP and s.cur == o
    n = 0
    removed = s.proj_removed[o]             # the hidden projects as a set, taken in id order (as the pool)
    if hidden_pend:
        for i in range(s.pend_n):
            removed |= 1u << s.pend[i]
    for i in range(s.pile_n):
        removed |= 1u << s.pile[i]
    while removed:
        projs[n] = <uint8_t>lowest_bit(removed)
        removed &= removed - 1
        n += 1
    rng_shuffle_u8(&rng, projs, n)
    pos = 0
    if hidden_pend:
        for i in range(s.pend_n):
            s.pend[i] = projs[pos]
            pos += 1
    k = popcount(s.proj_removed[o])
    s.proj_removed[o] = 0
    for i in range(k):
        s.proj_removed[o] |= 1u << projs[pos]
        pos += 1
    for i in range(s.pile_n):
        s.pile[i] = projs[pos]
        pos += 1
    s.rng = rng_seed(rng_next(&rng))
    rngp[0] = rng
    return 0


# Leaf evaluation for search (``EngineSpec.evaluate``): the two scores (the race to ``end_score``) as shares of
# one win, by a softmax: a seat EVAL_TEMPERATURE points ahead is e times as likely to be the winner.
cdef double EVAL_TEMPERATURE = 3.0


cdef void ni_evaluate(const void* cfgp, const void* st, double* out) noexcept nogil:
    cdef const NMState* s = <const NMState*>st
    cdef double d = (s.score[1] - s.score[0]) / EVAL_TEMPERATURE
    out[0] = 1.0 / (1.0 + exp(d))
    out[1] = 1.0 - out[0]


cdef EngineSpec _HOOKS
_HOOKS.resample_draw = ni_resample_draw
_HOOKS.evaluate = ni_evaluate
#: the native hooks of this module (resampler; leaf evaluation), read by engine.make_core into the EngineSpec
NATIVE_HOOKS = PyCapsule_New(&_HOOKS, b"robotcore.EngineSpec", NULL)


def resample(game, State state, int seat, uint64_t seed) -> State:
    """A copy of ``state`` where everything ``seat`` cannot see is drawn again, consistently with what it
    knows: the native resampler ``ni_resample_draw`` (described there) run with ``rng_seed(seed)``, the
    invariants checked before and after."""
    cdef State out = state.clone()
    cdef uint64_t rng = rng_seed(seed)
    cdef const NMConfig* cfg = <const NMConfig*>state.core.cfg
    if nm_validate(cfg, state.data) != 0:
        raise AssertionError("resample needs a valid state")
    ni_resample_draw(cfg, NULL, state.data, seat, out.data, &rng)
    out.seed = seed
    if nm_validate(cfg, out.data) != 0:
        raise AssertionError("resampling broke an invariant")
    return out
