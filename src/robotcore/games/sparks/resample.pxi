# Included by engine.pyx: the native determinisation of Sparks (EngineSpec.resample_prepare / resample_draw),
# the one sampler behind both search and view.resample (RULES.md, "Resampling", states what it samples).
#
# Robot cards: the cards a seat does not know (the deck's shuffled part, the cards under the deck it does not
# know, the cards another seat drew that it does not know) are exchangeable for it: they are shuffled among those
# places. Assistants: every card the seat may not place for sure sits in one *group* of what the seat saw of the
# draft: U0 (never seen: not dealt, or picked from a hand before the seat first held it), or (h, k), the cards of
# hand h the seat held at step k and did not see again (a *gap* when it held the hand again at step k + n: the
# n - 1 cards were picked in between, one by each other seat; else a *tail*: picked since, or still in the hand
# being passed, or left over to the deck). Each group has as many *slots* as cards: a pick (hand h, step s: the
# card goes to the picker), a place in the hand being passed (to its holder), the deck during the draft, or after
# it the *pool* (the deck, from which the seats drew their other cards). The cards another seat has played, and
# the ones this seat drew, are *pinned*: they must take a slot of their owner's (a pick of it, or the pool when
# it drew cards); the others are free.

cdef enum:
    SL_PICK = 0               # the card was picked: it goes to the picker (owner)
    SL_DHAND = 1              # still in the hand being passed (draft): to its holder (owner)
    SL_DECK = 2               # not dealt, during the draft: in the deck
    SL_POOL = 3               # after the draft: in the deck or drawn by a seat
    MAX_RG = 12               # groups: U0 and one per step at which the seat held a hand (hand_size <= 8)
    RS_ERR_STATE = 1
    RS_ERR_COUNT = 2
    RS_ERR_PIN = 3
    RS_MAX_STATES = 512       # the exact routing's table: per-seat counts of pinned cards sent to the pool


ctypedef struct SPResample:
    int32_t seat
    int32_t ncards                    # assistants to place
    int32_t nslots                    # = ncards
    int32_t nrobots                   # robot cards the seat does not know
    int32_t ngroups
    uint8_t card[MAX_ASSIST]          # the cards to place, in card order
    uint8_t cgroup[MAX_ASSIST]
    uint8_t cpin[MAX_ASSIST]          # owner of a pinned card, else NO_CARD
    uint8_t sgroup[MAX_ASSIST]        # the slots: group, kind, owner, the draft record a card there gets
    uint8_t skind[MAX_ASSIST]
    uint8_t sowner[MAX_ASSIST]
    uint8_t srec[MAX_ASSIST]
    uint8_t draws[MAX_P]              # cards each seat drew from the deck after the draft
    uint8_t rcard[64]                 # the robot cards the seat does not know, in card order
    # the exact routing of the pinned cards (pick or pool), read once: counts by group and owner, and the table
    # ``f[g][s]``: the weight of the routings of the groups before g that send s (a mixed-radix vector over the
    # seats: how many of each seat's pinned cards) to the pool; row ngroups holds the complete weights
    int32_t exact                     # 1: the table below is filled (else the sequential test, RULES.md)
    int32_t nstates
    int32_t npool                     # pool slots in all
    int32_t stride[MAX_P]
    int32_t fixed[MAX_P]              # a seat's pinned cards sent to the pool when that is forced, else -1
    int32_t cnt[MAX_RG * MAX_P]
    int32_t fpick[MAX_RG * MAX_P]
    int32_t fpool[MAX_RG]
    double fact[MAX_ASSIST + 1]
    double f[(MAX_RG + 1) * RS_MAX_STATES]


cdef inline void rs_slot(SPResample* r, int g, int kind, int owner, int rec) noexcept nogil:
    if r.nslots < MAX_ASSIST:
        r.sgroup[r.nslots] = <uint8_t>g
        r.skind[r.nslots] = <uint8_t>kind
        r.sowner[r.nslots] = <uint8_t>owner
        r.srec[r.nslots] = <uint8_t>rec
    r.nslots += 1


