# Pyrope's own tables, read: a set of table files found by name in directories, each checked when
# first probed (magic number, material, sizes, checksum) and decoded block by block, or decoded
# whole into memory for the generator; the search's WDL probe and the root's distance to mate;
# and DtmTables, the Python face of a set.

from libc.string cimport memcmp, strncmp, strncpy

cdef enum:
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

cdef unsigned char DTM_MAGIC[8]
DTM_MAGIC[:] = [0x50, 0x79, 0x72, 0x6F, 0x70, 0x65, 0x54, 0x42]     # "PyropeTB"

DTM_EXTENSION = ".ptb"


# ---------------------------------------------------------------------------------------------
# Reading tables: a set of files found by name in directories, mapped on first use, each block
# compressed by the LZ scheme lz_decode reads (dtm_generate.pxi writes it). A set can also hold
# tables decoded into memory, which the generator uses for the smaller tables it reads often.

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
