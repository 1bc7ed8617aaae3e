# Pyrope's own endgame tables: distance to mate (DTM) for both sides to move, made by retrograde
# analysis and stored in a compressed format of our own (tablebases/FORMAT.md). This file holds
# the three parts that share one numbering of positions:
#   - the index: symmetry reduction (8-fold without pawns, left-right with them) and the
#     combinatorial numbering of like pieces;
#   - the generator: values propagated backwards from mates, level by level (plies to mate),
#     through un-moves, with captures and promotions resolved in the smaller tables;
#   - the reader: memory-mapped files, checked at open, probed without the GIL by the search.
#
# A value is one byte: DTM_DRAW, DTM_BROKEN (no such position), or 2 + plies to mate, where an
# odd number of plies means the side to move mates and an even one that it is mated (2 + 0: it
# is checkmated now). The fifty-move rule is ignored, as in the literature on DTM tables.

import struct

from libc.stdint cimport uint32_t, int64_t
from libc.string cimport memcmp, strncmp, strncpy

cdef enum:
    DTM_PIECES = 5          # kings included; the index and the generator handle up to five men
    DTM_DRAW = 0
    DTM_BROKEN = 1
    DTM_MATED = 2           # code of "checkmated now"; code - DTM_MATED is the plies to mate
    DTM_MAX_CODE = 255
    DTM_MAX_CHILDREN = 160  # room for every legal move of five men (two queens: well under 100)
    DTM_VERSION = 1
    DTM_HEADER_SIZE = 128
    DTM_NAME_SIZE = 16

cdef enum:
    # ProbeState-like faults of our own tables
    DTM_OK = 0
    DTM_MISSING = 1         # no table for the material
    DTM_BAD_FILE = 2        # cannot be read, or the header or checksum is wrong
    DTM_CORRUPT = 3         # a block decodes outside its bounds
    DTM_UNSUPPORTED = 4     # castling rights, or more men than the tables hold

cdef enum:
    # Kinds of a move's result during generation
    CHILD_IN_TABLE = 0      # same material: a position of the table being made
    CHILD_EXIT = 1          # capture or promotion: a position of a smaller, finished table
    CHILD_EN_PASSANT = 2    # a double step the opponent may take en passant: in the table, plus that option

cdef unsigned char DTM_MAGIC[8]
DTM_MAGIC[:] = [0x50, 0x79, 0x72, 0x6F, 0x70, 0x65, 0x54, 0x42]     # "PyropeTB"


# ---------------------------------------------------------------------------------------------
# Values.

cdef inline bint code_is_win(int code) noexcept nogil:
    return code >= DTM_MATED and (code - DTM_MATED) & 1

cdef inline bint code_is_loss(int code) noexcept nogil:
    return code >= DTM_MATED and not ((code - DTM_MATED) & 1)

cdef inline int code_plies(int code) noexcept nogil:
    return code - DTM_MATED

cdef inline int parent_option(int child_code) noexcept nogil:
    """What moving into a position worth child_code (for its side to move) is worth to the mover:
    a loss in p plies for the child is a win in p + 1 for the parent, and so on."""
    return child_code + 1 if child_code >= DTM_MATED else DTM_DRAW

cdef inline int code_rank(int code) noexcept nogil:
    """Larger is better for the side to move: quick wins, then slow wins, draws, slow losses, quick losses."""
    if code_is_win(code):
        return 1000 - code
    if code_is_loss(code):
        return -1000 + code
    return 0


# ---------------------------------------------------------------------------------------------
# The index. A table's men sit in slots: 0 the white king, 1 the black king, then the other men
# white first, in the order Q R B N P, like pieces side by side as one group.

cdef struct DtmLayout:
    u64 key                     # material, white = the first side of the table's name
    int num                     # men, kings included
    int piece[DTM_PIECES]       # piece code per slot
    bint pawns
    int groups                  # groups of like men after the kings
    int group_start[DTM_PIECES]
    int group_len[DTM_PIECES]
    u64 group_factor[DTM_PIECES]
    u64 kk_factor
    u64 size                    # positions per side to move

cdef int KK_DECODE[462][2]      # the pawnless king pairs of KK_INDEX, back to squares


cdef void init_dtm() noexcept nogil:
    cdef int wk, bk
    for wk in range(64):
        if TRIANGLE[wk] >= 0:
            for bk in range(64):
                if KK_INDEX[TRIANGLE[wk]][bk] >= 0:
                    KK_DECODE[KK_INDEX[TRIANGLE[wk]][bk]][0] = wk
                    KK_DECODE[KK_INDEX[TRIANGLE[wk]][bk]][1] = bk


cdef inline int group_cells(DtmLayout* L, int g) noexcept nogil:
    return 48 if type_of(L.piece[L.group_start[g]]) == PAWN else 64


cdef void layout_from_pieces(DtmLayout* L, const int* white, int whites, const int* black, int blacks) noexcept nogil:
    """white/black: the piece types other than the king, strongest first."""
    cdef int i, g, slot = 2
    cdef u64 factor = 1
    L.num = 2 + whites + blacks
    L.piece[0] = make_piece(WHITE, KING)
    L.piece[1] = make_piece(BLACK, KING)
    L.key = (1ULL << (4 * L.piece[0])) + (1ULL << (4 * L.piece[1]))
    L.pawns = False
    for i in range(whites):
        L.piece[slot] = make_piece(WHITE, white[i])
        slot += 1
    for i in range(blacks):
        L.piece[slot] = make_piece(BLACK, black[i])
        slot += 1
    L.groups = 0
    for slot in range(2, L.num):
        L.key += 1ULL << (4 * L.piece[slot])
        if type_of(L.piece[slot]) == PAWN:
            L.pawns = True
        if slot > 2 and L.piece[slot] == L.piece[slot - 1]:
            L.group_len[L.groups - 1] += 1
        else:
            L.group_start[L.groups] = slot
            L.group_len[L.groups] = 1
            L.groups += 1
    for g in range(L.groups - 1, -1, -1):
        L.group_factor[g] = factor
        factor *= BINOMIAL[L.group_len[g]][group_cells(L, g)]
    L.kk_factor = factor
    L.size = factor * (2048 if L.pawns else 462)


cdef inline void transform(int* sq, int n, int how) noexcept nogil:
    """Apply a board symmetry to every square: 1 mirrors files, 2 mirrors ranks, 4 flips the diagonal."""
    cdef int i
    for i in range(n):
        if sq[i] == NO_SQ:
            continue
        if how & 1:
            sq[i] ^= 7
        if how & 2:
            sq[i] ^= 56
        if how & 4:
            sq[i] = flip_diagonal(sq[i])


