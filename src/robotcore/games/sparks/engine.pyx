# cython: language_level=3
# cython: boundscheck=False, wraparound=False, cdivision=True
"""Sparks's rules in C: move generation (``sp_legal_mask``), stepping (``sp_apply``), scoring and the invariant
check (``sp_validate``). RULES.md states the rules these functions implement and the action encoding.

A turn: the junkyard is refilled (chance), the active player plays a production tile and takes its dice, the
others take theirs clockwise (PH_TAKE, one seat at a time), then every seat acts at once (PH_ACTION, a
simultaneous phase of micro-actions, each seat ending with ``done``), then the seats with free slots refill their
assembly lines one at a time clockwise from the active player (PH_REFILL: the robot deck is shared).

Every effect that needs a choice is queued in the seat's ``pend`` FIFO; while it is not empty the seat may only
answer its head. ``settle`` answers heads that leave no choice (one option, or none), all from public facts.

Bounds (why no sequence loops forever): every action-phase action but ``done`` uses up something finite — a die
(place, sell, store, Frank, Silas), a cog (change, ignore, Emma, Max...), a spark, a card in hand, a once-per-turn
use, a pending choice — or is a Rearrange move, limited to ``rearrange_limit`` per turn (``rearranged``). New
dice, cogs and sparks come only from completed robots (at most the line's robots per turn: the line is refilled
at the end of the turn only), level-ups (at most ``nlevels``), bonus spaces (finite), power boxes (one use per
box per round) and one-time assistants, so a turn is finite; a game has ``turns`` turns.
"""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from robotcore.core.bits cimport (highest_bit, load_le32, load_le64, lowest_bit, nonzero16, nth_set_bit,
                                   popcount, zero_words)
from robotcore.core.playout cimport random_playout_loop_words
from robotcore.core.rng cimport rng_below, rng_next, rng_seed, rng_shuffle_u8, rng_unit
from robotcore.core.state cimport MAX_MASK_WORDS, EngineSpec, GameCore, State
from robotcore.games.sparks.state cimport *

# -- the action layout (fixed: the same ids under every content) ------------------------------------------------

_FAMILIES = (
    ("take", NPROD * MAX_JUNK), ("pick", MAX_JUNK), ("place", NTYPES * NSPACE), ("sell", NTYPES),
    ("sell_space", NSPACE), ("up", NTYPES), ("down", NTYPES), ("flip", NTYPES), ("frank", NTYPES),
    ("silas", NTYPES), ("reroll_one", NTYPES), ("reroll", 1), ("mark", NTYPES), ("roll", 1),
    ("rearrange", NSPACE * NSPACE), ("recruit", MAX_ASSIST), ("spark_box", 64), ("cog_box", 64),
    ("free_box", 64), ("track", NCOL), ("tile", NTILES * 4), ("copy", MAX_ASSIST), ("complete", SLOTS),
    ("die_choice", NTYPES), ("recycle", NTYPES), ("skip", 1), ("done", 1), ("discard_robot", SLOTS),
    ("draw", 1), ("assign", 64 * SLOTS), ("draft", MAX_ASSIST), ("adjust", 1),
    ("up_space", NSPACE), ("down_space", NSPACE),
    # the held Recycle die as the target of a free step (adjust, Silas) or of the reroll (RULES.md, "Recycle")
    ("up_held", 1), ("down_held", 1), ("mark_held", 1),
)


def action_layout() -> dict:
    """First id and count of each action family (ids are dense and fixed)."""
    out = {}
    base = 0
    for name, size in _FAMILIES:
        out[name] = (base, size)
        base += size
    out["num_actions"] = base
    return out


# the first id of each family (make_core checks them against action_layout): constants, so that a legal action is
# set with an immediate and an action's family is found without reading the config
cdef enum:
    A_TAKE = 0
    A_PICK = 32
    A_PLACE = 40
    A_SELL = 376
    A_SELL_SPACE = 400
    A_UP = 414
    A_DOWN = 438
    A_FLIP = 462
    A_FRANK = 486
    A_SILAS = 510
    A_REROLL1 = 534
    A_REROLL = 558
    A_MARK = 559
    A_ROLL = 583
    A_REARRANGE = 584
    A_RECRUIT = 780
    A_SPARK_BOX = 812
    A_COG_BOX = 876
    A_FREE_BOX = 940
    A_TRACK = 1004
    A_TILE = 1008
    A_COPY = 1040
    A_COMPLETE = 1072
    A_DIE_CHOICE = 1075
    A_RECYCLE = 1099
    A_SKIP = 1123
    A_DONE = 1124
    A_DISCARD_ROBOT = 1125
    A_DRAW = 1128
    A_ASSIGN = 1129
    A_DRAFT = 1321
    A_ADJUST = 1353
    A_UP_SPACE = 1354
    A_DOWN_SPACE = 1368
    A_UP_HELD = 1382
    A_DOWN_HELD = 1383
    A_MARK_HELD = 1384


# the families of _FAMILIES, in order (make_core checks it)
cdef enum:
    F_TAKE, F_PICK, F_PLACE, F_SELL, F_SELL_SPACE, F_UP, F_DOWN, F_FLIP, F_FRANK, F_SILAS, F_REROLL1, F_REROLL
    F_MARK, F_ROLL, F_REARRANGE, F_RECRUIT, F_SPARK_BOX, F_COG_BOX, F_FREE_BOX, F_TRACK, F_TILE, F_COPY
    F_COMPLETE, F_DIE_CHOICE, F_RECYCLE, F_SKIP, F_DONE, F_DISCARD_ROBOT, F_DRAW, F_ASSIGN, F_DRAFT, F_ADJUST
    F_UP_SPACE, F_DOWN_SPACE, F_UP_HELD, F_DOWN_HELD, F_MARK_HELD, NUM_FAMILIES


cdef enum:
    SP_MASK_WORDS = 22        # (num_actions + 63) // 64: the action ids are the same under every content
    # Move generation writes into a buffer of SP_MASK_BUF words: the mask, then at SP_WRITTEN the set of mask words
    # it wrote (bit i for word i: what the playout loop and State.legal_actions scan), then one of padding
    SP_WRITTEN = 22
    SP_MASK_BUF = 24


# -- small helpers ---------------------------------------------------------------------------------------------

cdef inline int dcol(int b) noexcept nogil:
    return (b - 1) // 6


cdef inline int dval(int b) noexcept nogil:
    return (b - 1) % 6 + 1


cdef inline int mkdie(int c, int v) noexcept nogil:
    return 1 + c * 6 + v - 1


cdef inline void setb(uint64_t* w, int a) noexcept nogil:
    """Action a is legal (w: a move-generation buffer of SP_MASK_BUF words)."""
    w[a >> 6] |= (<uint64_t>1) << (a & 63)
    w[SP_WRITTEN] |= (<uint64_t>1) << (a >> 6)


