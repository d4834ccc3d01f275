# cython: language_level=3
"""Smartphone's packed state and compiled config (the C layout; RULES.md explains the rules).

A resource card is identified by its *kind*: supplier * 5 + type (suppliers 0 PolluPlus, 1 PolluMoins,
2 Recyclage; types 0 MP precious metal, 1 MR rare metal, 2 MC common metal, 3 TR rare earth, 4 AM other
material). Cards of one kind are indistinguishable, so hands, boards, decks and the cards out of the game are
counts per kind. The decks are multisets: a draw from a deck picks a card at random with the PRNG when it is
made (the same law as a shuffled deck, and the deck order is never stored). Malus cards are identified by their
card (template) index; the malus pile is the definition cards still on top (``cfg.top[top_next:]``) over a
multiset (``pile``) drawn at random.

Fields are ordered largest first so the layout has no padding differences between compilers.
"""

from libc.stdint cimport int16_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    MAX_P = 5                 # seats
    NT = 5                    # resource types
    NS = 3                    # suppliers
    NK = 15                   # kinds = NS * NT
    NK_LOSABLE = 10           # kinds 0..9: PolluPlus and PolluMoins cards (recycled cards are never lost)
    MAX_COMP = 6
    MAX_MALUS = 24
    MAX_EVENTS = 24
    MAX_VIS = 4               # face-up cards of one supplier
    MAX_TOP = 8
    MAX_OPTS = 4096           # build options (component x which supplier's cards)
    MAX_MSETS = 55            # ways to take up to 9 cards of one type from 3 suppliers
    MAX_FIT = 10              # cards of one kind a way can take, plus one
    NO_CARD = 0xFF
    ITEM_MALUS = 32           # offer item codes: a kind (0..14), or ITEM_MALUS + malus card
    UPPER_MAX = 0xFFFF        # an upper bound's rise saturates there (a hand holds at most 500 non-recycled cards,
                              # two suppliers of 250: the bound stays true; play never reaches it)

cdef enum:
    SUP_PLUS = 0
    SUP_MOINS = 1
    SUP_RECYCLING = 2

cdef enum:
    PH_MAIN = 0               # the turn player's action (or a trade offer first, once trading is allowed)
    PH_PICK = 1               # supplying: take a face-up card of the supplier or draw its deck
    PH_LOSE = 2               # harsh malus 'lose': discard a non-recycled card of a type, or done if none
    PH_DEPOLLUTE = 3          # after one malus discarded: discard a second one, or stop
    PH_OFFER = 4              # composing a trade offer
    PH_ANSWER = 5             # the offer's target accepts or refuses
    PH_EV_PICK = 6            # an event lets a player take a face-up card (events 1, 2, 5)
    PH_EV_DISCARD = 7         # an event makes a player discard (events 4, 9, 11)
    PH_EV_TAX = 8             # event 10: the recycling champion takes a card or gives a malus
    PH_VOTE = 9               # the market refresh: a vote (or the first player's decision)
    PH_OVER = 10
    NUM_PHASES = 11

cdef enum:
    EV_NONE = 0
    EV_QUIZ_TAKE = 1
    EV_COLLECT = 2
    EV_TRADING = 3
    EV_DISCARD_SUPPLIER = 4
    EV_NEW_MINES = 5
    EV_PENALTY = 6
    EV_NEIGHBOUR_TAX = 7
    EV_DOUBLE = 8
    EV_HOARDING = 9
    EV_DUEL = 10
    EV_RECYCLING_TAX = 11
    EV_NO_DEPOLLUTION = 12
    EV_END = 13
    NUM_EVENT_KINDS = 14

cdef enum:
    MX_NONE = 0
    MX_HEAVY = 1
    MX_STICKY = 2
    MX_LOSE = 3
    MX_WIPE = 4
    MX_BLOCK = 5

cdef enum:
    RF_VOTE = 0               # unanimous vote of the players; the cost comes off the malus pile
    RF_FIRST = 1              # the round's first player decides and takes the malus cards
    RF_AUTO = 2               # automatic; the cost comes off the malus pile
    RF_OFF = 3

cdef enum:
    FL_TRADING = 1            # event 3 drawn: trade offers allowed
    FL_NODEP = 2              # event 12: no depollution this round (and pass allowed)


