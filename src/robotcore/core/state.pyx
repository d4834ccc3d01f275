# cython: language_level=3
"""The one State class every game shares.

A ``State`` owns one memory block: the game's packed struct (``spec.state_size`` bytes) followed by the action
history. All rules live in the game's engine (``EngineSpec``); this class validates what comes from outside
(actions, seats, serialized bytes) and keeps the history. Clone is one allocation and one ``memcpy``.
"""

cimport cython
from cpython.pycapsule cimport PyCapsule_GetPointer
cimport numpy as cnp
from cpython.list cimport PyList_New
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.object cimport PyObject
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset

from robotcore.core.bits cimport lowest_bit, popcount

import operator
import struct as _struct
import sys
import zlib

import numpy as np

from robotcore.errors import (
    CorruptStateError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidSeatError,
    NotYourTurnError,
)
from robotcore.core.seeds import check_seed

cnp.import_array()

#: ``current_player`` once the game is over (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4

MAGIC = b"RBC1"
FORMAT_VERSION = 1
_PREFIX = _struct.Struct("<4sHHQII")      # magic, version, header length, seed, state size, history length
_CRC = _struct.Struct("<I")
_MAX_HEADER = 4096
_MAX_HISTORY = 1 << 20
# Action ids as ready-made Python ints: legal_actions() fills its list without creating any.
cdef tuple _ACTION_IDS = tuple(range(MAX_ACTIONS))


cdef extern from "Python.h":
    PyObject** PySequence_Fast_ITEMS(object seq)


