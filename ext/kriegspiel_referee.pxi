# Kriegspiel referee (ICC wild 16, the thesis's appendix A) on the chess core's position. A try
# (from, to, promotion) is first read against the mover's own men, then judged by the core's
# single-move legality test; the answer is one packed integer (the layout below). Everything a
# try costs is C on C types without the GIL, so a player's search can ask millions of them.

from libc.stdint cimport int32_t
from libc.stdlib cimport abs


class KriegspielError(ValueError):
    """A request the referee cannot take: a malformed try, `px` without exactly one pawn try, a
    try after the game's end. The message is one sentence; nothing changes."""


# The packed answer. 0 is "Illegal move" and nothing else: a refused try tells nothing more, and
# the opponent is told nothing at all. A legal try sets ANSWER_LEGAL; bits 0-8 describe the move
# (what it took, where) and bits 9-21 the position it leaves, which is also what the referee
# tells both players before the first move (RefereeCore.report).
cpdef enum AnswerBit:
    ANSWER_LEGAL = 1
    ANSWER_CAPTURE = 2          # a man was taken, on the square of the SQUARE field
    ANSWER_PAWN_TAKEN = 4       # ...and it was a pawn ("Pawn at e5 captured"); else "Piece at ..."
    CHECK_RANK = 1 << 9         # checks on the side now to move, one bit per kind: a double check
    CHECK_FILE = 1 << 10        # sets two
    CHECK_LONG_DIAGONAL = 1 << 11
    CHECK_SHORT_DIAGONAL = 1 << 12
    CHECK_KNIGHT = 1 << 13

cpdef enum AnswerField:
    SQUARE_SHIFT = 3            # 6 bits: the taken man's square (en passant: the taken pawn's)
    SQUARE_MASK = 63
    REPORT_SHIFT = 9            # where the position's part (checks, pawn tries, end) begins
    TRIES_SHIFT = 14            # 5 bits: pawn tries of the side now to move (16 at most)
    TRIES_MASK = 31
    END_SHIFT = 19              # 3 bits: a GameEnd; pawn tries are then 0
    END_MASK = 7

cpdef enum GameEnd:
    END_NONE = 0
    END_CHECKMATE = 1
    END_STALEMATE = 2
    END_INSUFFICIENT_MATERIAL = 3
    END_FIFTY_MOVES = 4
    END_THREEFOLD_REPETITION = 5


cdef inline bint on_long_diagonal(int ksq, int sq) noexcept nogil:
    """Whether sq, on one of the two diagonals through the king's square ksq, is on the longer.
    Their lengths never tie: f - r and f + r - 7 differ in parity."""
    cdef int f = file_of(ksq), r = rank_of(ksq)
    cdef int rising = 8 - abs(f - r)        # squares of the a1-h8-way diagonal through ksq
    cdef int falling = 8 - abs(f + r - 7)   # squares of the a8-h1-way one
    if file_of(sq) - rank_of(sq) == f - r:
        return rising > falling
    return falling > rising


cdef int check_kinds(Position* p) noexcept nogil:
    """The CHECK_ bits of the checks on the side to move (a pawn's check is a diagonal one)."""
    cdef int ksq = king_square(p, p.side), sq, kinds = 0
    cdef u64 b = checkers(p)
    while b:
        sq = lsb(b)
        b &= b - 1
        if type_of(p.board[sq]) == KNIGHT:
            kinds |= CHECK_KNIGHT
        elif rank_of(sq) == rank_of(ksq):
            kinds |= CHECK_RANK
        elif file_of(sq) == file_of(ksq):
            kinds |= CHECK_FILE
        elif on_long_diagonal(ksq, sq):
            kinds |= CHECK_LONG_DIAGONAL
        else:
            kinds |= CHECK_SHORT_DIAGONAL
    return kinds


cdef inline bint is_pawn_try(Position* p, Move m) noexcept nogil:
    """Whether the legal move m counts as one pawn try: a pawn's capture, en passant included,
    a promotion capture once (as its queen promotion)."""
    return type_of(p.board[move_from(m)]) == PAWN \
        and (p.board[move_to(m)] != 0 or move_kind(m) == EN_PASSANT) \
        and (move_kind(m) != PROMOTION or promotion_type(m) == QUEEN)


