# The bare enemy king (the thesis's chapter 6): once the enemy has only its king, what we believe
# of it is one 64-bit set of squares where it may stand, and the metaposition search of section 6.2
# runs on set operations alone. Our men are known exactly; the enemy king blocks our lines and
# refuses our tries, and after its unseen step every square next to a possible king that we do not
# attack or occupy becomes possible. A search node is our men plus that set, our turn to move.
#
# The search (section 6.2) is a minimax in which the enemy is omniscient and relocates its king at
# will (6.1.2): for each of our pseudomoves (legal for at least one possible king), the referee's
# possible answers split the set -- refused (still our turn), silent, each kind of check, mate,
# stalemate -- and then the king steps, or takes a loose man of ours. The thesis follows only the
# answer whose EVAL is lowest (figure 6.4, "worst-message pruning"); C is fast enough to search
# every answer instead, with alpha-beta, so the worst answer is found by search and the others are
# cut off once it is (it mates more often: docs/kriegspiel.md, "The bare king"). A move any of whose
# kings would be stalemated counts as stalemate, a loss of our last mating material as a draw, and a
# move mates only when every possible king is mated. EVAL (section 6.3) is summed over each of our
# pieces, with two additions: the size of the king's box (every square it could walk to while our
# men stand still), which measures progress where the thesis's terms do not, and material and pawn
# advance so that any material converts. Everything is C on C types, without the GIL.

from libc.string cimport memcpy

cdef enum:
    EG_MAX_MOVES = 160
    EG_MAX_DEPTH = 12

cdef double EG_WIN = 1e9            # a forced mate (less the plies to it)
cdef double EG_TERMINAL = 1e8       # values beyond this are mates or stalemates

# Section 6.3.1's matrix v (figure 6.6), by rank from White's side (symmetric): corners and edges
# where a mate is easy are worth more, the centre less. Summed over every possible king.
cdef int EG_EDGE[64]
EG_EDGE[:] = [1, 1, 0, 0, 0, 0, 1, 1,
              1, 0, 0, 0, 0, 0, 0, 1,
              0, 0, -2, -4, -4, -2, 0, 0,
              0, 0, -4, -4, -4, -4, 0, 0,
              0, 0, -4, -4, -4, -4, 0, 0,
              0, 0, -2, -4, -4, -2, 0, 0,
              1, 0, 0, 0, 0, 0, 0, 1,
              1, 1, 0, 0, 0, 0, 1, 1]

cdef int EG_VALUE[7]
EG_VALUE[:] = [0, 100, 320, 330, 500, 900, 0]


cdef struct EgNode:
    u64 men[7]          # our men by type, PAWN..KING (index 0 unused)
    u64 occ             # all our men
    u64 kings           # squares where the enemy king may stand
    u64 walls           # enemy pawns that cannot move: known squares, blocked by our men
    int us


cdef inline u64 eg_spread(u64 s) noexcept nogil:
    """The squares next to some square of s (a king's step from it)."""
    cdef u64 side = ((s << 1) & ~FILE_A) | ((s >> 1) & ~FILE_H)
    cdef u64 row = s | side
    return side | (row << 8) | (row >> 8)


cdef inline int eg_type_at(const EgNode* n, int sq) noexcept nogil:
    cdef int t
    for t in range(PAWN, KING + 1):
        if n.men[t] & bb(sq):
            return t
    return 0


cdef inline u64 eg_attacks(const EgNode* n, bint with_king) noexcept nogil:
    """Every square our men attack (our own men's squares included: those are defended), on a
    board of our men alone (and the stuck enemy pawns) -- so a slider's line runs on through the
    enemy king's square, and the king can never step back along it."""
    return men_attacks(n.men, n.us, n.occ | n.walls, with_king)


cdef inline int eg_check_kinds(const EgNode* n, int k) noexcept nogil:
    """The CHECK_ bits our men give an enemy king on k (only our men and its stuck pawns block)."""
    return men_checks(n.men, n.us, k, ~(n.occ | n.walls))


