# Darkboard 1.0's metaposition (thesis 4.2) compiled: what one side may believe of the enemy men it
# cannot see, as bitboards, with the two sound updates of 4.3 -- after our legal try and its
# announcement, after the enemy's unseen move and its announcement. It is the same belief as
# pyrope.kriegspiel.metaposition (the pure-Python oracle the tests hold it to, update by update),
# at C speed for the maximax search's thousands of metapositions a move.

cdef enum:
    MP_SURELY_OCCUPIED_AGE = 20

cdef struct Meta:
    u64 ours[7]             # our men by type, PAWN..KING
    u64 mine                # all our men
    u64 possible[7]         # squares where an enemy man of each type may stand
    u64 empty               # squares not ours that may be empty
    unsigned char age[64]   # turns since we last learned what a square holds
    signed char pawns_min[8]
    signed char pawns_max[8]
    int captured_pawns
    int captured_pieces
    int enemy_men[7]        # the enemy men of the start position, by type (promotions may add)
    u64 castling            # enemy rooks that may still castle
    int king_home           # the enemy king's start square, -1 if none
    int double_push         # our pawn that just advanced two (en passant may take it), or -1
    int us


cdef struct MpDensity:       # kriegspiel_density.pxi: how likely each possible square is
    double at[7][64]        # expected enemy men of each type (PAWN..KING) on each square
    double mass[7]          # expected enemy men of each type in all
    const float* model      # the opponent model's table for the enemy's colour, or NULL (even moves)
    int horizon             # the model's last move number
    int moves               # the enemy's moves made (from the standard start): the model's row


cdef inline u64 mp_maybe_enemy(const Meta* m) noexcept nogil:
    return m.possible[PAWN] | m.possible[KNIGHT] | m.possible[BISHOP] | m.possible[ROOK] \
        | m.possible[QUEEN] | m.possible[KING]


cdef int mp_check_from(int piece, int color, int sq, int king, u64 clear) noexcept nogil:
    """The CHECK_ bit a man (type, colour) on sq gives a king on `king` when the squares in
    `clear` are empty, or 0."""
    cdef u64 line
    if piece == KNIGHT:
        return CHECK_KNIGHT if KNIGHT_ATTACKS[sq] & bb(king) else 0
    if piece == PAWN:
        if PAWN_ATTACKS[color][sq] & bb(king):
            return CHECK_LONG_DIAGONAL if on_long_diagonal(king, sq) else CHECK_SHORT_DIAGONAL
        return 0
    if piece != BISHOP and piece != ROOK and piece != QUEEN:
        return 0
    line = LINE[sq][king]
    if not line or BETWEEN[sq][king] & ~clear:
        return 0
    if rank_of(sq) == rank_of(king):
        return CHECK_RANK if piece != BISHOP else 0
    if file_of(sq) == file_of(king):
        return CHECK_FILE if piece != BISHOP else 0
    if piece == ROOK:
        return 0
    return CHECK_LONG_DIAGONAL if on_long_diagonal(king, sq) else CHECK_SHORT_DIAGONAL


cdef int men_checks(const u64* men, int color, int king, u64 clear) noexcept nogil:
    """The CHECK_ bits the men (bitboards by type, PAWN..KING) of `color` give a king on `king`
    when the squares in `clear` are empty. Shared with the bare-king search."""
    cdef u64 b
    cdef int t, sq, kinds = 0
    for t in range(PAWN, QUEEN + 1):
        b = men[t]
        while b:
            sq = lsb(b); b &= b - 1
            kinds |= mp_check_from(t, color, sq, king, clear)
    return kinds


cdef int mp_checks_on(const Meta* m, int king, bint certain) noexcept nogil:
    """The CHECK_ bits our men give an enemy king on `king`: surely (every square between surely
    empty once the king stands there) or possibly (every square between may be empty)."""
    cdef u64 clear
    if certain:
        clear = ~m.mine & ~(m.possible[PAWN] | m.possible[KNIGHT] | m.possible[BISHOP]
                            | m.possible[ROOK] | m.possible[QUEEN])
    else:
        clear = m.empty & ~m.mine
    return men_checks(m.ours, m.us, king, clear)


