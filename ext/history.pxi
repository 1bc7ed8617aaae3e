# The quiet-move histories each worker learns from its cutoffs: history by side, from and to;
# continuation history by the moves one and two plies before; killers and counter-moves. The move
# picker orders quiet moves by them; reward_quiet updates them when a quiet move cuts a node.

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
