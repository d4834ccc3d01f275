# cython: language_level=3
"""Scrapyard's rules in C: move generation (``legal_for``), stepping (``sy_apply``), the automatic steps between
decisions (dice, deal, pass resolution, end of day), scoring (``player_score``) and the invariant check
(``sy_validate``).

Action ids (``cfg.a_*`` offsets; ``N`` = cards in the deck, ``B`` = workbenches):

| block | ids | meaning |
|---|---|---|
| keep c | N | draft: keep card c face down in today's Reserve |
| break | 1 | draft: discard the hand, +1 Waste and +1 Hour per card |
| buy t | 4 | purchase: a standard Structure of type t (head, body, arms, legs) for 6 Waste |
| no purchase | 1 | purchase: buy nothing today |
| place c | N | workshop: hand card c onto the lowest-numbered empty workbench |
| discard b | B | workshop: the card on workbench b, with the cubes on it |
| assemble b t | 4B | workshop: the repaired card of workbench b onto the robot's Structure of type t |
| dismantle b | B | workshop, 1 Hour: gain DEM + the cubes placed on it, discard the card |
| repair b m o e n | 255B | workshop, 1 Hour: place m, o, e, n cubes (0..3 each, not all 0) from stock on its REP column |
| exchange r | 4 | workshop: 5 Waste -> 1 cube of resource r |
| subcontract | 1 | workshop: 4 Waste -> +1 Hour (7 at most) |
| expand side | 2 | workshop, 1 Hour: 3 Waste, remove the left (M+O +5) or right (E+N +5) cover |
| clean | 1 | workshop, 1 Hour: +1 Waste |
| done | 1 | workshop: finished for today |
| overflow | 1295 | storage overflow: discard (m, o) from the M+O zone and (e, n) from the E+N zone, exactly the excess |

Every decision with a single legal option is applied by the engine (a hand that arrives empty breaks, a
workshop with nothing left to do but "done" is done, a unique overflow discard is made, a seat that cannot buy
skips the purchase), so ``actors`` only ever lists seats with a real choice.

Termination: the draft removes a card from every hand at every pass; in the workshop every action but "done"
strictly lowers (3 x Hours + Waste, 2 x hand + workbench cards) in lexicographic order (RULES.md, "Length").
"""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset

from robotcore.core.bits cimport bit, load_le32, load_le64, lowest_bit, nth_set_bit, popcount, zero_words
from robotcore.core.playout cimport random_playout_loop_words
from robotcore.core.rng cimport rng_below, rng_seed
from robotcore.core.state cimport MAX_MASK_WORDS, EngineSpec, GameCore, State, take_native_hooks
from robotcore.games.scrapyard.state cimport (
    BUY_COST, DAYS, EXCHANGE_COST, EXPAND_COST, F_BOOST, F_MOVEMENT, F_SHIELD, F_SOFTWARE, F_WEAPON,
    FATE_BROKEN, FATE_KEPT, HAND_SIZE, HOURS_MAX, KIND_STRUCTURE, KIND_UPGRADE, MAX_CARDS, MAX_DEALT,
    MAX_EXCESS, MAX_P, MAX_REP, MAX_SLOTS, MAX_STEPS, MAX_WB, NO_CARD, NO_PENDING, NOT_BROKEN,
    NUM_FAMILIES, NUM_RES, NUM_TYPES, OVERFLOW_CODES, PH_DELIVERY, PH_DRAFT, PH_OVER, PH_PURCHASE,
    PH_WORKSHOP, REPAIR_CODES, STANDARD, SUBCONTRACT_COST, TARGET_SELF, WASTE_CAP, ZONE_BASE, ZONE_EXT,
    ZONE_PAIRS, Player, SYConfig, SYState, broken_today, cs_add, cs_del, cs_has,
)


# -- small helpers ----------------------------------------------------------------------------------------------

cdef int cs_count(const uint64_t* s) noexcept nogil:
    return popcount(s[0]) + popcount(s[1])


cdef int cs_nth(const uint64_t* s, int n) noexcept nogil:
    """The n-th (0-based) card of a set; n < cs_count(s)."""
    cdef int c0 = popcount(s[0])
    if n < c0:
        return nth_set_bit(s[0], n)
    return 64 + nth_set_bit(s[1], n - c0)


cdef inline void cs_all(const SYConfig* cfg, uint64_t* out) noexcept nogil:
    """The set of every card of the deck (ids 0..ncards-1)."""
    cdef int n = cfg.ncards
    out[0] = ~(<uint64_t>0) if n >= 64 else ((<uint64_t>1) << n) - 1
    out[1] = 0 if n <= 64 else (~(<uint64_t>0) if n == 128 else ((<uint64_t>1) << (n - 64)) - 1)


cdef inline int cs_first(const uint64_t* s) noexcept nogil:
    """Lowest card of a non-empty set."""
    if s[0]:
        return lowest_bit(s[0])
    return 64 + lowest_bit(s[1])


# Zone discards (a, b) with a + b <= 7, numbered by total then by a: index = t(t+1)/2 + a.
cdef int PAIR_A[ZONE_PAIRS]
cdef int PAIR_B[ZONE_PAIRS]


cdef void _init_pairs() noexcept:
    cdef int t, a, k = 0
    for t in range(MAX_EXCESS + 1):
        for a in range(t + 1):
            PAIR_A[k] = a
            PAIR_B[k] = t - a
            k += 1


_init_pairs()


cdef int pair_a(int idx) noexcept nogil:
    return PAIR_A[idx]


cdef int pair_b(int idx) noexcept nogil:
    return PAIR_B[idx]


cdef inline int pair_index(int a, int b) noexcept nogil:
    return (a + b) * (a + b + 1) // 2 + a


cdef int cap_mo(const Player* P) noexcept nogil:
    return ZONE_BASE + (ZONE_EXT if P.ext & 1 else 0)


cdef int cap_en(const Player* P) noexcept nogil:
    return ZONE_BASE + (ZONE_EXT if P.ext & 2 else 0)


cdef inline int excess_mo(const Player* P) noexcept nogil:
    cdef int e = P.res[0] + P.res[1] - cap_mo(P)
    return e if e > 0 else 0


cdef inline int excess_en(const Player* P) noexcept nogil:
    cdef int e = P.res[2] + P.res[3] - cap_en(P)
    return e if e > 0 else 0


cdef inline bint over_cap(const Player* P) noexcept nogil:
    """A zone holds more than its capacity (branch-free: asked before nearly every decision)."""
    return (P.res[0] + P.res[1] > ZONE_BASE + ZONE_EXT * (P.ext & 1)) \
        | (P.res[2] + P.res[3] > ZONE_BASE + ZONE_EXT * ((P.ext >> 1) & 1))


cdef bint over_capacity(const Player* P) noexcept nogil:
    return over_cap(P)


cdef inline void gain_waste(Player* P, int k) noexcept nogil:
    """Waste has one colour: an overflow of the Waste zone needs no choice (the excess is discarded)."""
    cdef int w = P.waste + k
    P.waste = WASTE_CAP if w > WASTE_CAP else w


cdef bint can_buy(const Player* P) noexcept nogil:
    cdef int t
    if P.waste < BUY_COST:
        return False
    for t in range(NUM_TYPES):
        if P.structure[t] == NO_CARD:
            return True
    return False


cdef bint bench_repaired(const SYConfig* cfg, const Player* P, int b) noexcept nogil:
    cdef int c = P.bench[b], r
    for r in range(NUM_RES):
        if P.bench_rep[b][r] < cfg.rep[c][r]:
            return False
    return True


cdef inline int day_dir_of(int day) noexcept nogil:
    """+1: to the left (seat i -> i+1) on even days (2, 4, 6); -1: to the right on odd days (1, 3, 5)."""
    return 1 if day % 2 == 1 else -1


cdef int day_dir(const SYState* s) noexcept nogil:
    return day_dir_of(s.day)


cdef int next_keeper(const SYState* s, int n, int p, int dirn, int after) noexcept nogil:
    """The first seat after ``p`` in direction ``dirn`` still scavenging once pass ``after`` is resolved
    (``p`` itself when it is alone: the lone player keeps the hand it holds)."""
    cdef int q = p, i
    for i in range(n - 1):
        q += dirn                       # the next seat round the table (dirn is +1 or -1)
        if q < 0:
            q = n - 1
        elif q == n:
            q = 0
        if s.broke_at[q] > after:
            return q
    return p


cdef int track_holder(const SYState* s, int n, int t, int x) noexcept nogil:
    """Who holds the hand dealt to seat ``t`` at pass ``x`` (0 = the deal), or -1 when that hand was broken at
    an earlier pass. Only meaningful for x <= s.step (the passes resolved so far, and the current one)."""
    cdef int h = t, y, dirn = day_dir(s)
    for y in range(x):
        if s.broke_at[h] == y:
            return -1
        h = next_keeper(s, n, h, dirn, y)
    return h


cdef int fate_step(uint8_t fate) noexcept nogil:
    return fate & 15


cdef void track_knowledge(const SYConfig* cfg, const SYState* s, int t, bint revealed,
                         uint64_t (*out)[2]) noexcept nogil:
    """ORs into ``out[p]``, for every seat p, the cards broken from the hand dealt to seat t that p knows are in
    the discard pile (nothing when that hand is not broken).

    Only a hand p held can tell it anything. Say p last held it at pass L and it was broken at pass top >= L.
    If p broke it (L = top), p knows every card. Once the Reserves are revealed every kept card is public, so p
    knows them all too. Before that, p knows the hand it passed on at L, and the backs (Structure or Upgrade)
    of what the others kept from it before the break: a broken card is known when no card of its back was kept
    from that hand after L (in particular every card, when the next holder breaks at once).

    A hand is broken at one pass, whole (``check_log`` rejects anything else), so its 7 slots give the broken
    cards by back and, by back, a bit per pass at which a card was kept; its holders are followed once."""
    cdef int n = cfg.nseats, k, f, c, b, x, h, p, L, top = -1, dirn
    cdef const uint8_t* fate = &s.day_fate[t * HAND_SIZE]
    cdef const uint8_t* card = &s.day_card[t * HAND_SIZE]
    cdef uint32_t kept_bits[2]            # [back]: bit y = a card of that back was kept from this hand at pass y
    cdef uint64_t brk[2][2]               # [back]: the cards of that back broken from this hand
    cdef int last[MAX_P]
    kept_bits[0] = 0
    kept_bits[1] = 0
    brk[0][0] = 0
    brk[0][1] = 0
    brk[1][0] = 0
    brk[1][1] = 0
    for k in range(s.dealt[t]):
        f = fate[k]
        if f & FATE_BROKEN:
            c = card[k]
            cs_add(brk[cfg.kind[c]], c)
            if fate_step(f) > top:
                top = fate_step(f)
        elif f & FATE_KEPT:
            kept_bits[cfg.kind[card[k]]] |= (<uint32_t>1) << fate_step(f)
    if top < 0:
        return                            # nothing of this hand is in the discard pile
    h = t
    x = 0
    dirn = day_dir(s)
    if revealed:                          # every seat that held it knows every broken card
        while True:
            out[h][0] |= brk[0][0] | brk[1][0]
            out[h][1] |= brk[0][1] | brk[1][1]
            if x == s.step or s.broke_at[h] == x:
                return
            h = next_keeper(s, n, h, dirn, x)
            x += 1
    for p in range(n):
        last[p] = -1
    while True:                           # the holders of the hand dealt to t, pass by pass
        last[h] = x
        if x == s.step or s.broke_at[h] == x:
            break
        h = next_keeper(s, n, h, dirn, x)
        x += 1
    for p in range(n):
        L = last[p]
        if L < 0 or L > top:
            continue                      # never held it (or only after its break: not in a valid state)
        for b in range(2):
            if (kept_bits[b] >> (L + 1)) == 0:
                out[p][0] |= brk[b][0]
                out[p][1] |= brk[b][1]


