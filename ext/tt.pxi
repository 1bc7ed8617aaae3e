# Transposition table shared by all search threads. Lockless: each slot stores key ^ data beside
# data, so a slot torn by a concurrent write simply fails to match (Hyatt's XOR trick). Four
# 16-byte slots make a 64-byte bucket, one cache line; replacement prefers the shallow and the old.

from libc.stdint cimport int16_t, int8_t

cdef extern from *:
    """
    static inline void pyrope_prefetch(const void* addr) {
    #if defined(__GNUC__)
        __builtin_prefetch(addr);
    #endif
    }
    """
    void prefetch "pyrope_prefetch"(const void* addr) noexcept nogil

cdef enum:
    BOUND_NONE = 0
    BOUND_UPPER = 1
    BOUND_LOWER = 2
    BOUND_EXACT = 3
    BUCKET_SLOTS = 4
    VALUE_NONE = 32002
    VALUE_MATE = 32000
    VALUE_MATE_IN_MAX_PLY = 32000 - 2 * MAX_SEARCH_PLY

cdef struct TTSlot:
    u64 check       # key ^ data
    u64 data        # move 16 | score 16 | eval 16 | depth 8 | bound 2 | generation 6

cdef struct TTEntry:
    Move move
    int score
    int eval
    int depth
    int bound

cdef struct TTable:
    TTSlot* slots
    u64 buckets     # a power of two
    int generation  # 6 bits, bumped at every new search

cdef inline u64 tt_pack(Move move, int score, int eval, int depth, int bound, int generation) noexcept nogil:
    return (<u64>move) | ((<u64>(<uint16_t>(<int16_t>score))) << 16) \
        | ((<u64>(<uint16_t>(<int16_t>eval))) << 32) | ((<u64>(<unsigned char>(<int8_t>depth))) << 48) \
        | ((<u64>bound) << 56) | ((<u64>generation) << 58)

cdef inline TTSlot* tt_bucket(TTable* tt, u64 key) noexcept nogil:
    return tt.slots + (key & (tt.buckets - 1)) * BUCKET_SLOTS

cdef inline void tt_prefetch(TTable* tt, u64 key) noexcept nogil:
    prefetch(tt_bucket(tt, key))

cdef inline bint tt_probe(TTable* tt, u64 key, TTEntry* out) noexcept nogil:
    cdef TTSlot* slot = tt_bucket(tt, key)
    cdef u64 data
    cdef int i
    for i in range(BUCKET_SLOTS):
        data = slot[i].data
        if (slot[i].check ^ data) == key and data != 0:
            out.move = <Move>(data & 0xFFFF)
            out.score = <int16_t>((data >> 16) & 0xFFFF)
            out.eval = <int16_t>((data >> 32) & 0xFFFF)
            out.depth = <int8_t>((data >> 48) & 0xFF)
            out.bound = (data >> 56) & 3
            return True
    return False

cdef inline int tt_slot_worth(TTSlot* slot, int generation) noexcept nogil:
    # Depth minus eight per generation of age: deep recent entries are kept.
    cdef int depth = <int8_t>((slot.data >> 48) & 0xFF)
    cdef int age = (generation - <int>(slot.data >> 58)) & 63
    return depth - 8 * age

cdef inline void tt_store(TTable* tt, u64 key, Move move, int score, int eval, int depth, int bound) noexcept nogil:
    cdef TTSlot* slot = tt_bucket(tt, key)
    cdef TTSlot* victim = slot
    cdef int i
    cdef u64 data
    for i in range(BUCKET_SLOTS):
        if slot[i].data == 0 or (slot[i].check ^ slot[i].data) == key:
            victim = &slot[i]
            break
        if tt_slot_worth(&slot[i], tt.generation) < tt_slot_worth(victim, tt.generation):
            victim = &slot[i]
    if (victim.check ^ victim.data) == key and victim.data != 0:
        if move == MOVE_NONE:
            move = <Move>(victim.data & 0xFFFF)   # keep the known best move
        if bound != BOUND_EXACT and depth + 2 < <int8_t>((victim.data >> 48) & 0xFF):
            return                               # a much deeper result is worth more
    data = tt_pack(move, score, eval, depth, bound, tt.generation)
    victim.data = data
    victim.check = key ^ data

cdef inline int score_to_tt(int score, int ply) noexcept nogil:
    # Mate scores are stored relative to the node, not the root.
    if score >= VALUE_MATE_IN_MAX_PLY:
        return score + ply
    if score <= -VALUE_MATE_IN_MAX_PLY:
        return score - ply
    return score

cdef inline int score_from_tt(int score, int ply) noexcept nogil:
    if score >= VALUE_MATE_IN_MAX_PLY:
        return score - ply
    if score <= -VALUE_MATE_IN_MAX_PLY:
        return score + ply
    return score

cdef int tt_hashfull(TTable* tt) noexcept nogil:
    """Permille of the first thousand slots used in the current generation, as UCI reports it."""
    cdef int i, used = 0
    for i in range(1000):
        if tt.slots[i].data != 0 and <int>(tt.slots[i].data >> 58) == tt.generation:
            used += 1
    return used
