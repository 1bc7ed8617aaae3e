# How likely each enemy man is to stand on each square: the metaposition's possible squares
# weighed. The metaposition (kriegspiel_meta.pxi) spreads every pseudo-piece over every square it
# could reach each enemy turn, though the enemy moves one man a turn, so its possible squares soon
# outnumber the men many times over and say nothing of which are likely. Here the enemy's men are a
# mass by type and square (expected men): each enemy turn a man moves with the chance 1 / (men
# left) and, if it does, to each square it may reach alike; an announced capture says one man
# moved onto that square; whatever the metaposition rules out is dropped and the rest of the type's
# mass rescaled to the men it has (a man we take leaves its type's total). Darkboard 2.0's density
# matrices (thesis 5.7) are kept from game statistics; these come from the moves alone, unless an
# opponent model (pyrope.kriegspiel.opponent) counted from our own games is given: then a moving
# man goes to each square it may reach as likely as the model says its type's men gain there at
# that move number (the thesis's gradient D(p, t + 1) - D(p, t), 5.5), plus MODEL_FLOOR for
# squares they gain nothing on. (The struct, MpDensity, is declared beside Meta: MetaCore holds one.)

# A square the model's men gain nothing on at this move keeps this share of a man: a move the
# games never made stays possible, if less likely.
cdef double MODEL_FLOOR = 0.05

cdef void dn_start(MpDensity* d, const Meta* m) noexcept nogil:
    """Every enemy man where the start position has it."""
    cdef int t, sq
    for t in range(7):
        d.mass[t] = 0.0
        for sq in range(64):
            d.at[t][sq] = 0.0
    for t in range(PAWN, KING + 1):
        for sq in range(64):
            if m.possible[t] & bb(sq):
                d.at[t][sq] = 1.0
                d.mass[t] += 1.0


cdef void dn_condition(MpDensity* d, const Meta* m) noexcept nogil:
    """Drop the mass on squares the metaposition rules out and rescale each type to its men; a
    type left with men but no mass (all of it ruled out) is spread evenly on its possible squares."""
    cdef int t, sq, n
    cdef double total
    for t in range(PAWN, KING + 1):
        total = 0.0
        for sq in range(64):
            if not m.possible[t] & bb(sq):
                d.at[t][sq] = 0.0
            total += d.at[t][sq]
        n = popcount(m.possible[t])
        if n == 0:
            d.mass[t] = 0.0
        elif total > 1e-12:
            for sq in range(64):
                d.at[t][sq] *= d.mass[t] / total
        else:
            for sq in range(64):
                d.at[t][sq] = d.mass[t] / n if m.possible[t] & bb(sq) else 0.0


cdef inline double dn_pull(const float* now, const float* then, int t, int to) noexcept nogil:
    """How much a square draws a moving man of type t: evenly without a model (now NULL), else
    MODEL_FLOOR plus what the model's men of that type gain there in this move."""
    if now == NULL:
        return 1.0
    return MODEL_FLOOR + max(0.0, then[(t - PAWN) * 64 + to] - now[(t - PAWN) * 64 + to])


cdef inline double dn_pull_total(const float* now, const float* then, int t, u64 reach) noexcept nogil:
    """dn_pull summed over the squares of `reach`."""
    cdef double total = 0.0
    if now == NULL:
        return popcount(reach)
    while reach:
        total += dn_pull(now, then, t, lsb(reach))
        reach &= reach - 1
    return total


cdef void dn_their_move(MpDensity* d, const Meta* before, int captured) noexcept nogil:
    """The enemy's move, `before` the metaposition before it: with no capture each man stays or,
    with the chance 1 / (men left), goes to one of the squares it may reach (a pawn reaching the
    last rank as a queen); a capture on `captured` is one man's move there, more likely the more
    mass may reach it. Call dn_condition with the updated metaposition after."""
    cdef double moved[7][64]
    cdef double men = 0.0, share, reaching = 0.0, p, total, part
    cdef u64 walkable = before.empty & ~before.mine, landing = 0, reach, last
    cdef int t, sq, to
    cdef const float* now = NULL
    cdef const float* then = NULL
    if d.model != NULL and 0 <= d.moves < d.horizon:
        now = d.model + d.moves * 6 * 64
        then = now + 6 * 64
    if captured >= 0:
        landing = mp_landing(before, captured)
    for t in range(PAWN, KING + 1):
        men += d.mass[t]
        for sq in range(64):
            moved[t][sq] = 0.0
    p = 1.0 / men if men >= 1.0 else 1.0
    if captured >= 0:       # the mass that may have taken: each square's share of the one mover
        for t in range(PAWN, KING + 1):
            for sq in range(64):
                if d.at[t][sq] > 0.0 and mp_reach(before, t, sq, walkable, landing):
                    reaching += d.at[t][sq]
    for t in range(PAWN, KING + 1):
        for sq in range(64):
            if d.at[t][sq] <= 0.0:
                continue
            reach = mp_reach(before, t, sq, walkable, landing)
            if not reach:
                continue
            share = min(d.at[t][sq], d.at[t][sq] / reaching) if captured >= 0 else p * d.at[t][sq]
            d.at[t][sq] -= share
            last = reach & (RANK_1 | RANK_8) if t == PAWN else 0
            total = dn_pull_total(now, then, t, reach)
            while reach:
                to = lsb(reach); reach &= reach - 1
                part = share * dn_pull(now, then, t, to) / total
                moved[QUEEN if last & bb(to) else t][to] += part
                if last & bb(to):
                    d.mass[PAWN] -= part
                    d.mass[QUEEN] += part
    for t in range(PAWN, KING + 1):
        for sq in range(64):
            d.at[t][sq] += moved[t][sq]
    d.moves += 1


cdef void dn_took(MpDensity* d, int sq, bint pawn) noexcept nogil:
    """We took an enemy man on sq: a pawn, or a piece of each type as likely as its mass there.
    Call dn_condition with the updated metaposition after."""
    cdef int t
    cdef double here = 0.0, q
    if pawn:
        d.mass[PAWN] = max(0.0, d.mass[PAWN] - 1.0)
        d.at[PAWN][sq] = 0.0
        return
    for t in range(KNIGHT, QUEEN + 1):
        here += d.at[t][sq]
    for t in range(KNIGHT, QUEEN + 1):
        q = d.at[t][sq] / here if here > 1e-12 else d.mass[t] / max(1e-12, d.mass[KNIGHT] + d.mass[BISHOP]
                                                                      + d.mass[ROOK] + d.mass[QUEEN])
        d.mass[t] = max(0.0, d.mass[t] - q)
        d.at[t][sq] = 0.0
