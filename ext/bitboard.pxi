# Bitboards: 64-bit sets of squares (a1 = 0 ... h8 = 63) and the attack tables built on them.
# Leaper attacks are plain tables; slider attacks use "fancy" magic bitboards whose magic numbers
# are found at import time from fixed seeds (Stockfish's method), which takes a few milliseconds.

from libc.stdint cimport uint64_t, uint16_t

ctypedef uint64_t u64

cdef extern from *:
    """
    #ifdef __POPCNT__
    static inline int pyrope_popcount(unsigned long long b) { return __builtin_popcountll(b); }
    #else
    /* Portable builds lack the popcnt instruction, and the builtin then calls libgcc's
       __popcountdi2; this inline SWAR count is branch-free and about twice as fast. */
    static inline int pyrope_popcount(unsigned long long b) {
        b = b - ((b >> 1) & 0x5555555555555555ULL);
        b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
        b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((b * 0x0101010101010101ULL) >> 56);
    }
    #endif
    static inline int pyrope_lsb(unsigned long long b) { return __builtin_ctzll(b); }
    static inline int pyrope_msb(unsigned long long b) { return 63 - __builtin_clzll(b); }
    """
    int popcount "pyrope_popcount"(u64 b) noexcept nogil
    int lsb "pyrope_lsb"(u64 b) noexcept nogil
    int msb "pyrope_msb"(u64 b) noexcept nogil

cdef enum:
    WHITE = 0
    BLACK = 1

cdef enum:
    NO_PIECE_TYPE = 0
    PAWN = 1
    KNIGHT = 2
    BISHOP = 3
    ROOK = 4
    QUEEN = 5
    KING = 6

cdef enum:
    NO_SQ = 64

cdef extern from *:
    """
    #define PYROPE_FILE_A 0x0101010101010101ULL
    #define PYROPE_FILE_H 0x8080808080808080ULL
    #define PYROPE_RANK_1 0x00000000000000FFULL
    #define PYROPE_RANK_8 0xFF00000000000000ULL
    """
    const u64 FILE_A "PYROPE_FILE_A"
    const u64 FILE_H "PYROPE_FILE_H"
    const u64 RANK_1 "PYROPE_RANK_1"
    const u64 RANK_8 "PYROPE_RANK_8"

cdef inline u64 bb(int sq) noexcept nogil:
    return 1ULL << sq

cdef inline bint more_than_one(u64 b) noexcept nogil:
    return (b & (b - 1)) != 0

cdef inline int file_of(int sq) noexcept nogil:
    return sq & 7

cdef inline int rank_of(int sq) noexcept nogil:
    return sq >> 3

cdef inline u64 shift(u64 b, int delta) noexcept nogil:
    # Shift by a signed square delta; callers mask off the file that would wrap around.
    return b << delta if delta > 0 else b >> (-delta)

cdef struct Magic:
    u64 mask
    u64 magic
    u64* attacks
    unsigned int shift

cdef u64 KNIGHT_ATTACKS[64]
cdef u64 KING_ATTACKS[64]
cdef u64 PAWN_ATTACKS[2][64]
cdef u64 BETWEEN[64][64]    # squares strictly between two aligned squares, else empty
cdef u64 LINE[64][64]       # the whole line through two aligned squares, else empty
cdef u64 ROOK_TABLE[0x19000]
cdef u64 BISHOP_TABLE[0x1480]
cdef Magic ROOK_MAGICS[64]
cdef Magic BISHOP_MAGICS[64]

cdef inline u64 rook_attacks(int sq, u64 occ) noexcept nogil:
    cdef Magic* m = &ROOK_MAGICS[sq]
    return m.attacks[((occ & m.mask) * m.magic) >> m.shift]

cdef inline u64 bishop_attacks(int sq, u64 occ) noexcept nogil:
    cdef Magic* m = &BISHOP_MAGICS[sq]
    return m.attacks[((occ & m.mask) * m.magic) >> m.shift]

cdef inline u64 queen_attacks(int sq, u64 occ) noexcept nogil:
    return rook_attacks(sq, occ) | bishop_attacks(sq, occ)


cdef u64 slow_slider_attacks(int sq, u64 occ, bint rook) noexcept nogil:
    """Ray-walking attacks; used only to build the magic tables."""
    cdef int rook_dirs[4][2]
    cdef int bishop_dirs[4][2]
    cdef int d, f, r
    cdef u64 result = 0
    rook_dirs[0] = [1, 0]; rook_dirs[1] = [-1, 0]; rook_dirs[2] = [0, 1]; rook_dirs[3] = [0, -1]
    bishop_dirs[0] = [1, 1]; bishop_dirs[1] = [1, -1]; bishop_dirs[2] = [-1, 1]; bishop_dirs[3] = [-1, -1]
    for d in range(4):
        f = file_of(sq)
        r = rank_of(sq)
        while True:
            if rook:
                f += rook_dirs[d][0]; r += rook_dirs[d][1]
            else:
                f += bishop_dirs[d][0]; r += bishop_dirs[d][1]
            if f < 0 or f > 7 or r < 0 or r > 7:
                break
            result |= bb(r * 8 + f)
            if occ & bb(r * 8 + f):
                break
    return result


