# Legal move generation. Pins and check evasions are resolved while generating (a pinned piece
# moves only along its pin line; in check, non-king moves must capture the checker or block),
# so every generated move is legal. Only en passant, whose capture can uncover the king along a
# rank, is confirmed by looking at the position after the capture, as Stockfish does.
#
# Stages for a search: GEN_CAPTURES (captures and all promotions) then GEN_QUIETS (everything
# else, castling included); GEN_EVASIONS is the full legal list when the side to move is in check.
# is_legal tells whether one move, any 16-bit value (a hash-table move, a killer), is one that
# generate() would produce, without generating the others.

cdef enum:
    GEN_CAPTURES = 1
    GEN_QUIETS = 2
    GEN_ALL = 3
    GEN_EVASIONS = 3

cdef inline int add_targets(Move* moves, int n, int frm, u64 targets) noexcept nogil:
    while targets:
        moves[n] = make_move(frm, lsb(targets), NORMAL)
        n += 1
        targets &= targets - 1
    return n

cdef inline int add_pawn_moves(Move* moves, int n, u64 targets, int delta) noexcept nogil:
    cdef int to
    while targets:
        to = lsb(targets)
        moves[n] = make_move(to - delta, to, NORMAL)
        n += 1
        targets &= targets - 1
    return n

cdef inline int add_promotions(Move* moves, int n, u64 targets, int delta) noexcept nogil:
    cdef int to, pt
    while targets:
        to = lsb(targets)
        for pt in range(QUEEN, KNIGHT - 1, -1):
            moves[n] = make_promotion(to - delta, to, pt)
            n += 1
        targets &= targets - 1
    return n


cdef inline u64 pinned_pieces(Position* p, int us, int ksq, u64 occ) noexcept nogil:
    cdef int them = us ^ 1
    cdef u64 blockers, pinned = 0
    cdef u64 snipers = ((rook_attacks(ksq, 0) & (p.by_type[ROOK] | p.by_type[QUEEN]))
                        | (bishop_attacks(ksq, 0) & (p.by_type[BISHOP] | p.by_type[QUEEN]))) & p.by_color[them]
    while snipers:
        blockers = BETWEEN[ksq][lsb(snipers)] & occ
        if blockers and not more_than_one(blockers):
            pinned |= blockers & p.by_color[us]
        snipers &= snipers - 1
    return pinned


cdef int generate_pawn_moves(Position* p, Move* moves, int n, u64 pawns, u64 allowed,
                             u64 capture_targets, u64 quiet_targets, int kind) noexcept nogil:
    """Moves of `pawns` (all unpinned, or a single pinned pawn) landing on `allowed` squares."""
    cdef int us = p.side
    cdef int up = 8 if us == WHITE else -8
    cdef int up_left = 7 if us == WHITE else -9
    cdef int up_right = 9 if us == WHITE else -7
    cdef u64 seventh = 0x00FF000000000000ULL if us == WHITE else 0xFF00ULL
    cdef u64 third = 0xFF0000ULL if us == WHITE else 0xFF0000000000ULL
    cdef u64 empty = ~occupied(p)
    cdef u64 promoting = pawns & seventh
    cdef u64 others = pawns & ~seventh
    cdef u64 push1, push2
    capture_targets &= allowed
    quiet_targets &= allowed
    if kind & GEN_QUIETS:
        push1 = shift(others, up) & empty
        push2 = shift(push1 & third, up) & empty & quiet_targets
        n = add_pawn_moves(moves, n, push1 & quiet_targets, up)
        n = add_pawn_moves(moves, n, push2, up + up)
    if kind & GEN_CAPTURES:
        if promoting:
            n = add_promotions(moves, n, shift(promoting, up) & empty & quiet_targets, up)
            n = add_promotions(moves, n, shift(promoting & ~FILE_A, up_left) & capture_targets, up_left)
            n = add_promotions(moves, n, shift(promoting & ~FILE_H, up_right) & capture_targets, up_right)
        n = add_pawn_moves(moves, n, shift(others & ~FILE_A, up_left) & capture_targets, up_left)
        n = add_pawn_moves(moves, n, shift(others & ~FILE_H, up_right) & capture_targets, up_right)
    return n


cdef int generate_en_passant(Position* p, Move* moves, int n) noexcept nogil:
    cdef int frm
    cdef u64 candidates = PAWN_ATTACKS[p.side ^ 1][p.st.ep] & pieces(p, p.side, PAWN)
    while candidates:
        frm = lsb(candidates)
        candidates &= candidates - 1
        if en_passant_is_legal(p, frm):
            moves[n] = make_move(frm, p.st.ep, EN_PASSANT)
            n += 1
    return n


cdef int generate_castling(Position* p, Move* moves, int n, int ksq, u64 occ) noexcept nogil:
    cdef int us = p.side, right, rook_sq, side
    cdef u64 path, without_pieces
    for side in range(2):
        right = (WHITE_OO << side) << (2 * us)
        if not (p.st.castling & right):
            continue
        rook_sq = p.castling_rook[right]
        if p.castling_path[right] & occ:
            continue
        # The king and the castling rook leave their squares, so neither may shield the path.
        without_pieces = occ ^ bb(ksq) ^ bb(rook_sq)
        path = p.castling_king_path[right]
        while path:
            if attackers_to(p, lsb(path), without_pieces) & p.by_color[us ^ 1]:
                break
            path &= path - 1
        if not path:
            moves[n] = make_move(ksq, rook_sq, CASTLING)
            n += 1
    return n