cdef inline int pawn_move(int* moves, int count, int sq, int to, u64 last, bint rook_promotions) noexcept nogil:
    """Add a pawn's move (as a queen's and maybe a rook's promotion on the last rank); the new count."""
    if not bb(to) & last:
        moves[count] = sq | (to << 6)
        return count + 1
    moves[count] = sq | (to << 6) | (QUEEN << 12)
    if not rook_promotions:
        return count + 1
    moves[count + 1] = sq | (to << 6) | (ROOK << 12)
    return count + 2


cdef int own_moves(const u64* men, int us, u64 blockers, u64 landing, u64 pushable, u64 pawn_targets,
                   bint rook_promotions, int* moves) noexcept nogil:
    """Moves of our men (bitboards by type) packed from | to << 6 | promotion << 12, pieces first:
    each travels up to `blockers` and lands on `landing`; pawns push onto `pushable` (two from
    their start when both squares are) and take onto `pawn_targets`; a pawn reaching the last rank
    becomes a queen, or also a rook with `rook_promotions`. No castling. The metaposition's
    pseudomoves and the bare-king search's moves both come from here."""
    cdef int count = 0, sq, to, t, step = 8 if us == WHITE else -8
    cdef u64 b, targets
    cdef u64 last = RANK_8 if us == WHITE else RANK_1
    cdef u64 start = (RANK_1 << 8) if us == WHITE else (RANK_8 >> 8)
    for t in range(KNIGHT, KING + 1):
        b = men[t]
        while b:
            sq = lsb(b); b &= b - 1
            if t == KNIGHT:
                targets = KNIGHT_ATTACKS[sq]
            elif t == BISHOP:
                targets = bishop_attacks(sq, blockers)
            elif t == ROOK:
                targets = rook_attacks(sq, blockers)
            elif t == QUEEN:
                targets = queen_attacks(sq, blockers)
            else:
                targets = KING_ATTACKS[sq]
            targets &= landing
            while targets:
                to = lsb(targets); targets &= targets - 1
                moves[count] = sq | (to << 6); count += 1
    b = men[PAWN]
    while b:
        sq = lsb(b); b &= b - 1
        to = sq + step
        if pushable & bb(to):
            count = pawn_move(moves, count, sq, to, last, rook_promotions)
            if bb(sq) & start and pushable & bb(to + step):
                count = pawn_move(moves, count, sq, to + step, last, rook_promotions)
        targets = PAWN_ATTACKS[us][sq] & pawn_targets
        while targets:
            to = lsb(targets); targets &= targets - 1
            count = pawn_move(moves, count, sq, to, last, rook_promotions)
    return count


cdef int mp_enemy_men(const Meta* m) noexcept nogil:
    """The enemy men left, king included (16 less what we took, on a standard start; the bound
    the start gave otherwise)."""
    cdef int t, men = 0
    for t in range(PAWN, KING + 1):
        men += m.enemy_men[t]
    return men - m.captured_pawns - m.captured_pieces


cdef void mp_tidy(Meta* m) noexcept nogil:
    """A square surely occupied where only a pawn may stand holds one of its file's pawns (the file
    has at least as many; where it has no more, none stands elsewhere on it); when the pawns
    surely on the board are all the men left besides the king, no piece is left and no file holds
    more pawns than it surely has; a square no man may hold is empty; files that can hold no pawn;
    castling rights of a king or rook that has surely left home."""
    cdef int f, on_file, held, pawns = 0, t
    cdef u64 file_mask, pawn_only = ~m.empty & ~m.mine & m.possible[PAWN]
    for t in range(KNIGHT, KING + 1):
        pawn_only &= ~m.possible[t]
    for f in range(8):
        file_mask = FILE_A << f
        held = popcount(pawn_only & file_mask)
        if held > m.pawns_min[f]:
            m.pawns_min[f] = held
        if held and held >= m.pawns_max[f]:
            m.possible[PAWN] &= ~file_mask | pawn_only
        pawns += m.pawns_min[f]
    if pawns == mp_enemy_men(m) - 1:
        for t in range(KNIGHT, QUEEN + 1):
            m.possible[t] = 0
        for f in range(8):
            m.pawns_max[f] = m.pawns_min[f]
    m.empty |= ~m.mine & ~mp_maybe_enemy(m)
    for f in range(8):
        file_mask = FILE_A << f
        on_file = popcount(m.possible[PAWN] & file_mask)
        if on_file < m.pawns_max[f]:
            m.pawns_max[f] = on_file
        if m.pawns_max[f] <= 0:
            m.pawns_max[f] = 0
            m.possible[PAWN] &= ~file_mask
    if m.king_home < 0 or not m.possible[KING] & bb(m.king_home):
        m.castling = 0
    m.castling &= m.possible[ROOK]


