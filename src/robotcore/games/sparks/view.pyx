# cython: language_level=3
"""What each seat may see of a Sparks state (views, observation tensors) and re-dealing what it may not
(``resample``, the determinisation hook for ISMCTS/PIMC search).

Hidden from a seat: the other seats' assistant hands (their sizes are public), in the draft variant the hands
the others hold and their pending picks, the order of the robot deck (its shuffled part is a set everybody
knows the size of) and the robot cards the others drew in a refill and returned under the deck, the assistant
deck, the PRNG. Public: the junkyard, the bag and the discard pile (by colour), every board, die, line,
tableau, track, cog, spark, tile, played assistant, the bonus tiles, the goals, the unfinished robots a seat
discarded under the deck. What a seat saw stays in its view (perfect recall): the hands it held in the draft
(``draft_seen``), the robot cards it knows under the deck (named in ``robot_deck.bottom``) or in another seat's
refill (``drawn_known``).
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset

from robotcore.core.bits cimport lowest_bit, nth_set_bit, popcount
from robotcore.core.state cimport State
from robotcore.games.sparks.engine cimport (
    bottom_knowers,
    draft_hand,
    colour_count,
    goals_met,
    seat_score,
    sp_actors,
    sp_solo_won,
    sp_validate,
)
from robotcore.games.sparks.state cimport *

import numpy as np

from robotcore.games.sparks.data import COLOURS, GOALS, TILES
from robotcore.games.sparks.engine import PENDING_NAMES, PHASE_NAMES, resample_into

cnp.import_array()

DIE_LETTERS = "RBGY"

cdef enum:
    PER_SEAT = 240
    GLOBALS = 96
    OWN = 32 + 16 + 32 + 32
    RECALL = 32 + 32 + 64 + 64 + 64   # perfect recall: draft seen, last step seen, robots under the deck / drawn
    # public facts the blocks above left out, appended so that their places stay: per seat in turn order from the
    # observer Conrad's copy (one per assistant) and the uses so far of the once-per-turn effects (Frank, Octavia,
    # D6, D7, Ignore value, Emma: counts / 2, as Conrad may double one); each bonus space's tile (colour by
    # colour, one per symbol kind, its amount / 3, and its colour for a die colour or an advance)
    SEAT_MORE = MAX_ASSIST + 6
    BONUS_KINDS = SY_ADVANCE + 1
    BONUS_SPACE = BONUS_KINDS + 1 + NCOL
    PUBLIC_MORE = MAX_P * SEAT_MORE + NCOL * MAX_BONUS * BONUS_SPACE
    # appended again: per seat in turn order from the observer, the die held for Recycle (its colour, its value / 6)
    # and whether it is marked for the reroll under way (RULES.md, "Recycle")
    HELD = NCOL + 2
    # appended again, what the view shows and the blocks above left out (RULES.md, "Observation"): per seat in turn
    # order from the observer, the decisions it is being asked and their state (the pending queue: its first
    # PEND_SHOWN choices one by one, kind one-hot and argument, then the kinds of the rest counted; Silas's pips
    # left, the Rearrange moves this turn, the dice marked for a reroll by type, the completed robot's dice a
    # Recycle pick chooses from, the draft commitment and hand size), and its tableau with its power boxes
    # (one float per robot card and the board's box); then the global facts: the game started, and where each
    # robot card the observer knows under the deck lies in that queue
    PEND_SHOWN = 4
    PEND_KINDS = NUM_PD - 1
    PEND_ENTRY = PEND_KINDS + 2
    DECIDE = PEND_SHOWN * PEND_ENTRY + PEND_KINDS + 1 + 1 + NTYPES + SPACES * (NCOL + 1) + 1 + 1 + 64
    DECIDE_GLOBAL = 1 + 64
    OBS_SIZE = (MAX_P * PER_SEAT + GLOBALS + OWN + RECALL + PUBLIC_MORE + MAX_P * HELD + MAX_P * DECIDE
                + DECIDE_GLOBAL)


def observation_size() -> int:
    return OBS_SIZE


OBSERVATION_SIZE = OBS_SIZE


cdef str die_str(int b):
    return f"{DIE_LETTERS[(b - 1) // 6]}{(b - 1) % 6 + 1}"


cdef list dice_list(const uint8_t* avail):
    out = []
    cdef int t, k
    for t in range(NTYPES):
        for k in range(avail[t]):
            out.append(die_str(t + 1))
    return out


cdef list bits64(uint64_t bits, tuple names):
    out = []
    cdef int b
    while bits:
        b = lowest_bit(bits)
        out.append("board" if b == BOARD_BOX else names[b])
        bits &= bits - 1
    return out


cdef list bits32(uint32_t bits, tuple names):
    out = []
    while bits:
        out.append(names[lowest_bit(bits)])
        bits &= bits - 1
    return out


cdef dict _player(game, const SPConfig* cfg, const SPState* s, int p):
    cdef const Player* P = &s.pl[p]
    cdef int k, j, card, i
    rnames = game.content.robot_names
    anames = game.content.assistant_names
    line = []
    for k in range(SLOTS):
        card = P.line[k]
        line.append({
            "robot": None if card == NO_CARD else rnames[card],
            "dice": [None if card == NO_CARD or j >= cfg.r_n[card] or not P.space[SP_ROBOT + 3 * k + j]
                     else die_str(P.space[SP_ROBOT + 3 * k + j]) for j in range(SPACES)],
            "tile": None if P.stile[k] == NO_CARD else TILES[P.stile[k]],
        })
    return {
        "colour": COLOURS[p],
        "cogs": P.cogs,
        "sparks": P.sparks,
        "level": P.level,
        "tracks": {COLOURS[c]: P.track[c] for c in range(NCOL)},
        "dice": dice_list(P.avail),
        "upgrade": {COLOURS[c]: (die_str(P.space[c]) if P.space[c] else None) for c in range(NCOL)},
        "storage": die_str(P.space[SP_STORE]) if P.space[SP_STORE] else None,
        "line": line,
        "tiles": [TILES[t] for t in range(NTILES) if (P.tiles >> t) & 1],
        "tableau": bits64(P.tableau, rnames),
        "boxes_used": bits64(P.box_used, rnames),
        "boxes_cog": bits64(P.box_cog, rnames),
        "hand_size": popcount(P.hand),
        "played": bits32(P.played, anames),
        "conrad": None if P.conrad == NO_CARD else anames[P.conrad],
        "production_used": [k for k in range(NPROD) if (P.prod_used >> k) & 1],
        "pending": [{"type": PENDING_NAMES[P.pend[i]], "arg": P.parg[i]} for i in range(P.npend)],
        "marked": [die_str(P.rr[i]) for i in range(P.nrr)],
        "recycle": [die_str(P.rc[i]) for i in range(P.nrc)],
        "held": die_str(P.held) if P.held else None,
        "held_marked": bool(P.hmark),
        "silas": P.silas,
        "upgrade_bonus": P.upg_bonus,
        "used": {"frank": P.used_frank, "octavia": P.used_octavia, "adjust": P.used_adjust,
                 "reroll_one": P.used_reroll1, "ignore_value": P.used_ignval, "emma": P.used_emma},
        "reroll_tile": bool(P.reroll_tile),
        "rearranged": P.rearranged,
        "completed_this_turn": P.completed,
        "done": bool((s.done >> p) & 1) if s.phase == PH_ACTION else False,
        "drawn": P.nbuf,
        "draft_hand_size": popcount(draft_hand(cfg, s, p)),
        "draft_committed": s.phase == PH_DRAFT and s.dpick[p] != NO_CARD,
        "goals_met": [GOALS[g] for g in range(NGOALS) if (goals_met(cfg, P) >> g) & 1],
    }


cdef dict _public(game, State state, int seat):
    cdef const SPState* s = <const SPState*>state.data
    cdef const SPConfig* cfg = <const SPConfig*>state.core.cfg
    cdef int n = cfg.nseats, i, c, k, p
    rnames = game.content.robot_names
    bonus_text = game.content.bonus_texts
    bottom = []
    for i in range(s.nbottom):
        if (bottom_knowers(s, i) >> seat) & 1 if seat >= 0 else bottom_knowers(s, i) == (1 << n) - 1:
            bottom.append(rnames[s.bottom[i] & 63])
        else:
            bottom.append(None)
    scores = [seat_score(cfg, s, p) for p in range(n)]
    out = {
        "game": "sparks",
        "phase": PHASE_NAMES[s.phase],
        "actors": state.actors,
        "turn": s.turn,
        "turns": cfg.turns,
        "round": (s.turn // (2 if n == 1 else n)),
        "first_player": s.first,
        "active": 0 if n == 1 else (s.first + s.turn) % n,
        "secondary_turn": bool(n == 1 and (s.turn & 1)),
        "started": bool(s.started),
        "terminal": s.phase == PH_OVER,
        "scores": scores,
        "junkyard": [die_str(s.junk[i]) for i in range(s.njunk)],
        "bag": {COLOURS[c]: s.bag[c] for c in range(NCOL)},
        "discard": {COLOURS[c]: s.disc[c] for c in range(NCOL)},
        "robot_deck": {"shuffled": popcount(s.pool), "bottom": bottom},
        "assistant_deck": popcount(s.adeck),
        "stacks": [TILES[t] for t in range(NTILES) if (s.stacks >> t) & 1],
        "bonus": {COLOURS[c]: [bonus_text[s.bonus[c][k]] for k in range(cfg.nbonus)] for c in range(NCOL)},
        "goals": [GOALS[g] for g in range(NGOALS) if (s.goals >> g) & 1],
        "taker": s.taker if s.phase in (PH_TAKE, PH_REFILL) else None,
        "players": [_player(game, cfg, s, p) for p in range(n)],
    }
    if n == 1:
        met = goals_met(cfg, &s.pl[0]) & s.goals
        out["solo"] = {"target": cfg.solo_target, "goals_met": met == s.goals, "won": sp_solo_won(cfg, s)}
    return out


def view(game, State state, seat) -> dict:
    cdef const SPState* s = <const SPState*>state.data
    cdef int me, i, p, n = (<const SPConfig*>state.core.cfg).nseats
    out = _public(game, state, -1 if seat is None else seat)
    out["seat"] = seat
    if seat is None:
        return out
    me = seat
    anames = game.content.assistant_names
    rnames = game.content.robot_names
    out["hand"] = bits32(s.pl[me].hand, anames)
    out["drawn"] = [rnames[s.pl[me].buf[i]] for i in range(s.pl[me].nbuf)]
    out["draft_hand"] = bits32(draft_hand(<const SPConfig*>state.core.cfg, s, me), anames)
    out["draft_pick"] = None if s.dpick[me] == NO_CARD else anames[s.dpick[me]]
    out["draft_seen"] = draft_seen(game, state, me)
    out["drawn_known"] = [[rnames[s.pl[p].buf[i]] for i in range(s.pl[p].nbuf) if (s.pl[p].bufk[i] >> me) & 1]
                          if p != me else [] for p in range(n)]
    return out


cdef list draft_seen(game, State state, int seat):
    """The hands ``seat`` held in the draft, step by step (what it saw; its perfect recall of the draft)."""
    cdef const SPConfig* cfg = <const SPConfig*>state.core.cfg
    cdef const SPState* s = <const SPState*>state.data
    cdef int n = cfg.nseats, k, a, r, kmax = s.dstep if s.phase == PH_DRAFT else s.dstep - 1
    anames = game.content.assistant_names
    out = []
    for k in range(kmax + 1 if cfg.draft else 0):
        held = []
        for a in range(cfg.nassist):
            r = s.arec[a]
            if r & AR_DEALT and ((r >> 4) & 7) == (seat - k + n) % n and (r & 15) >= k:
                held.append(anames[a])
        out.append(held)
    return out


def omniscient(game, State state) -> dict:
    cdef const SPState* s = <const SPState*>state.data
    cdef const SPConfig* cfg = <const SPConfig*>state.core.cfg
    cdef int p, i
    out = _public(game, state, -1)
    anames = game.content.assistant_names
    rnames = game.content.robot_names
    out["seat"] = "omniscient"
    out["robot_deck"]["bottom"] = [{"robot": rnames[s.bottom[i] & 63],
                                    "known_by": [p for p in range(cfg.nseats) if (bottom_knowers(s, i) >> p) & 1]}
                                   for i in range(s.nbottom)]
    out["robot_deck"]["pool"] = bits64(s.pool, rnames)
    out["assistant_deck_cards"] = bits32(s.adeck, anames)
    out["hands"] = [bits32(s.pl[p].hand, anames) for p in range(cfg.nseats)]
    out["drawn"] = [[rnames[s.pl[p].buf[i]] for i in range(s.pl[p].nbuf)] for p in range(cfg.nseats)]
    out["draft_hands"] = [bits32(draft_hand(cfg, s, p), anames) for p in range(cfg.nseats)]
    out["draft_picks"] = [None if s.dpick[p] == NO_CARD else anames[s.dpick[p]] for p in range(cfg.nseats)]
    return out


# -- observation ------------------------------------------------------------------------------------------------

@cython.boundscheck(False)
@cython.wraparound(False)
def observation(State state, int seat) -> cnp.ndarray:
    cdef const SPState* s = <const SPState*>state.data
    cdef const SPConfig* cfg = <const SPConfig*>state.core.cfg
    cdef int n = cfg.nseats, rel, p, pos, i, t, k, j, card, b, c
    cdef uint32_t dh
    cdef const Player* P
    cdef cnp.ndarray arr = np.zeros(OBS_SIZE, dtype=np.float32)
    cdef float* x = <float*>cnp.PyArray_DATA(arr)
    for rel in range(n):
        p = (seat + rel) % n
        P = &s.pl[p]
        pos = rel * PER_SEAT
        x[pos] = P.cogs / 20.0
        x[pos + 1] = P.sparks / 5.0
        x[pos + 2] = P.level / 5.0
        for c in range(NCOL):
            x[pos + 3 + c] = P.track[c] / 12.0
            x[pos + 7 + c] = colour_count(cfg, P, c) / 8.0
        for k in range(NPROD):
            x[pos + 11 + k] = (P.prod_used >> k) & 1
        x[pos + 15] = popcount(P.played) / 10.0
        x[pos + 16] = popcount(P.hand) / 10.0
        x[pos + 17] = (s.done >> p) & 1 if s.phase == PH_ACTION else 0
        x[pos + 18] = P.npend / 5.0
        x[pos + 19] = P.upg_bonus / 5.0
        for t in range(NTILES):
            x[pos + 20 + t] = (P.tiles >> t) & 1
        for t in range(NTYPES):
            x[pos + 28 + t] = P.avail[t] / 3.0
        for i in range(NSPACE):
            b = P.space[i]
            if b:
                x[pos + 52 + i * 5 + (b - 1) // 6] = 1.0
                x[pos + 52 + i * 5 + 4] = ((b - 1) % 6 + 1) / 6.0
        # 52 + 70 = 122
        for k in range(SLOTS):
            card = P.line[k]
            if card == NO_CARD:
                continue
            x[pos + 122 + k * 24 + cfg.r_colour[card]] = 1.0
            x[pos + 122 + k * 24 + 4] = cfg.r_adv[card] / 3.0
            x[pos + 122 + k * 24 + 5] = cfg.r_box[card][0] != SY_NONE
            for j in range(cfg.r_n[card]):
                x[pos + 122 + k * 24 + 6 + j * 6 + cfg.r_col[card][j]] = 1.0
                x[pos + 122 + k * 24 + 6 + j * 6 + 5] = cfg.r_val[card][j] / 6.0
        # 122 + 72 = 194
        for k in range(SLOTS):
            if P.stile[k] != NO_CARD:
                x[pos + 194 + k * 3 + P.stile[k] - TL_BONUS_POINT] = 1.0
        x[pos + 203] = popcount(P.box_used) / 5.0
        x[pos + 204] = popcount(P.tableau & cfg.box_robots) / 5.0
        x[pos + 205] = P.reroll_tile
        x[pos + 206] = P.completed / 3.0
        x[pos + 207] = P.nbuf / 4.0
        for i in range(MAX_ASSIST):
            if (P.played >> i) & 1:
                x[pos + 208 + i] = 1.0
    pos = MAX_P * PER_SEAT
    for i in range(s.njunk):
        x[pos + i * 5 + (s.junk[i] - 1) // 6] = 1.0
        x[pos + i * 5 + 4] = ((s.junk[i] - 1) % 6 + 1) / 6.0
    for c in range(NCOL):
        x[pos + 40 + c] = s.bag[c] / 11.0
        x[pos + 44 + c] = s.disc[c] / 11.0
    x[pos + 48] = s.turn / <float>cfg.turns
    x[pos + 49 + s.phase] = 1.0
    x[pos + 54] = n == 1 and (s.turn & 1)
    for t in range(NTILES):
        x[pos + 55 + t] = (s.stacks >> t) & 1
    for t in range(NGOALS):
        x[pos + 63 + t] = (s.goals >> t) & 1
    x[pos + 69] = popcount(s.pool) / 60.0
    x[pos + 70] = popcount(s.adeck) / 30.0
    x[pos + 71 + ((0 if n == 1 else (s.first + s.turn) % n) - seat + n) % n] = 1.0
    if s.phase == PH_TAKE or s.phase == PH_REFILL:
        x[pos + 75 + (s.taker - seat + n) % n] = 1.0
    x[pos + 79] = s.nbottom / 20.0
    pos += GLOBALS
    P = &s.pl[seat]
    dh = draft_hand(cfg, s, seat)
    for i in range(MAX_ASSIST):
        x[pos + i] = (P.hand >> i) & 1
        x[pos + 48 + i] = (dh >> i) & 1
        x[pos + 80 + i] = s.phase == PH_DRAFT and s.dpick[seat] == i
    for i in range(P.nbuf):
        x[pos + 32 + i * 4 + cfg.r_colour[P.buf[i]]] = 1.0
    pos += OWN
    recall_floats(cfg, s, seat, x + pos)
    pos += RECALL
    for rel in range(n):
        P = &s.pl[(seat + rel) % n]
        if P.conrad != NO_CARD:
            x[pos + rel * SEAT_MORE + P.conrad] = 1.0
        x[pos + rel * SEAT_MORE + MAX_ASSIST] = P.used_frank / 2.0
        x[pos + rel * SEAT_MORE + MAX_ASSIST + 1] = P.used_octavia / 2.0
        x[pos + rel * SEAT_MORE + MAX_ASSIST + 2] = P.used_adjust / 2.0
        x[pos + rel * SEAT_MORE + MAX_ASSIST + 3] = P.used_reroll1 / 2.0
        x[pos + rel * SEAT_MORE + MAX_ASSIST + 4] = P.used_ignval / 2.0
        x[pos + rel * SEAT_MORE + MAX_ASSIST + 5] = P.used_emma / 2.0
    pos += MAX_P * SEAT_MORE
    for c in range(NCOL):
        for k in range(cfg.nbonus):
            t = s.bonus[c][k]
            i = pos + (c * MAX_BONUS + k) * BONUS_SPACE
            b = cfg.bonus_sym[t][0]
            if b < BONUS_KINDS:
                x[i + b] = 1.0
                x[i + BONUS_KINDS] = cfg.bonus_sym[t][1] / 3.0
                if b == SY_DIE_COLOUR or b == SY_ADVANCE:
                    x[i + BONUS_KINDS + 1 + cfg.bonus_sym[t][2]] = 1.0
    pos += NCOL * MAX_BONUS * BONUS_SPACE
    for rel in range(n):
        P = &s.pl[(seat + rel) % n]
        b = P.held
        if b:
            x[pos + rel * HELD + (b - 1) // 6] = 1.0
            x[pos + rel * HELD + NCOL] = ((b - 1) % 6 + 1) / 6.0
            x[pos + rel * HELD + NCOL + 1] = P.hmark
    pos += MAX_P * HELD
    for rel in range(n):
        p = (seat + rel) % n
        decide_floats(cfg, s, p, x + pos + rel * DECIDE)
    pos += MAX_P * DECIDE
    x[pos] = s.started
    for i in range(s.nbottom):
        if (bottom_knowers(s, i) >> seat) & 1:
            x[pos + 1 + (s.bottom[i] & 63)] = (i + 1) / 64.0
    return arr


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void decide_floats(const SPConfig* cfg, const SPState* s, int p, float* x) noexcept nogil:
    """Seat p's block of the decisions it is asked (``observation``: DECIDE floats, all public)."""
    cdef const Player* P = &s.pl[p]
    cdef int i, k, b, pos
    cdef uint64_t owned = P.tableau | ((<uint64_t>1) << BOARD_BOX)
    for i in range(P.npend):
        k = P.pend[i]
        if not 1 <= k <= PEND_KINDS:
            continue
        if i < PEND_SHOWN:
            x[i * PEND_ENTRY + k - 1] = 1.0
            x[i * PEND_ENTRY + PEND_KINDS] = (P.parg[i] >> 6) / 3.0
            x[i * PEND_ENTRY + PEND_KINDS + 1] = (P.parg[i] & 63) / 63.0
        else:
            x[PEND_SHOWN * PEND_ENTRY + k - 1] += 1.0 / 8.0
    pos = PEND_SHOWN * PEND_ENTRY + PEND_KINDS
    x[pos] = P.silas / 6.0
    x[pos + 1] = P.rearranged / 12.0
    pos += 2
    for i in range(P.nrr):
        if P.rr[i]:
            x[pos + P.rr[i] - 1] += 1.0 / 3.0
    pos += NTYPES
    for i in range(P.nrc):
        b = P.rc[i]
        if b and i < SPACES:
            x[pos + i * (NCOL + 1) + (b - 1) // 6] = 1.0
            x[pos + i * (NCOL + 1) + NCOL] = ((b - 1) % 6 + 1) / 6.0
    pos += SPACES * (NCOL + 1)
    x[pos] = s.phase == PH_DRAFT and s.dpick[p] != NO_CARD
    x[pos + 1] = popcount(draft_hand(cfg, s, p)) / <float>cfg.hand_size if cfg.hand_size else 0.0
    pos += 2
    while owned:                        # (the boxes used are boxes of completed robots or the board's)
        i = lowest_bit(owned)
        x[pos + i] = (1 + ((P.box_used >> i) & 1) + ((P.box_cog >> i) & 1)) / 3.0
        owned &= owned - 1


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void recall_floats(const SPConfig* cfg, const SPState* s, int seat, float* x) noexcept nogil:
    """What perfect recall keeps, as the view's ``draft_seen``, ``robot_deck.bottom`` and ``drawn_known`` do: per
    assistant, 1 if the seat saw it in a draft hand it held ([0, 32)) and (k + 1) / hand_size for the last step k
    at which it saw it ([32, 64)); per robot card, 1 if the seat knows it is under the deck ([64, 128)), in another
    seat's refill ([128, 192)), in its own draw ([192, 256))."""
    cdef int n = cfg.nseats, k, a, r, i, p, kmax
    if cfg.draft:
        kmax = s.dstep if s.phase == PH_DRAFT else s.dstep - 1
        for a in range(cfg.nassist):
            r = s.arec[a]
            if not (r & AR_DEALT):
                continue
            for k in range(kmax, -1, -1):    # the hand the seat held at step k is the one dealt to seat - k
                if ((r >> 4) & 7) == (seat - k + n) % n and (r & 15) >= k:
                    x[a] = 1.0
                    x[32 + a] = (k + 1) / <float>cfg.hand_size
                    break
    for i in range(s.nbottom):
        if (bottom_knowers(s, i) >> seat) & 1:
            x[64 + (s.bottom[i] & 63)] = 1.0
    for p in range(n):
        for i in range(s.pl[p].nbuf):
            if p == seat:
                x[192 + s.pl[p].buf[i]] = 1.0
            elif (s.pl[p].bufk[i] >> seat) & 1:
                x[128 + s.pl[p].buf[i]] = 1.0


# -- resampling -------------------------------------------------------------------------------------------------

def resample(game, State state, int seat, uint64_t seed) -> State:
    """A copy of ``state`` where everything ``seat`` cannot see is drawn again, consistently with all it saw (the
    engine's native resampler, ``engine.resample_into``; RULES.md, "Resampling", says what it samples): the
    robot cards it does not know are re-dealt among the places it does not know, the assistants it cannot place
    for sure among the places its record of the draft allows; the PRNG is re-seeded. Everything is read in card
    order before it is shuffled, so the result depends only on what the seat knows and the seed."""
    cdef State out = state.clone()
    cdef const SPConfig* cfg = <const SPConfig*>out.core.cfg
    cdef int err
    if sp_validate(cfg, state.data) != 0:
        raise AssertionError("resample needs a valid state")
    err = resample_into(state, out, seat, seed)
    if err:
        raise AssertionError(f"the resampler failed ({err})")
    out.seed = seed
    if sp_validate(cfg, out.data) != 0:
        raise AssertionError(f"resampling broke an invariant ({sp_validate(cfg, out.data)})")
    return out
