# Position: piece bitboards and mailbox, side to move, castling, and a stack of per-ply states
# (key, rights, counters, captured piece) so that make/unmake is incremental and cheap.
# Moves are 16 bits, Stockfish's layout: to (6) | from (6) | promotion type - KNIGHT (2) | kind (2).
# Castling is encoded "king takes own rook", which serves standard chess and Chess960 alike.

from libc.stdlib cimport malloc, realloc, free
from libc.stdint cimport int16_t, uint8_t
from libc.string cimport memcpy

cdef extern from "polyglot_random.h":
    const u64 POLYGLOT_RANDOM[781]

ctypedef uint16_t Move

cdef enum:
    MOVE_NONE = 0
    MOVE_NULL = 65
    NORMAL = 0
    PROMOTION = 1 << 14
    EN_PASSANT = 2 << 14
    CASTLING = 3 << 14

cdef enum:
    # Castling rights, one bit each, in Polyglot's key order.
    WHITE_OO = 1
    WHITE_OOO = 2
    BLACK_OO = 4
    BLACK_OOO = 8
    MAX_MOVES = 256     # more than the most legal moves in any chess position (218)
    MAX_SEARCH_PLY = 256

cdef int PIECE_VALUE[7]
PIECE_VALUE[:] = [0, 100, 320, 330, 500, 900, 0]

cdef inline Move make_move(int frm, int to, int kind) noexcept nogil:
    return <Move>(kind | (frm << 6) | to)

cdef inline Move make_promotion(int frm, int to, int piece_type) noexcept nogil:
    return <Move>(PROMOTION | ((piece_type - KNIGHT) << 12) | (frm << 6) | to)

cdef inline int move_from(Move m) noexcept nogil:
    return (m >> 6) & 63

cdef inline int move_to(Move m) noexcept nogil:
    return m & 63

cdef inline int move_kind(Move m) noexcept nogil:
    return m & (3 << 14)

cdef inline int promotion_type(Move m) noexcept nogil:
    return ((m >> 12) & 3) + KNIGHT

cdef inline int make_piece(int color, int piece_type) noexcept nogil:
    return (color << 3) | piece_type

cdef inline int type_of(int piece) noexcept nogil:
    return piece & 7

cdef inline int color_of(int piece) noexcept nogil:
    return piece >> 3

cdef struct StateInfo:
    u64 key             # Polyglot key: en passant counts when a pawn merely stands ready
    u64 repetition_key  # en passant counts only when the capture is legal (FIDE 9.2.3)
    int castling        # WHITE_OO | ... bits still held
    int ep              # en-passant target, set only if a pawn of the side to move attacks it
    int rule50
    int plies_from_null
    int captured        # piece captured by the move that led here
    # The pieces that move changed, for the net's accumulators (nnue.pxi): each leaves dirty_from
    # and arrives on dirty_to, NO_SQ for neither (a capture leaves, a promotion's piece arrives).
    uint8_t dirty_count
    uint8_t dirty_piece[3]
    uint8_t dirty_from[3]
    uint8_t dirty_to[3]
    uint8_t nnue_ready  # bit 1 << perspective: that accumulator of this ply is computed, in nnue_acc

cdef struct Position:
    u64 by_type[7]      # index 0 unused; PAWN..KING
    u64 by_color[2]
    int board[64]       # piece on each square, 0 when empty
    int count[16]       # pieces of each kind on the board
    int material[2]     # sum of PIECE_VALUE per colour (pawns included)
    int side
    int game_ply        # plies since the game's start: 2 * (fullmove - 1) + (black to move)
    bint chess960       # notation only: castling printed as king-takes-rook
    int castling_rook[16]        # indexed by the right's bit
    u64 castling_path[16]        # squares that must be empty (king's and rook's paths)
    u64 castling_king_path[16]   # squares the king stands on or crosses, which must be safe
    int castling_mask[64]        # rights lost when a move starts or ends on the square
    StateInfo* states   # history stack owned by whoever owns the position
    StateInfo* st       # current state inside that stack
    int capacity        # number of StateInfo slots in states
    int16_t* nnue_acc   # the net's accumulator pairs, one per state slot, allocated on first use
    int nnue_slots      # state slots nnue_acc has room for
    void* nnue_cache    # the net's refresh cache: per perspective and king bucket, an accumulator and its pieces
    int nnue_generation # the net they were computed with (nnue.pxi)

