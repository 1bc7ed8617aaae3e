# Syzygy endgame tablebases: WDL (win/draw/loss) and DTZ (distance to zeroing) probes in C. Tables
# are found by file name when the set is opened and memory-mapped on the first probe of their
# material; the probes run without the GIL on a Position, so the search can call
# probe_wdl/probe_dtz directly.
#
# Where it comes from (written for Pyrope, not copied, but its structure follows these):
# - Ronald de Man's .rtbw/.rtbz format and his reference probing code (tbcore.c/tbprobe.c of his
#   Syzygy generator, "Copyright (c) 2011-2018 Ronald de Man. This file may be redistributed
#   and/or modified without restrictions."): the header and pairs-data layout, the symmetry
#   reduction and combinatorial index, Huffman block decoding, and the rule that captures and en
#   passant are resolved by a small search because the tables assume the prober finds the best
#   capture.
# - python-chess's chess/syzygy.py (Copyright (C) Niklas Fiekas, GPL-3.0-or-later), a port of the
#   same reference code, for its sign and rounding conventions of DTZ; the tests compare every
#   result with it.
# This file, like the rest of Pyrope, is GPL-3.0-or-later (LICENSE), which both permit.
#
# A file is a 5-byte header (magic, flags), then per "file" of the leading pawn (a-d, or one
# for pawnless tables) the piece order of each side's table, then per table the Huffman and
# block headers ("pairs data"), [DTZ: value maps], sparse indices, block lengths, and 64-byte
# aligned compressed blocks. A position maps to an index by symmetry reduction and combinatorial
# numbering of each group of like pieces; the index selects a value in the compressed stream.

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.stdio cimport snprintf

cdef enum:
    TB_PIECES = 7           # the format's limit; the largest published sets have 7 pieces
    TB_PROBE_PLIES = 32     # free StateInfo slots a probe may use (captures, then a move or two)

cdef enum:
    # ProbeState.fault: why a probe failed
    TB_OK = 0
    TB_CASTLING = 1         # positions with castling rights are not in the tables
    TB_MISSING = 2          # no file for the material (key, dtz tell which)
    TB_BAD_FILE = 3         # the file could not be opened or its header is wrong (see its fault)
    TB_CORRUPT = 4          # the compressed data points outside the file

cdef enum:
    # Flags of a table's pairs data (first byte of its header)
    PAIRS_STM = 1           # DTZ: which side to move the table stores
    PAIRS_MAPPED = 2        # DTZ: values go through a per-outcome map
    PAIRS_WIN_PLIES = 4     # DTZ: wins stored in plies (else in moves, to be doubled)
    PAIRS_LOSS_PLIES = 8
    PAIRS_WIDE = 16         # DTZ: the maps hold 16-bit values
    PAIRS_SINGLE = 128      # every position has the same value

cdef unsigned char WDL_MAGIC[4]
cdef unsigned char DTZ_MAGIC[4]
WDL_MAGIC[:] = [0x71, 0xE8, 0x23, 0x5D]
DTZ_MAGIC[:] = [0xD7, 0x66, 0x0C, 0xA5]


class TablebaseError(ValueError):
    """A position the tables cannot answer, or a table file that cannot be used; the message
    names the position's material or the file, and the fault."""


# ---------------------------------------------------------------------------------------------
# Index tables, computed once at import (init_syzygy, after init_bitboards: it needs KING_ATTACKS).

cdef u64 BINOMIAL[TB_PIECES + 1][65]   # BINOMIAL[k][n] = n choose k
cdef int TRIANGLE[64]       # a1-d1-d4 triangle: b1..d3 below the diagonal 0..5, then a1..d4 6..9
cdef int LOWER[64]          # squares below the a1-h8 diagonal, numbered 0..27 in square order
cdef int KK_INDEX[10][64]   # the 462 placements of two kings, first in the triangle; -1 if illegal
cdef int FLAP[64]           # pawn squares of files a-d (mirrored for e-h): file * 6 + rank - 1
cdef int PTWIST[64]         # pawn order that puts the leading pawn first: edge files, low ranks
cdef int INVFLAP[24]        # FLAP's inverse on files a-d
cdef u64 PAWN_INDEX[TB_PIECES - 2][24]    # start index of a leading pawn by [lead pawns - 1][FLAP]
cdef u64 PAWN_FACTOR[TB_PIECES - 2][4]    # placements of the leading pawns by [lead pawns - 1][file]


cdef inline int off_diagonal(int sq) noexcept nogil:
    # Positive above the a1-h8 diagonal, zero on it, negative below.
    return rank_of(sq) - file_of(sq)


cdef inline int flip_diagonal(int sq) noexcept nogil:
    return ((sq >> 3) | (sq << 3)) & 63


cdef void init_syzygy() noexcept nogil:
    cdef int k, n, sq, sq2, code, t, f, j, first
    cdef int diagonal_pairs[64][2]
    cdef int pairs_count = 0
    cdef u64 total
    for k in range(TB_PIECES + 1):
        for n in range(65):
            if k == 0:
                BINOMIAL[k][n] = 1
            elif n == 0:
                BINOMIAL[k][n] = 0
            else:
                BINOMIAL[k][n] = BINOMIAL[k][n - 1] + BINOMIAL[k - 1][n - 1]
    code = 0
    for sq in range(64):
        TRIANGLE[sq] = -1
        if file_of(sq) <= 3 and rank_of(sq) <= 3 and off_diagonal(sq) < 0:
            TRIANGLE[sq] = code
            code += 1
    for sq in range(64):
        if file_of(sq) <= 3 and rank_of(sq) <= 3 and off_diagonal(sq) == 0:
            TRIANGLE[sq] = code
            code += 1
    code = 0
    for sq in range(64):
        LOWER[sq] = -1
        if off_diagonal(sq) < 0:
            LOWER[sq] = code
            code += 1
    # Two kings: the first in the triangle, the second anywhere not touching it; when the first
    # is on the diagonal the second must not be above it. Both-on-the-diagonal placements come last.
    code = 0
    for t in range(10):
        for sq in range(64):
            KK_INDEX[t][sq] = -1
    for t in range(10):
        for first in range(64):
            if TRIANGLE[first] == t:
                break
        for sq2 in range(64):
            if sq2 == first or KING_ATTACKS[first] & bb(sq2):
                continue
            if off_diagonal(first) == 0 and off_diagonal(sq2) > 0:
                continue
            if off_diagonal(first) == 0 and off_diagonal(sq2) == 0:
                diagonal_pairs[pairs_count][0] = t
                diagonal_pairs[pairs_count][1] = sq2
                pairs_count += 1
                continue
            KK_INDEX[t][sq2] = code
            code += 1
    for j in range(pairs_count):
        KK_INDEX[diagonal_pairs[j][0]][diagonal_pairs[j][1]] = code
        code += 1
    for sq in range(64):
        FLAP[sq] = PTWIST[sq] = 0
        if 1 <= rank_of(sq) <= 6:
            f = file_of(sq) if file_of(sq) < 4 else 7 - file_of(sq)
            FLAP[sq] = f * 6 + rank_of(sq) - 1
            PTWIST[sq] = (3 - f) * 12 + (6 - rank_of(sq)) * 2 + (1 if file_of(sq) < 4 else 0)
            if file_of(sq) < 4:
                INVFLAP[FLAP[sq]] = sq
    # The leading pawn (lowest FLAP) comes with t more leading pawns on squares of lower PTWIST.
    for t in range(TB_PIECES - 2):
        for f in range(4):
            total = 0
            for j in range(6 * f, 6 * f + 6):
                PAWN_INDEX[t][j] = total
                total += BINOMIAL[t][PTWIST[INVFLAP[j]]]
            PAWN_FACTOR[t][f] = total


