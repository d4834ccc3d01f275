# cython: language_level=3
"""Robotrick's rules in C: move generation (``rt_legal_mask``), stepping (``rt_apply``), Droco's automaton
(``droco_choose``), scoring (``rt_scores``) and the invariant check (``rt_validate``).

Invariants that hold between calls (and that ``rt_validate`` checks for states from outside):
- in the play phase the player to act is never Droco: ``advance`` lets Droco play at once whenever it is its turn;
- every card is in exactly one place: a hand, a pending pass (pass phase), the set-aside, the played set, or the
  trump card;
- a round's scores are written to ``round_scores`` when its twelfth trick ends;
- the captures, the voids and the leader are what the round's tricks give when replayed from ``played_at``
  (``replays_consistently``), and a seat marked void in a colour holds none of it.
"""

cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from robotcore.core.bits cimport bit, bmi2_int64, fast_pdep, highest_bit, lowest_bit, nth_bit_pdep, popcount
from robotcore.core.playout cimport PLAYOUT_TOO_LONG
from robotcore.core.rng cimport rng_below, rng_seed
from robotcore.core.state cimport EngineSpec, GameCore, take_native_hooks
from robotcore.games.robotrick.state cimport (
    ACTIONS_PER_ROUND, DISCARD_CHEAPEST_TRUMP_WIN, DISCARD_HIGHEST, DISCARD_HIGHEST_NON_TRUMP,
    DISCARD_HIGHEST_TRUMP, DISCARD_LOWEST, DISCARD_LOWEST_NON_TRUMP, DROCO, FOLLOW_CHEAPEST_WIN,
    FOLLOW_DUCK, FOLLOW_HIGHEST, FOLLOW_HIGHEST_IF_WIN, FOLLOW_LOWEST, HAND_SIZE, LEAD_HIGHEST,
    LEAD_HIGHEST_NON_TRUMP, LEAD_HIGHEST_OF_LONGEST, LEAD_HIGHEST_TRUMP, LEAD_LOWEST,
    LEAD_LOWEST_NON_TRUMP, LEAD_LOWEST_OF_SHORTEST, LEAD_LOWEST_TRUMP, MAX_AI_CARDS, MAX_ROUNDS,
    NUM_ACTIONS, NUM_CARDS, NUM_COLOURS, NUM_DISCARD_RULES, NUM_FOLLOW_RULES, NUM_LEAD_RULES, NUM_SEATS,
    NUM_STRENGTHS, PASS_BASE, PASS_CARDS, PHASE_OVER, PHASE_PASS, PHASE_PLAY, SET_ASIDE,
    TRICKS_PER_ROUND, DrocoPlan, RTConfig, RTState, all_cards, colour_mask, colour_of,
)


cdef extern from *:
    """
    #include <string.h>
    /* The four bytes p[0..3] from a word whose lowest byte is p[0]: one store on little-endian targets. */
    static inline void rt_store4(uint8_t* p, uint32_t v) {
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
    #else
        memcpy(p, &v, 4);
    #endif
    }
    /* fast_trick is written once and must be inlined at each of its two call sites, where whether Droco leads is a
       constant (and deal_step at each of the shuffle's steps): the compilers' size heuristics would keep one shared
       copy. */
    #if defined(__GNUC__) || defined(__clang__)
    #define RT_FORCE_INLINE __attribute__((always_inline))
    #elif defined(_MSC_VER)
    #define RT_FORCE_INLINE __forceinline
    #else
    #define RT_FORCE_INLINE
    #endif
    """
    void rt_store4(uint8_t* p, uint32_t v) nogil
    ctypedef void forced_inline_void "RT_FORCE_INLINE void"
    ctypedef int forced_inline_int "RT_FORCE_INLINE int"
    ctypedef uint64_t forced_inline_u64 "RT_FORCE_INLINE uint64_t"
    ctypedef int64_t forced_inline_i64 "RT_FORCE_INLINE int64_t"


# -- seating and tricks -----------------------------------------------------------------------------------------

# NEXT[r][p]: the player after p clockwise in round r. In round r Droco sits between seat r and seat r+1:
# round 1 between seat 0 and its left neighbour, round 2 between the two others, round 3 between seat 0 and its
# right neighbour. (A table: this is on the path of every move.)
cdef uint8_t DECK_ORDER[NUM_CARDS]
for _i in range(NUM_CARDS):
    DECK_ORDER[_i] = _i

# A card's colour and the set of its colour's cards (tables: a division and a shift less on every lead).
cdef uint8_t CARD_COLOUR[NUM_CARDS]
cdef uint64_t SUIT_OF[NUM_CARDS]
for _i in range(NUM_CARDS):
    CARD_COLOUR[_i] = colour_of(_i)
    SUIT_OF[_i] = colour_mask(colour_of(_i))

cdef uint8_t NEXT[MAX_ROUNDS][4]
NEXT[0][:] = [DROCO, 2, 0, 1]
NEXT[1][:] = [1, DROCO, 0, 2]
NEXT[2][:] = [1, 2, DROCO, 0]

# ORDER[r][leader]: the four players of a trick in play order from its leader, one byte each, the leader's lowest
# (the trick's ``trick_player`` bytes as one word).
cdef uint32_t ORDER[MAX_ROUNDS][4]
cdef uint8_t DROCO_AT[MAX_ROUNDS][4]     # Droco's position in ORDER[r][leader]
cdef uint32_t SEATS[MAX_ROUNDS][4]       # the three seats of ORDER[r][leader] in play order, one byte each
for _r in range(MAX_ROUNDS):
    for _p in range(4):
        ORDER[_r][_p] = 0
        SEATS[_r][_p] = 0
        _q = _p
        _k = 0
        for _i in range(4):
            ORDER[_r][_p] |= (<uint32_t>_q) << (8 * _i)
            if _q == DROCO:
                DROCO_AT[_r][_p] = _i
            else:
                SEATS[_r][_p] |= (<uint32_t>_q) << (8 * _k)
                _k += 1
            _q = NEXT[_r][_q]


cdef int next_player(int rnd, int player) noexcept nogil:
    """The player after ``player`` clockwise (``rnd`` < MAX_ROUNDS, ``player`` <= DROCO)."""
    return NEXT[rnd][player]


cdef int to_play(const RTState* s) noexcept nogil:
    if s.trick_len == 0:
        return s.leader
    return next_player(s.round, s.trick_player[s.trick_len - 1])


cdef bint beats(int card, int best, int led, int trump_colour) noexcept nogil:
    """Does ``card`` beat ``best`` (the strongest card so far)? Rule B: trumps beat everything else and the
    higher trump wins; rule A: otherwise only a higher card of the led colour wins."""
    cdef int cc = colour_of(card), bc = colour_of(best)
    if cc == trump_colour:
        return bc != trump_colour or card > best
    if cc == led:
        return bc != trump_colour and (bc != led or card > best)
    return False


cdef int trick_winner_of(const int* cards, const int* players, int n, int trump_colour) noexcept nogil:
    cdef int best = 0, i, led = colour_of(cards[0])
    for i in range(1, n):
        if beats(cards[i], cards[best], led, trump_colour):
            best = i
    return players[best]


cdef int trick_best(const RTState* s) noexcept nogil:
    """Index in the trick in progress of the card that wins it so far."""
    cdef int best = 0, i, led = colour_of(s.trick_card[0]), tc = colour_of(s.trump)
    for i in range(1, s.trick_len):
        if beats(s.trick_card[i], s.trick_card[best], led, tc):
            best = i
    return best


# -- Droco ------------------------------------------------------------------------------------------------------
# Droco's rules work on bitsets. Within a trick, the card that wins so far is the strongest trump played, else the
# strongest card of the led colour (rules A and B, as ``beats`` applies them card by card), so it is read off the
# set of the trick's cards in a few instructions (``best_of``) instead of replaying the trick.

cdef inline forced_inline_int kth_card_by(uint64_t cards, int k, bint pdep) noexcept nogil:
    """The k-th lowest card of a set (k < its size): nth_set_bit's answer, by PDEP when ``pdep`` (inlined where
    ``pdep`` is a constant in a function compiled for BMI2: ``rt_playout``), else by clearing the lowest cards one
    by one, the cheapest way for hands of at most 12 cards (k averages about 2 here)."""
    if pdep:
        return nth_bit_pdep(cards, k)
    while k > 0:
        cards &= cards - 1
        k -= 1
    return lowest_bit(cards)


cdef inline int kth_card(uint64_t cards, int k) noexcept nogil:
    return kth_card_by(cards, k, fast_pdep)


