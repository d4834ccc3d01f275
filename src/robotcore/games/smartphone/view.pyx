# cython: language_level=3
"""What each seat may see of a Smartphone state (views, observation tensors) and re-dealing what it may not
(``resample``, the determinisation hook for ISMCTS/PIMC search).

Hidden from a seat: the resource cards in the other players' hands, except how many each holds from each
supplier (the suppliers' cards have different backs), the cards every seat saw go there (taken face up from
the market, traded or offered: ``known``, the public lower bound) and what the seat alone saw of them (the card it
stole from a hand, or the card stolen from it: ``private_known[seat]``, its own bound being ``known`` +
``private_known[seat]``); what the other seats know privately; the content of the supplier decks (their sizes are
public, their content is the rest of the cards each seat has not seen); the PRNG. The upper bounds some answers
set (``upper``, the public one; ``private_upper[seat]``, what the seat alone saw lowers it by) are what a seat is
sure each hand holds at most, which a re-deal keeps as it keeps the lower bounds. Everything else is public: the market,
the boards (laid cards and built components), the malus cards each player holds (they are read aloud when
drawn), the malus pile's size and the malus cards set aside, the cards out of the game, the event sequence (it
is stacked in a fixed order), the quiz draw, every turn's context.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from cpython.pycapsule cimport PyCapsule_New
from libc.string cimport memcpy, memset

from robotcore.core.rng cimport rng_below, rng_next, rng_seed, rng_shuffle_u8
from robotcore.core.state cimport EngineSpec, State
from robotcore.games.smartphone.engine cimport (
    deck_size, hand_sup, laid_sup, malus_weight, pile_size, recycled_owned, seat_score, sp_validate,
)
from robotcore.games.smartphone.state cimport (
    FL_NODEP, FL_TRADING, ITEM_MALUS, MAX_P, SUP_RECYCLING, MAX_VIS, NK, NK_LOSABLE, NO_CARD, NS, NT, NUM_EVENT_KINDS, NUM_PHASES, PH_OVER,
    SPConfig, SPState,
)

import numpy as np

from robotcore.games.smartphone.data import SUPPLIER_CODES, SUPPLIERS, TYPES
from robotcore.games.smartphone.engine import END_REASONS, PHASE_NAMES

cnp.import_array()

cdef enum:
    NUM_END_REASONS = 5                     # END_REASONS: none, smartphone, end event, malus pile, events out

KIND_NAMES = tuple(f"{SUPPLIER_CODES[k // 5]}-{TYPES[k % 5]}" for k in range(15))


def observation_size(int players, int ncomp, int nmalus, int nev) -> int:
    """Length of the observation vector (RULES.md, "Observation")."""
    return NK + players * (NS + 2 * NK + ncomp + nmalus + 3) + NS * MAX_VIS * NT + NS + 2 + nev \
        + NUM_PHASES + 6 + 3 * players + NS + 2 + NT + (NK + nmalus) + NK + 2 \
        + 2 + NUM_END_REASONS + players * NS + players * players + players * NS + players + players * NT


# -- views ------------------------------------------------------------------------------------------------------

cdef inline int seat_bound(const SPState* s, int viewer, int h, int k) noexcept nogil:
    """How many cards of kind k ``viewer`` is sure h holds: the public bound, plus what it alone saw (-1, a
    spectator: the public bound; its own hand: the public bound too, what the others know of it, since
    private_known[h][h] is 0)."""
    return s.known[h][k] + (s.private_known[viewer][h][k] if viewer >= 0 and k < NK_LOSABLE else 0)


cdef inline int seat_upper(const SPState* s, int viewer, int h, int t) noexcept nogil:
    """At most how many non-recycled cards of type t (P and M together) ``viewer`` is sure h holds, no more than
    h's non-recycled cards: the public upper bound less what the viewer alone saw (-1, a spectator, and its own
    hand: the public bound)."""
    cdef int u = s.upper[h][t] - (s.private_upper[viewer][h][t] if viewer >= 0 else 0)
    cdef int held = hand_sup(s, h, 0) + hand_sup(s, h, 1)
    return u if u < held else held


cdef dict _kinds(const uint8_t* counts, int n=NK):
    """Counts of the first n kinds by name (n = NK_LOSABLE: a row of ``private_known``), the non-zero ones."""
    return {KIND_NAMES[k]: counts[k] for k in range(n) if counts[k]}


cdef dict _named(const uint8_t* counts, int n, tuple names):
    return {names[t]: counts[t] for t in range(n) if counts[t]}


cdef str _item(int code, tuple mnames):
    return mnames[code - ITEM_MALUS] if code >= ITEM_MALUS else KIND_NAMES[code]


cdef dict _public(game, State state, int viewer):
    """What every seat sees, with ``known_in_hand`` as ``viewer`` knows it (-1: a spectator, the public bound)."""
    cdef const SPState* s = <const SPState*>state.data
    cdef const SPConfig* cfg = <const SPConfig*>state.core.cfg
    cdef int p, sup, i, c, k, t
    cdef uint8_t bound[NK]
    cdef int held, lower
    cnames = game.content.component_names
    mnames = game.content.malus_names
    seq = game.event_numbers
    players = []
    for p in range(cfg.n):
        for k in range(NK):
            bound[k] = <uint8_t>seat_bound(s, viewer, p, k)
        held = hand_sup(s, p, 0) + hand_sup(s, p, 1)
        lower = 0                                   # the non-recycled cards the viewer is sure of
        for k in range(NK_LOSABLE):
            lower += bound[k]
        players.append({
            "hand_by_supplier": {SUPPLIERS[sup]: hand_sup(s, p, sup) for sup in range(NS)},
            "known_in_hand": _kinds(bound),
            # the types of which the viewer is sure the hand holds fewer non-recycled cards than its count and
            # its known cards of the other types allow: at most that many
            "at_most_in_hand": {TYPES[t]: u for t in range(NT)
                                if (u := seat_upper(s, viewer, p, t)) < held - lower + bound[t] + bound[NT + t]},
            "laid": _kinds(s.laid[p]),
            "built": [cnames[c] for c in range(cfg.ncomp) if (s.built[p] >> c) & 1],
            "malus": _named(s.malus[p], cfg.nmalus, mnames),
            "malus_count": sum(s.malus[p][i] for i in range(cfg.nmalus)),
            "malus_weight": malus_weight(cfg, s, p),
            "recycled_owned": recycled_owned(s, p),
            "recycled_laid": laid_sup(s, p, 2),
            "blocked": [SUPPLIERS[sup] for sup in range(NS) if (s.block[p] >> sup) & 1],
            # a harsh 'block' drawn during p's own turn: closed on its next turn (moved to ``blocked`` at its end)
            "blocked_next": [SUPPLIERS[sup] for sup in range(NS) if (s.block[p] >> (4 + sup)) & 1],
            "score": seat_score(cfg, s, p),
        })
    market = {SUPPLIERS[sup]: [None if s.market[sup][i] == NO_CARD else TYPES[s.market[sup][i]]
                               for i in range(cfg.vis[sup])] for sup in range(NS)}
    turn = {
        "turn_player": (s.first + s.turns) % cfg.n if s.phase != PH_OVER else None,
        "supplier": SUPPLIERS[s.pick_sup] if s.picks_left or s.malus_left else None,
        "picks_left": s.picks_left,
        "malus_left": s.malus_left,
        "lose_type": TYPES[s.lose_type] if s.phase == 2 else None,
        "offer": ({"to": s.offer_to, "give": [_item(s.offer_give[i], mnames) for i in range(s.offer_give_n)],
                   "ask": [KIND_NAMES[s.offer_ask[i]] for i in range(s.offer_ask_n)]}
                  if s.phase == 4 or s.phase == 5 else None),
        "offered": bool(s.offered),
        "event": seq[s.ev_cur] if s.ev_cur != NO_CARD else None,
        "event_order": [s.order[i] for i in range(s.ev_n)],
        "event_position": s.ev_pos,
        "event_left": s.ev_left,
        "event_target": s.offer_to if s.phase == 8 else None,
        "quiz_ranks": [s.quiz[p] for p in range(cfg.n)],
    }
    return {
        "game": "smartphone",
        "phase": PHASE_NAMES[s.phase],
        "actors": state.actors,
        "round": s.round + 1,
        "first_player": s.first,
        "terminal": s.phase == PH_OVER,
        "end_triggered": bool(s.end_trig),
        "end_reason": END_REASONS[s.end_reason],
        "scores": [seat_score(cfg, s, p) for p in range(cfg.n)],
        "market": market,
        "deck_sizes": {SUPPLIERS[sup]: deck_size(s, sup) for sup in range(NS)},
        "malus_pile": pile_size(cfg, s),
        "malus_set_aside": _named(s.mout, cfg.nmalus, mnames),
        "out_of_game": _kinds(s.out),
        "events": {"drawn": list(seq[:s.ev_next]), "upcoming": list(seq[s.ev_next:])},
        "rules": {"trading": bool(s.flags & FL_TRADING), "malus_penalty": s.penalty, "malus_multiplier": s.mult,
                  "no_depollution": bool(s.flags & FL_NODEP), "refreshed": bool(s.refreshed)},
        "players": players,
        "turn_state": turn,
    }


def view(game, State state, seat) -> dict:
    cdef const SPState* s = <const SPState*>state.data
    out = _public(game, state, -1 if seat is None else <int>seat)
    out["seat"] = seat
    if seat is not None:
        out["hand"] = _kinds(s.hand[<int>seat])
    return out


def omniscient(game, State state) -> dict:
    cdef const SPState* s = <const SPState*>state.data
    cdef const SPConfig* cfg = <const SPConfig*>state.core.cfg
    cdef int p, o
    out = _public(game, state, -1)
    out["seat"] = "omniscient"
    out["hands"] = [_kinds(s.hand[p]) for p in range(cfg.n)]
    # [o][h]: what seat o alone knows to be in h's hand beyond the public known_in_hand
    out["private_known"] = [[_kinds(s.private_known[o][p], NK_LOSABLE) for p in range(cfg.n)] for o in range(cfg.n)]
    out["decks"] = _kinds(s.deck)
    out["malus_pile_cards"] = _named(s.pile, cfg.nmalus, game.content.malus_names)
    return out


# -- observation ------------------------------------------------------------------------------------------------

@cython.boundscheck(False)
@cython.wraparound(False)
def observation(State state, int seat) -> cnp.ndarray:
    cdef const SPState* s = <const SPState*>state.data
    cdef const SPConfig* cfg = <const SPConfig*>state.core.cfg
    cdef int n = cfg.n, size = observation_size(n, cfg.ncomp, cfg.nmalus, cfg.nev)
    cdef cnp.ndarray arr = np.zeros(size, dtype=np.float32)
    cdef float* x = <float*>cnp.PyArray_DATA(arr)
    cdef int pos = 0, k, rel, p, sup, i, t, c
    for k in range(NK):
        x[pos + k] = s.hand[seat][k] / 4.0
    pos += NK
    for rel in range(n):
        p = (seat + rel) % n
        for sup in range(NS):
            x[pos + sup] = hand_sup(s, p, sup) / 8.0
        pos += NS
        for k in range(NK):
            x[pos + k] = seat_bound(s, seat, p, k) / 4.0
            x[pos + NK + k] = s.laid[p][k] / 4.0
        pos += 2 * NK
        for c in range(cfg.ncomp):
            x[pos + c] = (s.built[p] >> c) & 1
        pos += cfg.ncomp
        for t in range(cfg.nmalus):
            x[pos + t] = s.malus[p][t] / 2.0
        pos += cfg.nmalus
        x[pos] = malus_weight(cfg, s, p) / 10.0
        x[pos + 1] = recycled_owned(s, p) / 5.0
        x[pos + 2] = seat_score(cfg, s, p) / 30.0
        pos += 3
    for sup in range(NS):
        for i in range(MAX_VIS):
            if i < cfg.vis[sup] and s.market[sup][i] != NO_CARD:
                x[pos + s.market[sup][i]] = 1.0
            pos += NT
    for sup in range(NS):
        if cfg.total_cards:
            x[pos + sup] = deck_size(s, sup) / 50.0
    pos += NS
    x[pos] = pile_size(cfg, s) / 20.0
    x[pos + 1] = s.round / <float>cfg.nev
    pos += 2
    for i in range(cfg.nev):
        x[pos + i] = 1.0 if i < s.ev_next else 0.0
    if s.ev_cur != NO_CARD:
        x[pos + s.ev_cur] = 2.0
    pos += cfg.nev
    x[pos + s.phase] = 1.0
    pos += NUM_PHASES
    x[pos] = s.phase != PH_OVER and s.cur == seat
    x[pos + 1] = (s.flags & FL_TRADING) != 0
    x[pos + 2] = (s.flags & FL_NODEP) != 0
    x[pos + 3] = s.penalty
    x[pos + 4] = s.mult
    x[pos + 5] = s.end_trig
    pos += 6
    if s.phase != PH_OVER:
        x[pos + (s.cur - seat + n) % n] = 1.0
        x[pos + n + (s.first - seat + n) % n] = 1.0
    for p in range(n):
        x[pos + 2 * n + (p - seat + n) % n] = s.quiz[p] / <float>n
    pos += 3 * n
    if s.picks_left or s.malus_left:
        x[pos + s.pick_sup] = 1.0
    pos += NS
    x[pos] = s.picks_left / 3.0
    x[pos + 1] = s.malus_left / 4.0
    pos += 2
    if s.phase == 2:
        x[pos + s.lose_type] = 1.0
    pos += NT
    for i in range(s.offer_give_n):
        if s.offer_give[i] >= ITEM_MALUS:
            x[pos + NK + s.offer_give[i] - ITEM_MALUS] += 1.0
        else:
            x[pos + s.offer_give[i]] += 1.0
    pos += NK + cfg.nmalus
    for i in range(s.offer_ask_n):
        x[pos + s.offer_ask[i]] += 1.0
    pos += NK
    x[pos] = s.ev_left / 2.0
    x[pos + 1] = ((s.offer_to - seat + n) % n) / <float>n
    pos += 2
    # appended (the view's facts the places above lacked): a trade offered this turn, the market refresh used,
    # the end's reason, each player's blocked suppliers, and the order the current event visits the players in
    x[pos] = s.offered
    x[pos + 1] = s.refreshed
    pos += 2
    x[pos + s.end_reason] = 1.0
    pos += NUM_END_REASONS
    for rel in range(n):
        p = (seat + rel) % n
        for sup in range(NS):
            x[pos + sup] = (s.block[p] >> sup) & 1
        pos += NS
    for i in range(s.ev_n):                     # row i: the i-th player visited (relative seat, one-hot)
        x[pos + i * n + (s.order[i] - seat + n) % n] = 1.0
    pos += n * n
    for rel in range(n):                        # the view's blocked_next (a block drawn during the player's turn)
        p = (seat + rel) % n
        for sup in range(NS):
            x[pos + sup] = (s.block[p] >> (4 + sup)) & 1
        pos += NS
    # the turn's player (relative seat, one-hot; none once over): the acting seat but while a trade offer is
    # answered, when the offer's target acts and the offerer is the turn's player
    if s.phase != PH_OVER:
        x[pos + ((s.first + s.turns) % n - seat + n) % n] = 1.0
    pos += n
    for rel in range(n):                        # the view's at_most_in_hand: the seat's upper bound of each type
        p = (seat + rel) % n
        for t in range(NT):
            x[pos + t] = seat_upper(s, seat, p, t) / 4.0
        pos += NT
    assert pos == size
    return arr


# -- resampling -------------------------------------------------------------------------------------------------

cdef enum:
    RESAMPLE_TRIES = 32                         # re-deals of the PolluPlus and PolluMoins cards tried before the search
    RESAMPLE_MIX = 8                            # transpositions proposed per card after the search (mix_deal)

ctypedef struct Redeal:
    # the re-deal of the non-recycled cards a seat cannot be sure of, as counts: a function of the seat's
    # information alone (its bounds, the public counts), never of the hidden cards themselves
    int nh                                      # the other hands, in seat order
    int need[MAX_P][2]                          # [i][sup]: cards of PolluPlus (0) / PolluMoins (1) to deal hand i
    int cap[MAX_P][NT]                          # [i][t]: room for type t in hand i, P and M together (its upper
                                                # bound less its lower bounds of P-t and M-t)
    int pool[2][NT]                             # [sup][t]: cards of that kind to deal (the deck and the hands')
    int x[MAX_P][2][NT]                         # the search's deal: cards of [sup][t] to hand i
    int rot                                     # the search's first type (drawn)
    long budget                                 # the search's calls left (redeal_search)


#: The most calls ``redeal_search`` makes before it gives up (a few milliseconds). A deal within the bounds always
#: exists (the true hands), and the search finds one in at most 30 calls in the forced event-9 position of the tests; the
#: budget bounds its exponential worst case, which a crafted state could reach: the resampler then starts its mix
#: from the true hands (see sm_resample_draw). A variable so that the tests can run that path (``_search_budget``).
cdef long SEARCH_BUDGET = 200000


def _search_budget(long calls) -> int:
    """Set the re-deal search's budget (tests only); returns the previous one."""
    global SEARCH_BUDGET
    old = SEARCH_BUDGET
    SEARCH_BUDGET = calls
    return old


