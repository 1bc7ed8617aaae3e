# Alpha-beta search, entirely in C without the GIL: iterative deepening, principal variation
# search with aspiration windows, quiescence search, null-move/futility/late-move pruning and
# reductions, a staged move picker (TT move, captures by MVV/LVA with SEE, killers,
# counter-move, quiets by history, losing captures) that generates each kind only when needed, and
# a static evaluation corrected by what the search has learnt about its errors (correction history).
# Several workers (Lazy SMP) search the same root, the helpers skipping depths in a pattern each,
# and share only the transposition table and the stop flag.

from libc.math cimport log
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from libc.stdlib cimport calloc
from libc.string cimport memset

cdef extern from *:
    """
    static inline int pyrope_load(int* flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }
    static inline void pyrope_store(int* flag, int value) { __atomic_store_n(flag, value, __ATOMIC_RELAXED); }
    """
    int atomic_load "pyrope_load"(int* flag) noexcept nogil
    void atomic_store "pyrope_store"(int* flag, int value) noexcept nogil

cdef class Search    # defined in search_api.pxi; the main worker reports through it

cdef enum:
    VALUE_INFINITE = 32001
    # A tablebase win found `ply` plies from the root scores VALUE_TB_WIN - ply: above any
    # evaluation, below every mate score (which the search still prefers when it sees one).
    VALUE_TB_WIN = VALUE_MATE_IN_MAX_PLY - 1
    MAX_ROOT_PV = 64
    MAX_WORKERS = 256
    HISTORY_MAX = 16384
    # Correction history (see "correction history" below): entries per side to move, and entry
    # units per centipawn of correction.
    PAWN_CORRECTION_SIZE = 16384
    MATERIAL_CORRECTION_SIZE = 4096
    CORRECTION_GRAIN = 256
    # The weakest tablebase win (VALUE_TB_WIN - ply at the deepest ply): every score at or above
    # it in size is a mate or tablebase result, every evaluation lies below it.
    VALUE_DECISIVE = VALUE_TB_WIN - MAX_SEARCH_PLY

cdef int LMR_TABLE[64][64]

cdef void init_search_tables() noexcept nogil:
    cdef int d, m
    for d in range(64):
        for m in range(64):
            LMR_TABLE[d][m] = 0 if d == 0 or m == 0 else <int>(0.75 + log(d) * log(m) / 2.25)

cdef inline long long now_ms() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000 + ts.tv_nsec // 1000000


cdef struct RootMove:
    Move move
    int score           # this iteration's score (-VALUE_INFINITE until searched)
    int previous_score  # the last completed iteration's, for ordering and reports
    int bound           # BOUND_EXACT, or LOWER/UPPER when it failed high/low in an aspiration window
    int seldepth
    int pv_length
    u64 nodes           # spent on this move over all iterations (the time manager's easy-move test)
    Move pv[MAX_SEARCH_PLY]

cdef struct Frame:
    Move move           # the move made from this ply
    int moved_piece
    int static_eval
    Move killers[2]
    Move excluded       # the move a singular-extension search leaves out (MOVE_NONE: none)
    int* continuation   # the continuation-history row of the move made from this ply, or NULL

cdef struct SearchShared:
    TTable tt
    int stop                # set by the GUI, the clock, a limit or the main worker
    int pondering           # no clock until ponderhit
    long long start_ms      # for info lines
    long long clock_ms      # when the clock started: the search start, or ponderhit
    long long hard_ms       # abort the search this long after clock_ms (0: none)
    long long check_ms      # consult the Python time manager this long after clock_ms (0: never)
    bint timed              # a Python time manager decides when iterations stop
    u64 node_limit          # 0: none
    u64 poll_mask           # the main worker polls the limits when nodes & poll_mask == 0
    int depth_limit
    int mate_limit          # moves; 0: none
    int multipv
    int worker_count
    int tb_cardinality      # probe the tablebases at this many pieces or fewer (0: never)
    int tb_probe_depth      # ... and, at exactly that many, only this deep or deeper
    bint tb_rule50          # cursed wins and blessed losses are draws
    void* workers[MAX_WORKERS]

cdef struct Worker:
    Position pos
    SearchShared* shared
    PawnTable pawns
    int id
    u64 nodes
    u64 tbhits
    int seldepth
    int completed_depth
    int root_count
    int pv_index
    int root_move_number    # of the root move being searched, from 1
    int root_failing        # +1 the root is failing high, -1 low, 0 neither
    int best_move_changes   # in this iteration
    int nmp_min_ply         # null move is off below this ply while verifying
    RootMove roots[MAX_MOVES]
    RootMove best[MAX_ROOT_PV]   # the lines of the last completed iteration
    int best_count
    Frame frames[MAX_SEARCH_PLY + 4]
    int history[2][64][64]
    int continuation[16][64][16][64]    # [previous piece][its to][piece][to]: follow-up quiets
    Move counters[16][64]
    short pawn_correction[2][PAWN_CORRECTION_SIZE]          # [side to move][pawn_hash]
    short material_correction[2][MATERIAL_CORRECTION_SIZE]  # [side to move][material_index]
    Move pv[MAX_SEARCH_PLY + 1][MAX_SEARCH_PLY + 1]
    int pv_length[MAX_SEARCH_PLY + 1]
    void* reporter          # the Python Search object (main worker only), called with the GIL


cdef inline u64 total_nodes(SearchShared* s) noexcept nogil:
    cdef u64 n = 0
    cdef int i
    for i in range(s.worker_count):
        n += (<Worker*>s.workers[i]).nodes
    return n

cdef inline u64 total_tbhits(SearchShared* s) noexcept nogil:
    cdef u64 n = 0
    cdef int i
    for i in range(s.worker_count):
        n += (<Worker*>s.workers[i]).tbhits
    return n

cdef inline bint stopped(Worker* w) noexcept nogil:
    # Iteration 1 is never interrupted (it takes microseconds), so there is always a scored move.
    return atomic_load(&w.shared.stop) != 0 and w.completed_depth > 0

cdef void poll_limits(Worker* w) noexcept nogil:
    # Called every 2048 nodes by the main worker (every node under a small node limit): cheap
    # enough, and well under a millisecond. Iteration 1 always completes, so there is a move;
    # the clock never aborts before iteration 2 completes, nor while pondering.
    cdef SearchShared* s = w.shared
    cdef long long elapsed
    if s.node_limit and w.completed_depth >= 1 and total_nodes(s) >= s.node_limit:
        atomic_store(&s.stop, 1)
    if w.completed_depth < 2 or atomic_load(&s.pondering):
        return
    elapsed = now_ms() - s.clock_ms
    if s.hard_ms and elapsed >= s.hard_ms:
        atomic_store(&s.stop, 1)
    elif s.check_ms and elapsed >= s.check_ms:
        consult_clock(w, elapsed)