# legal_actions() builds its list in C straight from the (cached) mask: ``rc_mask_list`` below. The lists it
# returns are recycled once their caller has dropped them: refilling a list that only this module still holds
# (reference count 1) costs a fraction of freeing one list and allocating the next, which was most of the call's
# own cost. Nobody else can reach a list with no other reference, so every caller still gets a list of its own,
# as before. Two are kept, because ``la = s.legal_actions()`` in a loop holds one while the next call fills the
# other. Off on free-threaded builds, where a count of 1 does not prove a list unshared.
cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define RC_RECYCLE_LISTS 0
    #else
    #define RC_RECYCLE_LISTS 1
    #endif
    #include "bits.h"
    static PyObject* rc_spare_lists[2] = {NULL, NULL};

    /* Pinned action ids. On CPython 3.10-3.11 (64-bit, GIL, no reference debugging) the action-id ints get a
       pin of 2**60 added to their reference counts once, at import (rc_pin_ids), as CPython 3.12 makes the
       small ints immortal: such an int is never freed, whatever happens to its count afterwards. The lists
       built here then store the ids without an INCREF, and a recycled list whose items are still exactly the
       ids stored there (compared against a copy of its first RC_SEEN items, without a branch per item) is
       refilled without a DECREF per item: no loop over the old items, whose length changes every call. A list
       a caller changed, or longer than RC_SEEN, is emptied item by item as before; an id in it then loses one
       count it never had, which the pin absorbs (2**60 such drops are out of reach). Objects that are not
       ids are always counted exactly: they are never stored without an INCREF, and any one of them in a
       recycled list makes it fail the comparison. */
    #if RC_RECYCLE_LISTS && SIZEOF_VOID_P == 8 && PY_VERSION_HEX < 0x030C0000 && !defined(Py_REF_DEBUG)
    #define RC_PINNED_IDS 1
    #define RC_ID_INCREF(o) ((void)0)
    #else
    #define RC_PINNED_IDS 0
    #define RC_ID_INCREF(o) Py_INCREF(o)
    #endif
    #define RC_SEEN 16
    static PyObject* rc_spare_seen[2][RC_SEEN];     /* a copy of each spare's first RC_SEEN item slots */

    static void rc_pin_ids(PyObject* const* ids, Py_ssize_t n) {
    #if RC_PINNED_IDS
        static int pinned = 0;                  /* once a process, however often the module is set up */
        Py_ssize_t i;
        if (pinned)
            return;
        pinned = 1;
        for (i = 0; i < n; i++)
            Py_SET_REFCNT(ids[i], Py_REFCNT(ids[i]) + ((Py_ssize_t)1 << 60));
    #endif
    }

    /* Whether the first RC_SEEN item slots of ``items`` (allocated >= RC_SEEN) are those of ``seen``. The slots
       past the list's size are compared too: a list whose storage changed there (append then pop) takes the
       slow path, which is only slower; this way the compare is one pass without a branch or a mask. It proves
       the list's items ids because a copy holds nothing but ids and NULL: the slots past a refilled list's new
       items are those of the copy it passed (an unchanged list), NULL (a new list, or one emptied by the slow
       path, which clears them) or ids (the rounds of eight), and an item is never NULL. */
    static inline int rc_unchanged(PyObject* const* items, PyObject* const* seen) {
        uintptr_t diff = 0;
        int j;
        for (j = 0; j < RC_SEEN; j++)
            diff |= (uintptr_t)items[j] ^ (uintptr_t)seen[j];
        return diff == 0;
    }

    /* A list with room for n items (a new reference, its size 0), recycled when one is free; NULL on failure.
       Every list made here has room for at least RC_SEEN items. *slot is the spare slot it came from when it
       came back holding only the ids stored there (its copy in rc_spare_seen is still right past the new
       items), else -1. */
    static inline PyObject* rc_take_list(Py_ssize_t n, int* slot) {
        PyObject* lst;
        *slot = -1;
    #if RC_RECYCLE_LISTS
        int s;
        for (s = 0; s < 2; s++) {
            lst = rc_spare_lists[s];
            if (lst != NULL && Py_REFCNT(lst) == 1 && ((PyListObject*)lst)->allocated >= n) {
                /* Empty it as list.clear() does: detach the items first, since dropping what a caller put in it
                   may run arbitrary code; then take the storage back if nothing touched the list meanwhile. */
                PyListObject* l = (PyListObject*)lst;
                Py_ssize_t j, old = Py_SIZE(lst), cap = l->allocated;
                PyObject** items = l->ob_item;
                rc_spare_lists[s] = NULL;           /* the spare's reference is ours now */
    #if RC_PINNED_IDS
                if (old <= RC_SEEN && cap >= RC_SEEN && rc_unchanged(items, rc_spare_seen[s])) {
                    Py_SET_SIZE(lst, 0);            /* only pinned ids, stored without a count: nothing to drop */
                    *slot = s;
                    return lst;
                }
    #endif
                l->ob_item = NULL;
                l->allocated = 0;
                Py_SET_SIZE(lst, 0);
                for (j = 0; j < old; j++)
                    Py_DECREF(items[j]);
                if (l->ob_item == NULL && cap >= RC_SEEN) {
                    l->ob_item = items;
                    l->allocated = cap;
    #if RC_PINNED_IDS
                    /* Past its new items the list's first slots go into the slot's copy: they must hold ids or
                       NULL only, never what a caller left there (see rc_unchanged). */
                    memset(items, 0, RC_SEEN * sizeof(PyObject*));
    #endif
                    return lst;
                }
                if (l->ob_item == NULL) {       /* untouched, but too small to serve as a spare */
                    l->ob_item = items;
                    l->allocated = cap;
                }
                else
                    PyMem_Free(items);
                Py_DECREF(lst);
                break;
            }
        }
    #endif
        lst = PyList_New(n > RC_SEEN ? n : RC_SEEN);
        if (lst != NULL)
            Py_SET_SIZE(lst, 0);
        return lst;
    }

    /* Keep ``lst`` (just returned to a caller) as a spare: in an empty slot, else in place of a spare someone
       still holds, else of a free one too small for it (so that spares grow to the answers asked for). The slot
       takes the new list before the old one is dropped: dropping it may run code that calls back in here. The
       slot's copy of the first RC_SEEN item slots is taken too (the list has room for them). */
    static void rc_keep_list(PyObject* lst) {
    #if RC_RECYCLE_LISTS
        int s;
        for (s = 0; s < 6; s++) {
            PyObject* c = rc_spare_lists[s & 1];
            if (s < 2 ? c == NULL
                      : s < 4 ? Py_REFCNT(c) > 1
                              : ((PyListObject*)c)->allocated < ((PyListObject*)lst)->allocated) {
    #if RC_PINNED_IDS
                memcpy(rc_spare_seen[s & 1], ((PyListObject*)lst)->ob_item, sizeof(rc_spare_seen[0]));
    #endif
                Py_INCREF(lst);
                rc_spare_lists[s & 1] = lst;
                Py_XDECREF(c);
                return;
            }
        }
    #endif
    }

    /* Give ``lst`` (filled, just returned to a caller) back to the slot it came from unchanged (still empty: no
       Python code ran since the take), with its copy refreshed; else keep it as rc_keep_list does. */
    static inline void rc_put_list(PyObject* lst, int slot) {
    #if RC_PINNED_IDS
        if (slot >= 0) {
            memcpy(rc_spare_seen[slot], ((PyListObject*)lst)->ob_item, sizeof(rc_spare_seen[0]));
            Py_INCREF(lst);
            rc_spare_lists[slot] = lst;
            return;
        }
    #endif
        rc_keep_list(lst);
    }

    /* With pinned ids rc_mask_list decodes each word eight actions a round: the slots past the word's actions
       get ids too (the next word's, or past the list's size, where nobody reads them and nothing counts them),
       so a word of up to 8 actions is done after its first round every time, where a loop per action
       mispredicted its exit about once a word. */
    #if RC_PINNED_IDS
    #define RC_ROUND 8
    #else
    #define RC_ROUND 1
    #endif

    /* With pinned ids, on a CPU with AVX-512 VBMI2 (bits.h's rc_fast_compress, chosen at load;
       ROBOTCORE_PORTABLE_BITS=1 keeps the loops below), a word is decoded without a loop over its bits: one
       compress puts the positions of its set bits first in a vector of bytes, and the ids of eight positions at
       a time are gathered and stored (past the word's count they are ids too: the next word's, or past the
       list's size, where nobody reads them and nothing counts them). A word of up to eight actions is one round,
       so no branch depends on how many actions it holds: the loop exits over the bits mispredicted about once a
       word, which in Scrapyard's and Sparks' Python step cost more than the list's stores. valgrind has no
       AVX-512, so callgrind counts the portable loops. */
    #if RC_PINNED_IDS && (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #define RC_COMPRESS_ROUND 8
    #define RC_LIST_COMPRESS rc_fast_compress
    static const uint8_t rc_iota64[64] = {         /* (GCC 8 has no _mm512_set_epi8) */
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
        29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55,
        56, 57, 58, 59, 60, 61, 62, 63};
    __attribute__((target("avx512f,avx512bw,avx512vbmi2"), noinline))
    static void rc_decode_compress(PyObject** items, PyObject* const* id_items, const uint64_t* words,
                                   uint64_t which) {
        const __m512i iota = _mm512_loadu_si512((const void*)rc_iota64);
        uint8_t at[64];
        uint64_t b;
        Py_ssize_t k = 0;
        for (b = which; b; b &= b - 1) {
            int i = rc_ctz64(b), t, c;
            uint64_t w = words[i];
            const long long* base = (const long long*)(id_items + ((Py_ssize_t)i << 6));
            __m512i pos = _mm512_maskz_compress_epi8(w, iota);
            c = rc_popcount64(w);
            _mm512_storeu_si512((void*)(items + k),
                                _mm512_i64gather_epi64(_mm512_cvtepu8_epi64(_mm512_castsi512_si128(pos)), base, 8));
            if (c > 8) {                        /* rare: the positions past the first eight, from memory */
                _mm512_storeu_si512((void*)at, pos);
                for (t = 8; t < c; t += 8)
                    _mm512_storeu_si512((void*)(items + k + t), _mm512_i64gather_epi64(
                        _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i*)(at + t))), base, 8));
            }
            k += c;
        }
    }
    #else
    #define RC_COMPRESS_ROUND 0
    #define RC_LIST_COMPRESS 0
    static void rc_decode_compress(PyObject** items, PyObject* const* id_items, const uint64_t* words,
                                   uint64_t which) { (void)items; (void)id_items; (void)words; (void)which; }
    #endif

    /* The list of the ids of the ``n`` (>= 0) actions in the words of the set ``which`` by rc_decode_compress. */
    static PyObject* rc_compressed_list(PyObject* const* id_items, const uint64_t* words, uint64_t which,
                                        Py_ssize_t n) {
        int slot;
        PyObject* lst = rc_take_list(n + RC_COMPRESS_ROUND, &slot);
        if (lst == NULL)
            return NULL;
        rc_decode_compress(((PyListObject*)lst)->ob_item, id_items, words, which);
        Py_SET_SIZE(lst, n);
        rc_put_list(lst, slot);
        return lst;
    }

    /* RC_HELD: the lists are filled from copies of the mask words they decode, taken before rc_take_list. Taking
       a list may run any Python code (dropping what a caller left in a recycled list runs its finalizers; a new
       list may start a garbage collection, which runs others), and such code may play moves on the very State
       whose mask ``words`` points into, or grow its history and so move that memory: read from the copies, the
       list is the legal actions of the state as it was when the call began, never of freed memory.

       A new reference to the list of id_items[a] for every bit a set in words[0..nw), in increasing order.
       Masks are sparse (a few actions in up to tens of words): four words are tested at once, the words with a
       bit are listed (and their bits counted) without a branch, and only those are decoded. (Decoding them in
       one loop, with a conditional move to the next word, saves the words' loop exits for about 10 more instructions
       an action.) */
    static PyObject* rc_mask_list(PyObject* const* id_items, const uint64_t* words, int nw) {
        uint8_t nonzero[128];
        uint64_t held[128];                 /* the words decoded, copied before rc_take_list (see RC_HELD) */
        const uint64_t* p = words;
        const uint64_t* const end = words + nw;
        const uint64_t* const end4 = words + (nw & ~3);
        int j, t, m = 0, slot;
        Py_ssize_t n = 0, k = 0;
        PyObject* lst;
        PyObject** items;
        (void)t;
        if (RC_LIST_COMPRESS && nw <= 64) {
            uint64_t which = 0;
            for (j = 0; j < nw; j++) {
                held[j] = words[j];
                which |= (uint64_t)(held[j] != 0) << j;
                n += rc_popcount64(held[j]);
            }
            return rc_compressed_list(id_items, held, which, n);
        }
        for (; p < end4; p += 4) {
            if (p[0] | p[1] | p[2] | p[3]) {
                for (j = 0; j < 4; j++) {
                    nonzero[m] = (uint8_t)(p - words + j);
                    held[m] = p[j];
                    m += p[j] != 0;
                    n += rc_popcount64(p[j]);
                }
            }
        }
        for (; p < end; p++) {
            nonzero[m] = (uint8_t)(p - words);
            held[m] = *p;
            m += *p != 0;
            n += rc_popcount64(*p);
        }
        lst = rc_take_list(n + RC_ROUND - 1, &slot);
        if (lst == NULL)
            return NULL;
        items = ((PyListObject*)lst)->ob_item;
        for (j = 0; j < m; j++) {
            uint64_t w = held[j];
            PyObject* const* base = id_items + ((Py_ssize_t)nonzero[j] << 6);
    #if RC_PINNED_IDS
            PyObject** out = items + k;
            k += rc_popcount64(w);
            do {                                /* past the word's bits, bit 63 stands in: a valid id */
                for (t = 0; t < RC_ROUND; t++) {
                    out[t] = base[rc_ctz64(w | ((uint64_t)1 << 63))];
                    w &= w - 1;
                }
                out += RC_ROUND;
            } while (w);
    #else
            do {
                PyObject* a = base[rc_ctz64(w)];
                RC_ID_INCREF(a);
                items[k++] = a;
                w &= w - 1;
            } while (w);
    #endif
        }
        Py_SET_SIZE(lst, n);
        rc_put_list(lst, slot);
        return lst;
    }

    /* rc_mask_list over the words of the set ``which`` only (bit i for word i; nw <= 64): the words an engine's
       ``legal_mask_words`` names, most often one to three of a wide mask. A set without a legal action in it
       means "not known": every word is scanned, as rc_mask_list does. Two short passes over the named words:
       their actions counted, then each word decoded by a loop over its bits (a zero word is passed over).
       Branch-free decoding was tried here (one loop over the actions moving to the next word by a conditional
       move, and rounds of eight actions a word as rc_mask_list has): fewer mispredictions under callgrind's
       simulated predictor, which has no branch history, but 65-85 more instructions a call and slower in time
       on this machine (legal_actions against a no-op call: Scrapyard 2.22 -> 1.92, Sparks 2.42 -> 2.04,
       Smartphone 2.09 -> 1.73 with the loop per word). */

    static PyObject* rc_mask_list_in(PyObject* const* id_items, const uint64_t* words, uint64_t which, int nw) {
        PyObject* lst;
        PyObject** items;
        uint64_t b, w;
        Py_ssize_t n = 0, k = 0;
        int slot;
        uint64_t held[64];                  /* the named words, copied before rc_take_list (see RC_HELD) */
        which &= nw >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << nw) - 1);
        for (b = which; b; b &= b - 1) {
            int i = rc_ctz64(b);
            held[i] = words[i];
            n += rc_popcount64(held[i]);
        }
        if (n == 0)
            return rc_mask_list(id_items, words, nw);
        if (RC_LIST_COMPRESS)
            return rc_compressed_list(id_items, held, which, n);
        lst = rc_take_list(n, &slot);
        if (lst == NULL)
            return NULL;
        items = ((PyListObject*)lst)->ob_item;
        for (b = which; b; b &= b - 1) {
            int i = rc_ctz64(b);
            PyObject* const* base = id_items + ((Py_ssize_t)i << 6);
            for (w = held[i]; w; w &= w - 1) {
                PyObject* a = base[rc_ctz64(w)];
                RC_ID_INCREF(a);
                items[k++] = a;
            }
        }
        Py_SET_SIZE(lst, n);
        rc_put_list(lst, slot);
        return lst;
    }

    /* An exact int's value when it is small and non-negative (every action id), read from the object itself;
       else -1, and the caller takes PyLong_AsLongAndOverflow's general path (big, negative, subclasses). */
    static inline long rc_small_index(PyObject* o) {
        if (!PyLong_CheckExact(o))
            return -1;
    #if PY_VERSION_HEX >= 0x030C0000
        if (PyUnstable_Long_IsCompact((PyLongObject*)o)) {
            Py_ssize_t v = PyUnstable_Long_CompactValue((PyLongObject*)o);
            return v >= 0 ? (long)v : -1;
        }
        return -1;
    #else
        {
            Py_ssize_t size = Py_SIZE(o);
            return size == 0 ? 0 : size == 1 ? (long)((PyLongObject*)o)->ob_digit[0] : -1;
        }
    #endif
    }
    """
    object rc_mask_list(PyObject** id_items, const uint64_t* words, int nw)
    object rc_mask_list_in(PyObject** id_items, const uint64_t* words, uint64_t which, int nw)
    long rc_small_index(object o)
    void rc_pin_ids(PyObject** ids, Py_ssize_t n)
    const int RC_LIST_COMPRESS

#: Whether ``legal_actions`` builds its lists by AVX-512 VBMI2's compress on this CPU (core/bits.h: Intel's with
#: VBMI2) and this Python (pinned ids: 64-bit CPython 3.10-3.11 with the GIL) rather than the portable loops (the
#: same lists either way).
LIST_COMPRESS: bool = bool(RC_LIST_COMPRESS)


cdef PyObject** _ID_ITEMS = PySequence_Fast_ITEMS(_ACTION_IDS)
rc_pin_ids(_ID_ITEMS, MAX_ACTIONS)     # see rc_pin_ids: the lists store the ids without a count


cdef inline Py_ssize_t _aligned(Py_ssize_t n) noexcept:
    return (n + 7) & ~7


# An unbound GameCore's function table: inert (no seat, no action, zero-byte states that never validate), so that a
# GameCore made but never bound by an engine can reach no NULL function pointer whatever it is handed to.
cdef uint32_t _unbound_actors(const void* cfg, const void* st) noexcept nogil:
    return 0


cdef void _unbound_init(const void* cfg, void* st, uint64_t seed) noexcept nogil:
    pass


cdef void _unbound_mask(const void* cfg, const void* st, int seat, uint64_t* words) noexcept nogil:
    pass


cdef void _unbound_apply(const void* cfg, void* st, int seat, int action) noexcept nogil:
    pass


cdef void _unbound_scores(const void* cfg, const void* st, int32_t* out) noexcept nogil:
    pass


cdef void _unbound_keys(const void* cfg, const void* st, int64_t* out) noexcept nogil:
    pass


cdef int _unbound_validate(const void* cfg, const void* st) noexcept nogil:
    return 1


cdef EngineSpec _UNBOUND
_UNBOUND.init = _unbound_init
_UNBOUND.actors = _unbound_actors
_UNBOUND.legal_mask = _unbound_mask
_UNBOUND.apply = _unbound_apply
_UNBOUND.scores = _unbound_scores
_UNBOUND.rank_keys = _unbound_keys
_UNBOUND.validate = _unbound_validate


@cython.final
cdef class GameCore:
    """An engine bound to one set of parameters (built by each game's ``engine.make_core``)."""

    def __cinit__(self):
        self.cfg_mem = NULL
        self.cfg = NULL
        self.spec = _UNBOUND

    def __dealloc__(self):
        PyMem_Free(self.cfg_mem)

    cdef int bind(self, const EngineSpec* spec, const void* cfg, size_t cfg_size) except -1:
        """Bind an engine's function table and a copy of its compiled config (called once, by the engine)."""
        if self.cfg_mem != NULL:
            raise AttributeError("a GameCore is bound once")
        if spec.num_seats < 1 or spec.num_seats > MAX_SEATS or spec.num_actions < 1 \
                or spec.num_actions > MAX_ACTIONS or spec.num_actions > 0xFFFF:
            raise ValueError("engine spec out of the supported range")
        if spec.resample_scratch > MAX_RESAMPLE_SCRATCH or (spec.resample_prepare != NULL
                                                            and spec.resample_draw == NULL):
            raise ValueError("engine spec: a native resampler needs resample_draw and at most "
                             "MAX_RESAMPLE_SCRATCH bytes of scratch")
        if spec.legal_mask_words != NULL and (spec.num_actions > 64 * 64
                                              or spec.mask_scratch > MAX_MASK_WORDS - 64):
            raise ValueError("engine spec: legal_mask_words serves masks of at most 64 words, with at most "
                             "MAX_MASK_WORDS - 64 words of scratch")
        self.cfg_mem = PyMem_Malloc(cfg_size if cfg_size else 1)
        if self.cfg_mem == NULL:
            raise MemoryError()
        memcpy(self.cfg_mem, cfg, cfg_size)
        self.cfg = self.cfg_mem
        self.spec = spec[0]
        self.spec.mask_words = (self.spec.num_actions + 63) >> 6
        if self.spec.legal_mask_words == NULL:
            self.spec.mask_scratch = 0
        return 0

    def set_header(self, bytes header not None) -> None:
        if self.header is not None:
            raise AttributeError("the header of a GameCore is set once")
        if len(header) > _MAX_HEADER:
            raise ValueError("serialization header too long")
        self.header = header

    @property
    def state_size(self) -> int:
        return self.spec.state_size

    @property
    def num_actions(self) -> int:
        return self.spec.num_actions

    @property
    def num_seats(self) -> int:
        return self.spec.num_seats

    @property
    def native_resample(self) -> bool:
        """Whether the engine provides a native determinisation (``resample_draw``) for search."""
        return self.spec.resample_draw != NULL

    @property
    def native_mask_words(self) -> bool:
        """Whether the engine names the mask words its move generation wrote (``legal_mask_words``), so that
        ``legal_actions`` lists only those."""
        return self.spec.legal_mask_words != NULL

    def validate_bytes(self, const uint8_t[::1] raw) -> int:
        """Run the engine's invariant check on raw struct bytes: 0 when valid, else the engine's error code."""
        if raw.shape[0] != self.spec.state_size:
            return -1
        return self.spec.validate(self.cfg, &raw[0])


#: The core of a State made by State.__new__ alone (never given one): inert, like every unbound GameCore
cdef GameCore _UNBOUND_CORE = GameCore()


cdef State empty_state(object game, GameCore core, uint64_t seed, Py_ssize_t hist_cap):
    cdef State s = State.__new__(State)
    s.game = game
    s.core = core
    s.seed = seed
    s._reserve(hist_cap)
    memset(s.data, 0, core.spec.state_size)
    return s


cdef State new_state(object game, GameCore core, uint64_t seed):
    cdef State s = empty_state(game, core, seed, 64)
    core.spec.init(core.cfg, s.data, seed)
    return s


cdef object _coerce_int(object value, str what):
    """An int from any integer-like value (numpy integers included); bools and the rest are refused."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an integer, not bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None


cdef inline const uint64_t* _mask_of(State st, int s, uint32_t bits) noexcept:
    """The legal mask of acting seat ``s`` (``bits``: the actors now), computed once per state and seat: until the
    state changes, every call that needs it (legal_actions, legal_mask, is_legal, apply) reads the cached words."""
    if st.mask_seat != s:
        if st.core.spec.legal_mask_words != NULL:
            st.mask_which = st.core.spec.legal_mask_words(st.core.cfg, st.data, s, st.mask_words)
        else:
            st.core.spec.legal_mask(st.core.cfg, st.data, s, st.mask_words)
        st.mask_seat = s
        st.mask_actors = bits
    return st.mask_words


cdef inline uint32_t _current_actors(State st) noexcept:
    """The actors now (cached with the mask)."""
    return st.mask_actors if st.mask_seat >= 0 else st.actor_bits()


cdef int _apply_checked(State self, object action, object seat) except -1:
    """``State.apply`` with every check spelled out (the calls its fast path does not take: other types, errors)."""
    cdef Py_ssize_t moves = self.hist_len    # every change of a state is a move (apply_unchecked)
    cdef uint32_t bits = _current_actors(self)
    cdef int s, overflow = 0
    cdef long a
    if bits == 0:
        raise GameOverError("the game is over; no action can be applied")
    if seat is None:
        s = lowest_bit(bits)
    else:
        s = self._seat(seat)
        if not (bits >> s) & 1:
            raise NotYourTurnError(f"seat {s} is not acting now (acting: {self.actors})")
    if type(action) is not int:
        try:
            action = _coerce_int(action, "action")
        except TypeError as exc:
            raise InvalidActionError(str(exc)) from None
    a = rc_small_index(action)
    if a < 0:
        a = PyLong_AsLongAndOverflow(action, &overflow)
    if overflow or a < 0 or a >= self.core.spec.num_actions:
        raise InvalidActionError(f"action ids are in [0, {self.core.spec.num_actions}), got {action}")
    if self.hist_len != moves:
        # the seat's or the action's __index__ (Python code) played a move on this state: check the ints again
        # against the state as it is now, rather than with the actors read before
        return _apply_checked(self, a, s if seat is not None else None)
    if not (_mask_of(self, s, bits)[a >> 6] >> (a & 63)) & 1:
        raise IllegalActionError(
            f"{self.game.action_to_str(a)} (action {a}) is not legal for seat {s} now"
        )
    self.apply_unchecked(s, <int>a)
    return 0


# Method descriptors, not Cython function objects: the interpreter specialises a call of a C method descriptor
# (3.11's PRECALL_*_METHOD_DESCRIPTOR_*) and calls the C function straight from its loop, where a Cython function
# goes through the generic call path, its vectorcall and an indirect call shared by every method: about 90
# instructions a call less. The "clinic" signature format keeps inspect.signature() working without binding.
@cython.final
@cython.freelist(32)
@cython.binding(False)
@cython.embedsignature.format("clinic")
cdef class State:
    """A game position: what the rules need, packed in one struct, plus the history that led to it.

    Obtain states from ``robotcore.make(...)`` or ``game.new_initial_state(...)``; never construct directly.
    """

    def __cinit__(self):
        self.core = _UNBOUND_CORE       # until a State is given its game's (State.__new__ alone: an inert one)
        self.data = NULL
        self.hist = NULL
        self.hist_len = 0
        self.hist_cap = 0
        self.mask_seat = -1

    def __dealloc__(self):
        PyMem_Free(self.data)

    def __init__(self, *args, **kwargs):
        raise TypeError("States come from robotcore.make() or Game.new_initial_state(), not State()")

    cdef int _reserve(self, Py_ssize_t cap) except -1:
        cdef Py_ssize_t struct_size = _aligned(self.core.spec.state_size)
        cdef Py_ssize_t mask_size = (self.core.spec.mask_words + self.core.spec.mask_scratch) * sizeof(uint64_t)
        cdef Py_ssize_t size = struct_size + mask_size
        cdef uint8_t* block
        if cap <= self.hist_cap and self.data != NULL:
            return 0
        if cap < 2 * self.hist_cap:
            cap = 2 * self.hist_cap
        if cap < 16:
            cap = 16
        block = <uint8_t*>PyMem_Realloc(self.data, size + cap * sizeof(uint32_t))
        if block == NULL:
            raise MemoryError()
        self.data = block
        self.mask_words = <uint64_t*>(block + struct_size)
        self.hist = <uint32_t*>(block + size)
        self.hist_cap = cap
        return 0

    cdef uint32_t actor_bits(self) noexcept:
        return self.core.spec.actors(self.core.cfg, self.data)

    cdef int apply_unchecked(self, int seat, int action) except -1:
        """Apply without validation (search code that already knows the action is legal)."""
        if self.hist_len == self.hist_cap:
            self._reserve(self.hist_len + 1)
        self.mask_seat = -1
        self.core.spec.apply(self.core.cfg, self.data, seat, action)
        self.hist[self.hist_len] = ((<uint32_t>seat) << 16) | <uint32_t>action
        self.hist_len += 1
        return 0

    cdef int _seat(self, object seat) except -2:
        """The seat asked for, or the current player when None (-1 when the game is over)."""
        cdef uint32_t bits
        cdef long s
        if seat is None:
            bits = self.actor_bits()
            return lowest_bit(bits) if bits else -1
        if type(seat) is not int:
            try:
                seat = _coerce_int(seat, "seat")
            except TypeError as exc:            # (a seat of no integer type is no seat: as an action's is)
                raise InvalidSeatError(str(exc)) from None
        if seat < 0 or seat >= self.core.spec.num_seats:
            raise InvalidSeatError(f"seat must be in [0, {self.core.spec.num_seats}), got {seat}")
        s = seat
        return <int>s

    def checked_seat(self, seat) -> int:
        """``seat`` as an int when it names one of this game's seats (None names none); ``InvalidSeatError``
        otherwise: the check every seat passes before compiled code reads it (``Game.own_seat`` too)."""
        return self._named_seat(seat)

    cdef int _named_seat(self, object seat) except -2:
        """The seat asked for, which must be one (a tensor or a re-deal is some seat's: None is refused, where
        ``_seat`` would take the current player, or -1 once the game is over)."""
        if seat is None:
            raise InvalidSeatError(f"name a seat in [0, {self.core.spec.num_seats}) (view(None) is a spectator's)")
        return self._seat(seat)

    # -- who acts ---------------------------------------------------------------------------------------------

    @property
    def actors(self) -> list:
        """Seats whose decision is pending now (several during a simultaneous phase; empty at the end)."""
        cdef uint32_t bits = self.actor_bits()
        out = []
        while bits:
            out.append(lowest_bit(bits))
            bits &= bits - 1
        return out

    @property
    def current_player(self) -> int:
        """OpenSpiel-style single actor: the lowest pending seat, or TERMINAL (-4) when the game is over."""
        cdef uint32_t bits = self.actor_bits()
        return lowest_bit(bits) if bits else TERMINAL

    @property
    def is_terminal(self) -> bool:
        return self.actor_bits() == 0

    @property
    def num_players(self) -> int:
        return self.core.spec.num_seats

    # -- actions ----------------------------------------------------------------------------------------------

    def legal_actions(self, seat=None) -> list:
        """Sorted legal action ids of ``seat`` (default: the current player); empty if that seat is not acting."""
        cdef uint32_t bits
        cdef const uint64_t* words
        cdef int s = 0
        if seat is not None:
            s = self._seat(seat)        # first: a seat's __index__ is Python code, which may change this state
        bits = _current_actors(self)
        if seat is None:
            if bits == 0:
                return []
            s = lowest_bit(bits)
        elif not (bits >> s) & 1:
            return []
        words = _mask_of(self, s, bits)
        if self.core.spec.legal_mask_words != NULL:
            return rc_mask_list_in(_ID_ITEMS, words, self.mask_which, self.core.spec.mask_words)
        return rc_mask_list(_ID_ITEMS, words, self.core.spec.mask_words)

    def legal_mask(self, seat=None) -> cnp.ndarray:
        """Boolean array of length ``num_actions``: True where the action is legal for ``seat``."""
        cdef int s = self._seat(seat)       # (before the actors are read: see legal_actions)
        cdef cnp.npy_intp n = self.core.spec.num_actions
        cdef cnp.ndarray arr = cnp.PyArray_ZEROS(1, &n, cnp.NPY_BOOL, 0)
        cdef uint32_t bits = _current_actors(self)
        cdef uint8_t* out = <uint8_t*>cnp.PyArray_DATA(arr)
        cdef const uint64_t* words
        cdef uint64_t w
        cdef int i
        if s < 0 or not (bits >> s) & 1:
            return arr
        words = _mask_of(self, s, bits)
        for i in range(self.core.spec.mask_words):     # the array is zeroed: set the legal ones only
            w = words[i]
            while w:
                out[(i << 6) | lowest_bit(w)] = 1
                w &= w - 1
        return arr

    def is_legal(self, action, seat=None) -> bool:
        """True when ``action`` may be applied now for ``seat`` (default: the current player)."""
        cdef uint32_t bits
        cdef int s
        cdef long a
        if type(action) is not int:         # the conversions first (see legal_actions), then the actors
            try:
                action = _coerce_int(action, "action")
            except TypeError:
                return False
        try:
            s = self._seat(seat)
        except (TypeError, ValueError):
            return False
        bits = _current_actors(self)
        if s < 0 or not (bits >> s) & 1:
            return False
        if action < 0 or action >= self.core.spec.num_actions:
            return False
        a = action
        return bool((_mask_of(self, s, bits)[a >> 6] >> (a & 63)) & 1)

    def apply(self, action, seat=None) -> None:
        """Apply ``action`` for ``seat`` (default: the current player), after checking it is legal.

        Raises ``GameOverError``, ``NotYourTurnError``, ``InvalidActionError`` (not an action id) or
        ``IllegalActionError`` (an id that is not legal now); the state is unchanged when it raises.
        """
        # The common call (an int legal for the current player, or for a seat given as an int) is checked here
        # with C values only; anything else, errors included, takes _apply_checked, the same checks in full.
        cdef uint32_t bits = _current_actors(self)
        cdef long a = rc_small_index(action)
        cdef long s
        if seat is None:
            s = lowest_bit(bits) if bits else -1
        else:
            s = rc_small_index(seat)
            if s >= self.core.spec.num_seats or not (bits >> s) & 1:
                s = -1
        if s >= 0 and 0 <= a < self.core.spec.num_actions \
                and (_mask_of(self, <int>s, bits)[a >> 6] >> (a & 63)) & 1:
            self.apply_unchecked(<int>s, <int>a)
            return None
        _apply_checked(self, action, seat)

    def apply_str(self, text, seat=None) -> int:
        """Parse ``text`` with the game's notation, apply it, and return the action id (anything but a str of an
        action is the game's ``InvalidActionError``: the argument is not typed here, where Cython would raise
        its own TypeError)."""
        a = self.game.parse_action(text)
        self.apply(a, seat)
        return a

    def legal_action_strs(self, seat=None) -> list:
        to_str = self.game.action_to_str
        return [to_str(a) for a in self.legal_actions(seat)]

    # -- history and lifecycle --------------------------------------------------------------------------------

    @property
    def history(self) -> list:
        """Every applied action as ``(seat, action)``, oldest first (automata and chance are not listed)."""
        cdef Py_ssize_t i
        return [(<int>(self.hist[i] >> 16), <int>(self.hist[i] & 0xFFFF)) for i in range(self.hist_len)]

    @property
    def move_number(self) -> int:
        return self.hist_len

    cpdef State clone(self):
        """An independent copy (struct and history)."""
        cdef State c = empty_state(self.game, self.core, self.seed, self.hist_len + 16)
        memcpy(c.data, self.data, self.core.spec.state_size)
        memcpy(c.hist, self.hist, self.hist_len * sizeof(uint32_t))
        c.hist_len = self.hist_len
        return c

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        return (_restore, (self.game, self.to_bytes()))

    def __eq__(self, other):
        """Equal when the same game (parameters and content included) and the same packed struct."""
        if not isinstance(other, State):
            return NotImplemented
        cdef State o = <State>other
        return (
            self.core.header == o.core.header
            and memcmp(self.data, o.data, self.core.spec.state_size) == 0
        )

    __hash__ = None

    def state_bytes(self) -> bytes:
        """The packed struct alone (no header, no history): one row of a batch array."""
        return (<char*>self.data)[:self.core.spec.state_size]

    def to_bytes(self) -> bytes:
        """Self-describing serialization: header (game, parameters, content), seed, struct, history, CRC-32."""
        cdef bytes header = self.core.header
        cdef Py_ssize_t size = self.core.spec.state_size
        prefix = _PREFIX.pack(MAGIC, FORMAT_VERSION, len(header), self.seed, size, self.hist_len)
        body = b"".join((
            prefix,
            header,
            (<char*>self.data)[:size],
            (<char*>self.hist)[:self.hist_len * sizeof(uint32_t)],
        ))
        return body + _CRC.pack(zlib.crc32(body))

    # -- scores and end ---------------------------------------------------------------------------------------

    def scores(self) -> list:
        """Victory points of every seat by the game's official scoring (available at any time)."""
        cdef int32_t out[MAX_SEATS]
        cdef int i
        self.core.spec.scores(self.core.cfg, self.data, out)
        return [out[i] for i in range(self.core.spec.num_seats)]

    def rank_keys(self) -> list:
        """Ranking keys (higher is better, ties share a place): the score with the game's tie-breaks."""
        cdef int64_t out[MAX_SEATS]
        cdef int i
        self.core.spec.rank_keys(self.core.cfg, self.data, out)
        return [out[i] for i in range(self.core.spec.num_seats)]

    def returns(self) -> list:
        """Per-seat utility for search: the winners share 1.0 equally, the others get 0.0; all 0.0 until
        the game is over. A game of one seat with a goal (Sparks' solo game) gives 1.0 for a win, 0.0 for a
        loss."""
        cdef double out[MAX_SEATS]
        cdef int i
        compute_returns(&self.core.spec, self.core.cfg, self.data, out)
        return [out[i] for i in range(self.core.spec.num_seats)]

    def outcome(self):
        """The final ``Outcome`` (ranking with the game's tie-breaks), or None while the game goes on."""
        if not self.is_terminal:
            return None
        from robotcore.types import Outcome
        outcome = Outcome.from_keys(self.scores(), self.rank_keys())
        if self.core.spec.num_seats == 1 and self.returns()[0] == 0.0:     # a solo game lost: no winner
            outcome = Outcome(outcome.scores, outcome.places, ())
        return outcome

    # -- per-seat information (computed by the game package) -------------------------------------------------

    def view(self, seat=None) -> dict:
        """JSON-ready dict of exactly what ``seat`` can see (None: a spectator)."""
        if seat is not None:
            seat = self._seat(seat)
        return self.game.view_module.view(self.game, self, seat)

    def observation(self, seat) -> cnp.ndarray:
        """Fixed-shape float32 tensor of what ``seat`` can see, for learning."""
        return self.game.view_module.observation(self, self._named_seat(seat))

    def resample_hidden(self, seat, seed) -> State:
        """A state consistent with everything ``seat`` knows, with the rest re-dealt (ISMCTS determinisation).
        It has no history: its past is not the game's (and the real one holds others' hidden choices). The
        game's view module draws it (``Game.resample_hidden`` is this same call): done here, not through a
        Python method, since search calls it once per determinisation."""
        cdef int who = self._named_seat(seat)
        cdef State out = self.game.view_module.resample(self.game, self, who, check_seed(seed))
        out.hist_len = 0
        return out

    def drop_history(self) -> None:
        """Forget the history (the struct stays): for determinisations, whose past is not the game's."""
        self.hist_len = 0

    def __repr__(self) -> str:
        return f"<{self.game.name} State move={self.hist_len} actors={self.actors}>"

    def __str__(self) -> str:
        return self.game.render(self)