cdef inline u64 eg_wall_attacks(const EgNode* n) noexcept nogil:
    """The squares the stuck enemy pawns attack: none of our men may stand there (a pawn that can
    take is no longer stuck)."""
    cdef u64 b = n.walls, attacks = 0
    while b:
        attacks |= PAWN_ATTACKS[1 - n.us][lsb(b)]
        b &= b - 1
    return attacks


cdef inline u64 eg_blockers(const EgNode* n) noexcept nogil:
    """The squares in front of the stuck enemy pawns: our men there keep them stuck."""
    return n.walls << 8 if n.us == BLACK else n.walls >> 8


cdef inline int eg_generate(const EgNode* n, int* moves) noexcept nogil:
    """Our men's moves on a board of our men alone: the tries a bare king could let through.
    No captures (the king is the enemy's only man that moves), no castling; a pawn promotes to a
    queen or a rook (a rook mates where a queen would stalemate). With stuck enemy pawns, they
    stay stuck: no man of ours moves onto a square they attack (a double push passing one
    neither: en passant), nor away from in front of one."""
    cdef u64 banned = n.walls | eg_wall_attacks(n), blockers
    cdef int count = own_moves(n.men, n.us, n.occ | n.walls, ~n.occ & ~banned, ~n.occ & ~banned, 0, True, moves)
    cdef int i, kept = 0
    if not n.walls:
        return count
    blockers = eg_blockers(n)
    for i in range(count):
        if not blockers & bb(moves[i] & 63):
            moves[kept] = moves[i]
            kept += 1
    return kept


cdef u64 eg_refusing(const EgNode* n, int m) noexcept nogil:
    """The squares where the enemy king makes our move m illegal: the squares it passes or lands
    on, or for our king the squares next to its destination too."""
    cdef int frm = m & 63, to = (m >> 6) & 63
    if n.men[KING] & bb(frm):
        return KING_ATTACKS[to] | bb(to)
    if n.men[KNIGHT] & bb(frm):
        return bb(to)
    return BETWEEN[frm][to] | bb(to)


cdef void eg_play(const EgNode* n, int m, EgNode* out) noexcept nogil:
    cdef int frm = m & 63, to = (m >> 6) & 63, promotion = m >> 12
    cdef int t = eg_type_at(n, frm)
    memcpy(out, n, sizeof(EgNode))
    out.men[t] &= ~bb(frm)
    out.men[promotion if promotion else t] |= bb(to)
    out.occ = (n.occ & ~bb(frm)) | bb(to)


cdef struct EgSplit:        # how the referee's answer to a legal move splits the possible kings
    u64 attacked            # what our men attack after the move (our king too)
    u64 silent              # no check, and a move to make
    u64 mated
    u64 stalemated
    u64 by_kinds[32]        # checked (not mated) kings by their CHECK_ bits >> 9
    int kinds_seen          # bit i set when by_kinds[i] is not empty


cdef void eg_split(const EgNode* after, u64 kings, EgSplit* s) noexcept nogil:
    cdef u64 checked, escapes, b
    cdef int k, kinds
    s.attacked = eg_attacks(after, True)
    checked = kings & eg_attacks(after, False)
    # A king with no square to go to: every square next to it is attacked (an undefended man of
    # ours next to it is not, and taking it is a move).
    escapes = eg_spread(~s.attacked & ~after.walls)
    s.mated = checked & ~escapes
    s.stalemated = kings & ~checked & ~escapes
    s.silent = kings & ~checked & escapes
    s.kinds_seen = 0
    b = checked & escapes
    while b:
        k = lsb(b); b &= b - 1
        kinds = eg_check_kinds(after, k) >> 9
        if not s.kinds_seen & (1 << kinds):
            s.kinds_seen |= 1 << kinds
            s.by_kinds[kinds] = 0
        s.by_kinds[kinds] |= bb(k)


cdef inline u64 eg_metamove(const EgNode* after, u64 kings, u64 attacked) noexcept nogil:
    """Where the enemy king may stand after its unseen step from `kings` (no capture announced)."""
    return eg_spread(kings) & ~attacked & ~after.occ & ~after.walls