cdef int report_position(Position* p) noexcept nogil:
    """Bits 9-21 of an answer for the side to move: its checks, then the game's end, which comes
    at once and unclaimed (mate and stalemate first: a mate on the fiftieth move is a mate), or
    else its pawn tries: legal pawn captures counted as from-to pairs, en passant included, a
    promotion capture once."""
    cdef Move moves[MAX_MOVES]
    cdef int n = generate(p, moves, GEN_ALL), i, tries = 0
    cdef int report = check_kinds(p)
    if n == 0:
        return report | ((END_CHECKMATE if report else END_STALEMATE) << END_SHIFT)
    if insufficient_material(p):
        return report | (END_INSUFFICIENT_MATERIAL << END_SHIFT)
    if p.st.rule50 >= 100:
        return report | (END_FIFTY_MOVES << END_SHIFT)
    if repetitions(p) >= 2:
        return report | (END_THREEFOLD_REPETITION << END_SHIFT)
    for i in range(n):
        tries += is_pawn_try(p, moves[i])
    return report | (tries << TRIES_SHIFT)


cdef Move resolve_try(Position* p, int frm, int to, int promotion) noexcept nogil:
    """The move the try stands for, or MOVE_NONE when the mover's own men already rule it out (no
    own man on frm, a promotion piece where no pawn promotes, a king's long step that is no
    castling). A pawn reaching the last rank without a piece becomes a queen, as on ICC; a king's
    step of two files or more to its castling square is castling. is_legal judges the rest."""
    cdef int us = p.side, piece = p.board[frm], side, right
    if piece == 0 or color_of(piece) != us or frm == to:
        return MOVE_NONE
    if promotion and not (KNIGHT <= promotion <= QUEEN):
        return MOVE_NONE
    if type_of(piece) == PAWN:
        if rank_of(to) == (7 if us == WHITE else 0):
            return make_promotion(frm, to, promotion if promotion else QUEEN)
        if promotion:
            return MOVE_NONE
        if to == p.st.ep and PAWN_ATTACKS[us][frm] & bb(to):
            return make_move(frm, to, EN_PASSANT)
        return make_move(frm, to, NORMAL)
    if promotion:
        return MOVE_NONE
    if type_of(piece) == KING and rank_of(frm) == rank_of(to) and abs(file_of(frm) - file_of(to)) >= 2:
        for side in range(2):
            right = (WHITE_OO << side) << (2 * us)
            if p.st.castling & right and castling_king_to(us, frm, p.castling_rook[right]) == to:
                return make_move(frm, p.castling_rook[right], CASTLING)
        return MOVE_NONE
    return make_move(frm, to, NORMAL)


cdef Move resolve_castling(Position* p, bint kingside) noexcept nogil:
    """The castling move `o-o` (kingside) or `o-o-o` stands for; MOVE_NONE without that right."""
    cdef int right = (WHITE_OO if kingside else WHITE_OOO) << (2 * p.side)
    if not (p.st.castling & right):
        return MOVE_NONE
    return make_move(king_square(p, p.side), p.castling_rook[right], CASTLING)


cdef int answer_move(Position* p, Move m) noexcept nogil:
    """Judge a resolved try: 0 when it is illegal (the position stays as it was), else play it
    and return the packed answer. The caller has room for one more ply."""
    cdef int mover = p.side, answer, capsq
    if m == MOVE_NONE or not is_legal(p, m):
        return 0
    do_move(p, m)
    answer = ANSWER_LEGAL | report_position(p)
    if p.st.captured:
        capsq = move_to(m)
        if move_kind(m) == EN_PASSANT:
            capsq = capsq - 8 if mover == WHITE else capsq + 8
        answer |= ANSWER_CAPTURE | (capsq << SQUARE_SHIFT)
        if type_of(p.st.captured) == PAWN:
            answer |= ANSWER_PAWN_TAKEN
    return answer


cdef int probe_tries(Position* p, const uint16_t* tries, int n, int32_t* answers) noexcept nogil:
    """Answer each packed try (from | to << 6 | promotion << 12) in the current position, taking
    every legal one back at once; return how many were legal."""
    cdef int i, legal = 0, t
    cdef Move m
    for i in range(n):
        t = tries[i]
        m = resolve_try(p, t & 63, (t >> 6) & 63, t >> 12)
        answers[i] = answer_move(p, m)
        if answers[i]:
            undo_move(p, m)
            legal += 1
    return legal


