# Pyrope's own endgame tables: distance to mate (DTM) for both sides to move, made by retrograde
# analysis and stored in a compressed format of our own (tablebases/FORMAT.md), in three files
# that share one numbering of positions. This one holds the values and the index: symmetry
# reduction (8-fold without pawns, left-right with them) and the combinatorial numbering of like
# pieces, an ending's name and its layout of men, and the men's moves on a bare board;
# dtm_probe.pxi reads the files, dtm_generate.pxi makes them.
#
# A value is one byte: DTM_DRAW, DTM_BROKEN (no such position), or 2 + plies to mate, where an
# odd number of plies means the side to move mates and an even one that it is mated (2 + 0: it
# is checkmated now). The fifty-move rule is ignored, as in the literature on DTM tables.

from libc.stdint cimport uint32_t, int64_t

cdef enum:
    DTM_PIECES = 5          # kings included; the index and the generator handle up to five men
    DTM_DRAW = 0
    DTM_BROKEN = 1
    DTM_MATED = 2           # code of "checkmated now"; code - DTM_MATED is the plies to mate
    DTM_MAX_CODE = 255


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
# Names: an ending's canonical name and its layout.

PIECE_TYPES = {"Q": QUEEN, "R": ROOK, "B": BISHOP, "N": KNIGHT, "P": PAWN}


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