cdef inline bint eg_can_mate(const EgNode* n) noexcept nogil:
    """Whether our men could still mate a bare king: a pawn, rook or queen, or two minor pieces."""
    return (n.men[PAWN] | n.men[ROOK] | n.men[QUEEN]) != 0 or more_than_one(n.men[KNIGHT] | n.men[BISHOP])


cdef int eg_capture_target(const EgNode* after, u64 kings, u64 attacked) noexcept nogil:
    """The man of ours a king from `kings` could take on its step (undefended, next to it): the
    most valuable, or -1 when none is."""
    cdef u64 hanging = after.occ & ~after.men[KING] & eg_spread(kings) & ~attacked
    cdef int t
    for t in range(QUEEN, PAWN - 1, -1):
        if hanging & after.men[t]:
            return lsb(hanging & after.men[t])
    return -1


cdef inline void eg_remove(EgNode* n, int sq) noexcept nogil:
    cdef int t = eg_type_at(n, sq)
    n.men[t] &= ~bb(sq)
    n.occ &= ~bb(sq)


cdef double eg_answer_value(const EgNode* after, u64 kings, u64 attacked) noexcept nogil:
    """EVAL of one answer to our move, or a draw (-EG_WIN) when a king from `kings` could take a
    man of ours whose loss leaves too little to mate, or one that keeps a stuck pawn stuck."""
    cdef EgNode taken
    cdef int target = eg_capture_target(after, kings, attacked)
    if target >= 0:
        if eg_blockers(after) & bb(target):
            return -EG_WIN
        memcpy(&taken, after, sizeof(EgNode))
        eg_remove(&taken, target)
        if not eg_can_mate(&taken):
            return -EG_WIN
    return eg_eval(after, kings, attacked)


cdef u64 eg_region(const EgNode* n, u64 kings, u64 attacked) noexcept nogil:
    """Every square the enemy king could walk to from `kings` if our men stood still: its box."""
    cdef u64 free = ~attacked & ~n.occ & ~n.walls, region = kings, grown
    while True:
        grown = region | (eg_spread(region) & free)
        if grown == region:
            return region
        region = grown


cdef inline int eg_distance(int a, int b) noexcept nogil:
    cdef int df = abs(file_of(a) - file_of(b)), dr = abs(rank_of(a) - rank_of(b))
    return df if df > dr else dr


cdef inline int eg_areas(u64 kings, u64 a0, u64 a1, u64 a2, u64 a3) noexcept nogil:
    """Section 6.3's division term: (areas holding a king) x (kings in them)."""
    cdef int c0 = popcount(kings & a0), c1 = popcount(kings & a1)
    cdef int c2 = popcount(kings & a2), c3 = popcount(kings & a3)
    return ((c0 > 0) + (c1 > 0) + (c2 > 0) + (c3 > 0)) * (c0 + c1 + c2 + c3)


cdef u64 EG_QUADRANT[64][4]     # the four quadrants around a rook's lines (strictly off them)
cdef u64 EG_WEDGE[64][4]        # the four areas between a bishop's diagonals (strictly off them)
cdef u64 EG_RECT[64][64]        # the rectangle two squares span, both included


cdef void init_endgame() noexcept nogil:
    cdef int sq, o, df, dr, f0, f1, r0, r1, a, b
    for sq in range(64):
        for o in range(4):
            EG_QUADRANT[sq][o] = 0
            EG_WEDGE[sq][o] = 0
        for o in range(64):
            df = file_of(o) - file_of(sq)
            dr = rank_of(o) - rank_of(sq)
            if df and dr:
                EG_QUADRANT[sq][(df > 0) + 2 * (dr > 0)] |= bb(o)
            if dr > abs(df):
                EG_WEDGE[sq][0] |= bb(o)
            elif -dr > abs(df):
                EG_WEDGE[sq][1] |= bb(o)
            elif df > abs(dr):
                EG_WEDGE[sq][2] |= bb(o)
            elif -df > abs(dr):
                EG_WEDGE[sq][3] |= bb(o)
    for a in range(64):
        for b in range(64):
            f0 = min(file_of(a), file_of(b)); f1 = max(file_of(a), file_of(b))
            r0 = min(rank_of(a), rank_of(b)); r1 = max(rank_of(a), rank_of(b))
            EG_RECT[a][b] = 0
            for o in range(64):
                if f0 <= file_of(o) <= f1 and r0 <= rank_of(o) <= r1:
                    EG_RECT[a][b] |= bb(o)