cdef int64_t index_as_is(DtmLayout* L, const int* sq) noexcept nogil:
    """The index of the men where they stand (no symmetry applied), or -1 if the kings' placement
    is not one the table numbers."""
    cdef int64_t kk
    cdef u64 idx, part
    cdef int g, i, j, k, cell, tmp
    cdef int cells[DTM_PIECES]
    if L.pawns:
        if file_of(sq[0]) > 3:
            return -1
        kk = (rank_of(sq[0]) * 4 + file_of(sq[0])) * 64 + sq[1]
    else:
        if TRIANGLE[sq[0]] < 0:
            return -1
        kk = KK_INDEX[TRIANGLE[sq[0]]][sq[1]]
        if kk < 0:
            return -1
    idx = <u64>kk * L.kk_factor
    for g in range(L.groups):
        k = L.group_len[g]
        for i in range(k):
            cell = sq[L.group_start[g] + i]
            if type_of(L.piece[L.group_start[g]]) == PAWN:
                cell -= 8
                if cell < 0 or cell >= 48:
                    return -1
            cells[i] = cell
        # like men: sort the cells downwards, then number the set combinatorially
        for i in range(1, k):
            j = i
            while j > 0 and cells[j - 1] < cells[j]:
                tmp = cells[j]
                cells[j] = cells[j - 1]
                cells[j - 1] = tmp
                j -= 1
        part = 0
        for i in range(k):
            if i > 0 and cells[i] == cells[i - 1]:
                return -1
            part += BINOMIAL[k - i][cells[i]]
        idx += part * L.group_factor[g]
    return idx


cdef int64_t dtm_index(DtmLayout* L, const int* squares) noexcept nogil:
    """The index of a placement (men in slot order, white to move or not: the caller keeps the
    side apart) after the symmetry that brings it to its canonical form; -1 if none exists."""
    cdef int sq[DTM_PIECES]
    cdef int i, how = 0
    cdef int64_t a, b
    for i in range(L.num):
        sq[i] = squares[i]
    if file_of(sq[0]) > 3:
        how |= 1
    if not L.pawns:
        if rank_of(sq[0]) > 3:
            how |= 2
    transform(sq, L.num, how)
    if L.pawns:
        return index_as_is(L, sq)
    if off_diagonal(sq[0]) > 0:
        transform(sq, L.num, 4)
    if off_diagonal(sq[0]) != 0:
        return index_as_is(L, sq)
    # The white king on the diagonal: the placement and its mirror image both qualify; the
    # smaller index is the canonical one.
    a = index_as_is(L, sq)
    transform(sq, L.num, 4)
    b = index_as_is(L, sq)
    if a < 0 or (b >= 0 and b < a):
        return b
    return a