cdef void known_broken_all(const SYConfig* cfg, const SYState* s, bint revealed, uint64_t (*out)[2]) noexcept nogil:
    """For every seat p, the cards broken today that p knows are in the discard pile (``out[p]``: a card set):
    ``track_knowledge`` over every hand dealt today."""
    cdef int t
    memset(out, 0, MAX_P * sizeof(out[0]))
    for t in range(cfg.nseats):
        track_knowledge(cfg, s, t, revealed, out)


cdef void known_broken_today(const SYConfig* cfg, const SYState* s, int p, bint revealed,
                             uint64_t* out) noexcept nogil:
    """The cards broken today that seat p knows are in the discard pile (``known_broken_all``, one seat)."""
    cdef uint64_t every[MAX_P][2]
    known_broken_all(cfg, s, revealed, every)
    out[0] = every[p][0]
    out[1] = every[p][1]


cdef const Player* public_player(const SYConfig* cfg, const SYState* s, int p) noexcept nogil:
    """What the other seats see of seat p: its live position, except during a closed workshop
    (``open_workshop`` = 0), where they see it as revealed at the start until every seat is done."""
    if s.phase == PH_WORKSHOP and not cfg.open_workshop:
        return &s.pub[p]
    return &s.pl[p]


cdef void player_cards(const SYConfig* cfg, const Player* P, uint64_t* out) noexcept nogil:
    """Every deck card a player holds: hand, workbenches, robot."""
    cdef int b, t, k
    out[0] = P.hand[0]
    out[1] = P.hand[1]
    for b in range(cfg.nbench):
        if P.bench[b] != NO_CARD:
            cs_add(out, P.bench[b])
    for t in range(NUM_TYPES):
        if P.structure[t] != NO_CARD and P.structure[t] != STANDARD:
            cs_add(out, P.structure[t])
        for k in range(P.nup[t]):
            cs_add(out, P.up[t][k])


# -- scoring ----------------------------------------------------------------------------------------------------

cdef bint robot_complete(const Player* P) noexcept nogil:
    cdef int t
    for t in range(NUM_TYPES):
        if P.structure[t] == NO_CARD:
            return False
    return True


cdef int32_t player_score(const SYConfig* cfg, const Player* P) noexcept nogil:
    """The seed's scoring of one robot: 0 without its 4 Structures; else Structure VP, storage bonuses of the
    advanced Structures, then each Upgrade's effect."""
    cdef int32_t total = 0
    cdef int t, k, u, c, fam, n_shielded = 0, target, count
    cdef int weapons[NUM_TYPES]
    cdef int fams[NUM_TYPES]
    if not robot_complete(P):
        return 0
    for t in range(NUM_TYPES):
        c = P.structure[t]
        if c == STANDARD:
            total += cfg.std_vp
        else:
            total += cfg.vp[c]
            if cfg.bonus[c] != NO_CARD:
                total += P.res[cfg.bonus[c]] // 3
        weapons[t] = 0
        fams[t] = 0
        for k in range(P.nup[t]):
            fam = cfg.family[P.up[t][k]]
            fams[t] |= 1 << fam
            if fam == F_WEAPON:
                weapons[t] += 1
        if fams[t] & (1 << F_SHIELD):
            n_shielded += 1
    for t in range(NUM_TYPES):
        for k in range(P.nup[t]):
            u = P.up[t][k]
            fam = cfg.family[u]
            if fam == F_SOFTWARE:
                total += cfg.x[u]
            elif fam == F_SHIELD:
                total += cfg.x[u] * n_shielded
            elif fam == F_WEAPON:
                total += cfg.x[u] * weapons[t]
            elif fam == F_MOVEMENT:
                total += cfg.x[u] * popcount(<uint64_t>(fams[t] & ~(1 << F_MOVEMENT)))
            else:
                target = cfg.target[u]
                if target == TARGET_SELF:
                    target = t
                count = P.nup[target]
                if target != t:
                    count += 1          # a Boost always counts itself, even placed elsewhere
                total += cfg.x[u] * count
    return total


cdef void sy_scores(const void* c, const void* st, int32_t* out) noexcept nogil:
    """Scores of the public position (during the workshop, the robots as revealed at its start: a seat's work
    counts once every seat is done)."""
    cdef const SYConfig* cfg = <const SYConfig*>c
    cdef const SYState* s = <const SYState*>st
    cdef int p
    for p in range(cfg.nseats):
        out[p] = player_score(cfg, public_player(cfg, s, p))


cdef void sy_rank_keys(const void* c, const void* st, int64_t* out) noexcept nogil:
    """Complete robots rank above incomplete ones; between complete robots: VP, then Waste, then resources in
    stock. Incomplete robots (0 VP) share their place."""
    cdef const SYConfig* cfg = <const SYConfig*>c
    cdef const SYState* s = <const SYState*>st
    cdef const Player* P
    cdef int p
    for p in range(cfg.nseats):
        P = public_player(cfg, s, p)
        if robot_complete(P):
            out[p] = ((<int64_t>1) << 50) + (<int64_t>player_score(cfg, P) << 20) + (<int64_t>P.waste << 10) \
                + P.res[0] + P.res[1] + P.res[2] + P.res[3]
        else:
            out[p] = 0


# -- storage overflow -------------------------------------------------------------------------------------------

cdef int overflow_choices(const Player* P, int* codes) noexcept nogil:
    """The overflow codes (1..1295) legal for P: exactly the excess of each zone, split between its two colours
    in every way the stock allows. Returns their number (0 when within capacity)."""
    cdef int emo = excess_mo(P), een = excess_en(P), a, e, n = 0
    cdef int lo_a, hi_a, lo_e, hi_e
    if emo == 0 and een == 0:
        return 0
    lo_a = emo - P.res[1] if emo > P.res[1] else 0
    hi_a = emo if emo < P.res[0] else P.res[0]
    lo_e = een - P.res[3] if een > P.res[3] else 0
    hi_e = een if een < P.res[2] else P.res[2]
    for a in range(lo_a, hi_a + 1):
        for e in range(lo_e, hi_e + 1):
            codes[n] = pair_index(a, emo - a) * ZONE_PAIRS + pair_index(e, een - e)
            n += 1
    return n


cdef void apply_overflow(Player* P, int code) noexcept nogil:
    cdef int imo = code // ZONE_PAIRS, ien = code % ZONE_PAIRS
    P.res[0] -= PAIR_A[imo]
    P.res[1] -= PAIR_B[imo]
    P.res[2] -= PAIR_A[ien]
    P.res[3] -= PAIR_B[ien]


cdef bint auto_overflow(Player* P) noexcept nogil:
    """Apply the overflow discard when it is the only one possible. True when a choice remains to be made."""
    cdef int codes[64]
    cdef int n = overflow_choices(P, codes)
    if n == 1:
        apply_overflow(P, codes[0])
        return False
    return n > 1


# -- the day ----------------------------------------------------------------------------------------------------

cdef void start_day(const SYConfig* cfg, SYState* s) noexcept nogil:
    """Delivery: roll the four dice, every seat gains what they show; overflow choices; then the deal."""
    cdef int r, p
    cdef bint waiting = False
    for r in range(NUM_RES):
        s.dice[r] = cfg.dice[r][rng_below(&s.rng, 6)]
    for p in range(cfg.nseats):
        for r in range(NUM_RES):
            s.pl[p].res[r] += s.dice[r]
        if auto_overflow(&s.pl[p]):
            waiting = True
    s.phase = PH_DELIVERY
    if not waiting:
        deal(cfg, s)


cdef void deal(const SYConfig* cfg, SYState* s) noexcept nogil:
    """Seven cards to each seat, one at a time in seat order, each a uniform draw from the deck. When the deck
    cannot provide the whole deal, the discard pile is shuffled into it first."""
    cdef int n = cfg.nseats, j, p, m, c, k, c0
    cdef uint64_t rng, d0, d1
    if cs_count(s.deck) < HAND_SIZE * n:
        s.deck[0] |= s.disc[0]
        s.deck[1] |= s.disc[1]
        memset(s.disc, 0, sizeof(s.disc))
        memset(s.disc_pub, 0, sizeof(s.disc_pub))
        memset(s.priv_disc, 0, sizeof(s.priv_disc))
    # the day's draft record is empty here: sy_init and end_day leave it so (and sy_validate checks it)
    m = cs_count(s.deck)                # the deck's size and its first word's, kept as cards leave it
    c0 = popcount(s.deck[0])
    rng = s.rng                         # the PRNG and the deck in registers for the deal
    d0 = s.deck[0]
    d1 = s.deck[1]
    for j in range(HAND_SIZE):
        for p in range(n):
            if m == 0:
                break
            k = <int>rng_below(&rng, <uint32_t>m)       # the k-th card of the deck (cs_nth)
            if k < c0:
                c = nth_set_bit(d0, k)
                c0 -= 1
                d0 &= ~((<uint64_t>1) << c)
            else:
                c = 64 + nth_set_bit(d1, k - c0)
                d1 &= ~((<uint64_t>1) << (c - 64))
            m -= 1
            cs_add(s.pl[p].hand, c)
            s.day_card[p * HAND_SIZE + s.dealt[p]] = <uint8_t>c
            s.dealt[p] += 1
    s.rng = rng
    s.deck[0] = d0
    s.deck[1] = d1
    s.step = 0
    s.phase = PH_DRAFT
    for p in range(n):
        if s.dealt[p] == 0:
            s.broke_at[p] = 0           # nothing to scavenge: an empty hand breaks at once
    for p in range(n):
        if s.broke_at[p] == NOT_BROKEN:
            return
    end_draft(cfg, s)