cdef double eg_eval(const EgNode* n, u64 kings, u64 attacked) noexcept nogil:
    """Section 6.3's EVAL of our men and the possible kings after our move (their turn): the mating
    terms (eg_mating), and ours: material and our pawns' advance."""
    cdef double score = eg_mating(n, kings, attacked)
    cdef int t, sq
    cdef u64 b
    if not kings:
        return 0
    for t in range(PAWN, QUEEN + 1):
        score += EG_VALUE[t] * popcount(n.men[t])
    b = n.men[PAWN]
    while b:
        sq = lsb(b); b &= b - 1
        score += 8 * (rank_of(sq) if n.us == WHITE else 7 - rank_of(sq))
    return score


cdef double eg_mating(const EgNode* n, u64 kings, u64 attacked) noexcept nogil:
    """Section 6.3's terms that drive a mate (the maximax player uses them too once the enemy is
    nearly bare): our men safe (-1000 a piece, -200 a pawn a possible king could take), our king
    near theirs (-1 a step, summed over the possible kings), fewer possible kings and fewer areas
    holding them around each rook/queen (quadrants) and queen/bishop (diagonal wedges), no king
    inside the rectangle of our king and a rook/queen (-500), a rook/queen beside our king (+1),
    kings pushed to the edge (matrix v); and ours: the king's box small (-8 a square)."""
    cdef double score = 0
    cdef int count = popcount(kings), k, sq, dist = 0, edge = 0, ours
    cdef u64 b, hanging
    if count == 0:
        return 0
    ours = lsb(n.men[KING]) if n.men[KING] else -1
    hanging = n.occ & ~n.men[KING] & eg_spread(kings) & ~attacked
    score -= 1000 * popcount(hanging & ~n.men[PAWN]) + 200 * popcount(hanging & n.men[PAWN])
    b = kings
    while b:
        k = lsb(b); b &= b - 1
        edge += EG_EDGE[k]
        if ours >= 0:
            dist += eg_distance(ours, k)
    score += edge - dist - 8 * popcount(eg_region(n, kings, attacked))
    if n.men[QUEEN] | n.men[BISHOP] | n.men[KNIGHT]:
        score -= count
    b = n.men[ROOK] | n.men[QUEEN]
    while b:
        sq = lsb(b); b &= b - 1
        score -= eg_areas(kings, EG_QUADRANT[sq][0], EG_QUADRANT[sq][1], EG_QUADRANT[sq][2], EG_QUADRANT[sq][3])
        if ours >= 0:
            if kings & EG_RECT[ours][sq]:
                score -= 500
            if KING_ATTACKS[ours] & bb(sq):
                score += 1
    b = n.men[BISHOP] | n.men[QUEEN]
    while b:
        sq = lsb(b); b &= b - 1
        score -= eg_areas(kings, EG_WEDGE[sq][0], EG_WEDGE[sq][1], EG_WEDGE[sq][2], EG_WEDGE[sq][3])
    return score


cdef enum:
    EG_CHECK_EVERY = 256    # positions between two clock reads (see ks_passed)


cdef struct EgSearch:
    long nodes
    long max_nodes
    bint stopped
    KsDeadline deadline