cdef u64 leaper_attacks(int sq, const int* deltas, int count) noexcept nogil:
    cdef int i, f, r
    cdef u64 result = 0
    for i in range(count):
        f = file_of(sq) + deltas[2 * i]
        r = rank_of(sq) + deltas[2 * i + 1]
        if 0 <= f <= 7 and 0 <= r <= 7:
            result |= bb(r * 8 + f)
    return result


cdef struct Prng:
    u64 s

cdef inline u64 prng_next(Prng* g) noexcept nogil:
    # xorshift64star (Vigna), as in Stockfish: fixed seeds give the same magics on every machine.
    g.s ^= g.s >> 12
    g.s ^= g.s << 25
    g.s ^= g.s >> 27
    return g.s * 2685821657736338717ULL


cdef void init_magics(u64* table, Magic* magics, bint rook) noexcept nogil:
    cdef int seeds[8]
    seeds[:] = [728, 10316, 55013, 32803, 12281, 15100, 16645, 255]
    cdef u64 occupancy[4096]
    cdef u64 reference[4096]
    cdef int epoch[4096]
    cdef int cnt = 0, size = 0, i, sq
    cdef unsigned int idx
    cdef u64 edges, b
    cdef Magic* m
    cdef Prng g
    for i in range(4096):
        epoch[i] = 0
    for sq in range(64):
        edges = ((RANK_1 | RANK_8) & ~(RANK_1 << (8 * rank_of(sq)))) | \
                ((FILE_A | FILE_H) & ~(FILE_A << file_of(sq)))
        m = &magics[sq]
        m.mask = slow_slider_attacks(sq, 0, rook) & ~edges
        m.shift = 64 - popcount(m.mask)
        m.attacks = table if sq == 0 else magics[sq - 1].attacks + size
        # Carry-Rippler enumeration of every subset of the mask.
        b = 0
        size = 0
        while True:
            occupancy[size] = b
            reference[size] = slow_slider_attacks(sq, b, rook)
            size += 1
            b = (b - m.mask) & m.mask
            if b == 0:
                break
        g.s = seeds[rank_of(sq)]
        i = 0
        while i < size:
            m.magic = 0
            while popcount((m.magic * m.mask) >> 56) < 6:
                m.magic = prng_next(&g) & prng_next(&g) & prng_next(&g)
            cnt += 1
            i = 0
            while i < size:
                idx = <unsigned int>(((occupancy[i] & m.mask) * m.magic) >> m.shift)
                if epoch[idx] < cnt:
                    epoch[idx] = cnt
                    m.attacks[idx] = reference[i]
                elif m.attacks[idx] != reference[i]:
                    break
                i += 1


cdef void init_bitboards() noexcept nogil:
    cdef int knight_deltas[16]
    cdef int king_deltas[16]
    cdef int white_pawn[4]
    cdef int black_pawn[4]
    knight_deltas[:] = [1, 2, 2, 1, 2, -1, 1, -2, -1, -2, -2, -1, -2, 1, -1, 2]
    king_deltas[:] = [1, 0, 1, 1, 0, 1, -1, 1, -1, 0, -1, -1, 0, -1, 1, -1]
    white_pawn[:] = [-1, 1, 1, 1]
    black_pawn[:] = [-1, -1, 1, -1]
    cdef int s1, s2
    init_magics(ROOK_TABLE, ROOK_MAGICS, True)
    init_magics(BISHOP_TABLE, BISHOP_MAGICS, False)
    for s1 in range(64):
        KNIGHT_ATTACKS[s1] = leaper_attacks(s1, knight_deltas, 8)
        KING_ATTACKS[s1] = leaper_attacks(s1, king_deltas, 8)
        PAWN_ATTACKS[WHITE][s1] = leaper_attacks(s1, white_pawn, 2)
        PAWN_ATTACKS[BLACK][s1] = leaper_attacks(s1, black_pawn, 2)
    for s1 in range(64):
        for s2 in range(64):
            BETWEEN[s1][s2] = 0
            LINE[s1][s2] = 0
            if s1 == s2:
                continue
            if rook_attacks(s1, 0) & bb(s2):
                LINE[s1][s2] = (rook_attacks(s1, 0) & rook_attacks(s2, 0)) | bb(s1) | bb(s2)
                BETWEEN[s1][s2] = rook_attacks(s1, bb(s2)) & rook_attacks(s2, bb(s1))
            elif bishop_attacks(s1, 0) & bb(s2):
                LINE[s1][s2] = (bishop_attacks(s1, 0) & bishop_attacks(s2, 0)) | bb(s1) | bb(s2)
                BETWEEN[s1][s2] = bishop_attacks(s1, bb(s2)) & bishop_attacks(s2, bb(s1))
