# cython: language_level=3
"""Smartphone's rules in C: move generation (``sp_legal_mask``), stepping (``sp_apply``), scoring and the invariant
check (``sp_validate``). RULES.md states the rules these functions implement.

A turn is the turn player's action (supply, build, depollute, or pass where allowed), possibly preceded by a
trade offer and its answer, and followed by its sub-prompts (the cards of a supply, the second malus of a
depollution, a harsh malus's loss). After the last turn of a round the next event is drawn and resolved (its
prompts are actions of the players it asks), then the market refresh may be decided, then the next round starts
with the next player.

Information rules the engine keeps: every transition that reveals a hidden card is either named by the action of
the player who owns the card (a discard, a build, a trade) or draws chance (a random steal, a deck draw); the
engine never skips a player's prompt on the basis of what others cannot see (event 9 and a harsh 'lose' visit
the player even when nothing has to go, who then says "done").

Invariants between calls (checked by ``sp_validate`` for states from outside): every resource card is in one
place (a deck, the market, a hand, a board, out of the game) and every malus card too (the pile, a hand, set
aside); every seat's lower bound of each hand lies between the public one and the hand (``known`` <= ``known`` +
``private_known[o]`` <= ``hand``, "what each seat knows of the hands" below), and every upper bound above it
(``hand`` <= ``upper - private_upper[o]`` <= ``upper``, by type, P and M cards together); the phase's context is
consistent; the acting seat has a legal action.
"""

cimport cython
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.mem cimport PyMem_Free, PyMem_Malloc

from robotcore.core.bits cimport load_le32, load_le64, lowest_bit, nonzero16, popcount, zero_words
from robotcore.core.playout cimport random_playout_loop, random_playout_loop_words
from robotcore.core.rng cimport rng_below, rng_seed
from robotcore.core.state cimport MAX_MASK_WORDS, EngineSpec, GameCore, take_native_hooks
from robotcore.games.smartphone.state cimport (
    EV_COLLECT, EV_DISCARD_SUPPLIER, EV_DOUBLE, EV_DUEL, EV_END, EV_HOARDING, EV_NEIGHBOUR_TAX, EV_NEW_MINES,
    EV_NO_DEPOLLUTION, EV_NONE, EV_PENALTY, EV_QUIZ_TAKE, EV_RECYCLING_TAX, EV_TRADING, FL_NODEP, FL_TRADING,
    ITEM_MALUS, UPPER_MAX, MAX_COMP, MAX_EVENTS, MAX_FIT, MAX_MALUS, MAX_MSETS, MAX_OPTS, MAX_P, MAX_TOP, MAX_VIS, MX_BLOCK, MX_HEAVY, MX_LOSE,
    MX_STICKY, MX_WIPE, NK, NK_LOSABLE, NO_CARD, NS, NT, NUM_EVENT_KINDS, NUM_PHASES, PH_ANSWER, PH_DEPOLLUTE,
    PH_EV_DISCARD, PH_EV_PICK, PH_EV_TAX, PH_LOSE, PH_MAIN, PH_OFFER, PH_OVER, PH_PICK, PH_VOTE, RF_AUTO,
    RF_FIRST, RF_OFF, RF_VOTE, SUP_RECYCLING, SPConfig, SPState,
)

cdef enum:
    END_NONE = 0
    END_SMARTPHONE = 1
    END_EVENT = 2
    END_PILE = 3
    END_EVENTS_OUT = 4


# -- small helpers ----------------------------------------------------------------------------------------------

cdef inline void set_bit(uint64_t* words, int a) noexcept nogil:
    words[a >> 6] |= (<uint64_t>1) << (a & 63)


cdef inline void set_field_w(uint64_t* w, uint64_t* written, int base, uint64_t bits) noexcept nogil:
    """OR ``bits`` into the mask from action ``base`` on (bit j: action base + j), whole words at a time; the words
    it sets go into ``written`` (bit i for word i: what the playouts scan, so only those)."""
    cdef int wi = base >> 6, off = base & 63
    cdef uint64_t lo = bits << off, hi = (bits >> 1) >> (63 - off)     # no shift by 64 when off is 0
    cdef int spill = hi != 0
    w[wi] |= lo
    w[wi + spill] |= hi                 # without a branch: hi is 0 unless the field does run into the next word
    written[0] |= ((<uint64_t>(lo != 0)) << (wi & 63)) | ((<uint64_t>spill) << ((wi + 1) & 63))


cdef inline void set_field(uint64_t* w, int base, uint64_t bits) noexcept nogil:
    """``set_field_w`` for a family of a phase whose words are known (``cfg.phase_words``)."""
    cdef int wi = base >> 6, off = base & 63
    cdef uint64_t hi = (bits >> 1) >> (63 - off)
    w[wi] |= bits << off
    w[wi + (hi != 0)] |= hi


cdef inline void set_one(uint64_t* w, int a) noexcept nogil:
    w[a >> 6] |= (<uint64_t>1) << (a & 63)


cdef inline uint64_t put_field(uint64_t* w, int base, uint64_t bits) noexcept nogil:
    """``set_field_w`` returning the words it wrote (bit i for word i) instead of adding them to a set."""
    cdef int wi = base >> 6, off = base & 63
    cdef uint64_t lo = bits << off, hi = (bits >> 1) >> (63 - off)
    cdef int spill = hi != 0
    w[wi] |= lo
    w[wi + spill] |= hi
    return ((<uint64_t>(lo != 0)) << (wi & 63)) | ((<uint64_t>spill) << ((wi + 1) & 63))


cdef inline int byte_sum(uint64_t x) noexcept nogil:
    """The sum of the 8 bytes of x, when it is below 256 (every partial sum is, so the multiply never carries)."""
    return <int>((x * <uint64_t>0x0101010101010101ULL) >> 56)


cdef inline int pile_cards(const SPState* s) noexcept nogil:
    """The cards of ``pile`` (24 counts, zero past the malus cards, 250 at most: three words summed bytewise)."""
    return byte_sum(load_le64(&s.pile[0]) + load_le64(&s.pile[8]) + load_le64(&s.pile[16]))


cdef inline uint32_t slots_filled(const SPState* s, int sup) noexcept nogil:
    """Bit i set when face-up slot i of ``sup`` holds a card: a type is below 0x80, an empty slot is NO_CARD (and
    so is every slot past the supplier's); the four top bits gathered by one multiply."""
    cdef uint32_t x = ((~load_le32(&s.market[sup][0])) & 0x80808080u) >> 7
    return ((x * 0x204081u) >> 21) & 0xFu


cdef inline uint32_t malus_held(const SPState* s, int p) noexcept nogil:
    """Bit t set when p holds malus card t (24 counts, two overlapping 16-byte tests)."""
    return nonzero16(&s.malus[p][0]) | (nonzero16(&s.malus[p][8]) << 8)


cdef inline uint32_t kinds_held(const SPState* s, int p) noexcept nogil:
    """Bit k set when p holds a card of kind k (the 16th byte read lies in the struct and is masked off)."""
    return nonzero16(&s.hand[p][0]) & 0x7FFFu


cdef int pile_size(const SPConfig* cfg, const SPState* s) noexcept nogil:
    return cfg.ntop - s.top_next + pile_cards(s)


cdef int deck_size(const SPState* s, int sup) noexcept nogil:
    cdef int t, n = 0
    for t in range(NT):
        n += s.deck[sup * NT + t]
    return n


cdef int visible_count(const SPConfig* cfg, const SPState* s, int sup) noexcept nogil:
    cdef int i, n = 0
    for i in range(cfg.vis[sup]):
        if s.market[sup][i] != NO_CARD:
            n += 1
    return n


cdef int hand_sup(const SPState* s, int p, int sup) noexcept nogil:
    cdef int t, n = 0
    for t in range(NT):
        n += s.hand[p][sup * NT + t]
    return n


cdef inline int losable(const SPState* s, int p) noexcept nogil:
    """Non-recycled resource cards in hand (the only ones an event can take away)."""
    return hand_sup(s, p, 0) + hand_sup(s, p, 1)


cdef int recycled_owned(const SPState* s, int p) noexcept nogil:
    """Recycled cards in hand and laid (the * order and events 2, 10, 11)."""
    cdef int t, n = 0
    for t in range(NT):
        n += s.hand[p][SUP_RECYCLING * NT + t] + s.laid[p][SUP_RECYCLING * NT + t]
    return n


cdef int laid_sup(const SPState* s, int p, int sup) noexcept nogil:
    cdef int t, n = 0
    for t in range(NT):
        n += s.laid[p][sup * NT + t]
    return n


cdef int malus_weight(const SPConfig* cfg, const SPState* s, int p) noexcept nogil:
    """Malus cards held, a heavy one counting twice in the harsh variant (at most the pile's 250 cards: the 24
    counts summed bytewise as three words)."""
    cdef int t, n = byte_sum(load_le64(&s.malus[p][0]) + load_le64(&s.malus[p][8]) + load_le64(&s.malus[p][16]))
    if cfg.harsh:
        for t in range(cfg.nmalus):
            if cfg.mfx[t] == MX_HEAVY:
                n += s.malus[p][t]
    return n


cdef inline int turn_player(const SPConfig* cfg, const SPState* s) noexcept nogil:
    cdef int t = s.first + s.turns            # first < n and turns <= n: one subtraction instead of a division
    return t - cfg.n if t >= cfg.n else t


cdef int32_t seat_score(const SPConfig* cfg, const SPState* s, int p) noexcept nogil:
    cdef int c, q, best = 0, mine = laid_sup(s, p, SUP_RECYCLING), r
    cdef int32_t pts = 0
    for c in range(cfg.ncomp):
        if (s.built[p] >> c) & 1:
            pts += cfg.points[c]
    for q in range(cfg.n):
        r = laid_sup(s, q, SUP_RECYCLING)
        if r > best:
            best = r
    if best > 0 and mine == best:
        pts += cfg.bonus
    pts -= s.penalty * malus_weight(cfg, s, p)
    return pts


# -- what each seat knows of the hands ----------------------------------------------------------------------
# known[h] is the public lower bound of h's hand (what every seat, a spectator too, is sure it holds). Seat o's own
# bound is K_o[h] = known[h] + private_known[o][h] (known <= K_o <= hand; private_known[h][h] is 0: a seat sees its
# own hand). Only a steal makes them differ (the thief and the victim see the card, the others its back). Every
# other change is public and applies to each K_o as to known: a card gained face up raises known and leaves
# private_known as it is; a public loss lowers known and each K_o alike (saturating), and the private excess is
# derived again; a card shown by an offer raises known and each K_o to what it shows. ``private_of`` (bit h: some
# seat knows more of h than the public) keeps these to a test of one byte when nobody does, the usual case.

cdef void refresh_private_of(SPState* s, int h) noexcept nogil:
    """Bit h of ``private_of``: whether some seat knows more of h's hand than the public bound (each seat's row of
    10 counts read as two overlapping words; the last one ends where the array does)."""
    cdef const uint8_t* row = &s.private_known[0][h][0]
    cdef uint64_t w = 0
    cdef int o
    for o in range(MAX_P):
        w |= load_le64(row) | load_le64(row + NK_LOSABLE - 8)
        row += MAX_P * NK_LOSABLE
    s.private_of = <uint8_t>((s.private_of & ~(1 << h)) | ((w != 0) << h))


cdef bint private_lose(SPState* s, int h, int k, int n) noexcept nogil:
    """Before n cards of kind k leave h's hand in public (``known`` not lowered yet): each seat's bound K_o[h][k]
    drops by n (saturating) as the public one does, and the private excess becomes what is left above it. True
    when some seat's excess fell to 0: the caller then refreshes bit h of ``private_of`` once its cards are gone."""
    cdef int o, K, kn = s.known[h][k] - n
    cdef bint gone = False
    if kn < 0:
        kn = 0
    for o in range(MAX_P):
        if s.private_known[o][h][k]:
            K = s.known[h][k] + s.private_known[o][h][k] - n
            s.private_known[o][h][k] = <uint8_t>(K - kn if K > kn else 0)
            gone |= K <= kn
    return gone


cdef void private_show(SPState* s, int h, int k, int i) noexcept nogil:
    """``known[h][k]`` is raised to i (an offered card shows it; i above it): each seat's bound K_o[h][k] becomes
    at least i, so its excess over the new public bound is what it knew beyond i."""
    cdef int o, K
    for o in range(MAX_P):
        if s.private_known[o][h][k]:
            K = s.known[h][k] + s.private_known[o][h][k]
            s.private_known[o][h][k] = <uint8_t>(K - i if K > i else 0)
    s.known[h][k] = <uint8_t>i
    refresh_private_of(s, h)


cdef void lose_known(SPState* s, int p, int k, int n) noexcept nogil:
    """``remove_card`` when some seat knows privately of p's hand, before the public bound drops."""
    if k < NK_LOSABLE and private_lose(s, p, k, n):
        refresh_private_of(s, p)


