# cython: language_level=3
"""Robotrick's packed state and compiled config (the C layout; RULES.md explains the rules).

Cards are ids 0..51: ``colour * 13 + (strength - 1)``, colours Red, Green, Orange, Blue; a set of cards is a
uint64 bitset, so within a colour a higher bit is a stronger card. Players are 0..2 (the seats) and 3 (Droco,
the automaton, which is not a seat).

Fields are ordered largest first so the layout has no padding differences between compilers.
"""

from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint64_t

cdef enum:
    NUM_CARDS = 52
    NUM_COLOURS = 4
    NUM_STRENGTHS = 13
    NUM_SEATS = 3
    DROCO = 3                 # player index of the automaton
    NUM_PLAYERS_AT_TABLE = 4  # 3 seats + Droco
    HAND_SIZE = 12
    TRICKS_PER_ROUND = 12
    PASS_CARDS = 2
    SET_ASIDE = 3
    MAX_ROUNDS = 3
    MAX_AI_CARDS = 16
    PLAY_BASE = 0             # action PLAY_BASE + card: play that card
    PASS_BASE = 52            # action PASS_BASE + card: choose that card for the pass
    NUM_ACTIONS = 104
    ACTIONS_PER_ROUND = 42    # 3 seats x 2 pass choices + 12 tricks x 3 seats

cdef enum Phase:
    PHASE_PASS = 0
    PHASE_PLAY = 1
    PHASE_OVER = 2

# Droco's criteria (RULES.md "The AI cards" defines each one exactly).
cdef enum LeadRule:
    LEAD_HIGHEST = 0
    LEAD_LOWEST = 1
    LEAD_HIGHEST_OF_LONGEST = 2
    LEAD_LOWEST_OF_SHORTEST = 3
    LEAD_HIGHEST_TRUMP = 4
    LEAD_LOWEST_TRUMP = 5
    LEAD_HIGHEST_NON_TRUMP = 6
    LEAD_LOWEST_NON_TRUMP = 7
    NUM_LEAD_RULES = 8

cdef enum FollowRule:
    FOLLOW_HIGHEST = 0
    FOLLOW_LOWEST = 1
    FOLLOW_CHEAPEST_WIN = 2
    FOLLOW_HIGHEST_IF_WIN = 3
    FOLLOW_DUCK = 4
    NUM_FOLLOW_RULES = 5

cdef enum DiscardRule:
    DISCARD_LOWEST = 0
    DISCARD_HIGHEST = 1
    DISCARD_CHEAPEST_TRUMP_WIN = 2
    DISCARD_HIGHEST_TRUMP = 3
    DISCARD_LOWEST_NON_TRUMP = 4
    DISCARD_HIGHEST_NON_TRUMP = 5
    NUM_DISCARD_RULES = 6


ctypedef struct RTState:
    uint64_t rng                 # the PRNG counter (hidden from every seat)
    uint64_t hand[4]             # seats 0..2 and Droco
    uint64_t face_up[3]          # captures in the hangars (count positive)
    uint64_t face_down[3]        # captures face down (count negative)
    uint64_t passed[3]           # cards seat i chose for seat i+1 (pending in the pass phase, then given)
    uint64_t aside               # the 3 cards set aside unseen this round
    uint64_t played              # every card played this round
    int16_t round_scores[3][3]   # [round][seat] scores of finished rounds
    uint16_t ai_used             # AI cards revealed so far (bit i: AI card i)
    uint16_t voids               # bit seat*4+colour: the seat failed to follow that colour this round
    uint8_t played_at[52]        # 0: not played this round; else 1 + trick*4 + player
    uint8_t past_played_at[2][52]  # played_at of rounds 1 and 2 once over (the last round's stays in played_at),
                                   # from which views show how each round ended; zero for rounds not finished
    uint8_t past_trump[2]        # the trump card of rounds 1 and 2 once over
    uint8_t trick_card[4]        # the trick in progress, in play order
    uint8_t trick_player[4]
    uint8_t trick_len            # cards in the trick in progress (0..3)
    uint8_t trick_no             # tricks completed this round (0..12)
    uint8_t leader               # player who leads the trick in progress
    uint8_t trump                # card id of the revealed trump card
    uint8_t round                # 0-based; equals the number of rounds when the game is over
    uint8_t phase
    uint8_t ai_card              # AI card in play this round
    uint8_t pass_count[3]        # cards each seat has chosen for the pass
    uint8_t pad[6]               # always zero: the struct is a whole number of 8-byte words


ctypedef struct DrocoPlan:
    # An AI card's follow and discard criteria as masks (each all ones or zero), so that Droco's card after the
    # lead is computed by the same few instructions for every criterion (``droco_follow_plan``): the set P it
    # prefers is the union of the sets whose masks are set, its card P's highest when ``*_high`` is set, else
    # its lowest, and when P is empty the lowest card of the fallback set.
    uint64_t f_all               # following: P is the whole led-colour set
    uint64_t f_win               # ... the led-colour cards that beat the best so far
    uint64_t f_duck              # ... those that do not
    uint64_t f_gate              # ... the whole set, but only when one of its cards wins
    uint64_t f_high
    uint64_t d_hand              # discarding: P is the hand
    uint64_t d_trump_win         # ... the trumps that beat the best so far
    uint64_t d_trumps
    uint64_t d_others            # ... the non-trumps
    uint64_t d_others_first      # the fallback is the non-trumps when there are any (else the hand)
    uint64_t d_high


ctypedef struct RTConfig:
    int8_t vp[52]                # victory points of each card
    uint8_t ai_lead[16]
    uint8_t ai_follow[16]
    uint8_t ai_discard[16]
    uint8_t num_ai
    uint8_t hangars              # face-up captures allowed per seat per round
    uint8_t same_ai              # variant: one AI card for the whole game
    uint8_t rounds
    DrocoPlan plan[MAX_AI_CARDS]         # per AI card, from ai_follow and ai_discard (``make_core``)


cdef inline int colour_of(int card) noexcept nogil:
    return <unsigned>card // NUM_STRENGTHS      # card ids are never negative: unsigned division is cheaper


cdef inline int strength_of(int card) noexcept nogil:
    """1..13"""
    return <unsigned>card % NUM_STRENGTHS + 1


cdef inline uint64_t colour_mask(int colour) noexcept nogil:
    return (<uint64_t>0x1FFF) << (NUM_STRENGTHS * colour)


cdef inline uint64_t all_cards() noexcept nogil:
    return ((<uint64_t>1) << NUM_CARDS) - 1