ctypedef struct SPState:
    uint64_t rng                       # the PRNG counter (hidden from every seat)
    uint8_t hand[MAX_P][NK]            # resource cards in hand, per kind
    uint8_t known[MAX_P][NK]           # of those, how many every seat knows are there (taken face up...): the
                                       # public lower bound, what a spectator is sure of
    uint8_t laid[MAX_P][NK]            # cards laid on the player's built components
    uint8_t malus[MAX_P][MAX_MALUS]    # malus cards held (public: read aloud when drawn)
    uint8_t pile[MAX_MALUS]            # malus pile below the definition cards, per card
    uint8_t mout[MAX_MALUS]            # malus cards set aside (depolluted, paid)
    uint8_t out[NK]                    # resource cards out of the game
    uint8_t deck[NK]                   # supplier decks, per kind
    uint8_t market[NS][MAX_VIS]        # face-up cards: a type, or NO_CARD
    uint8_t built[MAX_P]               # components built (bitset)
    uint8_t block[MAX_P]               # harsh 'block': bits 0-2 this turn, bits 4-6 set this turn for the next
    uint8_t quiz[MAX_P]                # quiz ranks drawn for the event being resolved (0 = best)
    uint8_t order[MAX_P]               # the players in the order the current event (or vote) visits them
    uint8_t offer_give[2]              # offer items (kind, or ITEM_MALUS + malus card)
    uint8_t offer_ask[2]               # kinds asked
    # (placed after every array the hot paths read by words, which keep the offsets they had without it; the one-byte
    # fields below keep the 16-byte row accesses of the last rows inside the struct)
    uint8_t private_known[MAX_P][MAX_P][NK_LOSABLE]    # [o][h][k]: how many more cards of kind k seat o is
                                       # sure h holds beyond known[h][k] (a steal, seen by the thief and the victim
                                       # only: of non-recycled kinds alone, the only ones stolen); [h][h] is 0
    uint8_t phase
    uint8_t cur                        # the seat that acts now
    uint8_t first                      # the round's first player
    uint8_t round                      # rounds completed
    uint8_t turns                      # turns completed in this round
    uint8_t ev_next                    # next event of the sequence
    uint8_t ev_cur                     # event being resolved (NO_CARD: none)
    uint8_t ev_pos                     # position in ``order``
    uint8_t ev_n                       # players in ``order``
    uint8_t ev_left                    # cards the visited player still takes / discards
    uint8_t pick_sup                   # supplier of the supply in progress
    uint8_t picks_left
    uint8_t malus_left                 # malus cards still to draw for the supply in progress
    uint8_t lose_type                  # harsh 'lose': the type to lose
    uint8_t dep_n                      # malus discarded in this depollution
    uint8_t top_next                   # definition cards already drawn from the top of the pile
    uint8_t offer_to                   # trade target; event 10's target
    uint8_t offer_give_n
    uint8_t offer_ask_n
    uint8_t offered                    # a trade was offered this turn
    uint8_t flags                      # FL_*
    uint8_t penalty                    # points lost per malus at the end (event 6), 0 before
    uint8_t mult                       # supply malus multiplier (event 8), 1 before
    uint8_t end_trig                   # the end is triggered: the round is finished, then the game ends
    uint8_t refreshed                  # the market refresh was used after this round
    uint8_t end_reason                 # 0 none, 1 smartphone, 2 end-of-game event, 3 malus pile, 4 events out
    uint8_t private_of                 # bit h set iff some private_known[o][h][k] is not 0 (the usual case: none,
                                       # and the hot paths test this byte only)
    # (after the one-byte fields, at an even offset: the layout above keeps its offsets)
    uint16_t upper[MAX_P][NT]          # [h][t]: the public upper bound of h's non-recycled cards of type t (its
                                       # PolluPlus and PolluMoins cards of t together): what a spectator is sure h
                                       # holds at most (RULES.md, "What each seat knows of a hand")
    uint8_t private_upper[MAX_P][MAX_P][NT]  # [o][h][t]: how much lower seat o's own upper bound of h's type t is
                                       # than upper[h][t] (a steal, seen by the thief and the victim only); [h][h] 0
    uint8_t pad_end                    # 0 (the struct's size stays a multiple of 8 with no implicit padding)


