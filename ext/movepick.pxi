# Move ordering: the staged move picker.
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
