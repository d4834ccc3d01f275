# cython: language_level=3
"""Sparks's packed state and compiled config (the C layout; RULES.md explains the rules and the encoding).

A die is one byte: 0 = no die, else ``1 + colour * 6 + (value - 1)`` (its *type* is that minus one, 0..23).
Robot cards are ids 0..nrobots-1 (content order), assistants 0..nassist-1; sets of them are bitsets.
Power boxes are numbered by the robot card that carries them; ``BOARD_BOX`` is the box printed on the board.
Die spaces of a player ("spaces", 0..13): 0-3 the upgrade section's coloured spaces, 4-12 the robot spaces
(slot * 3 + index), 13 the storage.
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    MAX_P = 4
    NCOL = 4
    ANY = 4                   # a space with no colour requirement
    NTYPES = 24               # die types
    MAX_ROBOTS = 63
    BOARD_BOX = 63
    MAX_ASSIST = 32
    SLOTS = 3
    SPACES = 3
    NSPACE = 14
    SP_ROBOT = 4
    SP_STORE = 13
    MAX_JUNK = 8
    MAX_TRACK = 16
    MAX_BONUS = 4
    NTILES = 8
    MAX_LEVELS = 8
    MAX_PEND = 12
    MAX_RR = 12               # dice marked for a reroll / the completed robot's dice (Recycle)
    NO_CARD = 0xFF
    AR_DEALT = 0x80           # arec: the card was dealt in the draft
    AR_UNPICKED = 15          # arec: pick step of a dealt card nobody has picked (yet)
    NGOALS = 6
    NPROD = 4
    EMPTY_ROW = 63            # MAX_ROBOTS: the row of the robot masks for an empty slot
    SP_NUM_ACTIONS = 1385     # engine.action_layout()["num_actions"] (the ids are the same under every content)

# effect symbols (data.SYMBOLS)
cdef enum:
    SY_COGS = 0
    SY_SPARKS = 1
    SY_ASSIST = 2
    SY_DIE = 3
    SY_DIE_COLOUR = 4
    SY_REROLL = 5
    SY_ADJUST = 6
    SY_ADVANCE_ANY = 7
    SY_FACTORY = 8
    SY_TILE = 9
    SY_COG_ASSIST = 10
    SY_ADVANCE = 11
    SY_NONE = 0xFF

# assistant kinds (data.ASSISTANT_KINDS order)
cdef enum:
    AK_CONRAD = 0
    AK_EMMA = 1
    AK_FRANK = 2
    AK_GORDON = 3
    AK_MAX = 4
    AK_FACTORY_BONUS = 5
    AK_OCTAVIA = 6
    AK_OLYMPIA = 7
    AK_TRACK_ANY = 8
    AK_QUINCY = 9
    AK_SILAS = 10
    AK_WARREN = 11
    AK_COMPLETE = 12
    AK_COGS = 13
    AK_SPARKS = 14
    AK_TILE = 15
    AK_DIE = 16
    AK_ADVANCE_ANY = 17
    AK_ADJUST = 18
    AK_REROLL_ONE = 19
    AK_SALES = 20
    AK_IGNORE_VALUE = 21
    AK_FREE_PLAY = 22
    AK_FACTORY = 23
    AK_DIE_CHOICE = 24
    NUM_AKINDS = 25

# upgrade tiles (data.TILES order)
cdef enum:
    TL_REARRANGE = 0
    TL_DISCOUNT = 1
    TL_SALES = 2
    TL_IGN_COLOUR = 3
    TL_IGN_VALUE = 4
    TL_BONUS_POINT = 5
    TL_BONUS_COG = 6
    TL_RECYCLE = 7

# pending choices of one seat (a FIFO; the head decides the legal actions)
cdef enum:
    PD_ADVANCE = 1            # arg: colour (ANY: any track)
    PD_TILE = 2               # take an upgrade tile
    PD_REROLL = 3             # mark dice (the held Recycle die too: ``hmark``), then roll
    PD_ADJUST = 4             # arg: free +-1 adjustments left (skip ends it)
    PD_SILAS = 5              # Silas's pips left in ``silas``
    PD_RECYCLE_PICK = 6       # choose one of the completed robot's dice (in ``rc``), or skip
    # place ``held`` on another robot, altering it first if wished, or skip; the choices that alter dice (adjust,
    # Silas, reroll) are queued in front of it, so that they may alter the held die (RULES.md, "Recycle")
    PD_RECYCLE_PLACE = 7
    PD_MAX = 8                # arg: robot card; pay 1 cog to fire its box now, or skip
    PD_OLYMPIA = 9            # arg: (boxes left << 6) | box already chosen (when one is left)
    PD_CONRAD = 10            # choose the played assistant Conrad copies
    PD_COMPLETE = 11          # arg: colour; pay 1 cog to complete a robot of that colour, or skip
    PD_FREE_PLAY = 12         # play an assistant from hand for free, or skip
    PD_DIE_CHOICE = 13        # take a die of any colour and value
    NUM_PD = 14

cdef enum:
    PH_DRAFT = 0
    PH_REFILL = 1             # one seat at a time (the deck is shared), clockwise from the active player
    PH_TAKE = 2               # the active player, then the others clockwise, take dice
    PH_ACTION = 3             # simultaneous
    PH_OVER = 4

cdef enum:
    GL_ASSISTANTS = 0
    GL_LEVEL = 1
    GL_SAME_COLOUR = 2
    GL_BOXES = 3
    GL_SPARKS = 4
    GL_THIRD_BONUS = 5


ctypedef struct Player:
    uint64_t tableau                  # completed robots
    uint64_t box_used                 # power boxes holding a spark or a cog this round (bit BOARD_BOX: board)
    uint64_t box_cog                  # of which hold Emma's cog
    uint32_t hand                     # assistants in hand (hidden)
    uint32_t played                   # assistants played
    uint8_t avail[NTYPES]             # available dice, counts by type
    uint8_t space[NSPACE]             # die byte on each die space (0: empty)
    uint8_t line[SLOTS]               # robot card in each slot of the assembly line, NO_CARD
    uint8_t stile[SLOTS]              # slot upgrade tile above each slot, NO_CARD
    uint8_t track[NCOL]               # scoring-space reached on each track (0: not started)
    uint8_t pend[MAX_PEND]            # pending choices (Pending codes), head first
    uint8_t parg[MAX_PEND]
    uint8_t rr[MAX_RR]                # dice marked for a reroll (die bytes)
    uint8_t rc[SPACES]                # the dice of the robot just completed in the Recycle slot
    uint8_t buf[4]                    # robot cards drawn in a refill, not placed yet (hidden from the others)
    uint8_t tiles                     # upgrade tile types owned (bitset)
    uint8_t cogs
    uint8_t sparks                    # sparks in storage
    uint8_t level
    uint8_t prod_used                 # production tiles played (bitset of 4)
    uint8_t npend
    uint8_t nrr
    uint8_t nbuf
    uint8_t upg_bonus                 # "+n towards the next upgrade" gathered (P6 box, D11)
    uint8_t conrad                    # assistant Conrad copies, NO_CARD
    uint8_t used_frank                # uses this turn of the once-per-turn effects
    uint8_t used_octavia
    uint8_t used_adjust
    uint8_t used_reroll1
    uint8_t used_ignval
    uint8_t used_emma                 # this round
    uint8_t reroll_tile               # 1: the "4" production tile's reroll is still unused this turn
    uint8_t rearranged                # Rearrange moves this turn
    uint8_t held                      # a die in hand for Recycle (die byte): PD_RECYCLE_PLACE is queued
    uint8_t silas                     # Silas's pips left
    uint8_t completed                 # robots completed this turn
    uint8_t nrc
    uint8_t bufk[4]                   # seats that know each card of ``buf`` (bit per seat; the drawer always)
    uint8_t hmark                     # 1: ``held`` is marked for the reroll at the head of the queue
    uint8_t spare[2]                  # always 0 (explicit padding: 152 bytes)


ctypedef struct SPState:
    uint64_t rng                      # the PRNG counter (hidden from every seat)
    uint64_t pool                     # robot cards in the shuffled part of the deck (each draw: a uniform one)
    uint64_t bknow[2]                 # bit i of bknow[k]: seat 2 + k knows bottom[i] (seats 0, 1: in bottom[i])
    uint32_t adeck                    # assistant deck (each draw: a uniform card of it)
    uint32_t spare32
    Player pl[MAX_P]
    uint8_t arec[MAX_ASSIST]          # draft record of each assistant: 0 not dealt in a draft, else
                                      # AR_DEALT | deal seat << 4 | pick step (AR_UNPICKED: not picked)
    uint8_t bottom[64]                # robot cards returned under the deck, in order (drawn after the pool):
                                      # card | seat 0 knows it << 6 | seat 1 knows it << 7 (bknow: seats 2, 3)
    uint8_t junk[MAX_JUNK]            # the junkyard row, left to right (die bytes)
    uint8_t bag[NCOL]                 # dice in the bag by colour (a drawn die shows a uniform face)
    uint8_t disc[NCOL]                # discard pile by colour
    uint8_t bonus[NCOL][MAX_BONUS]    # bonus tile (content index) on each bonus space
    uint8_t dpick[MAX_P]              # draft: hidden pick of each seat this pass, NO_CARD
    uint8_t goals                     # goal tiles in play (bitset)
    uint8_t stacks                    # upgrade tile stacks in play (bitset)
    uint8_t nbottom
    uint8_t njunk
    uint8_t phase
    uint8_t turn                      # 0-based turn; turns = 4 * players (solo: 8, alternating)
    uint8_t first
    uint8_t taker                     # PH_TAKE: seat taking dice; PH_REFILL: seat refilling
    uint8_t ntaken                    # PH_TAKE (2 dice): dice already taken by this seat; PH_REFILL: seats done
    uint8_t take_end                  # PH_TAKE: end of the first die taken (0 left, 1 right, 2 anywhere)
    uint8_t done                      # PH_ACTION: seats finished
    uint8_t dstep                     # draft: passes resolved
    uint8_t started                   # 0 during the set-up (draft, first refills), 1 once turn 0 has begun
    uint8_t spare[7]                  # always 0 (explicit padding)


ctypedef struct SPConfig:
    uint64_t box_robots               # robots with a power box
    uint64_t alter_boxes              # boxes (robot ids, BOARD_BOX) whose effect alters dice: ±1 steps, a reroll
    uint32_t kind_mask[NUM_AKINDS]    # assistants of each kind
    # kind_mask[k] | kind_mask[k] << 32: the seat's played assistants in the low half and the one Conrad copies in
    # the high half (engine.pyx's ``played_and_copy``) give ``inst`` as one popcount
    uint64_t kind_mask2[NUM_AKINDS]
    uint8_t r_colour[MAX_ROBOTS]
    uint8_t r_n[MAX_ROBOTS]           # die spaces
    uint8_t r_col[MAX_ROBOTS][SPACES] # space colour or ANY
    uint8_t r_val[MAX_ROBOTS][SPACES] # space value or 0
    # bit j of [ci * 7 + vi]: space j of the robot takes a die of colour ci (NCOL + 1: any colour, the cost paid)
    # and value vi (0: any value, the value ignored); row EMPTY_ROW, all 0, stands for an empty slot
    uint8_t r_fit[MAX_ROBOTS + 1][(NCOL + 2) * 7]
    uint8_t r_adv[MAX_ROBOTS]
    uint8_t r_rew[MAX_ROBOTS][3]      # immediate reward symbol (kind, n, colour); kind SY_NONE
    uint8_t r_box[MAX_ROBOTS][3]      # power box symbol
    uint8_t a_kind[MAX_ASSIST]
    uint8_t a_param[MAX_ASSIST]
    uint8_t a_points[MAX_ASSIST]
    uint8_t bonus_sym[NCOL * MAX_BONUS][3]
    uint8_t board_box[3]
    uint8_t tile_points[NTILES]
    uint8_t track_pts[MAX_TRACK]
    uint8_t bonus_after[MAX_BONUS]
    uint8_t thresholds[MAX_LEVELS]
    uint8_t level_tile[MAX_LEVELS]    # 1: the level's reward is an upgrade tile, 0: a spark
    uint8_t goal_target[NGOALS]
    uint8_t frank_mask                # bit v: Frank takes a die of value v
    int32_t num_actions
    int32_t mask_words
    uint8_t fam[SP_NUM_ACTIONS]       # the family (engine.pyx's F_ enum) of each action id
    # action id layout (engine.pyx computes the offsets; RULES.md documents the families)
    int32_t a_take, a_pick, a_place, a_sell, a_sell_space, a_up, a_down, a_flip, a_frank, a_silas
    int32_t a_reroll1, a_reroll, a_mark, a_roll, a_rearrange, a_recruit, a_spark_box, a_cog_box, a_free_box
    int32_t a_track, a_tile, a_copy, a_complete, a_die_choice, a_recycle, a_skip, a_done, a_discard_robot
    int32_t a_draw, a_assign, a_draft, a_adjust
    uint8_t nseats
    uint8_t nrobots
    uint8_t nassist
    uint8_t ntrack
    uint8_t nbonus                    # bonus spaces per track
    uint8_t nlevels
    uint8_t upgrade_cap
    uint8_t dice_per_colour
    uint8_t junkyard
    uint8_t storage
    uint8_t sell_value
    uint8_t sales_boost_value
    uint8_t ignore_colour_cost
    uint8_t change_cost
    uint8_t set_points
    uint8_t cogs_per_point
    uint8_t goal_points
    uint8_t solo_target
    uint8_t hand_size
    uint8_t draft_deal
    uint8_t rearrange_limit
    uint8_t tile_copies
    uint8_t stacks_in_play
    uint8_t ngoals                    # goal tiles dealt at set-up
    uint8_t draft                     # 1: the assistant draft variant
    uint8_t turns                     # turns in the game
    uint8_t clockwise                 # 1: the action phase is played seat by seat, clockwise from the active player
    uint8_t spare[1]