cdef class RefereeCore:
    """The referee's game: the true position with its history, and the packed answers to tries.

    Squares are 0-63 (a1 = 0, h8 = 63), promotion pieces the core's types (2 knight ... 5 queen,
    0 none). pyrope.kriegspiel.Referee is the face with notation and announcements.
    """
    cdef Position pos
    cdef int position_report    # report_position of the current position
    cdef list played            # Move codes since the start, for undo() and moves()

    def __cinit__(self):
        self.pos.states = <StateInfo*>malloc(64 * sizeof(StateInfo))
        if self.pos.states == NULL:
            raise MemoryError()
        self.pos.capacity = 64
        clear_position(&self.pos)

    def __dealloc__(self):
        free(self.pos.states)

    def __init__(self, str fen=STARTING_FEN):
        self.set_fen(fen)

    def set_fen(self, str fen):
        """Start a new game from fen; a bad FEN raises FenError and the game stays as it was."""
        cdef Position parsed
        cdef StateInfo root
        cdef StateInfo* states = self.pos.states
        cdef int capacity = self.pos.capacity
        parsed.states = &root
        parsed.capacity = 1
        clear_position(&parsed)
        parsed.chess960 = False     # castling written e1g1 in moves()
        parse_fen(&parsed, fen)
        memcpy(&self.pos, &parsed, sizeof(Position))
        self.pos.states = states
        self.pos.capacity = capacity
        states[0] = root
        self.pos.st = states
        self.played = []
        self.position_report = report_position(&self.pos)

    def fen(self):
        return position_fen(&self.pos, False)

    @property
    def white_to_move(self):
        return self.pos.side == WHITE

    @property
    def report(self):
        """The position's part of an answer (bits 9-21) for the side to move: what the referee
        tells both players before this move."""
        return self.position_report

    @property
    def game_end(self):
        """The GameEnd of the current position (END_NONE while the game goes on)."""
        return (self.position_report >> END_SHIFT) & END_MASK

    def try_move(self, int frm, int to, int promotion=0):
        """The packed answer to the try frm-to (with a promotion piece, or 0); a legal try is
        played. KriegspielError once the game has ended."""
        if not (0 <= frm < 64 and 0 <= to < 64):
            raise ValueError(f"squares are 0-63, not {frm} and {to}")
        if promotion and not KNIGHT <= promotion <= QUEEN:
            raise ValueError(f"a promotion piece is 2 (knight) to 5 (queen), not {promotion}")
        self.require_ongoing()
        return self.play_if_legal(resolve_try(&self.pos, frm, to, promotion))

    def try_castling(self, bint kingside):
        """The packed answer to `o-o` (kingside) or `o-o-o`; a legal try is played."""
        self.require_ongoing()
        return self.play_if_legal(resolve_castling(&self.pos, kingside))

    def probe(self, const uint16_t[:] tries, int32_t[:] answers):
        """Answer many tries of this position without playing them: tries[i] is from | to << 6 |
        promotion << 12 (castling as the king's step to its castling square), answers[i] gets
        the packed answer. Returns how many were legal. For benchmarks and searches."""
        cdef int n = tries.shape[0], legal
        if answers.shape[0] < n:
            raise ValueError(f"{n} tries need {n} answer slots, not {answers.shape[0]}")
        self.require_ongoing()
        if n == 0:
            return 0
        if reserve_plies(&self.pos, 1) < 0:
            raise MemoryError()
        with nogil:
            legal = probe_tries(&self.pos, &tries[0], n, &answers[0])
        return legal

    def undo(self):
        """Take back the last move played (for tests and searches)."""
        if not self.played:
            raise IndexError("no move to take back")
        undo_move(&self.pos, self.played.pop())
        self.position_report = report_position(&self.pos)

    def moves(self):
        """The moves played since the start, in UCI."""
        return [move_uci(&self.pos, m) for m in self.played]

    @property
    def last_move(self):
        """The last move played, in UCI (None before the first)."""
        # (wraparound is off in this module: no negative indices)
        return move_uci(&self.pos, self.played[len(self.played) - 1]) if self.played else None

    def pawn_capture_tries(self):
        """The side to move's pawn tries as (from, to) pairs (for `px`)."""
        cdef Move moves[MAX_MOVES]
        cdef int n = generate(&self.pos, moves, GEN_CAPTURES), i
        return [(move_from(moves[i]), move_to(moves[i])) for i in range(n) if is_pawn_try(&self.pos, moves[i])]

    def placement(self):
        """The board as 64 letters, a1 first: PNBRQK white, pnbrqk black, '.' empty."""
        return "".join(PIECE_LETTERS[self.pos.board[sq]] if self.pos.board[sq] else "." for sq in range(64))

    cdef void require_ongoing(self) except *:
        if self.position_report >> END_SHIFT:
            raise KriegspielError("The game is over, so the referee takes no more tries.")

    cdef int play_if_legal(self, Move m) except -1:
        cdef int answer
        if reserve_plies(&self.pos, 1) < 0:
            raise MemoryError()
        answer = answer_move(&self.pos, m)
        if answer:
            self.played.append(m)
            self.position_report = answer & ~((1 << REPORT_SHIFT) - 1)
        return answer
