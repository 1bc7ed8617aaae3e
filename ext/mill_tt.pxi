# Mill transposition table (included by _mill.pyx): one 16-byte entry per slot, stored as key ^ data
# beside data, so that a torn write by another thread reads as a miss instead of a wrong entry.

cdef enum:
    BOUND_NONE = 0
    BOUND_UPPER = 1
    BOUND_LOWER = 2
    BOUND_EXACT = 3

ctypedef struct TTEntry:
    uint64_t check      # key ^ data
    uint64_t data       # move (34 bits), score + 32768 (16), depth (8), bound (2)

ctypedef struct TTHit:
    Move move
    int score, depth, bound   # bound BOUND_NONE: no entry for this key


cdef inline uint64_t pack_move(Move m) noexcept nogil:
    return <uint64_t>(m.frm + 1) | (<uint64_t>(m.to + 1) << 5) | (<uint64_t>m.removed << 10)


cdef inline Move unpack_move(uint64_t data) noexcept nogil:
    cdef Move m
    m.frm = <int8_t>((data & 31) - 1)
    m.to = <int8_t>(((data >> 5) & 31) - 1)
    m.removed = <uint32_t>((data >> 10) & FULL)
    return m


cdef inline TTHit tt_probe(const TTEntry* tt, uint64_t mask, uint64_t key) noexcept nogil:
    cdef const TTEntry* e = &tt[key & mask]
    cdef uint64_t data = e.data
    if (e.check ^ data) != key:
        data = 0    # a miss reads as an empty entry: no move, bound BOUND_NONE
    cdef TTHit hit
    hit.move = unpack_move(data)
    hit.score = <int>((data >> 34) & 0xFFFF) - 32768
    hit.depth = <int>((data >> 50) & 0xFF)
    hit.bound = <int>((data >> 58) & 3)
    return hit


cdef inline void tt_store(TTEntry* tt, uint64_t mask, uint64_t key, Move m, int score, int depth,
                          int bound) noexcept nogil:
    cdef TTEntry* e = &tt[key & mask]
    cdef uint64_t old = e.data
    # Keep a deeper result for the same position unless the new one is exact.
    if (e.check ^ old) == key and <int>((old >> 50) & 0xFF) > depth and bound != BOUND_EXACT:
        return
    cdef uint64_t data = (pack_move(m) | (<uint64_t>(score + 32768) << 34) | (<uint64_t>depth << 50)
                          | (<uint64_t>bound << 58))
    e.data = data
    e.check = key ^ data