cdef inline uint64_t above(int card) noexcept nogil:
    """Cards with a higher id than ``card`` (0 <= card < 63): within a colour, the stronger ones."""
    return ~((<uint64_t>2 << card) - 1)


cdef inline int best_of(uint64_t trick, uint64_t led_mask, uint64_t trump_mask) noexcept nogil:
    """The card winning a non-empty trick so far (``trick``: its cards, the first of the led colour)."""
    cdef uint64_t t = trick & trump_mask
    # the trumps when there are any, else the led colour's cards: chosen by a mask, not a branch (whether a trump
    # was played is the data itself, and mispredicted about once in eight tricks)
    return highest_bit(t | (trick & led_mask & ((<uint64_t>0) - <uint64_t>(t == 0))))


cdef inline uint64_t trick_set(const RTState* s) noexcept nogil:
    cdef uint64_t t = 0
    cdef int i
    for i in range(s.trick_len):
        t |= bit(s.trick_card[i])
    return t


cdef inline int pick_extreme(uint64_t cards, int trump_colour, bint highest) noexcept nogil:
    """Strongest (or weakest) card of a non-empty set; equal strengths: a non-trump colour first, then the colour
    order Red, Green, Orange, Blue."""
    return pick_extreme_t(cards, (<uint64_t>1) << (NUM_STRENGTHS * trump_colour), highest)


cdef inline int pick_extreme_t(uint64_t cards, uint64_t trump_low, bint highest) noexcept nogil:
    """``pick_extreme`` with the trump colour given as its weakest card's bit (``trump_low``: 1 << 13 * colour)."""
    cdef uint64_t ranks = (cards | (cards >> 13) | (cards >> 26) | (cards >> 39)) & 0x1FFF
    cdef int rank = highest_bit(ranks) if highest else lowest_bit(ranks)
    # bit 13 * c set when colour c holds that rank; a non-trump colour first, then the colour order
    cdef uint64_t at = (cards >> rank) & <uint64_t>0x0000008004002001ULL
    cdef uint64_t other = at & ~trump_low
    return lowest_bit(other if other else at) + rank


cdef inline int pick_extreme_if(uint64_t cards, uint64_t trump_low, uint64_t high) noexcept nogil:
    """``pick_extreme_t`` with the strongest-or-weakest choice as a mask (all ones: strongest), without a
    branch."""
    cdef uint64_t ranks = (cards | (cards >> 13) | (cards >> 26) | (cards >> 39)) & 0x1FFF
    cdef int rank = highest_if(ranks, high)
    cdef uint64_t at = (cards >> rank) & <uint64_t>0x0000008004002001ULL
    cdef uint64_t other = at & ~trump_low
    return lowest_bit(other | (at & all_if(other == 0))) + rank


cdef int colour_by_length(uint64_t cards, bint longest) noexcept nogil:
    """Colour with the most (or fewest, at least one) cards; ties: the stronger top card (longest) or the weaker
    bottom card (shortest), then the colour order."""
    cdef int col, best = -1, n, best_n = 0, edge, best_edge = 0
    cdef uint64_t sub
    for col in range(NUM_COLOURS):
        sub = cards & colour_mask(col)
        if not sub:
            continue
        n = popcount(sub)
        edge = (highest_bit(sub) if longest else lowest_bit(sub)) - NUM_STRENGTHS * col
        if (best < 0
                or (longest and (n > best_n or (n == best_n and edge > best_edge)))
                or (not longest and (n < best_n or (n == best_n and edge < best_edge)))):
            best = col
            best_n = n
            best_edge = edge
    return best


cdef inline int droco_lead(const RTConfig* cfg, int ai_card, uint64_t hand, int tc, uint64_t tmask) noexcept nogil:
    """The card Droco leads from ``hand`` (trump colour ``tc``, its cards ``tmask``), by its AI card."""
    return droco_lead_by(cfg.ai_lead[ai_card], hand, tc, tmask)


cdef inline int droco_lead_by(int rule, uint64_t hand, int tc, uint64_t tmask) noexcept nogil:
    """``droco_lead`` with the AI card's lead criterion ``rule`` read beforehand (the playout reads it once a
    round)."""
    cdef uint64_t trumps = hand & tmask, others = hand & ~tmask
    if rule == LEAD_HIGHEST:
        return pick_extreme(hand, tc, True)
    if rule == LEAD_LOWEST:
        return pick_extreme(hand, tc, False)
    if rule == LEAD_HIGHEST_OF_LONGEST:
        return highest_bit(hand & colour_mask(colour_by_length(hand, True)))
    if rule == LEAD_LOWEST_OF_SHORTEST:
        return lowest_bit(hand & colour_mask(colour_by_length(hand, False)))
    if rule == LEAD_HIGHEST_TRUMP:
        return highest_bit(trumps) if trumps else pick_extreme(hand, tc, True)
    if rule == LEAD_LOWEST_TRUMP:
        return lowest_bit(trumps) if trumps else pick_extreme(hand, tc, False)
    if rule == LEAD_HIGHEST_NON_TRUMP:
        return pick_extreme(others, tc, True) if others else highest_bit(trumps)
    return pick_extreme(others, tc, False) if others else lowest_bit(trumps)   # LEAD_LOWEST_NON_TRUMP


cdef inline int droco_follow(const RTConfig* cfg, int ai_card, uint64_t hand, uint64_t trick, int led,
                             uint64_t led_mask, int tc, uint64_t tmask) noexcept nogil:
    """The card Droco plays from ``hand`` after the lead: ``trick`` holds the cards played so far, the first of
    colour ``led`` (its cards ``led_mask``); trump colour ``tc`` (``tmask``)."""
    return droco_follow_plan(&cfg.plan[ai_card], hand, trick, led_mask, tmask)


cdef inline uint64_t all_if(bint x) noexcept nogil:
    """All ones when ``x``, else zero: a choice by data taken by a mask, not by a branch."""
    return (<uint64_t>0) - <uint64_t>x


cdef inline int highest_if(uint64_t cards, uint64_t high) noexcept nogil:
    """The highest card of a non-empty set when ``high`` is all ones, its lowest when zero, without a branch."""
    cdef int hb = highest_bit(cards), lb = lowest_bit(cards)
    return lb ^ ((hb ^ lb) & <int>high)


cdef inline forced_inline_int droco_follow_plan(const DrocoPlan* pl, uint64_t hand, uint64_t trick,
                                               uint64_t led_mask, uint64_t tmask) noexcept nogil:
    """``droco_follow`` by the AI card's plan (``make_plan``): which of Droco's sets its criterion prefers is
    data, taken by masks, so that every criterion runs the same instructions (a chain of tests on the criterion
    mispredicted about once a trick when the AI cards change from one playout to the next); the one branch left
    is whether Droco can follow."""
    cdef uint64_t follow = hand & led_mask, win, trumps, others, prefer, fallback, none, m
    cdef int best = best_of(trick, led_mask, tmask)
    # the cards that beat the best so far: of the led colour, none once a trump leads (unless trumps were led);
    # of the trumps, any when the best is not a trump
    cdef uint64_t beat_led = above(best) & all_if((led_mask == tmask) | (not (tmask >> best) & 1))
    if follow:
        win = follow & beat_led
        prefer = follow & (pl.f_all | (win & pl.f_win) | (~win & pl.f_duck) | (all_if(win != 0) & pl.f_gate))
        none = all_if(prefer == 0)
        return highest_if(prefer | (follow & none), pl.f_high & ~none)
    trumps = hand & tmask
    others = hand & ~tmask
    win = trumps & (above(best) | all_if(not (tmask >> best) & 1))
    prefer = (hand & pl.d_hand) | (win & pl.d_trump_win) | (trumps & pl.d_trumps) | (others & pl.d_others)
    m = all_if(others != 0) & pl.d_others_first
    fallback = (others & m) | (hand & ~m)
    none = all_if(prefer == 0)
    return pick_extreme_if(prefer | (fallback & none), tmask & (~tmask + 1), pl.d_high & ~none)