# ---------------------------------------------------------------------------------------------
# Table structures.

cdef struct Pairs:
    # One compressed table: a side to move (WDL) and a leading-pawn file (pawn tables).
    int flags
    int single_value            # the value of every position when flags & PAIRS_SINGLE
    int pieces[TB_PIECES]       # piece codes (colour << 3 | type) in the table's order
    int group_len[TB_PIECES + 1]    # lengths of the groups of pieces encoded together; 0 ends
    u64 group_factor[TB_PIECES + 1] # multiplier of each group's index
    u64 size                    # number of positions (the index range)
    int min_len, max_len        # Huffman code lengths in bits
    int num_syms
    u64 span                    # one sparse-index entry per span positions
    u64 block_size
    u64 num_blocks
    u64 length_count            # entries in the block-length table (num_blocks plus padding)
    u64 sparse_count
    const unsigned char* lowest_sym # u16 per code length: the lowest symbol of that length
    const unsigned char* btree  # 3 bytes per symbol: left and right child, 12 bits each
    const unsigned char* sparse # 6 bytes per entry: block (u32) and offset in it (u16)
    const unsigned char* lengths    # u16 per block: number of values in it minus one
    const unsigned char* blocks
    u64 base[32]                # lowest left-aligned 64-bit code of each length
    int* symlen                 # values a symbol expands to, minus one
    int map_offset[4]           # DTZ: start of each outcome's value map (in entries)
    int map_len[4]


cdef struct TbFile:
    TableFile file              # the path, the mapping and whether it is usable
    u64 white_key               # material of the table's white side, from its header
    int sides                   # 2 for WDL tables of unsymmetric material, else 1
    int files                   # 4 for pawn tables (leading pawn on a..d), else 1
    Pairs* pairs                # [side * files + file]
    const unsigned char* dtz_map    # DTZ: start of the value maps, which Pairs.map_offset index


cdef struct TbEntry:
    u64 key                     # material as named: the first part of the name is white
    int num                     # pieces, kings included
    bint has_pawns
    bint unique                 # at least three pieces without a twin: encoded together
    bint symmetric              # both sides have the same material
    int lead_pawns              # pawns of the side with fewer (but some) pawns
    int other_pawns             # pawns of the other side
    TbFile wdl
    TbFile dtz


cdef struct Registry:
    TbEntry* entries
    int count
    TbEntry** slots             # open-addressing hash by material key (both colour orders)
    u64 mask
    int wdl_count, dtz_count, max_pieces


cdef Registry TABLES            # the process's set of tables, read by the search without Python
cdef int registry_generation = 0    # counts Tablebases made, so a replaced one refuses to probe


cdef struct ProbeState:
    int fault                   # TB_OK or why the probe failed
    TbEntry* entry              # the material whose table failed (NULL when none exists)
    u64 key                     # that material, as the position holds it (white first)
    bint dtz                    # whether the failing table is the DTZ one


# ---------------------------------------------------------------------------------------------
# Material keys: four bits of count per piece code, so white's pieces fill the low 32 bits and
# black's the high 32; swapping the halves swaps the colours.

cdef inline u64 material_key(Position* pos) noexcept nogil:
    cdef u64 key = 0
    cdef int pt
    for pt in range(PAWN, KING + 1):
        key += (<u64>pos.count[make_piece(WHITE, pt)]) << (4 * make_piece(WHITE, pt))
        key += (<u64>pos.count[make_piece(BLACK, pt)]) << (4 * make_piece(BLACK, pt))
    return key


cdef inline u64 mirror_key(u64 key) noexcept nogil:
    return (key >> 32) | (key << 32)


cdef inline u64 key_slot(u64 key) noexcept nogil:
    # Fibonacci hashing spreads the sparse nibble keys over the slots.
    return (key * 0x9E3779B97F4A7C15ULL) >> 40


cdef TbEntry* find_entry(u64 key) noexcept nogil:
    cdef u64 i
    if TABLES.slots == NULL:
        return NULL
    i = key_slot(key)
    while True:
        i &= TABLES.mask
        if TABLES.slots[i] == NULL:
            return NULL
        if TABLES.slots[i].key == key or mirror_key(TABLES.slots[i].key) == key:
            return TABLES.slots[i]
        i += 1


# ---------------------------------------------------------------------------------------------
# Opening a file: map it, check it, and read its headers into Pairs. Runs once per file, under
# the open lock; any fault marks the file broken with a message and every later probe fails.

cdef struct Reader:
    # A cursor over a mapped file that refuses to read past its end.
    const unsigned char* data
    size_t size
    size_t pos
    size_t needed               # the file length the header asks for, once it runs short
    bint short


cdef inline bint reader_has(Reader* r, size_t n) noexcept nogil:
    if not r.short and r.pos + n > r.size:
        r.short = True
        r.needed = r.pos + n
    return not r.short


cdef int symbol_length(Pairs* d, int sym, unsigned char* visiting) noexcept nogil:
    """How many values symbol `sym` stands for, minus one; -1 when the tree is malformed. A
    symbol is a leaf (right child 0xFFF) or the pair of its two children."""
    cdef const unsigned char* node = d.btree + 3 * sym
    cdef int left = ((node[1] & 0xF) << 8) | node[0]
    cdef int right = (node[2] << 4) | (node[1] >> 4)
    cdef int a, b
    if d.symlen[sym] >= 0:
        return d.symlen[sym]
    if right == 0xFFF:
        d.symlen[sym] = 0
        return 0
    if left >= d.num_syms or right >= d.num_syms or visiting[sym]:
        return -1     # a child out of range, or a cycle
    visiting[sym] = 1
    a = symbol_length(d, left, visiting)
    b = symbol_length(d, right, visiting)
    visiting[sym] = 0
    if a < 0 or b < 0:
        return -1
    d.symlen[sym] = a + b + 1
    return d.symlen[sym]