cdef void dtm_decode(DtmLayout* L, u64 idx, int* sq) noexcept nogil:
    """The placement an index numbers (which may be broken: men on one square, a non-canonical
    twin, kings in contact)."""
    cdef u64 kk = idx // L.kk_factor, rest = idx % L.kk_factor, part
    cdef int g, i, k, cell
    if L.pawns:
        sq[0] = (<int>(kk // 64) // 4) * 8 + <int>(kk // 64) % 4
        sq[1] = <int>(kk % 64)
    else:
        sq[0] = KK_DECODE[kk][0]
        sq[1] = KK_DECODE[kk][1]
    for g in range(L.groups):
        part = rest // L.group_factor[g]
        rest = rest % L.group_factor[g]
        k = L.group_len[g]
        cell = group_cells(L, g) - 1
        for i in range(k):
            while BINOMIAL[k - i][cell] > part:
                cell -= 1
            part -= BINOMIAL[k - i][cell]
            sq[L.group_start[g] + i] = cell + 8 if type_of(L.piece[L.group_start[g]]) == PAWN else cell
            cell -= 1


# ---------------------------------------------------------------------------------------------
# Men on a board, for move generation outside the Position machinery: a handful of men, each in
# a slot of the table's layout (NO_SQ once captured).

cdef inline u64 man_attacks(int piece, int sq, u64 occ) noexcept nogil:
    cdef int pt = type_of(piece)
    if pt == PAWN:
        return PAWN_ATTACKS[color_of(piece)][sq]
    if pt == KNIGHT:
        return KNIGHT_ATTACKS[sq]
    if pt == BISHOP:
        return bishop_attacks(sq, occ)
    if pt == ROOK:
        return rook_attacks(sq, occ)
    if pt == QUEEN:
        return queen_attacks(sq, occ)
    return KING_ATTACKS[sq]


cdef inline u64 men_occupied(DtmLayout* L, const int* sq) noexcept nogil:
    cdef u64 occ = 0
    cdef int i
    for i in range(L.num):
        if sq[i] != NO_SQ:
            occ |= bb(sq[i])
    return occ


cdef inline bint men_attack(DtmLayout* L, const int* sq, int color, int target, u64 occ) noexcept nogil:
    """Whether a man of `color` attacks `target`."""
    cdef int i
    for i in range(L.num):
        if sq[i] != NO_SQ and color_of(L.piece[i]) == color and man_attacks(L.piece[i], sq[i], occ) & bb(target):
            return True
    return False


cdef bint placement_is_legal(DtmLayout* L, const int* sq, int stm) noexcept nogil:
    """Distinct squares, no pawn on a first or last rank, and the side not to move not in check
    (which also keeps the kings apart)."""
    cdef u64 occ = 0
    cdef int i
    for i in range(L.num):
        if occ & bb(sq[i]):
            return False
        occ |= bb(sq[i])
        if type_of(L.piece[i]) == PAWN and (sq[i] < 8 or sq[i] >= 56):
            return False
    return not men_attack(L, sq, stm, sq[stm ^ 1], occ)


# ---------------------------------------------------------------------------------------------
# Reading tables: a set of files found by name in directories, mapped on first use, each block
# compressed by the LZ scheme below. A set can also hold tables decoded into memory, which the
# generator uses for the smaller tables it reads often.

cdef struct DtmTable:
    DtmLayout layout
    char name[DTM_NAME_SIZE]
    TableFile file              # path NULL for a table made in memory
    uint32_t block_size         # values per block
    u64 blocks
    const unsigned char* offsets    # blocks + 1 little-endian u32 offsets into `payload`
    const unsigned char* payload
    unsigned char* raw          # 2 * size values, side to move major, when decoded into memory


cdef struct DtmSet:
    DtmTable* tables
    int count
    DtmTable** slots            # open addressing by material key (both colour orders)
    u64 mask
    int max_pieces


cdef struct DtmProbe:
    int fault
    DtmTable* table             # the table at fault, when one is
    u64 key                     # the material looked for


cdef DtmTable* dtm_find(DtmSet* s, u64 key) noexcept nogil:
    cdef u64 i
    if s == NULL or s.slots == NULL:
        return NULL
    i = key_slot(key)
    while True:
        i &= s.mask
        if s.slots[i] == NULL:
            return NULL
        if s.slots[i].layout.key == key or mirror_key(s.slots[i].layout.key) == key:
            return s.slots[i]
        i += 1


cdef u64 fnv1a(const unsigned char* data, size_t n) noexcept nogil:
    """64-bit FNV-1a, the checksum of a table file's body."""
    cdef u64 h = 0xCBF29CE484222325ULL
    cdef size_t i
    for i in range(n):
        h = (h ^ data[i]) * 0x100000001B3ULL
    return h


cdef bint dtm_check(TableFile* f, void* owner) noexcept nogil:
    """The format's check of a freshly mapped file of the table `owner`: the header's sizes must
    match the material of the file name, and the body must match the header's checksum."""
    cdef DtmTable* t = <DtmTable*>owner
    cdef char detail[96]
    cdef const unsigned char* d = f.data
    cdef u64 entries, blocks, body, i, previous, offset
    if f.size < DTM_HEADER_SIZE:
        snprintf(detail, sizeof(detail), "%lld bytes, a header takes %d", <long long>f.size, <int>DTM_HEADER_SIZE)
        table_broken(f, "truncated: ", detail)
        return False
    if memcmp(d, DTM_MAGIC, 8) != 0:
        table_broken(f, "not a Pyrope table (wrong magic number)", "")
        return False
    if read_le16(d + 8) != DTM_VERSION:
        snprintf(detail, sizeof(detail), "%u, this Pyrope reads %d", read_le16(d + 8), <int>DTM_VERSION)
        table_broken(f, "unknown format version ", detail)
        return False
    if strncmp(<const char*>(d + 12), t.name, DTM_NAME_SIZE) != 0:
        table_broken(f, "holds another material than its file name says", "")
        return False
    t.block_size = read_le32(d + 28)
    entries = read_le64(d + 32)
    blocks = read_le64(d + 40)
    body = read_le64(d + 48)
    if entries != 2 * t.layout.size or t.block_size == 0 or t.block_size > 65536 \
            or blocks != (entries + t.block_size - 1) // t.block_size:
        table_broken(f, "header sizes do not match the material of the file name", "")
        return False
    if body != f.size - DTM_HEADER_SIZE:
        snprintf(detail, sizeof(detail), "the header promises %llu bytes after it, the file has %llu",
                 <unsigned long long>body, <unsigned long long>(f.size - DTM_HEADER_SIZE))
        table_broken(f, "truncated or padded: ", detail)
        return False
    if fnv1a(d + DTM_HEADER_SIZE, body) != read_le64(d + 56):
        table_broken(f, "checksum mismatch: the file is corrupt", "")
        return False
    if 4 * (blocks + 1) > body:
        table_broken(f, "truncated: the block offsets do not fit", "")
        return False
    t.blocks = blocks
    t.offsets = d + DTM_HEADER_SIZE
    t.payload = t.offsets + 4 * (blocks + 1)
    previous = 0
    for i in range(blocks + 1):
        offset = read_le32(t.offsets + 4 * i)
        if offset < previous or offset > body - 4 * (blocks + 1):
            table_broken(f, "bad block offsets", "")
            return False
        previous = offset
    return True


cdef int lz_decode(const unsigned char* src, size_t src_len, unsigned char* out, size_t out_len,
                   size_t stop) noexcept nogil:
    """Decode one block into out until at least stop + 1 values exist (or the whole block when
    stop >= out_len). Returns 0, or -1 when the stream is inconsistent. The stream is a series of
    sequences: a token (literal count << 4 | match length - 4, each 15 meaning "more bytes
    follow, added until one is below 255"), the literals, then a two-byte distance back into
    what was already decoded and the match's extra length bytes; the last sequence has literals only."""
    cdef size_t s = 0, o = 0, length, distance, i
    cdef unsigned char b
    while o < out_len and o <= stop:
        if s >= src_len:
            return -1
        b = src[s]
        s += 1
        length = b >> 4
        if length == 15:
            while True:
                if s >= src_len:
                    return -1
                length += src[s]
                s += 1
                if src[s - 1] != 255:
                    break
        if length > src_len - s or length > out_len - o:
            return -1
        memcpy(out + o, src + s, length)
        s += length
        o += length
        if o >= out_len or o > stop:
            break
        if s + 2 > src_len:
            return -1
        distance = src[s] | (<size_t>src[s + 1] << 8)
        s += 2
        length = (b & 15) + 4
        if (b & 15) == 15:
            while True:
                if s >= src_len:
                    return -1
                length += src[s]
                s += 1
                if src[s - 1] != 255:
                    break
        if distance == 0 or distance > o or length > out_len - o:
            return -1
        for i in range(length):         # overlapping copies repeat a run, so byte by byte
            out[o + i] = out[o + i - distance]
        o += length
    return 0


cdef int dtm_read(DtmTable* t, u64 entry, DtmProbe* ps) noexcept nogil:
    """The value at `entry` (side to move * size + index), or -1 with the fault set."""
    cdef unsigned char block[65536]
    cdef u64 b, start, end, length
    if t.raw != NULL:
        return t.raw[entry]
    if not table_ready(&t.file, dtm_check, t):
        ps.fault = DTM_BAD_FILE
        ps.table = t
        return -1
    b = entry // t.block_size
    start = read_le32(t.offsets + 4 * b)
    end = read_le32(t.offsets + 4 * (b + 1))
    length = min(<u64>t.block_size, 2 * t.layout.size - b * t.block_size)
    if lz_decode(t.payload + start, end - start, block, length, entry - b * t.block_size) != 0:
        ps.fault = DTM_CORRUPT
        ps.table = t
        return -1
    return block[entry - b * t.block_size]


cdef int dtm_value(DtmSet* s, int n, const int* kinds, const int* squares, int stm, DtmProbe* ps) noexcept nogil:
    """The value for the side to move of `n` men (piece codes and squares, any order), or -1
    with ps.fault set. Kings alone are a draw; a material stored the other way round is read
    with the colours swapped and the board turned over."""
    cdef u64 key = 0
    cdef int i, j, flip
    cdef int sq[DTM_PIECES]
    cdef bint used[DTM_PIECES]
    cdef DtmTable* t
    cdef int64_t idx
    if n > DTM_PIECES:
        ps.fault = DTM_UNSUPPORTED
        return -1
    for i in range(n):
        key += 1ULL << (4 * kinds[i])
    if n == 2:
        return DTM_DRAW
    t = dtm_find(s, key)
    if t == NULL:
        ps.fault = DTM_MISSING
        ps.key = key
        return -1
    flip = 0 if t.layout.key == key else 8      # XOR on piece codes swaps colours
    for i in range(n):
        used[i] = False
    for j in range(t.layout.num):
        for i in range(n):
            if not used[i] and (kinds[i] ^ flip) == t.layout.piece[j]:
                used[i] = True
                sq[j] = squares[i] ^ (56 if flip else 0)
                break
    idx = dtm_index(&t.layout, sq)
    if idx < 0:
        return DTM_BROKEN
    return dtm_read(t, <u64>(stm ^ (1 if flip else 0)) * t.layout.size + <u64>idx, ps)


cdef void dtm_set_free(DtmSet* s) noexcept nogil:
    cdef int i
    if s == NULL:
        return
    for i in range(s.count):
        table_close(&s.tables[i].file)
        free(s.tables[i].raw)
    free(s.tables)
    free(s.slots)
    free(s)


cdef DtmTable* dtm_set_add(DtmSet* s, u64 key) noexcept nogil:
    """Register a material (the set's capacity was fixed when it was made)."""
    cdef DtmTable* t = &s.tables[s.count]
    cdef u64 slot, k
    cdef int i
    s.count += 1
    for i in range(2):
        k = key if i == 0 else mirror_key(key)
        slot = key_slot(k)
        while s.slots[slot & s.mask] != NULL and s.slots[slot & s.mask] != t:
            slot += 1
        s.slots[slot & s.mask] = t
    return t


# ---------------------------------------------------------------------------------------------
# The generator. Every position of the table starts with the number of its moves that are not
# yet known to lose; captures and promotions are looked up at once in the smaller tables. Then,
# level by level (plies to mate = 0, 1, 2 ...), each position settled at that level is un-moved:
# a predecessor of a lost position wins one ply later; a predecessor of a won position has one
# fewer child left to refute, and when none is left its moves are all examined to confirm the
# loss and its distance. Children are counted as distinct canonical positions; the count only
# filters, since with the board's symmetries one child can un-move to its parent twice.
# Anything unsettled when no level has work left is a draw.

cdef enum:
    GEN_EN_PASSANT_PARENT = 1   # the position has a double step the opponent may take en passant

cdef struct Child:
    int kind                    # CHILD_IN_TABLE / CHILD_EXIT / CHILD_EN_PASSANT
    u64 idx                     # the child's index (in the table: opponent to move)
    int code                    # exit: the child's value; en passant: the opponent's best capture, for it

cdef struct Gen:
    DtmLayout layout
    DtmSet* smaller             # finished tables for captures and promotions
    unsigned char* value[2]     # per side to move
    unsigned char* count[2]     # moves not yet known to lose (saturating filter, see above)
    unsigned char* flags[2]
    int max_code                # the highest value set so far: the levels to run
    DtmProbe fault              # a smaller table that was missing or broken


cdef int gen_children(Gen* g, const int* sq, int stm, Child* out) noexcept nogil:
    """The legal moves of the placement, as children; -1 when a smaller table failed."""
    cdef DtmLayout* L = &g.layout
    cdef u64 occ = men_occupied(L, sq), own = 0, enemy = 0, targets, after
    cdef int i, s, c, frm, to, pt, up, n = 0, m, promo, e, passed, code, best
    cdef int child[DTM_PIECES]
    cdef int kinds[DTM_PIECES]
    cdef int squares[DTM_PIECES]
    for i in range(L.num):
        if sq[i] != NO_SQ:
            if color_of(L.piece[i]) == stm:
                own |= bb(sq[i])
            else:
                enemy |= bb(sq[i])
    up = 8 if stm == WHITE else -8
    for s in range(L.num):
        if sq[s] == NO_SQ or color_of(L.piece[s]) != stm:
            continue
        frm = sq[s]
        pt = type_of(L.piece[s])
        if pt == PAWN:
            targets = PAWN_ATTACKS[stm][frm] & enemy
            if not occ & bb(frm + up):
                targets |= bb(frm + up)
                if rank_of(frm) == (1 if stm == WHITE else 6) and not occ & bb(frm + 2 * up):
                    targets |= bb(frm + 2 * up)
        else:
            targets = man_attacks(L.piece[s], frm, occ) & ~own
        while targets:
            to = lsb(targets)
            targets &= targets - 1
            c = -1
            for i in range(L.num):
                child[i] = sq[i]
                if sq[i] == to:
                    c = i
            child[s] = to
            if c >= 0:
                child[c] = NO_SQ
            if men_attack(L, child, stm ^ 1, child[stm], men_occupied(L, child)):
                continue        # leaves the own king in check
            if c >= 0 or (pt == PAWN and (to >= 56 or to < 8)):
                for promo in range(QUEEN, KNIGHT - 1, -1):
                    m = 0
                    for i in range(L.num):
                        if child[i] != NO_SQ:
                            kinds[m] = L.piece[i]
                            if i == s and pt == PAWN and (to >= 56 or to < 8):
                                kinds[m] = make_piece(stm, promo)
                            squares[m] = child[i]
                            m += 1
                    code = dtm_value(g.smaller, m, kinds, squares, stm ^ 1, &g.fault)
                    if code < 0:
                        return -1
                    out[n].kind = CHILD_EXIT
                    out[n].code = code
                    n += 1
                    if not (pt == PAWN and (to >= 56 or to < 8)):
                        break   # a capture that promotes nothing is one move
                continue
            out[n].kind = CHILD_IN_TABLE
            out[n].idx = <u64>dtm_index(L, child)
            if pt == PAWN and (to - frm == 16 or frm - to == 16):
                # The opponent may answer en passant: find its best such capture.
                passed = frm + up
                best = -1
                for e in range(L.num):
                    if child[e] == NO_SQ or L.piece[e] != make_piece(stm ^ 1, PAWN) \
                            or not PAWN_ATTACKS[stm ^ 1][child[e]] & bb(passed):
                        continue
                    m = 0
                    for i in range(L.num):
                        if child[i] != NO_SQ and i != s:
                            kinds[m] = L.piece[i]
                            squares[m] = passed if i == e else child[i]
                            m += 1
                    after = 0
                    for i in range(m):
                        after |= bb(squares[i])
                    # legal only if the capturer's king is then safe
                    if men_attack_list(m, kinds, squares, stm, king_square_in(m, kinds, squares, stm ^ 1), after):
                        continue
                    code = dtm_value(g.smaller, m, kinds, squares, stm, &g.fault)
                    if code < 0:
                        return -1
                    if best < 0 or code_rank(parent_option(code)) > code_rank(best):
                        best = parent_option(code)
                if best >= 0:
                    out[n].kind = CHILD_EN_PASSANT
                    out[n].code = best
            n += 1
    return n


cdef int king_square_in(int m, const int* kinds, const int* squares, int color) noexcept nogil:
    cdef int i
    for i in range(m):
        if kinds[i] == make_piece(color, KING):
            return squares[i]
    return NO_SQ


cdef bint men_attack_list(int m, const int* kinds, const int* squares, int color, int target, u64 occ) noexcept nogil:
    cdef int i
    for i in range(m):
        if color_of(kinds[i]) == color and man_attacks(kinds[i], squares[i], occ) & bb(target):
            return True
    return False


cdef inline void gen_set(Gen* g, int stm, u64 idx, int code) noexcept nogil:
    g.value[stm][idx] = code
    if code > g.max_code:
        g.max_code = code


cdef int gen_evaluate(Gen* g, const int* sq, int stm, u64 idx, int level) noexcept nogil:
    """Settle a position from its moves, if they allow it: a win if a move reaches a known loss
    (the shortest), a loss if every move reaches a known win (the longest). In-table values are
    known once their level is at most `level`. Returns -1 when a smaller table failed."""
    cdef Child children[DTM_MAX_CHILDREN]
    cdef int n = gen_children(g, sq, stm, children), i, v, c, option
    cdef int best_win = 0, worst_loss = 0
    cdef bint all_lose = True, known
    if n < 0:
        return -1
    for i in range(n):
        if children[i].kind == CHILD_EXIT:
            c = children[i].code
            known = True
        else:
            v = g.value[stm ^ 1][children[i].idx]
            known = v >= DTM_MATED and code_plies(v) <= level
            c = v
            if children[i].kind == CHILD_EN_PASSANT:
                if known:
                    if code_rank(children[i].code) > code_rank(v):
                        c = children[i].code
                elif code_is_win(children[i].code):
                    # Won for the opponent through the capture at least; a quicker win in the
                    # table, found later, re-evaluates this position (it un-moves to here).
                    c = children[i].code
                    known = True
        if not known:
            all_lose = False
            continue
        option = parent_option(c)
        if code_is_win(option):
            if best_win == 0 or option < best_win:
                best_win = option
        elif code_is_loss(option):
            if option > worst_loss:
                worst_loss = option
        else:
            all_lose = False
    v = g.value[stm][idx]
    if best_win:
        if v == DTM_DRAW or (code_is_win(v) and best_win < v):
            gen_set(g, stm, idx, best_win)
    elif all_lose and n > 0:
        if v == DTM_DRAW or (code_is_loss(v) and worst_loss < v):
            gen_set(g, stm, idx, worst_loss)
    return 0


cdef int gen_initialise(Gen* g, u64 start, u64 end) noexcept nogil:
    """The first look at entries [start, end) of the 2 * size: broken placements, mates,
    stalemates, results through captures and promotions, and the move counts."""
    cdef DtmLayout* L = &g.layout
    cdef Child children[DTM_MAX_CHILDREN]
    cdef int sq[DTM_PIECES]
    cdef u64 entry, idx
    cdef int stm, n, i, j, option, best_win, moves
    for entry in range(start, end):
        stm = <int>(entry // L.size)
        idx = entry % L.size
        dtm_decode(L, idx, sq)
        if dtm_index(L, sq) != <int64_t>idx or not placement_is_legal(L, sq, stm):
            g.value[stm][idx] = DTM_BROKEN
            continue
        n = gen_children(g, sq, stm, children)
        if n < 0:
            return -1
        if n == 0:
            if men_attack(L, sq, stm ^ 1, sq[stm], men_occupied(L, sq)):
                gen_set(g, stm, idx, DTM_MATED)
            continue            # stalemate: a draw, which nothing can change
        best_win = 0
        moves = 0
        for i in range(n):
            if children[i].kind == CHILD_EXIT:
                option = parent_option(children[i].code)
                if code_is_win(option):
                    if best_win == 0 or option < best_win:
                        best_win = option
                elif not code_is_loss(option):
                    moves += 1      # a drawing exit: this position can never be lost
            else:
                if children[i].kind == CHILD_EN_PASSANT:
                    g.flags[stm][idx] |= GEN_EN_PASSANT_PARENT
                    if code_is_win(children[i].code):
                        continue    # lost for us through the capture, whatever the table says
                # Count each position reached once: in a symmetric position two moves can
                # reach one canonical child, which un-moves to here only once.
                for j in range(i):
                    if children[j].kind != CHILD_EXIT and children[j].idx == children[i].idx:
                        break
                else:
                    moves += 1
        g.count[stm][idx] = min(moves, 255)
        if best_win:
            gen_set(g, stm, idx, best_win)
        elif moves == 0 and gen_evaluate(g, sq, stm, idx, -1) < 0:
            return -1
    return 0


cdef int gen_level(Gen* g, int level, u64 start, u64 end) noexcept nogil:
    """Un-move every position of entries [start, end) settled at `level` plies."""
    cdef DtmLayout* L = &g.layout
    cdef int sq[DTM_PIECES]
    cdef int q[DTM_PIECES]
    cdef u64 entry, idx, origins, occ
    cdef int64_t qidx
    cdef int stm, mover, s, i, frm, o, back, v, qv, code = DTM_MATED + level
    cdef bint en_passant
    for entry in range(start, end):
        stm = <int>(entry // L.size)
        idx = entry % L.size
        v = g.value[stm][idx]
        if v != code:
            continue
        dtm_decode(L, idx, sq)
        occ = men_occupied(L, sq)
        mover = stm ^ 1
        back = -8 if mover == WHITE else 8
        for s in range(L.num):
            if color_of(L.piece[s]) != mover:
                continue
            frm = sq[s]
            if type_of(L.piece[s]) == PAWN:
                origins = 0
                o = frm + back
                if 8 <= o < 56 and not occ & bb(o):
                    origins |= bb(o)
                    if rank_of(frm) == (3 if mover == WHITE else 4) and not occ & bb(o + back):
                        origins |= bb(o + back)
            else:
                origins = man_attacks(L.piece[s], frm, occ) & ~occ
            while origins:
                o = lsb(origins)
                origins &= origins - 1
                for i in range(L.num):
                    q[i] = sq[i]
                q[s] = o
                qidx = dtm_index(L, q)
                if qidx < 0:
                    continue
                qv = g.value[mover][qidx]
                if qv == DTM_BROKEN or (qv >= DTM_MATED and code_plies(qv) <= level):
                    continue
                # A double step the opponent may answer en passant is worth what the better of
                # the two gives it: examine the predecessor's moves rather than assume.
                en_passant = (o - frm == 16 or frm - o == 16) and g.flags[mover][qidx] & GEN_EN_PASSANT_PARENT
                if code_is_loss(v) and not en_passant:
                    if qv == DTM_DRAW or (code_is_win(qv) and code + 1 < qv):
                        gen_set(g, mover, qidx, code + 1)
                    continue
                if code_is_win(v) and g.count[mover][qidx] > 0:
                    g.count[mover][qidx] -= 1
                    if g.count[mover][qidx] > 0 and not en_passant:
                        continue
                if gen_evaluate(g, q, mover, qidx, level) < 0:
                    return -1
    return 0


# ---------------------------------------------------------------------------------------------
# Compression: an LZ77 scheme with the stream layout lz_decode reads, greedy, on hash chains.

cdef enum:
    LZ_HASH_BITS = 15
    LZ_CHAIN = 32               # candidates tried per position
    LZ_MIN_MATCH = 4


cdef inline size_t lz_put_length(unsigned char* dst, size_t d, size_t extra) noexcept nogil:
    while extra >= 255:
        dst[d] = 255
        d += 1
        extra -= 255
    dst[d] = <unsigned char>extra
    return d + 1


cdef size_t lz_encode(const unsigned char* src, size_t n, unsigned char* dst) noexcept nogil:
    """Compress n <= 65536 bytes into dst (room for n + n // 255 + 16 bytes); returns the size."""
    cdef int head[1 << LZ_HASH_BITS]
    cdef int* prev = <int*>malloc(n * sizeof(int) + 1)
    cdef size_t i = 0, anchor = 0, d = 0, best_len, best_dist, length, literals, token_at, limit
    cdef int candidate, tries
    cdef uint32_t h
    for h in range(1 << LZ_HASH_BITS):
        head[h] = -1
    while i + LZ_MIN_MATCH <= n:
        h = ((src[i] | (<uint32_t>src[i + 1] << 8) | (<uint32_t>src[i + 2] << 16) | (<uint32_t>src[i + 3] << 24))
             * 2654435761U) >> (32 - LZ_HASH_BITS)
        best_len = 0
        best_dist = 0
        candidate = head[h]
        tries = 0
        while candidate >= 0 and tries < LZ_CHAIN and i - candidate <= 65535:
            length = 0
            while i + length < n and src[candidate + length] == src[i + length]:
                length += 1
            if length > best_len:
                best_len = length
                best_dist = i - candidate
            candidate = prev[candidate]
            tries += 1
        prev[i] = head[h]
        head[h] = <int>i
        if best_len < LZ_MIN_MATCH:
            i += 1
            continue
        literals = i - anchor
        token_at = d
        d += 1
        dst[token_at] = <unsigned char>((min(literals, 15) << 4) | min(best_len - LZ_MIN_MATCH, 15))
        if literals >= 15:
            d = lz_put_length(dst, d, literals - 15)
        memcpy(dst + d, src + anchor, literals)
        d += literals
        dst[d] = best_dist & 255
        dst[d + 1] = best_dist >> 8
        d += 2
        if best_len - LZ_MIN_MATCH >= 15:
            d = lz_put_length(dst, d, best_len - LZ_MIN_MATCH - 15)
        # remember the positions inside the match too, so later matches can start there
        limit = i + best_len
        i += 1
        while i < limit:
            if i + LZ_MIN_MATCH <= n:
                h = ((src[i] | (<uint32_t>src[i + 1] << 8) | (<uint32_t>src[i + 2] << 16) | (<uint32_t>src[i + 3] << 24))
                     * 2654435761U) >> (32 - LZ_HASH_BITS)
                prev[i] = head[h]
                head[h] = <int>i
            i += 1
        anchor = i
    literals = n - anchor
    dst[d] = <unsigned char>(min(literals, 15) << 4)
    d += 1
    if literals >= 15:
        d = lz_put_length(dst, d, literals - 15)
    memcpy(dst + d, src + anchor, literals)
    free(prev)
    return d + literals


# ---------------------------------------------------------------------------------------------
# Probing a Position: the search's WDL and the root's DTM. A position with an en-passant capture
# available is worth the better of the table's value (which assumes no such right) and the capture.

cdef DtmSet* DTM_SEARCH = NULL      # the set the search probes, installed by DtmTables.use_in_search


cdef int dtm_probe_position(DtmSet* s, Position* pos, DtmProbe* ps) noexcept nogil:
    """The value for the side to move, or -1 with ps.fault set. Needs one free StateInfo."""
    cdef int kinds[DTM_PIECES]
    cdef int squares[DTM_PIECES]
    cdef int n = 0, v, child
    cdef u64 occ = occupied(pos), candidates
    cdef Move m
    if pos.st.castling:
        ps.fault = DTM_UNSUPPORTED
        return -1
    if popcount(occ) > DTM_PIECES:
        ps.fault = DTM_UNSUPPORTED
        return -1
    while occ:
        squares[n] = lsb(occ)
        kinds[n] = pos.board[squares[n]]
        n += 1
        occ &= occ - 1
    v = dtm_value(s, n, kinds, squares, pos.side, ps)
    if v < 0 or pos.st.ep == NO_SQ:
        return v
    candidates = PAWN_ATTACKS[pos.side ^ 1][pos.st.ep] & pieces(pos, pos.side, PAWN)
    while candidates:
        m = make_move(lsb(candidates), pos.st.ep, EN_PASSANT)
        candidates &= candidates - 1
        if not en_passant_is_legal(pos, move_from(m)):
            continue
        do_move(pos, m)
        child = dtm_probe_position(s, pos, ps)
        undo_move(pos, m)
        if child < 0:
            return -1
        if code_rank(parent_option(child)) > code_rank(v):
            v = parent_option(child)
    return v


cdef int dtm_probe_wdl(Position* pos, int* success) noexcept nogil:
    """As probe_wdl, from Pyrope's tables: 2 win, 0 draw, -2 loss (no cursed results: DTM tables
    ignore the fifty-move rule)."""
    cdef DtmProbe ps
    cdef int v
    ps.fault = DTM_OK
    success[0] = 0
    if DTM_SEARCH == NULL:
        return 0
    v = dtm_probe_position(DTM_SEARCH, pos, &ps)
    if v < 0:
        return 0
    success[0] = 1
    return 2 if code_is_win(v) else -2 if code_is_loss(v) else 0


cdef int probe_wdl_any(Position* pos, int* success) noexcept nogil:
    """The search's table probe: Syzygy when it has the position, else Pyrope's own tables."""
    cdef int v = probe_wdl(pos, success)
    if success[0]:
        return v
    return dtm_probe_wdl(pos, success)


# ---------------------------------------------------------------------------------------------
# The Python face: sets of table files, the generator, and the file writer.

DTM_EXTENSION = ".ptb"
PIECE_TYPES = {"Q": QUEEN, "R": ROOK, "B": BISHOP, "N": KNIGHT, "P": PAWN}
# The file header (tablebases/FORMAT.md): magic, version, header size, material name, values per
# block, entries, blocks, body bytes, body checksum, then wins/draws/losses for white to move and
# for black, and the longest mate in plies; zero-padded to DTM_HEADER_SIZE.
DTM_HEADER = struct.Struct("<8sHH16sIQQQQ6QH")


def dtm_table_name(str name):
    """The canonical name of an ending (stronger side first: KRvKQ -> KQvKR), or TablebaseError
    saying what is wrong with it."""
    if not TABLE_NAME.match(name):
        raise TablebaseError(f"{name!r} is not an ending's name: write it like KQvKR (K, then Q R B N P, v, K ...)")
    if len(name) - 1 > DTM_PIECES:
        raise TablebaseError(f"{name}: Pyrope's tables hold at most {DTM_PIECES} men")
    if name == "KvK":
        raise TablebaseError("KvK needs no table: two kings are always a draw")
    return key_name(name_key(name))


cdef void layout_from_name(DtmLayout* L, str name) except *:
    cdef int white[DTM_PIECES]
    cdef int black[DTM_PIECES]
    sides = name.split("v")
    for i, letter in enumerate(sides[0][1:]):
        white[i] = PIECE_TYPES[letter]
    for i, letter in enumerate(sides[1][1:]):
        black[i] = PIECE_TYPES[letter]
    layout_from_pieces(L, white, len(sides[0]) - 1, black, len(sides[1]) - 1)


cdef DtmSet* dtm_set_new(int capacity) except NULL:
    cdef DtmSet* s = <DtmSet*>calloc(1, sizeof(DtmSet))
    cdef u64 slots = 16
    while slots < 4 * capacity + 16:
        slots *= 2
    if s == NULL:
        raise MemoryError()
    s.tables = <DtmTable*>calloc(capacity + 1, sizeof(DtmTable))
    s.slots = <DtmTable**>calloc(slots, sizeof(DtmTable*))
    s.mask = slots - 1
    if s.tables == NULL or s.slots == NULL:
        dtm_set_free(s)
        raise MemoryError()
    return s


cdef class DtmTables:
    """Pyrope's own tables (NAME.ptb) found in `paths`: directories separated by os.pathsep.
    Files are opened on first use and checked then (magic number, material, sizes, checksum).
    `problems` lists directories that could not be read or held no tables."""
    cdef DtmSet* tables
    cdef readonly str paths
    cdef readonly list problems
    cdef readonly dict files         # canonical name -> path

    def __init__(self, str paths):
        cdef DtmTable* t
        self.paths = paths
        self.files = {}
        found, self.problems = find_table_files(paths, "Pyrope table directory", (DTM_EXTENSION,), DTM_PIECES,
                                                "tables")
        for stem, extension, path in found:
            self.files.setdefault(key_name(name_key(stem)), path)
        self.tables = dtm_set_new(len(self.files))
        for name, path in sorted(self.files.items()):
            t = dtm_set_add(self.tables, name_key(name))
            layout_from_name(&t.layout, name)
            strncpy(t.name, name.encode(), DTM_NAME_SIZE - 1)
            t.file.path = c_string(path)
            self.tables.max_pieces = max(self.tables.max_pieces, t.layout.num)

    def __dealloc__(self):
        global DTM_SEARCH
        if DTM_SEARCH == self.tables:
            DTM_SEARCH = NULL
        dtm_set_free(self.tables)

    @property
    def max_pieces(self):
        """The most men (kings included) of any table found; 0 when none."""
        return self.tables.max_pieces

    def __len__(self):
        return self.tables.count

    def use_in_search(self):
        """Make these the tables the search probes (one set per process; replaces the last)."""
        global DTM_SEARCH, _search_tables
        DTM_SEARCH = self.tables
        _search_tables = self

    def load_into_memory(self):
        """Decode every table into memory (the generator reads the smaller tables at random)."""
        cdef DtmProbe ps
        cdef DtmTable* t
        cdef int i
        cdef u64 b, length
        for i in range(self.tables.count):
            t = &self.tables.tables[i]
            if t.raw != NULL:
                continue
            ps.fault = DTM_OK
            if dtm_read(t, 0, &ps) < 0:
                raise TablebaseError(self._fault_message(&ps, None))
            t.raw = <unsigned char*>malloc(2 * t.layout.size)
            if t.raw == NULL:
                raise MemoryError()
            with nogil:
                for b in range(t.blocks):
                    length = min(<u64>t.block_size, 2 * t.layout.size - b * t.block_size)
                    if lz_decode(t.payload + read_le32(t.offsets + 4 * b),
                                 read_le32(t.offsets + 4 * (b + 1)) - read_le32(t.offsets + 4 * b),
                                 t.raw + b * t.block_size, length, length) != 0:
                        ps.fault = DTM_CORRUPT
                        ps.table = t
                        break
            if ps.fault != DTM_OK:
                free(t.raw)
                t.raw = NULL
                raise TablebaseError(self._fault_message(&ps, None))

    def probe(self, Board board not None):
        """(result, plies) for the side to move: result 1, 0 or -1 (win, draw, loss), plies the
        distance to mate (0 for a draw, and for a side already checkmated)."""
        cdef DtmProbe ps
        cdef int v
        cdef Position* pos = &board.pos
        if reserve_plies(pos, 2) < 0:
            raise MemoryError()
        ps.fault = DTM_OK
        ps.table = NULL
        with nogil:
            v = dtm_probe_position(self.tables, pos, &ps)
        if v < 0:
            raise TablebaseError(self._fault_message(&ps, board))
        if v == DTM_BROKEN:
            raise TablebaseError(f"not a legal position for the tables: {board.fen()}")
        if code_is_win(v):
            return 1, code_plies(v)
        if code_is_loss(v):
            return -1, code_plies(v)
        return 0, 0

    def compare_with_syzygy(self, str name):
        """Check every position of one table against the Syzygy tables loaded by Tablebases:
        the result (win, draw or loss, the fifty-move rule aside) must agree. Returns the number
        of positions compared and up to ten disagreements as (FEN, our result 1/0/-1, Syzygy's WDL)."""
        cdef DtmTable* t = dtm_find(self.tables, name_key(dtm_table_name(name)))
        cdef StateInfo states[TB_PROBE_PLIES + 2]
        cdef Position pos
        cdef ProbeState tb
        cdef int sq[DTM_PIECES]
        cdef u64 entry, idx, compared = 0
        cdef int stm, i, v, wdl, ours
        cdef int64_t found[10]
        cdef int found_count = 0
        cdef int ours_found[10]
        cdef int theirs_found[10]
        if t == NULL:
            raise TablebaseError(f"no Pyrope table for {name} in {self.paths!r}")
        self.load_into_memory()
        pos.states = states
        pos.capacity = TB_PROBE_PLIES + 2
        pos.chess960 = False
        with nogil:
            for entry in range(2 * t.layout.size):
                stm = <int>(entry // t.layout.size)
                idx = entry % t.layout.size
                dtm_decode(&t.layout, idx, sq)
                if dtm_index(&t.layout, sq) != <int64_t>idx or not placement_is_legal(&t.layout, sq, stm):
                    continue
                clear_position(&pos)
                for i in range(t.layout.num):
                    put_piece(&pos, t.layout.piece[i], sq[i])
                pos.side = stm
                tb.fault = TB_OK
                tb.entry = NULL
                wdl = tb_wdl(&pos, &tb)
                if tb.fault != TB_OK:
                    break
                v = t.raw[entry]
                ours = 1 if code_is_win(v) else -1 if code_is_loss(v) else 0
                compared += 1
                if ours != (wdl > 0) - (wdl < 0) and found_count < 10:
                    found[found_count] = entry
                    ours_found[found_count] = ours
                    theirs_found[found_count] = wdl
                    found_count += 1
        if tb.fault != TB_OK:
            raise TablebaseError(f"Syzygy cannot check {name}: no usable Syzygy table for it (load a Syzygy path first)")
        disagreements = []
        for i in range(found_count):
            stm = <int>(found[i] // t.layout.size)
            dtm_decode(&t.layout, found[i] % t.layout.size, sq)
            clear_position(&pos)
            for j in range(t.layout.num):
                put_piece(&pos, t.layout.piece[j], sq[j])
            pos.side = stm
            disagreements.append((position_fen(&pos, False), ours_found[i], theirs_found[i]))
        return compared, disagreements

    cdef str _fault_message(self, DtmProbe* ps, Board board):
        if ps.fault == DTM_UNSUPPORTED:
            return (f"Pyrope's tables hold positions of at most {DTM_PIECES} men without castling "
                    f"rights: {board.fen() if board is not None else ''}")
        if ps.fault == DTM_MISSING:
            return f"no Pyrope table for {key_name(ps.key)} in {self.paths!r}"
        path = os.fsdecode(<bytes>ps.table.file.path) if ps.table.file.path != NULL else ps.table.name.decode()
        if ps.fault == DTM_BAD_FILE:
            return f"Pyrope table {path}: {(<bytes>ps.table.file.fault).decode(errors='replace')}"
        return f"Pyrope table {path}: corrupt data (a block decodes outside its bounds)"


_search_tables = None       # keeps the set the search probes alive


cdef class DtmGenerator:
    """Makes one table by retrograde analysis, the smaller ones it reaches through captures and
    promotions being in `smaller`. Drive it with initialise() over [0, entries) in chunks, then
    run_level() until it returns False; then stats() and write()."""
    cdef Gen g
    cdef DtmTables smaller
    cdef readonly str name
    cdef readonly int level

    def __init__(self, str name, DtmTables smaller not None):
        cdef int stm
        self.name = dtm_table_name(name)
        self.smaller = smaller
        smaller.load_into_memory()
        memset(&self.g, 0, sizeof(Gen))
        layout_from_name(&self.g.layout, self.name)
        self.g.smaller = smaller.tables
        for stm in range(2):
            self.g.value[stm] = <unsigned char*>calloc(self.g.layout.size, 1)
            self.g.count[stm] = <unsigned char*>calloc(self.g.layout.size, 1)
            self.g.flags[stm] = <unsigned char*>calloc(self.g.layout.size, 1)
            if self.g.value[stm] == NULL or self.g.count[stm] == NULL or self.g.flags[stm] == NULL:
                raise MemoryError()

    def __dealloc__(self):
        cdef int stm
        for stm in range(2):
            free(self.g.value[stm])
            free(self.g.count[stm])
            free(self.g.flags[stm])

    @property
    def entries(self):
        """Positions numbered, both sides to move (broken placements included)."""
        return 2 * self.g.layout.size

    def initialise(self, u64 start, u64 end):
        cdef int rc
        end = min(end, 2 * self.g.layout.size)
        with nogil:
            rc = gen_initialise(&self.g, start, end)
        self._check(rc)

    def run_level(self):
        """Settle the predecessors of the positions mated in `level` plies; False when done."""
        cdef int rc
        cdef int level = self.level
        with nogil:
            rc = gen_level(&self.g, level, 0, 2 * self.g.layout.size)
        self._check(rc)
        self.level += 1
        return DTM_MATED + self.level <= self.g.max_code

    cdef _check(self, int rc):
        if self.g.max_code > DTM_MAX_CODE:
            raise TablebaseError(f"{self.name}: a mate longer than {DTM_MAX_CODE - DTM_MATED} plies does not fit the format")
        if rc < 0:
            if self.g.fault.fault == DTM_MISSING:
                raise TablebaseError(f"{self.name} needs the table {key_name(self.g.fault.key)}, which is missing")
            raise TablebaseError(self.smaller._fault_message(&self.g.fault, None))

    def stats(self):
        """Counts per side to move (white first): wins, draws, losses; and the longest mate."""
        cdef u64 i
        cdef u64 wins[2]
        cdef u64 draws[2]
        cdef u64 losses[2]
        cdef int stm, v, longest = 0
        for stm in range(2):
            wins[stm] = draws[stm] = losses[stm] = 0
            with nogil:
                for i in range(self.g.layout.size):
                    v = self.g.value[stm][i]
                    if v == DTM_BROKEN:
                        continue
                    if code_is_win(v):
                        wins[stm] += 1
                        if v - DTM_MATED > longest:
                            longest = v - DTM_MATED
                    elif code_is_loss(v):
                        losses[stm] += 1
                    else:
                        draws[stm] += 1
        return {"wins": (wins[0], wins[1]), "draws": (draws[0], draws[1]),
                "losses": (losses[0], losses[1]), "longest_mate_plies": longest}

    def write(self, str path, int block_size=2048):
        """Compress the table to `path` (written beside it, then renamed into place)."""
        cdef u64 entries = 2 * self.g.layout.size, size = self.g.layout.size
        cdef u64 blocks = (entries + block_size - 1) // block_size, b, i, length, e
        cdef unsigned char* plain = <unsigned char*>malloc(block_size)
        cdef unsigned char* packed = <unsigned char*>malloc(blocks * (block_size + block_size // 255 + 16))
        cdef uint32_t* offsets = <uint32_t*>malloc(4 * (blocks + 1))
        cdef size_t used = 0
        cdef unsigned char last
        if not 0 < block_size <= 65536:
            raise ValueError("block_size must be 1..65536")
        if plain == NULL or packed == NULL or offsets == NULL:
            free(plain)
            free(packed)
            free(offsets)
            raise MemoryError()
        try:
            with nogil:
                for b in range(blocks):
                    length = min(<u64>block_size, entries - b * block_size)
                    last = DTM_DRAW
                    # Broken entries are never read: repeat the previous value, which compresses.
                    for i in range(length):
                        e = b * block_size + i
                        plain[i] = self.g.value[e // size][e % size]
                        if plain[i] == DTM_BROKEN:
                            plain[i] = last
                        last = plain[i]
                    offsets[b] = used
                    used += lz_encode(plain, length, packed + used)
                offsets[blocks] = used
            body = bytes((<unsigned char*>offsets)[:4 * (blocks + 1)]) + bytes(packed[:used])
        finally:
            free(plain)
            free(packed)
            free(offsets)
        if len(body) - 4 * (blocks + 1) > 0xFFFFFFFF:
            raise TablebaseError(f"{self.name}: too large for 32-bit block offsets")
        stats = self.stats()
        header = DTM_HEADER.pack(bytes(DTM_MAGIC[:8]), DTM_VERSION, DTM_HEADER_SIZE, self.name.encode(),
                                 block_size, entries, blocks, len(body), fnv1a(body, len(body)),
                                 *stats["wins"], *stats["draws"], *stats["losses"],
                                 stats["longest_mate_plies"]).ljust(DTM_HEADER_SIZE, b"\0")
        temporary = path + ".part"
        with open(temporary, "wb") as out:
            out.write(header)
            out.write(body)
        os.replace(temporary, path)
        return len(header) + len(body)
