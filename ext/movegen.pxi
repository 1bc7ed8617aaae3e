# Legal move generation. Pins and check evasions are resolved while generating (a pinned piece
# moves only along its pin line; in check, non-king moves must capture the checker or block),
# so every generated move is legal. Only en passant, whose capture can uncover the king along a
# rank, is confirmed by looking at the position after the capture, as Stockfish does.
#
# Stages for a search: GEN_CAPTURES (captures and all promotions) then GEN_QUIETS (everything
# else, castling included); GEN_EVASIONS is the full legal list when the side to move is in check.

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
