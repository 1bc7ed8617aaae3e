# Pyrope's own tables, made: the retrograde generator, the LZ compression of the file's blocks,
# and DtmGenerator, its Python face, which writes the file dtm_probe.pxi reads.

import struct

cdef enum:
    DTM_MAX_CHILDREN = 160  # room for every legal move of five men (two queens: well under 100)

cdef enum:
    # Kinds of a move's result during generation
    CHILD_IN_TABLE = 0      # same material: a position of the table being made
    CHILD_EXIT = 1          # capture or promotion: a position of a smaller, finished table
    CHILD_EN_PASSANT = 2    # a double step the opponent may take en passant: in the table, plus that option

# The file header (tablebases/FORMAT.md): magic, version, header size, material name, values per
# block, entries, blocks, body bytes, body checksum, then wins/draws/losses for white to move and
# for black, and the longest mate in plies; zero-padded to DTM_HEADER_SIZE.
DTM_HEADER = struct.Struct("<8sHH16sIQQQQ6QH")


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
# Compression: an LZ77 scheme with the stream layout lz_decode (dtm_probe.pxi) reads, greedy, on
# hash chains.

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
