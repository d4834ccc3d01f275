# cython: language_level=3
"""Nicodemus's packed state and compiled config (the C layout; RULES.md explains the rules).

Machines are identified by their *type* (0..num_types-1, B1..Y2 in the default content): copies of a type are
indistinguishable, so hands, discards and set-aside piles are counts per type and the deck is an array of types
(its top is ``deck[deck_n - 1]``). Projects are ids 0..num_projects-1; a set of projects is a uint32 bitset.
Resources are indexed 0 charcoalium, 1 wood, 2 copper, 3 crystal; what the reserve holds is the supply minus
what the players hold minus the charcoalium lying on bric-a-brac machines (never stored, always derived).

Fields are ordered largest first so the layout has no padding differences between compilers.
"""

from libc.stdint cimport int16_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    NUM_SEATS = 2
    MAX_TYPES = 16
    MAX_PROJECTS = 24
    MAX_CARDS = 64
    HAND_SIZE = 5
    TABLE_SLOTS = 10          # the bric-a-brac: 2 rows of 5
    ROW = 5
    WORKSHOP_MAX = 4          # 3 between turns, plus the machine repaired this turn
    MAX_REQ = 4               # machines a project sets aside, at most
    NO_CARD = 0xFF
    NUM_ALLOCS = 20           # multisets of 0..3 joker reductions over wood, copper, crystal

cdef enum:
    COAL = 0
    WOOD = 1
    COPPER = 2
    CRYSTAL = 3
    JOKER = 4                 # a production zone only: wood, copper or crystal at the owner's choice

cdef enum:
    BLUE = 0
    PURPLE = 1
    RED = 2
    YELLOW = 3

# What a machine's effect does (RULES.md, "The sixteen machines"); each machine type names one.
cdef enum:
    FX_PRODUCE = 0            # B1-B5: 1 unit of its production per bric-a-brac machine with that production
    FX_DISCARD_HAND = 1       # P1: discard a machine from hand, take 2 cubes of its cost
    FX_DISCARD_BACK_3 = 2     # P2: discard 1 of the 3 machines before, take 1 cube of its cost
    FX_DISCARD_BACK_2 = 3     # P3: discard 1 of the 2 machines before, take 1 cube of its cost and 1 charcoalium
    FX_EXCHANGE = 4           # P4: up to 3 exchanges charcoalium <-> resource with the reserve
    FX_DISCARD_PREVIOUS = 5   # P5: discard the machine just before, take 2 cubes of its cost
    FX_STEAL_COAL = 6         # R1: steal 1 charcoalium and 1 random machine from hand
    FX_STEAL_RESOURCE = 7     # R2: steal 1 chosen resource and 1 random machine from hand
    FX_STRIP = 8              # R3: the opponent discards at random down to 2 machines and returns 2 charcoalium
    FX_RETURN = 9             # R4: the opponent returns 2 resources of your choice
    FX_PROJECT = 10           # Y1: draw 2 unused projects, keep 1 as a private project
    FX_COPY = 11              # Y2: copy the effect of another bric-a-brac machine
    NUM_EFFECTS = 12

cdef enum:
    PK_COLOUR = 0             # machines of the required colours
    PK_VP = 1                 # machines worth the required victory points
    PK_PRODUCTION = 2         # machines whose production zones show the required resources (jokers never count)
    PK_IDENTICAL = 3          # machines all of the same type

cdef enum:
    SHARE_ALL = 0             # a machine may count for several projects completed in the same turn (BGA)
    SHARE_REPAIRED = 1        # only the machine just repaired may count for several
    SHARE_NONE = 2            # every machine counts for one project at most

cdef enum:
    USE_COAL = 0              # gain charcoalium equal to its VP
    USE_PRODUCE = 1           # gain one unit of its production
    USE_EFFECT = 2            # apply its effect

