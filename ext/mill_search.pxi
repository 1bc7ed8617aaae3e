# Mill search (included by _mill.pyx, so make/unmake, move generation and evaluation inline into it):
# negamax alpha-beta with PVS, move ordering by table move, mill knowledge, killers and history,
# game ends and draws scored as the rules score them, and the two root drivers -- PVS with
# aspiration windows, and MTD(f) -- that iterative deepening in mill_search_api.pxi calls.
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef extern from *:
    """
    static inline int pyrope_load_flag(int *f) { return __atomic_load_n(f, __ATOMIC_RELAXED); }
    static inline void pyrope_store_flag(int *f, int v) { __atomic_store_n(f, v, __ATOMIC_RELAXED); }
    """
    int load_flag "pyrope_load_flag"(int* f) nogil
    void store_flag "pyrope_store_flag"(int* f, int v) nogil

cdef enum:
    MAX_PLY = 100
    MATE = 32000                # a won game end, minus the turns it takes
    MATE_BOUND = MATE - MAX_PLY # scores beyond this are game ends
    NO_SCORE = -2 * MATE        # no database value
    INF = 32001
    BUF_MOVES = MAX_MOVES * 8   # move lists of a search path, stacked
    POLL_MASK = 2047            # look at the clock every 2048 nodes
    ALGO_PVS = 0
    ALGO_MTDF = 1

ctypedef struct SearchState:
    Rules r
    Pos pos
    uint64_t* hist          # game keys, then the search path's: hist[root_n + ply]
    int root_n, hist_cap
    Move* buf               # move lists stacked along the path; buf[0:nroot] are the root's
    int* order              # ordering score of each buf entry
    int used
    TTEntry* tt             # NULL: no table (hash size 0)
    uint64_t tt_mask
    Move killers[MAX_PLY][2]
    int history[2][NPOINTS + 1][NPOINTS]
    int w[NWEIGHTS]
    int stop                # set by another thread (atomic); the search polls it
    int stopped
    unsigned long long nodes, max_nodes
    double start_ms, deadline_ms
    const DBCtx* db         # endgame databases probed below the root (NULL: none)
    unsigned long long tbhits


cdef Move NO_MOVE     # what a table miss holds: no point, no removal
NO_MOVE.frm = -1
NO_MOVE.to = -1
NO_MOVE.removed = 0


cdef inline double now_ms() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6


cdef inline bint same_move(Move a, Move b) noexcept nogil:
    return a.frm == b.frm and a.to == b.to and a.removed == b.removed


cdef inline int end_score(int status, int side, int ply) noexcept nogil:
    """A finished game for the side to move at ply: draws 0, wins sooner and losses later better."""
    cdef int result = status & 15
    if result == DRAW:
        return 0
    if (result == WHITE_WINS) == (side == 0):
        return MATE - ply
    return -(MATE - ply)


cdef inline int to_tt(int score, int ply) noexcept nogil:
    """Game-end scores are stored as distance from the node, not from the root."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


cdef inline int from_tt(int score, int ply) noexcept nogil:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


cdef inline bint repeats_in_tree(const SearchState* s, int n) noexcept nogil:
    """The position at hist[n] occurred earlier on the search path (root included) since the last
    placement or removal. Scored a draw at once: the side that gained nothing by the cycle can
    repeat it, so the rules' third occurrence would follow; this is how chess engines score it too.
    Keys include the side to move, so only every other entry can match."""
    cdef int i = n - 2
    cdef int lo = n - s.pos.quiet
    if lo < s.root_n:
        lo = s.root_n
    while i >= lo:
        if s.hist[i] == s.hist[n]:
            return True
        i -= 2
    return False


cdef void score_moves(SearchState* s, const Move* moves, int* scores, int count, Move tt_move,
                      int ply) noexcept nogil:
    """Ordering keys, after Sanmill's move picker: the table move; turns that close a mill, taking
    stones that sit in the opponent's open mills, move freely or crowd ours; turns that block an
    opponent's mill; killers; history; points with more neighbours."""
    cdef const Rules* r = &s.r
    cdef const Pos* p = &s.pos
    cdef int us = p.side, j, t, sc
    cdef uint32_t own = p.bb[us], opp = p.bb[1 - us]
    cdef uint32_t empty = ~(own | opp) & FULL
    cdef uint32_t threat = 0, opp_open = 0, near_own = 0, ln, b
    cdef Move m
    cdef bint has_tt = tt_move.to >= 0 or tt_move.removed != 0
    for j in range(r.nlines):
        ln = r.line[j]
        if popcount(opp & ln) == 2 and empty & ln:
            threat |= empty & ln
            opp_open |= opp & ln
    b = own
    while b:
        near_own |= r.adj[ctz(b)]
        b &= b - 1
    for j in range(count):
        m = moves[j]
        if has_tt and same_move(m, tt_move):
            scores[j] = 1 << 30
            continue
        sc = 0
        if m.removed:
            sc = 1 << 24
            b = m.removed
            while b:
                t = ctz(b)
                b &= b - 1
                sc += (64 * ((opp_open >> t) & 1) + 16 * popcount(r.adj[t] & empty)
                       + 32 * ((near_own >> t) & 1))
        if m.to >= 0 and (threat >> m.to) & 1:
            sc += 1 << 23
        elif not m.removed and same_move(m, s.killers[ply][0]):
            sc += 1 << 22
        elif not m.removed and same_move(m, s.killers[ply][1]):
            sc += 1 << 21
        sc += s.history[us][m.frm + 1][m.to] if m.to >= 0 else 0
        if m.to >= 0:
            sc += popcount(r.adj[m.to])
        scores[j] = sc