cdef double eg_answers(EgSearch* s, const EgNode* n, int m, int depth, int ply,
                       double alpha, double beta) noexcept nogil:
    """The value of our move m as the enemy's worst answer for us: the referee's answer (a
    refusal, silence, each kind of check; a possible stalemate is one) and then the king's unseen
    step (taking a loose man of ours, or not). `depth` moves in all, this one included."""
    cdef u64 refused = n.kings & eg_refusing(n, m), legal = n.kings & ~refused, answer
    cdef EgNode after, child
    cdef EgSplit split
    cdef double worst = 2 * EG_WIN, v
    cdef int kinds, target
    s.nodes += 1
    if ks_passed(&s.deadline, s.nodes):
        s.stopped = True            # the iteration is thrown away; depth 1 never recurses, so it ends
    eg_play(n, m, &after)
    eg_split(&after, legal, &split)
    if split.stalemated:
        return -EG_WIN
    if not refused and not split.silent and not split.kinds_seen:
        return EG_WIN - ply            # every king it leaves is mated
    if refused:
        # A refusal leaves our men and their king as they were, and still our move.
        worst = eg_eval(n, refused, eg_attacks(n, True))
        if depth > 1 and not s.stopped:
            memcpy(&child, n, sizeof(EgNode))
            child.kings = refused
            worst = eg_best(s, &child, depth - 1, ply + 1, alpha, beta, NULL, NULL, 0)
        if worst <= alpha:
            return worst
    for kinds in range(32):
        if kinds == 0:
            answer = split.silent
        elif split.kinds_seen & (1 << kinds):
            answer = split.by_kinds[kinds]
        else:
            continue
        if not answer:
            continue
        v = eg_answer_value(&after, answer, split.attacked)
        if depth > 1 and not s.stopped and v > -EG_TERMINAL:
            v = 2 * EG_WIN
            memcpy(&child, &after, sizeof(EgNode))
            target = eg_capture_target(&after, answer, split.attacked)
            if target >= 0:             # the king takes a man of ours
                eg_remove(&child, target)
                child.kings = bb(target)
                v = eg_best(s, &child, depth - 1, ply + 1, alpha, min(beta, worst), NULL, NULL, 0)
                memcpy(&child, &after, sizeof(EgNode))
            if v > alpha:               # or steps anywhere else
                child.kings = eg_metamove(&after, answer, split.attacked)
                if child.kings:
                    v = min(v, eg_best(s, &child, depth - 1, ply + 1, alpha, min(beta, worst, v), NULL, NULL, 0))
        if v < worst:
            worst = v
            if worst <= alpha:
                break
    return worst


cdef double eg_best(EgSearch* s, const EgNode* n, int depth, int ply, double alpha, double beta,
                    int* order, double* values, int order_count) noexcept nogil:
    """Our best move's value `depth` moves deep against the worst answers (alpha-beta over our
    moves and the enemy's answers; EVAL at the horizon, a forced mate EG_WIN less its plies, a
    stalemate or a loss of mating material -EG_WIN). At the root, `order` gives the moves to
    try, best first, and `values` receives each one's value (a bound for those that fail low)."""
    cdef int moves[EG_MAX_MOVES]
    cdef int count, i
    cdef double best = -2 * EG_WIN, v
    if order != NULL:
        count = order_count
        memcpy(moves, order, count * sizeof(int))
    else:
        count = eg_generate(n, moves)
    for i in range(count):
        if order == NULL and not n.kings & ~eg_refusing(n, moves[i]):
            continue                    # refused wherever the king is: no try at all
        v = eg_answers(s, n, moves[i], depth, ply, max(alpha, best), beta)
        if values != NULL:
            values[i] = v
        if v > best:
            best = v
            if best >= beta:
                break
        if s.nodes >= s.max_nodes and ply > 0:
            s.stopped = True
    return best


init_endgame()