# The paths taken only once some seat knows privately of a hand (after a steal) are called through pointers: never
# inlined into their callers (remove_card's many, the offer step, the steal's), which keep the size and the
# registers they had without them
ctypedef void (*cold_path)(SPState* s, int p, int k, int n) noexcept nogil
cdef cold_path LOSE_KNOWN = lose_known
cdef cold_path SHOW_KNOWN = private_show
cdef cold_path STEAL_CARD = steal_card                            # (thief, victim, kind)


cdef inline void remove_card(SPState* s, int p, int k, int n) noexcept nogil:
    """n cards of kind k leave p's hand in public: the known lower bound drops with them, and every seat's; so
    does the upper bound of its type (non-recycled), and every seat's with it (``private_upper`` as is)."""
    if s.private_of & (1 << p):                                 # (after a steal only: well predicted)
        LOSE_KNOWN(s, p, k, n)
    if k < NK_LOSABLE:
        s.upper[p][k - NT * (k >= NT)] -= n
    s.hand[p][k] -= n
    if s.known[p][k] > n:
        s.known[p][k] -= n
    else:
        s.known[p][k] = 0


cdef inline void gain_known(SPState* s, int p, int k) noexcept nogil:
    """A card enters p's hand face up: the public bound rises, and so does every seat's (private_known as is); the
    upper bound of its type too (non-recycled), and every seat's with it."""
    cdef int t = k - NT * (k >= NT)
    s.hand[p][k] += 1
    s.known[p][k] += 1
    if k < NK_LOSABLE:
        s.upper[p][t] += s.upper[p][t] != UPPER_MAX


cdef inline void gain_unseen(SPState* s, int p) noexcept nogil:
    """A non-recycled card nobody else saw enters p's hand (a deck draw; a stolen card for the other seats): it
    could be of any type, so every upper bound of the hand rises by one (every seat's with it), saturating (never
    in play). (Measured: as written, fewer instructions than a branch-free form with the draw's supplier as a 0/1
    increment, or the first four bounds added as one word.)"""
    cdef int t
    for t in range(NT):
        s.upper[p][t] += s.upper[p][t] != UPPER_MAX


cdef void upper_cap(SPState* s, int p, int limit) noexcept nogil:
    """p answered event 9's ``done``: it holds at most ``limit`` non-recycled cards of each type. Every bound of
    the hand becomes at most that: the public one, and each seat's (``upper - private_upper[o]``)."""
    cdef int o, t, u, b
    for t in range(NT):
        u = s.upper[p][t]
        if u <= limit:                          # every bound of t already is (each seat's is at most u)
            continue
        for o in range(MAX_P):
            if s.private_upper[o][p][t]:
                b = u - s.private_upper[o][p][t]
                s.private_upper[o][p][t] = <uint8_t>(limit - (b if b < limit else limit))
        s.upper[p][t] = <uint16_t>limit


cdef void upper_none(SPState* s, int p, int t) noexcept nogil:
    """p answered a harsh 'lose' of type t with ``done``: it holds no non-recycled card of t (every bound 0)."""
    cdef int o
    s.upper[p][t] = 0
    for o in range(MAX_P):
        s.private_upper[o][p][t] = 0


cdef inline uint32_t deck_left(const SPState* s, int sup) noexcept nogil:
    """Non-zero when the deck of ``sup`` holds a card (the 16th byte read lies in the struct and is masked off)."""
    return (nonzero16(&s.deck[0]) >> (sup * NT)) & 0x1Fu


cdef int draw_type(SPState* s, int sup) noexcept nogil:
    """A card drawn at random from a supplier's deck (not empty): its type."""
    return draw_type_of(s, sup, deck_size(s, sup))


cdef int draw_type_of(SPState* s, int sup, int size) noexcept nogil:
    """``draw_type`` when the deck's size is known: the r-th card in type order, as a scan over the counts finds
    it (the first type whose running count exceeds r), counted without a branch: the running counts r reaches."""
    cdef const uint8_t* d = &s.deck[sup * NT]
    cdef int r = <int>rng_below(&s.rng, <uint32_t>size)
    cdef int c0 = d[0], c1 = c0 + d[1], c2 = c1 + d[2], c3 = c2 + d[3]
    cdef int t = (r >= c0) + (r >= c1) + (r >= c2) + (r >= c3)
    s.deck[sup * NT + t] -= 1
    return t


cdef int draw_malus(const SPConfig* cfg, SPState* s) noexcept nogil:
    """The top malus card of the (non-empty) pile: a definition card while some remain, else one at random."""
    cdef int t, r, s0, s1, total, i, ge
    cdef uint64_t x0, x1, x2, pre
    if s.top_next < cfg.ntop:
        s.top_next += 1
        return cfg.top[s.top_next - 1]
    x0 = load_le64(&s.pile[0])
    x1 = load_le64(&s.pile[8])
    s0 = byte_sum(x0)
    s1 = byte_sum(x1)
    x2 = load_le64(&s.pile[16])
    total = byte_sum(x0 + x1 + x2)
    r = <int>rng_below(&s.rng, <uint32_t>total)
    # the r-th card in card order, as a scan over the counts would find it: the word of 8 counts holding it, then
    # in it the first count whose running sum exceeds r (the running sums are the bytes of one multiply, below
    # 256; three halving steps)
    # (without a branch: which word holds the card is the draw's)
    ge = r >= s0
    r -= s0 & -ge
    t = 8 * ge
    x0 ^= (x0 ^ x1) & (<uint64_t>0 - <uint64_t>ge)
    ge = ge & (r >= s1)
    r -= s1 & -ge
    t += 8 * ge
    x0 ^= (x0 ^ x2) & (<uint64_t>0 - <uint64_t>ge)
    pre = x0 * <uint64_t>0x0101010101010101ULL
    i = 0
    if <int>((pre >> 24) & 0xFF) <= r:
        i = 4
    if <int>((pre >> (8 * i + 8)) & 0xFF) <= r:
        i += 2
    if <int>((pre >> (8 * i)) & 0xFF) <= r:
        i += 1
    t += i
    s.pile[t] -= 1
    return t


cdef void refill(const SPConfig* cfg, SPState* s) noexcept nogil:
    cdef int sup, i, n
    cdef uint64_t lo
    cdef uint32_t hi, empty
    memcpy(&lo, &s.market[0][0], 8)
    memcpy(&hi, &s.market[2][0], 4)
    if not ((lo & cfg.vis_lo) | (hi & cfg.vis_hi)):        # no empty face-up slot (the usual case)
        return
    # the empty face-up slots of the three suppliers as one set (4 bits a supplier), filled in order, each from its
    # supplier's deck while it lasts: one loop over the slots, where a loop per supplier and its test for empty
    # slots each changed their course with what was taken (the same draws in the same order)
    # (the top bit of each face-up slot's byte, NO_CARD's, gathered by a multiply: byte k's to bit k)
    empty = (<uint32_t>((((lo & cfg.vis_lo) >> 7) * <uint64_t>0x0102040810204080ULL) >> 56)
             | (((((hi & cfg.vis_hi) >> 7) * 0x204081u) >> 13) & 0xF00u))
    while empty:
        i = lowest_bit(empty)
        empty &= empty - 1
        sup = i >> 2
        n = deck_size(s, sup)
        if n > 0:
            s.market[sup][i & 3] = <uint8_t>draw_type_of(s, sup, n)


cdef void steal_random(SPState* s, int thief, int victim) noexcept nogil:
    """A non-recycled card drawn at random from the victim's hand goes to the thief (``steal_card``)."""
    cdef int k, r, total = losable(s, victim)
    if total == 0:
        return
    r = <int>rng_below(&s.rng, <uint32_t>total)
    for k in range(NK_LOSABLE):
        if r < s.hand[victim][k]:
            STEAL_CARD(s, thief, victim, k)
            return
        r -= s.hand[victim][k]