cdef int take_native_hooks(EngineSpec* spec, object hooks) except -1:
    cdef const EngineSpec* h = <const EngineSpec*>PyCapsule_GetPointer(hooks, b"robotcore.EngineSpec")
    spec.resample_prepare = h.resample_prepare
    spec.resample_draw = h.resample_draw
    spec.resample_scratch = h.resample_scratch
    spec.evaluate = h.evaluate
    return 0


cdef void compute_returns(const EngineSpec* spec, const void* cfg, const void* st, double* out) noexcept nogil:
    cdef int64_t keys[MAX_SEATS]
    cdef int64_t best
    cdef int i, n = spec.num_seats, winners = 0
    for i in range(n):
        out[i] = 0.0
    if spec.actors(cfg, st) != 0:
        return
    if n == 1 and spec.solo_won != NULL:
        out[0] = 1.0 if spec.solo_won(cfg, st) else 0.0
        return
    spec.rank_keys(cfg, st, keys)
    best = keys[0]
    for i in range(1, n):
        if keys[i] > best:
            best = keys[i]
    for i in range(n):
        if keys[i] == best:
            winners += 1
    for i in range(n):
        if keys[i] == best:
            out[i] = 1.0 / winners


def _restore(game, data):
    return game.from_bytes(data)


def read_header(data) -> bytes:
    """The game-identifying header of serialized state bytes (raises CorruptStateError on malformed input)."""
    return _parse(data)[0]