cdef bint redeal_search(Redeal* d, int cell) noexcept nogil:
    """A deal within every bound, by an exhaustive depth-first search over the cells (hand, supplier, type): each
    cell takes the most it can first, and a (hand, supplier) whose remaining need exceeds what its remaining types
    could give is cut. It finds one when one exists (one does: the true hands) unless its budget of calls
    (``d.budget``) runs out first: False then, and ``d.budget`` is 0."""
    cdef int i, sup, j, t, hi, v, room, c
    if cell == d.nh * 2 * NT:
        return True
    if d.budget <= 0:
        return False
    d.budget -= 1
    i = cell // (2 * NT)
    sup = (cell // NT) & 1
    j = cell % NT
    t = (j + d.rot) % NT
    # what the types from this one on can still take for (i, sup): the need must fit in it
    room = 0
    for c in range(j, NT):
        v = (c + d.rot) % NT
        room += d.pool[sup][v] if d.pool[sup][v] < d.cap[i][v] else d.cap[i][v]
    if room < d.need[i][sup]:
        return False
    hi = d.need[i][sup]
    if d.pool[sup][t] < hi:
        hi = d.pool[sup][t]
    if d.cap[i][t] < hi:
        hi = d.cap[i][t]
    if j == NT - 1 and hi < d.need[i][sup]:        # the last type takes what is left, or nothing fits
        return False
    v = hi
    while v >= (d.need[i][sup] if j == NT - 1 else 0):
        d.x[i][sup][t] = v
        d.need[i][sup] -= v
        d.pool[sup][t] -= v
        d.cap[i][t] -= v
        if redeal_search(d, cell + 1):
            return True
        d.need[i][sup] += v
        d.pool[sup][t] += v
        d.cap[i][t] += v
        v -= 1
    d.x[i][sup][t] = 0
    return False


cdef void deal_supplier(SPState* s, int n, int seat, int sup, uint8_t* pool, int m, int unknown[MAX_P][NS],
                        uint8_t bound[MAX_P][NK], uint64_t* rng) noexcept nogil:
    """The pooled cards of ``sup`` (types) shuffled and dealt: each other hand gets its seat's bound of each kind
    and its unknown count of cards from the pool, the deck the rest."""
    cdef int p, t, i, pos = 0
    rng_shuffle_u8(rng, pool, m)
    for p in range(n):
        if p == seat:
            continue
        for t in range(NT):
            s.hand[p][sup * NT + t] = bound[p][sup * NT + t]
        for i in range(unknown[p][sup]):
            s.hand[p][sup * NT + pool[pos]] += 1
            pos += 1
    for t in range(NT):
        s.deck[sup * NT + t] = 0
    while pos < m:
        s.deck[sup * NT + pool[pos]] += 1
        pos += 1


cdef inline void swap_type(Redeal* d, int cnt[MAX_P][NT], int owner, int sup, int was, int now) noexcept nogil:
    """One card of ``sup`` held by ``owner`` (a hand's index, or MAX_P: the deck) changes type ``was`` -> ``now``
    in the counts (one side of mix_deal's transposition)."""
    if owner < MAX_P:
        cnt[owner][was] -= 1
        cnt[owner][now] += 1
        d.x[owner][sup][was] -= 1
        d.x[owner][sup][now] += 1
    else:
        d.pool[sup][was] -= 1
        d.pool[sup][now] += 1


cdef void mix_deal(Redeal* d, int cap0[MAX_P][NT], int* m, uint64_t* rng) noexcept nogil:
    """The search's deal (``d.x``, the deck ``d.pool``) shuffled within the bounds: cards laid out one per place
    (each hand's, then the deck's), then random transpositions of two places of one supplier, each kept when both
    hands stay within their room (``cap0``). Every proposal is as likely as its reverse, so the chain's stationary
    law is uniform over the layouts within the bounds: the law of the tries given the bounds."""
    cdef uint8_t typ[2][256]
    cdef uint8_t own[2][256]                    # a hand's index, or MAX_P: the deck
    cdef int cnt[MAX_P][NT]
    cdef int sup, i, t, j, pos, step, steps, u, v, a, b, ou, ov
    for i in range(d.nh):
        for t in range(NT):
            cnt[i][t] = d.x[i][0][t] + d.x[i][1][t]
    for sup in range(2):
        pos = 0
        for i in range(d.nh):
            for t in range(NT):
                for j in range(d.x[i][sup][t]):
                    typ[sup][pos] = <uint8_t>t
                    own[sup][pos] = <uint8_t>i
                    pos += 1
        for t in range(NT):
            for j in range(d.pool[sup][t]):
                typ[sup][pos] = <uint8_t>t
                own[sup][pos] = MAX_P
                pos += 1
    steps = RESAMPLE_MIX * (m[0] + m[1])
    for step in range(steps):
        sup = step & 1
        if m[sup] < 2:
            continue
        u = <int>rng_below(rng, <uint32_t>m[sup])
        v = <int>rng_below(rng, <uint32_t>m[sup])
        a = typ[sup][u]
        b = typ[sup][v]
        ou = own[sup][u]
        ov = own[sup][v]
        if a == b or ou == ov:
            continue
        if (ou < MAX_P and cnt[ou][b] + 1 > cap0[ou][b]) or (ov < MAX_P and cnt[ov][a] + 1 > cap0[ov][a]):
            continue
        typ[sup][u] = <uint8_t>b
        typ[sup][v] = <uint8_t>a
        swap_type(d, cnt, ou, sup, a, b)
        swap_type(d, cnt, ov, sup, b, a)


cdef int sm_resample_draw(const void* cfgp, const void* scratch, const void* st, int seat, void* dst,
                          uint64_t* rngp) noexcept nogil:
    """The native resampler (``EngineSpec.resample_draw``, no prepare step; ``st`` valid): ``dst``
    becomes a copy of ``st`` where everything ``seat`` cannot see is drawn again, consistently with what it
    knows. For each supplier, the cards of the other players' hands that ``seat`` cannot be sure of (all but its
    lower bound ``known`` + ``private_known[seat]``) and that supplier's deck are pooled, in type order, shuffled
    and dealt again, each hand keeping its number of cards of that supplier and the seat's bound of it. The
    PolluPlus and PolluMoins deals are tried again (fresh shuffles, up to RESAMPLE_TRIES) until every other hand
    keeps within the seat's upper bound of each type (``upper - private_upper[seat]``, P and M cards together):
    the old deal's law given the bounds; when no try does (bounds the shuffle rarely meets), ``redeal_search``
    finds a deal within them and ``mix_deal`` shuffles it within them (towards the same law). The deal is tried
    once when no bound can be exceeded (no hand could hold more than its bound of a type), with the draws of the
    resampler before the upper bounds. Every input is the seat's information (its bounds, the public counts).
    What the other seats know privately of a third hand is hidden from ``seat`` (even how much: after a steal,
    whether the thief still knows more of the victim than the public depends on the kind stolen), so the new world
    gives it the one value ``seat``'s information decides: nothing beyond the public bounds (``private_known[o][h]``
    and ``private_upper[o][h]`` 0 for o, h other than ``seat``), consistent with any re-deal. What the others know
    of ``seat``'s hand (each learnt it through a steal between the two of them) and the seat's own rows stay as
    they are. The PRNG is re-seeded."""
    cdef SPState* s = <SPState*>dst
    cdef const SPConfig* cfg = <const SPConfig*>cfgp
    cdef uint64_t rng = rngp[0]
    cdef uint8_t pool[NS][256]
    cdef int m[NS]
    cdef uint8_t bound[MAX_P][NK]
    cdef int ub[MAX_P][NT]
    cdef int unknown[MAX_P][NS]
    cdef int sup, t, p, k, i, o, tries
    cdef bint binding = False, ok = True
    cdef Redeal d, truth
    cdef int cap0[MAX_P][NT]
    if dst != st:
        memcpy(dst, st, sizeof(SPState))
    for p in range(cfg.n):                          # the seat's bounds of each hand (its own row: unused)
        for k in range(NK):
            bound[p][k] = <uint8_t>seat_bound(s, seat, p, k)
        for t in range(NT):
            ub[p][t] = s.upper[p][t] - s.private_upper[seat][p][t]
    for sup in range(NS):
        m[sup] = 0
        for t in range(NT):
            k = sup * NT + t
            for i in range(s.deck[k]):
                pool[sup][m[sup]] = <uint8_t>t
                m[sup] += 1
            for p in range(cfg.n):
                if p != seat:
                    for i in range(s.hand[p][k] - bound[p][k]):
                        pool[sup][m[sup]] = <uint8_t>t
                        m[sup] += 1
        for p in range(cfg.n):
            unknown[p][sup] = 0
            if p != seat:
                for t in range(NT):
                    k = sup * NT + t
                    unknown[p][sup] += s.hand[p][k] - bound[p][k]
    for p in range(cfg.n):                          # can a deal break an upper bound? (its hand could hold more)
        if p != seat:
            for t in range(NT):
                if bound[p][t] + bound[p][NT + t] + unknown[p][0] + unknown[p][1] > ub[p][t]:
                    binding = True
    if binding:                                     # the true deal, kept for the search's fallback (below)
        i = 0
        for p in range(cfg.n):
            if p != seat:
                for sup in range(2):
                    for t in range(NT):
                        truth.x[i][sup][t] = s.hand[p][sup * NT + t] - bound[p][sup * NT + t]
                i += 1
        for sup in range(2):
            for t in range(NT):
                truth.pool[sup][t] = s.deck[sup * NT + t]
    tries = RESAMPLE_TRIES
    while True:                                     # PolluPlus and PolluMoins, until within the bounds
        for sup in range(2):
            deal_supplier(s, cfg.n, seat, sup, pool[sup], m[sup], unknown, bound, &rng)
        if not binding:
            break
        ok = True
        for p in range(cfg.n):
            if p != seat:
                for t in range(NT):
                    if s.hand[p][t] + s.hand[p][NT + t] > ub[p][t]:
                        ok = False
        tries -= 1
        if ok:
            break
        if tries == 0:                              # no try kept within the bounds: the search
            d.nh = 0
            for t in range(NT):
                d.pool[0][t] = 0
                d.pool[1][t] = 0
            for sup in range(2):
                for i in range(m[sup]):
                    d.pool[sup][pool[sup][i]] += 1
            for p in range(cfg.n):
                if p == seat:
                    continue
                for sup in range(2):
                    d.need[d.nh][sup] = unknown[p][sup]
                for t in range(NT):
                    d.cap[d.nh][t] = ub[p][t] - bound[p][t] - bound[p][NT + t]
                    d.x[d.nh][0][t] = 0
                    d.x[d.nh][1][t] = 0
                d.nh += 1
            d.rot = <int>rng_below(&rng, NT)
            for i in range(d.nh):
                for t in range(NT):
                    cap0[i][t] = d.cap[i][t]
            d.budget = SEARCH_BUDGET
            if not redeal_search(&d, 0):
                # the budget ran out (a crafted state: play never needs it): the mix starts from the true hands,
                # a deal within every bound, so that the world is valid; it then depends on the hidden cards
                # through where the chain starts (RULES.md)
                memcpy(&d.x[0][0][0], &truth.x[0][0][0], sizeof(d.x))
                memcpy(&d.pool[0][0], &truth.pool[0][0], sizeof(d.pool))
            mix_deal(&d, cap0, m, &rng)
            i = 0
            for p in range(cfg.n):
                if p == seat:
                    continue
                for sup in range(2):
                    for t in range(NT):
                        s.hand[p][sup * NT + t] = bound[p][sup * NT + t] + d.x[i][sup][t]
                i += 1
            for sup in range(2):
                for t in range(NT):
                    s.deck[sup * NT + t] = d.pool[sup][t]
            break
    deal_supplier(s, cfg.n, seat, SUP_RECYCLING, pool[2], m[2], unknown, bound, &rng)
    if s.private_of:                                # (only after a steal)
        s.private_of = 0
        for o in range(cfg.n):
            for p in range(cfg.n):
                if o != seat and p != seat:
                    memset(&s.private_known[o][p][0], 0, NK_LOSABLE)
                for k in range(NK_LOSABLE):
                    if s.private_known[o][p][k]:
                        s.private_of |= <uint8_t>(1 << p)
    for o in range(cfg.n):                          # (private upper bounds: only after a steal, too)
        if o != seat:
            for p in range(cfg.n):
                if p != seat:
                    memset(&s.private_upper[o][p][0], 0, NT)
    s.rng = rng_seed(rng_next(&rng))
    rngp[0] = rng
    return 0


cdef EngineSpec _HOOKS
_HOOKS.resample_draw = sm_resample_draw
#: the native hooks of this module (resampler; leaf evaluation), read by engine.make_core into the EngineSpec
NATIVE_HOOKS = PyCapsule_New(&_HOOKS, b"robotcore.EngineSpec", NULL)


def resample(game, State state, int seat, uint64_t seed) -> State:
    """A copy of ``state`` where everything ``seat`` cannot see is drawn again, consistently with what it
    knows: the native resampler ``sm_resample_draw`` (described there) run with ``rng_seed(seed)``, the
    invariants checked before and after."""
    cdef State out = state.clone()
    cdef uint64_t rng = rng_seed(seed)
    cdef const SPConfig* cfg = <const SPConfig*>state.core.cfg
    if sp_validate(cfg, state.data) != 0:
        raise AssertionError("resample needs a valid state")
    sm_resample_draw(cfg, NULL, state.data, seat, out.data, &rng)
    out.seed = seed
    if sp_validate(cfg, out.data) != 0:
        raise AssertionError("resampling broke an invariant")
    return out