# --- static exchange evaluation -------------------------------------------------------------

cdef bint see_ge(Position* p, Move m, int threshold) noexcept nogil:
    """Whether the exchange sequence started by m wins at least `threshold` (Stockfish's swap):
    each side recaptures with its least valuable attacker; x-rays join as pieces leave."""
    cdef int frm = move_from(m), to = move_to(m), stm, res = 1, swap, pt
    cdef u64 occ, attackers, stm_attackers, b
    cdef u64 diagonal = p.by_type[BISHOP] | p.by_type[QUEEN]
    cdef u64 straight = p.by_type[ROOK] | p.by_type[QUEEN]
    if move_kind(m) != NORMAL:
        return 0 >= threshold
    swap = PIECE_VALUE[type_of(p.board[to])] - threshold
    if swap < 0:
        return False
    swap = PIECE_VALUE[type_of(p.board[frm])] - swap
    if swap <= 0:
        return True
    occ = occupied(p) ^ bb(frm) ^ bb(to)
    stm = p.side
    attackers = attackers_to(p, to, occ)
    while True:
        stm ^= 1
        attackers &= occ
        stm_attackers = attackers & p.by_color[stm]
        if not stm_attackers:
            break
        res ^= 1
        pt = PAWN
        while pt < KING and not (stm_attackers & p.by_type[pt]):
            pt += 1
        if pt == KING:
            # Only the king is left: it may capture only if nothing defends the square.
            return (res ^ 1) if (attackers & ~p.by_color[stm]) else res
        swap = PIECE_VALUE[pt] - swap
        if swap < res:
            break
        b = stm_attackers & p.by_type[pt]
        occ ^= b & (~b + 1)
        if pt == PAWN or pt == BISHOP or pt == QUEEN:
            attackers |= bishop_attacks(to, occ) & diagonal
        if pt == ROOK or pt == QUEEN:
            attackers |= rook_attacks(to, occ) & straight
    return res != 0


cdef bint gives_check(Position* p, Move m) noexcept nogil:
    """Whether m checks the opponent: the attackers on their king after the move, without making it."""
    cdef int us = p.side, them = p.side ^ 1, frm = move_from(m), to = move_to(m)
    cdef int ksq = king_square(p, them), moved = type_of(p.board[frm]), kto, rto
    cdef u64 occ = occupied(p), own = p.by_color[us]
    cdef u64 types[7]
    cdef int i
    for i in range(7):
        types[i] = p.by_type[i] & own
    if move_kind(m) == CASTLING:
        kto = castling_king_to(us, frm, to)
        rto = castling_rook_to(us, frm, to)
        occ = (occ ^ bb(frm) ^ bb(to)) | bb(kto) | bb(rto)
        types[ROOK] = (types[ROOK] ^ bb(to)) | bb(rto)
    else:
        occ = (occ ^ bb(frm)) | bb(to)
        if move_kind(m) == EN_PASSANT:
            occ ^= bb(to - 8 if us == WHITE else to + 8)
        types[moved] ^= bb(frm)
        types[promotion_type(m) if move_kind(m) == PROMOTION else moved] |= bb(to)
    return ((PAWN_ATTACKS[them][ksq] & types[PAWN]) | (KNIGHT_ATTACKS[ksq] & types[KNIGHT])
            | (bishop_attacks(ksq, occ) & (types[BISHOP] | types[QUEEN]))
            | (rook_attacks(ksq, occ) & (types[ROOK] | types[QUEEN]))) != 0


# --- move ordering -----------------------------------------------------------------------------
#
# A MovePicker hands the search one move at a time and generates or scores a kind of move only
# when the moves before it have not cut the node (the plan of Stockfish's movepick.cpp):
#   1. the TT move, once is_legal has confirmed it (the entry may belong to another position);
#   2. captures and promotions, generated alone and ordered by MVV/LVA; each one's SEE is worked
#      out only when its turn comes, and a capture that loses material waits for stage 5;
#   3. the two killers and the counter-move, when they are legal quiet moves here;
#   4. the other quiet moves, generated now and ordered by history and continuation history;
#   5. the losing captures, in the order stage 2 set them aside.
# In check there is a single stage: every evasion, generated and scored at once. Quiescence
# search uses stages 1 (a capturing TT move only) and 2, and never gets the losing captures.

cdef enum:
    SCORE_TT = 1 << 30
    SCORE_GOOD_CAPTURE = 1 << 28
    SCORE_KILLER = 1 << 27
    SCORE_COUNTER = (1 << 27) - 1
    SCORE_BAD_CAPTURE = -(1 << 28)

cdef enum:
    STAGE_TT
    STAGE_CAPTURES_INIT
    STAGE_GOOD_CAPTURES
    STAGE_REFUTATIONS       # killer 1, killer 2, counter-move
    STAGE_QUIETS_INIT
    STAGE_QUIETS
    STAGE_BAD_CAPTURES
    STAGE_EVASIONS_INIT
    STAGE_EVASIONS
    STAGE_QSEARCH_TT
    STAGE_QSEARCH_INIT
    STAGE_QSEARCH_CAPTURES
    STAGE_DONE

cdef struct MovePicker:
    Move moves[MAX_MOVES]   # captures from 0, quiets after them; losing captures moved to the front
    int scores[MAX_MOVES]
    Move tt_move            # MOVE_NONE unless stage 1 plays it
    Move refutations[3]     # killers and counter-move as the node began; MOVE_NONE: not wanted
    int refutation          # the next of them to try
    int stage
    int ply
    int cur                 # the next slot to pick from ...
    int end                 # ... up to here
    int captures_end        # where the quiets start
    int bad_end             # the losing captures are moves[0:bad_end]
    bint skip_quiets        # late-move pruning: of the quiet moves, only checks are still wanted
    int score               # the ordering score of the move last returned (LMR reads it)

cdef int REFUTATION_SCORE[3]
REFUTATION_SCORE[:] = [SCORE_KILLER, SCORE_KILLER - 1, SCORE_COUNTER - 1]

cdef inline bint is_capture(Position* p, Move m) noexcept nogil:
    return (p.board[move_to(m)] != 0 and move_kind(m) != CASTLING) or move_kind(m) == EN_PASSANT