# Who must decide what (the current player always decides; sub-prompts resolve one effect or the projects).
cdef enum:
    PH_MAIN = 0               # play a machine, repair one, or (stuck) draw
    PH_CHOOSE_RES = 1         # choose wood, copper or crystal to gain ctx_qty of it (a joker production)
    PH_TAKE_COST1 = 2         # take 1 cube of the discarded machine's repair cost
    PH_TAKE_COST2 = 3         # take 2 cubes of the discarded machine's repair cost
    PH_DISCARD_HAND = 4       # P1: which machine of your hand to discard
    PH_DISCARD_SLOT = 5       # P2/P3: which earlier bric-a-brac machine to discard
    PH_EXCHANGE = 6           # P4: the next exchange, or stop
    PH_STEAL = 7              # R2: which resource to steal
    PH_RETURN = 8             # R4: which resources the opponent returns
    PH_KEEP = 9               # Y1: which drawn project to keep
    PH_COPY = 10              # Y2: which machine's effect to copy
    PH_PROJECTS = 11          # after a repair: complete a project, or stop
    PH_OVER = 12
    NUM_PHASES = 13


ctypedef struct NMState:
    uint64_t rng                       # the PRNG counter (hidden from every seat)
    uint32_t proj_public               # public projects still available
    uint32_t proj_private[2]           # private projects (drawn by Y1, face up in the workshop)
    uint32_t proj_done[2]              # projects completed by each seat
    uint32_t proj_removed[2]           # projects removed from the game by seat p's Y1 (seen by p only)
    int16_t score[2]
    uint16_t turn                      # turns completed
    uint8_t deck[MAX_CARDS]            # machine types; top = deck[deck_n - 1]
    uint8_t hand[2][MAX_TYPES]         # machines in hand, per type
    uint8_t known[2][MAX_TYPES]        # known[s]: machines s knows are in the opponent's hand or in hdisc[s]
    uint8_t hdisc[2][MAX_TYPES]        # hdisc[s]: discarded from the opponent's hand at random (R3 by s), unseen by s
    uint8_t sure[2][MAX_TYPES]         # sure[s] <= known[s]: of those, the machines s knows are in the hand itself
                                       # (taken since s's last R3, which may have discarded the others)
    uint8_t aside[2][MAX_TYPES]        # machines each seat set aside (projects, workshop limit)
    uint8_t discard[MAX_TYPES]         # public discards (bric-a-brac overflow and effects, P1's hand discard)
    uint8_t table[TABLE_SLOTS]         # the bric-a-brac, slot 0 first; gaps always close
    uint8_t table_coal[TABLE_SLOTS]    # charcoalium lying on each machine
    uint8_t ws[2][WORKSHOP_MAX]        # workshops; older machines sorted by type, this turn's repair last
    uint8_t res[2][4]                  # charcoalium, wood, copper, crystal held
    uint8_t pile[MAX_PROJECTS]         # face-down unused projects; top = pile[pile_n - 1]
    uint8_t pend[2]                    # projects drawn by Y1, awaiting the choice (PH_KEEP)
    uint8_t deck_n
    uint8_t table_n
    uint8_t ws_n[2]
    uint8_t pile_n
    uint8_t pend_n
    uint8_t phase
    uint8_t cur                        # the seat whose turn it is
    uint8_t first                      # the first player (rounds are first, then second)
    uint8_t end_trig                   # the end of the game is triggered: this round is the last
    uint8_t ctx_played                 # machine played this turn (NO_CARD when none)
    uint8_t ctx_card                   # machine whose effect is resolving (the played one, or the copied one)
    uint8_t ctx_target                 # machine discarded by the effect (its repair cost gives the cubes)
    uint8_t ctx_qty                    # units gained in PH_CHOOSE_RES
    uint8_t ctx_exch                   # exchanges made so far (P4)
    uint8_t proj_used                  # workshop positions that counted for a project completed this turn
    uint8_t proj_count                 # projects completed this turn