cdef class BareKing:
    """Our men and where the bare enemy king may stand, kept up to date from the referee's
    answers, and section 6.2's search for our next try.

    Squares are 0-63, piece types the core's (1 pawn ... 6 king), a move from | to << 6 |
    promotion << 12 (as RefereeCore.probe). pyrope.kriegspiel.endgame.BareKingPlayer is its face.
    """
    cdef EgNode node
    cdef public long nodes      # positions the last search visited

    def __init__(self, bint white, men, u64 kings, u64 walls=0):
        """men: (square, piece type) pairs of ours; kings: the set of possible enemy-king squares;
        walls: the enemy's pawns, when it has nothing else and each is surely there and stuck."""
        cdef int sq, t
        self.node.us = WHITE if white else BLACK
        self.node.walls = walls
        for t in range(7):
            self.node.men[t] = 0
        self.node.occ = 0
        for sq, t in men:
            if not (0 <= sq < 64 and PAWN <= t <= KING) or self.node.occ & bb(sq):
                raise ValueError(f"bad man {t} on square {sq}")
            self.node.men[t] |= bb(sq)
            self.node.occ |= bb(sq)
        if walls & self.node.occ:
            raise ValueError("an enemy pawn on a square of ours")
        self.node.kings = kings & ~self.node.occ & ~walls

    @property
    def kings(self):
        return self.node.kings

    def attacked(self):
        """The squares our men attack (our king included)."""
        return eg_attacks(&self.node, True)

    def moves(self):
        """Our pseudomoves: moves legal for at least one possible king."""
        cdef int moves[EG_MAX_MOVES]
        cdef int count = eg_generate(&self.node, moves), i
        return [moves[i] for i in range(count) if self.node.kings & ~eg_refusing(&self.node, moves[i])]

    def refused(self, int move):
        """The referee refused our try `move`: the king stands where it refuses it."""
        self.node.kings &= eg_refusing(&self.node, move)

    def played(self, int move, int checks):
        """Our try `move` was legal and the referee announced the CHECK_ bits `checks` (0: none):
        the king stands where that move gives exactly those checks."""
        cdef EgNode after
        cdef EgSplit split
        cdef u64 legal = self.node.kings & ~eg_refusing(&self.node, move)
        cdef int kinds = (checks >> 9) & 31
        eg_play(&self.node, move, &after)
        eg_split(&after, legal, &split)
        if kinds == 0:
            after.kings = split.silent
        else:
            after.kings = split.by_kinds[kinds] if split.kinds_seen & (1 << kinds) else 0
        self.node = after

    def their_move(self, int captured=-1):
        """The enemy king stepped unseen; `captured` is the square where the referee announced
        that it took one of our men, or -1."""
        cdef u64 attacked
        if captured >= 0:
            eg_remove(&self.node, captured)
            self.node.kings = eg_spread(self.node.kings) & bb(captured)
            return
        attacked = eg_attacks(&self.node, True)
        self.node.kings = eg_metamove(&self.node, self.node.kings, attacked)

    def evaluate(self):
        """EVAL of this metaposition as if the enemy king were to move."""
        return eg_eval(&self.node, self.node.kings, eg_attacks(&self.node, True))

    def best(self, int depth=4, long max_nodes=2000000, avoid=(), seconds=None):
        """Section 6.2's move against the worst answers, iteratively deepened to `depth` moves
        while fewer than `max_nodes` positions are visited and, with `seconds`, until that time is
        up (the first depth always finishes), with its value; moves in `avoid` (already played
        from this very metaposition) only when nothing else is left. None when we have no try."""
        cdef int moves[EG_MAX_MOVES]
        cdef double values[EG_MAX_MOVES]
        cdef int count = 0, d, i, j, best_index
        cdef double value = 0
        cdef EgSearch s
        cdef double limit = ks_seconds(seconds)
        if not self.node.kings:
            raise ValueError("no square is left for the enemy king")
        tries = self.moves()
        avoided = set(avoid)
        wanted = [m for m in tries if m not in avoided] or tries
        if not wanted:
            return None
        for m in wanted[:EG_MAX_MOVES]:
            moves[count] = m
            count += 1
        depth = max(1, min(depth, EG_MAX_DEPTH))
        s.nodes = 0
        s.max_nodes = max_nodes
        s.stopped = False
        with nogil:
            ks_start(&s.deadline, limit, EG_CHECK_EVERY)
            for d in range(1, depth + 1):
                eg_best(&s, &self.node, d, 0, -2 * EG_WIN, 2 * EG_WIN, moves, values, count)
                if s.stopped and d > 1:
                    break               # an unfinished depth: keep the last whole one
                # Best first for the next depth (insertion sort: a few dozen moves).
                for i in range(1, count):
                    j = i
                    while j > 0 and values[j] > values[j - 1]:
                        values[j], values[j - 1] = values[j - 1], values[j]
                        moves[j], moves[j - 1] = moves[j - 1], moves[j]
                        j -= 1
                value = values[0]
                best_index = moves[0]
                if s.stopped or value > EG_TERMINAL or value < -EG_TERMINAL:
                    break
        self.nodes = s.nodes
        return best_index, value