cdef void mp_clear(Meta* m, u64 squares) noexcept nogil:
    cdef int t
    for t in range(PAWN, KING + 1):
        m.possible[t] &= ~squares
    m.empty |= squares
    mp_tidy(m)


cdef u64 men_attacks(const u64* men, int color, u64 blockers, bint with_king) noexcept nogil:
    """Every square the men (bitboards by type, PAWN..KING) of `color` attack, sliders stopping at
    `blockers`; their own squares included (those are defended). Shared with the bare-king search
    and the maximax evaluation."""
    cdef u64 b, attacked = 0
    cdef int sq
    b = men[PAWN]
    while b:
        sq = lsb(b); b &= b - 1
        attacked |= PAWN_ATTACKS[color][sq]
    b = men[KNIGHT]
    while b:
        sq = lsb(b); b &= b - 1
        attacked |= KNIGHT_ATTACKS[sq]
    b = men[BISHOP] | men[QUEEN]
    while b:
        sq = lsb(b); b &= b - 1
        attacked |= bishop_attacks(sq, blockers)
    b = men[ROOK] | men[QUEEN]
    while b:
        sq = lsb(b); b &= b - 1
        attacked |= rook_attacks(sq, blockers)
    if with_king and men[KING]:
        attacked |= KING_ATTACKS[lsb(men[KING])]
    return attacked


cdef inline u64 mp_sure_checks(const Meta* m) noexcept nogil:
    """The squares where an enemy king would surely be in check: attacked by our pawns, knights
    or sliders through squares surely empty (mp_checks_on's certain test, for every square at once)."""
    return men_attacks(m.ours, m.us, m.mine | m.possible[PAWN] | m.possible[KNIGHT] | m.possible[BISHOP]
                       | m.possible[ROOK] | m.possible[QUEEN], False)


cdef void mp_narrow_king(Meta* m, int announced) noexcept nogil:
    """Keep the enemy king only where our men's checks can match the announcement."""
    cdef u64 kings = 0, b = m.possible[KING]
    cdef int k
    if m.ours[KING]:
        b &= ~KING_ATTACKS[lsb(m.ours[KING])]
    if not announced:
        # No check announced (the search's every prediction): the king stands where no check of
        # ours is sure, found for all squares at once.
        m.possible[KING] = b & ~mp_sure_checks(m)
        mp_tidy(m)
        return
    while b:
        k = lsb(b); b &= b - 1
        if (mp_checks_on(m, k, True) & ~announced) == 0 and (announced & ~mp_checks_on(m, k, False)) == 0:
            kings |= bb(k)
    m.possible[KING] = kings
    mp_tidy(m)


cdef bint may_pin(int anchor, int sq, u64 mine, u64 straight, u64 diagonal) noexcept nogil:
    """Whether a man on sq may be pinned to a king on `anchor` (or pin it, seen from the other
    end): a slider of the line's kind (`straight` or `diagonal` squares) stands on the line through
    both, outside the stretch between them, and none of `mine` stands between. Loose on purpose:
    it only keeps an inference from being drawn."""
    cdef u64 line = LINE[anchor][sq]
    if not line or BETWEEN[anchor][sq] & mine:
        return False
    line &= ~BETWEEN[anchor][sq] & ~bb(anchor) & ~bb(sq)
    if rank_of(anchor) == rank_of(sq) or file_of(anchor) == file_of(sq):
        return (line & straight) != 0
    return (line & diagonal) != 0


cdef void mp_no_enemy_pawn_tries(Meta* m) noexcept nogil:
    """After our move, the enemy has no pawn try (and no check was given): no enemy pawn stands
    where it would attack one of our men -- unless one of our sliders may pin it to its king."""
    cdef u64 b = m.mine, targets = 0
    cdef u64 straight = m.ours[ROOK] | m.ours[QUEEN], diagonal = m.ours[BISHOP] | m.ours[QUEEN]
    cdef int sq, q
    cdef bint pinned
    while b:
        sq = lsb(b); b &= b - 1
        targets |= PAWN_ATTACKS[m.us][sq]
    targets &= m.possible[PAWN]
    while targets:
        sq = lsb(targets); targets &= targets - 1
        pinned = False
        b = straight | diagonal
        while b and not pinned:     # the pawn between our slider and a possible king beyond
            q = lsb(b); b &= b - 1
            pinned = may_pin(q, sq, m.mine, m.possible[KING] if straight & bb(q) else 0,
                             m.possible[KING] if diagonal & bb(q) else 0)
        if not pinned:
            m.possible[PAWN] &= ~bb(sq)
    mp_tidy(m)