cdef DrocoPlan make_plan(int follow_rule, int discard_rule) noexcept nogil:
    """An AI card's follow and discard criteria (RULES.md, "The AI cards") as ``droco_follow_plan``'s masks.
    Following (the fallback is the lowest led-colour card): highest / lowest -> all of them; cheapest win -> the
    winning cards, lowest; highest if win -> all of them, only when one wins, highest; duck -> those that do not
    win, highest. Discarding (the fallback is the lowest non-trump, or the lowest card when all are trumps, but
    for highest trump, whose fallback is the lowest card): lowest / highest -> the hand; cheapest trump win ->
    the winning trumps, lowest; highest trump -> the trumps, highest; lowest / highest non-trump -> the
    non-trumps."""
    cdef DrocoPlan p
    cdef uint64_t ones = ~(<uint64_t>0)
    memset(&p, 0, sizeof(DrocoPlan))
    if follow_rule == FOLLOW_HIGHEST or follow_rule == FOLLOW_LOWEST:
        p.f_all = ones
    elif follow_rule == FOLLOW_CHEAPEST_WIN:
        p.f_win = ones
    elif follow_rule == FOLLOW_HIGHEST_IF_WIN:
        p.f_gate = ones
    else:
        p.f_duck = ones
    p.f_high = all_if(follow_rule == FOLLOW_HIGHEST or follow_rule == FOLLOW_HIGHEST_IF_WIN
                      or follow_rule == FOLLOW_DUCK)
    if discard_rule == DISCARD_LOWEST or discard_rule == DISCARD_HIGHEST:
        p.d_hand = ones
    elif discard_rule == DISCARD_CHEAPEST_TRUMP_WIN:
        p.d_trump_win = ones
    elif discard_rule == DISCARD_HIGHEST_TRUMP:
        p.d_trumps = ones
    else:
        p.d_others = ones
    p.d_others_first = all_if(discard_rule != DISCARD_HIGHEST_TRUMP)
    p.d_high = all_if(discard_rule == DISCARD_HIGHEST or discard_rule == DISCARD_HIGHEST_TRUMP
                      or discard_rule == DISCARD_HIGHEST_NON_TRUMP)
    return p


cdef int droco_pick(const RTConfig* cfg, int ai_card, uint64_t hand, uint64_t trick, int led, int tc) noexcept nogil:
    """The card Droco plays from ``hand`` with ``trick`` the cards of the trick in progress (0: it leads; else
    the first was of colour ``led``), fixed by its AI card for the three situations (RULES.md, "The AI cards")."""
    if trick == 0:
        return droco_lead(cfg, ai_card, hand, tc, colour_mask(tc))
    return droco_follow(cfg, ai_card, hand, trick, led, colour_mask(led), tc, colour_mask(tc))


cdef int droco_choose(const RTConfig* cfg, const RTState* s) noexcept nogil:
    """The card Droco plays now in ``s`` (``droco_pick`` on the struct's trick in progress)."""
    return droco_pick(cfg, s.ai_card, s.hand[DROCO], trick_set(s),
                      colour_of(s.trick_card[0]) if s.trick_len else 0, colour_of(s.trump))


# -- scoring ----------------------------------------------------------------------------------------------------

cdef int32_t vp_sum(const RTConfig* cfg, uint64_t cards) noexcept nogil:
    cdef int32_t total = 0
    while cards:
        total += cfg.vp[lowest_bit(cards)]
        cards &= cards - 1
    return total


cdef int32_t live_round_score(const RTConfig* cfg, const RTState* s, int seat) noexcept nogil:
    """Face-up captures count plus, face-down captures count minus."""
    return vp_sum(cfg, s.face_up[seat]) - vp_sum(cfg, s.face_down[seat])


cdef void rt_scores(const void* c, const void* st, int32_t* out) noexcept nogil:
    cdef const RTConfig* cfg = <const RTConfig*>c
    cdef const RTState* s = <const RTState*>st
    cdef int p, r
    for p in range(NUM_SEATS):
        out[p] = 0
        for r in range(s.round):
            out[p] += s.round_scores[r][p]
        if s.phase != PHASE_OVER:
            out[p] += live_round_score(cfg, s, p)


cdef void rt_rank_keys(const void* c, const void* st, int64_t* out) noexcept nogil:
    """The total score; equal totals share the victory (no tie-break in the rules)."""
    cdef int32_t sc[NUM_SEATS]
    cdef int p
    rt_scores(c, st, sc)
    for p in range(NUM_SEATS):
        out[p] = sc[p]


# -- round flow -------------------------------------------------------------------------------------------------



cdef inline forced_inline_u64 deal_step(uint64_t* rng, uint8_t* deck, int i) noexcept nogil:
    """Step ``i`` of rng_shuffle_u8's Fisher-Yates (the same draw): the card it puts into place ``i`` for good, as a
    set. Inlined with ``i`` a constant, a step keeps only its draw and its swap."""
    cdef int j = <int>rng_below(rng, <uint32_t>(i + 1))
    cdef uint8_t t = deck[j]
    deck[j] = deck[i]
    return bit(t)


cdef inline forced_inline_u64 deal_hand(uint64_t* rng, uint8_t* deck, int top) noexcept nogil:
    """The twelve steps ``top`` down to ``top - 11``, in that order (one statement each: C does not order the
    operands of ``|``): the hand they deal."""
    cdef uint64_t h = deal_step(rng, deck, top)
    h |= deal_step(rng, deck, top - 1)
    h |= deal_step(rng, deck, top - 2)
    h |= deal_step(rng, deck, top - 3)
    h |= deal_step(rng, deck, top - 4)
    h |= deal_step(rng, deck, top - 5)
    h |= deal_step(rng, deck, top - 6)
    h |= deal_step(rng, deck, top - 7)
    h |= deal_step(rng, deck, top - 8)
    h |= deal_step(rng, deck, top - 9)
    h |= deal_step(rng, deck, top - 10)
    h |= deal_step(rng, deck, top - 11)
    return h



cdef void setup_round(const RTConfig* cfg, RTState* s) noexcept nogil:
    """Steps 1-4 of the round set-up: reveal an AI card, shuffle, reveal the trump, set 3 aside, deal 12 each."""
    cdef uint8_t deck[NUM_CARDS]
    cdef int i = 0, p, k
    cdef uint64_t rng, h
    if not (cfg.same_ai and s.round > 0):
        k = <int>rng_below(&s.rng, <uint32_t>(cfg.num_ai - popcount(s.ai_used)))
        for i in range(cfg.num_ai):
            if not (s.ai_used >> i) & 1:
                if k == 0:
                    break
                k -= 1
        s.ai_used |= <uint16_t>(1 << i)
        s.ai_card = <uint8_t>i
    # rng_shuffle_u8's Fisher-Yates (the same draws), with the counter in a register and each card dealt as its
    # place becomes final (place i is never read again once step i has swapped into it), written out step by step
    memcpy(deck, DECK_ORDER, NUM_CARDS)
    rng = s.rng
    s.hand[DROCO] = deal_hand(&rng, deck, 51)        # places 40..51 are Droco's hand, 28..39 seat 2's, ...
    s.hand[2] = deal_hand(&rng, deck, 39)
    s.hand[1] = deal_hand(&rng, deck, 27)
    s.hand[0] = deal_hand(&rng, deck, 15)
    h = deal_step(&rng, deck, 3)                     # places 1..3: set aside
    h |= deal_step(&rng, deck, 2)
    h |= deal_step(&rng, deck, 1)
    s.aside = h
    s.trump = deck[0]
    s.rng = rng
    for p in range(NUM_SEATS):
        s.face_up[p] = 0
        s.face_down[p] = 0
        s.passed[p] = 0
        s.pass_count[p] = 0
    s.played = 0
    memset(s.played_at, 0, NUM_CARDS)
    s.voids = 0
    s.trick_len = 0
    s.trick_no = 0
    s.leader = DROCO
    s.phase = PHASE_PASS


cdef void end_round(const RTConfig* cfg, RTState* s) noexcept nogil:
    cdef int p
    for p in range(NUM_SEATS):
        s.round_scores[s.round][p] = <int16_t>live_round_score(cfg, s, p)
    s.round += 1
    if s.round >= cfg.rounds:
        s.phase = PHASE_OVER          # the last round stays in played_at and the captures
    else:
        memcpy(s.past_played_at[s.round - 1], s.played_at, NUM_CARDS)   # how the round ended, for the views
        s.past_trump[s.round - 1] = s.trump
        setup_round(cfg, s)


cdef inline void capture(const RTConfig* cfg, RTState* s, int winner) noexcept nogil:
    """Captures of the complete trick in ``s.trick_card``: Droco wins -> each seat keeps its own card face down;
    a seat wins -> it takes Droco's card face up while it has fewer face-up cards than hangars, else face down.
    Every other card is discarded. Then the winner leads the next trick."""
    cdef int i, p
    for i in range(4):
        p = s.trick_player[i]
        if winner == DROCO:
            if p != DROCO:
                s.face_down[p] |= bit(s.trick_card[i])
        elif p == DROCO:
            if popcount(s.face_up[winner]) < cfg.hangars:
                s.face_up[winner] |= bit(s.trick_card[i])
            else:
                s.face_down[winner] |= bit(s.trick_card[i])
    s.leader = <uint8_t>winner
    s.trick_len = 0
    s.trick_no += 1
    if s.trick_no == TRICKS_PER_ROUND:
        end_round(cfg, s)