ctypedef struct SPConfig:
    # move-generation tables made with the config (make_core), so that a decision reads them instead of
    # recomputing them: fit[c][i][sup][h] has bit j set when the j-th way of the i-th recipe type of c takes at
    # most h cards of supplier sup (h < MAX_FIT; a hand of more counts as MAX_FIT - 1, since a way takes at most 9)
    uint64_t fit[MAX_COMP][NT][NS][MAX_FIT]
    uint64_t f_ask                      # the offer phase's field (from a_give_malus): every ask, send, cancel
    uint64_t f_send
    uint64_t f_cancel
    uint32_t lead_of[1 << MAX_COMP]    # a set of components (bit c) as build_opts' quick test places them
    uint64_t phase_words[NUM_PHASES]   # the mask words of the families a phase's move generation may write (bit
                                       # i for word i; masks of <= 64 words): the rarer phases return these
    uint64_t vis_lo                    # 0x80 in the bytes of market[0..1] that are face-up slots (memcpy order)
    uint32_t vis_hi                    # the same for market[2]
    uint32_t dep_ok                    # malus cards a player may discard or give (not the sticky ones if harsh)
    uint8_t opt[MAX_OPTS][NK]          # build options: the cards laid, per kind
    uint8_t opt_comp[MAX_OPTS]
    uint8_t o_take[NS]                 # the frequent phases' fields: offsets of a family from the field's first
    uint8_t o_draw                     # action (pick: a_take; offer: a_give_malus; main: a_depollute)
    uint8_t o_pass
    uint8_t o_give
    uint8_t o_ask
    uint8_t lead_comp[32]              # the component whose bit is there (lead_of)
    uint8_t reach_rec[32]              # the recipes for build_opts' quick test: c's cards of type t in byte
                                       # 5c + t (c < 3), 16 + 5(c - 3) + t (c >= 3)
    uint8_t mset[MAX_COMP][NT][MAX_MSETS][NS]   # the i-th recipe type of c: its j-th way, cards per supplier
    int16_t comp_opt0[MAX_COMP + 1]    # options of component c: comp_opt0[c] .. comp_opt0[c + 1] - 1
    int16_t comp_stride[MAX_COMP][NT]  # option = comp_opt0[c] + sum of way index x stride over the recipe types
    uint8_t comp_nt[MAX_COMP]          # types in the recipe of c
    uint8_t comp_t[MAX_COMP][NT]       # those types
    uint8_t comp_nm[MAX_COMP][NT]      # ways for each
    uint8_t comp_types[MAX_COMP]       # the types of the recipe of c (bit t)
    uint8_t take_sup[NS * MAX_VIS]     # take id - a_take: the supplier and the slot
    uint8_t take_slot[NS * MAX_VIS]
    uint8_t recipe[MAX_COMP][NT]
    uint8_t points[MAX_COMP]
    uint8_t deck0[NK]
    uint8_t vis[NS]
    uint8_t take[NS]
    uint8_t mtake[NS]
    uint8_t mfx[MAX_MALUS]
    uint8_t marg[MAX_MALUS]
    uint8_t top[MAX_TOP]
    uint8_t pile0[MAX_MALUS]
    uint8_t mtotal[MAX_MALUS]
    uint8_t ev_kind[MAX_EVENTS]
    uint8_t ev_star[MAX_EVENTS]
    uint8_t ev_amount[MAX_EVENTS]
    uint8_t ev_limit[MAX_EVENTS]
    uint8_t ev_types[MAX_EVENTS]
    uint8_t ev_sup[MAX_EVENTS]
    uint8_t n                          # seats
    uint8_t ncomp
    uint8_t nmalus
    uint8_t ntop
    uint8_t nev
    uint8_t harsh
    uint8_t refresh_mode
    uint8_t finish_round
    uint8_t refresh_threshold
    uint8_t refresh_cost
    uint8_t bonus
    uint8_t all_built                  # bitset of every component
    uint8_t mtake_sups                 # suppliers whose supply hands out malus cards (bit sup)
    uint8_t seat_bits                  # every seat (bit p)
    int16_t mask_words
    int16_t num_opts
    int16_t total_cards
    # action layout (ids are dense; RULES.md "Actions")
    int16_t a_supply
    int16_t a_build
    int16_t a_depollute
    int16_t a_stop
    int16_t a_pass
    int16_t a_take
    int16_t vis0[NS]                   # first take id of each supplier's face-up slots
    int16_t a_draw
    int16_t a_decline
    int16_t a_discard
    int16_t a_take_malus
    int16_t a_tax_take
    int16_t a_give_malus
    int16_t a_give
    int16_t a_ask
    int16_t a_offer
    int16_t a_send
    int16_t a_cancel
    int16_t a_accept
    int16_t a_refuse
    int16_t a_vote_yes
    int16_t a_vote_no
    int16_t a_done
    int16_t num_actions