cdef void mp_refused(Meta* m, int frm, int to, bint in_check) noexcept nogil:
    """The referee refused our pawn's step frm-to while we were not in check: an enemy man stands on
    `to` -- unless the pawn may be pinned to our king (the step may have uncovered a check). Only
    a single step is read (a double step may have been stopped on the square between)."""
    cdef u64 straight = m.possible[ROOK] | m.possible[QUEEN], diagonal = m.possible[BISHOP] | m.possible[QUEEN]
    cdef int king = lsb(m.ours[KING]) if m.ours[KING] else -1
    if in_check or not m.ours[PAWN] & bb(frm) or to != frm + (8 if m.us == WHITE else -8):
        return
    if m.mine & bb(to) or not mp_maybe_enemy(m) & bb(to):
        return
    if king >= 0 and may_pin(king, frm, m.mine, straight, diagonal):
        return
    m.empty &= ~bb(to)
    m.age[to] = MP_SURELY_OCCUPIED_AGE
    mp_tidy(m)


cdef void mp_no_pawn_tries(Meta* m) noexcept nogil:
    """Before our move, we have no pawn try (and are not in check): no enemy man stands where one
    of our pawns would take it -- unless that pawn may be pinned to our king."""
    cdef u64 b = m.ours[PAWN], clear = 0
    cdef u64 straight = m.possible[ROOK] | m.possible[QUEEN], diagonal = m.possible[BISHOP] | m.possible[QUEEN]
    cdef int sq, king = lsb(m.ours[KING]) if m.ours[KING] else -1
    while b:
        sq = lsb(b); b &= b - 1
        if king < 0 or not may_pin(king, sq, m.mine, straight, diagonal):
            clear |= PAWN_ATTACKS[m.us][sq]
    mp_clear(m, clear & ~m.mine)


cdef void mp_our_move(Meta* m, int frm, int to, int promotion, int rook_from, int rook_to,
                      int captured, bint captured_pawn, int checks, int pawn_tries) noexcept nogil:
    """Our legal try (from, to, promotion; castling: the king's from-to and the rook's, else
    rook_from -1) and the announcement after it (captured square or -1, checks, the enemy's pawn
    tries or -1 when unknown)."""
    cdef int t = 0, piece, f
    cdef u64 seen = bb(frm) | bb(to)
    for piece in range(PAWN, KING + 1):
        if m.ours[piece] & bb(frm):
            t = piece
    if rook_from >= 0:
        seen |= RANK_1 << (8 * rank_of(frm)) & mp_castling_span(frm, rook_from)
    elif t != KNIGHT:
        seen |= BETWEEN[frm][to]
    m.double_push = to if t == PAWN and (to - frm == 16 or frm - to == 16) else -1
    if captured >= 0:
        if captured_pawn:
            m.captured_pawns += 1
            f = file_of(captured)
            m.pawns_max[f] -= 1
            if m.pawns_min[f] > 0:
                m.pawns_min[f] -= 1
        else:
            m.captured_pieces += 1
        m.castling &= ~bb(captured)
        seen |= bb(captured)
    mp_clear(m, seen)
    m.ours[t] &= ~bb(frm)
    m.ours[promotion if promotion else t] |= bb(to)
    if rook_from >= 0:
        m.ours[ROOK] = (m.ours[ROOK] & ~bb(rook_from)) | bb(rook_to)
    m.mine = m.ours[PAWN] | m.ours[KNIGHT] | m.ours[BISHOP] | m.ours[ROOK] | m.ours[QUEEN] | m.ours[KING]
    mp_narrow_king(m, checks)
    if pawn_tries == 0 and not checks:
        mp_no_enemy_pawn_tries(m)
    while seen:
        f = lsb(seen); seen &= seen - 1
        m.age[f] = 0


