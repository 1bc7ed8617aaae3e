# Mill evaluation (included by _mill.pyx): a position's worth to the side to move, as a sum of
# named features times a weight table that pyrope.mill.search exposes and can replace.

# Weight slots; WEIGHT_NAMES below gives each its Python name, in this order.
cdef enum:
    W_STONE = 0         # a stone on the board
    W_HAND              # a stone still in hand
    W_MOBILITY          # a slide to an adjacent empty point (sides that do not fly)
    W_BLOCKED           # a stone with no empty neighbour (sides that do not fly)
    W_OPEN_MILL         # a line with two own stones and an empty third point
    W_CLOSED_MILL       # a line filled by own stones
    W_DOUBLE_MILL       # a stone of a closed mill that closes another by one slide
    W_FLYING            # the side may fly
    W_FLYING_OPEN_MILL  # an open mill of a flying side: it closes next turn from anywhere
    W_TEMPO             # having the move
    NWEIGHTS

# Hand-set defaults (not tuned by games yet): material dominates, since a stone is what the game
# is won by; an open mill is worth a fifth of a stone, a double mill almost half.
WEIGHT_NAMES = ("Stone", "StoneInHand", "Mobility", "BlockedStone", "OpenMill", "ClosedMill",
                "DoubleMill", "Flying", "FlyingOpenMill", "Tempo")
DEFAULT_WEIGHTS = (100, 100, 4, -8, 20, 12, 45, 40, 50, 8)


cdef inline bint has_turn(const Rules* r, const Pos* p) noexcept nogil:
    """Whether the side to move owes a removal or can place, slide or fly (a full board still in
    play is a removal turn: rules_end has ended it under BoardFullAction 0 and 4)."""
    return p.pending > 0 or (p.bb[0] | p.bb[1]) == FULL or can_move(r, p, p.side)


cdef int side_terms(const Rules* r, const Pos* p, int c, const int* w) noexcept nogil:
    """Colour c's features times their weights."""
    cdef uint32_t own = p.bb[c], empty = ~(own | p.bb[1 - c]) & FULL
    cdef uint32_t ln, b, e, moved
    cdef int i, s, k, score, open_mills = 0, closed = 0, mobility = 0, blocked = 0, double = 0
    score = w[W_STONE] * popcount(own) + w[W_HAND] * p.hand[c]
    for i in range(r.nlines):
        ln = r.line[i]
        k = popcount(own & ln)
        if k == 3:
            closed += 1
        elif k == 2 and empty & ln:
            open_mills += 1
    score += w[W_CLOSED_MILL] * closed
    if can_fly(r, p, c):
        return score + w[W_FLYING] + w[W_FLYING_OPEN_MILL] * open_mills
    b = own
    while b:
        s = ctz(b)
        b &= b - 1
        k = popcount(r.adj[s] & empty)
        mobility += k
        if k == 0:
            blocked += 1
        elif closed and mills_at(r, own, s):
            # a stone that leaves its mill for a point closing another: a mill every other turn
            e = r.adj[s] & empty
            while e:
                moved = (own ^ (1u << s)) | (e & (~e + 1))
                if mills_at(r, moved, ctz(e)):
                    double += 1
                    break
                e &= e - 1
    return (score + w[W_MOBILITY] * mobility + w[W_BLOCKED] * blocked + w[W_OPEN_MILL] * open_mills
            + w[W_DOUBLE_MILL] * double)


cdef inline int evaluate(const Rules* r, const Pos* p, const int* w) noexcept nogil:
    """Static score for the side to move (negamax convention)."""
    return side_terms(r, p, p.side, w) - side_terms(r, p, 1 - p.side, w) + w[W_TEMPO]
