# Book: Polyglot opening books, probed in C. A book is a file of 16-byte big-endian entries
# (key 64 bits, move 16, weight 16, learn 32) sorted by key; the key is the position key the core
# already computes (it *is* Polyglot's). The file is memory-mapped once and bisected in C; each
# stored move is matched against the legal moves, so an illegal entry can never come out.

cdef enum:
    BOOK_ENTRY_SIZE = 16


class BookError(ValueError):
    """A book file that cannot be used; the message names the file and what is wrong with it."""


cdef Py_ssize_t book_lower_bound(const unsigned char* data, Py_ssize_t count, u64 key) noexcept nogil:
    """Index of the first entry whose key is not below `key` (count if none)."""
    cdef Py_ssize_t lo = 0, hi = count, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if read_be64(data + mid * BOOK_ENTRY_SIZE) < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef Py_ssize_t first_unsorted_entry(const unsigned char* data, Py_ssize_t count) noexcept nogil:
    """Index of the first entry whose key is below its predecessor's, or -1 when sorted."""
    cdef Py_ssize_t i
    for i in range(1, count):
        if read_be64(data + i * BOOK_ENTRY_SIZE) < read_be64(data + (i - 1) * BOOK_ENTRY_SIZE):
            return i
    return -1


cdef inline unsigned polyglot_move(Move m) noexcept nogil:
    """Our move in Polyglot's encoding: to | from << 6 | promotion (1 knight .. 4 queen) << 12.
    Castling is king-takes-rook in both, so it needs no translation."""
    cdef unsigned raw = m & 0xFFF
    if move_kind(m) == PROMOTION:
        raw |= <unsigned>(promotion_type(m) - KNIGHT + 1) << 12
    return raw


cdef Move match_book_move(Position* p, unsigned raw, Move* legal, int n) noexcept nogil:
    """The legal move a stored Polyglot move stands for, or MOVE_NONE. In standard chess a
    castling stored king-to-destination (e1g1) is accepted too, as python-chess accepts it."""
    cdef int i, kind
    cdef Move m
    if raw & 0x8000 or (raw >> 12) & 7 > 4:
        return MOVE_NONE
    for i in range(n):
        m = legal[i]
        if polyglot_move(m) == raw:
            return m
        kind = move_kind(m)
        if kind == CASTLING and not p.chess960 and (raw >> 12) == 0 and ((raw >> 6) & 63) == move_from(m) \
                and file_of(move_from(m)) == 4 \
                and castling_king_to(p.side, move_from(m), move_to(m)) == (raw & 63):
            return m
    return MOVE_NONE


cdef str raw_move_text(unsigned raw):
    text = square_name((raw >> 6) & 63) + square_name(raw & 63)
    if 1 <= (raw >> 12) & 7 <= 4:
        text += "nbrq"[((raw >> 12) & 7) - 1]
    return text


cdef class Book:
    """A Polyglot book file, memory-mapped. Opening checks what can be checked once (the file
    exists, is not empty, is whole entries, is sorted) and raises BookError naming the file."""
    cdef TableFile file          # the mapped book: file.data holds the entries
    cdef Py_ssize_t count
    cdef readonly str path

    def __init__(self, path):
        cdef Py_ssize_t unsorted
        self.path = os.fspath(path)
        self.file.path = c_string(self.path)
        if not table_map(&self.file):
            raise BookError(f"book file {self.path}: {(<bytes>self.file.fault).decode(errors='replace')}")
        size = self.file.size
        if size == 0:
            raise BookError(f"book file {self.path}: the file is empty")
        if size % BOOK_ENTRY_SIZE:
            raise BookError(f"book file {self.path}: its size, {size} bytes, is not a multiple of "
                            f"{BOOK_ENTRY_SIZE} (a truncated file, or not a Polyglot book)")
        self.count = size // BOOK_ENTRY_SIZE
        with nogil:
            unsorted = first_unsorted_entry(self.file.data, self.count)
        if unsorted >= 0:
            raise BookError(f"book file {self.path}: entries are not sorted by key (entry {unsorted} "
                            f"comes after a larger key), so it cannot be searched")

    def __dealloc__(self):
        table_close(&self.file)

    def __len__(self):
        return self.count

    def probe(self, Board board not None, int minimum_weight=1):
        """The book's entries for the position, in file order: (legal, illegal). `legal` holds
        (move, weight, learn) with the move in UCI as the board writes it; `illegal` holds
        (entry index, stored move) for entries naming no legal move, which are never played.
        Entries below `minimum_weight` are left out (weight 0 marks a deleted move)."""
        cdef Move moves[MAX_MOVES]
        cdef Position* p = &board.pos
        cdef u64 key = p.st.key
        cdef Py_ssize_t i
        cdef const unsigned char* entry
        cdef unsigned raw, weight
        cdef Move m
        cdef int n
        with nogil:
            i = book_lower_bound(self.file.data, self.count, key)
        legal, illegal = [], []
        if i >= self.count or read_be64(self.file.data + i * BOOK_ENTRY_SIZE) != key:
            return legal, illegal
        n = generate(p, moves, GEN_ALL)
        while i < self.count:
            entry = self.file.data + i * BOOK_ENTRY_SIZE
            if read_be64(entry) != key:
                break
            raw = read_be16(entry + 8)
            weight = read_be16(entry + 10)
            if <int>weight >= minimum_weight:
                m = match_book_move(p, raw, moves, n)
                if m == MOVE_NONE:
                    illegal.append((i, raw_move_text(raw)))
                else:
                    legal.append((move_uci(p, m), weight, read_be32(entry + 12)))
            i += 1
        return legal, illegal


def polyglot_move_code(Board board not None, str uci):
    """The Polyglot encoding of a legal move given in UCI (for writing books)."""
    return polyglot_move(parse_move(&board.pos, uci))
