# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Mill rules core (pyrope._mill): 32-bit bitboards, complete-turn move generation, make/unmake,
Zobrist keys, game ends and perft. Everything below MillCore is C on C types, nogil; MillCore is the
thin Python face that pyrope.mill.MillBoard drives (point indices, rule integers, no notation).
The search (evaluation, table, search, its Python face MillSearch) is included at the end, so that
the hot path inlines with move generation and make/unmake.
"""
from libc.stdint cimport int8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

cdef extern from *:
    """
    /* A portable build has no popcnt instruction, and gcc then calls libgcc's __popcountdi2 for
       __builtin_popcount: a third of the search's time. Inline bit arithmetic instead. */
    static inline int pyrope_popcount(unsigned int x) {
    #ifdef __POPCNT__
        return __builtin_popcount(x);
    #else
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    #endif
    }
    """
    int popcount "pyrope_popcount"(unsigned int) nogil
    int ctz "__builtin_ctz"(unsigned int) nogil

cdef enum:
    NPOINTS = 24
    FULL = 0xFFFFFF
    MAX_MOVES = 20000   # 80 base turns x 220 removal sets bounds any position
    MAX_LINES = 20
    MAX_SETS = 256      # C(12, 3) = 220 removal sets of three from twelve stones

# Status: result in the low nibble, reason in the next.
cdef enum:
    ONGOING = 0
    WHITE_WINS = 1
    BLACK_WINS = 2
    DRAW = 3
    R_UNDER_THREE = 1 << 4
    R_BLOCKED = 2 << 4
    R_REPETITION = 3 << 4
    R_MOVE_COUNT = 4 << 4
    R_BOARD_FULL = 5 << 4

ctypedef struct Rules:
    int pieces, may_fly, fly_count, remove_always, remove_multiple, move_in_placing
    int board_full_action, stalemate_action, n_move, endgame_n_move, threefold
    int nlines
    uint32_t line[MAX_LINES]
    uint32_t adj[NPOINTS]
    int nthrough[NPOINTS]
    uint32_t through[NPOINTS][4]

ctypedef struct Pos:
    uint32_t bb[2]
    int hand[2]
    int side, pending, quiet, turn
    uint64_t key

ctypedef struct Move:
    int8_t frm          # -1: a placement (or a pending removal when to is -1 too)
    int8_t to
    uint32_t removed    # set of opponent points taken this turn

ctypedef struct Undo:
    int quiet, pending

cdef uint64_t Z_PSQ[2][NPOINTS]
cdef uint64_t Z_HAND[2][16]
cdef uint64_t Z_PENDING[4]
cdef uint64_t Z_SIDE


cdef uint64_t splitmix(uint64_t* state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void init_zobrist() noexcept nogil:
    global Z_SIDE
    cdef uint64_t s = 0x4D696C6C  # "Mill"
    cdef int c, i
    for c in range(2):
        for i in range(NPOINTS):
            Z_PSQ[c][i] = splitmix(&s)
        for i in range(16):
            Z_HAND[c][i] = splitmix(&s)
    Z_PENDING[0] = 0
    for i in range(1, 4):
        Z_PENDING[i] = splitmix(&s)
    Z_SIDE = splitmix(&s)


init_zobrist()


cdef uint64_t compute_key(const Pos* p) noexcept nogil:
    cdef uint64_t key = Z_HAND[0][p.hand[0]] ^ Z_HAND[1][p.hand[1]] ^ Z_PENDING[p.pending]
    cdef int c
    cdef uint32_t b
    for c in range(2):
        b = p.bb[c]
        while b:
            key ^= Z_PSQ[c][ctz(b)]
            b &= b - 1
    if p.side:
        key ^= Z_SIDE
    return key


cdef inline int mills_at(const Rules* r, uint32_t own, int to) noexcept nogil:
    """Mills of `own` through point `to`."""
    cdef int i, m = 0
    cdef uint32_t ln
    for i in range(r.nthrough[to]):
        ln = r.through[to][i]
        if (own & ln) == ln:
            m += 1
    return m


cdef inline uint32_t removable(const Rules* r, uint32_t opp) noexcept nogil:
    """Opponent stones that may be taken: those outside mills, or any when all are in mills."""
    if r.remove_always:
        return opp
    cdef uint32_t inmill = 0, ln
    cdef int i
    for i in range(r.nlines):
        ln = r.line[i]
        if (opp & ln) == ln:
            inmill |= ln
    if opp & ~inmill:
        return opp & ~inmill
    return opp


cdef int removal_sets(const Rules* r, uint32_t opp, int k, uint32_t taken, uint32_t* sets, int ns) noexcept nogil:
    """Distinct sets of stones that k removals in sequence can take (fewer when the board empties)."""
    cdef int j
    cdef uint32_t rem, b
    if k == 0 or opp == 0:
        for j in range(ns):
            if sets[j] == taken:
                return ns
        sets[ns] = taken
        return ns + 1
    rem = removable(r, opp)
    while rem:
        b = rem & (~rem + 1)
        rem ^= b
        ns = removal_sets(r, opp & ~b, k - 1, taken | b, sets, ns)
    return ns


cdef inline int emit(Move* out, int n, int frm, int to, uint32_t removed) noexcept nogil:
    if out != NULL:
        out[n].frm = <int8_t>frm
        out[n].to = <int8_t>to
        out[n].removed = removed
    return n + 1


cdef int expand(const Rules* r, uint32_t opp, uint32_t rem1, int frm, int to, int k, uint32_t taken,
                Move* out, int n) noexcept nogil:
    """Add the turn frm-to with every way of making its k removals (after `taken`, stones a blocked
    side took first); out NULL counts only."""
    cdef uint32_t sets[MAX_SETS]
    cdef uint32_t b
    cdef int ns, j
    if k == 0 or opp == 0:
        return emit(out, n, frm, to, taken)
    if k == 1:
        if out == NULL:
            return n + popcount(rem1)
        b = rem1
        while b:
            n = emit(out, n, frm, to, taken | (b & (~b + 1)))
            b &= b - 1
        return n
    ns = removal_sets(r, opp, k, 0, sets, 0)
    if out == NULL:
        return n + ns
    for j in range(ns):
        n = emit(out, n, frm, to, taken | sets[j])
    return n


cdef inline int due(const Rules* r, int mills) noexcept nogil:
    if mills == 0:
        return 0
    return mills if r.remove_multiple else 1


cdef inline bint can_fly(const Rules* r, const Pos* p, int c) noexcept nogil:
    """Colour c has no stone in hand and few enough on the board to fly."""
    return r.may_fly and p.hand[c] == 0 and popcount(p.bb[c]) <= r.fly_count


cdef bint can_move(const Rules* r, const Pos* p, int c) noexcept nogil:
    """Whether colour c could place, slide or fly now (its pending removals aside)."""
    cdef uint32_t own = p.bb[c]
    cdef uint32_t empty = ~(own | p.bb[1 - c]) & FULL
    if empty == 0:
        return False
    if p.hand[c] > 0 or can_fly(r, p, c):
        return True
    while own:
        if r.adj[ctz(own)] & empty:
            return True
        own &= own - 1
    return False


cdef int blocked_turns(const Rules* r, const Pos* p, Move* out) noexcept nogil:
    """The turns of a side that can neither place, slide nor fly, by StalemateAction: 1 a pass,
    3 taking one opponent stone, 2 taking one and then sliding into its point when a stone of ours
    is next to it (that slide earns its mills' removals as usual); 0 and 4 end the game, so none.
    (A pass always has an answer: the board is connected, so with an empty point some stone
    borders one, and a blocked side's stones border none.)"""
    cdef int us = p.side, n = 0, frm
    cdef uint32_t own = p.bb[us], opp = p.bb[1 - us]
    cdef uint32_t rem1 = removable(r, opp), b, bit, next_to, own2
    if r.stalemate_action == 1:
        return emit(out, 0, -1, -1, 0)
    if r.stalemate_action == 3:
        return expand(r, opp, rem1, -1, -1, 1, 0, out, 0)
    if r.stalemate_action != 2:
        return 0
    b = rem1
    while b:
        bit = b & (~b + 1)
        b ^= bit
        next_to = own & r.adj[ctz(bit)]
        if not next_to:
            n = emit(out, n, -1, -1, bit)
        while next_to:
            frm = ctz(next_to)
            next_to &= next_to - 1
            own2 = (own ^ (1u << frm)) | bit
            n = expand(r, opp & ~bit, removable(r, opp & ~bit), frm, ctz(bit),
                       due(r, mills_at(r, own2, ctz(bit))), bit, out, n)
    return n


cdef int gen_moves(const Rules* r, const Pos* p, Move* out) noexcept nogil:
    """Every complete turn for the side to move; returns their number (out may be NULL)."""
    cdef int us = p.side
    cdef uint32_t own = p.bb[us], opp = p.bb[1 - us]
    cdef uint32_t empty = ~(own | opp) & FULL
    cdef uint32_t rem1 = removable(r, opp)
    cdef uint32_t e, f, own2
    cdef int n = 0, to, frm, k
    cdef bint flying
    if p.pending > 0:
        return expand(r, opp, rem1, -1, -1, p.pending, 0, out, 0)
    if empty == 0:
        # A full board still in play (BoardFullAction 1-3): the side to move takes one stone.
        return expand(r, opp, rem1, -1, -1, 1, 0, out, 0)
    if p.hand[us] > 0:
        e = empty
        while e:
            to = ctz(e)
            e &= e - 1
            k = due(r, mills_at(r, own | (1u << to), to))
            if k == 0 and r.board_full_action == 2 and empty == (1u << to):
                k = 1       # filling the board, the second player takes first (BoardFullAction 2)
            n = expand(r, opp, rem1, -1, to, k, 0, out, n)
        if not r.move_in_placing:
            return n
    flying = can_fly(r, p, us)
    f = own
    while f:
        frm = ctz(f)
        f &= f - 1
        e = empty if flying else r.adj[frm] & empty
        while e:
            to = ctz(e)
            e &= e - 1
            own2 = (own ^ (1u << frm)) | (1u << to)
            n = expand(r, opp, rem1, frm, to, due(r, mills_at(r, own2, to)), 0, out, n)
    if n == 0:
        n = blocked_turns(r, p, out)
    return n


cdef inline int owed_after(const Rules* r, const Pos* p, Move m) noexcept nogil:
    """Removals the opponent owes after m on a board about to fill or just full: BoardFullAction
    1 has White take one and then Black (Black owes after White's removal), 2 has the placement
    that fills the board without a mill take one and then the other side (it owes one)."""
    cdef uint32_t occupied = p.bb[0] | p.bb[1]
    if r.board_full_action == 1 and m.frm < 0 and m.to < 0 and m.removed and p.pending == 0 and occupied == FULL:
        return 1
    if (r.board_full_action == 2 and m.frm < 0 and m.to >= 0 and (occupied | (1u << m.to)) == FULL
            and mills_at(r, p.bb[p.side] | (1u << m.to), m.to) == 0):
        return 1
    return 0


cdef void make_move(const Rules* r, Pos* p, Move m, Undo* u) noexcept nogil:
    cdef int us = p.side, them = 1 - p.side
    cdef uint32_t b
    cdef uint64_t key = p.key
    cdef int owed = owed_after(r, p, m)
    u.quiet = p.quiet
    u.pending = p.pending
    if m.removed:       # first: a blocked side may slide into the point it took (StalemateAction 2)
        p.bb[them] &= ~m.removed
        b = m.removed
        while b:
            key ^= Z_PSQ[them][ctz(b)]
            b &= b - 1
    if m.frm >= 0:
        p.bb[us] ^= (1u << m.frm) | (1u << m.to)
        key ^= Z_PSQ[us][m.frm] ^ Z_PSQ[us][m.to]
        p.quiet += 1
    elif m.to >= 0:
        p.bb[us] |= 1u << m.to
        key ^= Z_PSQ[us][m.to] ^ Z_HAND[us][p.hand[us]] ^ Z_HAND[us][p.hand[us] - 1]
        p.hand[us] -= 1
        p.quiet = 0
    elif not m.removed:
        p.quiet += 1    # a pass (StalemateAction 1)
    if m.removed:
        p.quiet = 0
    key ^= Z_PENDING[p.pending] ^ Z_PENDING[owed] ^ Z_SIDE
    p.pending = owed
    p.side = them
    p.turn += 1
    p.key = key


cdef void unmake_move(Pos* p, Move m, const Undo* u) noexcept nogil:
    cdef int us = 1 - p.side, them = p.side
    cdef uint32_t b
    cdef uint64_t key = p.key ^ Z_SIDE ^ Z_PENDING[u.pending] ^ Z_PENDING[p.pending]
    if m.frm >= 0:
        p.bb[us] ^= (1u << m.frm) | (1u << m.to)
        key ^= Z_PSQ[us][m.frm] ^ Z_PSQ[us][m.to]
    elif m.to >= 0:
        p.bb[us] &= ~(1u << m.to)
        key ^= Z_PSQ[us][m.to] ^ Z_HAND[us][p.hand[us]] ^ Z_HAND[us][p.hand[us] + 1]
        p.hand[us] += 1
    if m.removed:
        p.bb[them] |= m.removed
        b = m.removed
        while b:
            key ^= Z_PSQ[them][ctz(b)]
            b &= b - 1
    p.pending = u.pending
    p.quiet = u.quiet
    p.side = us
    p.turn -= 1
    p.key = key


cdef int move_limit(const Rules* r, const Pos* p) noexcept nogil:
    """Turns without placement or removal that end the game drawn (0: no limit). As in Sanmill,
    the endgame limit acts only below the general one, so NMoveRule 0 turns both off."""
    if (0 < r.endgame_n_move < r.n_move and p.hand[0] == 0 and p.hand[1] == 0
            and (popcount(p.bb[0]) == 3 or popcount(p.bb[1]) == 3)):
        return r.endgame_n_move
    return r.n_move


cdef int rules_end(const Rules* r, const Pos* p, const uint64_t* hist, int n) noexcept nogil:
    """Every game end except a blocked side (which needs move generation)."""
    cdef int us = p.side, them = 1 - p.side
    cdef int i, lo, seen = 0, limit
    if p.hand[us] + popcount(p.bb[us]) < 3:
        return R_UNDER_THREE | (BLACK_WINS if us == 0 else WHITE_WINS)
    if p.hand[them] + popcount(p.bb[them]) < 3:
        return R_UNDER_THREE | (WHITE_WINS if us == 0 else BLACK_WINS)
    if p.pending == 0 and (p.bb[0] | p.bb[1]) == FULL and r.board_full_action in (0, 4):
        return R_BOARD_FULL | (BLACK_WINS if r.board_full_action == 0 else DRAW)
    if r.threefold:
        lo = n - p.quiet
        if lo < 0:
            lo = 0
        for i in range(n - 1, lo - 1, -1):
            if hist[i] == hist[n]:
                seen += 1
                if seen == 2:
                    return R_REPETITION | DRAW
    limit = move_limit(r, p)
    if limit > 0 and p.quiet >= limit:
        return R_MOVE_COUNT | DRAW
    return ONGOING


cdef int game_status(const Rules* r, const Pos* p, const uint64_t* hist, int n) noexcept nogil:
    cdef int s = rules_end(r, p, hist, n)
    if s != ONGOING:
        return s
    if gen_moves(r, p, NULL) == 0:
        if r.stalemate_action == 0:
            return R_BLOCKED | (BLACK_WINS if p.side == 0 else WHITE_WINS)
        return R_BLOCKED | DRAW
    return ONGOING


cdef unsigned long long perft_rec(const Rules* r, Pos* p, uint64_t* hist, int n, Move* buf, int depth) noexcept nogil:
    """Complete turns at depth; a finished game has none. hist[n] holds p's key."""
    cdef int i, count
    cdef Undo u
    cdef unsigned long long total = 0
    if rules_end(r, p, hist, n) != ONGOING:
        return 0
    if depth == 1:
        return gen_moves(r, p, NULL)
    count = gen_moves(r, p, buf)
    for i in range(count):
        make_move(r, p, buf[i], &u)
        hist[n + 1] = p.key
        total += perft_rec(r, p, hist, n + 1, buf + count, depth - 1)
        unmake_move(p, buf[i], &u)
    return total


cdef class MillCore:
    """Position, rules and history; moves are (from, to, removed-mask) with -1 for no point."""
    cdef Rules r
    cdef Pos p
    cdef uint64_t* hist      # hist[i]: key after i pushes; hist[n] is the current key
    cdef Move* played
    cdef Undo* undos
    cdef int n, cap

    def __cinit__(self):
        self.cap = 256
        self.hist = <uint64_t*>malloc(self.cap * sizeof(uint64_t))
        self.played = <Move*>malloc(self.cap * sizeof(Move))
        self.undos = <Undo*>malloc(self.cap * sizeof(Undo))
        if not self.hist or not self.played or not self.undos:
            raise MemoryError()
        self.n = 0

    def __dealloc__(self):
        free(self.hist)
        free(self.played)
        free(self.undos)

    cdef void grow(self, int need) except *:
        cdef int cap = self.cap
        while cap < need:
            cap *= 2
        if cap == self.cap:
            return
        self.hist = <uint64_t*>realloc(self.hist, cap * sizeof(uint64_t))
        self.played = <Move*>realloc(self.played, cap * sizeof(Move))
        self.undos = <Undo*>realloc(self.undos, cap * sizeof(Undo))
        if not self.hist or not self.played or not self.undos:
            raise MemoryError()
        self.cap = cap

    def set_rules(self, values, lines):
        """values: pieces, may_fly, fly_count, remove_always, remove_multiple, move_in_placing,
        board_full_action, stalemate_action, n_move, endgame_n_move, threefold (validated by
        pyrope.mill.rules); lines: point-index triples, each in order along its line."""
        cdef int i, k, a, b
        (self.r.pieces, self.r.may_fly, self.r.fly_count, self.r.remove_always, self.r.remove_multiple,
         self.r.move_in_placing, self.r.board_full_action, self.r.stalemate_action, self.r.n_move,
         self.r.endgame_n_move, self.r.threefold) = values
        if len(lines) > MAX_LINES:
            raise ValueError(f"A board may have at most {MAX_LINES} lines, not {len(lines)}.")
        self.r.nlines = len(lines)
        for i in range(NPOINTS):
            self.r.adj[i] = 0
            self.r.nthrough[i] = 0
        for i, triple in enumerate(lines):
            self.r.line[i] = 0
            for k in range(3):
                a = triple[k]
                self.r.line[i] |= 1u << a
                if k < 2:
                    b = triple[k + 1]
                    self.r.adj[a] |= 1u << b
                    self.r.adj[b] |= 1u << a
            for k in range(3):
                a = triple[k]
                self.r.through[a][self.r.nthrough[a]] = self.r.line[i]
                self.r.nthrough[a] += 1

    def set_position(self, uint32_t white, uint32_t black, int hand_white, int hand_black,
                     int side, int pending, int quiet, int turn):
        """Replace the position (validated by pyrope.mill.fen) and clear the history."""
        self.p.bb[0] = white
        self.p.bb[1] = black
        self.p.hand[0] = hand_white
        self.p.hand[1] = hand_black
        self.p.side = side
        self.p.pending = pending
        self.p.quiet = quiet
        self.p.turn = turn
        self.p.key = compute_key(&self.p)
        self.n = 0
        self.hist[0] = self.p.key

    def position(self):
        """(white, black, hand_white, hand_black, side, pending, quiet, turn)."""
        return (self.p.bb[0], self.p.bb[1], self.p.hand[0], self.p.hand[1], self.p.side,
                self.p.pending, self.p.quiet, self.p.turn)

    @property
    def key(self):
        return self.p.key

    def recomputed_key(self):
        """The key computed from scratch, to check the incremental one."""
        return compute_key(&self.p)

    @property
    def ply(self):
        """Turns pushed since the position was set."""
        return self.n

    def moves(self):
        """Every complete turn as (from, to, removed-mask); empty when the game is over."""
        cdef Move* buf
        cdef int count, i
        if game_status(&self.r, &self.p, self.hist, self.n) != ONGOING:
            return []
        buf = <Move*>malloc(MAX_MOVES * sizeof(Move))
        if not buf:
            raise MemoryError()
        count = gen_moves(&self.r, &self.p, buf)
        result = [(buf[i].frm, buf[i].to, buf[i].removed) for i in range(count)]
        free(buf)
        return result

    def push(self, int frm, int to, uint32_t removed):
        """Play a turn from moves(); ValueError (and nothing changes) for any other."""
        cdef Move m
        if (frm, to, removed) not in self.moves():
            raise ValueError(f"({frm}, {to}, {removed:#x}) is not a legal turn here.")
        self.grow(self.n + 2)
        m.frm = <int8_t>frm
        m.to = <int8_t>to
        m.removed = removed
        make_move(&self.r, &self.p, m, &self.undos[self.n])
        self.played[self.n] = m
        self.n += 1
        self.hist[self.n] = self.p.key

    def pop(self):
        """Take back the last turn; returns it as (from, to, removed-mask)."""
        if self.n == 0:
            raise IndexError("There is no turn to take back.")
        self.n -= 1
        cdef Move m = self.played[self.n]
        unmake_move(&self.p, m, &self.undos[self.n])
        return (m.frm, m.to, m.removed)

    def status(self):
        """0 while the game goes on; else result (1 white wins, 2 black wins, 3 draw) | reason << 4."""
        return game_status(&self.r, &self.p, self.hist, self.n)

    def perft(self, int depth):
        """Complete turns at depth (bulk-counted at the last ply); finished games have none."""
        cdef Move* buf
        cdef unsigned long long total
        if depth < 1:
            return 1
        self.grow(self.n + depth + 2)
        buf = <Move*>malloc(<size_t>MAX_MOVES * depth * sizeof(Move))
        if not buf:
            raise MemoryError()
        with nogil:
            total = perft_rec(&self.r, &self.p, self.hist, self.n, buf, depth)
        free(buf)
        return total


include "mill_db.pxi"
include "mill_eval.pxi"
include "mill_tt.pxi"
include "mill_search.pxi"
include "mill_search_api.pxi"