cdef inline int mvv_lva(Position* p, Move m) noexcept nogil:
    cdef int victim = PAWN if move_kind(m) == EN_PASSANT else type_of(p.board[move_to(m)])
    cdef int bonus = PIECE_VALUE[promotion_type(m)] if move_kind(m) == PROMOTION else 0
    return (PIECE_VALUE[victim] + bonus) * 8 - type_of(p.board[move_from(m)])

cdef void score_evasions(Worker* w, Move* moves, int* scores, int n, Move tt_move, int ply) noexcept nogil:
    # Everything at once: TT move, captures by SEE and MVV/LVA, killers, counter-move, history.
    cdef Position* p = &w.pos
    cdef int i
    cdef Move m, counter = MOVE_NONE
    cdef Frame* previous
    if ply > 0 and w.frames[ply - 1].move != MOVE_NULL and w.frames[ply - 1].move != MOVE_NONE:
        previous = &w.frames[ply - 1]
        counter = w.counters[previous.moved_piece][move_to(previous.move)]
    for i in range(n):
        m = moves[i]
        if m == tt_move:
            scores[i] = SCORE_TT
        elif is_capture(p, m) or move_kind(m) == PROMOTION:
            scores[i] = mvv_lva(p, m) + (SCORE_GOOD_CAPTURE if see_ge(p, m, 0) else SCORE_BAD_CAPTURE)
        elif m == w.frames[ply].killers[0]:
            scores[i] = SCORE_KILLER
        elif m == w.frames[ply].killers[1]:
            scores[i] = SCORE_KILLER - 1
        elif m == counter:
            scores[i] = SCORE_COUNTER - 1
        else:
            scores[i] = w.history[p.side][move_from(m)][move_to(m)] \
                + continuation_score(w, ply, p.board[move_from(m)], move_to(m))

cdef inline Move pick_next(Move* moves, int* scores, int n, int start) noexcept nogil:
    """Selection sort, one step: bring the best-scored remaining move to `start`."""
    cdef int best = start, i, s
    cdef Move m
    for i in range(start + 1, n):
        if scores[i] > scores[best]:
            best = i
    m = moves[best]; moves[best] = moves[start]; moves[start] = m
    s = scores[best]; scores[best] = scores[start]; scores[start] = s
    return m

cdef void picker_init(MovePicker* mp, Worker* w, Move tt_move, int ply, bint in_check, bint qsearch) noexcept nogil:
    cdef Position* p = &w.pos
    cdef Frame* previous
    mp.ply = ply
    mp.cur = mp.end = mp.captures_end = mp.bad_end = mp.refutation = 0
    mp.skip_quiets = False
    mp.tt_move = tt_move
    if in_check:
        mp.stage = STAGE_EVASIONS_INIT      # the TT move is among the evasions if legal
        return
    if qsearch:
        if tt_move != MOVE_NONE and (is_capture(p, tt_move) or move_kind(tt_move) == PROMOTION) \
                and is_legal(p, tt_move):
            mp.stage = STAGE_QSEARCH_TT
        else:
            mp.tt_move = MOVE_NONE
            mp.stage = STAGE_QSEARCH_INIT
        return
    if tt_move != MOVE_NONE and is_legal(p, tt_move):
        mp.stage = STAGE_TT
    else:
        mp.tt_move = MOVE_NONE
        mp.stage = STAGE_CAPTURES_INIT
    # Taken now: the node's own singular search may replace them before stage 3 comes.
    mp.refutations[0] = w.frames[ply].killers[0]
    mp.refutations[1] = w.frames[ply].killers[1]
    mp.refutations[2] = MOVE_NONE
    if ply > 0 and w.frames[ply - 1].move != MOVE_NULL and w.frames[ply - 1].move != MOVE_NONE:
        previous = &w.frames[ply - 1]
        mp.refutations[2] = w.counters[previous.moved_piece][move_to(previous.move)]
    if mp.refutations[0] == tt_move:
        mp.refutations[0] = MOVE_NONE
    if mp.refutations[1] == tt_move or mp.refutations[1] == mp.refutations[0]:
        mp.refutations[1] = MOVE_NONE
    if mp.refutations[2] == tt_move or mp.refutations[2] == w.frames[ply].killers[0] \
            or mp.refutations[2] == w.frames[ply].killers[1]:
        mp.refutations[2] = MOVE_NONE

cdef inline bint is_refutation(MovePicker* mp, Move m) noexcept nogil:
    return m == mp.refutations[0] or m == mp.refutations[1] or m == mp.refutations[2]

cdef Move next_move(MovePicker* mp, Worker* w) noexcept nogil:
    """The next move to search, or MOVE_NONE when there are no more; mp.score is its score."""
    cdef Position* p = &w.pos
    cdef Move m
    cdef int i, n, kept
    while True:
        if mp.stage == STAGE_TT or mp.stage == STAGE_QSEARCH_TT:
            mp.stage += 1
            mp.score = SCORE_TT
            return mp.tt_move

        elif mp.stage == STAGE_CAPTURES_INIT or mp.stage == STAGE_QSEARCH_INIT:
            n = generate(p, mp.moves, GEN_CAPTURES)
            kept = 0
            for i in range(n):
                m = mp.moves[i]
                if m != mp.tt_move:
                    mp.moves[kept] = m
                    mp.scores[kept] = mvv_lva(p, m)
                    kept += 1
            mp.cur = 0
            mp.end = mp.captures_end = kept
            mp.stage += 1

        elif mp.stage == STAGE_GOOD_CAPTURES or mp.stage == STAGE_QSEARCH_CAPTURES:
            while mp.cur < mp.end:
                m = pick_next(mp.moves, mp.scores, mp.end, mp.cur)
                if see_ge(p, m, 0):
                    mp.score = SCORE_GOOD_CAPTURE + mp.scores[mp.cur]
                    mp.cur += 1
                    return m
                # Losing material: set aside at the front, where the slots are already used.
                mp.moves[mp.bad_end] = m
                mp.scores[mp.bad_end] = mp.scores[mp.cur]
                mp.bad_end += 1
                mp.cur += 1
            mp.stage = STAGE_DONE if mp.stage == STAGE_QSEARCH_CAPTURES else STAGE_REFUTATIONS

        elif mp.stage == STAGE_REFUTATIONS:
            while mp.refutation < 3:
                m = mp.refutations[mp.refutation]
                mp.refutation += 1
                if m != MOVE_NONE and not is_capture(p, m) and move_kind(m) != PROMOTION \
                        and is_legal(p, m) and (not mp.skip_quiets or gives_check(p, m)):
                    mp.score = REFUTATION_SCORE[mp.refutation - 1]
                    return m
            mp.stage = STAGE_QUIETS_INIT

        elif mp.stage == STAGE_QUIETS_INIT:
            n = generate(p, mp.moves + mp.captures_end, GEN_QUIETS)
            kept = mp.captures_end
            for i in range(mp.captures_end, mp.captures_end + n):
                m = mp.moves[i]
                if m == mp.tt_move or is_refutation(mp, m) or (mp.skip_quiets and not gives_check(p, m)):
                    continue
                mp.moves[kept] = m
                mp.scores[kept] = w.history[p.side][move_from(m)][move_to(m)] \
                    + continuation_score(w, mp.ply, p.board[move_from(m)], move_to(m))
                kept += 1
            mp.cur = mp.captures_end
            mp.end = kept
            mp.stage = STAGE_QUIETS

        elif mp.stage == STAGE_QUIETS:
            if mp.cur < mp.end:
                m = pick_next(mp.moves, mp.scores, mp.end, mp.cur)
                mp.score = mp.scores[mp.cur]
                mp.cur += 1
                return m
            mp.cur = 0
            mp.end = mp.bad_end
            mp.stage = STAGE_BAD_CAPTURES

        elif mp.stage == STAGE_BAD_CAPTURES:
            if mp.cur < mp.end:
                mp.score = SCORE_BAD_CAPTURE + mp.scores[mp.cur]
                mp.cur += 1
                return mp.moves[mp.cur - 1]
            mp.stage = STAGE_DONE

        elif mp.stage == STAGE_EVASIONS_INIT:
            mp.end = generate(p, mp.moves, GEN_EVASIONS)
            score_evasions(w, mp.moves, mp.scores, mp.end, mp.tt_move, mp.ply)
            mp.cur = 0
            mp.stage = STAGE_EVASIONS

        elif mp.stage == STAGE_EVASIONS:
            if mp.cur < mp.end:
                m = pick_next(mp.moves, mp.scores, mp.end, mp.cur)
                mp.score = mp.scores[mp.cur]
                mp.cur += 1
                return m
            mp.stage = STAGE_DONE

        else:
            return MOVE_NONE