cdef u64 PSQ_KEY[16][64]
cdef u64 CASTLING_KEY[16]
cdef u64 EP_KEY[8]
cdef u64 SIDE_KEY = POLYGLOT_RANDOM[780]

cdef void init_zobrist() noexcept nogil:
    cdef int color, pt, sq, rights, bit
    for color in range(2):
        for pt in range(PAWN, KING + 1):
            for sq in range(64):
                # Polyglot orders kinds black pawn, white pawn, black knight, ...
                PSQ_KEY[make_piece(color, pt)][sq] = POLYGLOT_RANDOM[64 * (2 * (pt - 1) + (1 - color)) + sq]
    for rights in range(16):
        CASTLING_KEY[rights] = 0
        for bit in range(4):
            if rights & (1 << bit):
                CASTLING_KEY[rights] ^= POLYGLOT_RANDOM[768 + bit]
    for sq in range(8):
        EP_KEY[sq] = POLYGLOT_RANDOM[772 + sq]

cdef inline u64 pieces(Position* p, int color, int piece_type) noexcept nogil:
    return p.by_color[color] & p.by_type[piece_type]

cdef inline u64 occupied(Position* p) noexcept nogil:
    return p.by_color[WHITE] | p.by_color[BLACK]

cdef inline int king_square(Position* p, int color) noexcept nogil:
    return lsb(p.by_color[color] & p.by_type[KING])

cdef inline void put_piece(Position* p, int piece, int sq) noexcept nogil:
    cdef u64 b = bb(sq)
    p.board[sq] = piece
    p.by_type[type_of(piece)] |= b
    p.by_color[color_of(piece)] |= b
    p.count[piece] += 1
    p.material[color_of(piece)] += PIECE_VALUE[type_of(piece)]

cdef inline void remove_piece(Position* p, int sq) noexcept nogil:
    cdef int piece = p.board[sq]
    cdef u64 b = bb(sq)
    p.board[sq] = 0
    p.by_type[type_of(piece)] ^= b
    p.by_color[color_of(piece)] ^= b
    p.count[piece] -= 1
    p.material[color_of(piece)] -= PIECE_VALUE[type_of(piece)]

cdef inline void move_piece(Position* p, int frm, int to) noexcept nogil:
    cdef int piece = p.board[frm]
    cdef u64 b = bb(frm) | bb(to)
    p.board[frm] = 0
    p.board[to] = piece
    p.by_type[type_of(piece)] ^= b
    p.by_color[color_of(piece)] ^= b

cdef inline u64 attackers_to(Position* p, int sq, u64 occ) noexcept nogil:
    return (PAWN_ATTACKS[BLACK][sq] & pieces(p, WHITE, PAWN)) \
         | (PAWN_ATTACKS[WHITE][sq] & pieces(p, BLACK, PAWN)) \
         | (KNIGHT_ATTACKS[sq] & p.by_type[KNIGHT]) \
         | (rook_attacks(sq, occ) & (p.by_type[ROOK] | p.by_type[QUEEN])) \
         | (bishop_attacks(sq, occ) & (p.by_type[BISHOP] | p.by_type[QUEEN])) \
         | (KING_ATTACKS[sq] & p.by_type[KING])

cdef inline u64 checkers(Position* p) noexcept nogil:
    return attackers_to(p, king_square(p, p.side), occupied(p)) & p.by_color[p.side ^ 1]

cdef inline int castling_king_to(int color, int king_from, int rook_from) noexcept nogil:
    return (6 if rook_from > king_from else 2) + 56 * color

