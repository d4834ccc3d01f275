# cython: language_level=3
"""What each seat may see of a Scrapyard state (views, observation tensors) and re-dealing what it may not
(``resample``, the determinisation hook for ISMCTS/PIMC search).

Hidden from a seat: the deck and the unseen part of the discard pile; during the draft and the purchase, the
other seats' hands and Reserves (only their backs — Structure or Upgrade — are public) and the cards they broke;
every other seat's pending commitment (a draft choice, a purchase, an overflow discard); during a closed workshop
(``open_workshop=False``), the other seats' work since the reveal (they are seen as revealed until everybody is
done, with the number of actions each has taken; in the seed's open workshop every action is seen as it
happens); the PRNG.

A seat remembers every hand it held today, pass by pass (perfect recall). Since the draft's routing is public
(who broke at which pass, the day's direction), it knows where each of those hands went, so resampling
re-deals, for each hand, only what happened to it out of the seat's sight (module ``resample``).
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from cpython.pycapsule cimport PyCapsule_New
from libc.math cimport exp
from libc.string cimport memcpy, memset

from robotcore.core.bits cimport lowest_bit, popcount
from robotcore.core.rng cimport rng_below, rng_next, rng_seed
from robotcore.core.state cimport MAX_MASK_WORDS, EngineSpec, State
from robotcore.games.scrapyard.engine cimport (
    cap_en, cap_mo, check_log, cs_count, day_dir, fate_step, heuristic, known_broken_today, legal_for,
    player_cards, player_score, public_player, robot_complete, track_holder,
)
from robotcore.games.scrapyard.state cimport (
    FATE_BROKEN, FATE_KEPT, HAND_SIZE, KIND_STRUCTURE, MAX_CARDS, MAX_DEALT, MAX_P, MAX_WB, NO_CARD,
    NO_PENDING, NOT_BROKEN, NUM_RES, NUM_TYPES, PH_DELIVERY, PH_DRAFT, PH_OVER, PH_PURCHASE, PH_WORKSHOP,
    STANDARD, Player, SYConfig, SYState, broken_today, cs_add, cs_del, cs_has,
)

import numpy as np

from robotcore.games.scrapyard.data import RES_LETTERS, RESOURCES, TYPES

cnp.import_array()

PHASES = ("delivery", "draft", "purchase", "workshop", "over")

# observation layout (documented in RULES.md, "Observation")
cdef enum:
    PLANE_HAND = 0
    PLANE_RESERVE = 1
    PLANE_SEEN = 2
    PLANE_KNOWN_DISCARD = 3
    PLANE_BENCH = 4          # 4 planes: relative seats 0 (me) .. 3
    PLANE_ROBOT = 8          # 4 planes
    NUM_PLANES = 12
    PER_SEAT = 45           # res 4, waste, hours, ext 2, structures 4, standard 4, upgrades 4, hand 2,
                            # reserve 2, bench progress 16, broke, committed/done, score, complete, worked
    SEATS_AT = NUM_PLANES * MAX_CARDS
    GLOBALS_AT = SEATS_AT + MAX_P * PER_SEAT
    F_PHASE = GLOBALS_AT            # 5
    F_DAY = F_PHASE + 5             # 6
    F_STEP = F_DAY + 6              # 1
    F_DIRECTION = F_STEP + 1        # 1
    F_DICE = F_DIRECTION + 1        # 4
    F_DECK = F_DICE + 4             # 2: size, structures
    F_DISCARD = F_DECK + 2          # 2
    F_PENDING = F_DISCARD + 2       # 1: I have committed
    # appended (the places above stay): what the view shows and the blocks above left out
    # (offsets in floats; the 128-card planes here are written at an offset, not a plane number)
    AT_BENCH = F_PENDING + 1        # 4 planes (relative seats): (b + 1) / 4 at the card on workbench b
    AT_PUBLIC_DISCARD = AT_BENCH + MAX_P * MAX_CARDS            # the discard pile's public part
    AT_SEEN_LAST = AT_PUBLIC_DISCARD + MAX_CARDS                # (x + 1) / 8: the last pass x I saw it today
    AT_KEPT = AT_SEEN_LAST + MAX_CARDS                          # (x + 1) / 8: I kept it at pass x today
    F_BROKE_AT = AT_KEPT + MAX_CARDS                            # 4 (relative seats): (pass + 1) / 8 of the break
    F_KEPT_BACKS = F_BROKE_AT + MAX_P                           # 4 x 8 passes: kept a Structure 1, an Upgrade .5
    OBS_SIZE = F_KEPT_BACKS + MAX_P * 8


def observation_size(int players=4) -> int:
    return OBS_SIZE


OBSERVATION_SIZE = OBS_SIZE


cdef list _codes(object codes, const uint64_t* cards):
    out = []
    cdef int h
    cdef uint64_t w
    for h in range(2):
        w = cards[h]
        while w:
            out.append(codes[h * 64 + lowest_bit(w)])
            w &= w - 1
    return out


cdef dict _backs(const SYConfig* cfg, const uint64_t* cards):
    cdef int st = popcount(cards[0] & cfg.structures[0]) + popcount(cards[1] & cfg.structures[1])
    return {"structures": st, "upgrades": cs_count(cards) - st}


cdef str _cubes(const uint8_t* counts):
    return "".join(RES_LETTERS[r] * counts[r] for r in range(NUM_RES))


cdef dict _player(game, const SYConfig* cfg, const Player* P, bint hand_public):
    codes = game.codes
    robot = {}
    cdef int t, b, c
    for t in range(NUM_TYPES):
        c = P.structure[t]
        robot[TYPES[t]] = {
            "structure": None if c == NO_CARD else ("standard" if c == STANDARD else codes[c]),
            "upgrades": [codes[P.up[t][k]] for k in range(P.nup[t])],
            "slots": 0 if c == NO_CARD else (cfg.std_slots if c == STANDARD else cfg.slots[c]),
        }
    benches = []
    for b in range(cfg.nbench):
        c = P.bench[b]
        benches.append({
            "bench": b + 1,
            "card": None if c == NO_CARD else codes[c],
            "placed": "" if c == NO_CARD else _cubes(P.bench_rep[b]),
            "rep": "" if c == NO_CARD else _cubes(cfg.rep[c]),
            "repaired": c != NO_CARD and all(P.bench_rep[b][r] >= cfg.rep[c][r] for r in range(NUM_RES)),
        })
    out = {
        "robot": robot,
        "complete": bool(robot_complete(P)),
        "benches": benches,
        "stock": {RESOURCES[0]: P.res[0], RESOURCES[1]: P.res[1], RESOURCES[2]: P.res[2],
                  RESOURCES[3]: P.res[3], "waste": P.waste},
        "capacity": {"mech_motor": cap_mo(P), "elec_energy": cap_en(P), "waste": 12},
        "extensions": {"left": bool(P.ext & 1), "right": bool(P.ext & 2)},
        "hours": P.hours,
        "hand_size": cs_count(P.hand),
        "hand_backs": _backs(cfg, P.hand),
        "hand": _codes(codes, P.hand) if hand_public else None,
    }
    return out


cdef list _reserve_backs(const SYConfig* cfg, const SYState* s, int p):
    """The backs of the cards seat p kept today, in the order it kept them (public: each lands face down)."""
    cdef int n = cfg.nseats, t, k, f, x
    cdef int kinds[8]
    for x in range(8):
        kinds[x] = -1
    if s.phase == PH_DELIVERY or s.phase == PH_OVER:
        return []
    for t in range(n):
        for k in range(s.dealt[t]):
            f = s.day_fate[t * HAND_SIZE + k]
            if f & FATE_KEPT and track_holder(s, n, t, fate_step(f)) == p:
                kinds[fate_step(f)] = cfg.kind[s.day_card[t * HAND_SIZE + k]]
    return ["structure" if kinds[x] == KIND_STRUCTURE else "upgrade" for x in range(8) if kinds[x] >= 0]


cdef void _public_discard(const SYConfig* cfg, const SYState* s, uint64_t* out) noexcept nogil:
    """The discard pile as the table sees it: during a closed workshop, without what seats discarded since the
    reveal (everybody learns it when the workshop ends)."""
    cdef int p
    cdef uint64_t pc[2]
    cdef uint64_t lc[2]
    out[0] = s.disc[0]
    out[1] = s.disc[1]
    if s.phase != PH_WORKSHOP or cfg.open_workshop:
        return
    for p in range(cfg.nseats):
        player_cards(cfg, &s.pub[p], pc)
        player_cards(cfg, &s.pl[p], lc)
        out[0] &= ~(pc[0] & ~lc[0])
        out[1] &= ~(pc[1] & ~lc[1])


cdef dict _public(game, State state):
    cdef const SYState* s = <const SYState*>state.data
    cdef const SYConfig* cfg = <const SYConfig*>state.core.cfg
    cdef int n = cfg.nseats, p
    cdef bint revealed = s.phase == PH_WORKSHOP or s.phase == PH_OVER
    cdef uint64_t disc[2]
    _public_discard(cfg, s, disc)
    players = []
    for p in range(n):
        entry = _player(game, cfg, public_player(cfg, s, p), revealed)
        entry["seat"] = p
        entry["broke_at_pass"] = None if s.broke_at[p] == NOT_BROKEN else s.broke_at[p]
        entry["reserve_backs"] = _reserve_backs(cfg, s, p)
        entry["committed"] = s.pending[p] != NO_PENDING
        entry["done"] = bool((s.done >> p) & 1) if s.phase == PH_WORKSHOP else False
        if not cfg.open_workshop:
            entry["worked"] = s.worked[p]       # a closed workshop's actions, seen as such (not what they are)
        players.append(entry)
    return {
        "game": "scrapyard",
        "day": s.day + 1 if s.phase != PH_OVER else s.day,
        "days": cfg.days,
        "phase": PHASES[s.phase],
        "terminal": s.phase == PH_OVER,
        "actors": state.actors,
        "direction": "left" if day_dir(s) == 1 else "right",
        "pass": s.step,
        "dice": {RESOURCES[r]: s.dice[r] for r in range(NUM_RES)},
        "deck": {"size": cs_count(s.deck), **_backs(cfg, s.deck)},
        "discard": {"size": cs_count(disc), **_backs(cfg, disc), "public": _codes(game.codes, s.disc_pub)},
        "players": players,
        "scores": state.scores(),
    }


cdef list _seen(game, const SYConfig* cfg, const SYState* s, int seat):
    """The hands ``seat`` held today, pass by pass, and what it did with each."""
    cdef int n = cfg.nseats, t, x, k, f
    cdef uint64_t contents[2]
    out = []
    if s.phase == PH_DELIVERY or s.phase == PH_OVER:
        return out
    for x in range(s.step + 1):
        for t in range(n):
            if track_holder(s, n, t, x) != seat:
                continue
            contents[0] = 0
            contents[1] = 0
            kept = None
            for k in range(s.dealt[t]):
                f = s.day_fate[t * HAND_SIZE + k]
                if f == 0 or fate_step(f) >= x:
                    cs_add(contents, s.day_card[t * HAND_SIZE + k])
                if f & FATE_KEPT and fate_step(f) == x:
                    kept = game.codes[s.day_card[t * HAND_SIZE + k]]
            if contents[0] == 0 and contents[1] == 0:
                continue
            if x < s.step:
                did = {"type": "keep", "card": kept} if kept is not None else {"type": "break"}
            else:
                did = None
            out.append({"pass": x, "dealt_to": t, "hand": _codes(game.codes, contents), "did": did})
    return out


def view(game, State state, seat) -> dict:
    """The public view (``players`` is the same in every view: what the table sees), plus for a seat what only
    it knows: its hand and Reserve, its pending commitment, every hand it held today (``seen``), the cards it
    knows are in the discard pile, and during the workshop its live position (``my_position``; the others see
    its position as revealed until every seat is done, in a closed workshop)."""
    cdef const SYState* s = <const SYState*>state.data
    cdef const SYConfig* cfg = <const SYConfig*>state.core.cfg
    cdef int me
    cdef uint64_t known[2]
    out = _public(game, state)
    out["seat"] = seat
    if seat is None:
        return out
    me = seat
    out["hand"] = _codes(game.codes, s.pl[me].hand)
    out["reserve"] = _codes(game.codes, s.reserve[me])
    out["pending"] = None if s.pending[me] == NO_PENDING else game.action_to_dict(s.pending[me])
    out["seen"] = _seen(game, cfg, s, me)
    known[0] = s.disc_pub[0] | s.priv_disc[me][0]
    known[1] = s.disc_pub[1] | s.priv_disc[me][1]
    out["known_discard"] = _codes(game.codes, known)
    out["my_position"] = _player(game, cfg, &s.pl[me], True) if s.phase == PH_WORKSHOP else None
    out["my_score"] = player_score(cfg, &s.pl[me])
    return out


def omniscient(game, State state) -> dict:
    cdef const SYState* s = <const SYState*>state.data
    cdef const SYConfig* cfg = <const SYConfig*>state.core.cfg
    cdef int p
    out = _public(game, state)
    out["seat"] = "omniscient"
    out["live"] = []
    for p in range(cfg.nseats):
        entry = _player(game, cfg, &s.pl[p], True)
        entry["reserve"] = _codes(game.codes, s.reserve[p])
        entry["pending"] = None if s.pending[p] == NO_PENDING else game.action_to_str(s.pending[p])
        entry["seen"] = _seen(game, cfg, s, p)
        out["live"].append(entry)
    out["deck_cards"] = _codes(game.codes, s.deck)
    out["discard_cards"] = _codes(game.codes, s.disc)
    return out


# -- observation ------------------------------------------------------------------------------------------------

cdef inline void _put(float* o, int plane, const uint64_t* cards) noexcept nogil:
    cdef int h
    cdef uint64_t w
    for h in range(2):
        w = cards[h]
        while w:
            o[plane * MAX_CARDS + h * 64 + lowest_bit(w)] = 1.0
            w &= w - 1


def observation(State state, int seat) -> cnp.ndarray:
    cdef const SYState* s = <const SYState*>state.data
    cdef const SYConfig* cfg = <const SYConfig*>state.core.cfg
    cdef cnp.ndarray arr = np.zeros(OBS_SIZE, dtype=np.float32)
    cdef float* o = <float*>cnp.PyArray_DATA(arr)
    cdef int n = cfg.nseats, rel, p, t, b, c, r, x, k, f, base
    cdef const Player* P
    cdef uint64_t cards[2]
    cdef uint64_t robot[2]
    _put(o, PLANE_HAND, s.pl[seat].hand)
    _put(o, PLANE_RESERVE, s.reserve[seat])
    if s.phase != PH_DELIVERY and s.phase != PH_OVER:
        for t in range(n):
            for x in range(s.step + 1):
                if track_holder(s, n, t, x) != seat:
                    continue
                for k in range(s.dealt[t]):
                    f = s.day_fate[t * HAND_SIZE + k]
                    if f == 0 or fate_step(f) >= x:
                        o[PLANE_SEEN * MAX_CARDS + s.day_card[t * HAND_SIZE + k]] = 1.0
                        # (appended below: the last pass at which it saw the card)
                        o[AT_SEEN_LAST + s.day_card[t * HAND_SIZE + k]] = (x + 1) / 8.0
    cards[0] = s.disc_pub[0] | s.priv_disc[seat][0]
    cards[1] = s.disc_pub[1] | s.priv_disc[seat][1]
    _put(o, PLANE_KNOWN_DISCARD, cards)
    for rel in range(n):
        p = (seat + rel) % n
        P = &s.pl[p] if p == seat else public_player(cfg, s, p)
        base = SEATS_AT + rel * PER_SEAT
        robot[0] = 0
        robot[1] = 0
        for b in range(cfg.nbench):
            c = P.bench[b]
            if c != NO_CARD:
                o[(PLANE_BENCH + rel) * MAX_CARDS + c] = 1.0
                o[AT_BENCH + rel * MAX_CARDS + c] = (b + 1) / <float>MAX_WB      # (appended: on which bench)
                for r in range(NUM_RES):
                    if cfg.rep[c][r]:
                        o[base + 24 + b * 4 + r] = P.bench_rep[b][r] / <float>cfg.rep[c][r]
        for t in range(NUM_TYPES):
            c = P.structure[t]
            if c != NO_CARD:
                o[base + 8 + t] = 1.0
                if c == STANDARD:
                    o[base + 12 + t] = 1.0
                else:
                    cs_add(robot, c)
            o[base + 16 + t] = P.nup[t] / 4.0
            for k in range(P.nup[t]):
                cs_add(robot, P.up[t][k])
        _put(o, PLANE_ROBOT + rel, robot)
        for r in range(NUM_RES):
            o[base + r] = P.res[r] / 10.0
        o[base + 4] = P.waste / 12.0
        o[base + 5] = P.hours / 7.0
        o[base + 6] = P.ext & 1
        o[base + 7] = (P.ext >> 1) & 1
        o[base + 20] = cs_count(P.hand) / 7.0
        o[base + 21] = (popcount(P.hand[0] & cfg.structures[0]) + popcount(P.hand[1] & cfg.structures[1])) / 7.0
        o[base + 22] = cs_count(s.reserve[p]) / 7.0
        o[base + 23] = (popcount(s.reserve[p][0] & cfg.structures[0])
                        + popcount(s.reserve[p][1] & cfg.structures[1])) / 7.0
        o[base + 40] = 0.0 if s.broke_at[p] == NOT_BROKEN else 1.0
        if s.broke_at[p] != NOT_BROKEN:
            o[F_BROKE_AT + rel] = (s.broke_at[p] + 1) / 8.0                # (appended: at which pass)
        o[base + 41] = (s.pending[p] != NO_PENDING) or ((s.done >> p) & 1 and s.phase == PH_WORKSHOP)
        o[base + 42] = player_score(cfg, P) / 60.0
        o[base + 43] = robot_complete(P)
        o[base + 44] = s.worked[p] / 32.0
    o[F_PHASE + s.phase] = 1.0
    o[F_DAY + (s.day if s.day < 6 else 5)] = 1.0
    o[F_STEP] = s.step / 8.0
    o[F_DIRECTION] = day_dir(s) == 1
    for r in range(NUM_RES):
        o[F_DICE + r] = s.dice[r] / 3.0
    o[F_DECK] = cs_count(s.deck) / 128.0
    o[F_DECK + 1] = (popcount(s.deck[0] & cfg.structures[0]) + popcount(s.deck[1] & cfg.structures[1])) / 16.0
    _public_discard(cfg, s, cards)
    o[F_DISCARD] = cs_count(cards) / 128.0
    o[F_DISCARD + 1] = (popcount(cards[0] & cfg.structures[0]) + popcount(cards[1] & cfg.structures[1])) / 16.0
    o[F_PENDING] = s.pending[seat] != NO_PENDING
    _put(o + AT_PUBLIC_DISCARD, 0, s.disc_pub)
    if s.phase != PH_DELIVERY and s.phase != PH_OVER:
        # today's draft as the seat's view tells it (``seen``, ``reserve_backs``; the last pass at which it saw
        # each card is written with the seen plane above: with the public routing, it gives every hand the seat
        # held, pass by pass): what it kept when, and the back of what each seat kept at each pass
        for t in range(n):
            for k in range(s.dealt[t]):
                f = s.day_fate[t * HAND_SIZE + k]
                if not f & FATE_KEPT or fate_step(f) >= 8:
                    continue
                p = track_holder(s, n, t, fate_step(f))
                if p < 0:
                    continue
                c = s.day_card[t * HAND_SIZE + k]
                if p == seat:
                    o[AT_KEPT + c] = (fate_step(f) + 1) / 8.0
                o[F_KEPT_BACKS + ((p - seat + n) % n) * 8 + fate_step(f)] = (
                    1.0 if cfg.kind[c] == KIND_STRUCTURE else 0.5)
    return arr


# -- resampling -------------------------------------------------------------------------------------------------

cdef enum:
    CLASS_FIXED = -1
    CLASS_POOL = -2


cdef void _by_fate(const SYState* s, int* slots, int m) noexcept nogil:
    """Order day slots by their track, then by their fate (when, and how, their card left the hand: what the
    seat knows of a slot whose card it does not), in a stable insertion sort: the slots' places in the deal are
    hidden, so they must not decide which card a fate gets. (Two states told apart only by which card another
    seat kept drew different worlds from one seed: the kept mark sat at another slot.)"""
    cdef int i, j, x
    for i in range(1, m):
        x = slots[i]
        j = i - 1
        while j >= 0 and (slots[j] // HAND_SIZE > x // HAND_SIZE or (
                slots[j] // HAND_SIZE == x // HAND_SIZE and s.day_fate[slots[j]] > s.day_fate[x])):
            slots[j + 1] = slots[j]
            j -= 1
        slots[j + 1] = x


cdef void _shuffle_slots(SYState* s, const SYConfig* cfg, int* slots, int m, uint64_t* rng) noexcept nogil:
    """Permute the cards of day slots ``slots[0:m]`` among themselves, Structures with Structures and Upgrades
    with Upgrades (the backs every seat saw stay where they were)."""
    cdef int kind, i, j, cnt, tmp
    cdef int idx[MAX_DEALT]
    for kind in range(2):
        cnt = 0
        for i in range(m):
            if cfg.kind[s.day_card[slots[i]]] == kind:
                idx[cnt] = slots[i]
                cnt += 1
        _by_fate(s, idx, cnt)
        # the cards in id order first (an insertion sort of at most 7): which slot holds which is hidden from
        # the seat, so it must not steer the shuffle
        for i in range(1, cnt):
            tmp = s.day_card[idx[i]]
            j = i - 1
            while j >= 0 and s.day_card[idx[j]] > tmp:
                s.day_card[idx[j + 1]] = s.day_card[idx[j]]
                j -= 1
            s.day_card[idx[j + 1]] = <uint8_t>tmp
        i = cnt - 1
        while i > 0:
            j = <int>rng_below(rng, <uint32_t>(i + 1))
            tmp = s.day_card[idx[i]]
            s.day_card[idx[i]] = s.day_card[idx[j]]
            s.day_card[idx[j]] = <uint8_t>tmp
            i -= 1


cdef int sy_resample_draw(const void* cfgp, const void* scratch, const void* st, int seat, void* dst,
                          uint64_t* rngp) noexcept nogil:
    """The native resampler (``EngineSpec.resample_draw``; no prepare step): ``dst`` becomes a copy of ``st``
    where everything ``seat`` cannot see is drawn again, consistently with all it knows; 0, or 1 when the state
    breaks the engine's invariants.

    1. Closed workshop: the other seats' work since the reveal is unknown to ``seat``: they are put back as
       revealed (with their "done" flags: doing nothing is always possible). In an open workshop it is public.
    2. Today's dealt cards are slots of the draft record. A slot the seat saw leave (its own keeps and breaks),
       a card kept by anyone once the Reserves are revealed, and a broken card the seat knows are fixed. The
       cards that left a hand the seat saw, between two of its looks at that hand (or after its last look), are
       shuffled among those same slots, backs kept. Every other slot joins the pool.
    3. The pool — those slots, the deck, and the part of the discard pile the seat does not know — is dealt
       again at random, Structures to Structure slots and Upgrades to Upgrade slots.
    4. Hands and Reserves are rebuilt from the record; the other seats' pending commitments are drawn again
       among their legal choices; the PRNG is re-seeded. The history is dropped (it would tell the truth).
    """
    cdef SYState* s = <SYState*>dst
    cdef const SYConfig* cfg = <const SYConfig*>cfgp
    cdef uint64_t rng = rngp[0]
    cdef int n = cfg.nseats, p, q, t, k, x, g, f, fs, i, j, m, kind, c, cnt, h
    cdef bint revealed
    cdef uint64_t pc[2]
    cdef uint64_t lc[2]
    cdef uint64_t gone[2]
    cdef uint64_t known[2]
    cdef uint64_t today_broken[2]
    cdef uint64_t slot_pool[2]
    cdef uint64_t bulk_pool[2]
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef int obs[MAX_P][9]
    cdef int nobs[MAX_P]
    cdef int cls[MAX_DEALT]
    cdef int members[MAX_DEALT]
    cdef int pool_cards[2][MAX_CARDS]
    cdef int npool[2]
    cdef int pool_slots[2][MAX_DEALT]
    cdef int npool_slots[2]
    cdef int disc_need[2]
    cdef uint64_t hands[MAX_P][2]
    cdef uint64_t reserves[MAX_P][2]
    cdef int broken_by[MAX_P]
    if dst != st:
        memcpy(dst, st, sizeof(SYState))
    revealed = s.phase == PH_WORKSHOP
    # 1. the other seats' hidden work (in a closed workshop)
    if revealed and not cfg.open_workshop:
        for p in range(n):
            if p == seat:
                continue
            player_cards(cfg, &s.pub[p], pc)
            player_cards(cfg, &s.pl[p], lc)
            for i in range(2):
                gone[i] = pc[i] & ~lc[i]
                s.disc[i] &= ~gone[i]
                for q in range(n):
                    s.priv_disc[q][i] &= ~gone[i]
            s.pl[p] = s.pub[p]
    # 2. classify today's slots
    known[0] = s.disc_pub[0] | s.priv_disc[seat][0]
    known[1] = s.disc_pub[1] | s.priv_disc[seat][1]
    broken_today(n, s, today_broken)
    s.disc[0] &= ~today_broken[0]       # today's broken cards come back with the slots they end up in
    s.disc[1] &= ~today_broken[1]
    for t in range(n):
        nobs[t] = 0
        if s.phase != PH_DELIVERY and s.phase != PH_OVER:
            for x in range(s.step + 1):
                h = track_holder(s, n, t, x)
                if h < 0:
                    break
                if h == seat:
                    obs[t][nobs[t]] = x
                    nobs[t] += 1
        for k in range(s.dealt[t]):
            f = s.day_fate[t * HAND_SIZE + k]
            c = s.day_card[t * HAND_SIZE + k]
            if revealed:
                if f & FATE_KEPT or cs_has(known, c):
                    cls[t * HAND_SIZE + k] = CLASS_FIXED
                else:
                    cls[t * HAND_SIZE + k] = CLASS_POOL
                continue
            fs = fate_step(f) if f else 99
            g = -1
            for i in range(nobs[t]):
                if obs[t][i] <= fs:
                    g = i
            if g < 0:
                cls[t * HAND_SIZE + k] = CLASS_POOL
            elif obs[t][g] == fs or (f == 0 and obs[t][g] == s.step):
                cls[t * HAND_SIZE + k] = CLASS_FIXED
            else:
                cls[t * HAND_SIZE + k] = t * 16 + g
    # shuffle inside each class
    for t in range(n):
        for g in range(nobs[t]):
            m = 0
            for k in range(s.dealt[t]):
                if cls[t * HAND_SIZE + k] == t * 16 + g:
                    members[m] = t * HAND_SIZE + k
                    m += 1
            if m > 1:
                _shuffle_slots(s, cfg, members, m, &rng)
    # 3. the pool
    for i in range(2):
        bulk_pool[i] = s.disc[i] & ~known[i]
    npool[0] = 0
    npool[1] = 0
    npool_slots[0] = 0
    npool_slots[1] = 0
    disc_need[0] = 0
    disc_need[1] = 0
    slot_pool[0] = 0
    slot_pool[1] = 0
    for t in range(n):
        for k in range(s.dealt[t]):
            if cls[t * HAND_SIZE + k] == CLASS_POOL:
                c = s.day_card[t * HAND_SIZE + k]
                kind = cfg.kind[c]
                pool_slots[kind][npool_slots[kind]] = t * HAND_SIZE + k
                npool_slots[kind] += 1
                cs_add(slot_pool, c)
    # the pool's cards in id order: where they are now is hidden, so it must not steer the deal
    for c in range(cfg.ncards):
        if cs_has(bulk_pool, c):
            kind = cfg.kind[c]
            disc_need[kind] += 1
            pool_cards[kind][npool[kind]] = c
            npool[kind] += 1
            cs_del(s.disc, c)
        elif cs_has(s.deck, c) or cs_has(slot_pool, c):
            kind = cfg.kind[c]
            pool_cards[kind][npool[kind]] = c
            npool[kind] += 1
    s.deck[0] = 0
    s.deck[1] = 0
    for kind in range(2):
        _by_fate(s, pool_slots[kind], npool_slots[kind])
        i = npool[kind] - 1
        while i > 0:
            j = <int>rng_below(&rng, <uint32_t>(i + 1))
            c = pool_cards[kind][i]
            pool_cards[kind][i] = pool_cards[kind][j]
            pool_cards[kind][j] = c
            i -= 1
        j = 0
        for i in range(npool_slots[kind]):
            s.day_card[pool_slots[kind][i]] = <uint8_t>pool_cards[kind][j]
            j += 1
        for i in range(disc_need[kind]):
            cs_add(s.disc, pool_cards[kind][j])
            j += 1
        while j < npool[kind]:
            cs_add(s.deck, pool_cards[kind][j])
            j += 1
    # broken slots of today go (back) to the discard pile
    broken_today(n, s, today_broken)
    s.disc[0] |= today_broken[0]
    s.disc[1] |= today_broken[1]
    # 4. hands and Reserves from the record; the others' knowledge of the discard pile in the new world
    if s.phase == PH_DRAFT or s.phase == PH_PURCHASE:
        check_log(cfg, s, s.phase == PH_PURCHASE, &hands[0][0], &reserves[0][0], broken_by)
        for p in range(n):
            s.pl[p].hand[0] = hands[p][0]
            s.pl[p].hand[1] = hands[p][1]
            s.reserve[p][0] = reserves[p][0]
            s.reserve[p][1] = reserves[p][1]
    broken_today(n, s, today_broken)
    for q in range(n):
        if q == seat:
            continue
        # what another seat learnt privately of the discard pile on earlier days is hidden from ``seat``: kept,
        # it would steer the new world by the true one, so that seat is left with the public discards (its own
        # workshop discards of today among them: they are public in an open workshop, and undone in a closed
        # one); today's deductions are derived from the new record exactly as the engine derives them
        s.priv_disc[q][0] = s.disc_pub[0] & s.disc[0]
        s.priv_disc[q][1] = s.disc_pub[1] & s.disc[1]
        if s.phase == PH_DELIVERY or s.phase == PH_OVER:
            continue
        known_broken_today(cfg, s, q, revealed, gone)
        s.priv_disc[q][0] |= gone[0]
        s.priv_disc[q][1] |= gone[1]
    # the other seats' pending commitments, drawn again among their legal choices
    for q in range(n):
        if q == seat or s.pending[q] == NO_PENDING:
            continue
        memset(words, 0, sizeof(words))
        legal_for(cfg, s, q, words)
        cnt = 0
        for i in range((cfg.num_actions + 63) >> 6):
            cnt += popcount(words[i])
        if cnt == 0:
            return 1
        k = <int>rng_below(&rng, <uint32_t>cnt)
        for i in range(cfg.num_actions):
            if (words[i >> 6] >> (i & 63)) & 1:
                if k == 0:
                    s.pending[q] = <uint16_t>i
                    break
                k -= 1
    s.rng = rng_seed(rng_next(&rng))
    rngp[0] = rng
    return 0


# Leaf evaluation for search (``EngineSpec.evaluate``): the heuristic GreedyBot reads (``Game.evaluate``,
# engine.pyx's ``heuristic``, in VP-like units) of every seat, turned into shares of one win by a softmax: a seat
# EVAL_TEMPERATURE points ahead of another is e times as likely to be the winner. Random Scrapyard playouts
# mostly end with every seat at 0 points (no robot completed), so they carry little signal; this does.
# (4 points: against greedy at 1000 iterations, temperatures 1, 4 and 8 scored shares of 0.27, 0.33 and 0.30)
cdef double EVAL_TEMPERATURE = 4.0


cdef void sy_evaluate(const void* cfgp, const void* st, double* out) noexcept nogil:
    cdef const SYConfig* cfg = <const SYConfig*>cfgp
    cdef const SYState* s = <const SYState*>st
    cdef int p, n = cfg.nseats
    cdef double best = -1e300, total = 0.0
    for p in range(n):
        out[p] = heuristic(cfg, s, p)
        if out[p] > best:
            best = out[p]
    for p in range(n):
        out[p] = exp((out[p] - best) / EVAL_TEMPERATURE)
        total += out[p]
    for p in range(n):
        out[p] /= total


def evaluate_shares(State state) -> list:
    """``sy_evaluate`` of a state: the search's leaf values per seat (tests)."""
    cdef double out[MAX_P]
    cdef const SYConfig* cfg = <const SYConfig*>state.core.cfg
    sy_evaluate(cfg, state.data, out)
    return [out[p] for p in range(cfg.nseats)]


cdef EngineSpec _HOOKS
_HOOKS.resample_draw = sy_resample_draw
_HOOKS.evaluate = sy_evaluate
#: the native hooks of this module (resampler; leaf evaluation), read by engine.make_core into the EngineSpec
NATIVE_HOOKS = PyCapsule_New(&_HOOKS, b"robotcore.EngineSpec", NULL)


def resample(game, State state, int seat, uint64_t seed) -> State:
    """A copy of ``state`` where everything ``seat`` cannot see is drawn again, consistently with all it knows:
    the native resampler ``sy_resample_draw`` (its steps are described there) run with ``rng_seed(seed)``."""
    cdef State out = state.clone()
    cdef uint64_t rng = rng_seed(seed)
    if sy_resample_draw(state.core.cfg, NULL, state.data, seat, out.data, &rng) != 0:
        raise AssertionError("resample needs a valid state")
    out.seed = seed
    return out
