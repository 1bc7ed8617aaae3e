# Correction history: what the search has learnt about the static evaluation's errors.
#
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