cdef inline void pick(Move* moves, int* scores, int i, int count) noexcept nogil:
    """Bring the best-scored of moves[i:count] to i (selection: a cut-off often comes first)."""
    cdef int j, best = i
    cdef Move m
    cdef int sc
    for j in range(i + 1, count):
        if scores[j] > scores[best]:
            best = j
    if best != i:
        m = moves[i]
        moves[i] = moves[best]
        moves[best] = m
        sc = scores[i]
        scores[i] = scores[best]
        scores[best] = sc


cdef void reward(SearchState* s, Move m, int depth, int ply) noexcept nogil:
    """A turn without removal cut the node: remember it as a killer and in the history."""
    cdef int *h = &s.history[s.pos.side][m.frm + 1][m.to]
    cdef int a, b, c
    if not same_move(m, s.killers[ply][0]):
        s.killers[ply][1] = s.killers[ply][0]
        s.killers[ply][0] = m
    h[0] += depth * depth
    if h[0] > (1 << 20):   # keep history below the killer and blocking keys
        for a in range(2):
            for b in range(NPOINTS + 1):
                for c in range(NPOINTS):
                    s.history[a][b][c] >>= 1


cdef inline void poll(SearchState* s) noexcept nogil:
    # The flag costs one load (a stop before the search begins ends it at its first node); the
    # clock costs a system call, so it is read every 2048 nodes.
    if (s.nodes >= s.max_nodes or load_flag(&s.stop)
            or ((s.nodes & POLL_MASK) == 0 and now_ms() >= s.deadline_ms)):
        s.stopped = 1


cdef inline int db_score(SearchState* s, const Pos* p, int ply) noexcept nogil:
    """The database's score of a placement-free position, or NO_SCORE: not loaded, or a win or
    loss farther than the move-count rule leaves (tables ignore that rule; such ones are searched)."""
    cdef int e, d, limit
    if p.hand[0] or p.hand[1] or p.pending:
        return NO_SCORE
    e = db_probe(s.db, p.bb[p.side], p.bb[1 - p.side])
    if e < 0:
        return NO_SCORE
    if e == 0:
        return 0
    d = e - 1
    limit = move_limit(&s.r, p)
    if limit > 0 and d > limit - p.quiet:
        return NO_SCORE
    return MATE - (ply + d) if d % 2 else -(MATE - (ply + d))


cdef inline bint settled(SearchState* s, int ply, int* value) noexcept nogil:
    """Whether the node at ply needs no search: a game end, a repetition on the path, no turn to
    play, or a database value; *value is then its score. A node of either search counts here."""
    cdef Pos* p = &s.pos
    cdef const Rules* r = &s.r
    cdef int n = s.root_n + ply
    cdef int status
    s.nodes += 1
    poll(s)
    if s.stopped:
        value[0] = 0
        return True
    status = rules_end(r, p, s.hist, n)
    if status != ONGOING:
        value[0] = end_score(status, p.side, ply)
        return True
    if r.threefold and repeats_in_tree(s, n):
        value[0] = 0
        return True
    if not has_turn(r, p) and not blocked_turns(r, p, NULL):
        # Blocked, and StalemateAction gives no turn (1-3 give a pass or a removal instead).
        value[0] = -(MATE - ply) if r.stalemate_action == 0 else 0
        return True
    if s.db != NULL and ply > 0:
        value[0] = db_score(s, p, ply)
        if value[0] != NO_SCORE:
            s.tbhits += 1
            return True
    return False