cdef tuple _parse(object data):
    """Split serialized bytes into (header, seed, struct bytes, history bytes), checking framing and CRC."""
    cdef const uint8_t[::1] view
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise CorruptStateError(f"serialized state must be bytes, not {type(data).__name__}")
    data = bytes(data)
    if sys.byteorder != "little":
        raise CorruptStateError("serialized states are little-endian; this host is big-endian")
    if len(data) < _PREFIX.size + _CRC.size:
        raise CorruptStateError("serialized state is truncated")
    magic, version, hlen, seed, size, hist_len = _PREFIX.unpack_from(data, 0)
    if magic != MAGIC:
        raise CorruptStateError("not a robotcore state (bad magic)")
    if version != FORMAT_VERSION:
        raise CorruptStateError(f"unsupported state format version {version}")
    if hlen > _MAX_HEADER or hist_len > _MAX_HISTORY:
        raise CorruptStateError("serialized state has impossible lengths")
    expected = _PREFIX.size + hlen + size + 4 * hist_len + _CRC.size
    if len(data) != expected:
        raise CorruptStateError(f"serialized state has {len(data)} bytes, its framing says {expected}")
    (crc,) = _CRC.unpack_from(data, expected - _CRC.size)
    if zlib.crc32(data[: expected - _CRC.size]) != crc:
        raise CorruptStateError("serialized state fails its checksum")
    pos = _PREFIX.size
    header = data[pos : pos + hlen]
    pos += hlen
    raw = data[pos : pos + size]
    pos += size
    hist = data[pos : pos + 4 * hist_len]
    return header, seed, raw, hist