cdef inline int castling_rook_to(int color, int king_from, int rook_from) noexcept nogil:
    return (5 if rook_from > king_from else 3) + 56 * color


cdef inline bint en_passant_is_legal(Position* p, int frm) noexcept nogil:
    """Whether the pawn on frm may capture en passant: the capture must not leave the king
    attacked, which a pin along the rank of both pawns can cause."""
    cdef int us = p.side, ep = p.st.ep
    cdef int capsq = ep - 8 if us == WHITE else ep + 8
    cdef u64 after = (occupied(p) ^ bb(frm) ^ bb(capsq)) | bb(ep)
    return not (attackers_to(p, king_square(p, us), after) & p.by_color[us ^ 1] & ~bb(capsq))


cdef u64 repetition_key(Position* p) noexcept nogil:
    cdef u64 candidates
    if p.st.ep == NO_SQ:
        return p.st.key
    candidates = PAWN_ATTACKS[p.side ^ 1][p.st.ep] & pieces(p, p.side, PAWN)
    while candidates:
        if en_passant_is_legal(p, lsb(candidates)):
            return p.st.key
        candidates &= candidates - 1
    return p.st.key ^ EP_KEY[file_of(p.st.ep)]


cdef void do_move(Position* p, Move m) noexcept nogil:
    cdef StateInfo* old = p.st
    cdef StateInfo* st = old + 1
    cdef int us = p.side, them = p.side ^ 1
    cdef int frm = move_from(m), to = move_to(m), kind = move_kind(m)
    cdef int piece = p.board[frm], captured = 0, capsq, kto, rto, promoted, lost
    cdef u64 key = old.key ^ SIDE_KEY
    p.st = st
    st.castling = old.castling
    st.rule50 = old.rule50 + 1
    st.plies_from_null = old.plies_from_null + 1
    st.ep = NO_SQ
    st.nnue_ready = 0
    st.dirty_count = 1
    st.dirty_piece[0] = piece
    st.dirty_from[0] = frm
    st.dirty_to[0] = to
    if old.ep != NO_SQ:
        key ^= EP_KEY[file_of(old.ep)]
    if kind == CASTLING:
        kto = castling_king_to(us, frm, to)
        rto = castling_rook_to(us, frm, to)
        # Lift both pieces first: in Chess960 the destinations may hold the other one.
        remove_piece(p, frm)
        remove_piece(p, to)
        put_piece(p, make_piece(us, KING), kto)
        put_piece(p, make_piece(us, ROOK), rto)
        st.dirty_to[0] = kto
        st.dirty_piece[1] = make_piece(us, ROOK)
        st.dirty_from[1] = to
        st.dirty_to[1] = rto
        st.dirty_count = 2
        key ^= PSQ_KEY[make_piece(us, KING)][frm] ^ PSQ_KEY[make_piece(us, KING)][kto] \
             ^ PSQ_KEY[make_piece(us, ROOK)][to] ^ PSQ_KEY[make_piece(us, ROOK)][rto]
    else:
        capsq = to
        if kind == EN_PASSANT:
            capsq = to - 8 if us == WHITE else to + 8
        captured = p.board[capsq]
        if captured:
            remove_piece(p, capsq)
            key ^= PSQ_KEY[captured][capsq]
            st.rule50 = 0
            st.dirty_piece[1] = captured
            st.dirty_from[1] = capsq
            st.dirty_to[1] = NO_SQ
            st.dirty_count = 2
        move_piece(p, frm, to)
        key ^= PSQ_KEY[piece][frm] ^ PSQ_KEY[piece][to]
        if type_of(piece) == PAWN:
            st.rule50 = 0
            if (frm ^ to) == 16:
                # Polyglot keys the en-passant file only when a capturing pawn stands ready.
                if PAWN_ATTACKS[us][(frm + to) >> 1] & pieces(p, them, PAWN):
                    st.ep = (frm + to) >> 1
                    key ^= EP_KEY[file_of(st.ep)]
            elif kind == PROMOTION:
                promoted = make_piece(us, promotion_type(m))
                remove_piece(p, to)
                put_piece(p, promoted, to)
                key ^= PSQ_KEY[piece][to] ^ PSQ_KEY[promoted][to]
                st.dirty_to[0] = NO_SQ
                st.dirty_piece[st.dirty_count] = promoted
                st.dirty_from[st.dirty_count] = NO_SQ
                st.dirty_to[st.dirty_count] = to
                st.dirty_count += 1
    lost = st.castling & (p.castling_mask[frm] | p.castling_mask[to])
    if lost:
        key ^= CASTLING_KEY[st.castling] ^ CASTLING_KEY[st.castling & ~lost]
        st.castling &= ~lost
    st.captured = captured
    st.key = key
    p.side = them
    p.game_ply += 1
    st.repetition_key = repetition_key(p) if st.ep != NO_SQ else key