cdef int generate(Position* p, Move* moves, int kind) noexcept nogil:
    """Write the legal moves of the requested kind to `moves`; return how many."""
    cdef int us = p.side, them = p.side ^ 1
    cdef int ksq = king_square(p, us), frm, to
    cdef u64 occ = occupied(p)
    cdef u64 own = p.by_color[us], enemy = p.by_color[them]
    cdef u64 check = attackers_to(p, ksq, occ) & enemy
    cdef u64 pinned, block, capture_targets, quiet_targets, targets, b, attacks
    cdef int n = 0

    # King steps: the destination must be safe once the king has left its square.
    targets = KING_ATTACKS[ksq] & ~own
    if not (kind & GEN_CAPTURES):
        targets &= ~enemy
    if not (kind & GEN_QUIETS):
        targets &= enemy
    while targets:
        to = lsb(targets)
        targets &= targets - 1
        if not (attackers_to(p, to, occ ^ bb(ksq)) & enemy):
            moves[n] = make_move(ksq, to, NORMAL)
            n += 1
    if more_than_one(check):
        return n

    pinned = pinned_pieces(p, us, ksq, occ)
    block = (BETWEEN[ksq][lsb(check)] | check) if check else ~0ULL
    capture_targets = enemy & block
    quiet_targets = ~occ & block
    targets = 0
    if kind & GEN_CAPTURES:
        targets |= capture_targets
    if kind & GEN_QUIETS:
        targets |= quiet_targets

    b = pieces(p, us, PAWN) & ~pinned
    n = generate_pawn_moves(p, moves, n, b, ~0ULL, capture_targets, quiet_targets, kind)
    b = pieces(p, us, PAWN) & pinned
    while b:
        frm = lsb(b)
        b &= b - 1
        n = generate_pawn_moves(p, moves, n, bb(frm), LINE[ksq][frm], capture_targets, quiet_targets, kind)
    if p.st.ep != NO_SQ and (kind & GEN_CAPTURES):
        n = generate_en_passant(p, moves, n)

    # A pinned knight can never move.
    b = pieces(p, us, KNIGHT) & ~pinned
    while b:
        frm = lsb(b)
        b &= b - 1
        n = add_targets(moves, n, frm, KNIGHT_ATTACKS[frm] & targets)
    b = own & (p.by_type[BISHOP] | p.by_type[QUEEN])
    while b:
        frm = lsb(b)
        b &= b - 1
        attacks = bishop_attacks(frm, occ) & targets
        if pinned & bb(frm):
            attacks &= LINE[ksq][frm]
        n = add_targets(moves, n, frm, attacks)
    b = own & (p.by_type[ROOK] | p.by_type[QUEEN])
    while b:
        frm = lsb(b)
        b &= b - 1
        attacks = rook_attacks(frm, occ) & targets
        if pinned & bb(frm):
            attacks &= LINE[ksq][frm]
        n = add_targets(moves, n, frm, attacks)

    if not check and (kind & GEN_QUIETS) and p.st.castling:
        n = generate_castling(p, moves, n, ksq, occ)
    return n


cdef bint is_legal(Position* p, Move m) noexcept nogil:
    """Whether m, any 16-bit value, is a legal move here: exactly a move generate(GEN_ALL) lists.
    The search asks this of the moves it did not generate (TT move, killers, counter-move), which
    may come from another position."""
    cdef int us = p.side, them = p.side ^ 1, frm = move_from(m), to = move_to(m), kind = move_kind(m)
    cdef int piece = p.board[frm], pt, ksq, up = 8 if p.side == WHITE else -8
    cdef u64 occ = occupied(p), enemy = p.by_color[them], check, last_rank
    cdef Move castles[2]
    cdef int n, i
    if piece == 0 or color_of(piece) != us:
        return False
    if kind != PROMOTION and (m >> 12) & 3:
        return False        # generated moves carry no promotion piece unless they promote
    pt = type_of(piece)
    ksq = king_square(p, us)
    check = attackers_to(p, ksq, occ) & enemy
    if kind == CASTLING:    # written king takes own rook
        if check or frm != ksq:
            return False
        n = generate_castling(p, castles, 0, ksq, occ)
        for i in range(n):
            if castles[i] == m:
                return True
        return False
    if p.by_color[us] & bb(to):
        return False
    if pt == KING:
        return kind == NORMAL and (KING_ATTACKS[frm] & bb(to)) != 0 \
            and not (attackers_to(p, to, occ ^ bb(frm)) & enemy)
    if more_than_one(check):
        return False        # only the king can answer a double check
    if kind == EN_PASSANT:
        return pt == PAWN and to == p.st.ep and (PAWN_ATTACKS[us][frm] & bb(to)) != 0 \
            and en_passant_is_legal(p, frm)
    if pt == PAWN:
        last_rank = RANK_8 if us == WHITE else RANK_1
        if ((last_rank & bb(to)) != 0) != (kind == PROMOTION):
            return False    # a pawn reaching the last rank must promote, and only there
        if not ((PAWN_ATTACKS[us][frm] & enemy & bb(to))
                or (to == frm + up and not (occ & bb(to)))
                or (to == frm + 2 * up and rank_of(frm) == (1 if us == WHITE else 6)
                    and not (occ & (bb(to) | bb(frm + up))))):
            return False
    elif kind == PROMOTION:
        return False
    elif pt == KNIGHT:
        if not (KNIGHT_ATTACKS[frm] & bb(to)):
            return False
    elif pt == BISHOP:
        if not (bishop_attacks(frm, occ) & bb(to)):
            return False
    elif pt == ROOK:
        if not (rook_attacks(frm, occ) & bb(to)):
            return False
    elif not (queen_attacks(frm, occ) & bb(to)):
        return False
    # Our king must not be attacked once the piece has moved (and whatever stood on `to` is gone):
    # this settles pins and check evasions at once.
    return not (attackers_to(p, ksq, (occ ^ bb(frm)) | bb(to)) & enemy & ~bb(to))