cdef inline uint64_t nonzero_bytes(uint64_t x) noexcept nogil:
    """Bit 8i set exactly when byte i of ``x`` is not zero (to visit the non-zero entries of a byte array)."""
    # the low seven bits of each byte plus 0x7F carry into bit 7 when any is set; bit 7 itself is or-ed in
    return ((((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x) >> 7) & 0x0101010101010101ULL


cdef inline uint8_t sat(int x) noexcept nogil:
    return <uint8_t>(255 if x > 255 else (0 if x < 0 else x))


cdef inline int inst(const SPConfig* cfg, const Player* P, int kind) noexcept nogil:
    """Played instances of an assistant kind (Conrad's copy counts once more)."""
    cdef int n = popcount(P.played & cfg.kind_mask[kind])
    if P.conrad != NO_CARD and cfg.a_kind[P.conrad] == kind:
        n += 1
    return n


cdef int param_sum(const SPConfig* cfg, const Player* P, int kind) noexcept nogil:
    cdef uint32_t bits = P.played & cfg.kind_mask[kind]
    cdef int n = 0
    while bits:
        n += cfg.a_param[lowest_bit(bits)]
        bits &= bits - 1
    if P.conrad != NO_CARD and cfg.a_kind[P.conrad] == kind:
        n += cfg.a_param[P.conrad]
    return n


cdef bint track_any_for(const SPConfig* cfg, const Player* P, int colour) noexcept nogil:
    cdef uint32_t bits = P.played & cfg.kind_mask[AK_TRACK_ANY]
    while bits:
        if cfg.a_param[lowest_bit(bits)] == colour:
            return True
        bits &= bits - 1
    return P.conrad != NO_CARD and cfg.a_kind[P.conrad] == AK_TRACK_ANY and cfg.a_param[P.conrad] == colour


cdef inline bint has_tile(const Player* P, int t) noexcept nogil:
    return (P.tiles >> t) & 1


cdef inline bint is_solo(const SPConfig* cfg) noexcept nogil:
    return cfg.nseats == 1


cdef inline int active_of(const SPConfig* cfg, const SPState* s) noexcept nogil:
    if is_solo(cfg):
        return 0
    return (s.first + s.turn) % cfg.nseats


cdef inline bint secondary(const SPConfig* cfg, const SPState* s) noexcept nogil:
    return is_solo(cfg) and (s.turn & 1)


cdef int sell_price(const SPConfig* cfg, const Player* P) noexcept nogil:
    cdef int v = cfg.sales_boost_value if has_tile(P, TL_SALES) else cfg.sell_value
    return v + param_sum(cfg, P, AK_SALES)


cdef int recruit_cost(const SPConfig* cfg, const Player* P) noexcept nogil:
    cdef int c = popcount(P.played) + 1
    if has_tile(P, TL_DISCOUNT):
        c -= 1
    return c if c > 0 else 0


cdef int upg_count(const Player* P) noexcept nogil:
    cdef int c, n = 0
    for c in range(NCOL):
        if P.space[c]:
            n += 1
    return n


cdef inline bint box_exists(const SPConfig* cfg, const Player* P, int b) noexcept nogil:
    if b == BOARD_BOX:
        return True
    return b < cfg.nrobots and ((P.tableau & cfg.box_robots) >> b) & 1


cdef inline bint line_has_vacancy(const SPConfig* cfg, const Player* P, int except_slot) noexcept nogil:
    cdef int k, j, card
    for k in range(SLOTS):
        card = P.line[k]
        if k == except_slot or card == NO_CARD:
            continue
        for j in range(cfg.r_n[card]):
            if P.space[SP_ROBOT + 3 * k + j] == 0:
                return True
    return False


# -- dice, cards -----------------------------------------------------------------------------------------------

cdef int draw_bag(SPState* s) noexcept nogil:
    """A die from the bag (the discard pile goes back when the bag is empty), showing a uniform face; 0 if no
    die is left anywhere."""
    cdef int c, n = 0, k
    for c in range(NCOL):
        n += s.bag[c]
    if n == 0:
        for c in range(NCOL):
            s.bag[c] = s.disc[c]
            s.disc[c] = 0
            n += s.bag[c]
        if n == 0:
            return 0
    # the k-th die of the bag in colour order: its colour is the number of colours whose running total is at
    # most k (a colour with no die in the bag adds nothing to the total, so it is never chosen), found without a
    # branch per colour (which colour it is changes every draw)
    k = <int>rng_below(&s.rng, <uint32_t>n)
    n = s.bag[0]
    c = k >= n
    n += s.bag[1]
    c += k >= n
    n += s.bag[2]
    c += k >= n
    s.bag[c] -= 1
    return mkdie(c, 1 + <int>rng_below(&s.rng, 6))


cdef int draw_colour(SPState* s, int c) noexcept nogil:
    """A die of colour c from the discard pile (else from the bag), rolled; a random bag die if none is left."""
    if s.disc[c] > 0:
        s.disc[c] -= 1
        return mkdie(c, 1 + <int>rng_below(&s.rng, 6))
    if s.bag[c] > 0:
        s.bag[c] -= 1
        return mkdie(c, 1 + <int>rng_below(&s.rng, 6))
    return draw_bag(s)


cdef inline void discard_die(SPState* s, int b) noexcept nogil:
    if b:
        s.disc[dcol(b)] += 1


cdef inline void gain_die(Player* P, int b) noexcept nogil:
    if b:
        P.avail[b - 1] += 1


cdef int draw_robot(SPState* s, int* knowers) noexcept nogil:
    """A card from the deck: a uniform one of the shuffled part, else the first card put under it (``knowers``:
    the seats that knew that card, who still know it in the drawer's hand)."""
    cdef int n = popcount(s.pool), c, i
    knowers[0] = 0
    if n:
        c = nth_set_bit(s.pool, <int>rng_below(&s.rng, <uint32_t>n))
        s.pool &= ~((<uint64_t>1) << c)
        return c
    if s.nbottom:
        c = s.bottom[0] & 63
        knowers[0] = bottom_knowers(s, 0)
        for i in range(1, s.nbottom):
            s.bottom[i - 1] = s.bottom[i]
        s.bottom[s.nbottom - 1] = 0
        s.bknow[0] >>= 1
        s.bknow[1] >>= 1
        s.nbottom -= 1
        return c
    return NO_CARD


cdef void to_bottom(SPState* s, int card, int knowers) noexcept nogil:
    """Put ``card`` under the deck, known to the seats of the bitmask ``knowers``."""
    if s.nbottom >= 64:
        return
    s.bottom[s.nbottom] = <uint8_t>(card | ((knowers & 3) << 6))
    s.bknow[0] |= (<uint64_t>((knowers >> 2) & 1)) << s.nbottom
    s.bknow[1] |= (<uint64_t>((knowers >> 3) & 1)) << s.nbottom
    s.nbottom += 1


cdef void draw_assistant(SPState* s, Player* P) noexcept nogil:
    cdef int n = popcount(s.adeck), a
    if n == 0:
        return
    a = nth_set_bit(s.adeck, <int>rng_below(&s.rng, <uint32_t>n))
    s.adeck &= ~((<uint32_t>1) << a)
    P.hand |= (<uint32_t>1) << a


# -- pending choices -------------------------------------------------------------------------------------------

cdef inline void push(Player* P, int code, int arg) noexcept nogil:
    if P.npend < MAX_PEND:
        P.pend[P.npend] = <uint8_t>code
        P.parg[P.npend] = <uint8_t>arg
        P.npend += 1


cdef inline void pop(Player* P) noexcept nogil:
    cdef int i
    for i in range(1, P.npend):
        P.pend[i - 1] = P.pend[i]
        P.parg[i - 1] = P.parg[i]
    P.npend -= 1
    P.pend[P.npend] = 0
    P.parg[P.npend] = 0


cdef inline bint alters(int code) noexcept nogil:
    """Whether a pending choice alters dice (RULES.md, "Recycle": such a choice may alter the held die)."""
    return code == PD_ADJUST or code == PD_SILAS or code == PD_REROLL


cdef void push_alter(Player* P, int code, int arg) noexcept nogil:
    """Queue a choice that alters dice: in front of the held Recycle die's placement when there is one (so that it
    may alter that die before it is placed; that placement is the head whenever such a choice is made), else at
    the back."""
    cdef int r = 0, i
    if P.held == 0 or P.npend >= MAX_PEND:
        push(P, code, arg)
        return
    while r < P.npend and P.pend[r] != PD_RECYCLE_PLACE:
        r += 1
    i = P.npend
    while i > r:
        P.pend[i] = P.pend[i - 1]
        P.parg[i] = P.parg[i - 1]
        i -= 1
    P.pend[r] = <uint8_t>code
    P.parg[r] = <uint8_t>arg
    P.npend += 1


cdef void queue_placement(Player* P) noexcept nogil:
    """After the Recycle pick (popped): queue the held die's placement behind the choices that alter dice already
    queued (Max's box, a bonus space's or the reward's effect, queued behind the pick) and in front of the others,
    each group in its order."""
    cdef uint8_t code[MAX_PEND]
    cdef uint8_t arg[MAX_PEND]
    cdef int i, k = 0
    if P.npend >= MAX_PEND:
        return
    for i in range(P.npend):
        if alters(P.pend[i]):
            code[k] = P.pend[i]
            arg[k] = P.parg[i]
            k += 1
    code[k] = PD_RECYCLE_PLACE
    arg[k] = 0
    k += 1
    for i in range(P.npend):
        if not alters(P.pend[i]):
            code[k] = P.pend[i]
            arg[k] = P.parg[i]
            k += 1
    for i in range(k):
        P.pend[i] = code[i]
        P.parg[i] = arg[i]
    P.npend = <uint8_t>k


cdef uint32_t advance_options(const SPConfig* cfg, const Player* P, int colour) noexcept nogil:
    cdef uint32_t open_ = 0
    cdef int c
    for c in range(NCOL):
        if P.track[c] < cfg.ntrack:
            open_ |= 1u << c
    if colour == ANY or track_any_for(cfg, P, colour):
        return open_
    if (open_ >> colour) & 1:
        return 1u << colour
    return open_


cdef uint32_t tile_options(const SPConfig* cfg, const SPState* s, const Player* P) noexcept nogil:
    """Bit t*4+k: take tile t into slot k (k = 3: not a slot tile)."""
    cdef uint32_t out = 0
    cdef int t, k
    for t in range(NTILES):
        if not (s.stacks >> t) & 1 or has_tile(P, t):
            continue
        if t >= TL_BONUS_POINT:
            for k in range(SLOTS):
                if P.stile[k] == NO_CARD:
                    out |= 1u << (t * 4 + k)
        else:
            out |= 1u << (t * 4 + 3)
    return out


cdef void take_tile(Player* P, int t, int k) noexcept nogil:
    P.tiles |= <uint8_t>(1 << t)
    if k < SLOTS:
        P.stile[k] = <uint8_t>t


cdef uint32_t conrad_options(const SPConfig* cfg, const SPState* s, const Player* P) noexcept nogil:
    cdef uint32_t out = P.played & ~cfg.kind_mask[AK_CONRAD]
    if is_solo(cfg) and not secondary(cfg, s):
        out &= ~cfg.kind_mask[AK_WARREN]
    return out


cdef int olympia_count(const SPConfig* cfg, const Player* P, int exclude) noexcept nogil:
    cdef int n = popcount(P.tableau & cfg.box_robots) + 1
    if exclude != NO_CARD:
        n -= 1
    return n


cdef void step_track(const SPConfig* cfg, SPState* s, int p, int c) noexcept nogil:
    cdef Player* P = &s.pl[p]
    cdef int pos = P.track[c], i, t
    if pos >= cfg.ntrack:
        return
    P.track[c] = <uint8_t>(pos + 1)
    for i in range(cfg.nbonus):
        if cfg.bonus_after[i] == pos:
            t = s.bonus[c][i]
            apply_symbol(cfg, s, p, cfg.bonus_sym[t][0], cfg.bonus_sym[t][1], cfg.bonus_sym[t][2])


# the value of a die byte (dval), 0 for no die (index 0)
cdef uint8_t DIE_VALUE[NTYPES + 1]


cdef void _fill_die_value() noexcept:
    cdef int b
    DIE_VALUE[0] = 0
    for b in range(1, NTYPES + 1):
        DIE_VALUE[b] = <uint8_t>dval(b)


_fill_die_value()


# for a die byte on an upgrade space (0: none), bit 0: it may go up (not a 6), bit 14: down (not a 1); shifted by
# the space's index and by A_UP_SPACE & 63 this is its up_space / down_space actions (A_DOWN_SPACE = A_UP_SPACE + 14)
cdef uint32_t SECTION_CHANGE[NTYPES + 1]


cdef void _fill_section_change() noexcept:
    cdef int b
    SECTION_CHANGE[0] = 0
    for b in range(1, NTYPES + 1):
        SECTION_CHANGE[b] = (1u if dval(b) < 6 else 0u) | ((1u << NSPACE) if dval(b) > 1 else 0u)


_fill_section_change()


cdef void check_level(const SPConfig* cfg, SPState* s, int p) noexcept nogil:
    cdef Player* P = &s.pl[p]
    cdef int c
    if P.level >= cfg.nlevels or load_le32(&P.space[0]) == 0:       # the top level; no die on the section
        return
    # the dice's values (DIE_VALUE: 0 for an empty space), without a branch on which spaces hold one
    cdef int total = P.upg_bonus + param_sum(cfg, P, AK_FACTORY_BONUS) + DIE_VALUE[P.space[0]] \
        + DIE_VALUE[P.space[1]] + DIE_VALUE[P.space[2]] + DIE_VALUE[P.space[3]]
    if total < cfg.thresholds[P.level]:
        return
    for c in range(NCOL):
        discard_die(s, P.space[c])
        P.space[c] = 0
    P.upg_bonus = 0
    if cfg.level_tile[P.level]:
        push(P, PD_TILE, 0)
    else:
        P.sparks = sat(P.sparks + 1)
    P.level += 1


cdef void apply_symbol(const SPConfig* cfg, SPState* s, int p, int kind, int n, int colour) noexcept nogil:
    cdef Player* P = &s.pl[p]
    cdef int i
    if kind == SY_COGS:
        P.cogs = sat(P.cogs + n)
    elif kind == SY_SPARKS:
        P.sparks = sat(P.sparks + n)
    elif kind == SY_ASSIST:
        for i in range(n):
            draw_assistant(s, P)
    elif kind == SY_DIE:
        for i in range(n):
            gain_die(P, draw_bag(s))
    elif kind == SY_DIE_COLOUR:
        for i in range(n):
            gain_die(P, draw_colour(s, colour))
    elif kind == SY_REROLL:
        push_alter(P, PD_REROLL, 0)
    elif kind == SY_ADJUST:
        push_alter(P, PD_ADJUST, n)
    elif kind == SY_ADVANCE_ANY:
        for i in range(n):
            push(P, PD_ADVANCE, ANY)
    elif kind == SY_FACTORY:
        P.upg_bonus = sat(P.upg_bonus + n)
        check_level(cfg, s, p)
    elif kind == SY_TILE:
        for i in range(n):
            push(P, PD_TILE, 0)
    elif kind == SY_COG_ASSIST:
        P.cogs = sat(P.cogs + 1)
        draw_assistant(s, P)
    elif kind == SY_ADVANCE:
        for i in range(n):
            push(P, PD_ADVANCE, colour)


cdef inline void fire_box(const SPConfig* cfg, SPState* s, int p, int b) noexcept nogil:
    if b == BOARD_BOX:
        apply_symbol(cfg, s, p, cfg.board_box[0], cfg.board_box[1], cfg.board_box[2])
    else:
        apply_symbol(cfg, s, p, cfg.r_box[b][0], cfg.r_box[b][1], cfg.r_box[b][2])


cdef void discard_recycled(SPState* s, Player* P) noexcept nogil:
    """Recycle's dice not placed (skipped, nowhere to go, or no room left in the queue) to the discard pile."""
    cdef int j
    for j in range(P.nrc):
        discard_die(s, P.rc[j])
        P.rc[j] = 0
    P.nrc = 0


cdef void complete_robot(const SPConfig* cfg, SPState* s, int p, int k) noexcept nogil:
    """The robot in slot k is complete: to the tableau, its track, its reward, its slot upgrade, its dice."""
    cdef Player* P = &s.pl[p]
    cdef int card = P.line[k], j, b, n
    cdef bint recycle = False
    P.line[k] = NO_CARD
    P.tableau |= (<uint64_t>1) << card
    P.completed = sat(P.completed + 1)
    if P.stile[k] == TL_RECYCLE and line_has_vacancy(cfg, P, k) and P.nrc == 0:
        for j in range(SPACES):
            b = P.space[SP_ROBOT + 3 * k + j]
            P.space[SP_ROBOT + 3 * k + j] = 0
            if b:
                P.rc[P.nrc] = <uint8_t>b
                P.nrc += 1
        recycle = P.nrc != 0
    else:
        for j in range(SPACES):
            discard_die(s, P.space[SP_ROBOT + 3 * k + j])
            P.space[SP_ROBOT + 3 * k + j] = 0
    n = cfg.r_adv[card] + (1 if P.stile[k] == TL_BONUS_POINT else 0)
    for j in range(n):
        push(P, PD_ADVANCE, cfg.r_colour[card])
    if cfg.r_rew[card][0] != SY_NONE:
        apply_symbol(cfg, s, p, cfg.r_rew[card][0], cfg.r_rew[card][1], cfg.r_rew[card][2])
    if P.stile[k] == TL_BONUS_COG:
        P.cogs = sat(P.cogs + 1)
    if cfg.r_box[card][0] != SY_NONE and inst(cfg, P, AK_MAX):
        push(P, PD_MAX, card)
    if recycle:
        # "After scoring the robot, she takes a blue die from the card" (seed, Eva's example): the pick waits
        # behind the robot's track advances and rewards, whose bonus spaces may pay for changing the die. (A
        # full queue, which no game reaches, discards the dice: a kept die always has its pick pending.)
        if P.npend < MAX_PEND:
            push(P, PD_RECYCLE_PICK, 0)
        else:
            discard_recycled(s, P)


cdef void check_robot(const SPConfig* cfg, SPState* s, int p, int k) noexcept nogil:
    cdef Player* P = &s.pl[p]
    cdef int card = P.line[k], j
    if card == NO_CARD:
        return
    for j in range(cfg.r_n[card]):
        if P.space[SP_ROBOT + 3 * k + j] == 0:
            return
    complete_robot(cfg, s, p, k)


cdef void onetime(const SPConfig* cfg, SPState* s, int p, int a) noexcept nogil:
    """The effect of assistant a when played (or copied by Conrad); permanent and per-turn ones do nothing here."""
    cdef Player* P = &s.pl[p]
    cdef int kind = cfg.a_kind[a], prm = cfg.a_param[a], i
    if kind == AK_CONRAD:
        push(P, PD_CONRAD, 0)
    elif kind == AK_OLYMPIA:
        push(P, PD_OLYMPIA, (prm << 6) | (NO_CARD & 63))
    elif kind == AK_WARREN:
        for i in range(s.njunk):
            gain_die(P, s.junk[i])
            s.junk[i] = 0
        s.njunk = 0
    elif kind == AK_COMPLETE:
        push(P, PD_COMPLETE, prm)
    elif kind == AK_COGS:
        apply_symbol(cfg, s, p, SY_COGS, prm, 0)
    elif kind == AK_SPARKS:
        apply_symbol(cfg, s, p, SY_SPARKS, prm, 0)
    elif kind == AK_TILE:
        apply_symbol(cfg, s, p, SY_TILE, prm, 0)
    elif kind == AK_DIE:
        apply_symbol(cfg, s, p, SY_DIE, prm, 0)
    elif kind == AK_ADVANCE_ANY:
        apply_symbol(cfg, s, p, SY_ADVANCE_ANY, prm, 0)
    elif kind == AK_FACTORY:
        apply_symbol(cfg, s, p, SY_FACTORY, prm, 0)
    elif kind == AK_FREE_PLAY:
        for i in range(prm):
            push(P, PD_FREE_PLAY, 0)
    elif kind == AK_DIE_CHOICE:
        for i in range(prm):
            push(P, PD_DIE_CHOICE, 0)
    elif kind == AK_FACTORY_BONUS:
        # a permanent "+n towards the requirement": the section's dice may meet it already (the seed's upgrade
        # is a condition on the section's sum, l. 131-133), and a full section could not take another die
        check_level(cfg, s, p)


cdef bint can_recruit(const SPConfig* cfg, const SPState* s, const Player* P, int a) noexcept nogil:
    cdef int kind = cfg.a_kind[a]
    if kind == AK_CONRAD and conrad_options(cfg, s, P) == 0:
        return False
    if kind == AK_WARREN and is_solo(cfg) and not secondary(cfg, s):
        return False
    return True


cdef bint any_dice(const Player* P) noexcept nogil:
    """Whether the seat has an available die."""
    return (load_le64(&P.avail[0]) | load_le64(&P.avail[8]) | load_le64(&P.avail[16])) != 0


cdef inline bint adjustable(const Player* P) noexcept nogil:
    """Whether the seat has a die whose value a free adjustment may change: an available one, one in the
    upgrade section (whose sum counts; RULES.md, the action table's `up_space` row) or the held Recycle die."""
    return any_dice(P) or load_le32(&P.space[0]) != 0 or P.held != 0


cdef int dice_count(const Player* P) noexcept nogil:
    cdef int t, n = 0
    for t in range(NTYPES):
        n += P.avail[t]
    return n


cdef void settle(const SPConfig* cfg, SPState* s, int p) noexcept nogil:
    """Answer the head of the seat's queue while it leaves no choice (all decided by public facts)."""
    cdef Player* P = &s.pl[p]
    cdef uint32_t opts
    cdef int head, arg, j
    while P.npend:
        head = P.pend[0]
        arg = P.parg[0]
        if head == PD_ADVANCE:
            opts = advance_options(cfg, P, arg)
            if popcount(opts) > 1:
                return
            pop(P)
            if opts:
                step_track(cfg, s, p, lowest_bit(opts))
        elif head == PD_TILE:
            opts = tile_options(cfg, s, P)
            if popcount(opts) > 1:
                return
            pop(P)
            if opts:
                j = lowest_bit(opts)
                take_tile(P, j >> 2, j & 3)
        elif head == PD_CONRAD:
            opts = conrad_options(cfg, s, P)
            if popcount(opts) > 1:
                return
            pop(P)
            if opts:
                P.conrad = <uint8_t>lowest_bit(opts)
                onetime(cfg, s, p, P.conrad)
        elif head == PD_RECYCLE_PICK:
            if P.nrc and line_has_vacancy(cfg, P, -1):
                return
            discard_recycled(s, P)
            pop(P)
        elif head == PD_RECYCLE_PLACE:
            if P.held:
                return
            pop(P)
        elif head == PD_MAX:
            if P.cogs >= 1:
                return
            pop(P)
        elif head == PD_OLYMPIA:
            if (arg >> 6) > 0 and olympia_count(cfg, P, NO_CARD if (arg >> 6) >= 2 else (arg & 63)) > 0:
                return
            pop(P)
        elif head == PD_COMPLETE:
            if P.cogs >= 1:
                for j in range(SLOTS):
                    if P.line[j] != NO_CARD and cfg.r_colour[P.line[j]] == arg:
                        return
            pop(P)
        elif head == PD_FREE_PLAY:
            if P.hand:
                return
            pop(P)
        elif head == PD_REROLL:
            if P.nrr or any_dice(P) or P.held:
                return
            pop(P)
        elif head == PD_ADJUST:
            if arg > 0 and adjustable(P):
                return
            pop(P)
        elif head == PD_SILAS:
            if P.silas > 0 and adjustable(P):
                return
            P.silas = 0
            pop(P)
        else:
            return


# -- where a die may go ----------------------------------------------------------------------------------------

cdef int colour_cost(const SPConfig* cfg, const Player* P, int p, int b) noexcept nogil:
    if dcol(b) == p and has_tile(P, TL_IGN_COLOUR):
        return 0
    if inst(cfg, P, AK_GORDON):
        return 1
    return cfg.ignore_colour_cost


cdef int fit(const SPConfig* cfg, const Player* P, int p, int b, int sp, int from_sp) noexcept nogil:
    """Cogs it costs to put die b on space sp (moving it from from_sp, or -1 from the available dice), +16 if it
    uses D9's once-per-turn value ignore; -1 when it cannot go there."""
    cdef int k, j, card, cost = 0, need, n
    if P.space[sp] != 0:
        return -1
    if sp < SP_ROBOT:
        if P.level >= cfg.nlevels:
            return -1
        n = upg_count(P)
        if from_sp >= 0 and from_sp < SP_ROBOT:
            n -= 1
        if n >= cfg.upgrade_cap:
            return -1
        if dcol(b) != sp:
            cost = colour_cost(cfg, P, p, b)
    elif sp == SP_STORE:
        if cfg.storage == 0:
            return -1
    else:
        k = (sp - SP_ROBOT) // 3
        j = (sp - SP_ROBOT) % 3
        card = P.line[k]
        if card == NO_CARD or j >= cfg.r_n[card]:
            return -1
        need = cfg.r_col[card][j]
        if need != ANY and need != dcol(b):
            cost = colour_cost(cfg, P, p, b)
        need = cfg.r_val[card][j]
        if need != 0 and need != dval(b):
            if not (dcol(b) == p and has_tile(P, TL_IGN_VALUE)):
                if P.used_ignval >= inst(cfg, P, AK_IGNORE_VALUE):
                    return -1
                cost += 16
    if (cost & 15) > P.cogs:
        return -1
    return cost


cdef void put_die(const SPConfig* cfg, SPState* s, int p, int b, int sp, int cost) noexcept nogil:
    cdef Player* P = &s.pl[p]
    P.cogs -= cost & 15
    if cost & 16:
        P.used_ignval += 1
    P.space[sp] = <uint8_t>b
    if sp < SP_ROBOT:
        check_level(cfg, s, p)
    elif sp < SP_STORE:
        check_robot(cfg, s, p, (sp - SP_ROBOT) // 3)


# -- move generation -------------------------------------------------------------------------------------------

cdef void take_options(const SPConfig* cfg, const SPState* s, int p, uint64_t* w) noexcept nogil:
    cdef const Player* P = &s.pl[p]
    cdef int k, c, st, n = s.njunk, i
    cdef bint quincy
    if p == active_of(cfg, s) and not secondary(cfg, s) and s.ntaken == 0 and s.take_end == 0xFF:
        for k in range(NPROD):
            if (P.prod_used >> k) & 1:
                continue
            c = prod_count(cfg, k)
            if n <= c:
                setb(w, A_TAKE + k * MAX_JUNK)
            elif k == 1:
                for st in range(n - c + 1):
                    setb(w, A_TAKE + k * MAX_JUNK + st)
            else:
                setb(w, A_TAKE + k * MAX_JUNK)
                setb(w, A_TAKE + k * MAX_JUNK + n - c)
        return
    quincy = inst(cfg, P, AK_QUINCY) > 0
    if quincy:
        for i in range(n):
            setb(w, A_PICK + i)
    elif s.take_end == 0:
        setb(w, A_PICK)
    elif s.take_end == 1:
        setb(w, A_PICK + n - 1)
    else:
        setb(w, A_PICK)
        setb(w, A_PICK + n - 1)


cdef inline uint32_t pick_set(const SPConfig* cfg, const SPState* s, const Player* P) noexcept nogil:
    """``take_options``' picks as a set (bit i: junkyard position i) when the junkyard is not empty and the taker
    is not choosing a production tile: what next_taker reads to find a forced take without building a mask."""
    cdef int n = s.njunk
    if inst(cfg, P, AK_QUINCY) > 0:
        return (1u << n) - 1
    if s.take_end == 0:
        return 1
    if s.take_end == 1:
        return 1u << (n - 1)
    return 1u | (1u << (n - 1))


cdef inline int prod_count(const SPConfig* cfg, int k) noexcept nogil:
    if k == 3:
        return 4 if cfg.nseats == 4 else 5
    return k + 2


cdef void refill_options(const SPConfig* cfg, const SPState* s, int p, uint64_t* w) noexcept nogil:
    cdef const Player* P = &s.pl[p]
    cdef int k, i
    if P.nbuf == 0:
        for k in range(SLOTS):
            if P.line[k] != NO_CARD:
                setb(w, A_DISCARD_ROBOT + k)
        setb(w, A_DRAW)
        return
    for i in range(P.nbuf):
        for k in range(SLOTS):
            if P.line[k] == NO_CARD:
                setb(w, A_ASSIGN + P.buf[i] * SLOTS + k)


cdef void pending_options(const SPConfig* cfg, const SPState* s, int p, uint64_t* w) noexcept nogil:
    cdef const Player* P = &s.pl[p]
    cdef int head = P.pend[0], arg = P.parg[0], t, i, b, k
    cdef uint32_t opts
    cdef uint64_t boxes
    if head == PD_ADVANCE:
        opts = advance_options(cfg, P, arg)
        while opts:
            setb(w, A_TRACK + lowest_bit(opts))
            opts &= opts - 1
    elif head == PD_TILE:
        opts = tile_options(cfg, s, P)
        while opts:
            setb(w, A_TILE + lowest_bit(opts))
            opts &= opts - 1
    elif head == PD_CONRAD:
        opts = conrad_options(cfg, s, P)
        while opts:
            setb(w, A_COPY + lowest_bit(opts))
            opts &= opts - 1
    elif head == PD_REROLL:
        if P.nrr < MAX_RR:
            for t in range(NTYPES):
                if P.avail[t]:
                    setb(w, A_MARK + t)
        if P.held and not P.hmark:
            setb(w, A_MARK_HELD)
        setb(w, A_ROLL)
    elif head == PD_ADJUST or head == PD_SILAS:
        for t in range(NTYPES):
            if P.avail[t]:
                if t % 6 < 5:
                    setb(w, A_UP + t)
                if t % 6 > 0:
                    setb(w, A_DOWN + t)
        for k in range(NCOL):           # "any of your dice": the upgrade section's too
            b = P.space[k]
            if b:
                if dval(b) < 6:
                    setb(w, A_UP_SPACE + k)
                if dval(b) > 1:
                    setb(w, A_DOWN_SPACE + k)
        if P.held:                      # the held Recycle die (the choice is queued in front of its placement)
            if dval(P.held) < 6:
                setb(w, A_UP_HELD)
            if dval(P.held) > 1:
                setb(w, A_DOWN_HELD)
        setb(w, A_SKIP)
    elif head == PD_RECYCLE_PICK:
        for i in range(P.nrc):
            setb(w, A_RECYCLE + P.rc[i] - 1)
        setb(w, A_SKIP)
    elif head == PD_RECYCLE_PLACE:
        t = P.held - 1
        for k in range(SP_ROBOT, SP_STORE):
            if fit(cfg, P, p, P.held, k, -1) >= 0:
                setb(w, A_PLACE + t * NSPACE + k)
        if P.cogs >= cfg.change_cost:
            if t % 6 < 5:
                setb(w, A_UP + t)
            if t % 6 > 0:
                setb(w, A_DOWN + t)
        if P.used_octavia < inst(cfg, P, AK_OCTAVIA):
            setb(w, A_FLIP + t)
        if P.used_reroll1 < inst(cfg, P, AK_REROLL_ONE):
            setb(w, A_REROLL1 + t)
        # the effects whose choice is queued in front of the placement, with room in the queue: D6's free step,
        # the t4 tile's reroll, Silas (discarding an available die, never the held one), a power box that alters
        # dice (a spark, or Emma's cog)
        if P.npend < MAX_PEND:
            if P.used_adjust < inst(cfg, P, AK_ADJUST):
                setb(w, A_ADJUST)
            if P.reroll_tile:
                setb(w, A_REROLL)
            if inst(cfg, P, AK_SILAS):
                for k in range(NTYPES):
                    if P.avail[k]:
                        setb(w, A_SILAS + k)
            boxes = ((P.tableau & cfg.box_robots) | ((<uint64_t>1) << BOARD_BOX)) & cfg.alter_boxes & ~P.box_used
            if P.sparks:
                bits_to64(w, A_SPARK_BOX, boxes)
            if P.cogs >= 1 and P.used_emma < inst(cfg, P, AK_EMMA):
                bits_to64(w, A_COG_BOX, boxes)
        setb(w, A_SKIP)
    elif head == PD_MAX:
        setb(w, A_FREE_BOX + arg)
        setb(w, A_SKIP)
    elif head == PD_OLYMPIA:
        boxes = (P.tableau & cfg.box_robots) | ((<uint64_t>1) << BOARD_BOX)
        if (arg >> 6) < 2:
            boxes &= ~((<uint64_t>1) << (arg & 63))
        while boxes:
            setb(w, A_FREE_BOX + lowest_bit(boxes))
            boxes &= boxes - 1
        setb(w, A_SKIP)
    elif head == PD_COMPLETE:
        for k in range(SLOTS):
            if P.line[k] != NO_CARD and cfg.r_colour[P.line[k]] == arg:
                setb(w, A_COMPLETE + k)
        setb(w, A_SKIP)
    elif head == PD_FREE_PLAY:
        opts = P.hand
        while opts:
            i = lowest_bit(opts)
            opts &= opts - 1
            if can_recruit(cfg, s, P, i):
                setb(w, A_RECRUIT + i)
        setb(w, A_SKIP)
    elif head == PD_DIE_CHOICE:
        for t in range(NTYPES):
            setb(w, A_DIE_CHOICE + t)


# The legal actions of the action phase. The seat's fields are read into locals first: the mask is written
# through ``uint64_t*`` and the seat's bytes are ``uint8_t``, which the C compiler must assume any store may change,
# so a field read after a store is read again. The die actions of the families indexed by die type (sell, +1, -1,
# flip, Frank, Silas, reroll one) are gathered as 24-bit masks of types and set once per family; the place actions
# are set per available type, from the free spaces and the robot cards' requirement masks (``r_fit``,
# built by make_core), which is what ``fit`` checks for a die from the available ones, for every die at once.

cdef inline uint64_t nz_bit(uint64_t x, int i) noexcept nogil:
    """Bit i when ``x`` is not zero."""
    return <uint64_t>(x != 0) << i


cdef inline void set_place(uint64_t* w, uint64_t* written, int i, int off, uint64_t bits) noexcept nogil:
    """OR a die type's place actions, or a space's rearrange actions (``bits``, 14 of them from bit ``off`` of word
    ``i`` on) into the mask, the words written into ``written`` (a local of the caller, kept in a register, stored
    into w[SP_WRITTEN] once). Whether the field spills into the next word, and whether either part is empty, change
    from type to type and decision to decision: both parts are written and named without a branch (the word after
    a field is always in the buffer: the place fields end in word 5, the rearrange ones in word 12; OR-ing 0 there
    is safe)."""
    cdef uint64_t lo = bits << off
    cdef uint64_t hi = (bits >> 1) >> (63 - off)       # bits >> (64 - off), and 0 when off is 0
    w[i] |= lo
    w[i + 1] |= hi
    written[0] |= nz_bit(lo, i) | nz_bit(hi, i + 1)


cdef inline void set_one(uint64_t* w, uint64_t* written, int a) noexcept nogil:
    """``setb`` with the written words gathered in ``written``."""
    w[a >> 6] |= (<uint64_t>1) << (a & 63)
    written[0] |= (<uint64_t>1) << (a >> 6)


# The place actions of die type t (colour c = t // 6) under ac = 1 when its colour requirement is paid or waived
# (any colour: r_fit row NCOL + 1) and av = 1 when its value requirement is ignored (r_fit column 0): entry
# t * 4 + ac + 2 * av. ``fit``: the r_fit index ci * 7 + vi; ``spaces``: the non-robot spaces the die may take
# (its colour's upgrade space, or all four when the colour is paid, and the storage); ``word``/``off``: where the
# type's 14 place actions start in the mask. Filled at import; read by action_options once per available type.
ctypedef struct PlaceEntry:
    uint8_t fit
    uint8_t word
    uint8_t off
    uint8_t spare
    uint16_t spaces
    uint16_t spare2


cdef PlaceEntry PLACE_TAB[NTYPES * 4]


cdef void _fill_place_tab() noexcept:
    cdef int t, ac, av, ci, vi, base
    cdef PlaceEntry* e
    for t in range(NTYPES):
        for ac in range(2):
            for av in range(2):
                e = &PLACE_TAB[t * 4 + ac + 2 * av]
                ci = NCOL + 1 if ac else t // 6
                vi = 0 if av else t % 6 + 1
                base = A_PLACE + t * NSPACE
                e.fit = <uint8_t>(ci * 7 + vi)
                e.word = <uint8_t>(base >> 6)
                e.off = <uint8_t>(base & 63)
                e.spaces = <uint16_t>((0xF if ac else 1 << (t // 6)) | (1 << SP_STORE))
                e.spare = 0
                e.spare2 = 0


_fill_place_tab()


cdef inline uint64_t all_if(bint c) noexcept nogil:
    """All ones when ``c``, else 0 (a mask for a branch-free choice)."""
    return (<uint64_t>0) - <uint64_t>c


cdef inline uint64_t played_and_copy(const Player* P) noexcept nogil:
    """The seat's played assistants (low half) and the one Conrad copies (high half, none for NO_CARD): with
    ``SPConfig.kind_mask2``, ``inst`` is one popcount."""
    cdef int conrad = P.conrad
    return P.played | ((<uint64_t>(conrad != NO_CARD) << (conrad & (MAX_ASSIST - 1))) << 32)


# Action-phase move generation without branches on the seat's data where it can: a branch whose direction changes
# from decision to decision (which families are open, which types need their colour paid) mispredicts often, and
# a mispredicted branch costs as much as 15-20 instructions. Every family but place and rearrange has constant ids
# in mask words 5-8 (sell, sell space, up, down, flip, Frank, Silas, reroll one, reroll) and 12-14 (recruit,
# spark box, cog box): each word is built in a local under all-ones-or-zero masks, OR-ed into the mask once, and
# named in ``written`` from its value (each named word holds an action, as the kernel's loop expects). A word is
# stored as soon as it is complete, so that few values stay live across the place loop. Place actions: one
# PLACE_TAB entry per available type, written by ``set_place``.
cdef void action_options(const SPConfig* cfg, const SPState* s, int p, uint64_t* w) noexcept nogil:
    cdef const Player* P = &s.pl[p]
    cdef int t, sp, b, c
    cdef uint32_t bits, types, occ, free, fr, up, fits, blocked
    cdef uint64_t boxes, written, r5, r7, r8, r12, r13, r14, r6, r21, m, sel, own2
    cdef const PlaceEntry* e
    cdef const uint8_t* fit0
    cdef const uint8_t* fit1
    cdef const uint8_t* fit2
    if P.npend:
        pending_options(cfg, s, p, w)
        return
    cdef uint32_t played = P.played
    cdef int cogs = P.cogs, tiles = P.tiles
    cdef uint64_t pc = played_and_copy(P)
    # recruit (780: word 12 from bit 12): the hand when the cogs pay for the next one, but Conrad with nothing to
    # copy, and Warren in the solo game outside a secondary turn
    c = popcount(played) + 1 - ((tiles >> TL_DISCOUNT) & 1)
    blocked = cfg.kind_mask[AK_WARREN] & <uint32_t>all_if(is_solo(cfg) and not secondary(cfg, s))
    blocked |= cfg.kind_mask[AK_CONRAD] & <uint32_t>all_if((played & ~cfg.kind_mask[AK_CONRAD] & ~blocked) == 0)
    r12 = (<uint64_t>(P.hand & ~blocked) << 12) & all_if(cogs >= c)
    # a spark on a box (812: word 12 from bit 44) and Emma's cog (876: word 13 from bit 44), once per round
    boxes = ((P.tableau & cfg.box_robots) | ((<uint64_t>1) << BOARD_BOX)) & ~P.box_used
    m = all_if(P.sparks != 0)
    r12 |= (boxes << 44) & m
    r13 = (boxes >> 20) & m
    m = all_if((cogs != 0) & (popcount(pc & cfg.kind_mask2[AK_EMMA]) > P.used_emma))
    r13 |= (boxes << 44) & m
    r14 = (boxes >> 20) & m
    w[12] |= r12
    w[13] |= r13
    w[14] |= r14
    w[A_DONE >> 6] |= (<uint64_t>1) << (A_DONE & 63)
    written = nz_bit(r12, 12) | nz_bit(r13, 13) | nz_bit(r14, 14) | ((<uint64_t>1) << (A_DONE >> 6))
    # the available die types and the occupied die spaces as bitsets (``space`` follows ``avail`` in Player)
    cdef uint32_t m1 = nonzero16(&P.avail[16])
    types = nonzero16(&P.avail[0]) | (m1 & 0xFF) << 16
    occ = m1 >> 8 | (nonzero16(&P.space[8]) & 0x3F) << 8
    # sell a die on a space (400: word 6 from bit 16)
    r6 = <uint64_t>occ << 16
    # the dice the Rearrange tile may move this turn
    cdef uint32_t rearr = occ & <uint32_t>all_if(((tiles >> TL_REARRANGE) & 1) & (P.rearranged < cfg.rearrange_limit))
    if types:
        # sell (376: word 5 from bit 56, word 6), up (414: word 6 from bit 30), down (438: word 6 from bit 54,
        # word 7), flip (462: word 7 from bit 14), Frank (486: word 7 from bit 38), Silas (510: word 7 from bit
        # 62, word 8), reroll one (534: word 8 from bit 22), the t4 tile's reroll (558: word 8 bit 46)
        r5 = <uint64_t>types << 56
        r6 |= <uint64_t>types >> 8
        m = all_if(cogs >= cfg.change_cost)
        r6 |= (<uint64_t>(types & ~0x820820u) << 30) & m                # up: not a 6 (types 5, 11, 17, 23)
        bits = types & ~0x041041u                                       # down: not a 1
        r6 |= (<uint64_t>bits << 54) & m
        r7 = (<uint64_t>bits >> 10) & m
        r7 |= (<uint64_t>types << 14) & all_if(popcount(pc & cfg.kind_mask2[AK_OCTAVIA]) > P.used_octavia)
        r7 |= ((<uint64_t>(types & (((cfg.frank_mask >> 1) & 0x3Fu) * 0x041041u)) << 38)
               & all_if(popcount(pc & cfg.kind_mask2[AK_FRANK]) > P.used_frank))
        m = all_if((pc & cfg.kind_mask2[AK_SILAS]) != 0)
        r7 |= (<uint64_t>types << 62) & m
        r8 = (<uint64_t>types >> 2) & m
        r8 |= (<uint64_t>types << 22) & all_if(popcount(pc & cfg.kind_mask2[AK_REROLL_ONE]) > P.used_reroll1)
        r8 |= (<uint64_t>(P.reroll_tile != 0)) << 46
        w[5] |= r5
        w[7] |= r7
        w[8] |= r8
        written |= nz_bit(r5, 5) | nz_bit(r7, 7) | nz_bit(r8, 8)
    w[6] |= r6
    written |= nz_bit(r6, 6)
    # word 21: D6's adjust (1353: bit 9) with a die available or in the upgrade section, and the section's dice
    # changed by 1 cog (up_space 1354: bits 10-13, down_space 1368: bits 24-27; the seed's "alter the value of one
    # of your dice", "at any time": a die there counts by its value), within 1-6: one SECTION_CHANGE entry per
    # space (0 for an empty one), without a branch per space
    r21 = (<uint64_t>(SECTION_CHANGE[P.space[0]] | (SECTION_CHANGE[P.space[1]] << 1)
                      | (SECTION_CHANGE[P.space[2]] << 2) | (SECTION_CHANGE[P.space[3]] << 3))) << (A_UP_SPACE & 63)
    r21 &= all_if(cogs >= cfg.change_cost)
    r21 |= (<uint64_t>((types | (occ & 15)) != 0) & <uint64_t>(popcount(pc & cfg.kind_mask2[AK_ADJUST]) > P.used_adjust)) \
        << (A_ADJUST & 63)
    w[A_ADJUST >> 6] |= r21
    written |= nz_bit(r21, A_ADJUST >> 6)
    if types | rearr:
        # Where a die may go (``fit``, for every die of a type at once): a robot space of a card in the line when
        # its colour is the die's or "any" (every colour when paid: r_fit row NCOL + 1) and its value the die's
        # or none (every value when ignored: column 0); an upgrade space of its colour (any when paid) when the
        # section is open (not at the top level, fewer than upgrade_cap dice: the nibble table is the popcount of
        # 4 bits; a die moved within the section leaves one space); the storage; free spaces only.
        free = ~occ & ((1u << NSPACE) - 1)
        c = <int>((0x4332322132212110ULL >> (4 * (occ & 15))) & 15)
        fr = free & ((0x1FFu << SP_ROBOT) | (<uint32_t>all_if(cfg.storage != 0) & (1u << SP_STORE)))
        up = free & 15u & <uint32_t>all_if(P.level < cfg.nlevels)
        # bits 2t, 2t + 1: type t's colour requirement paid or waived (own colour with the Ignore colour tile),
        # its value requirement ignored (D9's use left; own colour with the Ignore value tile)
        own2 = 0xFFFULL << (12 * p) if p < NCOL else 0
        sel = ((0x555555555555ULL & all_if((1 if (pc & cfg.kind_mask2[AK_GORDON]) != 0
                                            else cfg.ignore_colour_cost) <= cogs))
               | (0xAAAAAAAAAAAAULL & all_if(popcount(pc & cfg.kind_mask2[AK_IGNORE_VALUE]) > P.used_ignval))
               | (own2 & ((0x555555555555ULL & all_if((tiles >> TL_IGN_COLOUR) & 1))
                          | (0xAAAAAAAAAAAAULL & all_if((tiles >> TL_IGN_VALUE) & 1)))))
        # an empty slot (NO_CARD) reads row EMPTY_ROW (63), all zero; a card id is below 63
        fit0 = cfg.r_fit[P.line[0] & EMPTY_ROW]
        fit1 = cfg.r_fit[P.line[1] & EMPTY_ROW]
        fit2 = cfg.r_fit[P.line[2] & EMPTY_ROW]
        bits = types
        m = fr | (up & <uint32_t>all_if(c < cfg.upgrade_cap))
        while bits:
            t = lowest_bit(bits)
            bits &= bits - 1
            e = &PLACE_TAB[t * 4 + ((sel >> (2 * t)) & 3)]
            fits = ((<uint32_t>fit0[e.fit] << SP_ROBOT) | (<uint32_t>fit1[e.fit] << (SP_ROBOT + 3))
                    | (<uint32_t>fit2[e.fit] << (SP_ROBOT + 6)) | e.spaces) & <uint32_t>m
            set_place(w, &written, e.word, e.off, fits)
        # rearrange (584 + 14 * sp: words 9-12): the die on space sp to any space it fits
        bits = rearr
        while bits:
            sp = lowest_bit(bits)
            bits &= bits - 1
            t = P.space[sp] - 1
            e = &PLACE_TAB[t * 4 + ((sel >> (2 * t)) & 3)]
            fits = ((<uint32_t>fit0[e.fit] << SP_ROBOT) | (<uint32_t>fit1[e.fit] << (SP_ROBOT + 3))
                    | (<uint32_t>fit2[e.fit] << (SP_ROBOT + 6)) | e.spaces) \
                & (fr | (up & <uint32_t>all_if(c - (sp < SP_ROBOT) < cfg.upgrade_cap)))
            b = A_REARRANGE + sp * NSPACE
            set_place(w, &written, b >> 6, b & 63, fits)
    w[SP_WRITTEN] |= written


cdef void legal_for(const SPConfig* cfg, const SPState* s, int seat, uint64_t* w) noexcept nogil:
    """The legal actions of any seat into ``w`` (SP_MASK_WORDS words)."""
    cdef int i
    cdef uint64_t buf[SP_MASK_BUF]
    if not (sp_actors(cfg, s) >> seat) & 1:
        for i in range(cfg.mask_words):
            w[i] = 0
        return
    actor_legal(cfg, s, seat, buf)
    memcpy(w, buf, SP_MASK_WORDS * sizeof(uint64_t))


cdef void actor_legal(const SPConfig* cfg, const SPState* s, int seat, uint64_t* w) noexcept nogil:
    """The legal actions of an acting seat into the move-generation buffer ``w`` (SP_MASK_BUF words)."""
    zero_words(w, SP_MASK_BUF)      # 24 words: straight-line stores
    if s.phase == PH_ACTION:
        action_options(cfg, s, seat, w)
    elif s.phase == PH_TAKE:
        take_options(cfg, s, seat, w)
    elif s.phase == PH_REFILL:
        refill_options(cfg, s, seat, w)
    elif s.phase == PH_DRAFT:
        bits_to(w, A_DRAFT, draft_hand(cfg, s, seat))


cdef inline void bits_to(uint64_t* w, int base, uint32_t bits) noexcept nogil:
    while bits:
        setb(w, base + lowest_bit(bits))
        bits &= bits - 1


cdef inline void bits_to64(uint64_t* w, int base, uint64_t bits) noexcept nogil:
    while bits:
        setb(w, base + lowest_bit(bits))
        bits &= bits - 1


cdef void sp_legal_mask(const void* c, const void* st, int seat, uint64_t* words) noexcept nogil:
    legal_for(<const SPConfig*>c, <const SPState*>st, seat, words)


cdef uint64_t sp_legal_mask_words(const void* c, const void* st, int seat, uint64_t* words) noexcept nogil:
    # EngineSpec.legal_mask_words: sp_legal_mask for a seat the kernel knows is acting, straight into its buffer
    # (SP_MASK_BUF words: SPEC.mask_scratch covers the two past the mask), and the set of the mask words written,
    # so that State.legal_actions lists those instead of scanning all 22
    actor_legal(<const SPConfig*>c, <const SPState*>st, seat, words)
    return words[SP_WRITTEN]


# -- the flow of a turn ----------------------------------------------------------------------------------------

cdef void start_turn(const SPConfig* cfg, SPState* s) noexcept nogil:
    cdef int p, i
    cdef Player* P
    for p in range(cfg.nseats):
        P = &s.pl[p]
        P.used_frank = P.used_octavia = P.used_adjust = P.used_reroll1 = P.used_ignval = 0
        P.reroll_tile = 0
        P.rearranged = 0
        P.completed = 0
    if not secondary(cfg, s):
        for i in range(s.njunk):
            discard_die(s, s.junk[i])
            s.junk[i] = 0
        s.njunk = 0
        for i in range(cfg.junkyard):
            s.junk[s.njunk] = <uint8_t>draw_bag(s)
            if s.junk[s.njunk]:
                s.njunk += 1
    s.phase = PH_TAKE
    s.taker = <uint8_t>active_of(cfg, s)
    s.ntaken = 0
    s.take_end = 0xFF if not secondary(cfg, s) else 2
    s.started = 1
    next_taker(cfg, s, False)


cdef int take_need(const SPConfig* cfg, const SPState* s) noexcept nogil:
    """Dice the current non-active taker takes."""
    return 2 if (cfg.nseats == 2 or secondary(cfg, s)) else 1


cdef void next_taker(const SPConfig* cfg, SPState* s, bint advance) noexcept nogil:
    """Move PH_TAKE on: to the next seat clockwise that can take, then to the action phase; take forced dice."""
    cdef int act = active_of(cfg, s), n, a
    cdef uint64_t picks
    while True:
        if advance:
            s.taker = <uint8_t>((s.taker + 1) % cfg.nseats)
            s.ntaken = 0
            s.take_end = 2
            if s.taker == act:
                begin_actions(cfg, s)
                return
        advance = True
        if s.take_end == 0xFF:          # the active player's tile choice
            return
        if s.njunk == 0 or s.ntaken >= take_need(cfg, s):
            continue
        # a forced take (one legal position) is made at once: the junkyard and the seat's assistants are public
        picks = pick_set(cfg, s, &s.pl[s.taker])
        n = popcount(picks)
        a = highest_bit(picks) if picks else -1
        if n > 1:
            advance = False
            return
        pick_die(cfg, s, a)
        advance = False
        if s.njunk == 0 or s.ntaken >= take_need(cfg, s):
            advance = True


cdef void pick_die(const SPConfig* cfg, SPState* s, int i) noexcept nogil:
    cdef Player* P = &s.pl[s.taker]
    cdef int j
    if s.take_end == 2 and s.ntaken == 0 and inst(cfg, P, AK_QUINCY) == 0:
        s.take_end = 0 if i == 0 else 1
    gain_die(P, s.junk[i])
    # the dice right of position i move one place left, as one 8-byte word (the row past njunk is zero, so the
    # last place becomes 0): no loop whose length changes with the position taken
    cdef uint64_t row = load_le64(s.junk)
    row = (row & (((<uint64_t>1) << (8 * i)) - 1)) | (((row >> (8 * i)) >> 8) << (8 * i))
    for j in range(MAX_JUNK):
        s.junk[j] = <uint8_t>(row >> (8 * j))
    s.njunk -= 1
    s.ntaken += 1


cdef void begin_actions(const SPConfig* cfg, SPState* s) noexcept nogil:
    s.phase = PH_ACTION
    s.done = 0
    s.taker = 0
    s.ntaken = 0
    s.take_end = 0


cdef void end_turn(const SPConfig* cfg, SPState* s) noexcept nogil:
    cdef int p, t, price, word
    cdef uint64_t held
    cdef Player* P
    for p in range(cfg.nseats):
        P = &s.pl[p]
        price = sell_price(cfg, P)
        for word in range(NTYPES // 8):         # the held die types only, in order
            held = nonzero_bytes(load_le64(&P.avail[8 * word]))
            while held:
                t = 8 * word + (lowest_bit(held) >> 3)
                held &= held - 1
                # every die of the type at once (the price is never negative: the cogs saturate as one by one)
                s.disc[t // 6] += P.avail[t]
                P.cogs = sat(P.cogs + P.avail[t] * price)
                P.avail[t] = 0
        if P.space[SP_STORE]:
            gain_die(P, P.space[SP_STORE])
            P.space[SP_STORE] = 0
    if s.turn + 1 >= cfg.turns:
        s.phase = PH_OVER
        s.done = 0
        return
    s.phase = PH_REFILL
    s.taker = <uint8_t>active_of(cfg, s)
    s.ntaken = 0
    s.done = 0
    next_refiller(cfg, s, False)


cdef inline int free_slots(const Player* P) noexcept nogil:
    return (P.line[0] == NO_CARD) + (P.line[1] == NO_CARD) + (P.line[2] == NO_CARD)


cdef void do_draw(const SPConfig* cfg, SPState* s, int p) noexcept nogil:
    cdef Player* P = &s.pl[p]
    cdef int n = free_slots(P) + 1, i, c, knowers
    for i in range(n):
        c = draw_robot(s, &knowers)
        if c == NO_CARD:
            break
        P.buf[P.nbuf] = <uint8_t>c
        P.bufk[P.nbuf] = <uint8_t>(knowers | (1 << p))
        P.nbuf += 1
    finish_assign(cfg, s, p)


cdef void finish_assign(const SPConfig* cfg, SPState* s, int p) noexcept nogil:
    """After a placement: return the last card when the line is full, move on when the seat is done."""
    cdef Player* P = &s.pl[p]
    cdef int i, k
    if P.nbuf and free_slots(P) == 0:
        for i in range(P.nbuf):
            to_bottom(s, P.buf[i], P.bufk[i])
            P.buf[i] = 0
            P.bufk[i] = 0
        P.nbuf = 0
    if P.nbuf == 0:
        next_refiller(cfg, s, True)
    elif P.nbuf == 1 and free_slots(P) == 1:
        for k in range(SLOTS):
            if P.line[k] == NO_CARD:
                P.line[k] = P.buf[0]
        P.buf[0] = 0
        P.bufk[0] = 0
        P.nbuf = 0
        next_refiller(cfg, s, True)


cdef void next_refiller(const SPConfig* cfg, SPState* s, bint advance) noexcept nogil:
    cdef Player* P
    cdef bint unfinished
    while True:
        if advance:
            s.taker = <uint8_t>((s.taker + 1) % cfg.nseats)
            s.ntaken += 1
            if s.ntaken >= cfg.nseats:
                after_refill(cfg, s)
                return
        advance = True
        P = &s.pl[s.taker]
        if free_slots(P) == 0:
            continue
        unfinished = (P.line[0] & P.line[1] & P.line[2]) != NO_CARD      # a card in some slot
        if unfinished:
            return          # the seat may discard unfinished robots before drawing
        do_draw(cfg, s, s.taker)
        return


cdef void after_refill(const SPConfig* cfg, SPState* s) noexcept nogil:
    cdef int p
    if not s.started:
        start_turn(cfg, s)
        return
    s.turn += 1
    if (is_solo(cfg) and s.turn % 2 == 0) or (not is_solo(cfg) and s.turn % cfg.nseats == 0):
        for p in range(cfg.nseats):
            # the sparks on the power boxes go back to storage; Emma's cog is discarded
            s.pl[p].sparks = sat(s.pl[p].sparks + popcount(s.pl[p].box_used & ~s.pl[p].box_cog))
            s.pl[p].box_used = 0
            s.pl[p].box_cog = 0
            s.pl[p].used_emma = 0
    start_turn(cfg, s)


# -- applying an action ----------------------------------------------------------------------------------------

cdef inline void change_avail(Player* P, int t, int d) noexcept nogil:
    P.avail[t] -= 1
    P.avail[t + d] += 1


cdef void action_step(const SPConfig* cfg, SPState* s, int p, int a) noexcept nogil:
    cdef Player* P = &s.pl[p]
    cdef int head = P.pend[0] if P.npend else 0
    cdef int t, sp, to, b, cost, k, j, arg
    cdef int f = cfg.fam[a]          # the action's family: one switch instead of a chain of range tests
    if f == F_PLACE:
        t = (a - A_PLACE) // NSPACE
        sp = (a - A_PLACE) % NSPACE
        if head == PD_RECYCLE_PLACE:
            b = P.held
            P.held = 0
            pop(P)
        else:
            b = t + 1
            P.avail[t] -= 1
        cost = fit(cfg, P, p, b, sp, -1)
        put_die(cfg, s, p, b, sp, cost)
    elif f == F_SELL:
        t = a - A_SELL
        P.avail[t] -= 1
        s.disc[t // 6] += 1
        P.cogs = sat(P.cogs + sell_price(cfg, P))
    elif f == F_SELL_SPACE:
        sp = a - A_SELL_SPACE
        discard_die(s, P.space[sp])
        P.space[sp] = 0
        P.cogs = sat(P.cogs + sell_price(cfg, P))
    elif f == F_UP or f == F_DOWN:
        t = (a - A_UP) % NTYPES
        k = 1 if a < A_DOWN else -1
        if head == PD_ADJUST or head == PD_SILAS:
            change_avail(P, t, k)
            if head == PD_ADJUST:
                P.parg[0] -= 1
            else:
                P.silas -= 1
        elif head == PD_RECYCLE_PLACE:
            P.cogs -= cfg.change_cost
            P.held = <uint8_t>(P.held + k)
        else:
            P.cogs -= cfg.change_cost
            change_avail(P, t, k)
    elif f == F_FLIP:
        t = a - A_FLIP
        P.used_octavia += 1
        j = (t // 6) * 6 + (5 - t % 6)
        if head == PD_RECYCLE_PLACE:
            P.held = <uint8_t>(j + 1)
        else:
            P.avail[t] -= 1
            P.avail[j] += 1
    elif f == F_FRANK:
        t = a - A_FRANK
        P.used_frank += 1
        P.avail[t] -= 1
        s.disc[t // 6] += 1
        push(P, PD_ADVANCE, t // 6)
    elif f == F_SILAS:
        t = a - A_SILAS
        P.avail[t] -= 1
        s.disc[t // 6] += 1
        P.silas = <uint8_t>(t % 6 + 1)
        push_alter(P, PD_SILAS, 0)
    elif f == F_REROLL1:
        t = a - A_REROLL1
        P.used_reroll1 += 1
        if head == PD_RECYCLE_PLACE:        # D7 on the held die (t is its type): rerolled in hand
            P.held = <uint8_t>((t // 6) * 6 + <int>rng_below(&s.rng, 6) + 1)
        else:
            P.avail[t] -= 1
            P.avail[(t // 6) * 6 + <int>rng_below(&s.rng, 6)] += 1
    elif f == F_REROLL:
        P.reroll_tile = 0
        push_alter(P, PD_REROLL, 0)
    elif f == F_ADJUST:
        P.used_adjust += 1
        push_alter(P, PD_ADJUST, 1)
    elif f == F_UP_HELD or f == F_DOWN_HELD:
        if head == PD_ADJUST:
            P.parg[0] -= 1
        else:
            P.silas -= 1
        P.held = <uint8_t>(P.held + (1 if f == F_UP_HELD else -1))
    elif f == F_MARK_HELD:
        P.hmark = 1
    elif f == F_UP_SPACE or f == F_DOWN_SPACE:
        sp = (a - A_UP_SPACE) % NSPACE
        k = 1 if a < A_DOWN_SPACE else -1
        if head == PD_ADJUST:
            P.parg[0] -= 1
        elif head == PD_SILAS:
            P.silas -= 1
        else:
            P.cogs -= cfg.change_cost
        P.space[sp] = <uint8_t>(P.space[sp] + k)
        check_level(cfg, s, p)
    elif f == F_MARK:
        t = a - A_MARK
        P.avail[t] -= 1
        P.rr[P.nrr] = <uint8_t>(t + 1)
        P.nrr += 1
    elif f == F_ROLL:
        for j in range(P.nrr):
            t = P.rr[j] - 1
            P.avail[(t // 6) * 6 + <int>rng_below(&s.rng, 6)] += 1
            P.rr[j] = 0
        P.nrr = 0
        if P.hmark:                         # the held die last, rerolled in hand
            P.held = <uint8_t>mkdie(dcol(P.held), 1 + <int>rng_below(&s.rng, 6))
            P.hmark = 0
        pop(P)
    elif f == F_REARRANGE:
        sp = (a - A_REARRANGE) // NSPACE
        to = (a - A_REARRANGE) % NSPACE
        b = P.space[sp]
        cost = fit(cfg, P, p, b, to, sp)
        P.space[sp] = 0
        P.rearranged += 1
        put_die(cfg, s, p, b, to, cost)
    elif f == F_RECRUIT:
        j = a - A_RECRUIT
        if head == PD_FREE_PLAY:
            pop(P)
        else:
            P.cogs -= recruit_cost(cfg, P)
        P.hand &= ~((<uint32_t>1) << j)
        P.played |= (<uint32_t>1) << j
        onetime(cfg, s, p, j)
    elif f == F_SPARK_BOX:
        b = a - A_SPARK_BOX
        P.sparks -= 1
        P.box_used |= (<uint64_t>1) << b
        fire_box(cfg, s, p, b)
    elif f == F_COG_BOX:
        b = a - A_COG_BOX
        P.cogs -= 1
        P.used_emma += 1
        P.box_used |= (<uint64_t>1) << b
        P.box_cog |= (<uint64_t>1) << b
        fire_box(cfg, s, p, b)
    elif f == F_FREE_BOX:
        b = a - A_FREE_BOX
        arg = P.parg[0]
        if head == PD_MAX:
            P.cogs -= 1
            pop(P)
        elif (arg >> 6) >= 2:
            P.parg[0] = <uint8_t>(((arg >> 6) - 1) << 6 | b)
        else:
            pop(P)
        fire_box(cfg, s, p, b)
    elif f == F_TRACK:
        pop(P)
        step_track(cfg, s, p, a - A_TRACK)
    elif f == F_TILE:
        pop(P)
        take_tile(P, (a - A_TILE) >> 2, (a - A_TILE) & 3)
    elif f == F_COPY:
        pop(P)
        P.conrad = <uint8_t>(a - A_COPY)
        onetime(cfg, s, p, P.conrad)
    elif f == F_COMPLETE:
        pop(P)
        P.cogs -= 1
        complete_robot(cfg, s, p, a - A_COMPLETE)
    elif f == F_DIE_CHOICE:
        t = a - A_DIE_CHOICE
        pop(P)
        b = draw_colour(s, t // 6)
        if b:
            gain_die(P, mkdie(dcol(b), t % 6 + 1))
    elif f == F_RECYCLE:
        t = a - A_RECYCLE
        k = 0
        for j in range(P.nrc):
            if P.rc[j] == t + 1 and not k:
                P.held = <uint8_t>(t + 1)
                k = 1
            else:
                discard_die(s, P.rc[j])
            P.rc[j] = 0
        P.nrc = 0
        pop(P)
        queue_placement(P)
    elif f == F_SKIP:
        if head == PD_RECYCLE_PICK:
            discard_recycled(s, P)
        elif head == PD_RECYCLE_PLACE:
            discard_die(s, P.held)
            P.held = 0
        elif head == PD_SILAS:
            P.silas = 0
        pop(P)
    elif f == F_DONE:
        s.done |= <uint8_t>(1 << p)
        if s.done == (1 << cfg.nseats) - 1:
            end_turn(cfg, s)
        return
    if P.npend:
        settle(cfg, s, p)


cdef void refill_step(const SPConfig* cfg, SPState* s, int p, int a) noexcept nogil:
    cdef Player* P = &s.pl[p]
    cdef int k, j, card
    if a >= A_DISCARD_ROBOT and a < A_DISCARD_ROBOT + SLOTS:
        k = a - A_DISCARD_ROBOT
        for j in range(SPACES):
            if P.space[SP_ROBOT + 3 * k + j]:
                discard_die(s, P.space[SP_ROBOT + 3 * k + j])
                P.space[SP_ROBOT + 3 * k + j] = 0
                P.cogs = sat(P.cogs + sell_price(cfg, P))
        to_bottom(s, P.line[k], (1 << cfg.nseats) - 1)
        P.line[k] = NO_CARD
        if free_slots(P) == SLOTS:
            do_draw(cfg, s, p)
    elif a == A_DRAW:
        do_draw(cfg, s, p)
    elif a >= A_ASSIGN and a < A_ASSIGN + 64 * SLOTS:
        card = (a - A_ASSIGN) // SLOTS
        k = (a - A_ASSIGN) % SLOTS
        for j in range(P.nbuf):
            if P.buf[j] == card:
                P.buf[j] = P.buf[P.nbuf - 1]
                P.bufk[j] = P.bufk[P.nbuf - 1]
                P.buf[P.nbuf - 1] = 0
                P.bufk[P.nbuf - 1] = 0
                P.nbuf -= 1
                break
        P.line[k] = <uint8_t>card
        finish_assign(cfg, s, p)


cdef void draft_step(const SPConfig* cfg, SPState* s, int p, int a) noexcept nogil:
    """A pick; once every seat has picked, the picks are kept and the hands passed on (passing is implicit:
    seat q holds the hand dealt to q - dstep), and after the last step the cards left go to the deck."""
    cdef int q, c, n = cfg.nseats
    s.dpick[p] = <uint8_t>(a - A_DRAFT)
    for q in range(n):
        if s.dpick[q] == NO_CARD:
            return
    for q in range(n):
        s.pl[q].hand |= (<uint32_t>1) << s.dpick[q]
        s.arec[s.dpick[q]] = <uint8_t>((s.arec[s.dpick[q]] & 0xF0) | s.dstep)
        s.dpick[q] = NO_CARD
    s.dstep += 1
    if s.dstep >= cfg.hand_size:
        for c in range(cfg.nassist):
            if s.arec[c] & AR_DEALT and (s.arec[c] & 15) == AR_UNPICKED:
                s.adeck |= (<uint32_t>1) << c
        begin_setup_refill(cfg, s)


cdef void begin_setup_refill(const SPConfig* cfg, SPState* s) noexcept nogil:
    s.phase = PH_REFILL
    s.taker = s.first
    s.ntaken = 0
    next_refiller(cfg, s, False)


cdef void sp_apply(const void* c, void* st, int seat, int action) noexcept nogil:
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef SPState* s = <SPState*>st
    cdef int k, st_, n, i
    cdef Player* P
    if s.phase == PH_ACTION:
        action_step(cfg, s, seat, action)
    elif s.phase == PH_TAKE:
        P = &s.pl[seat]
        if action >= A_TAKE and action < A_TAKE + NPROD * MAX_JUNK:
            k = (action - A_TAKE) // MAX_JUNK
            st_ = (action - A_TAKE) % MAX_JUNK
            n = prod_count(cfg, k)
            if n > s.njunk:
                n = s.njunk
            for i in range(n):
                gain_die(P, s.junk[st_ + i])
            for i in range(st_ + n, s.njunk):
                s.junk[i - n] = s.junk[i]
            for i in range(s.njunk - n, s.njunk):
                s.junk[i] = 0
            s.njunk -= n
            P.prod_used |= <uint8_t>(1 << k)
            if k == 0:
                gain_die(P, draw_bag(s))
                gain_die(P, draw_bag(s))
            elif k == 2:
                P.reroll_tile = 1
            elif k == 3 and cfg.nseats == 4:
                P.cogs = sat(P.cogs + 1)
            s.take_end = 2
            next_taker(cfg, s, True)
        else:
            pick_die(cfg, s, action - A_PICK)
            if s.njunk == 0 or s.ntaken >= take_need(cfg, s):
                next_taker(cfg, s, True)
            else:
                next_taker(cfg, s, False)
    elif s.phase == PH_REFILL:
        refill_step(cfg, s, seat, action)
    elif s.phase == PH_DRAFT:
        draft_step(cfg, s, seat, action)


# -- the engine contract ---------------------------------------------------------------------------------------

cdef uint32_t sp_actors(const void* c, const void* st) noexcept nogil:
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef const SPState* s = <const SPState*>st
    cdef uint32_t out = 0
    cdef int q
    if s.phase == PH_ACTION:
        out = ((1u << cfg.nseats) - 1) & ~(<uint32_t>s.done)
        if cfg.clockwise and out:
            for q in range(cfg.nseats):
                if (out >> ((active_of(cfg, s) + q) % cfg.nseats)) & 1:
                    return 1u << ((active_of(cfg, s) + q) % cfg.nseats)
        return out
    if s.phase == PH_TAKE or s.phase == PH_REFILL:
        return 1u << s.taker
    if s.phase == PH_DRAFT:
        for q in range(cfg.nseats):
            if s.dpick[q] == NO_CARD:
                out |= 1u << q
        return out
    return 0


cdef void sp_init(const void* c, void* st, uint64_t seed) noexcept nogil:
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef SPState* s = <SPState*>st
    cdef uint8_t order[16]
    cdef int i, p, k, n = cfg.nseats
    memset(s, 0, sizeof(SPState))
    s.rng = rng_seed(seed)
    for i in range(NTILES):
        order[i] = <uint8_t>i
    rng_shuffle(&s.rng, order, NTILES)
    for i in range(cfg.stacks_in_play):
        s.stacks |= <uint8_t>(1 << order[i])
    for i in range(NCOL * cfg.nbonus):
        order[i] = <uint8_t>i
    rng_shuffle(&s.rng, order, NCOL * cfg.nbonus)
    for i in range(NCOL * cfg.nbonus):
        s.bonus[i // cfg.nbonus][i % cfg.nbonus] = order[i]
    for i in range(NGOALS):
        order[i] = <uint8_t>i
    rng_shuffle(&s.rng, order, NGOALS)
    for i in range(cfg.ngoals):
        s.goals |= <uint8_t>(1 << order[i])
    for i in range(NCOL):
        s.bag[i] = cfg.dice_per_colour
    s.pool = ((<uint64_t>1) << cfg.nrobots) - 1
    s.adeck = <uint32_t>(((<uint64_t>1) << cfg.nassist) - 1)
    for i in range(MAX_P):
        s.dpick[i] = NO_CARD
    for p in range(MAX_P):
        for k in range(SLOTS):
            s.pl[p].line[k] = NO_CARD
            s.pl[p].stile[k] = NO_CARD
        s.pl[p].conrad = NO_CARD
    for p in range(n):
        s.pl[p].sparks = 1
    s.first = <uint8_t>rng_below(&s.rng, <uint32_t>n)
    if cfg.draft:
        for p in range(n):
            for i in range(cfg.draft_deal):
                k = nth_set_bit(s.adeck, <int>rng_below(&s.rng, <uint32_t>popcount(s.adeck)))
                s.adeck &= ~((<uint32_t>1) << k)
                s.arec[k] = <uint8_t>(AR_DEALT | (p << 4) | AR_UNPICKED)
        s.phase = PH_DRAFT
        return
    for p in range(n):
        for i in range(cfg.hand_size):
            draw_assistant(s, &s.pl[p])
    begin_setup_refill(cfg, s)


cdef inline void rng_shuffle(uint64_t* r, uint8_t* a, int n) noexcept nogil:
    cdef int i = n - 1, j
    cdef uint8_t t
    while i > 0:
        j = <int>rng_below(r, <uint32_t>(i + 1))
        t = a[i]
        a[i] = a[j]
        a[j] = t
        i -= 1


# -- scoring ---------------------------------------------------------------------------------------------------

cdef int colour_count(const SPConfig* cfg, const Player* P, int c) noexcept nogil:
    cdef uint64_t bits = P.tableau
    cdef int n = 0
    while bits:
        if cfg.r_colour[lowest_bit(bits)] == c:
            n += 1
        bits &= bits - 1
    return n


cdef uint32_t goals_met(const SPConfig* cfg, const Player* P) noexcept nogil:
    cdef uint32_t out = 0
    cdef int c, best = 0, n, tracks = 0
    if popcount(P.played) >= cfg.goal_target[GL_ASSISTANTS]:
        out |= 1u << GL_ASSISTANTS
    if P.level >= cfg.goal_target[GL_LEVEL]:
        out |= 1u << GL_LEVEL
    for c in range(NCOL):
        n = colour_count(cfg, P, c)
        if n > best:
            best = n
        if cfg.nbonus >= 3 and P.track[c] > cfg.bonus_after[2]:
            tracks += 1
    if best >= cfg.goal_target[GL_SAME_COLOUR]:
        out |= 1u << GL_SAME_COLOUR
    if popcount(P.tableau & cfg.box_robots) >= cfg.goal_target[GL_BOXES]:
        out |= 1u << GL_BOXES
    if P.sparks + popcount(P.box_used & ~P.box_cog) >= cfg.goal_target[GL_SPARKS]:
        out |= 1u << GL_SPARKS
    if tracks >= cfg.goal_target[GL_THIRD_BONUS]:
        out |= 1u << GL_THIRD_BONUS
    return out


cdef int32_t seat_score(const SPConfig* cfg, const SPState* s, int p) noexcept nogil:
    cdef const Player* P = &s.pl[p]
    cdef int32_t total = 0
    cdef int c, n, sets = 99, t
    cdef uint32_t bits
    for c in range(NCOL):
        if P.track[c]:
            total += cfg.track_pts[P.track[c] - 1]
        n = colour_count(cfg, P, c)
        if n < sets:
            sets = n
    total += P.level * popcount(P.played)
    bits = P.played
    while bits:
        total += cfg.a_points[lowest_bit(bits)]
        bits &= bits - 1
    if P.conrad != NO_CARD:
        total += cfg.a_points[P.conrad]
    for t in range(NTILES):
        if has_tile(P, t):
            total += cfg.tile_points[t]
    total += sets * cfg.set_points
    total += P.cogs // cfg.cogs_per_point
    total += popcount(goals_met(cfg, P) & s.goals) * cfg.goal_points
    return total


cdef void sp_scores(const void* c, const void* st, int32_t* out) noexcept nogil:
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef int p
    for p in range(cfg.nseats):
        out[p] = seat_score(cfg, <const SPState*>st, p)


cdef void sp_rank_keys(const void* c, const void* st, int64_t* out) noexcept nogil:
    """Score, then cogs, then factory level, then completed robots; equal keys share the victory."""
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef const SPState* s = <const SPState*>st
    cdef int p
    for p in range(cfg.nseats):
        out[p] = ((<int64_t>seat_score(cfg, s, p) << 32) | (<int64_t>s.pl[p].cogs << 16)
                  | (<int64_t>s.pl[p].level << 8) | popcount(s.pl[p].tableau))


cdef bint sp_solo_won(const void* c, const void* st) noexcept nogil:
    """``EngineSpec.solo_won``: the solo game is won with every goal tile met and at least ``solo_target``
    points at the end (RULES.md, "Two players, the solo game")."""
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef const SPState* s = <const SPState*>st
    return (s.phase == PH_OVER and (goals_met(cfg, &s.pl[0]) & s.goals) == s.goals
            and seat_score(cfg, s, 0) >= cfg.solo_target)


cdef double sp_solo_value(const void* c, const void* st) noexcept nogil:
    """``EngineSpec.solo_value``: 1.0 for a won solo game; a lost one 0.9 x (half the share of its goal tiles
    met, half its points' share of ``solo_target``, capped at 1), so that search prefers the playouts that came
    nearer to the win (random ones almost never win: their returns alone were all 0)."""
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef const SPState* s = <const SPState*>st
    cdef double goals = 1.0, points = 1.0
    if sp_solo_won(c, st):
        return 1.0
    if s.goals:
        goals = popcount(goals_met(cfg, &s.pl[0]) & s.goals) / <double>popcount(s.goals)
    if cfg.solo_target > 0:
        points = min(1.0, max(0.0, seat_score(cfg, s, 0) / <double>cfg.solo_target))
    return 0.9 * (0.5 * goals + 0.5 * points)


cdef inline uint64_t sp_actor_mask(const void* c, const void* st, int seat, uint64_t* words) noexcept nogil:
    # sp_legal_mask for a seat known to act (the playout loop asks only for the lowest actor's) into the loop's
    # MAX_MASK_WORDS words, and the set of the mask words it wrote (each holds an action: ``setb``, ``set_one``
    # and ``action_options`` name a word only when they set a bit in it)
    actor_legal(<const SPConfig*>c, <const SPState*>st, seat, words)
    return words[SP_WRITTEN]


cdef int64_t sp_playout(const void* c, void* st, uint64_t* rng, int64_t max_len) noexcept nogil:
    # the kernel's loop with Sparks' functions, counting and drawing from the mask words the move generation wrote
    return random_playout_loop_words(sp_actors, sp_actor_mask, sp_apply, SP_MASK_WORDS, c, st, rng, max_len)


# -- the invariant check ---------------------------------------------------------------------------------------

cdef int tiles_played(const SPConfig* cfg, const SPState* s, int p) noexcept nogil:
    """How many production tiles seat p has played: one per turn it was active (the solo game's secondary turns
    play none), this turn's counted once the active player has taken its dice."""
    cdef int t, count = 0, n = cfg.nseats, active
    for t in range(s.turn):
        active = 0 if is_solo(cfg) else (s.first + t) % n
        if active == p and not (is_solo(cfg) and (t & 1)):
            count += 1
    if s.started and active_of(cfg, s) == p and not secondary(cfg, s):
        if s.phase == PH_ACTION or s.phase == PH_OVER or s.phase == PH_REFILL \
                or (s.phase == PH_TAKE and s.taker != p):
            count += 1
    return count


cdef bint zero_from(const uint8_t* a, int used, int cap) noexcept nogil:
    """Whether the unused part ``a[used:cap]`` of a counted array is all zero."""
    cdef int i
    for i in range(used, cap):
        if a[i]:
            return False
    return True


cdef bint tally_dice(const uint8_t* a, int used, int cap, int* dice) noexcept nogil:
    """Counts the dice ``a[:used]`` by colour into ``dice``; False when one of them is not a die or the unused
    part is not zero."""
    cdef int i
    for i in range(used):
        if a[i] == 0 or a[i] > NTYPES:
            return False
        dice[dcol(a[i])] += 1
    return zero_from(a, used, cap)


cdef bint draft_record_ok(const SPConfig* cfg, const SPState* s) noexcept nogil:
    """The draft record agrees with the cards' places: every hand dealt ``draft_deal`` cards, one of them picked at
    each resolved step by the seat that held it then (in that seat's hand or played), the others still in the hand
    being passed (during the draft) or gone to the deck, where every card not dealt stayed during the draft."""
    cdef int n = cfg.nseats, R = s.dstep, c, h, ps, r
    cdef int dealt[MAX_P]
    cdef uint32_t picked[MAX_P]
    cdef uint32_t bit
    if not cfg.draft:
        return R == 0 and zero_from(s.arec, 0, MAX_ASSIST)
    if (s.phase == PH_DRAFT) != (R < cfg.hand_size):
        return False
    for h in range(MAX_P):
        dealt[h] = 0
        picked[h] = 0
    for c in range(MAX_ASSIST):
        r = s.arec[c]
        bit = (<uint32_t>1) << c
        if r == 0 or c >= cfg.nassist:
            if r or (s.phase == PH_DRAFT and c < cfg.nassist and not s.adeck & bit):
                return False
            continue
        h = (r >> 4) & 7
        ps = r & 15
        if not r & AR_DEALT or h >= n:
            return False
        dealt[h] += 1
        if ps == AR_UNPICKED:
            continue                         # in the hand being passed (draft_hand), or after it anywhere
        if ps >= R or (picked[h] >> ps) & 1:
            return False
        picked[h] |= (<uint32_t>1) << ps
        if not (s.pl[(h + ps) % n].hand | s.pl[(h + ps) % n].played) & bit:
            return False
    for h in range(n):
        if dealt[h] != cfg.draft_deal or picked[h] != ((<uint32_t>1) << R) - 1:
            return False
    return True


cdef int sp_validate(const void* c, const void* st) noexcept nogil:
    """0 when every invariant the engine relies on holds, else the number of the first broken one."""
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef const SPState* s = <const SPState*>st
    cdef const Player* P
    cdef int n = cfg.nseats, p, i, k, j, t, card, cnt, sp
    cdef int dice[NCOL]
    cdef uint64_t robots = 0, allr = ((<uint64_t>1) << cfg.nrobots) - 1, bit
    cdef uint32_t assist = 0, alla = <uint32_t>(((<uint64_t>1) << cfg.nassist) - 1), b32
    cdef uint32_t actors
    cdef uint64_t w[MAX_MASK_WORDS]
    if s.phase > PH_OVER or s.turn >= cfg.turns or s.first >= n or s.njunk > cfg.junkyard:
        return 1
    if s.nbottom > 64 or s.done >= (1 << n) or s.started > 1 or s.dstep > cfg.hand_size:
        return 1
    if (s.phase == PH_TAKE or s.phase == PH_REFILL) and (s.taker >= n or s.ntaken > n):
        return 1
    if s.phase == PH_TAKE and not (s.take_end <= 2 or s.take_end == 0xFF):
        return 1
    if s.phase == PH_TAKE and s.ntaken > 2:
        return 1
    if s.phase == PH_DRAFT and (not cfg.draft or s.started):
        return 1
    if s.phase != PH_DRAFT and s.phase != PH_REFILL and not s.started:
        return 1
    # the turn counter moves on after each refill but the first, and the last turn ends the game (end_turn): no
    # refill after it
    if s.phase == PH_REFILL and s.started and s.turn + 1 >= cfg.turns:
        return 1
    if s.phase == PH_ACTION and s.done == (1 << n) - 1:
        return 1
    if s.phase != PH_ACTION and s.done:                 # the seats done this action phase: none outside it
        return 1
    if not zero_from(s.spare, 0, 7) or s.spare32:
        return 1
    if s.stacks >= (1 << NTILES) or popcount(s.stacks) != cfg.stacks_in_play or s.goals >= (1 << NGOALS):
        return 2
    if popcount(s.goals) != cfg.ngoals:
        return 2
    for i in range(NCOL):
        for k in range(MAX_BONUS):
            if k < cfg.nbonus:
                if s.bonus[i][k] >= NCOL * cfg.nbonus:
                    return 2
            elif s.bonus[i][k]:
                return 2
    # dice: every die in exactly one place
    for i in range(NCOL):
        dice[i] = s.bag[i] + s.disc[i]
    if not tally_dice(s.junk, s.njunk, MAX_JUNK, dice):
        return 3
    for p in range(MAX_P):
        P = &s.pl[p]
        if p >= n:
            if P.tableau or P.hand or P.played or P.npend or P.nbuf or P.nrr or P.nrc or P.held or P.hmark:
                return 4
            for t in range(NTYPES):
                if P.avail[t]:
                    return 4
            for sp in range(NSPACE):
                if P.space[sp]:
                    return 4
            for k in range(SLOTS):
                if P.line[k] != NO_CARD:
                    return 4
            if not zero_from(P.buf, 0, 4) or not zero_from(P.bufk, 0, 4):
                return 4
            continue
        for t in range(NTYPES):
            dice[t // 6] += P.avail[t]
        for i in range(NSPACE):
            if P.space[i] > NTYPES:
                return 5
            if P.space[i]:
                dice[dcol(P.space[i])] += 1
        if P.held > NTYPES or P.nrr > MAX_RR or P.nrc > SPACES or P.npend > MAX_PEND or P.nbuf > 4:
            return 5
        if P.held:
            dice[dcol(P.held)] += 1
        if not tally_dice(P.rr, P.nrr, MAX_RR, dice) or not tally_dice(P.rc, P.nrc, SPACES, dice):
            return 5
        if P.space[SP_STORE] and cfg.storage == 0:
            return 5
        # upgrade section: colour spaces under the cap, below the top level
        if upg_count(P) > cfg.upgrade_cap or (P.level >= cfg.nlevels and upg_count(P)) or P.level > cfg.nlevels:
            return 6
        for i in range(NCOL):
            if P.track[i] > cfg.ntrack:
                return 6
        if P.tiles >= (1 << NTILES) or (P.tiles & ~s.stacks):
            return 6
        cnt = 0
        for k in range(SLOTS):
            if P.stile[k] != NO_CARD:
                if P.stile[k] < TL_BONUS_POINT or P.stile[k] >= NTILES or not has_tile(P, P.stile[k]):
                    return 6
                cnt += 1
                for j in range(k):
                    if P.stile[j] == P.stile[k]:
                        return 6
        for t in range(TL_BONUS_POINT, NTILES):
            if has_tile(P, t):
                cnt -= 1
        if cnt != 0:
            return 6
        if P.prod_used >= (1 << NPROD) or P.reroll_tile > 1:
            return 6
        if popcount(P.prod_used) != tiles_played(cfg, s, p):
            return 6
        # robot cards
        for k in range(SLOTS):
            card = P.line[k]
            if card == NO_CARD:
                for j in range(SPACES):
                    if P.space[SP_ROBOT + 3 * k + j]:
                        return 7
                continue
            if card >= cfg.nrobots or (robots >> card) & 1:
                return 7
            robots |= (<uint64_t>1) << card
            for j in range(SPACES):
                if j >= cfg.r_n[card] and P.space[SP_ROBOT + 3 * k + j]:
                    return 7
        if P.tableau & ~allr or P.tableau & robots:
            return 7
        robots |= P.tableau
        for i in range(P.nbuf):
            card = P.buf[i]
            if card >= cfg.nrobots or (robots >> card) & 1 or not (P.bufk[i] >> p) & 1 or P.bufk[i] >> n:
                return 7
            robots |= (<uint64_t>1) << card
        if not zero_from(P.buf, P.nbuf, 4) or not zero_from(P.bufk, P.nbuf, 4):
            return 7
        if P.nbuf and not (s.phase == PH_REFILL and s.taker == p):
            return 7
        if (P.box_used & ~(P.tableau & cfg.box_robots) & ~((<uint64_t>1) << BOARD_BOX)) or (P.box_cog & ~P.box_used):
            return 8
        if P.used_emma > 8 or popcount(P.box_cog) > P.used_emma:
            return 8
        # assistants
        if (P.hand | P.played) & ~alla or P.hand & P.played or (P.hand | P.played) & assist:
            return 9
        assist |= P.hand | P.played
        if P.conrad != NO_CARD:
            if P.conrad >= cfg.nassist or not (P.played >> P.conrad) & 1 or cfg.a_kind[P.conrad] == AK_CONRAD:
                return 9
            if not (P.played & cfg.kind_mask[AK_CONRAD]):
                return 9
        # pending choices
        if not zero_from(P.pend, P.npend, MAX_PEND) or not zero_from(P.parg, P.npend, MAX_PEND):
            return 10
        for i in range(P.npend):
            if P.pend[i] == 0 or P.pend[i] >= NUM_PD:
                return 10
            if P.pend[i] == PD_ADVANCE and P.parg[i] > ANY:
                return 10
            if (P.pend[i] == PD_COMPLETE) and P.parg[i] >= NCOL:
                return 10
            if P.pend[i] == PD_MAX and (P.parg[i] >= cfg.nrobots or not ((P.tableau & cfg.box_robots) >> P.parg[i]) & 1):
                return 10
            if P.pend[i] == PD_OLYMPIA and (P.parg[i] >> 6) >= 2 and (P.parg[i] & 63) != 63:
                return 10
            if P.pend[i] == PD_OLYMPIA and (P.parg[i] >> 6) == 1 and not box_exists(cfg, P, P.parg[i] & 63):
                return 10
            if P.pend[i] == PD_RECYCLE_PICK and i == 0 and P.nrc == 0:
                return 10
            # Conrad's copy is asked when a Conrad is played, and the copy needs it there (9 above)
            if P.pend[i] == PD_CONRAD and not (P.played & cfg.kind_mask[AK_CONRAD]):
                return 10
        if P.npend and s.phase != PH_ACTION:
            return 10
        # 'done' is offered only with nothing pending, and nothing is queued for a seat that is done: a seat
        # done with a choice pending would carry it out of the action phase
        if P.npend and (s.done >> p) & 1:
            return 10
        # Recycle's held die: its placement queued once, behind only choices that alter dice (queued in front of
        # it so that they may alter the die: push_alter, queue_placement), with no such choice nor pick behind it
        k = -1
        for i in range(P.npend):
            if P.pend[i] == PD_RECYCLE_PLACE:
                if k >= 0:
                    return 10
                k = i
        if (k >= 0) != (P.held != 0) or (k >= 0 and P.nrc):
            return 10
        for i in range(P.npend):
            if k >= 0 and i < k and not alters(P.pend[i]):
                return 10
            if k >= 0 and i > k and (alters(P.pend[i]) or P.pend[i] == PD_RECYCLE_PICK):
                return 10
        # the held die marked for the reroll at the head
        if P.hmark > 1 or (P.hmark and not (P.held and P.pend[0] == PD_REROLL)):
            return 10
        if P.nrr and not (P.npend and P.pend[0] == PD_REROLL):
            return 10
        if P.silas and not (P.npend and P.pend[0] == PD_SILAS):
            return 10
        if P.nrc:
            cnt = 0
            for i in range(P.npend):
                if P.pend[i] == PD_RECYCLE_PICK:
                    cnt += 1
            if cnt != 1:
                return 10
        if not zero_from(P.spare, 0, 2):
            return 10
    for i in range(NCOL):
        if dice[i] != cfg.dice_per_colour:
            return 11
    for i in range(s.nbottom):
        card = s.bottom[i] & 63
        k = bottom_knowers(s, i)
        if card >= cfg.nrobots or (robots >> card) & 1 or k == 0 or k >> n:
            return 12
        robots |= (<uint64_t>1) << card
    if not zero_from(s.bottom, s.nbottom, 64):
        return 12
    if s.nbottom < 64 and ((s.bknow[0] | s.bknow[1]) >> s.nbottom):
        return 12
    if s.pool & robots or (s.pool | robots) != allr:
        return 12
    for p in range(MAX_P):
        if p >= n or s.phase != PH_DRAFT:
            if s.dpick[p] != NO_CARD:
                return 13
        else:
            b32 = draft_hand(cfg, s, p)
            if b32 & assist:
                return 13
            assist |= b32
            if s.dpick[p] != NO_CARD and (s.dpick[p] >= cfg.nassist or not (b32 >> s.dpick[p]) & 1):
                return 13
            if popcount(b32) != cfg.draft_deal - s.dstep or popcount(s.pl[p].hand) != s.dstep:
                return 13
    if s.adeck & assist or (s.adeck | assist) != alla:
        return 13
    if s.phase == PH_DRAFT:
        for p in range(n):
            if s.pl[p].played:
                return 13
    if not draft_record_ok(cfg, s):
        return 13
    # whoever must act has a legal action; the other phases' sub-states are consistent
    if s.phase == PH_TAKE:
        if s.take_end == 0xFF and (s.taker != active_of(cfg, s) or secondary(cfg, s) or s.ntaken):
            return 14
        if s.take_end != 0xFF and (s.njunk == 0 or s.ntaken >= take_need(cfg, s)):
            return 14
        if s.take_end != 0xFF and s.taker == active_of(cfg, s) and not secondary(cfg, s):
            return 14
        if s.take_end < 2 and s.ntaken != 1:
            return 14
    if s.phase == PH_REFILL:
        P = &s.pl[s.taker]
        if free_slots(P) == 0 or (P.nbuf == 0 and free_slots(P) == SLOTS):
            return 14
        if P.nbuf and P.nbuf == 1 and free_slots(P) == 1:
            return 14
        for p in range(n):
            if p != s.taker and s.pl[p].nbuf:
                return 14
    if s.phase != PH_ACTION:
        for p in range(n):
            if s.pl[p].npend:
                return 14
    actors = sp_actors(cfg, s)
    if (actors == 0) != (s.phase == PH_OVER):
        return 15
    for p in range(n):
        if (actors >> p) & 1:
            legal_for(cfg, s, p, w)
            cnt = 0
            for i in range(cfg.mask_words):
                cnt |= w[i] != 0
            if not cnt:
                return 15
            if s.phase == PH_ACTION:
                P = &s.pl[p]
                if P.npend and settle_would_move(cfg, s, p):
                    return 15
    return 0


cdef bint settle_would_move(const SPConfig* cfg, const SPState* s, int p) noexcept nogil:
    """Whether ``settle`` would answer the head of the seat's queue (then the state is not one the engine
    leaves between actions)."""
    cdef SPState tmp
    memcpy(&tmp, s, sizeof(SPState))
    settle(cfg, &tmp, p)
    return tmp.pl[p].npend != s.pl[p].npend or tmp.rng != s.rng


# -- building a config -----------------------------------------------------------------------------------------

include "resample.pxi"


cdef EngineSpec SPEC
SPEC.state_size = sizeof(SPState)
SPEC.num_actions = 1
SPEC.num_seats = 1
SPEC.init = sp_init
SPEC.actors = sp_actors
SPEC.legal_mask = sp_legal_mask
SPEC.legal_mask_words = sp_legal_mask_words
SPEC.mask_scratch = SP_MASK_BUF - SP_MASK_WORDS
SPEC.apply = sp_apply
SPEC.scores = sp_scores
SPEC.rank_keys = sp_rank_keys
SPEC.validate = sp_validate
SPEC.playout = sp_playout
SPEC.resample_prepare = sp_resample_prepare
SPEC.resample_draw = sp_resample_draw
SPEC.resample_scratch = sizeof(SPResample)
SPEC.solo_won = sp_solo_won
SPEC.solo_value = sp_solo_value

STATE_SIZE = sizeof(SPState)
PLAYER_SIZE = sizeof(Player)
PHASE_NAMES = ("draft", "refill", "take", "action", "over")
PENDING_NAMES = ("", "advance", "tile", "reroll", "adjust", "silas", "recycle_pick", "recycle_place", "max",
                 "olympia", "conrad", "complete", "free_play", "die_choice")


def make_core(dict t, int players, int goals, bint draft, bint clockwise=False) -> GameCore:
    """Compile content tables (already validated by data.py) and parameters into a bound GameCore."""
    cdef SPConfig cfg
    cdef EngineSpec spec = SPEC
    cdef int i, j, k
    memset(&cfg, 0, sizeof(SPConfig))
    if not 1 <= players <= MAX_P or not 0 <= goals <= NGOALS:
        raise ValueError("bad players or goals")
    robots = t["robots"]
    assistants = t["assistants"]
    if not 1 <= len(robots) <= MAX_ROBOTS or not 1 <= len(assistants) <= MAX_ASSIST:
        raise ValueError("content has the wrong shape")
    cfg.nseats = players
    cfg.nrobots = len(robots)
    cfg.nassist = len(assistants)
    for i, (colour, spaces, adv, rew, box) in enumerate(robots):
        cfg.r_colour[i] = colour
        cfg.r_n[i] = len(spaces)
        for j, (col, val) in enumerate(spaces):
            cfg.r_col[i][j] = col
            cfg.r_val[i][j] = val
            # the requirement masks action_options reads (bit j: space j takes the die): colour c or, index
            # NCOL + 1, any colour (paid for); value v or, index 0, any value (ignored)
            for c in range(NCOL + 2):
                if c == NCOL + 1 or (c < NCOL and (col == c or col == ANY)):
                    for v in range(7):
                        if v == 0 or val == 0 or val == v:
                            cfg.r_fit[i][c * 7 + v] |= 1 << j
        cfg.r_adv[i] = adv
        for j in range(3):
            cfg.r_rew[i][j] = rew[j] if rew is not None else (SY_NONE if j == 0 else 0)
            cfg.r_box[i][j] = box[j] if box is not None else (SY_NONE if j == 0 else 0)
        if box is not None:
            cfg.box_robots |= (<uint64_t>1) << i
            if box[0] == SY_ADJUST or box[0] == SY_REROLL:
                cfg.alter_boxes |= (<uint64_t>1) << i
    for i, (kind, param, points) in enumerate(assistants):
        cfg.a_kind[i] = kind
        cfg.a_param[i] = param
        cfg.a_points[i] = points
        cfg.kind_mask[kind] |= (<uint32_t>1) << i
        cfg.kind_mask2[kind] |= ((<uint64_t>1) << i) | ((<uint64_t>1) << (i + 32))
    bonus = t["bonus_tiles"]
    cfg.nbonus = len(t["bonus_after"])
    if len(bonus) != NCOL * cfg.nbonus or not 1 <= cfg.nbonus <= MAX_BONUS:
        raise ValueError("bonus tiles do not fit the tracks")
    for i, sym in enumerate(bonus):
        for j in range(3):
            cfg.bonus_sym[i][j] = sym[j]
    for j in range(3):
        cfg.board_box[j] = t["board_box"][j]
    if cfg.board_box[0] == SY_ADJUST or cfg.board_box[0] == SY_REROLL:
        cfg.alter_boxes |= (<uint64_t>1) << BOARD_BOX
    for i in range(NTILES):
        cfg.tile_points[i] = t["tile_points"][i]
    cfg.ntrack = len(t["track_points"])
    if not 1 <= cfg.ntrack <= MAX_TRACK:
        raise ValueError("bad track")
    for i, v in enumerate(t["track_points"]):
        cfg.track_pts[i] = v
    for i, v in enumerate(t["bonus_after"]):
        cfg.bonus_after[i] = v
    cfg.nlevels = len(t["thresholds"])
    if not 1 <= cfg.nlevels <= MAX_LEVELS:
        raise ValueError("bad levels")
    for i, v in enumerate(t["thresholds"]):
        cfg.thresholds[i] = v
        cfg.level_tile[i] = t["level_tile"][i]
    for i in range(NGOALS):
        cfg.goal_target[i] = t["goal_targets"][i]
    for v in t["frank_values"]:
        cfg.frank_mask |= <uint8_t>(1 << v)
    for name in ("upgrade_cap", "dice_per_colour", "junkyard", "storage", "sell_value", "sales_boost_value",
                 "ignore_colour_cost", "change_cost", "set_points", "cogs_per_point", "goal_points", "solo_target",
                 "hand_size", "draft_deal", "rearrange_limit", "tile_copies", "stacks_in_play"):
        v = t[name]
        if not 0 <= v <= 255:
            raise ValueError(f"{name} out of range")
    cfg.upgrade_cap = t["upgrade_cap"]
    cfg.dice_per_colour = t["dice_per_colour"]
    cfg.junkyard = t["junkyard"]
    cfg.storage = t["storage"]
    cfg.sell_value = t["sell_value"]
    cfg.sales_boost_value = t["sales_boost_value"]
    cfg.ignore_colour_cost = t["ignore_colour_cost"]
    cfg.change_cost = t["change_cost"]
    cfg.set_points = t["set_points"]
    cfg.cogs_per_point = t["cogs_per_point"]
    cfg.goal_points = t["goal_points"]
    cfg.solo_target = t["solo_target"]
    cfg.hand_size = t["hand_size"]
    cfg.draft_deal = t["draft_deal"]
    cfg.rearrange_limit = t["rearrange_limit"]
    cfg.tile_copies = t["tile_copies"]
    cfg.stacks_in_play = t["stacks_in_play"]
    cfg.ngoals = goals
    cfg.draft = draft
    cfg.clockwise = clockwise
    cfg.turns = 8 if players == 1 else 4 * players
    if draft and players * cfg.draft_deal > cfg.nassist:
        raise ValueError("the assistant deck is too small for the draft")
    if not draft and players * cfg.hand_size > cfg.nassist:
        raise ValueError("the assistant deck is too small for the hands")
    layout = action_layout()
    # the F_ enum and the A_ constants follow _FAMILIES
    if layout["num_actions"] != SP_NUM_ACTIONS or len(_FAMILIES) != NUM_FAMILIES or _FAMILIES[F_PLACE][0] != "place" \
            or _FAMILIES[F_DONE][0] != "done" or _FAMILIES[F_ADJUST][0] != "adjust" \
            or [layout[name][0] for name, _ in _FAMILIES] != [
                A_TAKE, A_PICK, A_PLACE, A_SELL, A_SELL_SPACE, A_UP, A_DOWN, A_FLIP, A_FRANK, A_SILAS, A_REROLL1,
                A_REROLL, A_MARK, A_ROLL, A_REARRANGE, A_RECRUIT, A_SPARK_BOX, A_COG_BOX, A_FREE_BOX, A_TRACK, A_TILE,
                A_COPY, A_COMPLETE, A_DIE_CHOICE, A_RECYCLE, A_SKIP, A_DONE, A_DISCARD_ROBOT, A_DRAW, A_ASSIGN,
                A_DRAFT, A_ADJUST, A_UP_SPACE, A_DOWN_SPACE, A_UP_HELD, A_DOWN_HELD, A_MARK_HELD]:
        raise AssertionError("the action layout and the engine's family table disagree")
    if (A_UP_SPACE >> 6) != (A_ADJUST >> 6) or ((A_DOWN_SPACE + NCOL - 1) >> 6) != (A_ADJUST >> 6) \
            or A_DOWN_SPACE != A_UP_SPACE + NSPACE:
        raise AssertionError("action_options writes adjust, up_space and down_space as one mask word")
    for i, (name, size) in enumerate(_FAMILIES):
        for r in range(layout[name][0], layout[name][0] + size):
            cfg.fam[r] = <uint8_t>i
    cfg.a_take = layout["take"][0]
    cfg.a_pick = layout["pick"][0]
    cfg.a_place = layout["place"][0]
    cfg.a_sell = layout["sell"][0]
    cfg.a_sell_space = layout["sell_space"][0]
    cfg.a_up = layout["up"][0]
    cfg.a_down = layout["down"][0]
    cfg.a_flip = layout["flip"][0]
    cfg.a_frank = layout["frank"][0]
    cfg.a_silas = layout["silas"][0]
    cfg.a_reroll1 = layout["reroll_one"][0]
    cfg.a_reroll = layout["reroll"][0]
    cfg.a_mark = layout["mark"][0]
    cfg.a_roll = layout["roll"][0]
    cfg.a_rearrange = layout["rearrange"][0]
    cfg.a_recruit = layout["recruit"][0]
    cfg.a_spark_box = layout["spark_box"][0]
    cfg.a_cog_box = layout["cog_box"][0]
    cfg.a_free_box = layout["free_box"][0]
    cfg.a_track = layout["track"][0]
    cfg.a_tile = layout["tile"][0]
    cfg.a_copy = layout["copy"][0]
    cfg.a_complete = layout["complete"][0]
    cfg.a_die_choice = layout["die_choice"][0]
    cfg.a_recycle = layout["recycle"][0]
    cfg.a_skip = layout["skip"][0]
    cfg.a_done = layout["done"][0]
    cfg.a_discard_robot = layout["discard_robot"][0]
    cfg.a_draw = layout["draw"][0]
    cfg.a_assign = layout["assign"][0]
    cfg.a_draft = layout["draft"][0]
    cfg.a_adjust = layout["adjust"][0]
    cfg.num_actions = layout["num_actions"]
    cfg.mask_words = (cfg.num_actions + 63) >> 6
    if cfg.mask_words != SP_MASK_WORDS:
        raise AssertionError("the action layout no longer fills SP_MASK_WORDS words")
    spec.num_actions = cfg.num_actions
    spec.num_seats = players
    spec.mask_words = cfg.mask_words
    core = GameCore()
    core.bind(&spec, &cfg, sizeof(SPConfig))
    return core


# -- helpers for Python (tests, views, bots) -------------------------------------------------------------------

def resample_into(State state, State out, int seat, uint64_t seed) -> int:
    """Overwrite ``out``'s struct with a determinisation of ``state`` for ``seat`` drawn from ``seed``: the native
    resampler of the engine spec (the very code search calls), for ``view.resample``. 0, or its error code."""
    cdef SPResample scratch
    cdef uint64_t rng = rng_seed(seed)
    cdef int err = sp_resample_prepare(state.core.cfg, state.data, seat, &scratch)
    if err == 0:
        err = sp_resample_draw(state.core.cfg, &scratch, state.data, seat, out.data, &rng)
    return err


def resample_exact(State state, int seat) -> bool:
    """Whether resampling ``state`` for ``seat`` uses the exact routing table (RULES.md, "Resampling": else the
    sequential fallback)."""
    cdef SPResample scratch
    if sp_resample_prepare(state.core.cfg, state.data, seat, &scratch) != 0:
        raise ValueError("no world is consistent with the seat's information")
    return bool(scratch.exact)


def resample_draws(State state, int seat, int count, uint64_t seed) -> int:
    """Benchmarks: ``count`` native determinisations of ``state`` for ``seat`` (one prepare, then the draws, as
    search makes them; the worlds are dropped), without the GIL. 0, or the first error code."""
    cdef SPResample scratch
    cdef SPState world
    cdef uint64_t rng = rng_seed(seed)
    cdef int err = sp_resample_prepare(state.core.cfg, state.data, seat, &scratch), i
    with nogil:
        for i in range(count):
            if err:
                break
            err = sp_resample_draw(state.core.cfg, &scratch, state.data, seat, &world, &rng)
    return err


def seat_goals(GameCore core, const uint8_t[::1] raw, int seat) -> int:
    """Bitset of the goal tiles (any, in play or not) the seat meets now."""
    if raw.shape[0] != sizeof(SPState) or not 0 <= seat < (<const SPConfig*>core.cfg).nseats:
        raise ValueError("not a Sparks state")
    return goals_met(<const SPConfig*>core.cfg, &(<const SPState*>&raw[0]).pl[seat])


def validate_code(GameCore core, const uint8_t[::1] raw) -> int:
    if raw.shape[0] != sizeof(SPState):
        raise ValueError("not a Sparks state")
    return sp_validate(core.cfg, &raw[0])


cdef double heuristic(const SPConfig* cfg, const SPState* s, int p) noexcept nogil:
    cdef const Player* P = &s.pl[p]
    cdef double v = seat_score(cfg, s, p)
    cdef int k, j, card, filled, total, c
    cdef double late = 1.0 - s.turn / <double>cfg.turns
    for k in range(SLOTS):
        card = P.line[k]
        if card == NO_CARD:
            continue
        filled = 0
        for j in range(cfg.r_n[card]):
            if P.space[SP_ROBOT + 3 * k + j]:
                filled += 1
        v += 1.5 * filled * (1.0 + cfg.r_adv[card]) / cfg.r_n[card]
    total = P.upg_bonus
    for c in range(NCOL):
        if P.space[c]:
            total += dval(P.space[c])
    if P.level < cfg.nlevels:
        v += 3.0 * total / cfg.thresholds[P.level]
    v += late * (0.8 * dice_count(P) + 0.5 * P.sparks + 0.4 * P.cogs + 0.8 * popcount(P.hand)
                 + 1.5 * popcount(P.tiles))
    v += 0.5 * P.level * late * 4
    return v


def evaluate(State state, int seat) -> float:
    """A heuristic value of the seat's position minus the best other seat's (GreedyBot)."""
    cdef const SPConfig* cfg = <const SPConfig*>state.core.cfg
    cdef const SPState* s = <const SPState*>state.data
    cdef double mine, best = -1e9, v
    cdef int p
    if not 0 <= seat < cfg.nseats:
        raise ValueError("no such seat")
    mine = heuristic(cfg, s, seat)
    for p in range(cfg.nseats):
        if p != seat:
            v = heuristic(cfg, s, p)
            if v > best:
                best = v
    return mine - (best if cfg.nseats > 1 else 0.0)


_P_SCALARS = ("tableau", "box_used", "box_cog", "hand", "played", "tiles", "cogs", "sparks", "level",
              "prod_used", "npend", "nrr", "nbuf", "upg_bonus", "conrad", "used_frank", "used_octavia",
              "used_adjust", "used_reroll1", "used_ignval", "used_emma", "reroll_tile", "rearranged", "held",
              "silas", "completed", "nrc", "hmark")
_P_ARRAYS = (("avail", NTYPES), ("space", NSPACE), ("line", SLOTS), ("stile", SLOTS), ("track", NCOL),
             ("pend", MAX_PEND), ("parg", MAX_PEND), ("rr", MAX_RR), ("rc", SPACES), ("buf", 4), ("bufk", 4))
_S_SCALARS = ("rng", "pool", "adeck", "goals", "stacks", "nbottom", "njunk", "phase", "turn", "first",
              "taker", "ntaken", "take_end", "done", "dstep", "started")


def unpack_state(const uint8_t[::1] raw) -> dict:
    """Every field of the struct as Python values (omniscient; tests and tools). Byte arrays become lists."""
    cdef SPState s
    cdef int p
    if raw.shape[0] != sizeof(SPState):
        raise ValueError(f"a Sparks state is {sizeof(SPState)} bytes")
    memcpy(&s, &raw[0], sizeof(SPState))
    d = <dict>s
    out = {k: d[k] for k in _S_SCALARS}
    out["bknow"] = list(d["bknow"])
    out["arec"] = [s.arec[p] for p in range(MAX_ASSIST)]
    out["bottom"] = [s.bottom[p] for p in range(64)]
    out["junk"] = [s.junk[p] for p in range(MAX_JUNK)]
    out["bag"] = [s.bag[p] for p in range(NCOL)]
    out["disc"] = [s.disc[p] for p in range(NCOL)]
    out["dpick"] = [s.dpick[p] for p in range(MAX_P)]
    out["bonus"] = [[s.bonus[p][k] for k in range(MAX_BONUS)] for p in range(NCOL)]
    players = []
    for p in range(MAX_P):
        pd = d["pl"][p]
        q = {k: pd[k] for k in _P_SCALARS}
        raw_p = (<char*>&s.pl[p])[:sizeof(Player)]
        for name, size in _P_ARRAYS:
            off = _OFFSETS[name]
            q[name] = list(raw_p[off:off + size])
        players.append(q)
    out["players"] = players
    return out


@cython.boundscheck(True)           # the caller's lists (Game.with_fields): a short one is an IndexError
@cython.wraparound(True)
def pack_state(dict f) -> bytes:
    """Inverse of ``unpack_state`` (no validation here: build a State with ``Game.state_from_row``)."""
    cdef SPState s
    cdef Player P
    cdef int p, i, k
    memset(&s, 0, sizeof(SPState))
    s.rng = f["rng"]
    s.pool = f["pool"]
    s.bknow[0] = f["bknow"][0]
    s.bknow[1] = f["bknow"][1]
    for i in range(MAX_ASSIST):
        s.arec[i] = f["arec"][i]
    s.adeck = f["adeck"]
    s.goals = f["goals"]
    s.stacks = f["stacks"]
    s.nbottom = f["nbottom"]
    s.njunk = f["njunk"]
    s.phase = f["phase"]
    s.turn = f["turn"]
    s.first = f["first"]
    s.taker = f["taker"]
    s.ntaken = f["ntaken"]
    s.take_end = f["take_end"]
    s.done = f["done"]
    s.dstep = f["dstep"]
    s.started = f["started"]
    for i in range(MAX_P):
        s.dpick[i] = f["dpick"][i]
    for i in range(64):
        s.bottom[i] = f["bottom"][i]
    for i in range(MAX_JUNK):
        s.junk[i] = f["junk"][i]
    for i in range(NCOL):
        s.bag[i] = f["bag"][i]
        s.disc[i] = f["disc"][i]
        for k in range(MAX_BONUS):
            s.bonus[i][k] = f["bonus"][i][k]
    for p in range(MAX_P):
        q = f["players"][p]
        memset(&P, 0, sizeof(Player))
        P.tableau = q["tableau"]
        P.box_used = q["box_used"]
        P.box_cog = q["box_cog"]
        P.hand = q["hand"]
        P.played = q["played"]
        P.tiles = q["tiles"]
        P.cogs = q["cogs"]
        P.sparks = q["sparks"]
        P.level = q["level"]
        P.prod_used = q["prod_used"]
        P.npend = q["npend"]
        P.nrr = q["nrr"]
        P.nbuf = q["nbuf"]
        P.upg_bonus = q["upg_bonus"]
        P.conrad = q["conrad"]
        P.used_frank = q["used_frank"]
        P.used_octavia = q["used_octavia"]
        P.used_adjust = q["used_adjust"]
        P.used_reroll1 = q["used_reroll1"]
        P.used_ignval = q["used_ignval"]
        P.used_emma = q["used_emma"]
        P.reroll_tile = q["reroll_tile"]
        P.rearranged = q["rearranged"]
        P.held = q["held"]
        P.silas = q["silas"]
        P.completed = q["completed"]
        P.nrc = q["nrc"]
        P.hmark = q["hmark"]
        for i in range(NTYPES):
            P.avail[i] = q["avail"][i]
        for i in range(NSPACE):
            P.space[i] = q["space"][i]
        for i in range(SLOTS):
            P.line[i] = q["line"][i]
            P.stile[i] = q["stile"][i]
            P.rc[i] = q["rc"][i]
        for i in range(NCOL):
            P.track[i] = q["track"][i]
        for i in range(MAX_PEND):
            P.pend[i] = q["pend"][i]
            P.parg[i] = q["parg"][i]
        for i in range(MAX_RR):
            P.rr[i] = q["rr"][i]
        for i in range(4):
            P.buf[i] = q["buf"][i]
            P.bufk[i] = q["bufk"][i]
        s.pl[p] = P
    return (<char*>&s)[:sizeof(SPState)]


cdef Player _probe
_OFFSETS = {
    "avail": <size_t>(<char*>&_probe.avail[0] - <char*>&_probe),
    "space": <size_t>(<char*>&_probe.space[0] - <char*>&_probe),
    "line": <size_t>(<char*>&_probe.line[0] - <char*>&_probe),
    "stile": <size_t>(<char*>&_probe.stile[0] - <char*>&_probe),
    "track": <size_t>(<char*>&_probe.track[0] - <char*>&_probe),
    "pend": <size_t>(<char*>&_probe.pend[0] - <char*>&_probe),
    "parg": <size_t>(<char*>&_probe.parg[0] - <char*>&_probe),
    "rr": <size_t>(<char*>&_probe.rr[0] - <char*>&_probe),
    "rc": <size_t>(<char*>&_probe.rc[0] - <char*>&_probe),
    "buf": <size_t>(<char*>&_probe.buf[0] - <char*>&_probe),
    "bufk": <size_t>(<char*>&_probe.bufk[0] - <char*>&_probe),
}
# action_options reads avail[16..23] and space[0..7] with one 16-byte load
if _OFFSETS["space"] != _OFFSETS["avail"] + NTYPES:
    raise ImportError("Sparks: Player.space must follow Player.avail")