cdef void undo_move(Position* p, Move m) noexcept nogil:
    cdef int us = p.side ^ 1
    cdef int frm = move_from(m), to = move_to(m), kind = move_kind(m), capsq
    p.side = us
    p.game_ply -= 1
    if kind == CASTLING:
        remove_piece(p, castling_king_to(us, frm, to))
        remove_piece(p, castling_rook_to(us, frm, to))
        put_piece(p, make_piece(us, KING), frm)
        put_piece(p, make_piece(us, ROOK), to)
    else:
        if kind == PROMOTION:
            remove_piece(p, to)
            put_piece(p, make_piece(us, PAWN), to)
        move_piece(p, to, frm)
        if p.st.captured:
            capsq = to
            if kind == EN_PASSANT:
                capsq = to - 8 if us == WHITE else to + 8
            put_piece(p, p.st.captured, capsq)
    p.st -= 1


cdef void do_null_move(Position* p) noexcept nogil:
    """Pass the turn (null-move pruning): same pieces, other side to move, no en passant."""
    cdef StateInfo* old = p.st
    cdef StateInfo* st = old + 1
    st[0] = old[0]
    st.key ^= SIDE_KEY
    if old.ep != NO_SQ:
        st.key ^= EP_KEY[file_of(old.ep)]
        st.ep = NO_SQ
    st.repetition_key = st.key
    st.rule50 += 1
    st.plies_from_null = 0
    st.captured = 0
    st.dirty_count = 0
    st.nnue_ready = 0
    p.st = st
    p.side ^= 1
    p.game_ply += 1


cdef void undo_null_move(Position* p) noexcept nogil:
    p.st -= 1
    p.side ^= 1
    p.game_ply -= 1


cdef int repetitions(Position* p) noexcept nogil:
    """How many earlier positions in the reversible stretch equal the current one."""
    cdef int distance = p.st.rule50 if p.st.rule50 < p.st.plies_from_null else p.st.plies_from_null
    cdef int available = <int>(p.st - p.states)
    cdef int i = 4, found = 0
    if distance > available:
        distance = available
    while i <= distance:
        if (p.st - i).repetition_key == p.st.repetition_key:
            found += 1
        i += 2
    return found


cdef bint side_has_insufficient_material(Position* p, int color) noexcept nogil:
    # The FIDE dead-position subset that python-chess also uses.
    cdef u64 own = p.by_color[color]
    cdef u64 bishops
    if own & (p.by_type[PAWN] | p.by_type[ROOK] | p.by_type[QUEEN]):
        return False
    if own & p.by_type[KNIGHT]:
        return popcount(own) <= 2 and not (p.by_color[color ^ 1] & ~p.by_type[KING] & ~p.by_type[QUEEN])
    if own & p.by_type[BISHOP]:
        bishops = p.by_type[BISHOP]
        return ((bishops & 0x55AA55AA55AA55AAULL) == 0 or (bishops & 0xAA55AA55AA55AA55ULL) == 0) \
            and not p.by_type[PAWN] and not p.by_type[KNIGHT]
    return True