cdef int sp_resample_prepare(const void* c, const void* st, int seat, void* scratch) noexcept nogil:
    """What ``seat`` knows in ``st``, read once: the robot cards it does not know, and the assistants' groups,
    slots and pins (above)."""
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef const SPState* s = <const SPState*>st
    cdef SPResample* r = <SPResample*>scratch
    cdef int n = cfg.nseats, R = s.dstep, L = cfg.draft_deal if cfg.draft else 0, kmax, h, k, k0, j, a, g
    cdef int rec, ps, lim, p
    cdef bint drafting = s.phase == PH_DRAFT
    cdef int gid[MAX_P][16]
    cdef int gslots[MAX_RG]
    cdef int gcards[MAX_RG]
    cdef uint64_t unknown = s.pool
    cdef uint32_t bit, mine = s.pl[seat].hand | s.pl[seat].played, mine_draft
    if seat < 0 or seat >= n:
        return RS_ERR_STATE
    r.seat = seat                            # (not the whole struct: its routing table is large)
    r.ncards = r.nslots = r.nrobots = 0
    for p in range(MAX_P):
        r.draws[p] = 0
    # robot cards
    for j in range(s.nbottom):
        if not (bottom_knowers(s, j) >> seat) & 1:
            unknown |= (<uint64_t>1) << (s.bottom[j] & 63)
    for p in range(n):
        for j in range(s.pl[p].nbuf):
            if not (s.pl[p].bufk[j] >> seat) & 1:
                unknown |= (<uint64_t>1) << s.pl[p].buf[j]
    while unknown:
        r.rcard[r.nrobots] = <uint8_t>lowest_bit(unknown)
        unknown &= unknown - 1
        r.nrobots += 1
    # assistants: the groups and their slots
    kmax = R if drafting else R - 1
    r.ngroups = 1
    for h in range(MAX_P):
        for k in range(16):
            gid[h][k] = -1
    for h in range(n if cfg.draft else 0):
        k0 = (seat - h + n) % n             # the step at which the seat first held hand h
        for k in range(min(k0, R) if k0 <= kmax else R):
            rs_slot(r, 0, SL_PICK, (h + k) % n, AR_DEALT | (h << 4) | k)
        if k0 > kmax:                        # never held yet: the whole hand is unseen
            for j in range(L - R):
                rs_slot(r, 0, SL_DHAND if drafting else SL_POOL, (h + R) % n, AR_DEALT | (h << 4) | AR_UNPICKED)
        k = k0
        while k <= kmax:
            if not (drafting and k == R):      # the hand the seat holds now: its cards are the seat's
                if r.ngroups >= MAX_RG:
                    return RS_ERR_STATE
                g = r.ngroups
                r.ngroups += 1
                gid[h][k] = g
                if k + n <= kmax:
                    for j in range(k + 1, k + n):
                        rs_slot(r, g, SL_PICK, (h + j) % n, AR_DEALT | (h << 4) | j)
                else:
                    for j in range(k + 1, R):
                        rs_slot(r, g, SL_PICK, (h + j) % n, AR_DEALT | (h << 4) | j)
                    for j in range(L - R):
                        rs_slot(r, g, SL_DHAND if drafting else SL_POOL, (h + R) % n,
                                AR_DEALT | (h << 4) | AR_UNPICKED)
            k += n
    for j in range(cfg.nassist - n * L):
        rs_slot(r, 0, SL_DECK if drafting else SL_POOL, 0, 0)
    # the cards
    mine_draft = draft_hand(cfg, s, seat)
    for a in range(cfg.nassist):
        bit = (<uint32_t>1) << a
        rec = s.arec[a]
        h = (rec >> 4) & 7
        ps = rec & 15
        if drafting and mine_draft & bit:
            continue
        if rec & AR_DEALT and ps != AR_UNPICKED and (h + ps) % n == seat:
            continue                         # its own pick
        g = 0
        if rec & AR_DEALT:
            lim = kmax if ps == AR_UNPICKED else min(ps, kmax)
            k0 = (seat - h + n) % n
            if k0 <= lim:
                g = gid[h][k0 + ((lim - k0) // n) * n]
                if g < 0:
                    return RS_ERR_STATE
        if r.ncards >= MAX_ASSIST:
            return RS_ERR_STATE
        r.card[r.ncards] = <uint8_t>a
        r.cgroup[r.ncards] = <uint8_t>g
        r.cpin[r.ncards] = NO_CARD
        if mine & bit:
            r.cpin[r.ncards] = <uint8_t>seat
        else:
            for p in range(n):
                if s.pl[p].played & bit:
                    r.cpin[r.ncards] = <uint8_t>p
        r.ncards += 1
    if r.ncards != r.nslots:
        return RS_ERR_COUNT
    for g in range(MAX_RG):
        gslots[g] = 0
        gcards[g] = 0
    for j in range(r.nslots):
        gslots[r.sgroup[j]] += 1
        gcards[r.cgroup[j]] += 1
    for g in range(r.ngroups):
        if gslots[g] != gcards[g]:
            return RS_ERR_COUNT
    if not drafting:
        for p in range(n):
            r.draws[p] = <uint8_t>(popcount(s.pl[p].hand | s.pl[p].played) - R)
    rs_exact_table(r, n)
    return 0


cdef inline double rs_ff(const SPResample* r, int m, int k) noexcept nogil:
    """m! / (m - k)!: ordered ways to put k distinct cards on m slots (0 when k > m)."""
    if k < 0 or k > m:
        return 0.0
    return r.fact[m] / r.fact[m - k]


cdef double rs_group_weight(const SPResample* r, int g, int n, const int* y) noexcept nogil:
    """The placements of group g's pinned cards with y[p] of owner p's on the group's pool slots and the others on
    their owner's picks: which ones (a binomial), on which picks, on which pool slots."""
    cdef double w = 1.0
    cdef int p, c, total = 0
    for p in range(n):
        c = r.cnt[g * MAX_P + p]
        w *= r.fact[c] / (r.fact[y[p]] * r.fact[c - y[p]]) * rs_ff(r, r.fpick[g * MAX_P + p], c - y[p])
        total += y[p]
    return w * rs_ff(r, r.fpool[g], total)


cdef bint rs_next_vector(int* y, const int* lo, const int* hi, int n) noexcept nogil:
    """The next vector lo <= y <= hi in mixed radix; False after the last."""
    cdef int p
    for p in range(n):
        if y[p] < hi[p]:
            y[p] += 1
            return True
        y[p] = lo[p]
    return False


cdef void rs_bounds(const SPResample* r, int g, int n, int* lo, int* hi) noexcept nogil:
    """How many of owner p's pinned cards in group g may go to the pool: those its picks there cannot hold must,
    and no more than the group's pool slots or the owner's draws."""
    cdef int p, c
    for p in range(n):
        c = r.cnt[g * MAX_P + p]
        lo[p] = max(0, c - r.fpick[g * MAX_P + p])
        hi[p] = min(c, min(r.fpool[g], <int>r.draws[p]))


cdef void rs_exact_table(SPResample* r, int n) noexcept nogil:
    """Fill the routing table (``exact`` = 0 when it would not fit). A world is a placement of every card; given the
    pinned cards' routes, the free cards' placements number (free cards of each group)! times, for the deck pool,
    the owners' draws taken by pinned cards, ordered, times (pool cards left)!: so each routing weighs its
    placements times those counts, and drawing a routing by that weight, then its placement uniformly, draws a
    world uniformly. Only the seats with a real choice (some group where a pinned card may be a pick or go to the
    pool) are counted in the table's state; the others' counts are fixed."""
    cdef int g, p, j, st, nxt, sy
    cdef int y[MAX_P]
    cdef int lo[MAX_P]
    cdef int hi[MAX_P]
    cdef int fixed[MAX_P]
    cdef int radix[MAX_P]
    cdef double w
    cdef bint ok
    r.exact = 0
    r.fact[0] = 1.0
    for j in range(1, MAX_ASSIST + 1):
        r.fact[j] = r.fact[j - 1] * j
    r.npool = 0
    for j in range(MAX_RG * MAX_P):
        r.cnt[j] = 0
        r.fpick[j] = 0
    for g in range(MAX_RG):
        r.fpool[g] = 0
    for j in range(r.nslots):
        if r.skind[j] == SL_PICK:
            r.fpick[r.sgroup[j] * MAX_P + r.sowner[j]] += 1
        elif r.skind[j] == SL_POOL:
            r.fpool[r.sgroup[j]] += 1
            r.npool += 1
    for j in range(r.ncards):
        if r.cpin[j] != NO_CARD:
            r.cnt[r.cgroup[j] * MAX_P + r.cpin[j]] += 1
    for p in range(MAX_P):
        fixed[p] = 0
        radix[p] = 1
    for g in range(r.ngroups):
        rs_bounds(r, g, n, lo, hi)
        for p in range(n):
            fixed[p] += lo[p]
            if hi[p] > lo[p]:
                radix[p] = r.draws[p] + 1
    r.nstates = 1
    for p in range(n):
        r.stride[p] = r.nstates
        r.nstates *= radix[p]
        r.fixed[p] = fixed[p] if radix[p] == 1 else -1
        if r.nstates > RS_MAX_STATES:
            return
    for st in range((r.ngroups + 1) * r.nstates):
        r.f[st] = 0.0
    r.f[0] = 1.0
    for g in range(r.ngroups):
        rs_bounds(r, g, n, lo, hi)
        for st in range(r.nstates):
            if r.f[g * r.nstates + st] == 0.0:
                continue
            for p in range(n):
                y[p] = lo[p]
            while True:
                nxt = st
                ok = True
                for p in range(n):
                    if r.fixed[p] < 0:
                        if (st // r.stride[p]) % (r.draws[p] + 1) + y[p] > r.draws[p]:
                            ok = False
                            break
                        nxt += y[p] * r.stride[p]
                if ok:
                    w = rs_group_weight(r, g, n, y)
                    if w > 0.0:
                        r.f[(g + 1) * r.nstates + nxt] += r.f[g * r.nstates + st] * w
                if not rs_next_vector(y, lo, hi, n):
                    break
    g = r.ngroups
    for st in range(r.nstates):
        sy = 0
        w = 1.0
        for p in range(n):
            j = r.fixed[p] if r.fixed[p] >= 0 else (st // r.stride[p]) % (r.draws[p] + 1)
            sy += j
            w *= rs_ff(r, r.draws[p], j)
        w = 0.0 if sy > r.npool else w * r.fact[r.npool - sy]
        r.f[g * r.nstates + st] *= w
    r.exact = 1


cdef int rs_exact_routes(const SPResample* r, uint64_t* rng, int n, int* route) noexcept nogil:
    """Draw how many pinned cards of each group and owner go to the pool (``route[g * MAX_P + p]``) with the
    probability of the worlds they leave: the complete state by its weight, then each group's share backwards."""
    cdef int g, p, st = -1, prev, i, k
    cdef int y[MAX_P]
    cdef int lo[MAX_P]
    cdef int hi[MAX_P]
    cdef int keep[MAX_P]
    cdef int keep_prev = -1
    cdef double total = 0.0, u, w
    cdef const double* last = &r.f[r.ngroups * r.nstates]
    for i in range(r.nstates):
        total += last[i]
    if not total > 0.0:
        return RS_ERR_PIN
    u = rng_unit(rng) * total
    for i in range(r.nstates):
        if last[i] > 0.0:
            st = i
            if u < last[i]:
                break
            u -= last[i]
    g = r.ngroups - 1
    while g >= 0:
        rs_bounds(r, g, n, lo, hi)
        total = 0.0
        for k in range(2):                    # the total, then the pick
            if k == 1:
                if not total > 0.0:
                    return RS_ERR_PIN
                u = rng_unit(rng) * total
            for p in range(n):
                y[p] = lo[p]
            while True:
                prev = st
                for p in range(n):
                    if r.fixed[p] < 0:
                        if y[p] > (st // r.stride[p]) % (r.draws[p] + 1):
                            prev = -1
                            break
                        prev -= y[p] * r.stride[p]
                w = 0.0 if prev < 0 else r.f[g * r.nstates + prev] * rs_group_weight(r, g, n, y)
                if k == 0:
                    total += w
                elif w > 0.0:
                    for p in range(n):
                        keep[p] = y[p]
                    keep_prev = prev
                    if u < w:
                        break
                    u -= w
                if not rs_next_vector(y, lo, hi, n):
                    if k == 1:                    # rounding left u past the last weight: take that one
                        for p in range(n):
                            y[p] = keep[p]
                        prev = keep_prev
                    break
        for p in range(n):
            route[g * MAX_P + p] = y[p]
        st = prev
        g -= 1
    return 0


cdef bint rs_feasible(int ngroups, int n, const int* cnt, const int* fpick, const int* fpool,
                      const int* quota) noexcept nogil:
    """Whether the pinned cards still to place (``cnt`` by group and owner) fit: each needs a free pick of its
    owner in its group or a pool slot of the group within its owner's draws. The fewest pool slots are used when
    every card that can be a pick is one, so the test is on those least needs."""
    cdef int g, p, need
    cdef int per_seat[MAX_P]
    for p in range(n):
        per_seat[p] = 0
    for g in range(ngroups):
        need = 0
        for p in range(n):
            if cnt[g * MAX_P + p] > fpick[g * MAX_P + p]:
                need += cnt[g * MAX_P + p] - fpick[g * MAX_P + p]
                per_seat[p] += cnt[g * MAX_P + p] - fpick[g * MAX_P + p]
        if need > fpool[g]:
            return False
    for p in range(n):
        if per_seat[p] > quota[p]:
            return False
    return True


cdef int rs_nth_free(const SPResample* r, const uint8_t* used, int g, int kind, int owner, int k) noexcept nogil:
    """The k-th free slot of group g of that kind (and owner, for a pick)."""
    cdef int j
    for j in range(r.nslots):
        if not used[j] and r.sgroup[j] == g and r.skind[j] == kind and (kind != SL_PICK or r.sowner[j] == owner):
            if k == 0:
                return j
            k -= 1
    return -1


cdef int sp_resample_draw(const void* c, const void* scratch, const void* st, int seat, void* out,
                          uint64_t* rng) noexcept nogil:
    """A fresh state consistent with everything ``seat`` knows (``scratch`` from ``sp_resample_prepare``)."""
    cdef const SPConfig* cfg = <const SPConfig*>c
    cdef const SPResample* r = <const SPResample*>scratch
    cdef const SPState* src = <const SPState*>st
    cdef SPState* s = <SPState*>out
    cdef int n = cfg.nseats, i, j, p, g, pos = 0, wp, wq, pick, e, m, a, k
    cdef uint8_t tmp[64]
    cdef uint8_t order[MAX_ASSIST]
    cdef uint8_t used[MAX_ASSIST]
    cdef uint8_t slots[MAX_ASSIST]
    cdef int route[MAX_RG * MAX_P]
    cdef int cslot[MAX_ASSIST]
    cdef int cnt[MAX_RG * MAX_P]          # pinned cards still to place, by group and owner
    cdef int fpick[MAX_RG * MAX_P]        # free picks, by group and owner
    cdef int fpool[MAX_RG]
    cdef int quota[MAX_P]
    cdef int rest[MAX_P]
    cdef bint ok_pick, ok_pool
    cdef uint32_t bit
    if r.seat != seat:
        return RS_ERR_STATE
    memcpy(s, src, sizeof(SPState))
    # robot cards: shuffled among the places the seat does not know
    for i in range(r.nrobots):
        tmp[i] = r.rcard[i]
    rng_shuffle_u8(rng, tmp, r.nrobots)
    for i in range(s.nbottom):
        if not (bottom_knowers(s, i) >> seat) & 1:
            s.bottom[i] = <uint8_t>((s.bottom[i] & 0xC0) | tmp[pos])
            pos += 1
    for p in range(n):
        for i in range(s.pl[p].nbuf):
            if not (s.pl[p].bufk[i] >> seat) & 1:
                s.pl[p].buf[i] = tmp[pos]
                pos += 1
    s.pool = 0
    while pos < r.nrobots:
        s.pool |= (<uint64_t>1) << tmp[pos]
        pos += 1
    # assistants: the pinned cards first, in a random order, each on a free slot it may take
    for g in range(MAX_RG):
        fpool[g] = 0
        for p in range(MAX_P):
            cnt[(g) * MAX_P + p] = 0
            fpick[(g) * MAX_P + p] = 0
    for p in range(MAX_P):
        quota[p] = r.draws[p]
        rest[p] = r.draws[p]
    m = 0
    for j in range(r.nslots):
        used[j] = 0
        if r.skind[j] == SL_PICK:
            fpick[r.sgroup[j] * MAX_P + r.sowner[j]] += 1
        elif r.skind[j] == SL_POOL:
            fpool[r.sgroup[j]] += 1
    for i in range(r.ncards):
        cslot[i] = -1
        if r.cpin[i] != NO_CARD:
            order[m] = <uint8_t>i
            m += 1
            cnt[r.cgroup[i] * MAX_P + r.cpin[i]] += 1
    if r.exact:
        if rs_exact_routes(r, rng, n, route) != 0:
            return RS_ERR_PIN
        m = 0                                # exact: the routes drawn, the placements uniform
    else:
        rng_shuffle_u8(rng, order, m)
    for g in range(r.ngroups if r.exact else 0):
        for p in range(n):
            k = 0
            for i in range(r.ncards):
                if r.cpin[i] == p and r.cgroup[i] == g:
                    tmp[k] = <uint8_t>i
                    k += 1
            rng_shuffle_u8(rng, tmp, k)
            for j in range(k):
                cslot[tmp[j]] = -2 if j < route[g * MAX_P + p] else -3     # -2: to the pool, -3: a pick
            rest[p] -= route[g * MAX_P + p]
            # the picks: the owner's free picks in the group, shuffled
            e = 0
            for j in range(r.nslots):
                if r.sgroup[j] == g and r.skind[j] == SL_PICK and r.sowner[j] == p:
                    slots[e] = <uint8_t>j
                    e += 1
            rng_shuffle_u8(rng, slots, e)
            pos = 0
            for j in range(k):
                if cslot[tmp[j]] == -3:
                    cslot[tmp[j]] = slots[pos]
                    used[slots[pos]] = 1
                    pos += 1
        # the pool: the group's pool slots, shuffled, for its pinned cards sent there
        e = 0
        for j in range(r.nslots):
            if r.sgroup[j] == g and r.skind[j] == SL_POOL:
                slots[e] = <uint8_t>j
                e += 1
        rng_shuffle_u8(rng, slots, e)
        pos = 0
        for i in range(r.ncards):
            if cslot[i] == -2 and r.cgroup[i] == g:
                if pos >= e:
                    return RS_ERR_PIN
                cslot[i] = slots[pos]
                used[slots[pos]] = 1
                pos += 1
    for j in range(m):
        i = order[j]
        g = r.cgroup[i]
        p = r.cpin[i]
        cnt[(g) * MAX_P + p] -= 1
        ok_pick = ok_pool = False
        if fpick[(g) * MAX_P + p] > 0:
            fpick[(g) * MAX_P + p] -= 1
            ok_pick = rs_feasible(r.ngroups, n, cnt, fpick, fpool, quota)
            fpick[(g) * MAX_P + p] += 1
        if fpool[g] > 0 and quota[p] > 0:
            fpool[g] -= 1
            quota[p] -= 1
            ok_pool = rs_feasible(r.ngroups, n, cnt, fpick, fpool, quota)
            fpool[g] += 1
            quota[p] += 1
        wp = fpick[(g) * MAX_P + p] if ok_pick else 0
        wq = fpool[g] if ok_pool else 0
        if wp + wq == 0:
            return RS_ERR_PIN
        pick = <int>rng_below(rng, <uint32_t>(wp + wq))
        if pick < wp:
            e = rs_nth_free(r, used, g, SL_PICK, p, pick)
            fpick[(g) * MAX_P + p] -= 1
        else:
            e = rs_nth_free(r, used, g, SL_POOL, p, pick - wp)
            fpool[g] -= 1
            quota[p] -= 1
            rest[p] -= 1
        if e < 0:
            return RS_ERR_PIN
        used[e] = 1
        cslot[i] = e
    # then every free card of a group on the group's free slots, uniformly
    for g in range(r.ngroups):
        m = 0
        for i in range(r.ncards):
            if cslot[i] < 0 and r.cgroup[i] == g:
                order[m] = <uint8_t>i
                m += 1
        rng_shuffle_u8(rng, order, m)
        pos = 0
        for j in range(r.nslots):
            if not used[j] and r.sgroup[j] == g:
                if pos >= m:
                    return RS_ERR_COUNT
                cslot[order[pos]] = j
                used[j] = 1
                pos += 1
        if pos != m:
            return RS_ERR_COUNT
    # the cards to their places; the free cards of the pool are dealt to the other seats' draws and the deck
    s.adeck = 0
    for p in range(n):
        if p != seat:
            s.pl[p].hand = 0
    m = 0
    for i in range(r.ncards):
        a = r.card[i]
        e = cslot[i]
        bit = (<uint32_t>1) << a
        s.arec[a] = r.srec[e]
        if r.cpin[i] != NO_CARD:
            continue
        if r.skind[e] == SL_PICK:
            s.pl[r.sowner[e]].hand |= bit
        elif r.skind[e] == SL_DHAND:
            pass                             # its record puts it in the hand being passed (draft_hand)
        elif r.skind[e] == SL_DECK:
            s.adeck |= bit
        else:
            tmp[m] = <uint8_t>a
            m += 1
    rng_shuffle_u8(rng, tmp, m)
    pos = 0
    for p in range(n):
        if p == seat:
            continue
        for i in range(rest[p]):
            if pos >= m:
                return RS_ERR_COUNT
            s.pl[p].hand |= (<uint32_t>1) << tmp[pos]
            pos += 1
    while pos < m:
        s.adeck |= (<uint32_t>1) << tmp[pos]
        pos += 1
    for p in range(n):
        if p != seat and s.phase == PH_DRAFT and s.dpick[p] != NO_CARD:
            bit = draft_hand(cfg, s, p)
            s.dpick[p] = <uint8_t>nth_set_bit(bit, <int>rng_below(rng, <uint32_t>popcount(bit)))
    s.rng = rng_seed(rng_next(rng))
    return 0
