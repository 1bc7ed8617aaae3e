# Alpha-beta search, entirely in C without the GIL: principal variation search of the root and
# the tree with null-move, futility and late-move pruning and reductions, singular extensions and
# tablebase probes, and the quiescence search below it. The move order comes from movepick.pxi,
# the pruning's evaluation from correction.pxi; iterative deepening drives it (deepening.pxi).

from libc.math cimport log

cdef int LMR_TABLE[64][64]

cdef void init_search_tables() noexcept nogil:
    cdef int d, m
    for d in range(64):
        for m in range(64):
            LMR_TABLE[d][m] = 0 if d == 0 or m == 0 else <int>(SP.lmr_base / 100.0 + log(d) * log(m) / (SP.lmr_divisor / 100.0))


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
                and stand_pat + PIECE_VALUE[type_of(p.board[move_to(m)])] + SP.qsearch_delta <= alpha:
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
            if depth <= 2 and static_eval + SP.razor_margin * depth < alpha:
                value = qsearch(w, alpha, beta, ply)
                if value < alpha:
                    return value
            # Reverse futility: far above beta with little depth left, a cut is near certain.
            if depth <= SP.rfp_depth and static_eval - SP.rfp_margin * (depth - improving) >= beta and beta > -VALUE_MATE_IN_MAX_PLY \
                    and static_eval < VALUE_MATE_IN_MAX_PLY:
                return static_eval
            # Null move, not with only king and pawns (zugzwang), verified at high depth.
            if depth >= 3 and static_eval >= beta and ply >= w.nmp_min_ply and has_non_pawn_material(p, p.side) \
                    and ply > 0 and w.frames[ply - 1].move != MOVE_NULL:
                r = SP.nmp_base + depth // SP.nmp_depth_divisor + (3 if (static_eval - beta) // SP.nmp_eval_divisor > 3
                                                             else (static_eval - beta) // SP.nmp_eval_divisor)
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
    if pv and tt_move == MOVE_NONE and depth >= SP.iir_depth:
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
                if depth <= SP.lmp_depth and move_count >= (SP.lmp_base + depth * depth) // (2 - improving):
                    # Late-move pruning: enough quiet moves tried; the picker leaves out the
                    # remaining quiet non-checks (quiet checks still come, then bad captures).
                    skip_quiets(&mp, p)
                    continue
                if depth <= SP.futility_depth and static_eval + SP.futility_base + SP.futility_margin * depth <= alpha:
                    continue    # futility: a quiet move cannot make up the gap
                # The depth this move would be searched to after its late-move reduction: a
                # quiet move that has always failed after the moves before it, or that puts a
                # piece where the exchange loses it, is pruned while that depth is small.
                lmr_depth = depth - 1 - LMR_TABLE[depth if depth < 64 else 63][move_count + 1 if move_count < 63 else 63]
                if lmr_depth < 0:
                    lmr_depth = 0
                if lmr_depth < 4 and continuation_score(w, ply, p.board[move_from(m)], move_to(m)) < -SP.history_prune_margin * (depth - 1):
                    continue
                if lmr_depth < 8 and not see_ge(p, m, -SP.see_quiet_quadratic * lmr_depth * lmr_depth - SP.see_quiet_linear * lmr_depth):
                    continue
            elif depth <= SP.see_noisy_depth and not see_ge(p, m, -SP.see_noisy_margin * depth):
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
        if m == tt_move and ply > 0 and depth >= SP.singular_depth and entry.depth >= depth - 3 \
                and (entry.bound == BOUND_LOWER or entry.bound == BOUND_EXACT) \
                and -VALUE_MATE_IN_MAX_PLY < tt_score < VALUE_MATE_IN_MAX_PLY:
            singular_beta = tt_score - SP.singular_margin * depth
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
                reduction -= w.history[p.side ^ 1][move_from(m)][move_to(m)] // SP.lmr_history_divisor
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