cdef int quiesce(SearchState* s, int alpha, int beta, int ply) noexcept nogil:
    """The value of s.pos once no mill is left to close: the side to move may stand on the static
    evaluation or close a mill (the turns that remove stones). A leaf with an open mill to close
    would otherwise be scored as if the stone it takes were still there."""
    cdef Pos* p = &s.pos
    cdef int v, best, i, count, base
    cdef Move m
    cdef Move* moves
    cdef int* scores
    cdef Undo u
    if settled(s, ply, &v):
        return v
    best = evaluate(&s.r, p, s.w)
    if best >= beta or ply >= MAX_PLY - 1 or s.used + MAX_MOVES > BUF_MOVES:
        return best
    if best > alpha:
        alpha = best
    base = s.used
    moves = s.buf + base
    scores = s.order + base
    count = 0
    for i in range(gen_moves(&s.r, p, moves)):
        if moves[i].removed:
            moves[count] = moves[i]
            count += 1
    s.used = base + count
    score_moves(s, moves, scores, count, NO_MOVE, ply)
    for i in range(count):
        pick(moves, scores, i, count)
        m = moves[i]
        make_move(&s.r, p, m, &u)
        s.hist[s.root_n + ply + 1] = p.key
        v = -quiesce(s, -beta, -alpha, ply + 1)
        unmake_move(p, m, &u)
        if s.stopped:
            break
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
    s.used = base
    return best


cdef int search(SearchState* s, int alpha, int beta, int depth, int ply) noexcept nogil:
    """Negamax value of s.pos (fail-soft) within (alpha, beta); 0 and s.stopped once a limit hits."""
    cdef Pos* p = &s.pos
    cdef const Rules* r = &s.r
    cdef int n = s.root_n + ply
    cdef int v, best, i, count, base, bound, reduction, orig_alpha = alpha
    cdef bint pv_node = beta - alpha > 1
    cdef TTHit hit
    cdef Move m, best_move
    cdef Move* moves
    cdef int* scores
    cdef Undo u
    if depth <= 0:
        return quiesce(s, alpha, beta, ply)
    if settled(s, ply, &v):
        return v
    if ply >= MAX_PLY - 1 or s.used + MAX_MOVES > BUF_MOVES:
        return evaluate(r, p, s.w)
    hit.move = NO_MOVE
    if s.tt != NULL:
        hit = tt_probe(s.tt, s.tt_mask, p.key)
        if hit.bound != BOUND_NONE and not pv_node and hit.depth >= depth:
            v = from_tt(hit.score, ply)
            if (hit.bound == BOUND_EXACT or (hit.bound == BOUND_LOWER and v >= beta)
                    or (hit.bound == BOUND_UPPER and v <= alpha)):
                return v
    base = s.used
    moves = s.buf + base
    scores = s.order + base
    count = gen_moves(r, p, moves)
    s.used = base + count
    score_moves(s, moves, scores, count, hit.move, ply)
    best = -INF
    best_move = moves[0]
    for i in range(count):
        pick(moves, scores, i, count)
        m = moves[i]
        make_move(&s.r, p, m, &u)
        s.hist[n + 1] = p.key
        if i == 0:
            v = -search(s, -beta, -alpha, depth - 1, ply + 1)
        else:
            # Late turns that take nothing and block nothing are searched a ply shallower first
            # (ordering put the likely best ones early); one that beats alpha is searched again.
            reduction = 1 if depth >= 3 and i >= 3 and not m.removed and scores[i] < (1 << 21) else 0
            v = -search(s, -alpha - 1, -alpha, depth - 1 - reduction, ply + 1)
            if reduction and v > alpha:
                v = -search(s, -alpha - 1, -alpha, depth - 1, ply + 1)
            if alpha < v < beta:
                v = -search(s, -beta, -alpha, depth - 1, ply + 1)
        unmake_move(p, m, &u)
        if s.stopped:
            s.used = base
            return 0
        if v > best:
            best = v
            best_move = m
            if v > alpha:
                alpha = v
                if v >= beta:
                    if not m.removed:
                        reward(s, m, depth, ply)
                    break
    s.used = base
    if s.tt != NULL:
        bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > orig_alpha else BOUND_UPPER)
        tt_store(s.tt, s.tt_mask, p.key, best_move, to_tt(best, ply), depth, bound)
    return best