cdef void skip_quiets(MovePicker* mp, Position* p) noexcept nogil:
    """Late-move pruning: from now on the picker gives only the quiet moves that check (the
    search would prune the others on sight), then the losing captures."""
    cdef int i, kept = mp.cur
    mp.skip_quiets = True
    if mp.stage == STAGE_QUIETS:
        for i in range(mp.cur, mp.end):
            if gives_check(p, mp.moves[i]):
                mp.moves[kept] = mp.moves[i]
                mp.scores[kept] = mp.scores[i]
                kept += 1
        mp.end = kept

cdef inline void update_history(int* entry, int bonus) noexcept nogil:
    # Gravity keeps entries within +-HISTORY_MAX and lets old knowledge fade.
    entry[0] += bonus - entry[0] * (bonus if bonus > 0 else -bonus) // HISTORY_MAX

cdef inline int continuation_score(Worker* w, int ply, int piece, int to) noexcept nogil:
    # How well this quiet move has followed the moves made one and two plies before.
    cdef int score = 0
    if ply >= 1 and w.frames[ply - 1].continuation != NULL:
        score += w.frames[ply - 1].continuation[piece * 64 + to]
    if ply >= 2 and w.frames[ply - 2].continuation != NULL:
        score += w.frames[ply - 2].continuation[piece * 64 + to]
    return score

cdef inline void update_continuation(Worker* w, int ply, Move m, int bonus) noexcept nogil:
    cdef int index = w.pos.board[move_from(m)] * 64 + move_to(m)
    if ply >= 1 and w.frames[ply - 1].continuation != NULL:
        update_history(&w.frames[ply - 1].continuation[index], bonus)
    if ply >= 2 and w.frames[ply - 2].continuation != NULL:
        update_history(&w.frames[ply - 2].continuation[index], bonus)

cdef void reward_quiet(Worker* w, Move best, Move* tried, int tried_count, int depth, int ply) noexcept nogil:
    cdef int bonus = depth * depth if depth < 16 else 256, i
    cdef Position* p = &w.pos
    cdef Frame* frame = &w.frames[ply]
    if frame.killers[0] != best:
        frame.killers[1] = frame.killers[0]
        frame.killers[0] = best
    if ply > 0 and w.frames[ply - 1].move != MOVE_NULL and w.frames[ply - 1].move != MOVE_NONE:
        w.counters[w.frames[ply - 1].moved_piece][move_to(w.frames[ply - 1].move)] = best
    update_history(&w.history[p.side][move_from(best)][move_to(best)], bonus)
    update_continuation(w, ply, best, bonus)
    for i in range(tried_count):
        if tried[i] != best:
            update_history(&w.history[p.side][move_from(tried[i])][move_to(tried[i])], -bonus)
            update_continuation(w, ply, tried[i], -bonus)


# --- correction history ------------------------------------------------------------------------
# The static evaluation misjudges some positions the same way again and again: a pawn structure
# whose weaknesses it over- or underrates, an imbalance such as a rook against two minor pieces.
# Each worker learns, per side to move, how far the search's result at a node has lain from the
# static evaluation there, in two tables: one indexed by the pawn structure, one by the non-pawn
# material. The evaluation the search prunes on (razoring, reverse futility, null move,
# futility, improving, quiescence's stand pat) is the raw one plus a weighted sum of the two
# entries (the idea of Stockfish's correction history). The TT keeps the raw evaluation.

cdef inline int material_index(Position* p) noexcept nogil:
    # The counts of knights, bishops, rooks and queens of both sides, four bits each (at most 10
    # of a kind, promotions included), hashed by multiplication. The counts are kept up to date
    # by put_piece/remove_piece already, so this costs eight loads and no change to make/unmake;
    # a placement key (Stockfish's non-pawn keys) would need a new incremental field. What the
    # evaluation gets wrong systematically by material is the imbalance itself (the exchange,
    # two minors against a rook, a queen against rooks), and counts name that exactly; the pawns
    # are the other table's business.
    cdef u64 key = 0
    cdef int pt
    for pt in range(KNIGHT, QUEEN + 1):
        key |= (<u64>p.count[make_piece(WHITE, pt)]) << (4 * (pt - KNIGHT))
        key |= (<u64>p.count[make_piece(BLACK, pt)]) << (16 + 4 * (pt - KNIGHT))
    return <int>((key * 0x9E3779B97F4A7C15ULL) >> 52)      # 12 bits: MATERIAL_CORRECTION_SIZE