ctypedef struct NMConfig:
    # machine types
    uint8_t colour[MAX_TYPES]
    uint8_t vp[MAX_TYPES]
    uint8_t cost[MAX_TYPES][4]         # index 1..3: wood, copper, crystal (index 0 unused: never charcoalium)
    uint8_t prod[MAX_TYPES]            # Resource (JOKER included)
    uint8_t effect[MAX_TYPES]          # Effect
    uint8_t copies[MAX_TYPES]
    # projects
    uint8_t proj_vp[MAX_PROJECTS]
    uint8_t proj_kind[MAX_PROJECTS]
    uint8_t proj_size[MAX_PROJECTS]    # machines set aside (2..4)
    uint8_t proj_req[MAX_PROJECTS][MAX_REQ]
    # set-up and rules
    uint8_t supply[4]
    uint8_t start[2][4]                # resources of the first and of the second player
    uint8_t num_types
    uint8_t num_projects
    uint8_t num_cards
    uint8_t public_projects
    uint8_t sharing                    # Sharing
    uint8_t first_player               # 0, 1, or NO_CARD: drawn at random
    uint8_t end_score                  # 20
    uint8_t mask_words
    uint8_t pay_clamped                # every cube cost is at most 3: ``payable`` answers for any stock
    # action layout (ids are dense; RULES.md "Actions")
    int16_t a_play
    int16_t a_repair
    int16_t a_draw
    int16_t a_take1
    int16_t a_take2
    int16_t a_steal
    int16_t a_return1
    int16_t a_return2
    int16_t a_exchange
    int16_t a_stop
    int16_t a_discard_hand
    int16_t a_discard_slot
    int16_t a_copy
    int16_t a_keep
    int16_t a_complete
    int16_t a_done
    int16_t num_actions
    # move-generation tables, derived from the fields above by make_core (engine.pyx, "move generation")
    uint64_t prod_unit[MAX_TYPES]      # 1 << (8 * production): a workshop's reductions add up one byte per resource
    uint8_t play_kind[3 * MAX_TYPES]   # per PLAY action: PLAY_GAIN (charcoalium, or a production that is not a
                                       # joker: one gain, then the turn ends), PLAY_JOKER (choose the resource),
                                       # PLAY_EFFECT
    uint8_t play_res[3 * MAX_TYPES]    # ... and for PLAY_GAIN, the resource gained
    uint8_t play_qty[3 * MAX_TYPES]    # ... and how many
    uint64_t attr_unit[4][MAX_TYPES]   # 1 << (4 * attribute) per ProjectKind (PK_IDENTICAL: the type itself): a set
                                       # of machines sums to its multiset of attributes, one nibble per value
    uint64_t proj_key[MAX_PROJECTS]    # the multiset a project requires, summed the same way (not PK_IDENTICAL)
    uint32_t cost_after[64][MAX_TYPES] # cost_cubes less the reductions (wood + 4 copper + 16 crystal, 0..3 each)
    uint64_t repair_bits[2][32][4]     # REPAIR with allocation 0 of the slots of a 5-bit set (slots 0-4, then 5-9),
                                       # as bits of mask words 0..3 (the main phase's words)
    uint8_t repair_words[2][32]        # ... and which of those words they touch (bit i: word i)
    uint16_t payable[64][64]           # per reduction profile (as cost_after), the types the cubes pay for, the
                                       # cubes clamped to 3 each (wood + 4 copper + 16 crystal); when pay_clamped
    uint8_t cost6[64][MAX_TYPES]       # cost_after packed the same way (wood + 4 copper + 16 crystal); when
                                       # pay_clamped
    uint32_t fx_types[NUM_EFFECTS]     # the types with each effect, as a bitset
    uint32_t prod_types[5]             # the types with each production zone (JOKER included), as a bitset
    uint32_t fx_cond_types[128]        # the types whose effect test passes, per combination of the 7 facts the
                                       # tests read (engine.pyx, FX_COND_*); the exchange and the copy apart
    uint32_t cost_cubes[MAX_TYPES]     # the repair cost packed one byte per cube: wood, copper, crystal
    uint32_t proj_fit[WORKSHOP_MAX]    # projects of at most i + 1 machines (a workshop of i + 1 can fill them)
    uint32_t proj_accepts[MAX_TYPES]   # projects a machine of type t can count for (its attribute is asked for)
    uint8_t take1_bits[MAX_TYPES]      # PH_TAKE_COST1: the cubes (bit 0 wood .. bit 2 crystal) of the cost
    uint8_t take2_bits[MAX_TYPES]      # PH_TAKE_COST2: the pairs (bits 0..5, PAIR order) the cost holds ...
    uint8_t take2_single[MAX_TYPES]    # ... or, when it holds none, its single cubes (bits 0..2)
    uint8_t deck0[MAX_CARDS]           # the deck before the shuffle: every copy of every type, by type (zeros after)
    uint8_t word_lo[NUM_PHASES]        # the mask words a phase's actions can occupy: word_lo .. word_hi - 1
    uint8_t word_hi[NUM_PHASES]