cdef int root_search(SearchState* s, int alpha, int beta, int depth, int nroot) noexcept nogil:
    """search() at the root over buf[0:nroot]; a move that raises alpha moves to the front."""
    cdef Pos* p = &s.pos
    cdef int i, v, best = -INF, best_i = 0, orig_alpha = alpha, sc
    cdef Move m
    cdef Undo u
    s.nodes += 1
    for i in range(nroot):
        m = s.buf[i]
        make_move(&s.r, p, m, &u)
        s.hist[s.root_n + 1] = p.key
        if i == 0:
            v = -search(s, -beta, -alpha, depth - 1, 1)
        else:
            v = -search(s, -alpha - 1, -alpha, depth - 1, 1)
            if alpha < v < beta:
                v = -search(s, -beta, -alpha, depth - 1, 1)
        unmake_move(p, m, &u)
        if s.stopped:
            return 0
        if v > best:
            best = v
            best_i = i
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
    if best > orig_alpha and best_i > 0:
        m = s.buf[best_i]
        sc = s.order[best_i]
        for i in range(best_i, 0, -1):
            s.buf[i] = s.buf[i - 1]
            s.order[i] = s.order[i - 1]
        s.buf[0] = m
        s.order[0] = sc
    return best


cdef int aspiration(SearchState* s, int depth, int previous, int nroot) noexcept nogil:
    """PVS at the root in a window around the previous iteration's score, widened on failure."""
    cdef int delta = 25, alpha, beta, v
    if depth < 4 or previous >= MATE_BOUND or previous <= -MATE_BOUND:
        return root_search(s, -INF, INF, depth, nroot)
    alpha = previous - delta
    beta = previous + delta
    while True:
        v = root_search(s, alpha, beta, depth, nroot)
        if s.stopped:
            return v
        if v <= alpha:
            alpha = max(v - delta, -INF)
        elif v >= beta:
            beta = min(v + delta, INF)
        else:
            return v
        delta *= 2


cdef int mtdf(SearchState* s, int depth, int guess, int nroot) noexcept nogil:
    """MTD(f) as Sanmill's paper gives it: zero-window root searches that move a lower and an
    upper bound towards each other until they meet; the table carries each pass to the next."""
    cdef int g = guess, lower = -INF, upper = INF, beta
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = root_search(s, beta - 1, beta, depth, nroot)
        if s.stopped:
            return g
        if g < beta:
            upper = g
        else:
            lower = g
    return g


cdef int principal_variation(SearchState* s, Move* pv, int length) noexcept nogil:
    """The root's best move, then the table's moves while they are legal and the game goes on."""
    cdef Pos* p = &s.pos
    cdef Undo undos[MAX_PLY]
    cdef TTHit hit
    cdef Move* scratch = s.buf + s.used
    cdef int n = 0, count, i, found
    pv[0] = s.buf[0]
    while True:
        make_move(&s.r, p, pv[n], &undos[n])
        n += 1
        s.hist[s.root_n + n] = p.key
        if n >= length or s.tt == NULL or rules_end(&s.r, p, s.hist, s.root_n + n) != ONGOING:
            break
        if (s.r.threefold and repeats_in_tree(s, s.root_n + n)) or gen_moves(&s.r, p, NULL) == 0:
            break
        hit = tt_probe(s.tt, s.tt_mask, p.key)
        if hit.bound == BOUND_NONE:
            break
        count = gen_moves(&s.r, p, scratch)
        found = 0
        for i in range(count):
            if same_move(scratch[i], hit.move):
                found = 1
                break
        if not found:
            break
        pv[n] = hit.move
    for i in range(n - 1, -1, -1):
        unmake_move(p, pv[i], &undos[i])
    return n