cdef const char* read_pairs_header(Reader* r, Pairs* d, bint wdl) noexcept nogil:
    """Read one table's pairs data at the cursor; returns NULL or the fault."""
    cdef const unsigned char* p
    cdef int i, h
    cdef unsigned char* visiting
    if not reader_has(r, 2):
        return NULL
    p = r.data + r.pos
    d.flags = p[0]
    if d.flags & PAIRS_SINGLE:
        # The DTZ generator writes a meaningless byte here: such tables are all draws, whose
        # DTZ is 0 (python-chess and the reference prober read it as 0 too).
        d.single_value = p[1] if wdl else 0
        r.pos += 2
        return NULL
    if not reader_has(r, 12):
        return NULL
    d.block_size = 1ULL << p[1] if p[1] < 32 else 0
    d.span = 1ULL << p[2] if 0 < p[2] < 64 else 0
    d.num_blocks = read_le32(p + 4)
    d.length_count = d.num_blocks + p[3]
    d.max_len = p[8]
    d.min_len = p[9]
    if d.block_size == 0 or d.span == 0 or not (1 <= d.min_len <= d.max_len <= 32):
        return "bad block or Huffman code sizes in a table header"
    h = d.max_len - d.min_len + 1
    if not reader_has(r, 12 + 2 * h):
        return NULL
    d.lowest_sym = p + 10
    d.num_syms = read_le16(p + 10 + 2 * h)
    if not reader_has(r, 12 + 2 * h + 3 * d.num_syms + (d.num_syms & 1)):
        return NULL
    d.btree = p + 12 + 2 * h
    r.pos += 12 + 2 * h + 3 * d.num_syms + (d.num_syms & 1)
    d.sparse_count = (d.size + d.span - 1) // d.span
    # Canonical Huffman: longer codes have lower values; base[i] is the lowest code of length
    # min_len + i, left-aligned in 64 bits, so a code's length is the first i with code >= base[i].
    d.base[h - 1] = 0
    for i in range(h - 2, -1, -1):
        d.base[i] = (d.base[i + 1] + read_le16(d.lowest_sym + 2 * i) - read_le16(d.lowest_sym + 2 * i + 2)) // 2
    for i in range(h):
        d.base[i] <<= 64 - (d.min_len + i)
    d.symlen = <int*>malloc((d.num_syms + 1) * sizeof(int))    # + 1: malloc(0) may give NULL
    visiting = <unsigned char*>calloc(d.num_syms + 1, 1)
    if d.symlen == NULL or visiting == NULL:
        free(visiting)
        return "out of memory"
    for i in range(d.num_syms):
        d.symlen[i] = -1
    for i in range(d.num_syms):
        if symbol_length(d, i, visiting) < 0:
            free(visiting)
            return "malformed symbol tree in a table header"
    free(visiting)
    return NULL


cdef bint pawn_groups_match(TbEntry* e, Pairs* d) noexcept nogil:
    """Whether the piece order starts with the leading pawns, then the other side's pawns."""
    cdef int i
    for i in range(e.lead_pawns + e.other_pawns):
        if i < e.lead_pawns and d.pieces[i] != make_piece(color_of(d.pieces[0]), PAWN):
            return False
        if i >= e.lead_pawns and d.pieces[i] != make_piece(color_of(d.pieces[0]) ^ 1, PAWN):
            return False
    return True


cdef const char* read_piece_order(TbEntry* e, TbFile* t, Reader* r, int f) noexcept nogil:
    """Read the piece order of both sides' tables for leading-pawn file f and derive the groups
    and their factors; returns NULL or the fault."""
    cdef const unsigned char* p
    cdef int order[2]
    cdef int order2[2]
    cdef int side, i, g, k, nxt, free_squares, lead_len, pc
    cdef bint both_pawns = e.has_pawns and e.other_pawns > 0
    cdef int skip = 2 if both_pawns else 1
    cdef u64 factor, white = 0
    cdef Pairs* d
    if not reader_has(r, skip + e.num):
        return NULL
    p = r.data + r.pos
    order[0] = p[0] & 0xF
    order[1] = p[0] >> 4
    order2[0] = p[1] & 0xF if both_pawns else 0xF
    order2[1] = p[1] >> 4 if both_pawns else 0xF
    for side in range(t.sides):
        d = &t.pairs[side * t.files + f]
        for i in range(e.num):
            pc = (p[skip + i] >> 4) if side else (p[skip + i] & 0xF)
            if not (PAWN <= type_of(pc) <= KING):
                return "bad piece code in the header"
            d.pieces[i] = pc
        if e.has_pawns and not pawn_groups_match(e, d):
            return "the header's pawns are not the table's leading and other pawns"
        # Groups: the leading pawns, the other side's pawns, then runs of like pieces; pawnless
        # tables lead with three unique pieces together, or the two kings.
        lead_len = e.lead_pawns if e.has_pawns else (3 if e.unique else 2)
        g = 0
        d.group_len[0] = lead_len
        if both_pawns:
            g = 1
            d.group_len[1] = e.other_pawns
        i = d.group_len[0] + (e.other_pawns if both_pawns else 0)
        while i < e.num:
            g += 1
            d.group_len[g] = 1
            while i + d.group_len[g] < e.num and d.pieces[i + d.group_len[g]] == d.pieces[i]:
                d.group_len[g] += 1
            i += d.group_len[g]
        d.group_len[g + 1] = 0
        # The order bytes say where the leading (and second pawn) group go in the mixed-radix
        # index; the other groups follow in sequence.
        if order[side] > g or (both_pawns and (order2[side] > g or order2[side] == order[side])):
            return "bad group order in the header"
        nxt = 2 if both_pawns else 1
        free_squares = 64 - lead_len - (e.other_pawns if both_pawns else 0)
        factor = 1
        k = 0
        while nxt <= g or k == order[side] or k == order2[side]:
            if k == order[side]:
                d.group_factor[0] = factor
                if e.has_pawns:
                    factor *= PAWN_FACTOR[e.lead_pawns - 1][f]
                else:
                    factor *= 31332 if e.unique else 462
            elif k == order2[side]:
                d.group_factor[1] = factor
                factor *= BINOMIAL[e.other_pawns][48 - e.lead_pawns]
            else:
                d.group_factor[nxt] = factor
                factor *= BINOMIAL[d.group_len[nxt]][free_squares]
                free_squares -= d.group_len[nxt]
                nxt += 1
            k += 1
        d.size = factor
    # The table's white side, as its header orders the colours.
    d = &t.pairs[f]
    for i in range(e.num):
        white += 1ULL << (4 * (d.pieces[i] & 7) + (32 if d.pieces[i] & 8 else 0))
    if white != e.key and white != mirror_key(e.key):
        return "the pieces in the header are not the material of the file name"
    t.white_key = white
    r.pos += skip + e.num
    return NULL