cdef inline u64 mp_castling_span(int king, int rook) noexcept nogil:
    """The files castling crosses: e-h kingside, a-e queenside (as the Python oracle has it)."""
    if file_of(rook) > file_of(king):
        return (FILE_A << 4) | (FILE_A << 5) | (FILE_A << 6) | (FILE_A << 7)
    return FILE_A | (FILE_A << 1) | (FILE_A << 2) | (FILE_A << 3) | (FILE_A << 4)


cdef u64 mp_castling_reach(const Meta* m, int sq) noexcept nogil:
    """The enemy king's castling squares (g or c file, Chess960 too) while a right may remain and
    the king may be at home."""
    cdef u64 reach = 0, rooks = m.castling, home_rank
    cdef int rook
    if sq != m.king_home or not m.castling:
        return 0
    home_rank = RANK_1 << (8 * rank_of(sq))
    while rooks:
        rook = lsb(rooks); rooks &= rooks - 1
        reach |= home_rank & ((FILE_A << 6) if file_of(rook) > file_of(sq) else (FILE_A << 2))
    return reach


cdef u64 mp_reach(const Meta* m, int t, int sq, u64 walkable, u64 landing) noexcept nogil:
    """Squares a pseudo-piece of type t on sq may move to: onto `landing` only when a capture was
    announced, else onto walkable squares; through walkable squares."""
    cdef int enemy = 1 - m.us, one, two
    cdef u64 blockers = ~walkable, reach = 0, pushes = 0
    if t == PAWN:
        if landing:
            return PAWN_ATTACKS[enemy][sq] & landing
        one = sq + 8 if enemy == WHITE else sq - 8
        if 0 <= one < 64 and walkable & bb(one):
            pushes |= bb(one)
            two = one + 8 if enemy == WHITE else one - 8
            if bb(sq) & ((RANK_1 << 8) if enemy == WHITE else (RANK_8 >> 8)) and walkable & bb(two):
                pushes |= bb(two)
        return pushes
    if t == KNIGHT:
        reach = KNIGHT_ATTACKS[sq]
    elif t == KING:
        reach = KING_ATTACKS[sq] | mp_castling_reach(m, sq)
    else:
        if t == BISHOP or t == QUEEN:
            reach |= bishop_attacks(sq, blockers)
        if t == ROOK or t == QUEEN:
            reach |= rook_attacks(sq, blockers)
    return reach & (landing if landing else walkable)


cdef void mp_narrow_checkers(Meta* m, int announced) noexcept nogil:
    """No enemy man stands where it would surely give a check not announced."""
    cdef int king, t, sq, kind
    cdef u64 clear, b
    if not m.ours[KING]:
        return
    king = lsb(m.ours[KING])
    clear = ~m.mine & ~mp_maybe_enemy(m)
    for t in range(PAWN, KING + 1):
        b = m.possible[t]
        while b:
            sq = lsb(b); b &= b - 1
            kind = mp_check_from(t, 1 - m.us, sq, king, clear)
            if kind and not kind & announced:
                m.possible[t] &= ~bb(sq)
    mp_tidy(m)


cdef inline u64 mp_landing(const Meta* m, int captured) noexcept nogil:
    """Where the man that took ours on `captured` may stand: there, or behind our pawn that had
    just advanced two, en passant (only a pawn advances two, so it was a pawn taken)."""
    cdef u64 landing = bb(captured)
    if captured == m.double_push:
        landing |= bb(captured - 8 if m.us == WHITE else captured + 8)
    return landing