def state_from_bytes(game, GameCore core, data) -> State:
    """Rebuild a State of ``game`` from ``to_bytes()`` output; foreign or corrupted bytes raise CorruptStateError."""
    header, seed, raw, hist = _parse(data)
    if header != core.header:
        raise CorruptStateError(_foreign(header, core.header))
    return state_from_parts(game, core, raw, hist, seed)


def _foreign(header: bytes, own: bytes) -> str:
    """Why a state's header is not this game's: which of the game, its parameters and its content differs (a
    state of custom content loads with that content only: ``content=``)."""
    import json
    try:
        doc, mine = json.loads(header), json.loads(own)
        game, params, content = doc["game"], doc["params"], doc["content"]
    except (ValueError, RecursionError, TypeError, KeyError):
        return "these bytes belong to another game, parameter set or content (their header is unreadable)"
    if game != mine["game"]:
        return f"these bytes are a state of {str(game)[:40]!r}, not of {mine['game']!r}"
    if params != mine["params"]:
        return f"these bytes are a state of {mine['game']} with other parameters: {str(params)[:200]}"
    return (f"these bytes are a state of {mine['game']} with other content (digest {str(content)[:40]}; this "
            f"game's is {mine['content']}): load them with that content (from_bytes(data, content=...))")


def state_from_parts(game, GameCore core, raw, hist, uint64_t seed) -> State:
    """A State from raw struct bytes and a packed history, after the engine's invariant check."""
    cdef const uint8_t[::1] rv = raw
    cdef const uint8_t[::1] hv = hist
    cdef Py_ssize_t n_hist = hv.shape[0] // 4, i
    cdef int code
    cdef uint32_t entry
    cdef State s
    if rv.shape[0] != core.spec.state_size:
        raise CorruptStateError(f"struct must be {core.spec.state_size} bytes, got {rv.shape[0]}")
    if hv.shape[0] % 4:
        raise CorruptStateError("history length is not a whole number of entries")
    code = core.spec.validate(core.cfg, &rv[0])
    if code != 0:
        raise CorruptStateError(f"state fails the engine's invariants (code {code})")
    s = empty_state(game, core, seed, n_hist + 16)
    memcpy(s.data, &rv[0], core.spec.state_size)
    if n_hist:
        memcpy(s.hist, &hv[0], n_hist * sizeof(uint32_t))
    for i in range(n_hist):
        entry = s.hist[i]
        if (entry >> 16) >= <uint32_t>core.spec.num_seats or (entry & 0xFFFF) >= <uint32_t>core.spec.num_actions:
            raise CorruptStateError(f"history entry {i} is out of range")
    s.hist_len = n_hist
    return s


def new_initial_state(game, GameCore core, seed) -> State:
    return new_state(game, core, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))
