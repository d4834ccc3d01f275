# cython: language_level=3
"""What each seat may see of a Robotrick state (views, observation tensors) and re-dealing what it may not
(``resample``, the determinisation hook for ISMCTS/PIMC search).

Hidden from a seat: the other seats' hands, the three set-aside cards, the other seats' pass choices (its own
left neighbour's gift included), the PRNG (so the next rounds' deals). Everything else is public: Droco's hand,
the trump card, every played card and who played it, every capture, the scores.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from cpython.pycapsule cimport PyCapsule_New
from libc.string cimport memcpy, memset

from robotcore.core.bits cimport bit, lowest_bit, nth_set_bit, popcount
from robotcore.core.rng cimport rng_below, rng_next, rng_seed, rng_shuffle_u8, rng_unit
from robotcore.core.state cimport EngineSpec, State
from robotcore.games.robotrick.engine cimport (
    live_round_score, next_player, replay_round, stored_rounds, to_play, trick_winner_of,
)
from robotcore.games.robotrick.state cimport (
    DROCO, MAX_AI_CARDS, NUM_CARDS, NUM_COLOURS, NUM_SEATS, PHASE_OVER,
    PHASE_PASS, PHASE_PLAY, TRICKS_PER_ROUND, RTConfig, RTState, all_cards, colour_mask, colour_of,
)

import numpy as np

from robotcore.games.robotrick.cards import CARD_NAMES, COLOURS

cnp.import_array()

PHASES = ("pass", "play", "over")

# observation layout: 16 planes of 52 cards, then scalar features (documented in RULES.md, "Observation")
cdef enum:
    PLANE_HAND = 0
    PLANE_DROCO = 1
    PLANE_TRUMP = 2
    PLANE_PLAYED = 3
    PLANE_TRICK = 4        # 4 planes: me, my left, my right, Droco
    PLANE_GIVEN = 8
    PLANE_RECEIVED = 9
    PLANE_FACE_UP = 10     # 3 planes: me, my left, my right
    PLANE_FACE_DOWN = 13   # 3 planes
    NUM_PLANES = 16
    SCALARS = NUM_PLANES * NUM_CARDS
    F_PHASE = SCALARS                  # 3
    F_ROUND = F_PHASE + 3              # 3
    F_TRICK_NO = F_ROUND + 3           # 1
    F_AI = F_TRICK_NO + 1              # 16
    F_SCORES = F_AI + MAX_AI_CARDS     # 3 (relative seats, /50)
    F_HANGARS_FREE = F_SCORES + 3      # 3
    F_VOIDS = F_HANGARS_FREE + 3       # 12 (relative seat x colour)
    F_HAND_SIZES = F_VOIDS + 12        # 3
    F_PASS_CHOSEN = F_HAND_SIZES + 3   # 3
    F_LEADER = F_PASS_CHOSEN + 3       # 4 (me, left, right, Droco)
    F_TRUMP_COLOUR = F_LEADER + 4      # 4
    # appended (the places above stay): the AI cards revealed so far, this round's included (the next rounds draw
    # from the others: the view's ``ai_cards_revealed``)
    F_AI_REVEALED = F_TRUMP_COLOUR + 4  # 16
    OBS_SIZE = F_AI_REVEALED + MAX_AI_CARDS

OBSERVATION_SIZE = OBS_SIZE


cdef inline int seating_round(const RTState* s) noexcept nogil:
    """Round whose seating applies (after the last round, the last round's)."""
    return s.round - 1 if s.phase == PHASE_OVER else s.round


cdef list _names(uint64_t cards):
    out = []
    while cards:
        out.append(CARD_NAMES[lowest_bit(cards)])
        cards &= cards - 1
    return out


cdef object _who(int player):
    return "droco" if player == DROCO else player


cdef list _completed_tricks(const uint8_t* played_at, int trick_no, int trump, int rnd):
    """A round's completed tricks, rebuilt from its ``played_at`` and seating: leader, cards, winner."""
    cdef int table[TRICKS_PER_ROUND][4]
    cdef int cards[4]
    cdef int players[4]
    cdef int t, i, p, v, c, leader = DROCO, tc = colour_of(trump)
    out = []
    memset(table, 0, sizeof(table))      # every completed trick has its 4 cards (rt_validate checks it)
    for c in range(NUM_CARDS):
        v = played_at[c]
        if v:
            table[(v - 1) // 4][(v - 1) % 4] = c
    for t in range(trick_no):
        p = leader
        for i in range(4):
            cards[i] = table[t][p]
            players[i] = p
            p = next_player(rnd, p)
        winner = trick_winner_of(cards, players, 4, tc)
        out.append({
            "leader": _who(leader),
            "cards": [[_who(players[i]), CARD_NAMES[cards[i]]] for i in range(4)],
            "winner": _who(winner),
        })
        leader = winner
    return out


cdef dict _past_round(const RTConfig* cfg, const RTState* s, int r):
    """How finished round ``r`` ended: its trump, its 12 tricks, the final captures and the scores."""
    cdef uint64_t up[NUM_SEATS]
    cdef uint64_t down[NUM_SEATS]
    cdef uint16_t voids
    cdef int p
    replay_round(cfg, s.past_played_at[r], TRICKS_PER_ROUND, s.past_trump[r], r, up, down, &voids)
    return {
        "round": r + 1,
        "trump": CARD_NAMES[s.past_trump[r]],
        "tricks": _completed_tricks(s.past_played_at[r], TRICKS_PER_ROUND, s.past_trump[r], r),
        "captures": [{"face_up": _names(up[p]), "face_down": _names(down[p])} for p in range(NUM_SEATS)],
        "scores": [s.round_scores[r][p] for p in range(NUM_SEATS)],
    }


cdef dict _public(game, State state):
    cdef const RTState* s = <const RTState*>state.data
    cdef const RTConfig* cfg = <const RTConfig*>state.core.cfg
    cdef int p, r, i, rnd = seating_round(s)
    order = [0]
    p = next_player(rnd, 0)
    while p != 0:
        order.append(_who(p))
        p = next_player(rnd, p)
    tricks = _completed_tricks(s.played_at, s.trick_no, s.trump, rnd)
    past = [_past_round(cfg, s, r) for r in range(stored_rounds(s))]
    ai = game.content.ai_cards[s.ai_card]
    droco = {}
    for i in range(NUM_COLOURS):
        droco[COLOURS[i]] = _names(s.hand[DROCO] & colour_mask(i))[::-1]
    return {
        "game": "robotrick",
        "phase": PHASES[s.phase],
        "round": rnd + 1,
        "rounds": cfg.rounds,
        "tricks_played": s.trick_no,
        "actors": state.actors,
        "seating": order,
        "ai_card": {"id": s.ai_card, **ai.describe()},
        "ai_cards_revealed": [i for i in range(cfg.num_ai) if (s.ai_used >> i) & 1],
        "trump": CARD_NAMES[s.trump],
        "droco_hand": droco,
        "hand_sizes": [popcount(s.hand[p]) for p in range(NUM_SEATS)],
        "pass_chosen": [s.pass_count[p] for p in range(NUM_SEATS)],
        "trick": {
            "leader": _who(s.leader),
            "cards": [[_who(s.trick_player[i]), CARD_NAMES[s.trick_card[i]]] for i in range(s.trick_len)],
        },
        "tricks": tricks,
        "last_trick": tricks[-1] if tricks else (past[-1]["tricks"][-1] if past else None),
        "captures": [
            {"face_up": _names(s.face_up[p]), "face_down": _names(s.face_down[p])} for p in range(NUM_SEATS)
        ],
        "past_rounds": past,
        "hangars": cfg.hangars,
        "round_scores": [[s.round_scores[r][p] for p in range(NUM_SEATS)] for r in range(s.round)],
        "scores": state.scores(),
        "terminal": s.phase == PHASE_OVER,
    }


def view(game, State state, seat) -> dict:
    cdef const RTState* s = <const RTState*>state.data
    cdef int me, right
    out = _public(game, state)
    out["seat"] = seat
    if seat is None:
        return out
    me = seat
    right = (me + NUM_SEATS - 1) % NUM_SEATS
    out["hand"] = _names(s.hand[me])
    out["pass"] = {
        "given": _names(s.passed[me]),
        "received": _names(s.passed[right]) if s.phase != PHASE_PASS else [],
    }
    return out


def omniscient(game, State state) -> dict:
    cdef const RTState* s = <const RTState*>state.data
    out = _public(game, state)
    out["seat"] = "omniscient"
    out["hands"] = [_names(s.hand[p]) for p in range(NUM_SEATS)]
    out["passed"] = [_names(s.passed[p]) for p in range(NUM_SEATS)]
    out["aside"] = _names(s.aside)
    return out


cdef inline void _put(float* o, int plane, uint64_t cards) noexcept nogil:
    while cards:
        o[plane * NUM_CARDS + lowest_bit(cards)] = 1.0
        cards &= cards - 1


def observation(State state, int seat) -> cnp.ndarray:
    cdef const RTState* s = <const RTState*>state.data
    cdef const RTConfig* cfg = <const RTConfig*>state.core.cfg
    cdef cnp.ndarray arr = np.zeros(OBS_SIZE, dtype=np.float32)
    cdef float* o = <float*>cnp.PyArray_DATA(arr)
    cdef int rel, p, i, c, rnd = seating_round(s)
    scores = state.scores()
    _put(o, PLANE_HAND, s.hand[seat])
    _put(o, PLANE_DROCO, s.hand[DROCO])
    _put(o, PLANE_TRUMP, bit(s.trump))
    _put(o, PLANE_PLAYED, s.played)
    for i in range(s.trick_len):
        p = s.trick_player[i]
        rel = 3 if p == DROCO else (p - seat + NUM_SEATS) % NUM_SEATS
        _put(o, PLANE_TRICK + rel, bit(s.trick_card[i]))
    _put(o, PLANE_GIVEN, s.passed[seat])
    if s.phase != PHASE_PASS:
        _put(o, PLANE_RECEIVED, s.passed[(seat + NUM_SEATS - 1) % NUM_SEATS])
    for rel in range(NUM_SEATS):
        p = (seat + rel) % NUM_SEATS
        _put(o, PLANE_FACE_UP + rel, s.face_up[p])
        _put(o, PLANE_FACE_DOWN + rel, s.face_down[p])
        o[F_HANGARS_FREE + rel] = max(0, cfg.hangars - popcount(s.face_up[p])) / 4.0
        for c in range(NUM_COLOURS):
            o[F_VOIDS + rel * 4 + c] = (s.voids >> (p * 4 + c)) & 1
        o[F_HAND_SIZES + rel] = popcount(s.hand[p]) / 12.0
        o[F_PASS_CHOSEN + rel] = s.pass_count[p] / 2.0
        o[F_SCORES + rel] = scores[p] / 50.0
    o[F_PHASE + s.phase] = 1.0
    o[F_ROUND + rnd] = 1.0
    o[F_TRICK_NO] = s.trick_no / 12.0
    o[F_AI + s.ai_card] = 1.0
    if s.phase == PHASE_PLAY:
        p = s.leader
        o[F_LEADER + (3 if p == DROCO else (p - seat + NUM_SEATS) % NUM_SEATS)] = 1.0
    o[F_TRUMP_COLOUR + colour_of(s.trump)] = 1.0
    for i in range(cfg.num_ai):
        o[F_AI_REVEALED + i] = (s.ai_used >> i) & 1
    return arr


# -- resampling -------------------------------------------------------------------------------------------------

cdef double BINOM[14][14]


cdef void _init_binom() noexcept:
    cdef int n, k
    for n in range(14):
        for k in range(14):
            BINOM[n][k] = 0.0
        BINOM[n][0] = 1.0
        for k in range(1, n + 1):
            BINOM[n][k] = BINOM[n - 1][k - 1] + (BINOM[n - 1][k] if k <= n - 1 else 0.0)


_init_binom()


cdef uint64_t _random_subset(uint64_t cards, int k, uint64_t* rng) noexcept nogil:
    """k cards drawn uniformly from ``cards`` (k <= popcount)."""
    cdef uint64_t out = 0
    cdef int n = popcount(cards), c
    while k > 0:
        c = nth_set_bit(cards, <int>rng_below(rng, <uint32_t>n))
        out |= bit(c)
        cards &= ~bit(c)
        n -= 1
        k -= 1
    return out


# Native resampling (``EngineSpec.resample_prepare`` / ``resample_draw``). ``_prepare`` reads the seat's
# information set once per decision: the pool of unseen cards, what each other seat must get and the colours it
# lacks, and the exact deal weights (a dynamic programme over colours); ``_draw`` then deals one world from them.
# ``resample`` below is the same two functions, with the weight tables of recent positions kept in a small
# round-robin cache (read and written with the GIL held, as resample() always is): a search through the Python
# API resamples the same position again and again.

ctypedef struct Prepared:
    uint64_t pool           # the unseen cards: the other seats' hidden cards and the set-aside
    uint64_t fixed_a        # cards the seat gave its left neighbour, still in that hand (play phase)
    uint64_t played_b       # cards the right neighbour has played this round (play phase)
    uint64_t key            # the weights' inputs, packed (bit 40 set)
    int need_a, need_b, void_a, void_b
    int u[4]                # the pool's cards per colour
    int rem[5]              # the pool's cards of colours c..3
    double W[5][13][13]


cdef enum:
    WEIGHT_CACHE = 8
cdef double _weights[WEIGHT_CACHE][5][13][13]
cdef uint64_t _weight_keys[WEIGHT_CACHE]      # Prepared.key of each slot (0: empty)
cdef int _weight_next = 0


cdef int _prepare_inputs(const RTState* s, int seat, Prepared* r) noexcept nogil:
    """Everything of ``r`` but the weights; -1 when the hand sizes are out of range."""
    cdef int a = (seat + 1) % NUM_SEATS, b = (seat + 2) % NUM_SEATS, c
    cdef uint64_t hidden_a, hidden_b
    r.fixed_a = 0
    r.played_b = 0
    if s.phase == PHASE_PASS:
        hidden_a = s.hand[a] | s.passed[a]
        hidden_b = s.hand[b] | s.passed[b]
    else:
        r.fixed_a = s.passed[seat] & s.hand[a]
        hidden_a = s.hand[a] & ~r.fixed_a
        hidden_b = s.hand[b]
        for c in range(NUM_CARDS):
            if s.played_at[c] and (s.played_at[c] - 1) % 4 == b:
                r.played_b |= bit(c)
    r.pool = hidden_a | hidden_b | s.aside
    r.need_a = popcount(hidden_a)
    r.need_b = popcount(hidden_b)
    r.void_a = (s.voids >> (a * 4)) & 15
    r.void_b = (s.voids >> (b * 4)) & 15
    for c in range(4):
        r.u[c] = popcount(r.pool & colour_mask(c))
    r.rem[4] = 0
    for c in range(3, -1, -1):
        r.rem[c] = r.rem[c + 1] + r.u[c]
    if r.need_a > 12 or r.need_b > 12:
        return -1
    r.key = ((<uint64_t>1) << 40) | (<uint64_t>r.u[0]) | (<uint64_t>r.u[1] << 4) | (<uint64_t>r.u[2] << 8) \
        | (<uint64_t>r.u[3] << 12) | (<uint64_t>r.need_a << 16) | (<uint64_t>r.need_b << 20) \
        | (<uint64_t>r.void_a << 24) | (<uint64_t>r.void_b << 28)
    return 0


cdef void _deal_weights(Prepared* r) noexcept nogil:
    """W[c][ra][rb]: the number of ways to deal colours c..3 with ra cards still due to seat a and rb to seat b."""
    cdef int c, ra, rb, ka, kb
    cdef int rem[5]
    cdef double w
    cdef const int* u = r.u
    rem[4] = 0
    for c in range(3, -1, -1):
        rem[c] = rem[c + 1] + u[c]
    memset(r.W, 0, sizeof(r.W))
    r.W[4][0][0] = 1.0
    for c in range(3, -1, -1):
        for ra in range(r.need_a + 1):
            for rb in range(r.need_b + 1):
                if rem[c] - ra - rb < 0:
                    continue
                w = 0.0
                for ka in range(min(ra, u[c]) + 1):
                    if ka and (r.void_a >> c) & 1:
                        break
                    for kb in range(min(rb, u[c] - ka) + 1):
                        if kb and (r.void_b >> c) & 1:
                            break
                        if rem[c + 1] - (ra - ka) - (rb - kb) < 0:
                            continue
                        w += BINOM[u[c]][ka] * BINOM[u[c] - ka][kb] * r.W[c + 1][ra - ka][rb - kb]
                r.W[c][ra][rb] = w


cdef int rt_resample_prepare(const void* cfg, const void* st, int seat, void* scratch) noexcept nogil:
    cdef Prepared* r = <Prepared*>scratch
    if _prepare_inputs(<const RTState*>st, seat, r) != 0:
        return 1
    _deal_weights(r)
    return 0 if r.W[0][r.need_a][r.need_b] > 0.0 else 2


cdef inline double _w(const double* W, int c, int ra, int rb) noexcept nogil:
    """``W[c][ra][rb]`` of a weight table given by its first element (``Prepared.W`` or a cache slot)."""
    return W[(c * 13 + ra) * 13 + rb]


cdef int _deal(const Prepared* r, const double* W, uint64_t* rng, uint64_t* out_a, uint64_t* out_b,
               uint64_t* out_x) noexcept nogil:
    """Split the pool into seat a (need_a cards), seat b (need_b) and the set-aside (the rest), uniformly among
    the splits where no seat gets a colour it is known to lack. Counts per colour are drawn from the exact
    weights ``W`` (``Prepared.W``'s layout), then the cards of each colour are shuffled. Returns 0, or -1 if no
    split exists."""
    cdef int c, ra, rb, ka, kb, i, chosen_a, chosen_b
    cdef bint done
    cdef double w, pick
    cdef uint8_t cards[13]
    cdef uint64_t sub
    cdef const int* u = r.u
    if _w(W, 0, r.need_a, r.need_b) <= 0.0:
        return -1
    out_a[0] = 0
    out_b[0] = 0
    out_x[0] = 0
    ra = r.need_a
    rb = r.need_b
    for c in range(4):
        if c == 3:
            ka = ra                       # the last colour takes what is still due: its only split of weight > 0
            kb = rb
        else:
            pick = rng_unit(rng) * _w(W, c, ra, rb)
            chosen_a = 0
            chosen_b = 0
            done = False
            for ka in range(min(ra, u[c]) + 1):
                if ka and (r.void_a >> c) & 1:
                    break
                # splits leaving more than the later colours hold have weight 0: start past them
                for kb in range(max(0, ra - ka + rb - r.rem[c + 1]), min(rb, u[c] - ka) + 1):
                    if kb and (r.void_b >> c) & 1:
                        break
                    w = BINOM[u[c]][ka] * BINOM[u[c] - ka][kb] * _w(W, c + 1, ra - ka, rb - kb)
                    if w <= 0.0:
                        continue
                    chosen_a = ka
                    chosen_b = kb
                    if pick < w:
                        done = True
                        break
                    pick -= w
                if done:
                    break
            ka = chosen_a
            kb = chosen_b
        # (rounding may leave the last valid split chosen, which is fine)
        sub = r.pool & colour_mask(c)
        for i in range(u[c]):
            cards[i] = <uint8_t>lowest_bit(sub)
            sub &= sub - 1
        rng_shuffle_u8(rng, cards, u[c])
        for i in range(u[c]):
            if i < ka:
                out_a[0] |= bit(cards[i])
            elif i < ka + kb:
                out_b[0] |= bit(cards[i])
            else:
                out_x[0] |= bit(cards[i])
        ra -= ka
        rb -= kb
    return 0


cdef int rt_resample_draw(const void* cfg, const void* scratch, const void* st, int seat, void* dst,
                          uint64_t* rng) noexcept nogil:
    cdef const Prepared* r = <const Prepared*>scratch
    return _draw(r, &r.W[0][0][0], st, seat, dst, rng)


cdef int _draw(const Prepared* r, const double* W, const void* st, int seat, void* dst, uint64_t* rng) noexcept nogil:
    """``rt_resample_draw`` with the weights given apart (the Python path reads them from its cache in place)."""
    cdef RTState* s = <RTState*>dst
    cdef int a = (seat + 1) % NUM_SEATS, b = (seat + 2) % NUM_SEATS
    cdef uint64_t new_a, new_b, new_x
    if dst != st:
        memcpy(dst, st, sizeof(RTState))
    if _deal(r, W, rng, &new_a, &new_b, &new_x) != 0:
        return 1
    s.aside = new_x
    if s.phase == PHASE_PASS:
        s.passed[a] = _random_subset(new_a, s.pass_count[a], rng)
        s.hand[a] = new_a & ~s.passed[a]
        s.passed[b] = _random_subset(new_b, s.pass_count[b], rng)
        s.hand[b] = new_b & ~s.passed[b]
    else:
        s.hand[a] = r.fixed_a | new_a
        s.hand[b] = new_b
        s.passed[a] = _random_subset(s.hand[b] | r.played_b, 2, rng)
    s.rng = rng_seed(rng_next(rng))
    return 0


cdef EngineSpec _HOOKS
_HOOKS.resample_prepare = rt_resample_prepare
_HOOKS.resample_draw = rt_resample_draw
_HOOKS.resample_scratch = sizeof(Prepared)
#: the native hooks of this module (resampler; leaf evaluation), read by engine.make_core into the EngineSpec
NATIVE_HOOKS = PyCapsule_New(&_HOOKS, b"robotcore.EngineSpec", NULL)


def resample(game, State state, int seat, uint64_t seed) -> State:
    """A copy of ``state`` where everything ``seat`` cannot see is drawn again, consistently with what it
    knows: its hand, Droco's hand, the trump, the cards it gave (still in its left neighbour's hand unless
    played), every played card, and which colours each seat has shown it lacks. The native resampler
    (``rt_resample_prepare`` then ``rt_resample_draw`` with ``rng_seed(seed)``), weights from the cache."""
    global _weight_next
    cdef State out = state.clone()
    cdef Prepared r
    cdef uint64_t rng = rng_seed(seed)
    cdef int slot
    if _prepare_inputs(<const RTState*>state.data, seat, &r) != 0:
        raise AssertionError("no consistent deal exists: the state breaks Robotrick's invariants")
    for slot in range(WEIGHT_CACHE):
        if _weight_keys[slot] == r.key:
            break
    else:
        _deal_weights(&r)
        slot = _weight_next
        _weight_next = (_weight_next + 1) % WEIGHT_CACHE
        memcpy(_weights[slot], r.W, sizeof(r.W))
        _weight_keys[slot] = r.key
    if _draw(&r, &_weights[slot][0][0][0], state.data, seat, out.data, &rng) != 0:    # the weights in place
        raise AssertionError("no consistent deal exists: the state breaks Robotrick's invariants")
    out.seed = seed
    return out