cdef void steal_card(SPState* s, int t, int v, int k) noexcept nogil:
    """A card of kind k goes from v's hand to t's, seen by the thief t and the victim v only; every seat sees its
    back, its supplier. Each seat's bound of v's cards of that supplier, after: the thief's drops for k alone
    (saturating); every other seat's drops by one for each kind of the supplier, as the public bound does (the
    card could have been any of them). Of t's hand: the victim's bound rises for k; the others' stay (they learn
    only that t holds one more card of the supplier, which t's count by supplier shows).

    In excesses over the public bound (``private_known``), for a kind j of the supplier: where the public bound
    was above 0 it drops by one, as every bound but the thief's for j != k does, so those excesses stay and the
    thief's grows by one; where it was 0 it stays, and every excess that drops (all but the thief's for j != k)
    drops by one, saturating."""
    cdef int o, j, kj, sup0 = (k // NT) * NT
    if s.private_of & (1 << v):                                 # some seat already knew more of v's hand
        for o in range(MAX_P):
            if o != v:
                for j in range(NT):
                    kj = sup0 + j
                    if s.known[v][kj] == 0 and s.private_known[o][v][kj] and (o != t or kj == k):
                        s.private_known[o][v][kj] -= 1
    for j in range(NT):
        kj = sup0 + j
        if s.known[v][kj]:
            s.known[v][kj] -= 1
            if kj != k:
                s.private_known[t][v][kj] += 1                  # the thief knows this kind is still there
    s.hand[v][k] -= 1
    s.hand[t][k] += 1
    s.private_known[v][t][k] += 1
    refresh_private_of(s, v)
    s.private_of |= <uint8_t>(1 << t)
    # upper bounds: v's public ones stay (a card of unknown type left), t's all rise by one (one entered, as
    # gain_unseen); the thief knows v's type of k lost one, the victim that t's other types did not grow (the
    # excesses saturate at 255: a smaller excess is a looser bound, still true)
    j = k - NT * (k >= NT)
    if s.private_upper[t][v][j] < 255:
        s.private_upper[t][v][j] += 1
    for o in range(NT):
        if s.upper[t][o] != UPPER_MAX:
            s.upper[t][o] += 1
            if o != j and s.private_upper[v][t][o] < 255:
                s.private_upper[v][t][o] += 1


cdef bint star_before(const SPConfig* cfg, const SPState* s, int a, int b) noexcept nogil:
    """The * order: most recycled cards, then fewest malus, then the quiz."""
    cdef int ra = recycled_owned(s, a), rb = recycled_owned(s, b), ma, mb
    if ra != rb:
        return ra > rb
    ma = malus_weight(cfg, s, a)
    mb = malus_weight(cfg, s, b)
    if ma != mb:
        return ma < mb
    return s.quiz[a] < s.quiz[b]


cdef void draw_quiz(const SPConfig* cfg, SPState* s) noexcept nogil:
    """The quiz's winner order, as a seeded draw: a random permutation of ranks."""
    cdef int i, j
    cdef uint8_t t
    for i in range(MAX_P):
        s.quiz[i] = <uint8_t>i if i < cfg.n else 0
    i = cfg.n - 1
    while i > 0:
        j = <int>rng_below(&s.rng, <uint32_t>(i + 1))
        t = s.quiz[i]
        s.quiz[i] = s.quiz[j]
        s.quiz[j] = t
        i -= 1


cdef void star_sort(const SPConfig* cfg, SPState* s, bint fewest_malus_first) noexcept nogil:
    """order = every seat, sorted by the * order (event 5: fewest malus first, then the * order)."""
    cdef int i, j, a, b, ma, mb
    cdef bint swap
    for i in range(cfg.n):
        s.order[i] = <uint8_t>i
    for i in range(1, cfg.n):
        j = i
        while j > 0:
            a = s.order[j - 1]
            b = s.order[j]
            if fewest_malus_first:
                ma = malus_weight(cfg, s, a)
                mb = malus_weight(cfg, s, b)
                swap = mb < ma or (mb == ma and star_before(cfg, s, b, a))
            else:
                swap = star_before(cfg, s, b, a)
            if not swap:
                break
            s.order[j - 1] = <uint8_t>b
            s.order[j] = <uint8_t>a
            j -= 1
    s.ev_n = cfg.n


cdef void clockwise_order(const SPConfig* cfg, SPState* s, int start) noexcept nogil:
    cdef int i
    for i in range(cfg.n):
        s.order[i] = <uint8_t>((start + i) % cfg.n)
    s.ev_n = cfg.n


cdef int max_identical(const SPConfig* cfg, const SPState* s) noexcept nogil:
    cdef int cnt[NT]
    cdef int sup, i, t, best = 0
    for t in range(NT):
        cnt[t] = 0
    for sup in range(NS):
        for i in range(cfg.vis[sup]):
            if s.market[sup][i] != NO_CARD:
                cnt[s.market[sup][i]] += 1
    for t in range(NT):
        if cnt[t] > best:
            best = cnt[t]
    return best


cdef inline void trigger_end(SPState* s, int reason) noexcept nogil:
    if not s.end_trig:
        s.end_trig = 1
        s.end_reason = <uint8_t>reason


cdef inline void game_over(SPState* s, int reason) noexcept nogil:
    if s.end_reason == END_NONE:
        s.end_reason = <uint8_t>reason
    s.phase = PH_OVER
    s.cur = 0
    s.ev_cur = NO_CARD


# -- legal actions ----------------------------------------------------------------------------------------------

cdef inline uint32_t suppliers_open(const SPConfig* cfg, const SPState* s, int p, int pile) noexcept nogil:
    """Bit sup set when p may supply at sup: not blocked, the malus pile not empty if sup hands out malus
    (``pile``: its size, counted once by the caller), and a card left face up or in the deck."""
    cdef uint32_t decks = nonzero16(&s.deck[0])               # bit k: cards of kind k left (byte 15 masked off)
    cdef uint64_t up = ~load_le64(&s.market[0][0]) & <uint64_t>0x8080808080808080ULL   # a card: top bit clear
    cdef uint32_t bits = 0
    if (up & 0x80808080u) or (decks & 0x1Fu):
        bits |= 1
    if (up >> 32) or (decks & 0x3E0u):
        bits |= 2
    if (~load_le32(&s.market[2][0]) & 0x80808080u) or (decks & 0x7C00u):
        bits |= 4
    bits &= ~(<uint32_t>s.block[p])
    if pile == 0:
        bits &= ~(<uint32_t>cfg.mtake_sups)
    return bits & 7u


cdef inline int fit_row(int h) noexcept nogil:
    return h if h < MAX_FIT else MAX_FIT - 1


cdef extern from *:
    """
    #define SP_LEAD(c) ((c) < 3 ? 5 * (c) : 16 + 5 * ((c) - 3))   /* component c's bit, its recipe's first byte */
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    /* Bit SP_LEAD(c) set when the 15 counts per kind at ``hand`` (supplier * 5 + type; 16 bytes read) hold, of every type,
       at least rec[c * 5 + type] cards (c < 6; rec: 32 bytes, comps 0-2 in bytes 0-14, 3-5 in bytes 16-30).
       The three suppliers' counts of a type are added (saturating: a recipe needs at most 9), the five sums
       copied for three components at once, and "sum >= need" is a zero saturating difference. */
    static inline uint32_t sp_comps_in_reach(const uint8_t* hand, const uint8_t* rec) {
        const __m128i h = _mm_loadu_si128((const __m128i*)hand);
        __m128i t = _mm_adds_epu8(_mm_adds_epu8(h, _mm_srli_si128(h, 5)), _mm_srli_si128(h, 10));
        __m128i z = _mm_setzero_si128(), t3;
        uint32_t m;
        t = _mm_and_si128(t, _mm_set_epi32(0, 0, 0xFF, (int)0xFFFFFFFF));            /* the 5 sums */
        t3 = _mm_or_si128(_mm_or_si128(t, _mm_slli_si128(t, 5)), _mm_slli_si128(t, 10));
        m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_subs_epu8(_mm_loadu_si128((const __m128i*)rec), t3), z))
            | ((uint32_t)_mm_movemask_epi8(
                   _mm_cmpeq_epi8(_mm_subs_epu8(_mm_loadu_si128((const __m128i*)(rec + 16)), t3), z)) << 16);
        return m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4);  /* bit SP_LEAD(c): all 5 types met */
    }
    #else
    static inline uint32_t sp_comps_in_reach(const uint8_t* hand, const uint8_t* rec) {
        uint32_t ok = 0;
        int c, t;
        for (c = 0; c < 6; c++) {
            const uint8_t* r = rec + SP_LEAD(c);
            int met = 1;
            for (t = 0; t < 5; t++)
                met &= hand[t] + hand[5 + t] + hand[10 + t] >= r[t];
            ok |= (uint32_t)met << SP_LEAD(c);
        }
        return ok;
    }
    #endif
    """
    uint32_t sp_comps_in_reach(const uint8_t* hand, const uint8_t* rec) noexcept nogil
    int SP_LEAD(int c) noexcept nogil


# A build's cards leave the hand for the board, every kind at once: hand -= opt, laid += opt, known drops with them
# (a saturating difference: ``remove_card``'s rule). 16 bytes are read and written at each of the three rows (NK =
# 15 counts; the 16th byte lies in the struct and is written back unchanged: the 16th byte of the option is masked
# off); elsewhere a loop over the kinds the option lays.
cdef extern from *:
    """
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    static inline void sp_lay_cards(uint8_t* hand, uint8_t* known, uint8_t* laid, const uint8_t* opt) {
        const __m128i o = _mm_and_si128(_mm_loadu_si128((const __m128i*)opt),
                                        _mm_set_epi32(0x00FFFFFF, -1, -1, -1));
        _mm_storeu_si128((__m128i*)hand, _mm_sub_epi8(_mm_loadu_si128((const __m128i*)hand), o));
        _mm_storeu_si128((__m128i*)known, _mm_subs_epu8(_mm_loadu_si128((const __m128i*)known), o));
        _mm_storeu_si128((__m128i*)laid, _mm_add_epi8(_mm_loadu_si128((const __m128i*)laid), o));
    }
    #else
    static inline void sp_lay_cards(uint8_t* hand, uint8_t* known, uint8_t* laid, const uint8_t* opt) {
        int k;
        for (k = 0; k < 15; k++) {
            hand[k] -= opt[k];
            known[k] = known[k] > opt[k] ? known[k] - opt[k] : 0;
            laid[k] += opt[k];
        }
    }
    #endif
    """
    void sp_lay_cards(uint8_t* hand, uint8_t* known, uint8_t* laid, const uint8_t* opt) noexcept nogil


# The same build as seen by one seat that knows more of the hand than the public (a row of ``private_known``, before
# ``sp_lay_cards`` lowers ``known``): its bound known + private drops with the cards as the public one does
# (saturating), and its excess is what is left above the new public bound. A row holds the 10 non-recycled kinds;
# 16 bytes are read and written: the 6 past the row (the next row, or the struct's next field) are written back
# unchanged, their option bytes being masked off (K - known, K = known + private mod 256); the row's 10 sums are at
# most the hand, never past 255.
cdef extern from *:
    """
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    static inline void sp_lay_private(uint8_t* priv, const uint8_t* known, const uint8_t* opt) {
        const __m128i o = _mm_and_si128(_mm_loadu_si128((const __m128i*)opt), _mm_set_epi32(0, 0xFFFF, -1, -1));
        const __m128i kn = _mm_loadu_si128((const __m128i*)known);
        const __m128i bound = _mm_add_epi8(kn, _mm_loadu_si128((const __m128i*)priv));
        _mm_storeu_si128((__m128i*)priv, _mm_sub_epi8(_mm_subs_epu8(bound, o), _mm_subs_epu8(kn, o)));
    }
    #else
    static inline void sp_lay_private(uint8_t* priv, const uint8_t* known, const uint8_t* opt) {
        int k;
        for (k = 0; k < 10; k++) {
            int bound = known[k] + priv[k] - opt[k], kn = known[k] - opt[k];
            priv[k] = (uint8_t)((bound > 0 ? bound : 0) - (kn > 0 ? kn : 0));
        }
    }
    #endif
    """
    void sp_lay_private(uint8_t* priv, const uint8_t* known, const uint8_t* opt) noexcept nogil


cdef bint build_opts(const SPConfig* cfg, const SPState* s, int p, uint64_t* words, uint64_t* written) noexcept nogil:
    """Sets the legal build options of p in words (when not NULL); True when there is one.

    The options of a component are the product, over its recipe's types, of the ways to take that type's cards
    from the suppliers (an option id is a mixed-radix number, the last type's way varying fastest). The ways of a
    type that fit the hand are a bitset, the AND of three make-time tables indexed by the hand's cards of that
    type from each supplier; the last type's ways are consecutive ids, written as one field per combination of
    the other types' ways."""
    cdef int c, i, j, t, nt, h, o
    cdef uint64_t fm[NT]
    cdef uint64_t rem[NT]
    cdef int acc[NT]
    cdef uint8_t hand[NK]
    cdef uint32_t todo
    cdef bint any = False
    # a component whose recipe the hand reaches (enough cards of each type, whatever suppliers; most hands
    # reach none, and then there is no loop at all): only then can one of its options fit
    # (components as their bits SP_LEAD(c), where sp_comps_in_reach leaves them: cfg.lead_of, cfg.lead_comp)
    todo = cfg.lead_of[cfg.all_built & ~(<uint32_t>s.built[p])] & sp_comps_in_reach(&s.hand[p][0], &cfg.reach_rec[0])
    if not todo:
        return False
    memcpy(hand, &s.hand[p][0], NK)                           # locals: the mask stores cannot alias them
    while todo:
        c = cfg.lead_comp[lowest_bit(todo)]
        todo &= todo - 1
        nt = cfg.comp_nt[c]
        for i in range(nt):
            t = cfg.comp_t[c][i]
            fm[i] = (cfg.fit[c][i][0][fit_row(hand[t])] & cfg.fit[c][i][1][fit_row(hand[NT + t])]
                     & cfg.fit[c][i][2][fit_row(hand[2 * NT + t])])
            if fm[i] == 0:
                break
        else:
            if words == NULL:
                return True
            any = True
            o = cfg.a_build + cfg.comp_opt0[c]
            if nt == 1:
                set_field_w(words, written, o, fm[0])
                continue
            # an odometer over the ways of types 0..nt-2 (lowest set bit first: ids in increasing order)
            i = 0
            rem[0] = fm[0]
            acc[0] = o
            while i >= 0:
                if rem[i] == 0:
                    i -= 1
                    continue
                j = lowest_bit(rem[i])
                rem[i] &= rem[i] - 1
                h = acc[i] + j * cfg.comp_stride[c][i]
                if i == nt - 2:
                    set_field_w(words, written, h, fm[nt - 1])
                else:
                    i += 1
                    acc[i] = h
                    rem[i] = fm[i]
    return any


cdef int item_count(const uint8_t* items, int n, int code) noexcept nogil:
    cdef int i, c = 0
    for i in range(n):
        if items[i] == code:
            c += 1
    return c


cdef bint ev_pick_ok(const SPConfig* cfg, const SPState* s, int sup, int i) noexcept nogil:
    cdef int ty = s.market[sup][i]
    if ty == NO_CARD:
        return False
    if cfg.ev_kind[s.ev_cur] == EV_COLLECT:
        return (cfg.ev_types[s.ev_cur] >> ty) & 1
    return True


cdef int ev_pick_count(const SPConfig* cfg, const SPState* s) noexcept nogil:
    cdef int sup, i, n = 0
    for sup in range(NS):
        for i in range(cfg.vis[sup]):
            if ev_pick_ok(cfg, s, sup, i):
                n += 1
    return n


cdef bint over_limit(const SPConfig* cfg, const SPState* s, int p, int t) noexcept nogil:
    return s.hand[p][t] + s.hand[p][NT + t] > cfg.ev_limit[s.ev_cur]


ctypedef uint64_t (*mask_fn)(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil


cdef uint64_t mask_main(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    # the families decided by the chance of a random game (the builds, depollution or pass, the offer's targets)
    # written without a branch; depollute, stop and pass are one field (stop is never legal here)
    cdef uint32_t bits, dep, trade
    cdef int any
    cdef uint64_t written
    bits = suppliers_open(cfg, s, seat, pile_size(cfg, s))
    written = put_field(words, cfg.a_supply, bits)
    any = build_opts(cfg, s, seat, words, &written) | (bits != 0)
    dep = malus_held(s, seat) & cfg.dep_ok                    # the malus it may depollute or give (not sticky)
    if not (s.flags & FL_NODEP):                              # (event 12's round only: well predicted)
        any |= dep != 0
        written |= put_field(words, cfg.a_depollute, dep | (<uint64_t>(any == 0) << cfg.o_pass))
    else:
        written |= put_field(words, cfg.a_pass, 1)
    if s.flags & FL_TRADING:                                  # (from event 3 on)
        # something to give: a non-recycled card, or a malus card that may be given
        trade = (s.offered == 0) & ((dep | (kinds_held(s, seat) & 0x3FFu)) != 0)
        written |= put_field(words, cfg.a_offer, cfg.seat_bits & ~((<uint32_t>1) << seat) & (0u - trade))
    return written


cdef uint64_t mask_pick(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    # the supplier's face-up cards and its deck: one field from the first take id
    cdef int sup = s.pick_sup
    return put_field(words, cfg.a_take, ((<uint64_t>slots_filled(s, sup)) << cfg.o_take[sup])
                     | ((<uint64_t>(deck_left(s, sup) != 0)) << (cfg.o_draw + sup)))


cdef uint64_t mask_offer(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    # without a branch: the offer holds 0, 1 or 2 items given and asked, as random play composes it. Items are
    # given while fewer than 2 are: so only the case of one matters, where that item stays open when the hand
    # holds another of it. Kinds and malus cards share one word, an item's code being its bit (ITEM_MALUS + card).
    # Every family of the phase (give malus, give, ask, send, cancel) lies in one field from a_give_malus.
    cdef uint32_t gn = s.offer_give_n, an = s.offer_ask_n, code = s.offer_give[0], is_malus
    cdef uint64_t avail, field
    cdef int have
    avail = (<uint64_t>(kinds_held(s, seat) & 0x3FFu)) | ((<uint64_t>(malus_held(s, seat) & cfg.dep_ok)) << ITEM_MALUS)
    is_malus = code >= ITEM_MALUS
    have = s.malus[seat][(code - ITEM_MALUS) & 31] if is_malus else s.hand[seat][code & 15]
    avail &= ~((<uint64_t>((gn == 1) & (have <= 1))) << code)
    avail &= <uint64_t>0 - <uint64_t>(gn < 2)
    field = ((avail >> ITEM_MALUS) | ((avail & 0x3FFu) << cfg.o_give)
             | (cfg.f_ask & (<uint64_t>0 - <uint64_t>(an < 2)))
             | (cfg.f_send & (<uint64_t>0 - <uint64_t>((gn >= 1) & (an >= 1)))) | cfg.f_cancel)
    return put_field(words, cfg.a_give_malus, field)


cdef uint64_t mask_depollute(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    set_field(words, cfg.a_depollute, malus_held(s, seat) & cfg.dep_ok)
    set_one(words, cfg.a_stop)
    return cfg.phase_words[PH_DEPOLLUTE]


cdef uint64_t mask_lose(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    cdef int sup, kind
    cdef bint any
    any = False
    for sup in range(2):
        kind = sup * NT + s.lose_type
        if s.hand[seat][kind]:
            any = True
            set_one(words, cfg.a_discard + kind)
    if not any:
        set_one(words, cfg.a_done)
    return cfg.phase_words[PH_LOSE]


cdef uint64_t mask_answer(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    cdef int i
    cdef bint any
    any = True
    for i in range(s.offer_ask_n):
        if s.hand[seat][s.offer_ask[i]] < item_count(s.offer_ask, s.offer_ask_n, s.offer_ask[i]):
            any = False
    if any:
        set_one(words, cfg.a_accept)
    set_one(words, cfg.a_refuse)
    return cfg.phase_words[PH_ANSWER]


cdef uint64_t mask_ev_pick(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    cdef int i, sup
    cdef bint picked = False
    for sup in range(NS):
        for i in range(cfg.vis[sup]):
            if ev_pick_ok(cfg, s, sup, i):
                set_one(words, cfg.vis0[sup] + i)
                picked = True
    # card 5 ("Choisissez une ressource parmi celles qui sont visibles") is not optional: ``decline`` stays in the
    # action space as the answer of a player with nothing to take, whom the event passes over anyway
    if not picked:
        set_one(words, cfg.a_decline)
    return cfg.phase_words[PH_EV_PICK]


cdef uint64_t mask_ev_discard(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    cdef int t, sup, kind
    cdef uint32_t bits, held
    kind = cfg.ev_kind[s.ev_cur]
    held = kinds_held(s, seat)
    if kind == EV_DISCARD_SUPPLIER:
        sup = cfg.ev_sup[s.ev_cur]
        set_field(words, cfg.a_discard + sup * NT, (held >> (sup * NT)) & 0x1Fu)
    elif kind == EV_HOARDING:
        bits = 0
        for t in range(NT):
            if over_limit(cfg, s, seat, t):
                bits |= (<uint32_t>0x21u) << t                # both losable kinds of type t
        bits &= held
        if bits:
            set_field(words, cfg.a_discard, bits)
        else:
            set_one(words, cfg.a_done)
    else:                                                   # recycling tax
        set_field(words, cfg.a_discard, held & 0x3FFu)
        if s.ev_left == cfg.ev_amount[s.ev_cur] and pile_size(cfg, s) > 0:
            set_one(words, cfg.a_take_malus)
    return cfg.phase_words[PH_EV_DISCARD]


cdef uint64_t mask_ev_tax(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    if losable(s, s.offer_to) > 0:
        set_one(words, cfg.a_tax_take)
    set_field(words, cfg.a_give_malus, malus_held(s, seat))
    return cfg.phase_words[PH_EV_TAX]


cdef uint64_t mask_vote(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    set_one(words, cfg.a_vote_yes)
    set_one(words, cfg.a_vote_no)
    return cfg.phase_words[PH_VOTE]


cdef uint64_t mask_over(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    return 0


# one function per phase, called through this table: each saves only the registers its own phase needs (one
# function with every phase inlined pushes and pops six on every call)
cdef mask_fn MASK_FNS[NUM_PHASES]
MASK_FNS[PH_MAIN] = mask_main
MASK_FNS[PH_PICK] = mask_pick
MASK_FNS[PH_OFFER] = mask_offer
MASK_FNS[PH_DEPOLLUTE] = mask_depollute
MASK_FNS[PH_LOSE] = mask_lose
MASK_FNS[PH_ANSWER] = mask_answer
MASK_FNS[PH_EV_PICK] = mask_ev_pick
MASK_FNS[PH_EV_DISCARD] = mask_ev_discard
MASK_FNS[PH_EV_TAX] = mask_ev_tax
MASK_FNS[PH_VOTE] = mask_vote
MASK_FNS[PH_OVER] = mask_over


cdef inline uint64_t actor_mask(const SPConfig* cfg, const SPState* s, int seat, uint64_t* words) noexcept nogil:
    """The legal actions of ``seat``, the seat to act (``s.cur``, the game not over), ORed into ``words`` (zero on
    entry); returns the set of the words it wrote (bit i for word i)."""
    return MASK_FNS[s.phase](cfg, s, seat, words)

cdef void sp_legal_mask(const void* c, const void* st, int seat, uint64_t* words) noexcept nogil:
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef const SPState* s = <const SPState*>st
    zero_words(words, cfg.mask_words)
    if s.phase == PH_OVER or seat != s.cur:
        return
    actor_mask(cfg, s, seat, words)


# -- turn and round flow -----------------------------------------------------------------------------------------

cdef void new_round(const SPConfig* cfg, SPState* s) noexcept nogil:
    s.round += 1
    s.first = <uint8_t>((s.first + 1) % cfg.n)
    s.cur = s.first
    s.turns = 0
    s.refreshed = 0
    s.phase = PH_MAIN
    s.ev_cur = NO_CARD
    s.ev_pos = 0
    s.ev_n = 0
    s.ev_left = 0


cdef void do_refresh(const SPConfig* cfg, SPState* s, int payer) noexcept nogil:
    """Every face-up card leaves the game; the cost in malus comes off the pile (set aside, or to the payer)."""
    cdef int sup, i, k, t
    for sup in range(NS):
        for i in range(cfg.vis[sup]):
            if s.market[sup][i] != NO_CARD:
                s.out[sup * NT + s.market[sup][i]] += 1
                s.market[sup][i] = NO_CARD
    for k in range(cfg.refresh_cost):
        t = draw_malus(cfg, s)
        if payer >= 0:
            s.malus[payer][t] += 1
        else:
            s.mout[t] += 1
    refill(cfg, s)
    s.refreshed = 1


cdef bint refresh_possible(const SPConfig* cfg, const SPState* s) noexcept nogil:
    return (cfg.refresh_mode != RF_OFF and not s.refreshed and pile_size(cfg, s) >= cfg.refresh_cost
            and max_identical(cfg, s) >= cfg.refresh_threshold)


cdef void after_refresh(const SPConfig* cfg, SPState* s) noexcept nogil:
    if pile_size(cfg, s) == 0:
        game_over(s, END_PILE)
    else:
        new_round(cfg, s)


cdef void finish_event(const SPConfig* cfg, SPState* s) noexcept nogil:
    """After the event: the end if the pile ran out, else the market refresh, else the next round."""
    cdef int kind = cfg.ev_kind[s.ev_cur] if s.ev_cur != NO_CARD else EV_NONE
    if kind == EV_QUIZ_TAKE or kind == EV_COLLECT or kind == EV_NEW_MINES:
        # face-up cards taken during an event are replaced once every player has acted (PhoneImpact's rules,
        # docs/ReglesDuJeu.md @11fba889: "remplacées à la fin de l'événement")
        refill(cfg, s)
    s.ev_cur = NO_CARD
    s.ev_pos = 0
    s.ev_n = 0
    s.ev_left = 0
    if pile_size(cfg, s) == 0:
        game_over(s, END_PILE)
        return
    if refresh_possible(cfg, s):
        if cfg.refresh_mode == RF_AUTO:
            do_refresh(cfg, s, -1)
            after_refresh(cfg, s)
            return
        clockwise_order(cfg, s, (s.first + 1) % cfg.n)
        if cfg.refresh_mode == RF_FIRST:
            s.ev_n = 1
        s.ev_pos = 0
        s.cur = s.order[0]
        s.phase = PH_VOTE
        return
    new_round(cfg, s)


cdef bint visit_ok(const SPConfig* cfg, SPState* s, int p) noexcept nogil:
    """Whether the current event asks p something (decided on public information only); sets ev_left."""
    cdef int kind = cfg.ev_kind[s.ev_cur]
    if kind == EV_QUIZ_TAKE:
        s.ev_left = cfg.ev_amount[s.ev_cur]
        return ev_pick_count(cfg, s) > 0
    if kind == EV_COLLECT:
        s.ev_left = 1
        return recycled_owned(s, p) > 0 and ev_pick_count(cfg, s) > 0
    if kind == EV_NEW_MINES:
        s.ev_left = 1
        return ev_pick_count(cfg, s) > 0 and pile_size(cfg, s) > 0
    if kind == EV_DISCARD_SUPPLIER:
        s.ev_left = <uint8_t>min(<int>cfg.ev_amount[s.ev_cur], hand_sup(s, p, cfg.ev_sup[s.ev_cur]))
        return s.ev_left > 0
    if kind == EV_HOARDING:
        s.ev_left = 0
        return True
    if kind == EV_RECYCLING_TAX:
        s.ev_left = cfg.ev_amount[s.ev_cur]
        return recycled_owned(s, p) < cfg.ev_limit[s.ev_cur] and (losable(s, p) > 0 or pile_size(cfg, s) > 0)
    return False


cdef void ev_visit(const SPConfig* cfg, SPState* s) noexcept nogil:
    """Ask the next player of ``order`` (from ev_pos on) the current event asks something; or finish it."""
    cdef int kind = cfg.ev_kind[s.ev_cur], p
    while s.ev_pos < s.ev_n:
        p = s.order[s.ev_pos]
        if visit_ok(cfg, s, p):
            s.cur = <uint8_t>p
            if kind == EV_QUIZ_TAKE or kind == EV_COLLECT or kind == EV_NEW_MINES:
                s.phase = PH_EV_PICK
            else:
                s.phase = PH_EV_DISCARD
            return
        s.ev_pos += 1
    finish_event(cfg, s)


cdef void ev_next_player(const SPConfig* cfg, SPState* s) noexcept nogil:
    s.ev_pos += 1
    ev_visit(cfg, s)


cdef inline int pollu_plus_owned(const SPState* s, int p) noexcept nogil:
    return hand_sup(s, p, 0) + laid_sup(s, p, 0)


cdef int best_by(const SPConfig* cfg, const SPState* s, bint by_recycled, int skip) noexcept nogil:
    """Event 10: the seat (other than ``skip``) with the most recycled cards (or PolluPlus cards), ties by the *
    order; -1 when the most is 0."""
    cdef int p, v, best = -1, bv = 0
    for p in range(cfg.n):
        if p == skip:
            continue
        v = recycled_owned(s, p) if by_recycled else pollu_plus_owned(s, p)
        if v > bv or (v == bv and v > 0 and star_before(cfg, s, p, best)):
            best = p
            bv = v
    return best


cdef void start_event(const SPConfig* cfg, SPState* s) noexcept nogil:
    cdef int kind = cfg.ev_kind[s.ev_cur], p, q, champ, target, t
    cdef int w[MAX_P]
    cdef bint any
    if cfg.ev_star[s.ev_cur] or kind == EV_DUEL:
        draw_quiz(cfg, s)
    s.ev_pos = 0
    if kind == EV_QUIZ_TAKE:
        # the closest answer takes (card 1): the quiz's draw, rank 0 first; the * order would only break ties
        # between equally close answers, and the drawn ranking has none
        for p in range(cfg.n):
            s.order[s.quiz[p]] = <uint8_t>p
        s.ev_n = 1
        ev_visit(cfg, s)
    elif kind == EV_COLLECT or kind == EV_DISCARD_SUPPLIER or kind == EV_HOARDING or kind == EV_RECYCLING_TAX:
        clockwise_order(cfg, s, s.first)
        ev_visit(cfg, s)
    elif kind == EV_NEW_MINES:
        star_sort(cfg, s, True)
        ev_visit(cfg, s)
    elif kind == EV_TRADING:
        s.flags |= FL_TRADING
        finish_event(cfg, s)
    elif kind == EV_PENALTY:
        s.penalty = cfg.ev_amount[s.ev_cur]
        finish_event(cfg, s)
    elif kind == EV_DOUBLE:
        s.mult = cfg.ev_amount[s.ev_cur]
        finish_event(cfg, s)
    elif kind == EV_NO_DEPOLLUTION:
        s.flags |= FL_NODEP
        finish_event(cfg, s)
    elif kind == EV_NEIGHBOUR_TAX:
        for p in range(cfg.n):
            w[p] = malus_weight(cfg, s, p)
        for q in range(cfg.n):
            p = (s.first + q) % cfg.n
            t = (p + 1) % cfg.n
            if w[t] > w[p]:
                steal_random(s, p, t)
        finish_event(cfg, s)
    elif kind == EV_DUEL:
        champ = best_by(cfg, s, True, -1)
        target = best_by(cfg, s, False, -1)
        if champ >= 0 and target == champ:
            # the champion cannot tax themself: when another player has as many PolluPlus cards, that one is the
            # target (the * order, which favours the champion's recycled cards, would always name the champion)
            q = best_by(cfg, s, False, champ)
            if q >= 0 and pollu_plus_owned(s, q) == pollu_plus_owned(s, champ):
                target = q
        any = False
        if champ >= 0 and target >= 0 and champ != target:
            if losable(s, target) > 0:
                any = True
            for t in range(cfg.nmalus):
                if s.malus[champ][t]:
                    any = True
        if any:
            s.order[0] = <uint8_t>champ
            s.order[1] = <uint8_t>target
            s.ev_n = 2
            s.offer_to = <uint8_t>target
            s.cur = <uint8_t>champ
            s.phase = PH_EV_TAX
        else:
            finish_event(cfg, s)
    elif kind == EV_END:
        game_over(s, END_EVENT)
    else:
        finish_event(cfg, s)


cdef void round_end(const SPConfig* cfg, SPState* s) noexcept nogil:
    s.flags &= ~FL_NODEP
    if s.end_trig:
        game_over(s, s.end_reason)
        return
    if s.ev_next >= cfg.nev:
        game_over(s, END_EVENTS_OUT)
        return
    s.ev_cur = s.ev_next
    s.ev_next += 1
    start_event(cfg, s)


cdef void end_turn(const SPConfig* cfg, SPState* s) noexcept nogil:
    cdef int p = turn_player(cfg, s)
    refill(cfg, s)
    s.block[p] = (s.block[p] >> 4) & 7
    s.offered = 0
    s.dep_n = 0
    s.picks_left = 0
    s.malus_left = 0
    s.pick_sup = 0
    s.lose_type = 0
    s.turns += 1
    if s.end_trig and not cfg.finish_round:
        game_over(s, s.end_reason)
        return
    if s.turns >= cfg.n:
        round_end(cfg, s)
        return
    s.cur = <uint8_t>turn_player(cfg, s)
    s.phase = PH_MAIN


cdef void continue_malus(const SPConfig* cfg, SPState* s) noexcept nogil:
    """Draw the supply's malus cards one by one (a harsh 'lose' stops to ask), then end the turn."""
    cdef int t, p = s.cur, i
    while s.malus_left > 0 and pile_size(cfg, s) > 0:
        t = draw_malus(cfg, s)
        s.malus[p][t] += 1
        s.malus_left -= 1
        if cfg.harsh:
            if cfg.mfx[t] == MX_WIPE:
                for i in range(cfg.vis[cfg.marg[t]]):
                    if s.market[cfg.marg[t]][i] != NO_CARD:
                        s.out[cfg.marg[t] * NT + s.market[cfg.marg[t]][i]] += 1
                        s.market[cfg.marg[t]][i] = NO_CARD
            elif cfg.mfx[t] == MX_BLOCK:
                s.block[p] |= <uint8_t>(1 << (4 + cfg.marg[t]))
            elif cfg.mfx[t] == MX_LOSE:
                s.lose_type = cfg.marg[t]
                s.phase = PH_LOSE
                return
    s.malus_left = 0
    if pile_size(cfg, s) == 0:
        trigger_end(s, END_PILE)
    end_turn(cfg, s)


cdef void finish_picks(const SPConfig* cfg, SPState* s) noexcept nogil:
    s.picks_left = 0
    s.malus_left = <uint8_t>(cfg.mtake[s.pick_sup] * s.mult)
    continue_malus(cfg, s)


cdef void after_pick(const SPConfig* cfg, SPState* s) noexcept nogil:
    s.picks_left -= 1
    if s.picks_left == 0 or (slots_filled(s, s.pick_sup) == 0 and deck_left(s, s.pick_sup) == 0):
        finish_picks(cfg, s)
    else:
        s.phase = PH_PICK


cdef inline int slot_of(const SPConfig* cfg, int a, int* sup) noexcept nogil:
    sup[0] = cfg.take_sup[a - cfg.a_take]
    return cfg.take_slot[a - cfg.a_take]


cdef void do_trade(const SPConfig* cfg, SPState* s) noexcept nogil:
    cdef int p = turn_player(cfg, s), q = s.offer_to, i, code
    for i in range(s.offer_give_n):
        code = s.offer_give[i]
        if code >= ITEM_MALUS:
            s.malus[p][code - ITEM_MALUS] -= 1
            s.malus[q][code - ITEM_MALUS] += 1
        else:
            remove_card(s, p, code, 1)
            gain_known(s, q, code)
    for i in range(s.offer_ask_n):
        remove_card(s, q, s.offer_ask[i], 1)
        gain_known(s, p, s.offer_ask[i])


cdef void clear_offer(SPState* s) noexcept nogil:
    s.offer_give[0] = s.offer_give[1] = 0
    s.offer_ask[0] = s.offer_ask[1] = 0
    s.offer_give_n = s.offer_ask_n = 0
    s.offer_to = 0


ctypedef void (*step_fn)(const SPConfig* cfg, SPState* s, int a) noexcept nogil


cdef inline void build(const SPConfig* cfg, SPState* s, int p, int o) noexcept nogil:
    """p builds option o: its cards leave the hand for the board (``remove_card``'s rule and laid, every kind at
    once), then the turn ends."""
    cdef int t
    cdef const uint8_t* opt = cfg.opt[o]
    sp_lay_cards(s.hand[p], s.known[p], s.laid[p], opt)
    for t in range(NT):
        s.upper[p][t] -= opt[t] + opt[NT + t]
    s.built[p] |= <uint8_t>(1 << cfg.opt_comp[o])
    if s.built[p] == cfg.all_built:
        trigger_end(s, END_SMARTPHONE)
    end_turn(cfg, s)


cdef void build_known(const SPConfig* cfg, SPState* s, int p, int o) noexcept nogil:
    """``build`` when some seat knows privately of p's hand (after a steal): each seat's bound drops with the
    cards laid, as the public one does (each seat's row at once; p's own row is 0 and stays so)."""
    cdef int q
    for q in range(MAX_P):
        sp_lay_private(s.private_known[q][p], s.known[p], cfg.opt[o])
    refresh_private_of(s, p)
    build(cfg, s, p, o)


# step_main calls build_known through this pointer, as its last call: never inlined there, so that its loop does
# not make step_main save registers for every other action (a frame measured at 6 instructions a call of step_main)
ctypedef void (*build_fn)(const SPConfig* cfg, SPState* s, int p, int o) noexcept nogil
cdef build_fn BUILD_KNOWN = build_known


cdef void step_main(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    cdef int p = s.cur, t, o
    if a < cfg.a_build:                                         # supply
        s.pick_sup = <uint8_t>(a - cfg.a_supply)
        s.picks_left = cfg.take[s.pick_sup]
        s.phase = PH_PICK
    elif a < cfg.a_depollute:                                   # build
        o = a - cfg.a_build
        if s.private_of & (1 << p):                             # (after a steal only: well predicted)
            BUILD_KNOWN(cfg, s, p, o)
            return
        build(cfg, s, p, o)
    elif a < cfg.a_stop:                                        # depollute
        t = a - cfg.a_depollute
        s.malus[p][t] -= 1
        s.mout[t] += 1
        s.dep_n = 1
        if malus_held(s, p) & cfg.dep_ok:                     # a second one to choose, or stop
            s.phase = PH_DEPOLLUTE
            return
        end_turn(cfg, s)
    elif a == cfg.a_pass:
        end_turn(cfg, s)
    else:                                                       # offer
        clear_offer(s)
        s.offer_to = <uint8_t>(a - cfg.a_offer)
        s.offered = 1
        s.phase = PH_OFFER


cdef void step_pick(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    cdef int p = s.cur, sup, i, t
    if a >= cfg.a_draw:
        t = draw_type(s, s.pick_sup)
        s.hand[p][s.pick_sup * NT + t] += 1
        if s.pick_sup != SUP_RECYCLING:
            gain_unseen(s, p)
    else:
        i = slot_of(cfg, a, &sup)
        gain_known(s, p, sup * NT + s.market[sup][i])
        s.market[sup][i] = NO_CARD
    after_pick(cfg, s)


cdef void step_lose(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    cdef int p = s.cur, k
    if a != cfg.a_done:
        k = a - cfg.a_discard
        remove_card(s, p, k, 1)
        s.out[k] += 1
    else:                                   # offered only to a hand with no non-recycled card of the type
        upper_none(s, p, s.lose_type)
    s.lose_type = 0
    s.phase = PH_PICK           # placeholder while drawing (continue_malus sets the next phase)
    continue_malus(cfg, s)


cdef void step_depollute(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    cdef int p = s.cur, t
    if a != cfg.a_stop:
        t = a - cfg.a_depollute
        s.malus[p][t] -= 1
        s.mout[t] += 1
        s.dep_n = 2
    end_turn(cfg, s)


cdef void step_offer(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    cdef int p = s.cur, i, k
    if a == cfg.a_cancel:
        clear_offer(s)
        s.phase = PH_MAIN
    elif a == cfg.a_send:
        s.cur = s.offer_to
        s.phase = PH_ANSWER
    elif a >= cfg.a_ask:
        s.offer_ask[s.offer_ask_n] = <uint8_t>(a - cfg.a_ask)
        s.offer_ask_n += 1
    elif a >= cfg.a_give:
        k = a - cfg.a_give
        s.offer_give[s.offer_give_n] = <uint8_t>k
        s.offer_give_n += 1
        i = item_count(s.offer_give, s.offer_give_n, k)
        if s.known[p][k] < i:                     # offering a card shows it is in the hand
            if s.private_of & (1 << p):
                SHOW_KNOWN(s, p, k, i)            # (the last call: no frame for step_offer's other actions)
                return
            s.known[p][k] = <uint8_t>i
    else:
        s.offer_give[s.offer_give_n] = <uint8_t>(ITEM_MALUS + a - cfg.a_give_malus)
        s.offer_give_n += 1


cdef void step_answer(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    if a == cfg.a_accept:
        do_trade(cfg, s)
    clear_offer(s)
    s.cur = <uint8_t>turn_player(cfg, s)
    s.phase = PH_MAIN


cdef void step_ev_pick(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    cdef int p = s.cur, sup, i, k
    if a == cfg.a_decline:
        ev_next_player(cfg, s)
        return
    i = slot_of(cfg, a, &sup)
    gain_known(s, p, sup * NT + s.market[sup][i])
    s.market[sup][i] = NO_CARD
    if cfg.ev_kind[s.ev_cur] == EV_NEW_MINES:
        for k in range(cfg.ev_amount[s.ev_cur]):
            if pile_size(cfg, s) > 0:
                s.mout[draw_malus(cfg, s)] += 1
        ev_next_player(cfg, s)
        return
    s.ev_left -= 1
    if s.ev_left > 0 and ev_pick_count(cfg, s) > 0:
        return
    ev_next_player(cfg, s)


cdef void step_ev_discard(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    cdef int p = s.cur, k
    if a == cfg.a_done:                     # event 9 only: nothing over the limit is left
        upper_cap(s, p, cfg.ev_limit[s.ev_cur])
        ev_next_player(cfg, s)
        return
    if a == cfg.a_take_malus:
        s.malus[p][draw_malus(cfg, s)] += 1
        ev_next_player(cfg, s)
        return
    k = a - cfg.a_discard
    remove_card(s, p, k, 1)
    s.out[k] += 1
    if cfg.ev_kind[s.ev_cur] == EV_HOARDING:
        return                                                  # until nothing is over the limit: done
    s.ev_left -= 1
    if s.ev_left == 0:
        ev_next_player(cfg, s)
    elif cfg.ev_kind[s.ev_cur] == EV_RECYCLING_TAX and losable(s, p) == 0:
        ev_next_player(cfg, s)
    elif cfg.ev_kind[s.ev_cur] == EV_DISCARD_SUPPLIER and hand_sup(s, p, cfg.ev_sup[s.ev_cur]) == 0:
        ev_next_player(cfg, s)


cdef void step_ev_tax(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    cdef int p = s.cur, t
    if a == cfg.a_tax_take:
        steal_random(s, p, s.offer_to)
    else:
        t = a - cfg.a_give_malus
        s.malus[p][t] -= 1
        s.malus[s.offer_to][t] += 1
    s.offer_to = 0
    finish_event(cfg, s)


cdef void step_vote(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    if a == cfg.a_vote_no:
        s.ev_pos = 0
        s.ev_n = 0
        new_round(cfg, s)
        return
    s.ev_pos += 1
    if s.ev_pos < s.ev_n:
        s.cur = s.order[s.ev_pos]
        return
    do_refresh(cfg, s, s.cur if cfg.refresh_mode == RF_FIRST else -1)
    s.ev_pos = 0
    s.ev_n = 0
    after_refresh(cfg, s)


cdef void step_over(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    pass


# one function per phase, called through this table (as MASK_FNS)
cdef step_fn STEP_FNS[NUM_PHASES]
STEP_FNS[PH_MAIN] = step_main
STEP_FNS[PH_PICK] = step_pick
STEP_FNS[PH_LOSE] = step_lose
STEP_FNS[PH_DEPOLLUTE] = step_depollute
STEP_FNS[PH_OFFER] = step_offer
STEP_FNS[PH_ANSWER] = step_answer
STEP_FNS[PH_EV_PICK] = step_ev_pick
STEP_FNS[PH_EV_DISCARD] = step_ev_discard
STEP_FNS[PH_EV_TAX] = step_ev_tax
STEP_FNS[PH_VOTE] = step_vote
STEP_FNS[PH_OVER] = step_over


cdef inline void step(const SPConfig* cfg, SPState* s, int a) noexcept nogil:
    STEP_FNS[s.phase](cfg, s, a)


# -- set-up -----------------------------------------------------------------------------------------------------

cdef void sp_init(const void* c, void* st, uint64_t seed) noexcept nogil:
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef SPState* s = <SPState*>st
    cdef int k, sup, i
    memset(s, 0, sizeof(SPState))
    s.rng = rng_seed(seed)
    for k in range(NK):
        s.deck[k] = cfg.deck0[k]
    for k in range(cfg.nmalus):
        s.pile[k] = cfg.pile0[k]
    for sup in range(NS):
        for i in range(MAX_VIS):
            s.market[sup][i] = NO_CARD
    refill(cfg, s)
    s.mult = 1
    s.ev_cur = NO_CARD
    s.first = 0
    s.cur = 0
    s.phase = PH_MAIN


# -- the engine contract ----------------------------------------------------------------------------------------

cdef uint32_t sp_actors(const void* c, const void* st) noexcept nogil:
    cdef const SPState* s = <const SPState*>st
    if s.phase == PH_OVER:
        return 0
    return (<uint32_t>1) << s.cur


cdef void sp_apply(const void* c, void* st, int seat, int action) noexcept nogil:
    step(<const SPConfig*>c, <SPState*>st, action)


cdef void sp_scores(const void* c, const void* st, int32_t* out) noexcept nogil:
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef int p
    for p in range(cfg.n):
        out[p] = seat_score(cfg, <const SPState*>st, p)


cdef void sp_rank_keys(const void* c, const void* st, int64_t* out) noexcept nogil:
    """Score, then most recycled cards laid, then fewest PolluPlus cards laid, then fewest PolluMoins laid."""
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef const SPState* s = <const SPState*>st
    cdef int p
    for p in range(cfg.n):
        out[p] = ((<int64_t>(seat_score(cfg, s, p) + 100000) << 30)
                  | (<int64_t>laid_sup(s, p, SUP_RECYCLING) << 20)
                  | (<int64_t>(1023 - laid_sup(s, p, 0)) << 10)
                  | <int64_t>(1023 - laid_sup(s, p, 1)))


cdef inline uint64_t sp_actor_mask(const void* c, const void* st, int seat, uint64_t* words) noexcept nogil:
    # sp_legal_mask for the seat to act (the playout loop asks only for it) into the loop's MAX_MASK_WORDS words,
    # and the set of the words it wrote (the only ones the loop scans)
    cdef const SPConfig* cfg = <const SPConfig*>c
    zero_words(words, cfg.mask_words)
    return actor_mask(cfg, <const SPState*>st, seat, words)


cdef int64_t sp_playout(const void* c, void* st, uint64_t* rng, int64_t max_len) noexcept nogil:
    cdef int mask_words = (<const SPConfig*>c).mask_words
    if mask_words <= 64:                                        # the kernel's word-set loop (sets of 64 words)
        return random_playout_loop_words(sp_actors, sp_actor_mask, sp_apply, mask_words, c, st, rng, max_len)
    return random_playout_loop(sp_actors, sp_legal_mask, sp_apply, mask_words, c, st, rng, max_len)


cdef bint private_invalid(const SPConfig* cfg, const SPState* s) noexcept nogil:
    """Whether the seats' private knowledge is one no play makes: every seat's bound within the hand (known <=
    known + private_known[o] <= hand, no byte overflowing), none of a seat's own hand nor between absent seats,
    none before a stealing event (7 or 10) was drawn, and ``private_of``
    naming exactly the hands some seat knows privately."""
    cdef int o, h, k, e, v
    cdef uint32_t seen = 0
    cdef uint64_t w, acc = 0
    cdef const uint8_t* b = &s.private_known[0][0][0]
    if s.private_of == 0:                                       # the usual case: all 250 bytes zero, by words
        for k in range(0, MAX_P * MAX_P * NK_LOSABLE - 7, 8):
            memcpy(&w, b + k, 8)
            acc |= w
        for k in range(MAX_P * MAX_P * NK_LOSABLE & ~7, MAX_P * MAX_P * NK_LOSABLE):
            acc |= b[k]
        return acc != 0
    for o in range(MAX_P):
        for h in range(MAX_P):
            for k in range(NK_LOSABLE):
                v = s.private_known[o][h][k]
                if v == 0:
                    continue
                if o >= cfg.n or h >= cfg.n or o == h or s.known[h][k] + v > s.hand[h][k]:
                    return True
                seen |= (<uint32_t>1) << h
    if seen != s.private_of:
        return True
    for e in range(s.ev_next):
        if cfg.ev_kind[e] == EV_NEIGHBOUR_TAX or cfg.ev_kind[e] == EV_DUEL:
            return False
    return True


cdef bint upper_invalid(const SPConfig* cfg, const SPState* s) noexcept nogil:
    """Whether the upper bounds are ones no play makes: each hand's public bound of a type at least its cards of
    that type (hence at least the public lower bound, ``known`` <= ``hand``, and every seat's; any 16-bit value
    above: a rise saturates at UPPER_MAX, far above any hand); each seat's own bound (``upper -
    private_upper[o]``) at least the hand's cards too; none of a seat's own hand, none of or by an absent seat,
    none private before a stealing event (7 or 10) was drawn; ``pad_end`` 0."""
    cdef int o, h, t, e, held, u, k
    cdef uint64_t w, acc = 0
    cdef const uint8_t* b = &s.private_upper[0][0][0]
    if s.pad_end:
        return True
    for h in range(MAX_P):
        for t in range(NT):
            u = s.upper[h][t]
            if h >= cfg.n:
                if u:
                    return True
            elif u < s.hand[h][t] + s.hand[h][NT + t]:
                return True
    for k in range(0, MAX_P * MAX_P * NT - 7, 8):               # the usual case: no private bound, by words
        memcpy(&w, b + k, 8)
        acc |= w
    for k in range(MAX_P * MAX_P * NT & ~7, MAX_P * MAX_P * NT):
        acc |= b[k]
    if acc == 0:
        return False
    for o in range(MAX_P):
        for h in range(MAX_P):
            for t in range(NT):
                if s.private_upper[o][h][t]:
                    if o >= cfg.n or h >= cfg.n or o == h or \
                            s.private_upper[o][h][t] > s.upper[h][t] - s.hand[h][t] - s.hand[h][NT + t]:
                        return True
    for e in range(s.ev_next):
        if cfg.ev_kind[e] == EV_NEIGHBOUR_TAX or cfg.ev_kind[e] == EV_DUEL:
            return False
    return True


cdef int sp_validate(const void* c, const void* st) noexcept nogil:
    """0 when every invariant the engine relies on holds, else the number of the first broken one."""
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef const SPState* s = <const SPState*>st
    cdef int n = cfg.n, p, k, t, sup, i, total, kind
    cdef int cnt[NK]
    cdef int ontop[MAX_MALUS]
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef bint any
    if s.phase >= NUM_PHASES or s.cur >= n or s.first >= n or s.turns > n or s.round > cfg.nev:
        return 1
    if s.ev_next > cfg.nev or (s.ev_cur != NO_CARD and s.ev_cur + 1 != s.ev_next) or s.ev_n > n or s.ev_pos > n:
        return 1
    # one event is drawn at the end of each round: during the players' turns as many events as rounds completed
    # are out, while the round's event (and the market refresh after it) resolves one more
    if s.phase == PH_OVER:
        if s.ev_next != s.round and s.ev_next != s.round + 1:
            return 1
    elif s.phase in (PH_EV_PICK, PH_EV_DISCARD, PH_EV_TAX, PH_VOTE):
        if s.ev_next != s.round + 1:
            return 1
    elif s.ev_next != s.round:
        return 1
    if s.end_trig > 1 or s.end_reason > END_EVENTS_OUT or s.refreshed > 1 or s.offered > 1:
        return 1
    # an end's reason is set when it is triggered, or when the game ends at once (then it is over)
    if (s.end_reason == END_NONE) != (s.end_trig == 0) if s.phase != PH_OVER else s.end_reason == END_NONE:
        return 1
    if (s.flags & ~(FL_TRADING | FL_NODEP)) or s.mult < 1 or s.mult > 9 or s.penalty > 9 or s.top_next > cfg.ntop:
        return 1
    if s.pick_sup >= NS or s.picks_left > 4 or s.malus_left > 36 or s.lose_type >= NT or s.dep_n > 2:
        return 1
    if s.offer_to >= n or s.offer_give_n > 2 or s.offer_ask_n > 2:
        return 1
    for p in range(MAX_P):
        if p >= n:
            for k in range(NK):
                if s.hand[p][k] or s.known[p][k] or s.laid[p][k]:
                    return 2
            for t in range(MAX_MALUS):
                if s.malus[p][t]:
                    return 2
            if s.built[p] or s.block[p] or s.quiz[p] or s.order[p]:
                return 2
        else:
            if s.built[p] & ~cfg.all_built or (s.block[p] & 0x88) or s.quiz[p] >= n or s.order[p] >= n:
                return 2
            for k in range(NK):
                if s.known[p][k] > s.hand[p][k]:
                    return 2
    if private_invalid(cfg, s) or upper_invalid(cfg, s):
        return 2
    # resources: each card in one place
    for k in range(NK):
        cnt[k] = s.deck[k] + s.out[k]
        for p in range(n):
            cnt[k] += s.hand[p][k] + s.laid[p][k]
    for sup in range(NS):
        for i in range(MAX_VIS):
            t = s.market[sup][i]
            if i >= cfg.vis[sup]:
                if t != NO_CARD:
                    return 3
            elif t != NO_CARD:
                if t >= NT:
                    return 3
                cnt[sup * NT + t] += 1
    for k in range(NK):
        if cnt[k] != cfg.deck0[k]:
            return 3
    # laid cards are exactly the built components' recipes by type
    for p in range(n):
        for t in range(NT):
            total = 0
            for i in range(cfg.ncomp):
                if (s.built[p] >> i) & 1:
                    total += cfg.recipe[i][t]
            if s.laid[p][t] + s.laid[p][NT + t] + s.laid[p][2 * NT + t] != total:
                return 4
    # malus cards: each in one place
    memset(ontop, 0, sizeof(ontop))
    for i in range(s.top_next, cfg.ntop):
        ontop[cfg.top[i]] += 1                                  # top[i] < nmalus (make_core checks)
    for t in range(MAX_MALUS):
        if t >= cfg.nmalus:                                     # no such card: zero everywhere (the move
            if s.pile[t] or s.mout[t]:                          # generation reads the 24 counts as words)
                return 5
            for p in range(n):
                if s.malus[p][t]:
                    return 5
            continue
        total = s.pile[t] + s.mout[t]
        for p in range(n):
            total += s.malus[p][t]
        total += ontop[t]
        if total != cfg.mtotal[t] or s.pile[t] > cfg.pile0[t]:
            return 5
    # unused context is zero outside its phase
    if s.phase != PH_OFFER and s.phase != PH_ANSWER and (s.offer_give_n or s.offer_ask_n):
        return 6
    for i in range(2):
        if (i >= s.offer_give_n and s.offer_give[i]) or (i >= s.offer_ask_n and s.offer_ask[i]):
            return 6
        if i < s.offer_give_n:
            t = s.offer_give[i]
            if t >= ITEM_MALUS:
                if t - ITEM_MALUS >= cfg.nmalus:
                    return 6
            elif t >= NK_LOSABLE:
                return 6
        if i < s.offer_ask_n and s.offer_ask[i] >= NK_LOSABLE:
            return 6
    if s.offer_give_n or s.offer_ask_n:
        p = turn_player(cfg, s)
        for i in range(s.offer_give_n):
            t = s.offer_give[i]
            if t >= ITEM_MALUS:
                if s.malus[p][t - ITEM_MALUS] < item_count(s.offer_give, s.offer_give_n, t):
                    return 6
            elif s.known[p][t] < item_count(s.offer_give, s.offer_give_n, t):
                return 6        # offering a card shows it (known <= hand, checked above): a re-deal keeps it
    if s.phase == PH_OVER:
        if s.cur or s.ev_cur != NO_CARD:
            return 7
        return 0
    if s.end_trig and not cfg.finish_round:
        return 7
    if s.end_trig and s.phase != PH_MAIN and s.phase != PH_PICK and s.phase != PH_LOSE and s.phase != PH_DEPOLLUTE \
            and s.phase != PH_OFFER and s.phase != PH_ANSWER:
        return 7
    # the trade offer's context exists only while an offer is composed or answered (clear_offer empties it);
    # offer_to also names event 10's target
    if s.phase != PH_OFFER and s.phase != PH_ANSWER:
        if s.offer_give_n or s.offer_ask_n:
            return 8
        if s.phase != PH_EV_TAX and s.offer_to:
            return 8
    for i in range(2):
        if (i >= s.offer_give_n and s.offer_give[i]) or (i >= s.offer_ask_n and s.offer_ask[i]):
            return 8
    if s.phase <= PH_ANSWER:                                    # inside a turn
        if s.ev_cur != NO_CARD or s.ev_n or s.ev_pos or s.ev_left or s.turns >= n:
            return 8
        if s.phase == PH_ANSWER:
            if s.cur != s.offer_to or s.offer_to == turn_player(cfg, s) or not s.offered:
                return 8
            if s.offer_give_n < 1 or s.offer_ask_n < 1:
                return 8
        elif s.cur != turn_player(cfg, s):
            return 8
        if s.phase == PH_OFFER and (not s.offered or s.offer_to == s.cur or not (s.flags & FL_TRADING)):
            return 8
        if s.phase == PH_MAIN and (s.offer_to or s.picks_left or s.malus_left or s.dep_n):
            return 8
        if s.phase == PH_PICK and (s.picks_left == 0 or s.malus_left):
            return 8
        if s.phase == PH_PICK and visible_count(cfg, s, s.pick_sup) == 0 and deck_size(s, s.pick_sup) == 0:
            return 8
        if s.phase == PH_LOSE and not cfg.harsh:
            return 8
        if s.phase == PH_DEPOLLUTE and s.dep_n != 1:
            return 8
        if s.phase != PH_PICK and s.phase != PH_LOSE and (s.picks_left or s.malus_left):
            return 8
        if s.phase != PH_DEPOLLUTE and s.dep_n:
            return 8
    else:
        if s.picks_left or s.malus_left or s.dep_n or s.offered or s.turns != n:
            return 9
        if s.phase == PH_VOTE:
            if s.ev_cur != NO_CARD or cfg.refresh_mode == RF_AUTO or cfg.refresh_mode == RF_OFF or s.refreshed:
                return 9
            if s.ev_n < 1 or s.ev_pos >= s.ev_n or s.cur != s.order[s.ev_pos]:
                return 9
            if (cfg.refresh_mode == RF_FIRST and s.ev_n != 1) or (cfg.refresh_mode == RF_VOTE and s.ev_n != n):
                return 9
            if pile_size(cfg, s) < cfg.refresh_cost or s.offer_to:
                return 9
        else:
            if s.ev_cur == NO_CARD or s.ev_pos >= s.ev_n or s.cur != s.order[s.ev_pos]:
                return 9
            kind = cfg.ev_kind[s.ev_cur]
            if s.phase == PH_EV_PICK and kind != EV_QUIZ_TAKE and kind != EV_COLLECT and kind != EV_NEW_MINES:
                return 10
            if s.phase == PH_EV_DISCARD and kind != EV_DISCARD_SUPPLIER and kind != EV_HOARDING \
                    and kind != EV_RECYCLING_TAX:
                return 10
            if s.phase == PH_EV_TAX and (kind != EV_DUEL or s.ev_n != 2 or s.offer_to == s.cur
                                          or s.order[1] != s.offer_to):
                return 10
            if s.phase != PH_EV_TAX and s.offer_to:
                return 10
            if s.phase == PH_EV_PICK and (s.ev_left < 1 or s.ev_left > cfg.ev_amount[s.ev_cur] + 1):
                return 10
            if s.phase == PH_EV_DISCARD and kind != EV_HOARDING and (s.ev_left < 1 or s.ev_left > 9):
                return 10
            if s.phase == PH_EV_DISCARD and kind == EV_RECYCLING_TAX and s.ev_left > cfg.ev_amount[s.ev_cur]:
                return 10
            if s.phase == PH_EV_DISCARD and kind == EV_HOARDING and s.ev_left:
                return 10
    # the seat to act has something to do
    sp_legal_mask(cfg, s, s.cur, words)
    for i in range(cfg.mask_words):
        if words[i]:
            return 0
    return 11


# -- building a config ------------------------------------------------------------------------------------------

cdef EngineSpec SPEC
SPEC.state_size = sizeof(SPState)
SPEC.init = sp_init
SPEC.actors = sp_actors
SPEC.legal_mask = sp_legal_mask
SPEC.apply = sp_apply
SPEC.scores = sp_scores
SPEC.rank_keys = sp_rank_keys
SPEC.validate = sp_validate
SPEC.playout = sp_playout


STATE_SIZE = sizeof(SPState)
PHASE_NAMES = ("main", "pick", "lose", "depollute", "offer", "answer", "event_pick", "event_discard",
               "event_tax", "vote", "over")
END_REASONS = (None, "smartphone", "end_event", "malus_pile", "events_exhausted")

_FAMILIES = ("supply", "build", "depollute", "stop", "pass", "take", "draw", "decline", "discard", "take_malus",
             "tax_take", "give_malus", "give", "ask", "offer", "send", "cancel", "accept", "refuse", "vote_yes",
             "vote_no", "done")


def action_layout(int num_opts, int num_malus, tuple vis, int players) -> dict:
    """First id and count of each action family (ids are dense and fixed per content and parameters)."""
    sizes = {"supply": NS, "build": num_opts, "depollute": num_malus, "take": sum(vis), "draw": NS,
             "discard": NK, "give_malus": num_malus, "give": NK_LOSABLE, "ask": NK_LOSABLE, "offer": players}
    out = {}
    base = 0
    for name in _FAMILIES:
        size = sizes.get(name, 1)
        out[name] = (base, size)
        base += size
    out["num_actions"] = base
    return out


def make_core(int players, list recipes, list points, list options, list msets, list decks, tuple vis, tuple take,
              tuple mtake, list malus_fx, list malus_arg, list top, list pile, list events, bint harsh,
              int refresh_mode, bint finish_round, int refresh_threshold, int refresh_cost,
              int bonus) -> GameCore:
    """Compile content and parameters (already validated by the Python layer) into a bound GameCore.

    ``recipes``: 5 counts per component; ``options``: (component, 15 counts per kind) per build option, grouped
    by component in order; ``decks``: 5 counts per supplier; ``malus_fx`` / ``malus_arg``: per malus card;
    ``top``: malus card indices on top, in order; ``pile``: counts per malus card of the shuffled part;
    ``events``: (kind, star, amount, limit, types mask, supplier) in drawing order.
    """
    cdef SPConfig* cfg = <SPConfig*>PyMem_Malloc(sizeof(SPConfig))
    if cfg == NULL:
        raise MemoryError()
    try:
        memset(cfg, 0, sizeof(SPConfig))
        return _fill_config(cfg, players, recipes, points, options, msets, decks, vis, take, mtake, malus_fx, malus_arg,
                            top, pile, events, harsh, refresh_mode, finish_round, refresh_threshold, refresh_cost,
                            bonus)
    finally:
        PyMem_Free(cfg)


cdef uint64_t words_of(int base, int size):
    """The mask words of actions base .. base + size - 1 (bit i for word i, as the word sets are: masks of at
    most 64 words)."""
    cdef uint64_t out = 0
    cdef int i
    for i in range(base >> 6, ((base + size - 1) >> 6) + 1):
        out |= (<uint64_t>1) << (i & 63)
    return out if size > 0 else 0


cdef GameCore _fill_config(SPConfig* cfg, int players, list recipes, list points, list options, list msets,
                           list decks,
                           tuple vis, tuple take, tuple mtake, list malus_fx, list malus_arg, list top, list pile,
                           list events, bint harsh, int refresh_mode, bint finish_round, int refresh_threshold,
                           int refresh_cost, int bonus):
    cdef EngineSpec spec = SPEC
    cdef int c, o, k, t, sup, i, e, total, j, stride, h
    cdef uint8_t vis_bytes[NS * MAX_VIS]
    if not 2 <= players <= MAX_P or not 1 <= len(recipes) <= MAX_COMP or len(recipes) != len(points):
        raise ValueError("bad players or components")
    if not 1 <= len(options) <= MAX_OPTS or not 1 <= len(malus_fx) <= MAX_MALUS or len(malus_arg) != len(malus_fx):
        raise ValueError("bad build options or malus cards")
    if len(top) > MAX_TOP or len(pile) != len(malus_fx) or not 1 <= len(events) <= MAX_EVENTS:
        raise ValueError("bad malus pile or events")
    cfg.n = players
    cfg.seat_bits = (1 << players) - 1
    cfg.ncomp = len(recipes)
    for c in range(cfg.ncomp):
        cfg.points[c] = points[c]
        for t in range(NT):
            cfg.recipe[c][t] = recipes[c][t]
        cfg.all_built |= 1 << c
    cfg.num_opts = len(options)
    c = -1
    for o, (comp, counts) in enumerate(options):
        if not 0 <= comp < cfg.ncomp or comp < c or len(counts) != NK:
            raise ValueError("build options must be grouped by component")
        while c < comp:
            c += 1
            cfg.comp_opt0[c] = o
        cfg.opt_comp[o] = comp
        for k in range(NK):
            cfg.opt[o][k] = counts[k]
        for t in range(NT):
            if counts[t] + counts[NT + t] + counts[2 * NT + t] != recipes[comp][t]:
                raise ValueError("a build option must lay exactly its component's recipe")
    while c < cfg.ncomp:
        c += 1
        cfg.comp_opt0[c] = cfg.num_opts
    if len(msets) != cfg.ncomp:
        raise ValueError("msets: one list per component")
    for c in range(cfg.ncomp):
        if len(msets[c]) > NT:
            raise ValueError("msets: at most 5 types per component")
        cfg.comp_nt[c] = len(msets[c])
        stride = 1
        for i in range(len(msets[c]) - 1, -1, -1):
            t, ways = msets[c][i]
            if not 0 <= t < NT or not 1 <= len(ways) <= MAX_MSETS:
                raise ValueError("msets: bad type or too many ways")
            cfg.comp_t[c][i] = t
            cfg.comp_types[c] |= 1 << t
            cfg.comp_nm[c][i] = len(ways)
            cfg.comp_stride[c][i] = stride
            for j, way in enumerate(ways):
                if len(way) != NS or sum(way) != recipes[c][t] or not 0 <= recipes[c][t] < MAX_FIT:
                    raise ValueError("msets: a way takes the recipe's cards of its type (at most 9)")
                for sup in range(NS):
                    if way[sup] < 0:
                        raise ValueError("msets: a way takes the recipe's cards of its type (at most 9)")
                    cfg.mset[c][i][j][sup] = way[sup]
                    for h in range(way[sup], MAX_FIT):
                        cfg.fit[c][i][sup][h] |= (<uint64_t>1) << j
            stride *= len(ways)
        if stride != cfg.comp_opt0[c + 1] - cfg.comp_opt0[c]:
            raise ValueError("msets: the ways do not multiply to the component's options")
    total = 0
    for sup in range(NS):
        for t in range(NT):
            cfg.deck0[sup * NT + t] = decks[sup][t]
            total += decks[sup][t]
        if not 0 <= vis[sup] <= MAX_VIS or not 1 <= take[sup] <= 4 or not 0 <= mtake[sup] <= 4:
            raise ValueError("bad supplier")
        cfg.vis[sup] = vis[sup]
        cfg.take[sup] = take[sup]
        cfg.mtake[sup] = mtake[sup]
        if mtake[sup]:
            cfg.mtake_sups |= 1 << sup
        for i in range(MAX_VIS):
            vis_bytes[sup * MAX_VIS + i] = 0x80 if i < vis[sup] else 0
    memcpy(&cfg.vis_lo, &vis_bytes[0], 8)                       # the layout of market[0..1], market[2]
    memcpy(&cfg.vis_hi, &vis_bytes[8], 4)
    cfg.total_cards = total
    for c in range(cfg.ncomp):
        for t in range(NT):
            cfg.reach_rec[SP_LEAD(c) + t] = cfg.recipe[c][t]
        cfg.lead_comp[SP_LEAD(c)] = c
    for i in range(1 << MAX_COMP):
        for c in range(MAX_COMP):
            if (i >> c) & 1:
                cfg.lead_of[i] |= (<uint32_t>1) << SP_LEAD(c)
    cfg.nmalus = len(malus_fx)
    for t in range(cfg.nmalus):
        cfg.mfx[t] = malus_fx[t]
        cfg.marg[t] = malus_arg[t]
        cfg.pile0[t] = pile[t]
        cfg.mtotal[t] = pile[t]
        if not (harsh and malus_fx[t] == MX_STICKY):
            cfg.dep_ok |= (<uint32_t>1) << t
    cfg.ntop = len(top)
    for i in range(cfg.ntop):
        if not 0 <= top[i] < cfg.nmalus:
            raise ValueError("bad top malus")
        cfg.top[i] = top[i]
        cfg.mtotal[top[i]] += 1
    if sum(pile) + cfg.ntop < 1 or sum(pile) + cfg.ntop > 250:
        raise ValueError("the malus pile holds 1 to 250 cards")
    cfg.nev = len(events)
    for e, (kind, star, amount, limit, types, esup) in enumerate(events):
        if not 0 <= kind < NUM_EVENT_KINDS or not 0 <= amount <= 9 or not 0 <= limit <= 9 or not 0 <= esup < NS:
            raise ValueError("bad event")
        cfg.ev_kind[e] = kind
        cfg.ev_star[e] = star
        cfg.ev_amount[e] = amount
        cfg.ev_limit[e] = limit
        cfg.ev_types[e] = types
        cfg.ev_sup[e] = esup
    cfg.harsh = harsh
    cfg.refresh_mode = refresh_mode
    cfg.finish_round = finish_round
    cfg.refresh_threshold = refresh_threshold
    cfg.refresh_cost = refresh_cost
    cfg.bonus = bonus
    layout = action_layout(cfg.num_opts, cfg.nmalus, vis, players)
    cfg.a_supply = layout["supply"][0]
    cfg.a_build = layout["build"][0]
    cfg.a_depollute = layout["depollute"][0]
    cfg.a_stop = layout["stop"][0]
    cfg.a_pass = layout["pass"][0]
    cfg.a_take = layout["take"][0]
    i = cfg.a_take
    for sup in range(NS):
        cfg.vis0[sup] = i
        i += vis[sup]
    cfg.a_draw = layout["draw"][0]
    cfg.a_decline = layout["decline"][0]
    cfg.a_discard = layout["discard"][0]
    cfg.a_take_malus = layout["take_malus"][0]
    cfg.a_tax_take = layout["tax_take"][0]
    cfg.a_give_malus = layout["give_malus"][0]
    cfg.a_give = layout["give"][0]
    cfg.a_ask = layout["ask"][0]
    cfg.a_offer = layout["offer"][0]
    cfg.a_send = layout["send"][0]
    cfg.a_cancel = layout["cancel"][0]
    cfg.a_accept = layout["accept"][0]
    cfg.a_refuse = layout["refuse"][0]
    cfg.a_vote_yes = layout["vote_yes"][0]
    cfg.a_vote_no = layout["vote_no"][0]
    cfg.a_done = layout["done"][0]
    cfg.num_actions = layout["num_actions"]
    cfg.mask_words = (cfg.num_actions + 63) >> 6
    # the words each phase's families lie in (what its move generation returns, with the builds' own words)
    cfg.phase_words[PH_MAIN] = (words_of(cfg.a_supply, NS) | words_of(cfg.a_depollute, cfg.nmalus)
                                | words_of(cfg.a_pass, 1) | words_of(cfg.a_offer, players))
    cfg.phase_words[PH_PICK] = words_of(cfg.a_take, sum(vis)) | words_of(cfg.a_draw, NS)
    cfg.phase_words[PH_LOSE] = words_of(cfg.a_discard, NK) | words_of(cfg.a_done, 1)
    cfg.phase_words[PH_DEPOLLUTE] = words_of(cfg.a_depollute, cfg.nmalus) | words_of(cfg.a_stop, 1)
    cfg.phase_words[PH_OFFER] = (words_of(cfg.a_give, NK_LOSABLE) | words_of(cfg.a_give_malus, cfg.nmalus)
                                 | words_of(cfg.a_ask, NK_LOSABLE) | words_of(cfg.a_send, 1)
                                 | words_of(cfg.a_cancel, 1))
    cfg.phase_words[PH_ANSWER] = words_of(cfg.a_accept, 1) | words_of(cfg.a_refuse, 1)
    cfg.phase_words[PH_EV_PICK] = words_of(cfg.a_take, sum(vis)) | words_of(cfg.a_decline, 1)
    cfg.phase_words[PH_EV_DISCARD] = (words_of(cfg.a_discard, NK) | words_of(cfg.a_done, 1)
                                      | words_of(cfg.a_take_malus, 1))
    cfg.phase_words[PH_EV_TAX] = words_of(cfg.a_tax_take, 1) | words_of(cfg.a_give_malus, cfg.nmalus)
    cfg.phase_words[PH_VOTE] = words_of(cfg.a_vote_yes, 1) | words_of(cfg.a_vote_no, 1)
    cfg.phase_words[PH_OVER] = 0
    # the frequent phases write their fixed families as one field each (offsets from its first action; < 64)
    cfg.o_pass = cfg.a_pass - cfg.a_depollute
    for sup in range(NS):
        cfg.o_take[sup] = cfg.vis0[sup] - cfg.a_take
    cfg.o_draw = cfg.a_draw - cfg.a_take
    cfg.o_give = cfg.a_give - cfg.a_give_malus
    cfg.o_ask = cfg.a_ask - cfg.a_give_malus
    cfg.f_ask = (<uint64_t>0x3FFu) << (cfg.a_ask - cfg.a_give_malus)
    cfg.f_send = (<uint64_t>1) << (cfg.a_send - cfg.a_give_malus)
    cfg.f_cancel = (<uint64_t>1) << (cfg.a_cancel - cfg.a_give_malus)
    if (cfg.a_pass - cfg.a_depollute > 63 or cfg.a_draw + NS - 1 - cfg.a_take > 63
            or cfg.a_cancel - cfg.a_give_malus > 63 or cfg.a_give + NK_LOSABLE > cfg.a_ask
            or cfg.a_stop + 1 != cfg.a_pass):
        raise ValueError("action layout: a phase's families do not fit one 64-bit field")
    i = 0
    for sup in range(NS):
        for j in range(vis[sup]):
            cfg.take_sup[i] = sup
            cfg.take_slot[i] = j
            i += 1
    spec.num_actions = cfg.num_actions
    spec.num_seats = players
    # EngineSpec.legal_mask_words (the kernel serves sets of at most 64 words, as the playout's word-set loop):
    # legal_actions() then lists only the words the move generation wrote, one to three of the 15 of the base
    # game's mask, instead of scanning them all
    if cfg.mask_words <= 64:
        spec.legal_mask_words = sp_actor_mask
    core = GameCore()
    from robotcore.games.smartphone.view import NATIVE_HOOKS    # view.pyx cimports this module: read at make time
    take_native_hooks(&spec, NATIVE_HOOKS)
    core.bind(&spec, cfg, sizeof(SPConfig))
    return core


# -- raw access for tests and tools (in-process only: this is the omniscient struct) ----------------------------

_SCALARS = ("phase", "cur", "first", "round", "turns", "ev_next", "ev_cur", "ev_pos", "ev_n", "ev_left", "pick_sup",
            "picks_left", "malus_left", "lose_type", "dep_n", "top_next", "offer_to", "offer_give_n", "offer_ask_n",
            "offered", "flags", "penalty", "mult", "end_trig", "refreshed", "end_reason", "private_of", "pad_end")


def unpack_state(const uint8_t[::1] raw) -> dict:
    """Every field of the struct as Python values (arrays as lists)."""
    cdef SPState s
    cdef int p, k
    if raw.shape[0] != sizeof(SPState):
        raise ValueError(f"a Smartphone state is {sizeof(SPState)} bytes")
    memcpy(&s, &raw[0], sizeof(SPState))
    d = {
        "rng": s.rng,
        "hand": [[s.hand[p][k] for k in range(NK)] for p in range(MAX_P)],
        "known": [[s.known[p][k] for k in range(NK)] for p in range(MAX_P)],
        "private_known": [[[s.private_known[o][p][k] for k in range(NK_LOSABLE)] for p in range(MAX_P)]
                          for o in range(MAX_P)],
        "laid": [[s.laid[p][k] for k in range(NK)] for p in range(MAX_P)],
        "malus": [[s.malus[p][k] for k in range(MAX_MALUS)] for p in range(MAX_P)],
        "pile": [s.pile[k] for k in range(MAX_MALUS)],
        "mout": [s.mout[k] for k in range(MAX_MALUS)],
        "out": [s.out[k] for k in range(NK)],
        "deck": [s.deck[k] for k in range(NK)],
        "market": [[s.market[p][k] for k in range(MAX_VIS)] for p in range(NS)],
        "built": [s.built[p] for p in range(MAX_P)],
        "block": [s.block[p] for p in range(MAX_P)],
        "quiz": [s.quiz[p] for p in range(MAX_P)],
        "order": [s.order[p] for p in range(MAX_P)],
        "offer_give": [s.offer_give[0], s.offer_give[1]],
        "offer_ask": [s.offer_ask[0], s.offer_ask[1]],
        "upper": [[s.upper[p][k] for k in range(NT)] for p in range(MAX_P)],
        "private_upper": [[[s.private_upper[o][p][k] for k in range(NT)] for p in range(MAX_P)] for o in range(MAX_P)],
    }
    for name, value in zip(_SCALARS, (s.phase, s.cur, s.first, s.round, s.turns, s.ev_next, s.ev_cur, s.ev_pos,
                                      s.ev_n, s.ev_left, s.pick_sup, s.picks_left, s.malus_left, s.lose_type,
                                      s.dep_n, s.top_next, s.offer_to, s.offer_give_n, s.offer_ask_n, s.offered,
                                      s.flags, s.penalty, s.mult, s.end_trig, s.refreshed, s.end_reason,
                                      s.private_of, s.pad_end)):
        d[name] = value
    return d


def pack_state(dict f) -> bytes:
    """Inverse of ``unpack_state`` (no validation here: build a State with ``Game.state_from_row``)."""
    cdef SPState s
    cdef int p, k, i, o
    memset(&s, 0, sizeof(SPState))
    s.rng = f["rng"]
    for p in range(MAX_P):
        for k in range(NK):
            s.hand[p][k] = f["hand"][p][k]
            s.known[p][k] = f["known"][p][k]
            s.laid[p][k] = f["laid"][p][k]
        for k in range(NK_LOSABLE):
            for o in range(MAX_P):
                s.private_known[o][p][k] = f["private_known"][o][p][k]
        for k in range(MAX_MALUS):
            s.malus[p][k] = f["malus"][p][k]
        for k in range(NT):
            s.upper[p][k] = f["upper"][p][k]
            for o in range(MAX_P):
                s.private_upper[o][p][k] = f["private_upper"][o][p][k]
        s.built[p] = f["built"][p]
        s.block[p] = f["block"][p]
        s.quiz[p] = f["quiz"][p]
        s.order[p] = f["order"][p]
    for k in range(MAX_MALUS):
        s.pile[k] = f["pile"][k]
        s.mout[k] = f["mout"][k]
    for k in range(NK):
        s.out[k] = f["out"][k]
        s.deck[k] = f["deck"][k]
    for p in range(NS):
        for i in range(MAX_VIS):
            s.market[p][i] = f["market"][p][i]
    for i in range(2):
        s.offer_give[i] = f["offer_give"][i]
        s.offer_ask[i] = f["offer_ask"][i]
    s.phase = f["phase"]
    s.cur = f["cur"]
    s.first = f["first"]
    s.round = f["round"]
    s.turns = f["turns"]
    s.ev_next = f["ev_next"]
    s.ev_cur = f["ev_cur"]
    s.ev_pos = f["ev_pos"]
    s.ev_n = f["ev_n"]
    s.ev_left = f["ev_left"]
    s.pick_sup = f["pick_sup"]
    s.picks_left = f["picks_left"]
    s.malus_left = f["malus_left"]
    s.lose_type = f["lose_type"]
    s.dep_n = f["dep_n"]
    s.top_next = f["top_next"]
    s.offer_to = f["offer_to"]
    s.offer_give_n = f["offer_give_n"]
    s.offer_ask_n = f["offer_ask_n"]
    s.offered = f["offered"]
    s.flags = f["flags"]
    s.penalty = f["penalty"]
    s.mult = f["mult"]
    s.end_trig = f["end_trig"]
    s.refreshed = f["refreshed"]
    s.end_reason = f["end_reason"]
    s.private_of = f["private_of"]
    s.pad_end = f["pad_end"]
    return (<char*>&s)[:sizeof(SPState)]


def score_parts(GameCore core, const uint8_t[::1] raw) -> list:
    """Per seat: component points, recycling bonus, malus penalty (for tests and views)."""
    cdef const SPConfig* cfg = <const SPConfig*>core.cfg
    cdef const SPState* s
    cdef int p, c, pts
    if raw.shape[0] != sizeof(SPState) or sp_validate(core.cfg, &raw[0]) != 0:
        raise ValueError("not a valid Smartphone state")
    s = <const SPState*>&raw[0]
    out = []
    for p in range(cfg.n):
        pts = 0
        for c in range(cfg.ncomp):
            if (s.built[p] >> c) & 1:
                pts += cfg.points[c]
        out.append({"components": pts, "penalty": s.penalty * malus_weight(cfg, s, p),
                    "bonus": seat_score(cfg, s, p) - pts + s.penalty * malus_weight(cfg, s, p)})
    return out
