# What the search asks of a move before making it: does it win material (static exchange
# evaluation, Stockfish's swap algorithm), and does it give check.

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