cdef inline int slot_of(const SYState* s, int c) noexcept nogil:
    """The slot of the day's draft record holding card c, dealt today. The 28 card bytes are compared eight at a
    time (a zero byte of ``slots ^ c * 0x01..01``; its lowest one is exact, later ones are checked): slots not
    dealt hold 0, so only card 0 can meet a stale match, which the dealt counts rule out."""
    # (read from the state itself: a copy into a local made of overlapping 16-byte stores, which the 8-byte
    # reads spanning two of them waited for, about 1% of Scrapyard's Python step)
    cdef uint64_t w[4]
    cdef uint64_t bc = (<uint64_t>0x0101010101010101ULL) * <uint8_t>c, v, z
    cdef int i, k
    w[0] = load_le64(s.day_card)
    w[1] = load_le64(s.day_card + 8)
    w[2] = load_le64(s.day_card + 16)
    w[3] = load_le32(s.day_card + 24)
    for i in range(4):
        v = w[i] ^ bc
        z = (v - (<uint64_t>0x0101010101010101ULL)) & ~v & (<uint64_t>0x8080808080808080ULL)
        while z:
            k = i * 8 + (lowest_bit(z) >> 3)
            if k < MAX_DEALT and s.day_card[k] == c and (k % HAND_SIZE) < s.dealt[k // HAND_SIZE]:
                return k
            z &= z - 1
    return 0


cdef int do_break(SYState* s, int p, int x) noexcept nogil:
    """Seat p breaks the hand it holds at pass x; returns the seat that hand was dealt to (its track).

    The hand is what is left of its track (the slots still without a fate), so one lookup finds the track and
    its 7 slots take the fate."""
    cdef Player* P = &s.pl[p]
    cdef int k = cs_count(P.hand), t, j, f
    if k:
        t = slot_of(s, cs_first(P.hand)) // HAND_SIZE
        for j in range(s.dealt[t]):     # the slots without a fate yet take the break's (no branch a slot)
            f = s.day_fate[t * HAND_SIZE + j]
            s.day_fate[t * HAND_SIZE + j] = <uint8_t>(f | ((FATE_BROKEN | x) & -(f == 0)))
    else:
        t = p                               # an empty hand: nothing is broken (never asked: it breaks by itself)
    s.disc[0] |= P.hand[0]
    s.disc[1] |= P.hand[1]
    s.priv_disc[p][0] |= P.hand[0]
    s.priv_disc[p][1] |= P.hand[1]
    P.hand[0] = 0
    P.hand[1] = 0
    gain_waste(P, k)
    P.hours = HOURS_MAX if P.hours + k > HOURS_MAX else P.hours + k
    s.broke_at[p] = <uint8_t>x
    return t


cdef void resolve_pass(const SYConfig* cfg, SYState* s) noexcept nogil:
    """Every seat still scavenging has committed: apply the keeps and breaks, then pass each remaining hand to
    the next seat still scavenging in the day's direction (a seat alone keeps its own)."""
    cdef int n = cfg.nseats, x = s.step, dirn = day_dir(s), p, q, c, a, t
    cdef uint64_t passing[MAX_P][2]
    cdef bint keeper[MAX_P]
    cdef bint any_left = False
    cdef uint32_t broken_tracks = 0
    for p in range(n):
        keeper[p] = False
        if s.broke_at[p] != NOT_BROKEN:
            continue
        a = s.pending[p]
        s.pending[p] = NO_PENDING
        if a == cfg.a_break:
            broken_tracks |= (<uint32_t>1) << do_break(s, p, x)
        else:
            c = a - cfg.a_keep
            cs_del(s.pl[p].hand, c)
            cs_add(s.reserve[p], c)
            s.day_fate[slot_of(s, c)] = <uint8_t>(FATE_KEPT | x)
            keeper[p] = True
    for p in range(n):
        passing[p][0] = s.pl[p].hand[0]
        passing[p][1] = s.pl[p].hand[1]
    for p in range(n):
        if keeper[p]:
            q = next_keeper(s, n, p, dirn, x)
            s.pl[q].hand[0] = passing[p][0]
            s.pl[q].hand[1] = passing[p][1]
    s.step = x + 1
    for p in range(n):
        if keeper[p]:
            if s.pl[p].hand[0] == 0 and s.pl[p].hand[1] == 0:
                s.broke_at[p] = <uint8_t>(x + 1)      # an empty hand breaks: no Waste, no Hour
            else:
                any_left = True
    # who held a hand just broken may know some of its cards. Only the hands broken now can teach anything new:
    # what a hand broken at an earlier pass tells is fixed since (its slots, its holders up to its break) and
    # is already in ``priv_disc``, which only a reshuffle clears (``sy_validate`` checks exactly this)
    while broken_tracks:
        t = lowest_bit(broken_tracks)
        broken_tracks &= broken_tracks - 1
        track_knowledge(cfg, s, t, False, s.priv_disc)
    if not any_left:
        end_draft(cfg, s)


cdef void end_draft(const SYConfig* cfg, SYState* s) noexcept nogil:
    cdef int p
    s.phase = PH_PURCHASE
    for p in range(cfg.nseats):
        if can_buy(&s.pl[p]):
            return
    start_workshop(cfg, s)


cdef void resolve_purchase(const SYConfig* cfg, SYState* s) noexcept nogil:
    cdef int p, a
    for p in range(cfg.nseats):
        a = s.pending[p]
        s.pending[p] = NO_PENDING
        if a != NO_PENDING and a != cfg.a_nobuy:
            s.pl[p].waste -= BUY_COST
            s.pl[p].structure[a - cfg.a_buy] = STANDARD
    start_workshop(cfg, s)


cdef bint only_done(const SYConfig* cfg, const Player* P) noexcept nogil:
    """True when "done" is the only thing the player can do (so the engine does it)."""
    cdef int b
    if P.hand[0] or P.hand[1] or P.hours or P.waste >= SUBCONTRACT_COST or over_cap(P):
        return False
    for b in range(cfg.nbench):
        if P.bench[b] != NO_CARD:
            return False
    return True


cdef void fold_draft_knowledge(const SYConfig* cfg, SYState* s) noexcept nogil:
    """At the reveal every kept card becomes public, so a seat that held a hand at some pass now knows which of
    its cards were broken: they are in the discard pile."""
    cdef int t
    for t in range(cfg.nseats):
        track_knowledge(cfg, s, t, True, s.priv_disc)


cdef void start_workshop(const SYConfig* cfg, SYState* s) noexcept nogil:
    """Reveal the Reserves into the hands (public from now on), then every seat works in its workshop; the
    others see it as revealed here until every seat is done."""
    cdef int p
    s.phase = PH_WORKSHOP
    s.done = 0
    for p in range(cfg.nseats):
        s.pl[p].hand[0] = s.reserve[p][0]
        s.pl[p].hand[1] = s.reserve[p][1]
        s.reserve[p][0] = 0
        s.reserve[p][1] = 0
        s.pending[p] = NO_PENDING
    fold_draft_knowledge(cfg, s)
    for p in range(cfg.nseats):
        s.pub[p] = s.pl[p]
        if only_done(cfg, &s.pl[p]):
            s.done |= <uint8_t>(1 << p)
    if s.done == (1 << cfg.nseats) - 1:
        end_day(cfg, s)


cdef void end_day(const SYConfig* cfg, SYState* s) noexcept nogil:
    """Every seat is done: the workshops become public; hands are discarded (face up), Hours go to 0."""
    cdef int p
    cdef uint64_t cards[2]
    for p in range(cfg.nseats):
        player_cards(cfg, &s.pub[p], cards)
        s.disc_pub[0] |= cards[0] & s.disc[0]
        s.disc_pub[1] |= cards[1] & s.disc[1]
        s.disc[0] |= s.pl[p].hand[0]
        s.disc[1] |= s.pl[p].hand[1]
        s.disc_pub[0] |= s.pl[p].hand[0]
        s.disc_pub[1] |= s.pl[p].hand[1]
        s.pl[p].hand[0] = 0
        s.pl[p].hand[1] = 0
        s.pl[p].hours = 0
    memset(s.pub, 0, sizeof(s.pub))
    memset(s.day_card, 0, sizeof(s.day_card))
    memset(s.day_fate, 0, sizeof(s.day_fate))
    for p in range(MAX_P):
        s.dealt[p] = 0
        s.broke_at[p] = NOT_BROKEN
        s.worked[p] = 0
    s.done = 0
    s.step = 0
    s.day += 1
    if s.day >= cfg.days:
        s.phase = PH_OVER
        return
    start_day(cfg, s)


# -- workshop actions -------------------------------------------------------------------------------------------

cdef void to_discard(const SYConfig* cfg, SYState* s, int p, int c) noexcept nogil:
    """A card seat p discards during its workshop: the others see it at once in an open workshop, when the
    workshop ends in a closed one."""
    cs_add(s.disc, c)
    cs_add(s.priv_disc[p], c)
    if cfg.open_workshop:
        cs_add(s.disc_pub, c)


cdef void workshop_apply(const SYConfig* cfg, SYState* s, int p, int a) noexcept nogil:
    cdef Player* P = &s.pl[p]
    cdef int b, c, t, r, code, k
    if not cfg.open_workshop and a != cfg.a_done and s.worked[p] < 255:
        s.worked[p] += 1                # what the others see of a closed workshop: that seat p did something
    # the blocks by how often random play picks them (place, discard, done, clean, overflow, repair...), each a
    # single unsigned range test: fewer tests, and fewer mispredicted ones, before the common actions
    if <uint32_t>(a - cfg.a_place) < <uint32_t>cfg.ncards:
        c = a - cfg.a_place
        for b in range(cfg.nbench):
            if P.bench[b] == NO_CARD:
                break
        cs_del(P.hand, c)
        P.bench[b] = <uint8_t>c
        for r in range(NUM_RES):
            P.bench_rep[b][r] = 0
    elif <uint32_t>(a - cfg.a_discard) < <uint32_t>cfg.nbench:
        b = a - cfg.a_discard
        to_discard(cfg, s, p, P.bench[b])
        P.bench[b] = NO_CARD
        memset(P.bench_rep[b], 0, NUM_RES)
    elif a == cfg.a_done:
        s.done |= <uint8_t>(1 << p)
    elif a == cfg.a_clean:
        P.hours -= 1
        gain_waste(P, 1)
    elif a >= cfg.a_overflow:
        apply_overflow(P, a - cfg.a_overflow + 1)
    elif <uint32_t>(a - cfg.a_repair) < <uint32_t>(cfg.a_exchange - cfg.a_repair):
        b = (a - cfg.a_repair) // REPAIR_CODES
        code = (a - cfg.a_repair) % REPAIR_CODES + 1
        P.hours -= 1
        for r in range(NUM_RES):
            k = (code >> (2 * r)) & 3
            P.res[r] -= k
            P.bench_rep[b][r] += k
    elif <uint32_t>(a - cfg.a_dismantle) < <uint32_t>cfg.nbench:
        b = a - cfg.a_dismantle
        c = P.bench[b]
        P.hours -= 1
        for r in range(NUM_RES):
            P.res[r] += cfg.dem[c][r] + P.bench_rep[b][r]
        to_discard(cfg, s, p, c)
        P.bench[b] = NO_CARD
        memset(P.bench_rep[b], 0, NUM_RES)
        auto_overflow(P)
    elif <uint32_t>(a - cfg.a_exchange) < NUM_RES:
        P.waste -= EXCHANGE_COST
        P.res[a - cfg.a_exchange] += 1
        auto_overflow(P)
    elif <uint32_t>(a - cfg.a_expand) < 2:
        P.waste -= EXPAND_COST
        P.hours -= 1
        P.ext |= <uint8_t>(1 << (a - cfg.a_expand))
    elif a == cfg.a_subcontract:
        P.waste -= SUBCONTRACT_COST
        P.hours += 1
    elif <uint32_t>(a - cfg.a_assemble) < <uint32_t>(cfg.a_dismantle - cfg.a_assemble):
        b = (a - cfg.a_assemble) // NUM_TYPES
        t = (a - cfg.a_assemble) % NUM_TYPES
        c = P.bench[b]
        if cfg.kind[c] == KIND_STRUCTURE:
            P.structure[t] = <uint8_t>c
        else:
            P.up[t][P.nup[t]] = <uint8_t>c
            P.nup[t] += 1
        P.bench[b] = NO_CARD
        memset(P.bench_rep[b], 0, NUM_RES)     # the cubes stay on the card, out of the stock for good
    if not (s.done >> p) & 1 and only_done(cfg, P):
        s.done |= <uint8_t>(1 << p)
    if s.done == (1 << cfg.nseats) - 1:
        end_day(cfg, s)


# -- the engine contract ----------------------------------------------------------------------------------------

cdef void sy_init(const void* c, void* st, uint64_t seed) noexcept nogil:
    cdef const SYConfig* cfg = <const SYConfig*>c
    cdef SYState* s = <SYState*>st
    cdef int p, i
    memset(s, 0, sizeof(SYState))
    s.rng = rng_seed(seed)
    cs_all(cfg, s.deck)
    for p in range(MAX_P):
        s.pending[p] = NO_PENDING
        s.broke_at[p] = NOT_BROKEN
        for i in range(MAX_WB):
            s.pl[p].bench[i] = NO_CARD
        for i in range(NUM_TYPES):
            s.pl[p].structure[i] = NO_CARD
    start_day(cfg, s)


cdef inline uint64_t pending_lanes(const SYState* s) noexcept nogil:
    """The four seats' ``pending`` as 16-bit lanes, seat p's from bit 16 p."""
    return (<uint64_t>s.pending[0] | (<uint64_t>s.pending[1] << 16) | (<uint64_t>s.pending[2] << 32)
            | (<uint64_t>s.pending[3] << 48))


cdef inline uint32_t draft_waiting(const SYConfig* cfg, const SYState* s) noexcept nogil:
    return draft_waiting_in(cfg, s, pending_lanes(s))


cdef inline uint32_t draft_waiting_in(const SYConfig* cfg, const SYState* s, uint64_t lanes) noexcept nogil:
    """The draft's actors, ``pending`` given as ``pending_lanes`` reads it: bit p = seat p still scavenging and not
    committed yet, for the four seat slots at once (compares and shifts, no branch: which seats have committed or
    broken changes at every decision), then only the seats in play."""
    cdef uint32_t x = ~load_le32(s.broke_at)                       # a zero byte: NOT_BROKEN
    cdef uint64_t y = ~lanes                                        # a zero lane: NO_PENDING
    # bit 7 of a byte (15 of a lane) set exactly when it is not zero; then those bits gathered, seat p at bit 24 + p
    # (48 + p): every other product of the gathering multiplication lands on another bit, so none carries
    x = (((x & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | x) >> 7 & 0x01010101u
    y = (((y & 0x7FFF7FFF7FFF7FFFULL) + 0x7FFF7FFF7FFF7FFFULL) | y) >> 15 & 0x0001000100010001ULL
    return ~((x * 0x01020408u) >> 24 | <uint32_t>((y * 0x0001000200040008ULL) >> 48)) & ((1u << cfg.nseats) - 1)


cdef inline bint seat_acts(const SYConfig* cfg, const SYState* s, int p) noexcept nogil:
    """Whether seat p must act now (``s`` not over): bit p of ``sy_actors``."""
    if s.phase == PH_WORKSHOP:
        return not (s.done >> p) & 1
    if s.pending[p] != NO_PENDING:
        return False
    if s.phase == PH_DRAFT:
        return s.broke_at[p] == NOT_BROKEN
    if s.phase == PH_PURCHASE:
        return can_buy(&s.pl[p])
    return over_cap(&s.pl[p])      # PH_DELIVERY


cdef uint32_t sy_actors(const void* c, const void* st) noexcept nogil:
    cdef const SYConfig* cfg = <const SYConfig*>c
    cdef const SYState* s = <const SYState*>st
    cdef uint32_t bits = 0
    cdef int p
    if s.phase == PH_WORKSHOP:
        return ~(<uint32_t>s.done) & ((1u << cfg.nseats) - 1)
    if s.phase == PH_DRAFT:             # seat_acts, one phase at a time
        return draft_waiting(cfg, s)
    if s.phase == PH_PURCHASE:
        for p in range(cfg.nseats):
            if s.pending[p] == NO_PENDING and can_buy(&s.pl[p]):
                bits |= (<uint32_t>1) << p
    elif s.phase == PH_DELIVERY:
        for p in range(cfg.nseats):
            if s.pending[p] == NO_PENDING and over_cap(&s.pl[p]):
                bits |= (<uint32_t>1) << p
    return bits


# Move generation ORs the legal actions into the mask and gathers in ``wr`` the set of the words it wrote (bit i
# for word i; Scrapyard's masks have at most 41 words): what ``sy_legal_mask_words`` returns to the kernel.

cdef inline void setbit(uint64_t* words, uint64_t* wr, int a) noexcept nogil:
    words[a >> 6] |= (<uint64_t>1) << (a & 63)
    wr[0] |= (<uint64_t>1) << (a >> 6)


cdef inline void or_word_at(uint64_t* words, uint64_t* wr, int a, uint64_t v) noexcept nogil:
    """Sets actions a + i for every bit i of v (a + 63 inside the mask: every block or_word_at writes is followed
    by another, the overflow block last). Without a branch: whether v spills into the next word depends on the
    cards in hand and the cubes in stock, which random play makes a coin toss; the next word is ORed with the
    spill, zero when there is none, and named only when it gains a bit."""
    cdef int sh = a & 63
    cdef uint64_t spill = (v >> 1) >> (63 - sh)         # v >> (64 - sh), and 0 when sh = 0
    words[a >> 6] |= v << sh
    words[(a >> 6) + 1] |= spill
    wr[0] |= ((<uint64_t>1) | (<uint64_t>(spill != 0) << 1)) << (a >> 6)


# Repair codes of one workbench: code - 1 = m + 4o + 16e + 64n, so the codes with m <= lm, o <= lo, e <= le are
# the same 64-bit pattern REPAIR_ROW[lm + 4 lo + 16 le] for each n <= ln (code 0, "nothing placed", is not an
# action).
cdef uint64_t REPAIR_ROW[(MAX_REP + 1) * (MAX_REP + 1) * (MAX_REP + 1)]


cdef void _init_repair_rows() noexcept:
    cdef int lm, lo, le, m, o, e
    cdef uint64_t row
    for lm in range(MAX_REP + 1):
        for lo in range(MAX_REP + 1):
            for le in range(MAX_REP + 1):
                row = 0
                for e in range(le + 1):
                    for o in range(lo + 1):
                        for m in range(lm + 1):
                            row |= (<uint64_t>1) << (m + 4 * o + 16 * e)
                REPAIR_ROW[lm + 4 * lo + 16 * le] = row


_init_repair_rows()


cdef inline uint32_t bytes4(const uint8_t* b) noexcept nogil:
    """Four per-resource bytes as one word, byte r = b[r] (one load on a little-endian machine)."""
    return <uint32_t>b[0] | (<uint32_t>b[1] << 8) | (<uint32_t>b[2] << 16) | (<uint32_t>b[3] << 24)


cdef uint64_t legal_for(const SYConfig* cfg, const SYState* s, int p, uint64_t* words) noexcept nogil:
    """Move generation for an acting seat (``words`` already zeroed). Card sets and patterns are ORed into the
    mask a word at a time (``or_word_at``); returns the set of the words written."""
    cdef const Player* P = &s.pl[p]
    cdef int codes[64]
    cdef int i, n, b, c, t, y, base
    cdef uint32_t stock, placed, need, lim, low
    cdef uint64_t row
    cdef bint free_bench = False
    cdef uint64_t wr = 0
    if s.phase == PH_DRAFT:
        setbit(words, &wr, cfg.a_break)
        or_word_at(words, &wr, cfg.a_keep, P.hand[0])
        or_word_at(words, &wr, cfg.a_keep + 64, P.hand[1])
        return wr
    if s.phase == PH_PURCHASE:
        setbit(words, &wr, cfg.a_nobuy)
        for t in range(NUM_TYPES):
            if P.structure[t] == NO_CARD:
                setbit(words, &wr, cfg.a_buy + t)
        return wr
    if over_cap(P):
        n = overflow_choices(P, codes)
        for i in range(n):
            setbit(words, &wr, cfg.a_overflow + codes[i] - 1)
        return wr
    if s.phase != PH_WORKSHOP:
        return 0
    setbit(words, &wr, cfg.a_done)
    # per workbench, the four resources a byte each (``bytes4``): cubes placed <= REP <= 3 and a stock <= 17 in a
    # valid state, so byte-wise differences never borrow across bytes and 0x80 marks "this byte >= that one"
    stock = bytes4(P.res)
    for b in range(cfg.nbench):
        c = P.bench[b]
        if c == NO_CARD:
            free_bench = True
            continue
        setbit(words, &wr, cfg.a_discard + b)
        if P.hours:
            setbit(words, &wr, cfg.a_dismantle + b)
        placed = bytes4(P.bench_rep[b])
        need = bytes4(cfg.rep[c])
        if ((placed | 0x80808080u) - need) & 0x80808080u == 0x80808080u:     # bench_repaired
            if cfg.kind[c] == KIND_STRUCTURE:
                if P.structure[cfg.stype[c]] == NO_CARD:
                    setbit(words, &wr, cfg.a_assemble + b * NUM_TYPES + cfg.stype[c])
            else:
                for t in range(NUM_TYPES):
                    if (cfg.fits[c] >> t) & 1 and P.structure[t] != NO_CARD:
                        if P.nup[t] < (cfg.std_slots if P.structure[t] == STANDARD else cfg.slots[P.structure[t]]):
                            setbit(words, &wr, cfg.a_assemble + b * NUM_TYPES + t)
        elif P.hours:
            lim = need - placed                 # what each resource still lacks, then at most the stock
            low = (((lim | 0x80808080u) - stock) & 0x80808080u) >> 7            # 1 in the bytes where lim >= stock
            low *= 0xFF
            lim = (stock & low) | (lim & ~low)
            base = cfg.a_repair + b * REPAIR_CODES - 1
            row = REPAIR_ROW[(lim & 3) | ((lim >> 6) & 0xC) | ((lim >> 12) & 0x30)]
            or_word_at(words, &wr, base, row & ~(<uint64_t>1))
            for y in range(1, (lim >> 24) + 1):
                or_word_at(words, &wr, base + 64 * y, row)
    if free_bench:
        or_word_at(words, &wr, cfg.a_place, P.hand[0])
        or_word_at(words, &wr, cfg.a_place + 64, P.hand[1])
    if P.waste >= EXCHANGE_COST:
        or_word_at(words, &wr, cfg.a_exchange, 0xF)
    if P.waste >= SUBCONTRACT_COST and P.hours < HOURS_MAX:
        setbit(words, &wr, cfg.a_subcontract)
    if P.hours:
        setbit(words, &wr, cfg.a_clean)
        if P.waste >= EXPAND_COST:
            or_word_at(words, &wr, cfg.a_expand, ~P.ext & 3)
    return wr


cdef void sy_legal_mask(const void* c, const void* st, int seat, uint64_t* words) noexcept nogil:
    cdef const SYConfig* cfg = <const SYConfig*>c
    cdef const SYState* s = <const SYState*>st
    memset(words, 0, ((cfg.num_actions + 63) >> 6) * sizeof(uint64_t))
    if s.phase != PH_OVER and 0 <= seat < cfg.nseats and seat_acts(cfg, s, seat):
        legal_for(cfg, s, seat, words)


# Words of the largest mask (128 cards, 4 workbenches: 2,610 actions). ``sy_legal_mask_words`` zeroes this many
# whatever the mask's own size, by straight-line stores of a constant size in place of a libc call: the kernel's
# buffers hold them (``EngineSpec.mask_scratch`` covers those past a smaller mask; the others hold MAX_MASK_WORDS).
cdef enum:
    SY_MASK_BUF = 41


cdef uint64_t sy_legal_mask_words(const void* c, const void* st, int seat, uint64_t* words) noexcept nogil:
    """``EngineSpec.legal_mask_words``: ``sy_legal_mask`` for a seat the kernel knows is acting, and the set of
    the words move generation wrote (one to three of the 37-41 in most decisions), which are all that
    ``State.legal_actions`` then lists. The draft's (two of every three decisions) is written here, without
    the call to ``legal_for``."""
    cdef const SYConfig* cfg = <const SYConfig*>c
    cdef const SYState* s = <const SYState*>st
    cdef uint64_t wr = 0
    zero_words(words, 24)
    zero_words(words + 24, SY_MASK_BUF - 24)
    if s.phase == PH_DRAFT:
        setbit(words, &wr, cfg.a_break)
        or_word_at(words, &wr, cfg.a_keep, s.pl[seat].hand[0])
        or_word_at(words, &wr, cfg.a_keep + 64, s.pl[seat].hand[1])
        return wr
    return legal_for(cfg, s, seat, words)


cdef void sy_apply(const void* c, void* st, int seat, int action) noexcept nogil:
    cdef const SYConfig* cfg = <const SYConfig*>c
    cdef SYState* s = <SYState*>st
    cdef int p
    cdef uint64_t lanes
    if s.phase == PH_WORKSHOP:
        workshop_apply(cfg, s, seat, action)
        return
    if s.phase == PH_DRAFT:
        # the lanes read before the seat's is stored, and that one set in a register: read back at once, one
        # 8-byte load over a 2-byte store waited for the store (about 2% of Scrapyard's Python step)
        lanes = pending_lanes(s) & ~((<uint64_t>0xFFFF) << (16 * seat))
        s.pending[seat] = <uint16_t>action
        if draft_waiting_in(cfg, s, lanes | ((<uint64_t><uint16_t>action) << (16 * seat))) == 0:
            resolve_pass(cfg, s)
        return
    s.pending[seat] = <uint16_t>action
    if s.phase == PH_PURCHASE:
        for p in range(cfg.nseats):
            if s.pending[p] == NO_PENDING and can_buy(&s.pl[p]):
                return
        resolve_purchase(cfg, s)
    else:                                   # PH_DELIVERY
        for p in range(cfg.nseats):
            if s.pending[p] == NO_PENDING and over_cap(&s.pl[p]):
                return
        for p in range(cfg.nseats):
            if s.pending[p] != NO_PENDING:
                apply_overflow(&s.pl[p], s.pending[p] - cfg.a_overflow + 1)
                s.pending[p] = NO_PENDING
        deal(cfg, s)


# -- invariants -------------------------------------------------------------------------------------------------

cdef Player ZERO_PLAYER                 # all zero bytes (static storage): what an unused player block must be
memset(&ZERO_PLAYER, 0, sizeof(Player))


cdef bint cs_valid(const SYConfig* cfg, const uint64_t* s) noexcept nogil:
    if cfg.ncards <= 64:
        return s[1] == 0 and (cfg.ncards == 64 or (s[0] >> cfg.ncards) == 0)
    return cfg.ncards == 128 or (s[1] >> (cfg.ncards - 64)) == 0


cdef int check_player(const SYConfig* cfg, const Player* P, bint allow_over) noexcept nogil:
    """Field ranges of one player block (live or snapshot): 0 or an error code."""
    cdef int b, c, r, t, k, u, slots
    for k in range(5):
        if P.spare[k]:
            return 30
    if not cs_valid(cfg, P.hand):
        return 31
    if P.waste > WASTE_CAP or P.hours > HOURS_MAX or P.ext > 3:
        return 32
    if P.res[0] + P.res[1] > cap_mo(P) + (MAX_EXCESS if allow_over else 0):
        return 33
    if P.res[2] + P.res[3] > cap_en(P) + (MAX_EXCESS if allow_over else 0):
        return 33
    for b in range(MAX_WB):
        c = P.bench[b]
        if c == NO_CARD or b >= cfg.nbench:
            if c != NO_CARD:
                return 34
            for r in range(NUM_RES):
                if P.bench_rep[b][r]:
                    return 34
            continue
        if c >= cfg.ncards:
            return 34
        for r in range(NUM_RES):
            if P.bench_rep[b][r] > cfg.rep[c][r]:
                return 34
    for t in range(NUM_TYPES):
        c = P.structure[t]
        if c == NO_CARD:
            slots = 0
        elif c == STANDARD:
            slots = cfg.std_slots
        elif c >= cfg.ncards or cfg.kind[c] != KIND_STRUCTURE or cfg.stype[c] != t:
            return 35
        else:
            slots = cfg.slots[c]
        if P.nup[t] > slots:
            return 36
        for k in range(MAX_SLOTS):
            u = P.up[t][k]
            if k >= P.nup[t]:
                if u:
                    return 36
            elif u >= cfg.ncards or cfg.kind[u] != KIND_UPGRADE or not (cfg.fits[u] >> t) & 1:
                return 36
    return 0


cdef bint pending_overflow_ok(const SYConfig* cfg, const Player* P, int a) noexcept nogil:
    cdef int codes[64]
    cdef int n = overflow_choices(P, codes), i
    for i in range(n):
        if a == cfg.a_overflow + codes[i] - 1:
            return True
    return False


cdef int check_log(const SYConfig* cfg, const SYState* s, bint complete, uint64_t* hands, uint64_t* reserves,
                   int* broken_by) noexcept nogil:
    """Check the day's draft record and rebuild from it the hands and Reserves it implies (hands/reserves:
    MAX_P x 2 words) and the number of cards each seat broke. ``complete``: every seat has broken."""
    cdef int n = cfg.nseats, t, k, x, h, c, f, kept, brk, alive, p
    cdef uint64_t seen[2]
    cdef uint64_t contents[2]
    cdef int holders_now[MAX_P]
    seen[0] = 0
    seen[1] = 0
    memset(hands, 0, MAX_P * 2 * sizeof(uint64_t))
    memset(reserves, 0, MAX_P * 2 * sizeof(uint64_t))
    for p in range(MAX_P):
        broken_by[p] = 0
        holders_now[p] = 0
    if s.step > MAX_STEPS - 1:
        return 40
    for t in range(MAX_P):
        if s.dealt[t] > HAND_SIZE or (t >= n and s.dealt[t]):
            return 41
        for k in range(HAND_SIZE):
            c = s.day_card[t * HAND_SIZE + k]
            f = s.day_fate[t * HAND_SIZE + k]
            if k >= s.dealt[t]:
                if c or f:
                    return 41
                continue
            if c >= cfg.ncards or cs_has(seen, c):
                return 42
            cs_add(seen, c)
            if f and (f & ~(FATE_KEPT | FATE_BROKEN | 15) or (f & (FATE_KEPT | FATE_BROKEN)) == 0
                      or (f & FATE_KEPT and f & FATE_BROKEN) or fate_step(f) >= s.step):
                return 43
    for p in range(MAX_P):
        if p >= n:
            if s.broke_at[p] != NOT_BROKEN:
                return 44
        elif s.broke_at[p] != NOT_BROKEN and s.broke_at[p] > s.step:
            return 44
    for t in range(n):
        h = t
        x = 0
        while True:
            # contents of the hand at pass x
            contents[0] = 0
            contents[1] = 0
            for k in range(s.dealt[t]):
                f = s.day_fate[t * HAND_SIZE + k]
                if f == 0 or fate_step(f) >= x:
                    cs_add(contents, s.day_card[t * HAND_SIZE + k])
            if x == s.step:
                if s.broke_at[h] == x:
                    if contents[0] or contents[1]:
                        return 45           # only an empty hand breaks without a decision
                    break
                if s.broke_at[h] != NOT_BROKEN or not (contents[0] or contents[1]):
                    return 45
                holders_now[h] += 1
                hands[2 * h] = contents[0]
                hands[2 * h + 1] = contents[1]
                break
            if not (contents[0] or contents[1]):
                if s.broke_at[h] != x:
                    return 46
                break
            kept = 0
            brk = 0
            alive = 0
            for k in range(s.dealt[t]):
                f = s.day_fate[t * HAND_SIZE + k]
                c = s.day_card[t * HAND_SIZE + k]
                if not cs_has(contents, c):
                    continue
                if f and fate_step(f) == x:
                    if f & FATE_KEPT:
                        kept += 1
                        cs_add(&reserves[2 * h], c)
                    else:
                        brk += 1
                else:
                    alive += 1
            if s.broke_at[h] == x:
                if kept or alive:
                    return 47           # a break discards the whole hand
                broken_by[h] += brk
                break
            if kept != 1 or brk or s.broke_at[h] < x:
                return 47               # a seat that keeps takes exactly one card
            h = next_keeper(s, n, h, day_dir(s), x)
            x += 1
    for p in range(n):
        if (s.broke_at[p] == NOT_BROKEN) != (holders_now[p] == 1) or holders_now[p] > 1:
            return 48
        if complete and s.broke_at[p] == NOT_BROKEN:
            return 48
    return 0


cdef int knows_broken(const SYConfig* cfg, const SYState* s, bint revealed) noexcept nogil:
    """What each seat knows of today's broken cards is exactly what it can know (``known_broken_today``:
    the cards it broke itself, those it can deduce from a hand it held, and once the Reserves are revealed every
    broken card of a hand it held); none of them is public. 0 when ``priv_disc`` and ``disc_pub`` say so."""
    cdef int n = cfg.nseats, p
    cdef uint64_t expected[MAX_P][2]
    cdef uint64_t today[2]
    broken_today(n, s, today)
    known_broken_all(cfg, s, revealed, expected)      # every seat's, once (zero past the seats)
    for p in range(MAX_P):
        if (s.priv_disc[p][0] & today[0]) != expected[p][0] or (s.priv_disc[p][1] & today[1]) != expected[p][1]:
            return 1
    if (s.disc_pub[0] & today[0]) or (s.disc_pub[1] & today[1]):
        return 1
    return 0


cdef int sy_validate(const void* c, const void* st) noexcept nogil:
    """0 when the state is one the engine can handle (every index in range, every card in exactly one place,
    the draft record consistent with the hands), else the number of the first broken invariant."""
    cdef const SYConfig* cfg = <const SYConfig*>c
    cdef const SYState* s = <const SYState*>st
    cdef int n = cfg.nseats, p, q, r, i, t, b, total, err, k, a
    cdef uint64_t all_[2]
    cdef uint64_t union_[2]
    cdef uint64_t cards[2]
    cdef uint64_t pub_cards[MAX_P][2]
    cdef uint64_t gone                  # (workshop) what a seat discarded since the reveal, one word
    cdef uint64_t today_broken[2]
    cdef uint64_t hands[MAX_P][2]
    cdef uint64_t reserves[MAX_P][2]
    cdef int broken_by[MAX_P]
    cdef const Player* P
    cdef bint ok, in_log
    if s.phase > PH_OVER or s.day > cfg.days or (s.phase == PH_OVER) != (s.day == cfg.days):
        return 1
    for i in range(4):
        if s.spare[i]:
            return 2
    for p in range(MAX_P):
        if s.worked[p] and (p >= cfg.nseats or s.phase != PH_WORKSHOP or cfg.open_workshop):
            return 2                    # counted in a closed workshop only
    for r in range(NUM_RES):
        ok = False
        for i in range(6):
            if cfg.dice[r][i] == s.dice[r]:
                ok = True
        if not ok:
            return 3
    if s.done >> n:
        return 4
    for p in range(MAX_P):
        if p >= n:
            P = &s.pl[p]
            if (P.hand[0] | P.hand[1] | s.reserve[p][0] | s.reserve[p][1] | s.priv_disc[p][0]
                    | s.priv_disc[p][1]) or s.pending[p] != NO_PENDING:
                return 5
        if check_player(cfg, &s.pl[p], True) != 0:
            return 6
        if p >= n:
            for t in range(NUM_TYPES):
                if s.pl[p].structure[t] != NO_CARD:
                    return 5
            for b in range(MAX_WB):
                if s.pl[p].bench[b] != NO_CARD:
                    return 5
            if s.pl[p].res[0] or s.pl[p].res[1] or s.pl[p].res[2] or s.pl[p].res[3] or s.pl[p].waste \
                    or s.pl[p].hours or s.pl[p].ext:
                return 5
    # every card in exactly one place
    cs_all(cfg, all_)
    for i in range(2):
        if (s.deck[i] | s.disc[i] | s.disc_pub[i]) & ~all_[i]:
            return 7
        if s.disc_pub[i] & ~s.disc[i]:
            return 7
        for p in range(MAX_P):
            if (s.reserve[p][i] | s.priv_disc[p][i]) & ~all_[i] or s.priv_disc[p][i] & ~s.disc[i]:
                return 7
    union_[0] = s.deck[0] | s.disc[0]
    union_[1] = s.deck[1] | s.disc[1]
    total = cs_count(s.deck) + cs_count(s.disc)
    for p in range(n):
        player_cards(cfg, &s.pl[p], cards)
        total += cs_count(s.pl[p].hand) + cs_count(s.reserve[p])
        union_[0] |= cards[0] | s.reserve[p][0]
        union_[1] |= cards[1] | s.reserve[p][1]
        for b in range(cfg.nbench):
            total += s.pl[p].bench[b] != NO_CARD
        for t in range(NUM_TYPES):
            total += s.pl[p].nup[t] + (s.pl[p].structure[t] < cfg.ncards)
    if union_[0] != all_[0] or union_[1] != all_[1] or total != cfg.ncards:
        return 8
    # per phase
    if s.phase != PH_WORKSHOP:
        if s.done:
            return 9
        for p in range(MAX_P):
            if memcmp(&s.pub[p], &ZERO_PLAYER, sizeof(Player)):
                return 9
    if s.phase == PH_DELIVERY or s.phase == PH_OVER:
        if s.step:
            return 10
        for p in range(MAX_P):
            if s.dealt[p] or s.broke_at[p] != NOT_BROKEN:
                return 10
            if s.reserve[p][0] or s.reserve[p][1] or s.pl[p].hand[0] or s.pl[p].hand[1] or s.pl[p].hours:
                return 10
        for k in range(MAX_DEALT):
            if s.day_card[k] or s.day_fate[k]:
                return 10
        ok = False
        for p in range(n):
            if s.phase == PH_OVER:
                if s.pending[p] != NO_PENDING or over_capacity(&s.pl[p]):
                    return 11
            elif s.pending[p] != NO_PENDING:
                if not pending_overflow_ok(cfg, &s.pl[p], s.pending[p]):
                    return 11
            elif over_capacity(&s.pl[p]):
                ok = True
        if s.phase == PH_DELIVERY and not ok:
            return 12
        return 0
    # draft, purchase, workshop: the day's draft record
    err = check_log(cfg, s, s.phase != PH_DRAFT, &hands[0][0], &reserves[0][0], broken_by)
    if err:
        return err
    broken_today(n, s, today_broken)
    if (today_broken[0] & ~s.disc[0]) | (today_broken[1] & ~s.disc[1]):
        return 13                       # a broken card is in the discard pile
    if s.phase == PH_DRAFT or s.phase == PH_PURCHASE:
        if knows_broken(cfg, s, False) != 0:
            return 25
        ok = False
        for p in range(n):
            P = &s.pl[p]
            if over_capacity(P):
                return 14
            if P.hand[0] != hands[p][0] or P.hand[1] != hands[p][1]:
                return 15
            if s.reserve[p][0] != reserves[p][0] or s.reserve[p][1] != reserves[p][1]:
                return 15
            if P.hours != (broken_by[p] if broken_by[p] < HOURS_MAX else HOURS_MAX):
                return 16
            a = s.pending[p]
            if s.phase == PH_DRAFT:
                if s.broke_at[p] != NOT_BROKEN:
                    if a != NO_PENDING:
                        return 17
                elif a == NO_PENDING:
                    ok = True
                elif a != cfg.a_break and not (a >= cfg.a_keep and a < cfg.a_keep + cfg.ncards
                                              and cs_has(P.hand, a - cfg.a_keep)):
                    return 17
            else:
                if not can_buy(P):
                    if a != NO_PENDING:
                        return 17
                elif a == NO_PENDING:
                    ok = True
                elif a != cfg.a_nobuy and not (a >= cfg.a_buy and a < cfg.a_buy + NUM_TYPES
                                              and P.structure[a - cfg.a_buy] == NO_CARD):
                    return 17
        if not ok:
            return 18
        return 0
    # workshop: the Reserves are revealed; the public snapshot agrees with the live position
    if s.done == (1 << n) - 1:
        return 19
    if knows_broken(cfg, s, True) != 0:
        return 25
    for p in range(n, MAX_P):
        if memcmp(&s.pub[p], &ZERO_PLAYER, sizeof(Player)):
            return 19
    for p in range(n):
        P = &s.pl[p]
        if s.reserve[p][0] or s.reserve[p][1] or s.pending[p] != NO_PENDING:
            return 20
        if (s.done >> p) & 1 and over_capacity(P):
            return 20
        if check_player(cfg, &s.pub[p], False) != 0:
            return 21
        if s.pub[p].hand[0] != reserves[p][0] or s.pub[p].hand[1] != reserves[p][1]:
            return 21                   # what was revealed is what the draft record says was kept
        player_cards(cfg, &s.pub[p], pub_cards[p])
        total = cs_count(s.pub[p].hand)
        for b in range(cfg.nbench):
            total += s.pub[p].bench[b] != NO_CARD
        for t in range(NUM_TYPES):
            total += s.pub[p].nup[t] + (s.pub[p].structure[t] < cfg.ncards)
        if total != cs_count(pub_cards[p]):
            return 21
        player_cards(cfg, P, cards)
        for i in range(2):
            if cards[i] & ~pub_cards[p][i]:
                return 22               # a player's cards come from what it held at the reveal
            gone = pub_cards[p][i] & ~cards[i]
            if gone & ~s.disc[i]:
                return 22               # and what left went to the discard pile
            if cfg.open_workshop:
                if gone & ~s.disc_pub[i]:
                    return 22           # seen by the others at once in an open workshop
            else:
                if gone & s.disc_pub[i]:
                    return 22           # unseen by the others until a closed workshop ends
                for q in range(n):      # nor known to any other seat in private (only ``to_discard`` tells)
                    if q != p and gone & s.priv_disc[q][i]:
                        return 22
            if gone & ~s.priv_disc[p][i]:
                return 22               # but known to the seat that discarded them
            if pub_cards[p][i] & today_broken[i]:
                return 22
            if P.hand[i] & ~s.pub[p].hand[i]:
                return 22
        if s.pub[p].ext & ~P.ext:
            return 23
        for t in range(NUM_TYPES):
            if s.pub[p].structure[t] != NO_CARD and s.pub[p].structure[t] != P.structure[t]:
                return 23
            if s.pub[p].nup[t] > P.nup[t]:
                return 23
            for k in range(s.pub[p].nup[t]):
                if s.pub[p].up[t][k] != P.up[t][k]:
                    return 23
        for q in range(p):
            if (pub_cards[p][0] & pub_cards[q][0]) or (pub_cards[p][1] & pub_cards[q][1]):
                return 24
    return 0


# -- a heuristic evaluation (for one-ply bots: Game.evaluate) ---------------------------------------------------

cdef double BASE_CUBE_VALUE[NUM_RES]
BASE_CUBE_VALUE[0] = 0.35      # by scarcity: the dice give 7/6, 4/6, 3/6, 2/6 cubes a day
BASE_CUBE_VALUE[1] = 0.45
BASE_CUBE_VALUE[2] = 0.55
BASE_CUBE_VALUE[3] = 0.7


cdef int32_t potential_score(const SYConfig* cfg, const Player* P) noexcept nogil:
    """The scoring as if every missing Structure were a standard one."""
    cdef Player Q = P[0]
    cdef int t
    for t in range(NUM_TYPES):
        if Q.structure[t] == NO_CARD:
            Q.structure[t] = STANDARD
    return player_score(cfg, &Q)


cdef double SLOT_VALUE = 0.3          # an empty Upgrade slot: room for a later Upgrade
cdef double SYNERGY = 0.8             # x X: what an Upgrade's family is expected to gain from company later


cdef double robot_value(const SYConfig* cfg, const Player* P, double missing_penalty, bint last_day) noexcept nogil:
    """Before the last day: the robot as if its missing Structures were standard ones, minus a penalty per
    missing Structure, plus an option value per free Upgrade slot. On the last day: the official score (a robot
    still missing k Structures is worth -k, below the 0 it will score)."""
    cdef int t, missing = 0, free = 0, slots
    for t in range(NUM_TYPES):
        if P.structure[t] == NO_CARD:
            missing += 1
            slots = cfg.std_slots
        else:
            slots = cfg.std_slots if P.structure[t] == STANDARD else cfg.slots[P.structure[t]]
        free += slots - P.nup[t]
    if last_day:
        return player_score(cfg, P) if missing == 0 else -missing
    return potential_score(cfg, P) - missing_penalty * missing + SLOT_VALUE * free


cdef double card_use(const SYConfig* cfg, const Player* P, int c, double missing_penalty, bint last_day) noexcept nogil:
    """What assembling card c would add to ``robot_value`` at best (0 when it cannot go anywhere)."""
    cdef int t, slots
    cdef double best = 0.0, gain, base = robot_value(cfg, P, missing_penalty, last_day)
    cdef Player Q
    if cfg.kind[c] == KIND_STRUCTURE:
        t = cfg.stype[c]
        if P.structure[t] != NO_CARD:
            return 0.0
        Q = P[0]
        Q.structure[t] = <uint8_t>c
        gain = robot_value(cfg, &Q, missing_penalty, last_day) - base
        return gain if gain > 0 else 0.0
    for t in range(NUM_TYPES):
        if not (cfg.fits[c] >> t) & 1:
            continue
        slots = cfg.std_slots if P.structure[t] == NO_CARD or P.structure[t] == STANDARD \
            else cfg.slots[P.structure[t]]
        if P.nup[t] >= slots:
            continue
        Q = P[0]
        Q.up[t][Q.nup[t]] = <uint8_t>c
        Q.nup[t] += 1
        gain = robot_value(cfg, &Q, missing_penalty, last_day) - base
        if gain > best:
            best = gain
    if best > 0 and not last_day and cfg.family[c] != F_SOFTWARE:
        best += SYNERGY * cfg.x[c]        # Shields, Weapons, Movement and Boosts grow with company
    return best


cdef double finish_chance(const SYConfig* cfg, const Player* P, int c, const uint8_t* placed) noexcept nogil:
    """How much of what card c still needs is in stock (1.0: all of it)."""
    cdef double avail = 1.0, part
    cdef int r
    for r in range(NUM_RES):
        if cfg.rep[c][r] > placed[r]:
            part = P.res[r] / <double>(cfg.rep[c][r] - placed[r])
            if part < avail:
                avail = part
    return avail


cdef double heuristic(const SYConfig* cfg, const SYState* s, int seat) noexcept nogil:
    """The value of ``seat``'s own position (live, with its pending commitment as if done), in VP-like units.

    The weights do not change from day to day, so the end of a day (which the last seat to finish triggers) is
    worth nothing by itself; future deliveries count at their expected value. On the last day only what can
    still change the final ranking counts: the official score, what can be finished today, the tie-breaks."""
    cdef Player Q = s.pl[seat]
    cdef uint8_t none[NUM_RES]
    cdef int a = s.pending[seat], b, c, r, k, placed, need, free_benches = 0
    cdef double value = 0.0, waste_v, hours_v, base_f, slope_f, use, dem_v, prog, break_v, avail, expected
    cdef double cv[NUM_RES]
    cdef uint64_t cards_to_come[2]
    cdef uint64_t w
    # A seat that has finished today's workshop is valued as of the next day: that is what it sees when it is
    # the last to finish (its "done" ends the day), so finishing first or last is worth the same.
    cdef bint finished = s.phase == PH_WORKSHOP and (s.done >> seat) & 1
    cdef int day = s.day + (1 if finished else 0)
    cdef bint last_day = day == cfg.days - 1
    cdef double missing_penalty = 2.0 + 3.0 * day
    if s.phase == PH_OVER or day == cfg.days:   # the score, with the tie-breaks (Waste, then resources) as decimals
        return player_score(cfg, &Q) + 0.02 * Q.waste + 0.001 * (Q.res[0] + Q.res[1] + Q.res[2] + Q.res[3])
    memset(none, 0, NUM_RES)
    for r in range(NUM_RES):
        cv[r] = 0.001 if last_day else BASE_CUBE_VALUE[r]
    waste_v = 0.02 if last_day else 0.25
    hours_v = 0.3 if s.phase != PH_WORKSHOP else (0.0 if finished or last_day else 0.1)
    break_v = waste_v + hours_v
    base_f = 0.35 - 0.05 * day           # a workbench card before any repair ...
    slope_f = 0.55 + 0.06 * day          # ... and what each repaired fraction adds
    cards_to_come[0] = s.reserve[seat][0]
    cards_to_come[1] = s.reserve[seat][1]
    if s.phase == PH_DRAFT:
        k = cs_count(Q.hand)
        if a == cfg.a_break:
            Q.waste = WASTE_CAP if Q.waste + k > WASTE_CAP else Q.waste + k
            Q.hours = HOURS_MAX if Q.hours + k > HOURS_MAX else Q.hours + k
        elif a != NO_PENDING:
            cs_add(cards_to_come, a - cfg.a_keep)
            value += (k - 1) * break_v * 0.9      # the rest of the draft: at worst, breaks
        else:
            value += k * break_v * 0.9
    elif s.phase == PH_PURCHASE and a != NO_PENDING and a != cfg.a_nobuy:
        Q.structure[a - cfg.a_buy] = STANDARD
        Q.waste -= BUY_COST
    elif s.phase == PH_DELIVERY and a != NO_PENDING:
        apply_overflow(&Q, a - cfg.a_overflow + 1)
    value += robot_value(cfg, &Q, missing_penalty, last_day)
    for b in range(cfg.nbench):
        c = Q.bench[b]
        if c == NO_CARD:
            free_benches += 1
            continue
        placed = 0
        need = 0
        dem_v = 0.0
        for r in range(NUM_RES):
            placed += Q.bench_rep[b][r]
            need += cfg.rep[c][r]
            dem_v += (cfg.dem[c][r] + Q.bench_rep[b][r]) * cv[r]
        prog = placed / <double>need
        avail = finish_chance(cfg, &Q, c, Q.bench_rep[b])
        if last_day and placed < need and (avail < 1.0 or (s.phase == PH_WORKSHOP and (finished or Q.hours == 0))):
            avail = 0.0                     # cannot be finished today: worth nothing
        use = card_use(cfg, &Q, c, missing_penalty, last_day) * (base_f + slope_f * prog) * (0.5 + 0.5 * avail)
        value += use if use > 0.6 * dem_v else 0.6 * dem_v
    # the cards to come into the workshop (the Reserve), or in hand there: worth less than on a workbench, and
    # nothing once the seat has finished for the day (its hand will be discarded)
    if s.phase == PH_WORKSHOP:
        cards_to_come[0] = 0 if finished else Q.hand[0]
        cards_to_come[1] = 0 if finished else Q.hand[1]
    for k in range(2):
        w = cards_to_come[k]
        while w:
            c = k * 64 + lowest_bit(w)
            w &= w - 1
            if last_day and (finish_chance(cfg, &Q, c, none) < 1.0 or free_benches == 0 or Q.hours == 0
                             and s.phase == PH_WORKSHOP):
                continue
            use = 0.8 * base_f * card_use(cfg, &Q, c, missing_penalty, last_day)
            dem_v = 0.0
            for r in range(NUM_RES):
                dem_v += cfg.dem[c][r] * cv[r]
            value += use if use > 0.4 * dem_v else 0.4 * dem_v
    for r in range(NUM_RES):
        value += Q.res[r] * cv[r]
        expected = 0.0
        for k in range(6):
            expected += cfg.dice[r][k] / 6.0
        value += expected * BASE_CUBE_VALUE[r] * (cfg.days - 1 - s.day)    # deliveries not yet rolled
    if last_day:
        value += Q.waste * waste_v
    else:
        value += (Q.waste if Q.waste < BUY_COST else BUY_COST) * waste_v     # beyond a purchase: worth less
        if Q.waste > BUY_COST:
            value += (Q.waste - BUY_COST) * 0.3 * waste_v
    value += Q.hours * hours_v
    # the deals still to come, at the value the draft gives a fresh hand (so that a day's end changes nothing)
    k = cfg.days - 1 - s.day + (1 if s.phase == PH_DELIVERY else 0)
    value += k * HAND_SIZE * (0.25 + 0.3) * 0.9
    return value


def evaluate(State state, int seat) -> float:
    """``heuristic`` for a seat of a valid state (the Game's ``evaluate``)."""
    cdef const SYConfig* cfg = <const SYConfig*>state.core.cfg
    if not 0 <= seat < cfg.nseats:
        raise ValueError("no such seat")
    return heuristic(cfg, <const SYState*>state.data, seat)


cdef int64_t sy_playout(const void* c, void* st, uint64_t* rng, int64_t max_len) noexcept nogil:
    """``random_playout_loop`` for Scrapyard: the kernel's loop that scans only the mask words move generation
    wrote (``sy_legal_mask_words``; Scrapyard has up to 41 mask words, a decision's actions mostly lie in one to
    three), with the same draws; should those hold no action, every word is scanned, as the generic loop does."""
    return random_playout_loop_words(sy_actors, sy_legal_mask_words, sy_apply,
                                     ((<const SYConfig*>c).num_actions + 63) >> 6, c, st, rng, max_len)


cdef EngineSpec SPEC
SPEC.state_size = sizeof(SYState)
SPEC.num_actions = 1        # set per config in make_core (it depends on the deck size and the workbenches)
SPEC.num_seats = 1
SPEC.init = sy_init
SPEC.actors = sy_actors
SPEC.legal_mask = sy_legal_mask
SPEC.legal_mask_words = sy_legal_mask_words
SPEC.apply = sy_apply
SPEC.scores = sy_scores
SPEC.rank_keys = sy_rank_keys
SPEC.validate = sy_validate
SPEC.playout = sy_playout


STATE_SIZE = sizeof(SYState)
PLAYER_SIZE = sizeof(Player)
#: The Merchant's price of a standard Structure, in Waste (for the readable texts of ``ScrapyardGame.glossary``).
BUY_COST_WASTE = BUY_COST


def action_layout(int ncards, int nbench) -> dict:
    """Offsets of the action blocks (the table at the top of this module) and ``num_actions``."""
    cdef int a = 0
    out = {}
    for name, size in (("keep", ncards), ("break", 1), ("buy", NUM_TYPES), ("nobuy", 1), ("place", ncards),
                       ("discard", nbench), ("assemble", NUM_TYPES * nbench), ("dismantle", nbench),
                       ("repair", REPAIR_CODES * nbench), ("exchange", NUM_RES), ("subcontract", 1),
                       ("expand", 2), ("clean", 1), ("done", 1), ("overflow", OVERFLOW_CODES)):
        out[name] = a
        a += size
    out["num_actions"] = a
    return out


def make_core(dict tables, int players, int workbenches, int days=DAYS, bint open_workshop=True) -> GameCore:
    """Compile the content tables (already validated by ScrapyardContent) and the parameters into a GameCore.

    ``tables``: ``kind, stype, vp, slots, bonus, family, x, target, fits`` (one int per card; -1 for "none"),
    ``rep``/``dem`` (4 ints per card), ``dice`` (4 x 6), ``std_vp``, ``std_slots``.
    """
    cdef SYConfig cfg
    cdef EngineSpec spec = SPEC
    cdef int i, r, ncards = len(tables["kind"])
    memset(&cfg, 0, sizeof(SYConfig))
    if not 1 <= ncards <= MAX_CARDS or not 2 <= players <= MAX_P or not 1 <= workbenches <= MAX_WB \
            or not 1 <= days <= DAYS:
        raise ValueError("content or parameters out of the engine's range")
    cfg.days = days
    cfg.open_workshop = open_workshop
    cfg.ncards = ncards
    cfg.nseats = players
    cfg.nbench = workbenches
    cfg.std_vp = tables["std_vp"]
    cfg.std_slots = tables["std_slots"]
    for i in range(ncards):
        cfg.kind[i] = tables["kind"][i]
        if cfg.kind[i] == KIND_STRUCTURE:
            cs_add(cfg.structures, i)
        for name in ("stype", "vp", "slots", "bonus", "family", "x", "target", "fits"):
            value = tables[name][i]
            if not -1 <= value <= 15:
                raise ValueError(f"{name} of card {i} out of range")
        cfg.stype[i] = tables["stype"][i] & 0xFF
        cfg.vp[i] = tables["vp"][i] & 0xFF
        cfg.slots[i] = tables["slots"][i] & 0xFF
        cfg.bonus[i] = NO_CARD if tables["bonus"][i] < 0 else tables["bonus"][i]
        cfg.family[i] = tables["family"][i] & 0xFF
        cfg.x[i] = tables["x"][i] & 0xFF
        cfg.target[i] = tables["target"][i] & 0xFF
        cfg.fits[i] = tables["fits"][i] & 0xFF
        if cfg.slots[i] > MAX_SLOTS or cfg.stype[i] >= NUM_TYPES and cfg.kind[i] == KIND_STRUCTURE:
            raise ValueError("slots or type out of range")
        for r in range(NUM_RES):
            if not 0 <= tables["rep"][i][r] <= MAX_REP or not 0 <= tables["dem"][i][r] <= MAX_REP:
                raise ValueError("REP/DEM out of range")
            cfg.rep[i][r] = tables["rep"][i][r]
            cfg.dem[i][r] = tables["dem"][i][r]
    for r in range(NUM_RES):
        for i in range(6):
            cfg.dice[r][i] = tables["dice"][r][i]
    layout = action_layout(ncards, workbenches)
    cfg.num_actions = layout["num_actions"]
    cfg.a_keep = layout["keep"]
    cfg.a_break = layout["break"]
    cfg.a_buy = layout["buy"]
    cfg.a_nobuy = layout["nobuy"]
    cfg.a_place = layout["place"]
    cfg.a_discard = layout["discard"]
    cfg.a_assemble = layout["assemble"]
    cfg.a_dismantle = layout["dismantle"]
    cfg.a_repair = layout["repair"]
    cfg.a_exchange = layout["exchange"]
    cfg.a_subcontract = layout["subcontract"]
    cfg.a_expand = layout["expand"]
    cfg.a_clean = layout["clean"]
    cfg.a_done = layout["done"]
    cfg.a_overflow = layout["overflow"]
    spec.num_actions = cfg.num_actions
    spec.num_seats = players
    if cfg.num_actions > 64 * SY_MASK_BUF:
        raise ValueError("Scrapyard's mask is at most SY_MASK_BUF words")
    spec.mask_scratch = SY_MASK_BUF - ((cfg.num_actions + 63) >> 6)   # sy_legal_mask_words zeroes SY_MASK_BUF words
    core = GameCore()
    from robotcore.games.scrapyard.view import NATIVE_HOOKS    # view.pyx cimports this module: read at make time
    take_native_hooks(&spec, NATIVE_HOOKS)
    core.bind(&spec, &cfg, sizeof(SYConfig))
    return core


cdef const SYState* _checked(GameCore core, const uint8_t[::1] raw) except NULL:
    if raw.shape[0] != sizeof(SYState):
        raise ValueError(f"a Scrapyard state is {sizeof(SYState)} bytes")
    if sy_validate(core.cfg, &raw[0]) != 0:
        raise ValueError(f"not a valid Scrapyard state (code {sy_validate(core.cfg, &raw[0])})")
    return <const SYState*>&raw[0]


def score_player_fields(GameCore core, const uint8_t[::1] raw, int seat, bint public) -> int:
    """The scoring of one seat's live (or public) position in a raw state (tests and tools)."""
    cdef const SYState* s = _checked(core, raw)
    if not 0 <= seat < (<const SYConfig*>core.cfg).nseats:
        raise ValueError("no such seat")
    return player_score(<const SYConfig*>core.cfg, public_player(<const SYConfig*>core.cfg, s, seat) if public
                        else &s.pl[seat])


def validate_code(GameCore core, const uint8_t[::1] raw) -> int:
    """The invariant check's code for raw struct bytes (0: valid)."""
    if raw.shape[0] != sizeof(SYState):
        return -1
    return sy_validate(core.cfg, &raw[0])


def overflow_codes(int m, int o, int e, int n, int ext) -> list:
    """The overflow codes (1..1295) legal for a stock (tests and tools)."""
    cdef Player P
    cdef int codes[64]
    cdef int k, cnt
    memset(&P, 0, sizeof(Player))
    if not (0 <= m <= 20 and 0 <= o <= 20 and 0 <= e <= 20 and 0 <= n <= 20 and 0 <= ext <= 3):
        raise ValueError("stock out of range")
    P.res[0] = m
    P.res[1] = o
    P.res[2] = e
    P.res[3] = n
    P.ext = ext
    if excess_mo(&P) > MAX_EXCESS or excess_en(&P) > MAX_EXCESS:
        raise ValueError("excess beyond what one gain can bring")
    cnt = overflow_choices(&P, codes)
    return [codes[k] for k in range(cnt)]


def zone_pair(int idx) -> tuple:
    """(a, b) discards of the zone pair index ``idx`` (0..35)."""
    if not 0 <= idx < ZONE_PAIRS:
        raise ValueError("zone pair index is 0..35")
    return (PAIR_A[idx], PAIR_B[idx])


def holder(GameCore core, const uint8_t[::1] raw, int track, int x) -> int:
    """Who held the hand dealt to seat ``track`` at pass ``x`` today (-1: broken earlier)."""
    cdef const SYState* s = _checked(core, raw)
    cdef int n = (<const SYConfig*>core.cfg).nseats
    if not 0 <= track < n or not 0 <= x <= s.step:
        raise ValueError("no such hand or pass")
    return track_holder(s, n, track, x)


# -- raw access for tests and tools (in-process only: this is the omniscient struct) ----------------------------

cdef void _set_words(uint64_t* w, object value) except *:
    w[0] = value & 0xFFFFFFFFFFFFFFFF
    w[1] = (value >> 64) & 0xFFFFFFFFFFFFFFFF


cdef object _words(const uint64_t* w):
    return int(w[0]) | (int(w[1]) << 64)


cdef dict _unpack_player(const Player* P):
    return {
        "hand": _words(P.hand),
        "bench": [P.bench[b] for b in range(MAX_WB)],
        "bench_rep": [[P.bench_rep[b][r] for r in range(NUM_RES)] for b in range(MAX_WB)],
        "structure": [P.structure[t] for t in range(NUM_TYPES)],
        "up": [[P.up[t][k] for k in range(MAX_SLOTS)] for t in range(NUM_TYPES)],
        "nup": [P.nup[t] for t in range(NUM_TYPES)],
        "res": [P.res[r] for r in range(NUM_RES)],
        "waste": P.waste,
        "hours": P.hours,
        "ext": P.ext,
    }


cdef void _pack_player(Player* P, dict f) except *:
    cdef int b, r, t, k
    _set_words(P.hand, f["hand"])
    for b in range(MAX_WB):
        P.bench[b] = f["bench"][b]
        for r in range(NUM_RES):
            P.bench_rep[b][r] = f["bench_rep"][b][r]
    for t in range(NUM_TYPES):
        P.structure[t] = f["structure"][t]
        P.nup[t] = f["nup"][t]
        for k in range(MAX_SLOTS):
            P.up[t][k] = f["up"][t][k]
    for r in range(NUM_RES):
        P.res[r] = f["res"][r]
    P.waste = f["waste"]
    P.hours = f["hours"]
    P.ext = f["ext"]


def unpack_state(const uint8_t[::1] raw) -> dict:
    """Every field of the struct as Python values (card sets as int bitsets)."""
    cdef SYState s
    cdef int p
    if raw.shape[0] != sizeof(SYState):
        raise ValueError(f"a Scrapyard state is {sizeof(SYState)} bytes")
    memcpy(&s, &raw[0], sizeof(SYState))
    return {
        "rng": s.rng,
        "deck": _words(s.deck),
        "disc": _words(s.disc),
        "disc_pub": _words(s.disc_pub),
        "priv_disc": [_words(s.priv_disc[p]) for p in range(MAX_P)],
        "reserve": [_words(s.reserve[p]) for p in range(MAX_P)],
        "pl": [_unpack_player(&s.pl[p]) for p in range(MAX_P)],
        "pub": [_unpack_player(&s.pub[p]) for p in range(MAX_P)],
        "pending": [s.pending[p] for p in range(MAX_P)],
        "day_card": [s.day_card[k] for k in range(MAX_DEALT)],
        "day_fate": [s.day_fate[k] for k in range(MAX_DEALT)],
        "dealt": [s.dealt[p] for p in range(MAX_P)],
        "broke_at": [s.broke_at[p] for p in range(MAX_P)],
        "dice": [s.dice[r] for r in range(NUM_RES)],
        "day": s.day,
        "phase": s.phase,
        "step": s.step,
        "done": s.done,
        "worked": [s.worked[p] for p in range(MAX_P)],
    }


def pack_state(dict f) -> bytes:
    """Inverse of ``unpack_state`` (no validation here: build a State with ``Game.state_from_row``)."""
    cdef SYState s
    cdef int p, k, r
    memset(&s, 0, sizeof(SYState))
    s.rng = f["rng"]
    _set_words(s.deck, f["deck"])
    _set_words(s.disc, f["disc"])
    _set_words(s.disc_pub, f["disc_pub"])
    for p in range(MAX_P):
        _set_words(s.priv_disc[p], f["priv_disc"][p])
        _set_words(s.reserve[p], f["reserve"][p])
        _pack_player(&s.pl[p], f["pl"][p])
        _pack_player(&s.pub[p], f["pub"][p])
        s.pending[p] = f["pending"][p]
        s.dealt[p] = f["dealt"][p]
        s.broke_at[p] = f["broke_at"][p]
        s.worked[p] = f["worked"][p]
    for k in range(MAX_DEALT):
        s.day_card[k] = f["day_card"][k]
        s.day_fate[k] = f["day_fate"][k]
    for r in range(NUM_RES):
        s.dice[r] = f["dice"][r]
    s.day = f["day"]
    s.phase = f["phase"]
    s.step = f["step"]
    s.done = f["done"]
    return (<char*>&s)[:sizeof(SYState)]