cdef void mp_their_move(Meta* m, int captured, bint captured_pawn, int checks, int pawn_tries) noexcept nogil:
    """The enemy's unseen move and the announcement after it (the square where it took one of our
    men or -1, and whether that man was a pawn; checks on us; our pawn tries, or -1 when unknown).
    Every pseudo-piece may have made it."""
    cdef u64 target = 0, landing = 0, walkable, movers = 0, reach, last, captures, b, bit
    cdef u64 spread[7]
    cdef int t, sq, f, leaving = 0, arriving = 0, piece
    cdef u64 mine_before = m.mine
    for t in range(7):
        spread[t] = 0
    if captured >= 0:
        target = bb(captured)
        for piece in range(PAWN, KING + 1):
            m.ours[piece] &= ~target
        m.mine &= ~target
        landing = mp_landing(m, captured)
    walkable = m.empty & ~mine_before
    for t in range(PAWN, KING + 1):
        b = m.possible[t]
        while b:
            sq = lsb(b); b &= b - 1
            reach = mp_reach(m, t, sq, walkable, landing)
            if not reach:
                continue
            movers |= bb(sq)
            if t == PAWN:
                last = reach & (RANK_1 | RANK_8)
                spread[PAWN] |= reach & ~last
                spread[KNIGHT] |= last
                spread[BISHOP] |= last
                spread[ROOK] |= last
                spread[QUEEN] |= last
                captures = reach & ~(FILE_A << file_of(sq))
                if last or captures:
                    leaving |= 1 << file_of(sq)
                captures &= ~last
                while captures:
                    arriving |= 1 << file_of(lsb(captures))
                    captures &= captures - 1
            else:
                spread[t] |= reach
    for f in range(8):
        if leaving & (1 << f) and m.pawns_min[f] > 0:
            m.pawns_min[f] -= 1
        if arriving & (1 << f):
            m.pawns_max[f] += 1
    if captured >= 0:
        for t in range(PAWN, KING + 1):
            m.possible[t] = (m.possible[t] & ~landing) | spread[t]
        m.empty = (m.empty | movers | target) & ~landing
        if landing != target:
            m.empty |= landing | target
    else:
        for t in range(PAWN, KING + 1):
            m.possible[t] |= spread[t]
        m.empty |= movers
    m.double_push = -1
    mp_tidy(m)
    mp_narrow_checkers(m, checks)
    mp_narrow_king(m, 0)
    if pawn_tries == 0 and not checks:
        mp_no_pawn_tries(m)
    mp_age(m)


cdef void mp_age(Meta* m) noexcept nogil:
    cdef u64 surely_empty = ~m.mine & ~mp_maybe_enemy(m), occupied = ~m.empty & ~m.mine
    cdef int sq
    for sq in range(64):
        if surely_empty & bb(sq):
            m.age[sq] = 0
        elif occupied & bb(sq):
            m.age[sq] = MP_SURELY_OCCUPIED_AGE
        elif m.age[sq] < 255:
            m.age[sq] += 1