cdef inline int corrected_eval(Worker* w, int raw) noexcept nogil:
    """raw plus what the search has learnt about the evaluation's error in positions with this
    pawn structure (weight 1) and this material (weight 1/2): at most 64 + 32 centipawns, and
    never into the mate and tablebase range."""
    cdef Position* p = &w.pos
    cdef int v
    if raw <= -VALUE_DECISIVE or raw >= VALUE_DECISIVE:
        return raw      # not an evaluation: left as it is
    v = raw + (2 * w.pawn_correction[p.side][pawn_hash(p) & (PAWN_CORRECTION_SIZE - 1)]
               + w.material_correction[p.side][material_index(p)]) // (2 * CORRECTION_GRAIN)
    if v >= VALUE_DECISIVE:
        return VALUE_DECISIVE - 1
    if v <= -VALUE_DECISIVE:
        return -VALUE_DECISIVE + 1
    return v

cdef inline void update_correction_entry(short* entry, int bonus) noexcept nogil:
    # update_history's gravity on 16-bit entries (+-HISTORY_MAX fits): the two tables take 80 KB
    # per worker rather than 160, so they stay in cache beside the other histories.
    cdef int e = entry[0]
    entry[0] = <short>(e + bonus - e * (bonus if bonus > 0 else -bonus) // HISTORY_MAX)

cdef inline void update_correction(Worker* w, int error, int depth) noexcept nogil:
    # error = search result - corrected evaluation: the tables learn what is left of the error,
    # so an entry settles where its correction makes the two agree on average. The deeper the
    # search, the more its result is trusted; the history gravity bounds the entries and lets
    # old knowledge fade. A bonus moves a pawn entry's correction by at most 16 centipawns.
    cdef Position* p = &w.pos
    cdef int bonus = error * depth * (CORRECTION_GRAIN // 32)
    if bonus > HISTORY_MAX // 4:
        bonus = HISTORY_MAX // 4
    elif bonus < -HISTORY_MAX // 4:
        bonus = -HISTORY_MAX // 4
    update_correction_entry(&w.pawn_correction[p.side][pawn_hash(p) & (PAWN_CORRECTION_SIZE - 1)], bonus)
    update_correction_entry(&w.material_correction[p.side][material_index(p)], bonus)


# --- the search --------------------------------------------------------------------------------

cdef enum:
    # From this fifty-move count on, a stored score may come from a path with more moves left
    # before the draw (a win found there may not be reachable here): the TT then guides move
    # order but cuts nothing, and the node is searched (Stockfish's rule).
    RULE50_TT_TRUST = 90

cdef bint has_legal_move(Position* p) noexcept nogil:
    cdef Move moves[MAX_MOVES]
    return generate(p, moves, GEN_ALL) > 0

cdef inline bint is_draw(Position* p) noexcept nogil:
    # Inside the tree one repetition is enough: the side that could avoid it would.
    if p.st.rule50 >= 100:
        # The fifty-move rule draws unless the hundredth half-move gave mate (FIDE 9.3).
        return not checkers(p) or has_legal_move(p)
    return repetitions(p) > 0 or insufficient_material(p)


cdef inline bint has_non_pawn_material(Position* p, int color) noexcept nogil:
    return (p.by_color[color] & ~(p.by_type[PAWN] | p.by_type[KING])) != 0

cdef inline void make(Worker* w, Move m, int ply) noexcept nogil:
    w.frames[ply].move = m
    w.frames[ply].moved_piece = w.pos.board[move_from(m)]
    w.frames[ply].continuation = &w.continuation[w.frames[ply].moved_piece][move_to(m)][0][0]
    do_move(&w.pos, m)
    tt_prefetch(&w.shared.tt, w.pos.st.key)

cdef inline void update_pv(Worker* w, int ply, Move m) noexcept nogil:
    cdef int i
    w.pv[ply][ply] = m
    for i in range(ply + 1, w.pv_length[ply + 1]):
        w.pv[ply][i] = w.pv[ply + 1][i]
    w.pv_length[ply] = w.pv_length[ply + 1] if w.pv_length[ply + 1] > ply + 1 else ply + 1


cdef int qsearch(Worker* w, int alpha, int beta, int ply) noexcept nogil:
    cdef Position* p = &w.pos
    cdef MovePicker mp
    cdef TTEntry entry
    cdef bint found, in_check, pv = beta - alpha > 1
    cdef int value, best, stand_pat, tt_score = VALUE_NONE, original_alpha = alpha
    cdef int raw_eval = VALUE_NONE
    cdef Move m, best_move = MOVE_NONE, tt_move = MOVE_NONE
    w.pv_length[ply] = ply
    w.nodes += 1
    if w.id == 0 and (w.nodes & w.shared.poll_mask) == 0:
        poll_limits(w)
    if ply > w.seldepth:
        w.seldepth = ply
    if is_draw(p):
        return 0
    in_check = checkers(p) != 0
    if ply >= MAX_SEARCH_PLY:
        return 0 if in_check else evaluate(p, &w.pawns)
    found = tt_probe(&w.shared.tt, p.st.key, &entry)
    if found:
        tt_move = entry.move
        tt_score = score_from_tt(entry.score, ply)
        if not pv and p.st.rule50 < RULE50_TT_TRUST and (
                entry.bound == BOUND_EXACT or (entry.bound == BOUND_LOWER and tt_score >= beta)
                or (entry.bound == BOUND_UPPER and tt_score <= alpha)):
            return tt_score
    nnue_follow(p)
    if in_check:
        best = -VALUE_MATE + ply
        stand_pat = -VALUE_INFINITE
    else:
        raw_eval = entry.eval if found and entry.eval != VALUE_NONE else evaluate(p, &w.pawns)
        stand_pat = corrected_eval(w, raw_eval)
        best = stand_pat
        if best >= beta:
            if not found:
                tt_store(&w.shared.tt, p.st.key, MOVE_NONE, score_to_tt(best, ply), raw_eval, -1, BOUND_LOWER)
            return best
        if best > alpha:
            alpha = best
    # In check every evasion; otherwise the captures and promotions that do not lose material
    # (a losing capture cannot raise alpha here), and a capturing TT move whatever its SEE.
    picker_init(&mp, w, tt_move, ply, in_check, True)
    while True:
        m = next_move(&mp, w)
        if m == MOVE_NONE:
            break
        # Delta pruning: even winning the piece leaves us too far below alpha.
        if not in_check and move_kind(m) == NORMAL \
                and stand_pat + PIECE_VALUE[type_of(p.board[move_to(m)])] + 200 <= alpha:
            continue
        make(w, m, ply)
        value = -qsearch(w, -beta, -alpha, ply + 1)
        undo_move(p, m)
        if stopped(w):
            return 0
        if value > best:
            best = value
            if value > alpha:
                best_move = m
                update_pv(w, ply, m)
                if value >= beta:
                    break
                alpha = value
    tt_store(&w.shared.tt, p.st.key, best_move, score_to_tt(best, ply), raw_eval, -1,
             BOUND_LOWER if best >= beta else (BOUND_EXACT if pv and best > original_alpha else BOUND_UPPER))
    return best


cdef int search(Worker* w, int alpha, int beta, int depth, int ply, bint cut_node) noexcept nogil:
    cdef Position* p = &w.pos
    cdef MovePicker mp
    cdef Move quiets_tried[64]
    cdef TTEntry entry
    cdef bint pv = beta - alpha > 1, found, in_check, improving, capture, quiet, checks
    cdef int picked = 0, value, best = -VALUE_INFINITE, static_eval, tt_score = VALUE_NONE
    cdef int original_alpha = alpha, move_count = 0, quiet_count = 0, new_depth, reduction, r, d, move_score
    cdef int extension, singular_beta, pieces, wdl, tb_found, draw, bound, max_value = VALUE_INFINITE
    cdef int lmr_depth
    cdef int raw_eval = VALUE_NONE     # the evaluation before correction: what the TT keeps
    cdef Move m, best_move = MOVE_NONE, tt_move = MOVE_NONE
    cdef Move excluded = w.frames[ply].excluded
    if depth <= 0:
        return qsearch(w, alpha, beta, ply)
    w.pv_length[ply] = ply
    w.nodes += 1
    if w.id == 0 and (w.nodes & w.shared.poll_mask) == 0:
        poll_limits(w)
    if stopped(w):
        return 0
    if ply > w.seldepth:
        w.seldepth = ply
    if is_draw(p):
        return 0
    in_check = checkers(p) != 0
    if ply >= MAX_SEARCH_PLY:
        return 0 if in_check else evaluate(p, &w.pawns)

    # Mate distance pruning: no line from here can beat a mate already found nearer the root.
    if alpha < -VALUE_MATE + ply:
        alpha = -VALUE_MATE + ply
    if beta > VALUE_MATE - ply - 1:
        beta = VALUE_MATE - ply - 1
    if alpha >= beta:
        return alpha

    # A singular-extension search (a move excluded) must not take this node's own TT result.
    found = excluded == MOVE_NONE and tt_probe(&w.shared.tt, p.st.key, &entry)
    if found:
        tt_move = entry.move
        tt_score = score_from_tt(entry.score, ply)
        if not pv and entry.depth >= depth and p.st.rule50 < RULE50_TT_TRUST and (
                entry.bound == BOUND_EXACT or (entry.bound == BOUND_LOWER and tt_score >= beta)
                or (entry.bound == BOUND_UPPER and tt_score <= alpha)):
            return tt_score

    # Tablebases, right after a capture or pawn move (the tables assume a fresh fifty-move
    # count): a win or loss is a bound, a draw exact; either ends the node when it settles the
    # window (Stockfish's rule), and is stored deeper than any search would reach here.
    if w.shared.tb_cardinality and excluded == MOVE_NONE and p.st.rule50 == 0 and not p.st.castling:
        pieces = popcount(occupied(p))
        if pieces < w.shared.tb_cardinality or (pieces == w.shared.tb_cardinality
                                                 and depth >= w.shared.tb_probe_depth):
            wdl = probe_wdl_any(p, &tb_found)
            if tb_found:
                w.tbhits += 1
                draw = 1 if w.shared.tb_rule50 else 0
                if wdl < -draw:
                    value, bound = -VALUE_TB_WIN + ply, BOUND_UPPER
                elif wdl > draw:
                    value, bound = VALUE_TB_WIN - ply, BOUND_LOWER
                else:
                    value, bound = 2 * wdl * draw, BOUND_EXACT     # +-2: a cursed win or blessed loss
                if bound == BOUND_EXACT or (bound == BOUND_LOWER and value >= beta) \
                        or (bound == BOUND_UPPER and value <= alpha):
                    tt_store(&w.shared.tt, p.st.key, MOVE_NONE, score_to_tt(value, ply), VALUE_NONE,
                             min(depth + 6, 120), bound)
                    return value
                if pv:      # a PV node searches on, within what the table allows
                    if bound == BOUND_LOWER:
                        best = value
                        if best > alpha:
                            alpha = best
                    else:
                        max_value = value

    w.frames[ply + 2].killers[0] = w.frames[ply + 2].killers[1] = MOVE_NONE
    nnue_follow(p)
    if in_check:
        static_eval = VALUE_NONE
        w.frames[ply].static_eval = VALUE_NONE
        improving = False
    elif excluded != MOVE_NONE:
        static_eval = w.frames[ply].static_eval     # set by the search this one is part of
        improving = ply >= 2 and w.frames[ply - 2].static_eval != VALUE_NONE \
            and static_eval > w.frames[ply - 2].static_eval
    else:
        raw_eval = entry.eval if found and entry.eval != VALUE_NONE else evaluate(p, &w.pawns)
        static_eval = corrected_eval(w, raw_eval)
        w.frames[ply].static_eval = static_eval
        if not found:
            tt_store(&w.shared.tt, p.st.key, MOVE_NONE, VALUE_NONE, raw_eval, -2, BOUND_NONE)
        improving = ply >= 2 and w.frames[ply - 2].static_eval != VALUE_NONE \
            and static_eval > w.frames[ply - 2].static_eval

        if not pv:
            # Razoring: hopeless positions at the horizon go straight to quiescence.
            if depth <= 2 and static_eval + 250 * depth < alpha:
                value = qsearch(w, alpha, beta, ply)
                if value < alpha:
                    return value
            # Reverse futility: far above beta with little depth left, a cut is near certain.
            if depth <= 8 and static_eval - 80 * (depth - improving) >= beta and beta > -VALUE_MATE_IN_MAX_PLY \
                    and static_eval < VALUE_MATE_IN_MAX_PLY:
                return static_eval
            # Null move, not with only king and pawns (zugzwang), verified at high depth.
            if depth >= 3 and static_eval >= beta and ply >= w.nmp_min_ply and has_non_pawn_material(p, p.side) \
                    and ply > 0 and w.frames[ply - 1].move != MOVE_NULL:
                r = 3 + depth // 4 + (3 if (static_eval - beta) // 200 > 3 else (static_eval - beta) // 200)
                w.frames[ply].move = MOVE_NULL
                w.frames[ply].moved_piece = 0
                w.frames[ply].continuation = NULL
                do_null_move(p)
                value = -search(w, -beta, -beta + 1, depth - r, ply + 1, not cut_node)
                undo_null_move(p)
                if stopped(w):
                    return 0
                if value >= beta:
                    if value >= VALUE_MATE_IN_MAX_PLY:
                        value = beta
                    if w.nmp_min_ply or depth < 12:
                        return value
                    w.nmp_min_ply = ply + 3 * (depth - r) // 4
                    d = search(w, beta - 1, beta, depth - r, ply, False)
                    w.nmp_min_ply = 0
                    if d >= beta:
                        return value

    # Without a TT move a PV node searches shallower first (internal iterative reduction).
    if pv and tt_move == MOVE_NONE and depth >= 6:
        depth -= 1

    picker_init(&mp, w, tt_move, ply, in_check, False)
    while True:
        m = next_move(&mp, w)
        if m == MOVE_NONE:
            break
        move_score = mp.score
        picked += 1
        if m == excluded:
            continue
        capture = is_capture(p, m)
        quiet = not capture and move_kind(m) != PROMOTION
        # Quiet moves need to know about checks before pruning; captures only once searched.
        checks = quiet and gives_check(p, m)
        if best > -VALUE_MATE_IN_MAX_PLY and not in_check and has_non_pawn_material(p, p.side):
            if quiet and not checks:
                if depth <= 8 and move_count >= (3 + depth * depth) // (2 - improving):
                    # Late-move pruning: enough quiet moves tried; the picker leaves out the
                    # remaining quiet non-checks (quiet checks still come, then bad captures).
                    skip_quiets(&mp, p)
                    continue
                if depth <= 6 and static_eval + 100 + 100 * depth <= alpha:
                    continue    # futility: a quiet move cannot make up the gap
                # The depth this move would be searched to after its late-move reduction: a
                # quiet move that has always failed after the moves before it, or that puts a
                # piece where the exchange loses it, is pruned while that depth is small.
                lmr_depth = depth - 1 - LMR_TABLE[depth if depth < 64 else 63][move_count + 1 if move_count < 63 else 63]
                if lmr_depth < 0:
                    lmr_depth = 0
                if lmr_depth < 4 and continuation_score(w, ply, p.board[move_from(m)], move_to(m)) < -4096 * (depth - 1):
                    continue
                if lmr_depth < 8 and not see_ge(p, m, -25 * lmr_depth * lmr_depth - 15 * lmr_depth):
                    continue
            elif depth <= 6 and not see_ge(p, m, -100 * depth):
                continue
        if not quiet:
            checks = gives_check(p, m)
        move_count += 1
        if quiet and quiet_count < 64:
            quiets_tried[quiet_count] = m
            quiet_count += 1
        extension = 1 if checks else 0
        # Singular extension: when every other move fails well below the TT move's (lower-bound)
        # score, the TT move is the only good one and gets a ply more; when even without it the
        # position holds beta, several moves do and the node is cut (multi-cut).
        if m == tt_move and ply > 0 and depth >= 8 and entry.depth >= depth - 3 \
                and (entry.bound == BOUND_LOWER or entry.bound == BOUND_EXACT) \
                and -VALUE_MATE_IN_MAX_PLY < tt_score < VALUE_MATE_IN_MAX_PLY:
            singular_beta = tt_score - 2 * depth
            w.frames[ply].excluded = m
            value = search(w, singular_beta - 1, singular_beta, (depth - 1) // 2, ply, cut_node)
            w.frames[ply].excluded = MOVE_NONE
            if stopped(w):
                return 0
            if value < singular_beta:
                extension = 1
            elif singular_beta >= beta:
                return singular_beta
        new_depth = depth - 1 + extension
        make(w, m, ply)
        if depth >= 3 and move_count > 1 + pv and (quiet or move_score < 0):
            # Late move reductions: later moves are rarely best; verify at full depth if they are.
            reduction = LMR_TABLE[depth if depth < 64 else 63][move_count if move_count < 64 else 63]
            reduction += (not pv) + cut_node - improving
            if quiet:
                reduction -= w.history[p.side ^ 1][move_from(m)][move_to(m)] // 8192
            if move_score >= SCORE_COUNTER - 1:
                reduction -= 1
            d = new_depth - reduction
            if d < 1:
                d = 1
            if d > new_depth:
                d = new_depth
            value = -search(w, -alpha - 1, -alpha, d, ply + 1, True)
            if value > alpha and d < new_depth:
                value = -search(w, -alpha - 1, -alpha, new_depth, ply + 1, not cut_node)
        elif not pv or move_count > 1:
            value = -search(w, -alpha - 1, -alpha, new_depth, ply + 1, not cut_node)
        if pv and (move_count == 1 or (alpha < value < beta)):
            value = -search(w, -beta, -alpha, new_depth, ply + 1, False)
        undo_move(p, m)
        if stopped(w):
            return 0
        if value > best:
            best = value
            if value > alpha:
                best_move = m
                if pv:
                    update_pv(w, ply, m)
                if value >= beta:
                    if quiet:
                        reward_quiet(w, m, quiets_tried, quiet_count, depth, ply)
                    break
                alpha = value
    if picked == 0:
        return -VALUE_MATE + ply if in_check else 0
    if move_count == 0:
        # Every legal move was pruned (or excluded): the position is not lost, keep alpha.
        return alpha
    if excluded != MOVE_NONE:
        return best
    if best > max_value:
        best = max_value
    bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if pv and best > original_alpha else BOUND_UPPER)
    tt_store(&w.shared.tt, p.st.key, best_move, score_to_tt(best, ply), raw_eval, depth, bound)
    # The evaluation's error is learnt where the result says something about it: out of check,
    # not a mate or tablebase score, not won by a capture or promotion (tactics the evaluation
    # does not try to see), and a bound only on its own side of the evaluation (a fail high
    # above it, a fail low below it).
    if not in_check and -VALUE_DECISIVE < best < VALUE_DECISIVE \
            and (best_move == MOVE_NONE
                 or not (is_capture(p, best_move) or move_kind(best_move) == PROMOTION)) \
            and (bound == BOUND_EXACT or (bound == BOUND_LOWER and best > static_eval)
                 or (bound == BOUND_UPPER and best < static_eval)):
        update_correction(w, best - static_eval, depth)
    return best


cdef int search_root(Worker* w, int alpha, int beta, int depth) noexcept nogil:
    """Search the root moves from pv_index on; scores land in w.roots."""
    cdef Position* p = &w.pos
    cdef int i, j, value, failing, best = -VALUE_INFINITE, move_count = 0
    cdef u64 nodes_before
    cdef RootMove* rm
    cdef RootMove tmp
    w.pv_length[0] = 0
    w.nodes += 1
    for i in range(w.pv_index, w.root_count):
        rm = &w.roots[i]
        move_count += 1
        w.root_move_number = move_count + w.pv_index
        w.seldepth = 0
        nodes_before = w.nodes
        if w.id == 0 and now_ms() - w.shared.start_ms > 1000:
            report_current_move(w, depth, rm.move, move_count + w.pv_index)
        make(w, rm.move, 0)
        if move_count == 1:
            value = -search(w, -beta, -alpha, depth - 1 + (checkers(p) != 0), 1, False)
        else:
            value = -search(w, -alpha - 1, -alpha, depth - 1 + (checkers(p) != 0), 1, True)
            if alpha < value < beta:
                failing = w.root_failing
                w.root_failing = 1     # a new best move is being confirmed: the root fails high
                value = -search(w, -beta, -alpha, depth - 1 + (checkers(p) != 0), 1, False)
                w.root_failing = failing
        undo_move(p, rm.move)
        rm.nodes += w.nodes - nodes_before
        if stopped(w):
            break
        if move_count == 1 or value > alpha:
            rm.score = value
            rm.seldepth = w.seldepth
            rm.bound = BOUND_LOWER if value >= beta else (BOUND_UPPER if value <= alpha else BOUND_EXACT)
            rm.pv[0] = rm.move
            rm.pv_length = 1
            for j in range(1, w.pv_length[1]):
                rm.pv[j] = w.pv[1][j]
                rm.pv_length = j + 1
        else:
            rm.score = -VALUE_INFINITE
        if value > best:
            best = value
        if value > alpha:
            alpha = value
            if move_count > 1 and w.pv_index == 0:
                w.best_move_changes += 1
            # Keep the new best move first so that an interrupted iteration still knows it.
            tmp = w.roots[i]
            for j in range(i, w.pv_index, -1):
                w.roots[j] = w.roots[j - 1]
            w.roots[w.pv_index] = tmp
            if value >= beta:
                break
    return best


cdef void sort_roots(Worker* w, int start, int end) noexcept nogil:
    # Insertion sort of roots[start:end], stable: ties keep the previous iteration's order.
    cdef int i, j
    cdef RootMove tmp
    for i in range(start + 1, end):
        tmp = w.roots[i]
        j = i - 1
        while j >= start and w.roots[j].score < tmp.score:
            w.roots[j + 1] = w.roots[j]
            j -= 1
        w.roots[j + 1] = tmp


# Lazy SMP: helpers that all searched every depth would mostly repeat the main worker's work.
# Each helper skips some depths instead, in a pattern of its own (Stockfish 8's table: helper n
# uses entry (n - 1) mod 20 and skips depth d when (d + phase) / size is odd), so the workers
# spread over neighbouring depths and the helpers run ahead, filling the shared table with
# deeper results for the main worker. The first helper searches the even depths only.
cdef int SKIP_SIZE[20]
cdef int SKIP_PHASE[20]
SKIP_SIZE[:] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4]
SKIP_PHASE[:] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7]

