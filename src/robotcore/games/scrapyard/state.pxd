# cython: language_level=3
"""Scrapyard's packed state and compiled config (the C layout; RULES.md explains the rules).

Cards are the deck's cards, ids 0..ncards-1 (advanced Structures first, then Upgrades, in content order); a set
of cards is two uint64 words (``CardSet``). The Merchant's standard Structures are not cards: a robot slot holds
``STANDARD``. Seats are 0..n-1 clockwise; the left neighbour of seat i is seat i+1.

The draft is recorded card by card (``day_card``/``day_fate``): for every card dealt today, the hand it was dealt
in ("track" = the seat it was dealt to) and when and how it left its hand. With the public facts (who broke at
which pass, the direction of the day) this fixes who held which hand at every pass, so every seat's perfect
recall, the hands and the Reserves are all derived from it (``sy_validate`` checks the stored bitsets agree).

Fields are ordered largest first so the layout has no padding differences between compilers.
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t

cdef enum:
    MAX_P = 4                 # seats
    MAX_CARDS = 128
    HAND_SIZE = 7             # cards dealt to each seat every day
    MAX_DEALT = 28            # MAX_P * HAND_SIZE: slots of the day's draft record
    MAX_WB = 4                # workbenches (the parameter is 1..4)
    MAX_SLOTS = 4             # Upgrade slots of one Structure
    NUM_TYPES = 4             # head, body, arms, legs
    NUM_RES = 4               # mech, motor, elec, energy
    NUM_FAMILIES = 5
    DAYS = 6                  # the seed's game (the ``days`` parameter may shorten it)
    NO_CARD = 0xFF
    STANDARD = 0xFE           # a robot slot holding the Merchant's standard Structure
    NOT_BROKEN = 0xFF         # broke_at of a seat still scavenging
    NO_PENDING = 0xFFFF
    HOURS_MAX = 7
    WASTE_CAP = 12
    ZONE_BASE = 5             # capacity of each resource zone (M+O, E+N) ...
    ZONE_EXT = 5              # ... plus this with its extension
    EXCHANGE_COST = 5
    SUBCONTRACT_COST = 4
    EXPAND_COST = 3
    BUY_COST = 6
    MAX_REP = 3               # cubes of one resource on a REP column (a Repair places 0..3 of each)
    MAX_EXCESS = 7            # cubes over capacity in one zone (content keeps every gain within it)
    REPAIR_CODES = 255        # (m, o, e, n) in 0..3 each, not all zero: m + 4o + 16e + 64n - 1
    ZONE_PAIRS = 36           # (a, b) with a + b <= 7: discards of one zone
    OVERFLOW_CODES = 1295     # ZONE_PAIRS ** 2 - 1 (not both zones zero)
    FATE_KEPT = 0x10          # day_fate: kept (into the Reserve) at pass (fate & 15)
    FATE_BROKEN = 0x20        # day_fate: discarded by a break at pass (fate & 15); 0 = still in a hand
    MAX_STEPS = 8             # passes in a day (7 cards: 7 keeps, then the break of an empty hand)

cdef enum Kind:
    KIND_STRUCTURE = 0
    KIND_UPGRADE = 1

cdef enum Family:
    F_SOFTWARE = 0
    F_SHIELD = 1
    F_WEAPON = 2
    F_MOVEMENT = 3
    F_BOOST = 4

cdef enum:
    TARGET_SELF = 4           # Boost target: the Structure that carries it

cdef enum Phase:
    PH_DELIVERY = 0           # overflow choices after the dice (only when someone must choose)
    PH_DRAFT = 1
    PH_PURCHASE = 2
    PH_WORKSHOP = 3
    PH_OVER = 4


# One seat's hand, workshop, stock and robot. Also the type of the public snapshot (``pub``).
ctypedef struct Player:
    uint64_t hand[2]                  # draft: the hand held now; workshop: the revealed Reserve left in hand
    uint8_t bench[MAX_WB]             # card on each workbench, or NO_CARD
    uint8_t bench_rep[MAX_WB][NUM_RES]  # cubes placed on the REP column of each workbench card
    uint8_t structure[NUM_TYPES]      # NO_CARD, STANDARD or an advanced Structure card
    uint8_t up[NUM_TYPES][MAX_SLOTS]  # Upgrades assembled on each Structure (first nup[t] entries)
    uint8_t nup[NUM_TYPES]
    uint8_t res[NUM_RES]              # stock (may exceed capacity only while an overflow choice is pending)
    uint8_t waste
    uint8_t hours
    uint8_t ext                       # bit 0: left extension (M+O zone), bit 1: right extension (E+N zone)
    uint8_t spare[5]                  # always 0 (explicit padding: 72 bytes)


ctypedef struct SYState:
    uint64_t rng                      # the PRNG counter (hidden from every seat)
    uint64_t deck[2]                  # the draw pile, as a set: each draw is a uniform card of it
    uint64_t disc[2]                  # the discard pile
    uint64_t disc_pub[2]              # cards of the discard pile everybody saw go there (since the last reshuffle)
    uint64_t priv_disc[MAX_P][2]      # cards of the discard pile seat p knows are there (its own breaks and
                                      # deductions, its own workshop discards), since the last reshuffle
    uint64_t reserve[MAX_P][2]        # today's Reserves (face down until the workshop)
    Player pl[MAX_P]                  # the live position of every seat
    Player pub[MAX_P]                 # workshop only: each seat as revealed at the start of the workshop (with
                                      # open_workshop=0, what the others see until every seat is done)
    uint16_t pending[MAX_P]           # hidden commitment (an action id) of a simultaneous phase, or NO_PENDING
    uint8_t day_card[MAX_DEALT]       # slot t*7+j: the j-th card dealt to seat t today
    uint8_t day_fate[MAX_DEALT]       # 0 in a hand, FATE_KEPT|pass, FATE_BROKEN|pass
    uint8_t dealt[MAX_P]              # cards dealt to each seat today
    uint8_t broke_at[MAX_P]           # pass at which each seat broke today, NOT_BROKEN
    uint8_t dice[NUM_RES]             # today's roll (what each seat gained)
    uint8_t day                       # 0-based; DAYS when the game is over
    uint8_t phase
    uint8_t step                      # draft passes resolved today
    uint8_t done                      # workshop: bit p = seat p has finished for today
    uint8_t worked[MAX_P]             # closed workshop: actions each seat has taken since the reveal, "done"
                                      # aside (public: the table sees a seat work, not what it does); else 0
    uint8_t spare[4]                  # always 0 (explicit padding: 848 bytes)


ctypedef struct SYConfig:
    uint64_t structures[2]            # the card ids that are Structures
    uint8_t kind[MAX_CARDS]
    uint8_t stype[MAX_CARDS]          # Structure: its type
    uint8_t vp[MAX_CARDS]             # Structure: VP
    uint8_t slots[MAX_CARDS]          # Structure: Upgrade slots
    uint8_t bonus[MAX_CARDS]          # Structure: storage bonus resource, or NO_CARD
    uint8_t family[MAX_CARDS]         # Upgrade
    uint8_t x[MAX_CARDS]              # Upgrade: X
    uint8_t target[MAX_CARDS]         # Boost: a type or TARGET_SELF
    uint8_t fits[MAX_CARDS]           # Upgrade: bit t = fits a Structure of type t
    uint8_t rep[MAX_CARDS][NUM_RES]
    uint8_t dem[MAX_CARDS][NUM_RES]
    uint8_t dice[NUM_RES][6]
    int32_t num_actions
    # action id layout (state.pxd documents the meaning of each block; engine.pyx computes the offsets)
    int32_t a_keep, a_break, a_buy, a_nobuy, a_place, a_discard, a_assemble, a_dismantle, a_repair
    int32_t a_exchange, a_subcontract, a_expand, a_clean, a_done, a_overflow
    uint8_t ncards
    uint8_t nseats
    uint8_t nbench
    uint8_t std_vp
    uint8_t std_slots
    uint8_t days                      # days in a game (the seed plays 6)
    uint8_t open_workshop             # 1: workshop actions are seen as they happen (the seed); 0: hidden until
                                      # every seat is done (the others see the position revealed at its start)
    uint8_t spare[1]


cdef inline bint cs_has(const uint64_t* s, int c) noexcept nogil:
    return (s[c >> 6] >> (c & 63)) & 1


cdef inline void cs_add(uint64_t* s, int c) noexcept nogil:
    s[c >> 6] |= (<uint64_t>1) << (c & 63)


cdef inline void cs_del(uint64_t* s, int c) noexcept nogil:
    s[c >> 6] &= ~((<uint64_t>1) << (c & 63))


cdef inline void broken_today(int nseats, const SYState* s, uint64_t* out) noexcept nogil:
    """The card set of today's broken cards: every dealt slot whose fate is a break."""
    cdef int t, k
    out[0] = 0
    out[1] = 0
    for t in range(nseats):
        for k in range(s.dealt[t]):
            if s.day_fate[t * HAND_SIZE + k] & FATE_BROKEN:
                cs_add(out, s.day_card[t * HAND_SIZE + k])