cdef inline int player_of(const RTState* s, int card) noexcept nogil:
    """Who played ``card`` this round (``played_at`` is 1 + trick * 4 + player)."""
    return (s.played_at[card] - 1) & 3


cdef void resolve_trick(const RTConfig* cfg, RTState* s) noexcept nogil:
    cdef int tc = colour_of(s.trump)
    capture(cfg, s, player_of(s, best_of(trick_set(s), colour_mask(colour_of(s.trick_card[0])), colour_mask(tc))))


cdef inline void play_card(const RTConfig* cfg, RTState* s, int player, int card) noexcept nogil:
    cdef int led
    s.hand[player] &= ~bit(card)
    if s.trick_len > 0:
        led = colour_of(s.trick_card[0])
        if colour_of(card) != led and player != DROCO:
            s.voids |= <uint16_t>(1 << (player * 4 + led))
    s.trick_card[s.trick_len] = <uint8_t>card
    s.trick_player[s.trick_len] = <uint8_t>player
    s.trick_len += 1
    s.played |= bit(card)
    s.played_at[card] = <uint8_t>(1 + s.trick_no * 4 + player)
    if s.trick_len == 4:
        resolve_trick(cfg, s)


cdef inline void advance(const RTConfig* cfg, RTState* s) noexcept nogil:
    """Let Droco play for as long as it is its turn (it leads the first trick of every round)."""
    while s.phase == PHASE_PLAY and to_play(s) == DROCO:
        play_card(cfg, s, DROCO, droco_choose(cfg, s))


cdef inline void end_round_scored(const RTConfig* cfg, RTState* s, const int32_t* score) noexcept nogil:
    """``end_round`` with the round's scores already summed (the playout keeps them as the captures are made)."""
    cdef int p
    for p in range(NUM_SEATS):
        s.round_scores[s.round][p] = <int16_t>score[p]
    s.round += 1
    if s.round >= cfg.rounds:
        s.phase = PHASE_OVER
    else:
        memcpy(s.past_played_at[s.round - 1], s.played_at, NUM_CARDS)
        s.past_trump[s.round - 1] = s.trump
        setup_round(cfg, s)




cdef inline forced_inline_int draw_card(uint64_t cards, uint64_t* rng, bint pdep) noexcept nogil:
    """The playouts' draw over a seat's legal cards (a non-empty set): k uniform below their number, the k-th."""
    return kth_card_by(cards, <int>rng_below(rng, <uint32_t>popcount(cards)), pdep)


cdef inline int follow_card(const RTState* s, int player, uint64_t led_mask, int led, uint32_t* voids,
                            uint64_t* rng) noexcept nogil:
    """A seat's random card after the lead: of the led colour when it has one, else any (and it is void in the
    led colour), without a branch."""
    cdef uint64_t hand = s.hand[player], follow = hand & led_mask
    cdef uint32_t none = follow == 0
    voids[0] |= none << (player * 4 + led)
    return draw_card(hand if none else follow, rng, fast_pdep)


cdef inline void take_trick(const RTConfig* cfg, RTState* s, uint32_t cards, uint32_t order, int d, int winner,
                            int32_t* score) noexcept nogil:
    """``capture`` for a whole trick given as its cards and players in play order (one byte each, Droco at
    position ``d``), with the round's scores in ``score``; the trick's bytes and the played set are written too."""
    cdef int i, p, c
    rt_store4(s.trick_card, cards)
    rt_store4(s.trick_player, order)
    if winner == DROCO:
        for i in range(4):
            if i != d:
                p = (order >> (8 * i)) & 0xFF
                c = (cards >> (8 * i)) & 0xFF
                s.face_down[p] |= bit(c)
                score[p] -= cfg.vp[c]
    else:
        c = (cards >> (8 * d)) & 0xFF
        if popcount(s.face_up[winner]) < cfg.hangars:
            s.face_up[winner] |= bit(c)
            score[winner] += cfg.vp[c]
        else:
            s.face_down[winner] |= bit(c)
            score[winner] -= cfg.vp[c]


cdef inline forced_inline_int seat_follow(uint64_t* h, int p, int led, uint64_t led_mask, uint32_t* voids,
                                         uint64_t* rng, bint pdep) noexcept nogil:
    """The card seat ``p`` follows with, taken from its hand ``h[p]``: its draw among its legal cards (of the led
    colour when it has one, else any, and it is then void in it), without a branch."""
    cdef uint64_t hand = h[p], follow = hand & led_mask
    cdef uint32_t none = follow == 0
    cdef int c
    voids[0] |= none << (p * 4 + led)
    c = draw_card(hand if none else follow, rng, pdep)
    h[p] = hand ^ bit(c)
    return c


cdef inline forced_inline_int fast_trick(const RTConfig* cfg, RTState* s, uint64_t* h, uint32_t seats, int d,
                                        bint droco_leads, int at, int tc, uint64_t tmask, int lead_rule,
                                        int hangars, const DrocoPlan* plan, uint32_t* voids, int32_t* score,
                                        uint64_t* up, uint64_t* down, uint64_t* played, uint32_t* seat_cards,
                                        int* droco_card, uint64_t* rng, bint pdep) noexcept nogil:
    """A whole trick from its lead; returns the winner. ``seats``: the three seats in play order (one byte each),
    Droco at position ``d`` of the trick. The seats draw in play order, as ``random_playout_loop`` does, and
    Droco draws nothing, so the seats' cards come first and Droco's card after them from the cards played before
    it (chosen by masks on ``d``): the same code serves Droco in any place but the lead, and ``droco_leads`` (a
    constant at each of the two call sites) is the one case apart, a branch as predictable as who won the trick
    before. ``at`` is played_at's mark of player 0. Everything but played_at lives in the caller's locals for the
    whole round: the hands ``h``, the captures ``up``/``down``, the scores, the voids and the played set,
    written back to the struct once, when the fast tricks end; ``seat_cards`` (the seats' cards in play order, a byte each) and
    ``droco_card`` keep the trick for the struct's last trick."""
    cdef int c0, c1, c2, cd, led, winner
    cdef int s0 = seats & 0xFF, s1 = (seats >> 8) & 0xFF, s2 = seats >> 16
    cdef uint64_t led_mask, trick, full, droco_won
    if droco_leads:
        cd = droco_lead_by(lead_rule, h[DROCO], tc, tmask)
        h[DROCO] ^= bit(cd)
        led = CARD_COLOUR[cd]
        led_mask = SUIT_OF[cd]
        c0 = seat_follow(h, s0, led, led_mask, voids, rng, pdep)
    else:
        c0 = draw_card(h[s0], rng, pdep)
        h[s0] ^= bit(c0)
        led = CARD_COLOUR[c0]
        led_mask = SUIT_OF[c0]
    c1 = seat_follow(h, s1, led, led_mask, voids, rng, pdep)
    c2 = seat_follow(h, s2, led, led_mask, voids, rng, pdep)
    if not droco_leads:
        cd = droco_follow_plan(plan, h[DROCO], bit(c0) | (bit(c1) & all_if(d >= 2)) | (bit(c2) & all_if(d == 3)),
                               led_mask, tmask)
        h[DROCO] ^= bit(cd)
    trick = bit(c0) | bit(c1) | bit(c2) | bit(cd)
    s.played_at[c0] = <uint8_t>(at + s0)
    s.played_at[c1] = <uint8_t>(at + s1)
    s.played_at[c2] = <uint8_t>(at + s2)
    s.played_at[cd] = <uint8_t>(at + DROCO)
    played[0] |= trick
    seat_cards[0] = <uint32_t>c0 | (<uint32_t>c1 << 8) | (<uint32_t>c2 << 16)
    droco_card[0] = cd
    winner = s.played_at[best_of(trick, led_mask, tmask)] - at
    # the captures (``capture``): Droco wins -> each seat keeps its own card face down; a seat wins -> Droco's
    # card goes face up while it has a free hangar, else face down
    if winner == DROCO:
        down[s0] |= bit(c0)
        score[s0] -= cfg.vp[c0]
        down[s1] |= bit(c1)
        score[s1] -= cfg.vp[c1]
        down[s2] |= bit(c2)
        score[s2] -= cfg.vp[c2]
    else:
        # face up or face down by a mask (whether a hangar is free is the data): ``full`` all ones when none is,
        # and the card's points negated then ((v ^ -1) + 1 = -v)
        full = all_if(popcount(up[winner]) >= hangars)
        up[winner] |= bit(cd) & ~full
        down[winner] |= bit(cd) & full
        score[winner] += (cfg.vp[cd] ^ <int32_t>full) - <int32_t>full
    return winner