cdef inline bint helper_skips(Worker* w, int depth) noexcept nogil:
    # Depth 1 is never skipped: until it completes, a worker ignores the stop flag.
    cdef int i = (w.id - 1) % 20
    return w.id > 0 and depth > 1 and ((depth + SKIP_PHASE[i]) // SKIP_SIZE[i]) % 2 == 1

cdef void iterative_deepening(Worker* w) noexcept nogil:
    cdef SearchShared* s = w.shared
    cdef int depth, alpha, beta, delta, value, i, lines
    cdef int max_depth = s.depth_limit if s.depth_limit > 0 else MAX_SEARCH_PLY - 8
    lines = s.multipv if s.multipv < w.root_count else w.root_count
    if lines > MAX_ROOT_PV:
        lines = MAX_ROOT_PV
    for depth in range(1, max_depth + 1):
        if helper_skips(w, depth):
            continue
        for i in range(w.root_count):
            w.roots[i].previous_score = w.roots[i].score
        w.best_move_changes = 0
        for w.pv_index in range(lines):
            delta = 25
            value = w.roots[w.pv_index].previous_score
            if depth >= 5 and -VALUE_MATE_IN_MAX_PLY < value < VALUE_MATE_IN_MAX_PLY:
                alpha = value - delta
                beta = value + delta
            else:
                alpha = -VALUE_INFINITE
                beta = VALUE_INFINITE
            w.root_failing = 0
            while True:
                value = search_root(w, alpha, beta, depth)
                sort_roots(w, w.pv_index, w.root_count)
                if stopped(w):
                    break
                if value <= alpha:
                    w.root_failing = -1
                    beta = (alpha + beta) // 2
                    alpha = value - delta if value - delta > -VALUE_INFINITE else -VALUE_INFINITE
                elif value >= beta:
                    w.root_failing = 1
                    beta = value + delta if value + delta < VALUE_INFINITE else VALUE_INFINITE
                else:
                    w.root_failing = 0
                    break
                if w.id == 0 and now_ms() - s.start_ms > 1000:
                    report_iteration(w, depth, lines, True)
                delta += delta // 2
            if stopped(w):
                break
            # The lines found so far are reported best first, whatever order they were found in.
            sort_roots(w, 0, w.pv_index + 1)
        if stopped(w) and depth > 1:
            break
        # Depth 1 always completes (it is never interrupted by the clock), so there is always a move.
        w.completed_depth = depth
        w.best_count = lines
        for i in range(lines):
            w.best[i] = w.roots[i]
        if w.id == 0:
            report_iteration(w, depth, lines, False)
            if s.mate_limit and w.best[0].score >= VALUE_MATE - 2 * s.mate_limit:
                break
            if s.timed and clock_says_stop(w, depth):
                break
    if w.id == 0:
        atomic_store(&s.stop, 1)


cdef void report_iteration(Worker* w, int depth, int lines, bint partial) noexcept nogil:
    with gil:
        if w.reporter != NULL:
            (<Search>w.reporter).report(depth, lines, partial)


cdef bint clock_says_stop(Worker* w, int depth) noexcept nogil:
    # The time manager's end-of-iteration rules (in Python: engine/play/timeman.py).
    with gil:
        return (<Search>w.reporter).iteration_done(depth)


cdef void consult_clock(Worker* w, long long elapsed) noexcept nogil:
    # A deadline passed during an iteration: the time manager aborts or sets the next one.
    with gil:
        (<Search>w.reporter).deadline(elapsed)


cdef void report_current_move(Worker* w, int depth, Move move, int number) noexcept nogil:
    with gil:
        if w.reporter != NULL:
            (<Search>w.reporter).report_current_move(depth, move, number)