cdef class MetaCore:
    """The compiled metaposition (the Python face is pyrope.kriegspiel.metaposition's API): built
    from our men and the enemy's start as bitboards; updated by our_move and their_move."""
    cdef Meta m
    cdef MpDensity d

    cdef object model       # keeps the opponent model's table alive while d.model points into it

    def __init__(self, bint white, ours, enemy, u64 castling, int king_home, int enemy_moves=0):
        """ours, enemy: seven bitboards by piece type (index 0 unused) of the start position;
        castling: the enemy rooks that may castle; king_home: the enemy king's square or -1;
        enemy_moves: the moves the enemy has made to reach it (the opponent model's row)."""
        cdef int t, f
        self.m.us = WHITE if white else BLACK
        self.m.mine = 0
        for t in range(7):
            self.m.ours[t] = ours[t] if t else 0
            self.m.possible[t] = enemy[t] if t else 0
            self.m.mine |= self.m.ours[t]
        self.m.empty = ~self.m.mine & ~mp_maybe_enemy(&self.m)
        for t in range(64):
            self.m.age[t] = 0
        for f in range(8):
            self.m.pawns_min[f] = self.m.pawns_max[f] = popcount(self.m.possible[PAWN] & (FILE_A << f))
        self.m.captured_pawns = self.m.captured_pieces = 0
        for t in range(PAWN, KING + 1):
            self.m.enemy_men[t] = popcount(self.m.possible[t])
        self.m.castling = castling
        self.m.king_home = king_home
        self.m.double_push = -1
        dn_start(&self.d, &self.m)
        self.d.model = NULL
        self.d.moves = enemy_moves

    def use_model(self, const float[::1] table, int horizon):
        """The opponent model for the enemy's moves (pyrope.kriegspiel.opponent): `table` holds
        the expected enemy men by move number 0..horizon, type PAWN..KING and square, as float32."""
        if horizon < 1:
            raise ValueError(f"an opponent model covers 1 move or more, not {horizon}")
        if table.shape[0] != (horizon + 1) * 6 * 64:
            raise ValueError(f"an opponent model table of {(horizon + 1) * 6 * 64} values, not {table.shape[0]}")
        self.model = table
        self.d.model = &table[0]
        self.d.horizon = horizon

    def our_move(self, int frm, int to, int promotion, int rook_from, int rook_to, int captured,
                 bint captured_pawn, int checks, int pawn_tries=-1):
        mp_our_move(&self.m, frm, to, promotion, rook_from, rook_to, captured, captured_pawn, checks, pawn_tries)
        if captured >= 0:
            dn_took(&self.d, captured, captured_pawn)
        dn_condition(&self.d, &self.m)

    def their_move(self, int captured, bint captured_pawn, int checks, int pawn_tries=-1):
        cdef Meta before = self.m
        mp_their_move(&self.m, captured, captured_pawn, checks, pawn_tries)
        dn_their_move(&self.d, &before, captured)
        dn_condition(&self.d, &self.m)

    def refused(self, int frm, int to, bint in_check):
        """The referee refused our try frm-to (mp_refused: a pawn's single step, read when we were
        not in check)."""
        mp_refused(&self.m, frm, to, in_check)
        dn_condition(&self.d, &self.m)

    def set_belief(self, possible=None, u64 empty=0, bint set_empty=False):
        """Replace the possible squares (seven bitboards by type, index 0 unused) and/or the
        possibly-empty squares: for tests and hand-made positions."""
        cdef int t
        if possible is not None:
            for t in range(1, 7):
                self.m.possible[t] = possible[t]
        if set_empty:
            self.m.empty = empty
        mp_tidy(&self.m)
        dn_condition(&self.d, &self.m)

    def density(self):
        """The expected enemy men of each type on each square: six lists of 64 (PAWN..KING)."""
        return [[self.d.at[t][sq] for sq in range(64)] for t in range(PAWN, KING + 1)]

    def pseudomoves(self, bint pawn_tries):
        """Our pseudomoves (mp_generate), packed from | to << 6 | promotion << 12."""
        cdef int moves[320]         # nine queens on an open board stay under this
        cdef int count = mp_generate(&self.m, moves, pawn_tries), i
        return [moves[i] for i in range(count)]

    def power_move(self, int move):
        """The power move (mp_power_move) after the referee refused our slide `move` (packed), or -1."""
        return mp_power_move(&self.m, move)

    def state(self):
        """Everything it holds, for the tests' comparison with the oracle."""
        return {"possible": [self.m.possible[t] for t in range(1, 7)], "empty": self.m.empty & ~self.m.mine,
                "age": [self.m.age[s] for s in range(64)], "pawns_min": [self.m.pawns_min[f] for f in range(8)],
                "pawns_max": [self.m.pawns_max[f] for f in range(8)], "captured": (self.m.captured_pawns,
                self.m.captured_pieces), "castling": self.m.castling, "mine": self.m.mine}


cdef int mp_power_move(const Meta* m, int move) noexcept nogil:
    """4.3.3: after the referee refused our slide `move`, the same man's shorter slide to the
    farthest square before `move`'s destination that may hold an enemy man (searched as a capture
    there), or -1 when there is none or the slide was a single step."""
    cdef int frm = move & 63, to = (move >> 6) & 63, t, sq, best = -1
    cdef u64 path
    if not (m.ours[BISHOP] | m.ours[ROOK] | m.ours[QUEEN]) & bb(frm):
        return -1
    path = BETWEEN[frm][to] & mp_maybe_enemy(m)
    # The farthest from `frm` is the nearest to `to`.
    while path:
        sq = lsb(path); path &= path - 1
        if best < 0 or (max(abs(rank_of(sq) - rank_of(frm)), abs(file_of(sq) - file_of(frm)))
                        > max(abs(rank_of(best) - rank_of(frm)), abs(file_of(best) - file_of(frm)))):
            best = sq
    return -1 if best < 0 else frm | (best << 6)


cdef int mp_generate(const Meta* m, int* moves, bint pawn_tries) noexcept nogil:
    """Our pseudomoves (4.3.1), packed from | to << 6 | promotion << 12: each man travels as far
    as it can, stopping at the edge, at one of our men, or on a square that surely holds an enemy
    man (a capture there); pawns push onto squares that may be empty and, when pawn tries are
    announced, capture onto squares that may hold an enemy man; a pawn reaching the last rank
    becomes a queen. No castling."""
    cdef u64 enemy_sure = ~m.empty & ~m.mine
    return own_moves(m.ours, m.us, m.mine | enemy_sure, ~m.mine, m.empty & ~m.mine,
                     mp_maybe_enemy(m) & ~m.mine if pawn_tries else 0, False, moves)