cdef inline uint32_t with_droco(uint32_t seat_bytes, int d, uint32_t droco_byte) noexcept nogil:
    """Four bytes in play order from the seats' three and Droco's, Droco's at position ``d``."""
    cdef uint32_t low = seat_bytes & ((<uint32_t>1 << (8 * d)) - 1)
    return low | (droco_byte << (8 * d)) | ((seat_bytes ^ low) << 8)


cdef int slow_trick(const RTConfig* cfg, RTState* s, uint64_t* rng, int64_t* n, int64_t max_len, uint32_t* voids,
                    int32_t* score) noexcept nogil:
    """The rest of the trick in progress card by card, from ``s.trick_len`` (a trick begun before the playout, or
    one in which the length bound may be reached): its winner, or -1 at the decision that exceeds the bound,
    where the state is left as ``rt_apply`` leaves it."""
    cdef int rnd = s.round, tc = colour_of(s.trump), pos = s.trick_len, led = 0, player, card, d = 0, i, winner
    cdef uint32_t order = ORDER[rnd][s.leader], cards = 0
    cdef uint64_t led_mask = ~(<uint64_t>0), trick = 0, tmask = colour_mask(tc)
    for i in range(4):
        if ((order >> (8 * i)) & 0xFF) == DROCO:
            d = i
    for i in range(pos):
        cards |= (<uint32_t>s.trick_card[i]) << (8 * i)
        trick |= bit(s.trick_card[i])
    if pos:
        led = colour_of(s.trick_card[0])
        led_mask = colour_mask(led)
    while pos < 4:
        player = (order >> (8 * pos)) & 0xFF
        if player == DROCO:
            card = droco_pick(cfg, s.ai_card, s.hand[DROCO], trick, led, tc)
        else:
            if n[0] >= max_len:
                for i in range(pos):
                    s.trick_card[i] = <uint8_t>(cards >> (8 * i))
                    s.trick_player[i] = <uint8_t>(order >> (8 * i))
                s.trick_len = <uint8_t>pos
                s.played |= trick
                return -1
            card = follow_card(s, player, led_mask, led, voids, rng) if pos else draw_card(s.hand[player], rng,
                                                                                                   fast_pdep)
            n[0] += 1
        s.hand[player] &= ~bit(card)
        s.played_at[card] = <uint8_t>(1 + s.trick_no * 4 + player)
        if pos == 0:
            led = colour_of(card)
            led_mask = colour_mask(led)
        cards |= (<uint32_t>card) << (8 * pos)
        trick |= bit(card)
        pos += 1
    s.played |= trick
    winner = (s.played_at[best_of(trick, led_mask, tmask)] - 1) & 3
    take_trick(cfg, s, cards, order, d, winner, score)
    return winner


cdef inline bint hands_fit(const RTState* s) noexcept nogil:
    """Every player holds one card for each trick left (``rt_validate`` checks it of a state from outside; the
    play loop relies on it and never draws from an empty hand)."""
    cdef int p, i, left = TRICKS_PER_ROUND - s.trick_no
    cdef int n[4]
    for p in range(4):
        n[p] = left
    for i in range(s.trick_len):
        n[s.trick_player[i] & 3] -= 1
    for p in range(4):
        if popcount(s.hand[p]) != n[p]:
            return False
    return True


cdef inline forced_inline_i64 play_round(const RTConfig* cfg, RTState* s, uint64_t* rng_io, int64_t n, int64_t max_len,
                                        bint pdep) noexcept nogil:
    """The random playout through the play phase of a round: ``random_playout_loop``'s draws (a uniform card
    among the legal ones of the seat to act, the k-th lowest). Returns the decisions counted so far once the round
    is over (the next one dealt or the game over), or PLAYOUT_TOO_LONG (the state then stands at the decision
    that exceeded the bound, exactly as ``rt_apply`` leaves it).

    What ``play_card`` and ``capture`` do card by card is done here a trick at a time: a whole trick is one
    ``fast_trick`` (two copies: Droco leads, or it plays after the seats' draws), and the round's hands, captures, scores, voids and
    played set stay in locals from the first fast trick to the last (only played_at, which says who won, is
    written as the cards are played; the AI card's criteria are read once), so the compiler keeps them in
    registers or on its own stack instead of reloading the struct after every byte stored into it. A trick begun
    before the playout goes card by card first (``slow_trick``), and so do the tricks in which the length bound
    may be reached."""
    cdef uint64_t rng = rng_io[0]
    cdef int rnd = s.round, tc = colour_of(s.trump), p, winner, trick_no, leader, at, lead_rule, hangars
    cdef int last_d = 0, last_leader = 0, droco_card = 0
    cdef uint64_t tmask = colour_mask(tc), played
    cdef uint32_t voids = s.voids, fvoids, seat_cards = 0
    cdef int32_t score[NUM_SEATS]
    cdef int32_t fscore[NUM_SEATS]      # the fast tricks' own copies: nothing of theirs escapes to slow_trick
    cdef uint64_t h[4]
    cdef uint64_t up[NUM_SEATS]
    cdef uint64_t down[NUM_SEATS]
    cdef const DrocoPlan* plan = &cfg.plan[s.ai_card]
    if not hands_fit(s):
        return PLAYOUT_TOO_LONG
    for p in range(NUM_SEATS):
        score[p] = live_round_score(cfg, s, p)
    if s.trick_len != 0:
        winner = slow_trick(cfg, s, &rng, &n, max_len, &voids, score)
        s.voids = <uint16_t>voids
        if winner < 0:
            rng_io[0] = rng
            return PLAYOUT_TOO_LONG
        s.trick_len = 0
        s.leader = <uint8_t>winner
        s.trick_no += 1
    trick_no = s.trick_no
    leader = s.leader
    if trick_no < TRICKS_PER_ROUND and n + NUM_SEATS <= max_len:
        lead_rule = cfg.ai_lead[s.ai_card]
        hangars = cfg.hangars
        for p in range(4):
            h[p] = s.hand[p]
        for p in range(NUM_SEATS):
            up[p] = s.face_up[p]
            down[p] = s.face_down[p]
            fscore[p] = score[p]
        played = s.played
        fvoids = voids
        while trick_no < TRICKS_PER_ROUND and n + NUM_SEATS <= max_len:
            at = 1 + trick_no * 4
            last_d = DROCO_AT[rnd][leader]
            last_leader = leader
            if leader == DROCO:
                winner = fast_trick(cfg, s, h, SEATS[rnd][leader], 0, True, at, tc, tmask, lead_rule, hangars, plan,
                                    &fvoids, fscore, up, down, &played, &seat_cards, &droco_card, &rng, pdep)
            else:
                winner = fast_trick(cfg, s, h, SEATS[rnd][leader], last_d, False, at, tc, tmask, lead_rule, hangars,
                                    plan, &fvoids, fscore, up, down, &played, &seat_cards, &droco_card, &rng,
                                    pdep)
            n += NUM_SEATS
            leader = winner
            trick_no += 1
        for p in range(4):
            s.hand[p] = h[p]
        for p in range(NUM_SEATS):
            s.face_up[p] = up[p]
            s.face_down[p] = down[p]
            score[p] = fscore[p]
        s.played = played
        voids = fvoids
        # the last trick's cards and players stay in the struct (the loop ran at least once)
        rt_store4(s.trick_card, with_droco(seat_cards, last_d, <uint32_t>droco_card))
        rt_store4(s.trick_player, ORDER[rnd][last_leader])
    while trick_no < TRICKS_PER_ROUND:          # the length bound may be reached: card by card
        s.leader = <uint8_t>leader
        s.trick_no = <uint8_t>trick_no
        s.voids = <uint16_t>voids
        winner = slow_trick(cfg, s, &rng, &n, max_len, &voids, score)
        if winner < 0:
            s.voids = <uint16_t>voids
            rng_io[0] = rng
            return PLAYOUT_TOO_LONG
        s.trick_len = 0
        leader = winner
        trick_no += 1
    s.leader = <uint8_t>leader
    s.trick_no = <uint8_t>trick_no
    s.voids = <uint16_t>voids
    end_round_scored(cfg, s, score)       # the next round is dealt, or the game over
    rng_io[0] = rng
    return n


# -- the engine contract ----------------------------------------------------------------------------------------

cdef void rt_init(const void* c, void* st, uint64_t seed) noexcept nogil:
    cdef RTState* s = <RTState*>st
    memset(s, 0, sizeof(RTState))
    s.rng = rng_seed(seed)
    setup_round(<const RTConfig*>c, s)