cdef const char* read_dtz_maps(TbFile* t, Reader* r) noexcept nogil:
    """Per file, four maps (win, loss, cursed win, blessed loss) from stored to real DTZ values."""
    cdef int f, i, count
    cdef Pairs* d
    t.dtz_map = r.data + r.pos
    for f in range(t.files):
        d = &t.pairs[f]
        if not d.flags & PAIRS_MAPPED:
            continue
        if d.flags & PAIRS_WIDE:
            r.pos += r.pos & 1
            for i in range(4):
                if not reader_has(r, 2):
                    return NULL
                count = read_le16(r.data + r.pos)
                d.map_offset[i] = <int>((r.data + r.pos - t.dtz_map) // 2) + 1
                d.map_len[i] = count
                r.pos += 2 + 2 * count
        else:
            for i in range(4):
                if not reader_has(r, 1):
                    return NULL
                count = r.data[r.pos]
                d.map_offset[i] = <int>(r.data + r.pos - t.dtz_map) + 1
                d.map_len[i] = count
                r.pos += 1 + count
    r.pos += r.pos & 1
    return NULL


cdef const char* read_layout(TbEntry* e, TbFile* t, bint wdl, Reader* r) noexcept nogil:
    """Walk the file's layout, pointing each table at its index, lengths and blocks; returns
    NULL or the fault, and leaves r.short set when the file ends before the layout does."""
    cdef int f, s
    cdef const char* fault
    cdef Pairs* d
    r.pos = 5
    for f in range(t.files):
        fault = read_piece_order(e, t, r, f)
        if fault != NULL or r.short:
            return fault
    r.pos += r.pos & 1
    for f in range(t.files):
        for s in range(t.sides):
            fault = read_pairs_header(r, &t.pairs[s * t.files + f], wdl)
            if fault != NULL or r.short:
                return fault
    if not wdl:
        fault = read_dtz_maps(t, r)
        if fault != NULL or r.short:
            return fault
    # Pointers are only kept while they stay inside the file (r.short stops the walk).
    for f in range(t.files):
        for s in range(t.sides):
            d = &t.pairs[s * t.files + f]
            if not d.flags & PAIRS_SINGLE and reader_has(r, 6 * d.sparse_count):
                d.sparse = r.data + r.pos
                r.pos += 6 * d.sparse_count
    for f in range(t.files):
        for s in range(t.sides):
            d = &t.pairs[s * t.files + f]
            if not d.flags & PAIRS_SINGLE and reader_has(r, 2 * d.length_count):
                d.lengths = r.data + r.pos
                r.pos += 2 * d.length_count
    for f in range(t.files):
        for s in range(t.sides):
            d = &t.pairs[s * t.files + f]
            if not d.flags & PAIRS_SINGLE:
                r.pos = (r.pos + 63) & ~(<size_t>63)
                if reader_has(r, d.num_blocks * d.block_size):
                    d.blocks = r.data + r.pos
                    r.pos += d.num_blocks * d.block_size
    return NULL


cdef bint check_table(TableFile* f, void* owner) noexcept nogil:
    """The format's check of a freshly mapped file of the entry `owner` (its WDL or its DTZ
    file): the magic number, the flags against the file name's material, the headers."""
    cdef TbEntry* e = <TbEntry*>owner
    cdef bint wdl = f == &e.wdl.file
    cdef TbFile* t = &e.wdl if wdl else &e.dtz
    cdef const unsigned char* magic = &WDL_MAGIC[0] if wdl else &DTZ_MAGIC[0]
    cdef const unsigned char* data = f.data
    cdef const char* fault
    cdef char detail[96]
    cdef Reader r
    if f.size < 5:
        snprintf(detail, sizeof(detail), "%lld bytes", <long long>f.size)
        table_broken(f, "truncated: too short for a table header, ", detail)
        return False
    if data[0] != magic[0] or data[1] != magic[1] or data[2] != magic[2] or data[3] != magic[3]:
        snprintf(detail, sizeof(detail), "%02X %02X %02X %02X, expected %02X %02X %02X %02X",
                 data[0], data[1], data[2], data[3], magic[0], magic[1], magic[2], magic[3])
        table_broken(f, "wrong magic number (not a Syzygy WDL table): " if wdl
                     else "wrong magic number (not a Syzygy DTZ table): ", detail)
        return False
    if ((data[4] & 2) != 0) != e.has_pawns or (wdl and ((data[4] & 1) != 0) == e.symmetric):
        table_broken(f, "header flags do not match the material of the file name", "")
        return False
    t.files = 4 if e.has_pawns else 1
    t.sides = 2 if wdl and not e.symmetric else 1
    t.pairs = <Pairs*>calloc(t.sides * t.files, sizeof(Pairs))
    if t.pairs == NULL:
        table_broken(f, "out of memory", "")
        return False
    r.data = f.data
    r.size = f.size
    r.short = False
    fault = read_layout(e, t, wdl, &r)
    if fault != NULL:
        table_broken(f, "bad header: ", fault)
        return False
    if r.short:
        snprintf(detail, sizeof(detail), "its header needs at least %zu bytes, the file has %zu",
                 r.needed, f.size)
        table_broken(f, "truncated: ", detail)
        return False
    return True


cdef bint ensure_open(TbEntry* e, TbFile* t, bint wdl, ProbeState* ps) noexcept nogil:
    if table_ready(&t.file, check_table, e):
        return True
    ps.fault = TB_BAD_FILE
    ps.entry = e
    ps.dtz = not wdl
    return False


cdef void close_table(TbFile* t) noexcept nogil:
    cdef int i
    if t.pairs != NULL:
        for i in range(t.sides * t.files):
            free(t.pairs[i].symlen)
        free(t.pairs)
    table_close(&t.file)
    memset(t, 0, sizeof(TbFile))


# ---------------------------------------------------------------------------------------------
# Reading a value: position -> index -> value.

cdef int decompress(Pairs* d, u64 idx, const unsigned char* end, ProbeState* ps) noexcept nogil:
    """The value stored at index idx, or -1 (with ps.fault set) when the data is inconsistent."""
    cdef u64 k, block, code
    cdef long long offset
    cdef const unsigned char* ptr
    cdef int l, bits, sym, left, length
    cdef const unsigned char* node
    if d.flags & PAIRS_SINGLE:
        return d.single_value
    # The sparse index gives the block and offset of every span-th position (at span / 2);
    # walk the block lengths from there to the block holding idx.
    k = idx // d.span
    if k >= d.sparse_count:
        ps.fault = TB_CORRUPT
        return -1
    block = read_le32(d.sparse + 6 * k)
    offset = <long long>read_le16(d.sparse + 6 * k + 4) + <long long>(idx % d.span) - <long long>(d.span // 2)
    if block >= d.length_count:
        ps.fault = TB_CORRUPT
        return -1
    while offset < 0:
        if block == 0:
            ps.fault = TB_CORRUPT
            return -1
        block -= 1
        offset += read_le16(d.lengths + 2 * block) + 1
    while True:
        if block >= d.length_count or block >= d.num_blocks:
            ps.fault = TB_CORRUPT
            return -1
        length = read_le16(d.lengths + 2 * block)
        if offset <= length:
            break
        offset -= length + 1
        block += 1
    # Decode Huffman symbols from the block's start; each stands for symlen + 1 values.
    ptr = d.blocks + block * d.block_size
    if ptr + 8 > end:
        ps.fault = TB_CORRUPT
        return -1
    code = read_be64(ptr)
    ptr += 8
    bits = 64
    while True:
        l = 0
        while code < d.base[l]:
            l += 1
        sym = read_le16(d.lowest_sym + 2 * l) + <int>((code - d.base[l]) >> (64 - (l + d.min_len)))
        if sym >= d.num_syms:
            ps.fault = TB_CORRUPT
            return -1
        if offset < d.symlen[sym] + 1:
            break
        offset -= d.symlen[sym] + 1
        code <<= l + d.min_len
        bits -= l + d.min_len
        if bits <= 32:
            if ptr + 4 > end:
                ps.fault = TB_CORRUPT
                return -1
            bits += 32
            code |= (<u64>read_be32(ptr)) << (64 - bits)
            ptr += 4
    # Descend the pair tree to the leaf holding the value.
    while d.symlen[sym]:
        node = d.btree + 3 * sym
        left = ((node[1] & 0xF) << 8) | node[0]
        if offset < d.symlen[left] + 1:
            sym = left
        else:
            offset -= d.symlen[left] + 1
            sym = (node[2] << 4) | (node[1] >> 4)
    node = d.btree + 3 * sym
    return ((node[1] & 0xF) << 8) | node[0]


cdef inline void sort_squares(int* sq, int n, const int* weight) noexcept nogil:
    """Insertion sort (groups have at most 5 squares) by weight[square], or by square if NULL."""
    cdef int i, j, t
    for i in range(1, n):
        t = sq[i]
        j = i
        while j > 0 and ((weight[sq[j - 1]] > weight[t]) if weight != NULL else (sq[j - 1] > t)):
            sq[j] = sq[j - 1]
            j -= 1
        sq[j] = t


cdef u64 encode(TbEntry* e, Pairs* d, int* sq) noexcept nogil:
    """The index of the squares (in the table's piece order), or ~0 for a placement the table
    cannot hold (two kings side by side, which no legal position has)."""
    cdef int n = e.num, i, j, m, g, len_g, lead_len, below, adjust
    cdef u64 idx, s
    cdef int a1, a2
    if e.has_pawns:
        # Leading pawn on files a-d; the others by PTWIST, numbered as a combination.
        if sq[0] & 4:
            for i in range(n):
                sq[i] ^= 7
        lead_len = e.lead_pawns
        sort_squares(sq + 1, lead_len - 1, PTWIST)
        idx = PAWN_INDEX[lead_len - 1][FLAP[sq[0]]]
        for i in range(1, lead_len):
            idx += BINOMIAL[i][PTWIST[sq[i]]]
    else:
        # Pawnless: bring the first piece into the a1-d1-d4 triangle, and the first piece of
        # the leading group off the diagonal below it.
        if sq[0] & 4:
            for i in range(n):
                sq[i] ^= 7
        if sq[0] & 32:
            for i in range(n):
                sq[i] ^= 56
        lead_len = 3 if e.unique else 2
        for i in range(lead_len):
            if off_diagonal(sq[i]):
                if off_diagonal(sq[i]) > 0:
                    for j in range(n):
                        sq[j] = flip_diagonal(sq[j])
                break
        if e.unique:
            a1 = sq[1] > sq[0]
            a2 = (sq[2] > sq[0]) + (sq[2] > sq[1])
            if off_diagonal(sq[0]):
                idx = (TRIANGLE[sq[0]] * 63 + sq[1] - a1) * 62 + sq[2] - a2
            elif off_diagonal(sq[1]):
                idx = 6 * 63 * 62 + (rank_of(sq[0]) * 28 + LOWER[sq[1]]) * 62 + sq[2] - a2
            elif off_diagonal(sq[2]):
                idx = 6 * 63 * 62 + 4 * 28 * 62 + (rank_of(sq[0]) * 7 + rank_of(sq[1]) - a1) * 28 + LOWER[sq[2]]
            else:
                idx = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 \
                    + (rank_of(sq[0]) * 7 + rank_of(sq[1]) - a1) * 6 + rank_of(sq[2]) - a2
        else:
            if KK_INDEX[TRIANGLE[sq[0]]][sq[1]] < 0:
                return ~0ULL
            idx = KK_INDEX[TRIANGLE[sq[0]]][sq[1]]
    idx *= d.group_factor[0]
    # Every further group: its squares as a combination of the squares left by earlier groups
    # (the second side's pawns only range over the 48 pawn squares).
    i = d.group_len[0]
    g = 1
    while d.group_len[g]:
        len_g = d.group_len[g]
        sort_squares(sq + i, len_g, NULL)
        below = 8 if e.has_pawns and e.other_pawns and g == 1 else 0
        s = 0
        for m in range(len_g):
            adjust = 0
            for j in range(i):
                adjust += sq[i + m] > sq[j]
            s += BINOMIAL[m + 1][sq[i + m] - adjust - below]
        idx += s * d.group_factor[g]
        i += len_g
        g += 1
    return idx


cdef Pairs* table_squares(TbEntry* e, TbFile* t, Position* pos, int* sq, int* stm) noexcept nogil:
    """Fill sq with the position's squares in the order of the table that holds it, seen from
    the table's colours, and return that table; stm is the side to move in the table's colours."""
    cdef bint flip
    cdef int color_flip, square_flip, n = 0, lead = 0, i, f, pc, tmp
    cdef u64 b
    cdef Pairs* d
    if e.symmetric:
        flip = pos.side == BLACK
    else:
        flip = material_key(pos) != t.white_key
    color_flip = 8 if flip else 0
    # Pawnless tables are symmetric under a rank flip, so only pawn tables need the squares flipped.
    square_flip = 56 if flip and e.has_pawns else 0
    f = 0
    if e.has_pawns:
        pc = t.pairs[0].pieces[0] ^ color_flip
        b = pieces(pos, color_of(pc), PAWN)
        while b:
            sq[n] = lsb(b) ^ square_flip
            n += 1
            b &= b - 1
        # The leading pawn is the one nearest the edge, then the lowest rank.
        for i in range(1, n):
            if FLAP[sq[i]] < FLAP[sq[lead]]:
                lead = i
        tmp = sq[0]
        sq[0] = sq[lead]
        sq[lead] = tmp
        f = FLAP[sq[0]] // 6
    stm[0] = pos.side ^ flip
    d = &t.pairs[(stm[0] if t.sides == 2 else 0) * t.files + f]
    i = n
    while i < e.num:
        pc = d.pieces[i] ^ color_flip
        b = pieces(pos, color_of(pc), type_of(pc))
        while b and i < e.num:
            sq[i] = lsb(b) ^ square_flip
            i += 1
            b &= b - 1
    return d


cdef TbEntry* entry_for(Position* pos, bint dtz, ProbeState* ps) noexcept nogil:
    cdef u64 key = material_key(pos)
    cdef TbEntry* e = find_entry(key)
    cdef TbFile* t
    if e != NULL:
        t = &e.dtz if dtz else &e.wdl
        if t.file.path != NULL:
            return e
    ps.fault = TB_MISSING
    ps.entry = e
    ps.key = key
    ps.dtz = dtz
    return NULL


cdef int probe_wdl_table(Position* pos, ProbeState* ps) noexcept nogil:
    """The table's WDL value of the position (-2..2), ignoring captures it cannot see."""
    cdef int sq[TB_PIECES]
    cdef TbEntry* e
    cdef Pairs* d
    cdef u64 idx
    cdef int value, stm
    if occupied(pos) == pos.by_type[KING]:
        return 0
    e = entry_for(pos, False, ps)
    if e == NULL or not ensure_open(e, &e.wdl, True, ps):
        return 0
    d = table_squares(e, &e.wdl, pos, sq, &stm)
    idx = encode(e, d, sq)
    value = decompress(d, idx, e.wdl.file.data + e.wdl.file.size, ps) if idx < d.size else -1
    if value < 0 or value > 4:
        ps.fault = TB_CORRUPT
        ps.entry = e
        ps.dtz = False
        return 0
    return value - 2


cdef int probe_dtz_table(Position* pos, int wdl, bint* found, ProbeState* ps) noexcept nogil:
    """The DTZ table's value for a position whose WDL is wdl (not 0). A DTZ table holds one side
    to move; found is False when the position has the other."""
    cdef int sq[TB_PIECES]
    cdef TbEntry* e
    cdef Pairs* d
    cdef u64 idx
    cdef int value, outcome, stm
    found[0] = False
    e = entry_for(pos, True, ps)
    if e == NULL or not ensure_open(e, &e.dtz, False, ps):
        return 0
    d = table_squares(e, &e.dtz, pos, sq, &stm)
    # Symmetric pawnless tables serve both sides to move by swapping colours.
    if (d.flags & PAIRS_STM) != stm and not (e.symmetric and not e.has_pawns):
        return 0
    idx = encode(e, d, sq)
    value = decompress(d, idx, e.dtz.file.data + e.dtz.file.size, ps) if idx < d.size else -1
    if value < 0:
        ps.fault = TB_CORRUPT
        ps.entry = e
        ps.dtz = True
        return 0
    if d.flags & PAIRS_MAPPED:
        # Map order in the file: win, loss, cursed win, blessed loss.
        outcome = 0 if wdl == 2 else 1 if wdl == -2 else 2 if wdl == 1 else 3
        if value >= d.map_len[outcome]:
            ps.fault = TB_CORRUPT
            ps.entry = e
            ps.dtz = True
            return 0
        if d.flags & PAIRS_WIDE:
            value = read_le16(e.dtz.dtz_map + 2 * (d.map_offset[outcome] + value))
        else:
            value = e.dtz.dtz_map[d.map_offset[outcome] + value]
    # Values are stored in moves unless the flag says plies; 50-move-rule outcomes always are.
    if (wdl == 2 and not d.flags & PAIRS_WIN_PLIES) or (wdl == -2 and not d.flags & PAIRS_LOSS_PLIES) \
            or wdl == 1 or wdl == -1:
        value *= 2
    found[0] = True
    return value


# ---------------------------------------------------------------------------------------------
# Probing with captures resolved.

cdef inline bint is_plain_capture(Position* pos, Move m) noexcept nogil:
    return move_kind(m) != EN_PASSANT and pos.board[move_to(m)] != 0


cdef int probe_ab(Position* pos, int alpha, int beta, int* how, ProbeState* ps) noexcept nogil:
    """WDL with captures searched (alpha-beta). The generator leaves positions with captures
    partly to the prober: a stored value need only be right when no capture does better, so the
    captures are searched first and the table value counts only where none beats it. how = 2
    when a capture decides (or wins at least as well as the table says), else 1."""
    cdef Move moves[MAX_MOVES]
    cdef int n = generate(pos, moves, GEN_CAPTURES), i, v, sub
    for i in range(n):
        if not is_plain_capture(pos, moves[i]):
            continue
        do_move(pos, moves[i])
        v = -probe_ab(pos, -beta, -alpha, &sub, ps)
        undo_move(pos, moves[i])
        if ps.fault:
            return 0
        if v > alpha:
            if v >= beta:
                how[0] = 2
                return v
            alpha = v
    v = probe_wdl_table(pos, ps)
    if ps.fault:
        return 0
    if alpha >= v:
        how[0] = 2 if alpha > 0 else 1
        return alpha
    how[0] = 1
    return v


cdef int en_passant_value(Position* pos, int* all_moves_en_passant, ProbeState* ps) noexcept nogil:
    """The best WDL value among the legal en-passant captures (-3 when there are none), and
    whether they are the only legal moves."""
    cdef Move moves[MAX_MOVES]
    cdef int n, i, v, best = -3, how
    if pos.st.ep == NO_SQ:
        all_moves_en_passant[0] = False
        return -3
    n = generate_en_passant(pos, moves, 0)
    for i in range(n):
        do_move(pos, moves[i])
        v = -probe_ab(pos, -2, 2, &how, ps)
        undo_move(pos, moves[i])
        if ps.fault:
            return 0
        if v > best:
            best = v
    all_moves_en_passant[0] = n > 0 and generate(pos, moves, GEN_ALL) == n
    return best


cdef bint probeable(Position* pos, ProbeState* ps) noexcept nogil:
    """Whether the tables can hold the position at all; checked before captures are searched,
    so a failure names the position's own material rather than one a capture leads to."""
    if pos.st.castling:
        ps.fault = TB_CASTLING
        return False
    return occupied(pos) == pos.by_type[KING] or entry_for(pos, False, ps) != NULL


cdef int tb_wdl(Position* pos, ProbeState* ps) noexcept nogil:
    cdef int how, v, ep_value, only_ep
    if not probeable(pos, ps):
        return 0
    v = probe_ab(pos, -2, 2, &how, ps)
    if ps.fault:
        return 0
    ep_value = en_passant_value(pos, &only_ep, ps)
    if ps.fault:
        return 0
    # The table value assumes no en passant; the capture counts when it is at least as good,
    # or when it is the only move in a drawn-looking position.
    if ep_value > -3 and (ep_value >= v or (v == 0 and only_ep)):
        v = ep_value
    return v


cdef inline int dtz_before_zeroing(int wdl) noexcept nogil:
    # The DTZ of a position whose next move zeroes: 1 ply, or 101 under a 50-move cloud.
    if wdl == 2:
        return 1
    if wdl == 1:
        return 101
    if wdl == -1:
        return -101
    if wdl == -2:
        return -1
    return 0


cdef bint is_checkmate(Position* pos) noexcept nogil:
    cdef Move moves[MAX_MOVES]
    return checkers(pos) != 0 and generate(pos, moves, GEN_ALL) == 0


cdef int dtz_no_en_passant(Position* pos, ProbeState* ps) noexcept nogil:
    cdef Move moves[MAX_MOVES]
    cdef int wdl, how, n, i, v, dtz, best, sub
    cdef Move m
    cdef bint found
    wdl = probe_ab(pos, -2, 2, &how, ps)
    if ps.fault or wdl == 0:
        return 0
    if how == 2:
        return dtz_before_zeroing(wdl)
    n = generate(pos, moves, GEN_ALL)
    if wdl > 0:
        # A pawn move that keeps the win zeroes at once.
        for i in range(n):
            m = moves[i]
            if type_of(pos.board[move_from(m)]) != PAWN or move_kind(m) == EN_PASSANT or pos.board[move_to(m)]:
                continue
            do_move(pos, m)
            v = -tb_wdl(pos, ps)
            undo_move(pos, m)
            if ps.fault:
                return 0
            if v == wdl:
                return dtz_before_zeroing(wdl)
    dtz = probe_dtz_table(pos, wdl, &found, ps)
    if ps.fault:
        return 0
    if found:
        return dtz_before_zeroing(wdl) + (dtz if wdl > 0 else -dtz)
    # The DTZ table holds the other side to move: search one ply.
    if wdl > 0:
        best = 0xFFFF
        for i in range(n):
            m = moves[i]
            if type_of(pos.board[move_from(m)]) == PAWN or pos.board[move_to(m)]:
                continue
            do_move(pos, m)
            v = -tb_dtz(pos, ps)
            if v == 1 and is_checkmate(pos):
                best = 1
            elif v > 0 and v + 1 < best:
                best = v + 1
            undo_move(pos, m)
            if ps.fault:
                return 0
        return best
    best = -1
    for i in range(n):
        do_move(pos, moves[i])
        if pos.st.rule50 == 0:
            if wdl == -2:
                v = -1
            else:
                v = probe_ab(pos, 1, 2, &sub, ps)
                v = 0 if v == 2 else -101
        else:
            v = -tb_dtz(pos, ps) - 1
        undo_move(pos, moves[i])
        if ps.fault:
            return 0
        if v < best:
            best = v
    return best


cdef int tb_dtz(Position* pos, ProbeState* ps) noexcept nogil:
    cdef int v, ep_value, only_ep
    if not probeable(pos, ps):
        return 0
    v = dtz_no_en_passant(pos, ps)
    if ps.fault:
        return 0
    ep_value = en_passant_value(pos, &only_ep, ps)
    if ps.fault or ep_value == -3:
        return v
    # An en-passant capture zeroes; it replaces the DTZ when it is the better outcome.
    ep_value = dtz_before_zeroing(ep_value)
    if v < -100:
        if ep_value >= 0:
            v = ep_value
    elif v < 0:
        if ep_value >= 0 or ep_value < -100:
            v = ep_value
    elif v > 100:
        if ep_value > 0:
            v = ep_value
    elif v > 0:
        if ep_value == 1:
            v = ep_value
    elif ep_value >= 0:
        v = ep_value
    elif only_ep:
        v = ep_value
    return v


cdef int probe_wdl(Position* pos, int* success) noexcept nogil:
    """WDL of the position for the side to move: -2 loss, -1 blessed loss (saved by the 50-move
    rule), 0 draw, 1 cursed win, 2 win, assuming the last move zeroed the 50-move counter.
    success is 0 when the tables cannot tell (missing or bad table, castling rights). The
    position needs TB_PROBE_PLIES free states and is left unchanged."""
    cdef ProbeState ps
    ps.fault = TB_OK
    cdef int v = tb_wdl(pos, &ps)
    success[0] = ps.fault == TB_OK
    return v


cdef int probe_dtz(Position* pos, int* success) noexcept nogil:
    """DTZ in plies to the next zeroing move, positive when the side to move wins, negative when
    it loses, 0 for draws; beyond +-100 when the 50-move rule spoils the result. Same contract
    as probe_wdl."""
    cdef ProbeState ps
    ps.fault = TB_OK
    cdef int v = tb_dtz(pos, &ps)
    success[0] = ps.fault == TB_OK
    return v


# ---------------------------------------------------------------------------------------------
# The Python face: finding tables, probing a Board, and errors that say what is wrong.

PIECE_ORDER = "KQRBNP"


cdef u64 name_key(str name):
    cdef u64 key = 0
    white, black = name.split("v")
    for letter in white:
        key += 1ULL << (4 * make_piece(WHITE, KING - PIECE_ORDER.index(letter)))
    for letter in black:
        key += 1ULL << (4 * make_piece(BLACK, KING - PIECE_ORDER.index(letter)))
    return key


cdef str key_name(u64 key):
    """The material of a key as a table name, stronger side first (KQvKR)."""
    sides = []
    for color in (WHITE, BLACK):
        sides.append("".join(letter * <int>((key >> (4 * make_piece(color, KING - i))) & 15)
                             for i, letter in enumerate(PIECE_ORDER)))
    if (len(sides[1]), [PIECE_ORDER.index(c) for c in sides[0]]) > (len(sides[0]), [PIECE_ORDER.index(c) for c in sides[1]]):
        sides.reverse()
    return "v".join(sides)


cdef void clear_registry() noexcept nogil:
    cdef int i
    for i in range(TABLES.count):
        close_table(&TABLES.entries[i].wdl)
        close_table(&TABLES.entries[i].dtz)
    free(TABLES.entries)
    free(TABLES.slots)
    memset(&TABLES, 0, sizeof(Registry))


cdef void fill_registry(dict found) except *:
    """found: name -> {".rtbw": path, ".rtbz": path}. Builds the entries and the hash."""
    cdef TbEntry* e
    cdef int i, whites, blacks
    cdef Py_ssize_t capacity = 16
    while capacity < 4 * len(found) + 16:
        capacity *= 2
    TABLES.entries = <TbEntry*>calloc(len(found) + 1, sizeof(TbEntry))
    TABLES.slots = <TbEntry**>calloc(capacity, sizeof(TbEntry*))
    if TABLES.entries == NULL or TABLES.slots == NULL:
        raise MemoryError()
    TABLES.mask = capacity - 1
    for i, (name, paths) in enumerate(sorted(found.items())):
        e = &TABLES.entries[i]
        TABLES.count += 1
        white, black = name.split("v")
        e.key = name_key(name)
        e.num = len(white) + len(black)
        e.has_pawns = "P" in name
        e.symmetric = sorted(white) == sorted(black)
        e.unique = sum(1 for side in (white, black) for letter in set(side) if side.count(letter) == 1) >= 3
        whites, blacks = white.count("P"), black.count("P")
        e.lead_pawns = whites if whites and (not blacks or whites <= blacks) else blacks
        e.other_pawns = whites + blacks - e.lead_pawns
        if ".rtbw" in paths:
            e.wdl.file.path = c_string(paths[".rtbw"])
            TABLES.wdl_count += 1
        if ".rtbz" in paths:
            e.dtz.file.path = c_string(paths[".rtbz"])
            TABLES.dtz_count += 1
        TABLES.max_pieces = max(TABLES.max_pieces, e.num)
        insert_entry(e, e.key)
        insert_entry(e, mirror_key(e.key))


cdef void insert_entry(TbEntry* e, u64 key) noexcept nogil:
    cdef u64 slot = key_slot(key)
    while TABLES.slots[slot & TABLES.mask] != NULL and TABLES.slots[slot & TABLES.mask] != e:
        slot += 1
    TABLES.slots[slot & TABLES.mask] = e


cdef class Tablebases:
    """The Syzygy tables found in `paths`: directories separated by os.pathsep (':' on POSIX).
    Files are recognised by name (KQvKR.rtbw, KQvKR.rtbz) and opened on first use. There is one
    set per process, which the search probes from C: making a Tablebases replaces the set, and
    an older Tablebases object then refuses to probe. `problems` lists directories that could
    not be read or held no tables; a bad table file is reported when a probe needs it."""
    cdef readonly str paths
    cdef readonly list problems
    cdef int generation

    def __init__(self, str paths):
        global registry_generation
        self.paths = paths
        files, self.problems = find_table_files(paths, "syzygy directory", (".rtbw", ".rtbz"), TB_PIECES,
                                                "Syzygy tables")
        found = {}
        for stem, extension, path in files:
            # The same material may be named either way round (KQvKR, KRvKQ); the first file
            # found for a material and kind is used.
            found.setdefault(key_name(name_key(stem)), {}).setdefault(extension, path)
        clear_registry()
        registry_generation += 1
        self.generation = registry_generation
        fill_registry(found)

    @property
    def wdl_tables(self):
        """Number of WDL tables found."""
        self._check_current()
        return TABLES.wdl_count

    @property
    def dtz_tables(self):
        """Number of DTZ tables found."""
        self._check_current()
        return TABLES.dtz_count

    @property
    def max_pieces(self):
        """The most pieces (kings included) of any table found; 0 when none."""
        self._check_current()
        return TABLES.max_pieces

    def _check_current(self):
        if self.generation != registry_generation:
            raise TablebaseError("this Tablebases was replaced by a newer one (there is one set of tables per process)")

    def probe_wdl(self, Board board not None):
        """WDL for the side to move: 2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss."""
        return self._probe(board, False)

    def probe_dtz(self, Board board not None):
        """DTZ in plies for the side to move (python-chess's sign and rounding conventions)."""
        return self._probe(board, True)

    cdef int _probe(self, Board board, bint dtz) except? -9999:
        cdef ProbeState ps
        cdef Position* pos = &board.pos
        cdef int v
        self._check_current()
        if reserve_plies(pos, TB_PROBE_PLIES) < 0:
            raise MemoryError()
        ps.fault = TB_OK
        ps.entry = NULL
        with nogil:
            v = tb_dtz(pos, &ps) if dtz else tb_wdl(pos, &ps)
        if ps.fault != TB_OK:
            raise TablebaseError(self._fault_message(&ps, board))
        return v

    cdef str _fault_message(self, ProbeState* ps, Board board):
        cdef TbFile* t
        kind = "DTZ" if ps.dtz else "WDL"
        if ps.fault == TB_CASTLING:
            return f"Syzygy tables hold no positions with castling rights: {board.fen()}"
        if ps.fault == TB_MISSING:
            name = key_name(ps.key)
            suffix = ".rtbz" if ps.dtz else ".rtbw"
            if popcount(occupied(&board.pos)) > TB_PIECES:
                return f"no {kind} table for {name}: Syzygy tables have at most {TB_PIECES} pieces"
            return f"no {kind} table for {name} ({name}{suffix} is not in the syzygy path {self.paths!r})"
        t = &ps.entry.dtz if ps.dtz else &ps.entry.wdl
        path = os.fsdecode(<bytes>t.file.path)
        if ps.fault == TB_BAD_FILE:
            return f"syzygy table {path}: {(<bytes>t.file.fault).decode(errors='replace')}"
        return f"syzygy table {path}: corrupt data (an index or code points outside the table)"
