# Board: the Python face of the C position -- FEN in and out, moves as UCI text, game status,
# perft (the text itself is read and written by notation.pxi). Nothing here is on the search's hot
# path; it validates every input and never leaves the position half-changed: a bad FEN or move
# raises and the previous position stays.

class FenError(ValueError):
    """A FEN that is malformed or describes an impossible position; the message names the rule."""


class IllegalMoveError(ValueError):
    """A move that is not legal (or not even a move) in the current position."""


cdef Move parse_move(Position* p, str text) except? 0:
    """The legal move written `text` (UCI; castling as e1g1 or as king-takes-rook)."""
    cdef Move moves[MAX_MOVES]
    cdef int n = generate(p, moves, GEN_ALL), i
    cdef int chess960 = p.chess960
    for i in range(n):
        if move_uci(p, moves[i]) == text:
            return moves[i]
    # Accept the other castling notation too, as python-chess does.
    p.chess960 = not chess960
    try:
        for i in range(n):
            if move_kind(moves[i]) == CASTLING and move_uci(p, moves[i]) == text:
                return moves[i]
    finally:
        p.chess960 = chess960
    raise IllegalMoveError(f"illegal move {text!r} in position {position_fen(p, False)}")


cdef class Board:
    """A chess (or Chess960) position with its game history.

    Moves are UCI strings. Invalid FENs raise FenError, illegal moves IllegalMoveError; in both
    cases the board keeps its previous position.
    """
    cdef Position pos
    cdef list history   # moves played since the last set_fen, for pop()

    def __cinit__(self):
        self.pos.states = <StateInfo*>malloc(64 * sizeof(StateInfo))
        if self.pos.states == NULL:
            raise MemoryError()
        self.pos.capacity = 64
        clear_position(&self.pos)

    def __dealloc__(self):
        free(self.pos.states)
        nnue_release(&self.pos)

    def __init__(self, fen=STARTING_FEN, *, chess960=False):
        self.pos.chess960 = bool(chess960)
        self.history = []
        self.set_fen(fen)

    def set_fen(self, str fen):
        cdef Position parsed
        cdef StateInfo root
        cdef StateInfo* states = self.pos.states
        cdef int capacity = self.pos.capacity
        cdef int16_t* nnue_acc = self.pos.nnue_acc
        cdef void* nnue_cache = self.pos.nnue_cache
        cdef int nnue_slots = self.pos.nnue_slots, nnue_generation = self.pos.nnue_generation
        parsed.states = &root
        parsed.capacity = 1
        clear_position(&parsed)
        parsed.chess960 = self.pos.chess960
        parse_fen(&parsed, fen)
        memcpy(&self.pos, &parsed, sizeof(Position))
        self.pos.states = states
        self.pos.capacity = capacity
        self.pos.nnue_acc, self.pos.nnue_slots, self.pos.nnue_generation = nnue_acc, nnue_slots, nnue_generation
        self.pos.nnue_cache = nnue_cache
        states[0] = root
        self.pos.st = states
        self.history = []

    def fen(self, *, shredder=False):
        """FEN with X-FEN castling letters (Shredder-FEN file letters when shredder=True)."""
        return position_fen(&self.pos, shredder)

    def copy(self):
        cdef Board other = Board.__new__(Board)
        cdef StateInfo* states = other.pos.states
        free(states)
        if copy_position(&other.pos, &self.pos, 64) < 0:
            other.pos.states = NULL
            raise MemoryError()
        other.history = list(self.history)
        return other

    @property
    def chess960(self):
        return bool(self.pos.chess960)

    @chess960.setter
    def chess960(self, value):
        self.pos.chess960 = bool(value)

    @property
    def white_to_move(self):
        return self.pos.side == WHITE

    @property
    def key(self):
        """Zobrist key, equal to the position's Polyglot book key."""
        return self.pos.st.key

    @property
    def halfmove_clock(self):
        return self.pos.st.rule50

    @property
    def fullmove_number(self):
        return self.pos.game_ply // 2 + 1

    @property
    def move_stack(self):
        return [move_uci(&self.pos, m) for m in self.history]

    def legal_moves(self, str kind="all"):
        """Legal moves as UCI strings; kind is 'all', 'captures' (with promotions), 'quiets'
        or 'evasions' (only when in check)."""
        cdef Move moves[MAX_MOVES]
        cdef int n, i, gen
        if kind == "evasions" and not checkers(&self.pos):
            raise ValueError("'evasions' asked for, but the side to move is not in check")
        stages = {"all": GEN_ALL, "captures": GEN_CAPTURES, "quiets": GEN_QUIETS, "evasions": GEN_EVASIONS}
        if kind not in stages:
            raise ValueError(f"unknown move kind {kind!r}; use one of {', '.join(stages)}")
        gen = stages[kind]
        n = generate(&self.pos, moves, gen)
        return [move_uci(&self.pos, moves[i]) for i in range(n)]

    def move_code(self, str uci):
        """The 16-bit encoding of a legal move."""
        return parse_move(&self.pos, uci)

    def _codes_accepted_one_by_one(self):
        """Every 16-bit value that is_legal (the search's test of a single move, such as a hash
        table's) accepts here, ascending. For the tests, which compare it with legal_moves()."""
        cdef int code
        return [code for code in range(65536) if is_legal(&self.pos, <Move>code)]

    def push(self, str uci):
        """Play a legal move given in UCI notation."""
        cdef Move m = parse_move(&self.pos, uci)
        if reserve_plies(&self.pos, 1) < 0:
            raise MemoryError()
        do_move(&self.pos, m)
        self.history.append(m)

    def pop(self):
        """Take back the last move and return it."""
        if not self.history:
            raise IndexError("no move to take back")
        m = self.history.pop()
        if m == MOVE_NULL:
            undo_null_move(&self.pos)
        else:
            undo_move(&self.pos, m)
        return move_uci(&self.pos, m)

    def is_check(self):
        return checkers(&self.pos) != 0

    def has_legal_moves(self):
        cdef Move moves[MAX_MOVES]
        return generate(&self.pos, moves, GEN_ALL) > 0

    def is_checkmate(self):
        return self.is_check() and not self.has_legal_moves()

    def is_stalemate(self):
        return not self.is_check() and not self.has_legal_moves()

    def is_insufficient_material(self):
        return insufficient_material(&self.pos)

    def is_fifty_moves(self):
        return self.pos.st.rule50 >= 100 and self.has_legal_moves()

    def is_repetition(self, int count=3):
        """Whether the current position has occurred `count` times (this one included)."""
        return repetitions(&self.pos) + 1 >= count

    def outcome(self):
        """None while the game goes on, else (result, reason), e.g. ('1-0', 'White mates')."""
        if not self.has_legal_moves():
            if self.is_check():
                return ("0-1", "Black mates") if self.pos.side == WHITE else ("1-0", "White mates")
            return ("1/2-1/2", "Stalemate")
        if self.is_insufficient_material():
            return ("1/2-1/2", "Insufficient material")
        if self.pos.st.rule50 >= 100:
            return ("1/2-1/2", "Fifty-move rule")
        if self.is_repetition(3):
            return ("1/2-1/2", "Threefold repetition")
        return None

    def perft(self, int depth):
        """Leaf nodes of the legal move tree `depth` plies deep."""
        cdef u64 nodes
        if reserve_plies(&self.pos, depth + 1) < 0:
            raise MemoryError()
        with nogil:
            nodes = perft_nodes(&self.pos, depth)
        return nodes

    def perft_divide(self, int depth):
        """[(move, nodes)] for each root move, as Stockfish's `go perft` lists them."""
        cdef Move moves[MAX_MOVES]
        cdef int n = generate(&self.pos, moves, GEN_ALL), i
        cdef u64 nodes
        if reserve_plies(&self.pos, depth + 1) < 0:
            raise MemoryError()
        result = []
        for i in range(n):
            do_move(&self.pos, moves[i])
            with nogil:
                nodes = perft_nodes(&self.pos, depth - 1)
            undo_move(&self.pos, moves[i])
            result.append((move_uci(&self.pos, moves[i]), nodes))
        return result

    def evaluate(self):
        """Static evaluation in centipawns from the side to move's point of view."""
        return py_evaluate(&self.pos)

    def nnue_evaluate(self):
        """The loaded net's evaluation (pyrope.nnue_load) in centipawns, side to move's point of view."""
        return py_nnue_evaluate(&self.pos)

    def nnue_walk(self, int depth):
        """The sum of the loaded net's evaluations over every node of the legal move tree `depth`
        plies deep, each evaluated after its parent (nnue.pxi's nnue_walk): for timing."""
        cdef int64_t total
        if NET.hidden == 0:
            raise ValueError("no net is loaded (pyrope.nnue_load)")
        if reserve_plies(&self.pos, depth + 1) < 0 or nnue_reserve(&self.pos) < 0:
            raise MemoryError()
        with nogil:
            total = nnue_evaluate(&self.pos) + nnue_walk(&self.pos, depth)
        return total

    def nnue_accumulators(self, *, refresh=False):
        """The net's (white's, black's) accumulators for this position as lists: as kept up to date
        move by move, or with refresh=True computed from scratch. For tests."""
        return py_nnue_accumulators(&self.pos, refresh)

    def push_null(self):
        """Pass the turn (as the search's null move does); pop() takes it back."""
        if reserve_plies(&self.pos, 1) < 0:
            raise MemoryError()
        do_null_move(&self.pos)
        self.history.append(MOVE_NULL)

    def eval_terms(self):
        """{term: (mg, eg)} with each term white minus black, plus 'phase' (24 = all pieces on,
        0 = pawn ending), 'scale' (endgame scale out of 64) and 'score' (as evaluate())."""
        return py_eval_terms(&self.pos)

    def __str__(self):
        rows = []
        for rank in range(7, -1, -1):
            cells = [PIECE_LETTERS[self.pos.board[8 * rank + f]].strip() or "." for f in range(8)]
            rows.append(f"{rank + 1}  " + " ".join(cells))
        rows.append("   a b c d e f g h")
        return "\n".join(rows)

    def __repr__(self):
        return f"Board({self.fen()!r}{', chess960=True' if self.pos.chess960 else ''})"


def perft(str fen, int depth, *, chess960=False):
    """Perft of a FEN: the number of leaf nodes `depth` plies deep."""
    return Board(fen, chess960=chess960).perft(depth)