cdef inline uint32_t rt_actors(const void* c, const void* st) noexcept nogil:
    cdef const RTState* s = <const RTState*>st
    cdef uint32_t bits = 0
    cdef int p
    if s.phase == PHASE_PASS:
        for p in range(NUM_SEATS):
            if s.pass_count[p] < PASS_CARDS:
                bits |= (<uint32_t>1) << p
        return bits
    if s.phase == PHASE_PLAY:
        return (<uint32_t>1) << to_play(s)
    return 0


cdef inline void rt_legal_mask(const void* c, const void* st, int seat, uint64_t* words) noexcept nogil:
    """Move generation. Pass phase: any card still in hand (ids 52..103). Play phase: the player to act must
    follow the led colour when able, else any card (ids 0..51)."""
    cdef const RTState* s = <const RTState*>st
    cdef uint64_t hand = s.hand[seat], follow
    words[0] = 0
    words[1] = 0
    if s.phase == PHASE_PASS:
        if s.pass_count[seat] < PASS_CARDS:
            words[0] = hand << PASS_BASE
            words[1] = hand >> (64 - PASS_BASE)
    elif s.phase == PHASE_PLAY and to_play(s) == seat:
        if s.trick_len > 0:
            follow = hand & colour_mask(colour_of(s.trick_card[0]))
            if follow:
                hand = follow
        words[0] = hand


cdef inline void rt_apply(const void* c, void* st, int seat, int action) noexcept nogil:
    cdef const RTConfig* cfg = <const RTConfig*>c
    cdef RTState* s = <RTState*>st
    if action >= PASS_BASE:
        pass_card(cfg, s, seat, action - PASS_BASE)
    else:
        play_card(cfg, s, seat, action)
        advance(cfg, s)


cdef inline void pass_card(const RTConfig* cfg, RTState* s, int seat, int card) noexcept nogil:
    """``seat`` chooses ``card`` for the pass; once every seat has chosen two, the choices go to their receivers
    (the seat on the left) and Droco leads the first trick."""
    cdef int p
    s.hand[seat] &= ~bit(card)
    s.passed[seat] |= bit(card)
    s.pass_count[seat] += 1
    if s.pass_count[0] < PASS_CARDS or s.pass_count[1] < PASS_CARDS or s.pass_count[2] < PASS_CARDS:
        return
    for p in range(NUM_SEATS):
        s.hand[(p + 1) % NUM_SEATS] |= s.passed[p]
    s.phase = PHASE_PLAY
    advance(cfg, s)