cdef bint insufficient_material(Position* p) noexcept nogil:
    return side_has_insufficient_material(p, WHITE) and side_has_insufficient_material(p, BLACK)


cdef void set_castling_right(Position* p, int color, int rook_sq) noexcept nogil:
    cdef int ksq = king_square(p, color)
    cdef int right = (WHITE_OO if rook_sq > ksq else WHITE_OOO) << (2 * color)
    cdef int kto = castling_king_to(color, ksq, rook_sq)
    cdef int rto = castling_rook_to(color, ksq, rook_sq)
    p.st.castling |= right
    p.castling_rook[right] = rook_sq
    p.castling_mask[ksq] |= right
    p.castling_mask[rook_sq] |= right
    p.castling_king_path[right] = BETWEEN[ksq][kto] | bb(ksq) | bb(kto)
    p.castling_path[right] = (BETWEEN[ksq][kto] | bb(kto) | BETWEEN[rook_sq][rto] | bb(rto)) \
                             & ~(bb(ksq) | bb(rook_sq))


cdef u64 compute_key(Position* p) noexcept nogil:
    cdef u64 key = CASTLING_KEY[p.st.castling]
    cdef int sq
    for sq in range(64):
        if p.board[sq]:
            key ^= PSQ_KEY[p.board[sq]][sq]
    if p.st.ep != NO_SQ:
        key ^= EP_KEY[file_of(p.st.ep)]
    if p.side == WHITE:
        key ^= SIDE_KEY
    return key


cdef void clear_position(Position* p) noexcept nogil:
    cdef int i
    for i in range(7):
        p.by_type[i] = 0
    p.by_color[0] = p.by_color[1] = 0
    for i in range(64):
        p.board[i] = 0
        p.castling_mask[i] = 0
    for i in range(16):
        p.count[i] = 0
        p.castling_rook[i] = NO_SQ
        p.castling_path[i] = 0
        p.castling_king_path[i] = 0
    p.material[0] = p.material[1] = 0
    p.side = WHITE
    p.game_ply = 0
    p.st = p.states
    p.st.key = 0
    p.st.repetition_key = 0
    p.st.castling = 0
    p.st.ep = NO_SQ
    p.st.rule50 = 0
    p.st.plies_from_null = 0
    p.st.captured = 0
    p.st.dirty_count = 0
    p.st.nnue_ready = 0


cdef int copy_position(Position* dst, Position* src, int extra_plies) noexcept nogil:
    """Deep copy with a fresh state stack holding src's history plus room for extra_plies.
    Returns 0 on success, -1 when memory runs out (dst is then untouched)."""
    cdef int used = <int>(src.st - src.states) + 1, i
    cdef StateInfo* states = <StateInfo*>malloc((used + extra_plies) * sizeof(StateInfo))
    if states == NULL:
        return -1
    memcpy(states, src.states, used * sizeof(StateInfo))
    memcpy(dst, src, sizeof(Position))
    dst.states = states
    dst.st = states + used - 1
    dst.capacity = used + extra_plies
    # The accumulators stay with src: dst computes its own when it first needs them.
    dst.nnue_acc = NULL
    dst.nnue_cache = NULL
    dst.nnue_slots = 0
    for i in range(used):
        states[i].nnue_ready = 0
    return 0


cdef int reserve_plies(Position* p, int plies) noexcept nogil:
    """Make room for `plies` more states above the current one (0 on success, -1 when out of memory)."""
    cdef int used = <int>(p.st - p.states) + 1
    cdef StateInfo* states
    if used + plies <= p.capacity:
        return 0
    states = <StateInfo*>realloc(p.states, (used + plies) * 2 * sizeof(StateInfo))
    if states == NULL:
        return -1
    p.states = states
    p.st = states + used - 1
    p.capacity = (used + plies) * 2
    return 0