cdef int replay_round(const RTConfig* cfg, const uint8_t* played_at, int trick_no, int trump, int rnd,
                      uint64_t* up, uint64_t* down, uint16_t* voids) noexcept nogil:
    """Rebuild the first ``trick_no`` tricks of a round from its ``played_at`` (Droco leads the first, each
    winner the next): the captures (``up``/``down`` per seat) and voids they give. Returns the leader of the next
    trick. ``played_at`` must hold one card per player for each of those tricks (rt_validate checks it first)."""
    cdef int cards[4]
    cdef int players[4]
    cdef int t, i, p, card, winner, leader = DROCO, led
    cdef int trick_of_player[TRICKS_PER_ROUND][4]
    for p in range(NUM_SEATS):
        up[p] = 0
        down[p] = 0
    voids[0] = 0
    for card in range(NUM_CARDS):
        if played_at[card] and (played_at[card] - 1) // 4 < trick_no:
            trick_of_player[(played_at[card] - 1) // 4][(played_at[card] - 1) % 4] = card
    for t in range(trick_no):
        p = leader
        for i in range(4):
            players[i] = p
            cards[i] = trick_of_player[t][p]
            p = next_player(rnd, p)
        led = colour_of(cards[0])
        for i in range(1, 4):
            if players[i] != DROCO and colour_of(cards[i]) != led:
                voids[0] |= <uint16_t>(1 << (players[i] * 4 + led))
        winner = trick_winner_of(cards, players, 4, colour_of(trump))
        for i in range(4):
            if winner == DROCO:
                if players[i] != DROCO:
                    down[players[i]] |= bit(cards[i])
            elif players[i] == DROCO:
                if popcount(up[winner]) < cfg.hangars:
                    up[winner] |= bit(cards[i])
                else:
                    down[winner] |= bit(cards[i])
        leader = winner
    return leader


cdef int nonzero_bytes(const uint8_t* p, int n) noexcept nogil:
    """How many of ``p[0:n]`` are not zero, eight at a time (the high bit of each byte of
    ``((w & 0x7F..) + 0x7F..) | w`` is set exactly when that byte is not zero, whatever the byte order)."""
    cdef uint64_t w, low7 = <uint64_t>0x7F7F7F7F7F7F7F7FULL
    cdef int i = 0, count = 0
    while i + 8 <= n:
        memcpy(&w, p + i, 8)
        count += popcount((((w & low7) + low7) | w) & ~low7)
        i += 8
    while i < n:
        count += p[i] != 0
        i += 1
    return count


cdef int tricks_are_whole(const uint8_t* played_at, int trick_no) noexcept nogil:
    """1 when ``played_at`` points to tricks 0..trick_no only, each of the first ``trick_no`` holding exactly one
    card of each player; the cards of trick ``trick_no`` (the one in progress) are checked by the caller."""
    cdef uint8_t per_trick[TRICKS_PER_ROUND + 1][4]
    cdef int card, v, t, p
    memset(per_trick, 0, sizeof(per_trick))
    for card in range(NUM_CARDS):
        v = played_at[card]
        if v:
            t = (v - 1) // 4
            if t > trick_no or t >= TRICKS_PER_ROUND:
                return 0
            per_trick[t][(v - 1) % 4] += 1
    for t in range(trick_no):
        for p in range(4):
            if per_trick[t][p] != 1:
                return 0
    return 1


cdef int replays_consistently(const RTConfig* cfg, const RTState* s, int rnd) noexcept nogil:
    """1 when the round's completed tricks, rebuilt from ``played_at``, give exactly the recorded captures, voids
    and leader, and no seat marked void in a colour holds one; else 0."""
    cdef uint64_t up[NUM_SEATS]
    cdef uint64_t down[NUM_SEATS]
    cdef uint16_t voids
    cdef int i, p, led, leader
    leader = replay_round(cfg, s.played_at, s.trick_no, s.trump, rnd, up, down, &voids)
    if s.trick_len:
        led = colour_of(s.trick_card[0])
        for i in range(1, s.trick_len):
            if s.trick_player[i] != DROCO and colour_of(s.trick_card[i]) != led:
                voids |= <uint16_t>(1 << (s.trick_player[i] * 4 + led))
    if s.phase != PHASE_OVER and leader != s.leader:
        return 0
    if voids != s.voids:
        return 0
    for p in range(NUM_SEATS):
        for led in range(NUM_COLOURS):
            if (voids >> (p * 4 + led)) & 1 and s.hand[p] & colour_mask(led):
                return 0            # a seat that failed to follow a colour holds none of it
    for p in range(NUM_SEATS):
        if up[p] != s.face_up[p] or down[p] != s.face_down[p]:
            return 0
    return 1


cdef int stored_rounds(const RTState* s) noexcept nogil:
    """How many finished rounds ``past_played_at`` holds (the last round, once over, stays in ``played_at``)."""
    return s.round - 1 if s.phase == PHASE_OVER else s.round


cdef int past_round_is_consistent(const RTConfig* cfg, const RTState* s, int r) noexcept nogil:
    """A stored finished round: 12 whole tricks, the trump among the 4 cards not played, and the round's
    recorded scores the ones its captures give."""
    cdef uint64_t up[NUM_SEATS]
    cdef uint64_t down[NUM_SEATS]
    cdef uint16_t voids
    cdef int p, card, unplayed = 0
    if s.past_trump[r] >= NUM_CARDS or s.past_played_at[r][s.past_trump[r]] != 0:
        return 0
    if not tricks_are_whole(s.past_played_at[r], TRICKS_PER_ROUND):
        return 0
    for card in range(NUM_CARDS):
        unplayed += s.past_played_at[r][card] == 0
    if unplayed != NUM_CARDS - 4 * TRICKS_PER_ROUND:
        return 0
    replay_round(cfg, s.past_played_at[r], TRICKS_PER_ROUND, s.past_trump[r], r, up, down, &voids)
    for p in range(NUM_SEATS):
        if s.round_scores[r][p] != vp_sum(cfg, up[p]) - vp_sum(cfg, down[p]):
            return 0
    return 1


cdef int rt_validate(const void* c, const void* st) noexcept nogil:
    """0 when the state is one the engine can reach, else the number of the first broken invariant."""
    cdef const RTConfig* cfg = <const RTConfig*>c
    cdef const RTState* s = <const RTState*>st
    cdef uint64_t ALL = all_cards(), union_, seen
    cdef int p, r, i, total, v, pl, card
    cdef int in_trick[4]
    cdef int marked[4]
    if s.phase > PHASE_OVER:
        return 1
    if s.round > cfg.rounds or (s.phase == PHASE_OVER) != (s.round == cfg.rounds):
        return 2
    if s.ai_card >= cfg.num_ai or (s.ai_used >> cfg.num_ai) != 0 or not (s.ai_used >> s.ai_card) & 1:
        return 3
    if cfg.same_ai and popcount(s.ai_used) != 1:
        return 3
    if not cfg.same_ai and popcount(s.ai_used) != (s.round + 1 if s.phase != PHASE_OVER else s.round):
        return 3
    if s.trump >= NUM_CARDS or (s.voids >> 12) != 0:
        return 4
    for p in range(4):
        if s.hand[p] & ~ALL:
            return 5
    for p in range(NUM_SEATS):
        if (s.face_up[p] | s.face_down[p] | s.passed[p]) & ~ALL:
            return 5
    if (s.aside | s.played) & ~ALL or popcount(s.aside) != SET_ASIDE:
        return 5
    if s.trick_len > 3 or s.leader > DROCO or s.trick_no > TRICKS_PER_ROUND:
        return 6
    for i in range(s.trick_len):
        if s.trick_card[i] >= NUM_CARDS or s.trick_player[i] > DROCO:
            return 6
    for p in range(NUM_SEATS):
        if s.pass_count[p] > PASS_CARDS or popcount(s.passed[p]) != s.pass_count[p]:
            return 7
    for r in range(MAX_ROUNDS):
        for p in range(NUM_SEATS):
            if r >= s.round and s.round_scores[r][p] != 0:
                return 8
    # played_at agrees with the played set (as many marks as cards played, each on a played card), never points
    # to a future trick, and every completed trick holds exactly one card of each player
    if nonzero_bytes(s.played_at, NUM_CARDS) != popcount(s.played):
        return 9
    seen = s.played
    while seen:
        if s.played_at[lowest_bit(seen)] == 0:
            return 9
        seen &= seen - 1
    if s.played and not tricks_are_whole(s.played_at, s.trick_no):
        return 9
    # the finished rounds kept for the views, and nothing for the others
    for i in range(6):
        if s.pad[i]:
            return 22
    for r in range(2):
        if r < stored_rounds(s):
            if not past_round_is_consistent(cfg, s, r):
                return 22
        elif s.past_trump[r] or nonzero_bytes(s.past_played_at[r], NUM_CARDS):
            return 22
    # every card in exactly one place
    union_ = bit(s.trump) | s.aside | s.played
    total = 1 + SET_ASIDE + popcount(s.played)
    for p in range(4):
        union_ |= s.hand[p]
        total += popcount(s.hand[p])
    if s.phase == PHASE_PASS:
        for p in range(NUM_SEATS):
            union_ |= s.passed[p]
            total += popcount(s.passed[p])
    if union_ != ALL or total != NUM_CARDS:
        return 10
    if s.phase == PHASE_PASS:
        if s.played or s.trick_len or s.trick_no or s.leader != DROCO or s.voids:
            return 11
        for p in range(NUM_SEATS):
            if s.face_up[p] or s.face_down[p]:
                return 11
            if popcount(s.hand[p]) + s.pass_count[p] != HAND_SIZE:
                return 12
        if popcount(s.hand[DROCO]) != HAND_SIZE:
            return 12
        if s.pass_count[0] == PASS_CARDS and s.pass_count[1] == PASS_CARDS and s.pass_count[2] == PASS_CARDS:
            return 13
        return 0
    for p in range(NUM_SEATS):
        if s.pass_count[p] != PASS_CARDS:
            return 14
        if s.passed[p] & ~(s.hand[(p + 1) % NUM_SEATS] | s.played):
            return 14
        if popcount(s.face_up[p]) > cfg.hangars or (s.face_up[p] | s.face_down[p]) & ~s.played:
            return 15
    seen = 0
    for p in range(NUM_SEATS):
        if (s.face_up[p] | s.face_down[p]) & seen or s.face_up[p] & s.face_down[p]:
            return 15
        seen |= s.face_up[p] | s.face_down[p]
    if s.phase == PHASE_OVER:
        if s.trick_len or s.trick_no != TRICKS_PER_ROUND:
            return 16
        for p in range(4):
            if s.hand[p]:
                return 16
        return 0 if replays_consistently(cfg, s, s.round - 1) else 21
    if s.trick_no >= TRICKS_PER_ROUND:
        return 17
    # the trick in progress follows the seating from its leader, and is what played_at says
    pl = s.leader
    for p in range(4):
        in_trick[p] = 0
    for i in range(s.trick_len):
        if s.trick_player[i] != pl:
            return 18
        card = s.trick_card[i]
        if s.played_at[card] != 1 + s.trick_no * 4 + pl:
            return 18
        in_trick[pl] = 1
        pl = next_player(s.round, pl)
    if pl == DROCO:
        return 19
    for p in range(4):
        marked[p] = 0
    for card in range(NUM_CARDS):         # and no other card is marked as played in the trick in progress
        v = s.played_at[card]
        if v and (v - 1) // 4 == s.trick_no:
            marked[(v - 1) % 4] += 1
    for p in range(4):
        if marked[p] != in_trick[p]:
            return 18
    for p in range(4):
        if popcount(s.hand[p]) != HAND_SIZE - s.trick_no - in_trick[p]:
            return 20
    # the captures, voids and leader are what the tricks played give
    if not replays_consistently(cfg, s, s.round):
        return 21
    return 0


cdef int64_t rt_playout(const void* c, void* st, uint64_t* rng_io, int64_t max_len) noexcept nogil:
    """``random_playout_loop`` for Robotrick: the same draws in the same order, so the same end states (the
    conformance suite compares the two). Its body is compiled twice, for BMI2 (PDEP inlined in every draw) and
    for the baseline, and the copy is chosen here once per playout (bits.h)."""
    if fast_pdep:
        return playout_bmi2(c, st, rng_io, max_len)
    return playout_portable(c, st, rng_io, max_len)


cdef bmi2_int64 playout_bmi2(const void* c, void* st, uint64_t* rng_io, int64_t max_len) noexcept nogil:
    return playout_by(c, st, rng_io, max_len, True)


cdef int64_t playout_portable(const void* c, void* st, uint64_t* rng_io, int64_t max_len) noexcept nogil:
    return playout_by(c, st, rng_io, max_len, False)


cdef inline forced_inline_i64 playout_by(const void* c, void* st, uint64_t* rng_io, int64_t max_len,
                                         bint pdep) noexcept nogil:
    """The playout, with the play phase in ``play_round``. The pass: seat 0 chooses until it has chosen two
    cards, then seat 1, then seat 2 (the lowest acting seat first); once all six are chosen the cards go to their
    receivers and ``play_round`` starts with Droco's lead (``pass_card``'s ``advance``)."""
    cdef const RTConfig* cfg = <const RTConfig*>c
    cdef RTState* s = <RTState*>st
    cdef int64_t n = 0
    cdef int seat, cnt, card
    cdef uint64_t hand, rng
    while True:
        if s.phase == PHASE_PLAY:
            n = play_round(cfg, s, rng_io, n, max_len, pdep)
            if n < 0:
                return n
        elif s.phase == PHASE_PASS:
            rng = rng_io[0]
            for seat in range(NUM_SEATS):
                while s.pass_count[seat] < PASS_CARDS:
                    hand = s.hand[seat]
                    cnt = popcount(hand)
                    if n >= max_len or cnt == 0:
                        rng_io[0] = rng
                        return PLAYOUT_TOO_LONG
                    card = kth_card_by(hand, <int>rng_below(&rng, <uint32_t>cnt), pdep)
                    s.hand[seat] = hand & ~bit(card)
                    s.passed[seat] |= bit(card)
                    s.pass_count[seat] += 1
                    n += 1
            rng_io[0] = rng
            for seat in range(NUM_SEATS):
                s.hand[(seat + 1) % NUM_SEATS] |= s.passed[seat]
            s.phase = PHASE_PLAY
        else:
            return n


cdef EngineSpec SPEC
SPEC.state_size = sizeof(RTState)
SPEC.num_actions = NUM_ACTIONS
SPEC.num_seats = NUM_SEATS
SPEC.init = rt_init
SPEC.actors = rt_actors
SPEC.legal_mask = rt_legal_mask
SPEC.apply = rt_apply
SPEC.scores = rt_scores
SPEC.rank_keys = rt_rank_keys
SPEC.validate = rt_validate
SPEC.playout = rt_playout


STATE_SIZE = sizeof(RTState)
LEAD_RULE_COUNT = NUM_LEAD_RULES
FOLLOW_RULE_COUNT = NUM_FOLLOW_RULES
DISCARD_RULE_COUNT = NUM_DISCARD_RULES
MAX_AI = MAX_AI_CARDS


def make_core(vp, ai_rules, int hangars, bint same_ai, int rounds) -> GameCore:
    """Compile content and parameters (already validated by the Python layer) into a bound GameCore.

    ``vp``: 52 ints; ``ai_rules``: (lead, follow, discard) rule numbers per AI card.
    """
    cdef RTConfig cfg
    cdef int i
    memset(&cfg, 0, sizeof(RTConfig))
    if len(vp) != NUM_CARDS or not 1 <= len(ai_rules) <= MAX_AI_CARDS:
        raise ValueError("content has the wrong shape")
    if not 1 <= rounds <= MAX_ROUNDS or not (same_ai or len(ai_rules) >= rounds):
        raise ValueError("not enough AI cards for the rounds")
    for i in range(NUM_CARDS):
        if not -100 <= vp[i] <= 100:
            raise ValueError("VP values must be within [-100, 100]")
        cfg.vp[i] = <int8_t>vp[i]
    for i, (lead, follow, discard) in enumerate(ai_rules):
        if not (0 <= lead < NUM_LEAD_RULES and 0 <= follow < NUM_FOLLOW_RULES and 0 <= discard < NUM_DISCARD_RULES):
            raise ValueError("unknown AI rule")
        cfg.ai_lead[i] = lead
        cfg.ai_follow[i] = follow
        cfg.ai_discard[i] = discard
        cfg.plan[i] = make_plan(follow, discard)
    cfg.num_ai = len(ai_rules)
    if not 0 <= hangars <= HAND_SIZE:
        raise ValueError("hangars must be within [0, 12]")
    cfg.hangars = hangars
    cfg.same_ai = same_ai
    cfg.rounds = rounds
    core = GameCore()
    from robotcore.games.robotrick.view import NATIVE_HOOKS    # view.pyx cimports this module: read at make time
    take_native_hooks(&SPEC, NATIVE_HOOKS)
    core.bind(&SPEC, &cfg, sizeof(RTConfig))
    return core


def droco_card(GameCore core, const uint8_t[::1] raw) -> int:
    """The card Droco would play now (for tests and tools); -1 when it is not Droco's decision."""
    cdef const RTState* s
    if raw.shape[0] != sizeof(RTState) or rt_validate(core.cfg, &raw[0]) != 0:
        raise ValueError("not a valid Robotrick state")
    s = <const RTState*>&raw[0]
    if s.phase != PHASE_PLAY or s.hand[DROCO] == 0:
        return -1
    return droco_choose(<const RTConfig*>core.cfg, s)


def droco_choice(GameCore core, uint64_t droco_hand, trick_cards, trick_players, int trump, int ai_card) -> int:
    """Droco's card for a hand and a trick in progress, outside any game (for rule tests and RULES.md)."""
    cdef RTState s
    cdef int i
    memset(&s, 0, sizeof(RTState))
    if droco_hand == 0 or droco_hand & ~all_cards() or not 0 <= trump < NUM_CARDS:
        raise ValueError("bad hand or trump")
    if not 0 <= ai_card < (<const RTConfig*>core.cfg).num_ai or len(trick_cards) > 3:
        raise ValueError("bad AI card or trick")
    if len(trick_players) != len(trick_cards):
        raise ValueError("one player per trick card")
    s.hand[DROCO] = droco_hand
    s.trump = trump
    s.ai_card = ai_card
    s.trick_len = len(trick_cards)
    for i in range(s.trick_len):
        if not 0 <= trick_cards[i] < NUM_CARDS:
            raise ValueError("bad trick card")
        s.trick_card[i] = trick_cards[i]
        s.trick_player[i] = trick_players[i]
    return droco_choose(<const RTConfig*>core.cfg, &s)


# -- raw access for tests and tools (in-process only: this is the omniscient struct) ----------------------------

_FIELDS_1 = ("rng", "aside", "played", "ai_used", "voids", "trick_len", "trick_no", "leader", "trump", "round",
             "phase", "ai_card")


def unpack_state(const uint8_t[::1] raw) -> dict:
    """Every field of the struct as Python values (hands and sets as int bitsets)."""
    cdef RTState s
    if raw.shape[0] != sizeof(RTState):
        raise ValueError(f"a Robotrick state is {sizeof(RTState)} bytes")
    memcpy(&s, &raw[0], sizeof(RTState))
    return {
        "rng": s.rng,
        "hand": [s.hand[i] for i in range(4)],
        "face_up": [s.face_up[i] for i in range(3)],
        "face_down": [s.face_down[i] for i in range(3)],
        "passed": [s.passed[i] for i in range(3)],
        "aside": s.aside,
        "played": s.played,
        "round_scores": [[s.round_scores[r][p] for p in range(3)] for r in range(3)],
        "ai_used": s.ai_used,
        "voids": s.voids,
        "played_at": [s.played_at[i] for i in range(NUM_CARDS)],
        "past_played_at": [[s.past_played_at[r][i] for i in range(NUM_CARDS)] for r in range(2)],
        "past_trump": [s.past_trump[r] for r in range(2)],
        "trick_card": [s.trick_card[i] for i in range(4)],
        "trick_player": [s.trick_player[i] for i in range(4)],
        "trick_len": s.trick_len,
        "trick_no": s.trick_no,
        "leader": s.leader,
        "trump": s.trump,
        "round": s.round,
        "phase": s.phase,
        "ai_card": s.ai_card,
        "pass_count": [s.pass_count[i] for i in range(3)],
    }


def pack_state(dict f) -> bytes:
    """Inverse of ``unpack_state`` (no validation here: build a State with ``Game.state_from_row``)."""
    cdef RTState s
    cdef int i, r
    memset(&s, 0, sizeof(RTState))
    s.rng = f["rng"]
    for i in range(4):
        s.hand[i] = f["hand"][i]
        s.trick_card[i] = f["trick_card"][i]
        s.trick_player[i] = f["trick_player"][i]
    for i in range(3):
        s.face_up[i] = f["face_up"][i]
        s.face_down[i] = f["face_down"][i]
        s.passed[i] = f["passed"][i]
        s.pass_count[i] = f["pass_count"][i]
        for r in range(3):
            s.round_scores[r][i] = f["round_scores"][r][i]
    for i in range(NUM_CARDS):
        s.played_at[i] = f["played_at"][i]
        for r in range(2):
            s.past_played_at[r][i] = f["past_played_at"][r][i]
    for r in range(2):
        s.past_trump[r] = f["past_trump"][r]
    s.aside = f["aside"]
    s.played = f["played"]
    s.ai_used = f["ai_used"]
    s.voids = f["voids"]
    s.trick_len = f["trick_len"]
    s.trick_no = f["trick_no"]
    s.leader = f["leader"]
    s.trump = f["trump"]
    s.round = f["round"]
    s.phase = f["phase"]
    s.ai_card = f["ai_card"]
    return (<char*>&s)[:sizeof(RTState)]


def trick_winner(cards, players, int trump_card) -> int:
    """Winner (player index, 3 = Droco) of a complete or partial trick given in play order."""
    cdef int c[4]
    cdef int p[4]
    cdef int i, n = len(cards)
    if not 1 <= n <= 4 or len(players) != n or not 0 <= trump_card < NUM_CARDS:
        raise ValueError("a trick is 1 to 4 (card, player) pairs")
    for i in range(n):
        if not 0 <= cards[i] < NUM_CARDS:
            raise ValueError("card ids are 0..51")
        c[i] = cards[i]
        p[i] = players[i]
    return trick_winner_of(c, p, n, colour_of(trump_card))


def seating(int rnd) -> list:
    """Clockwise order of the table in round ``rnd`` (0-based), starting at seat 0; Droco is 3."""
    if not 0 <= rnd < MAX_ROUNDS:
        raise ValueError(f"rounds are 0..{MAX_ROUNDS - 1}")
    out = [0]
    p = next_player(rnd, 0)
    while p != 0:
        out.append(p)
        p = next_player(rnd, p)
    return out
