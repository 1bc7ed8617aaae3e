# Darkboard 1.0's move choice (thesis 4.4-4.5) over the compiled metaposition: a weighted maximax in
# which the enemy is not an opponent but a hostile environment. Every node is one metaposition; our
# move evolves it by `pseudo` with the umpire's answer predicted (4.4.2), and the enemy's unseen
# move by `meta` with a silent answer, so the enemy has one branch and each level of the tree is a
# whole move (figure 4.5). A move's value blends the static value after it with the best value one
# move further: alpha * static + (1 - alpha) * best, so a node's weight falls as alpha^depth, as the
# prediction's trustworthiness does.
#
# Two searches, as the thesis's: the basic one (figure 4.6), exhaustive to a fixed depth, when the
# umpire just announced a capture, a check or pawn tries (such messages come in clusters and the
# prediction is then least reliable); else the enhanced one (figure 4.7), which shares a table of
# each move's last gain over its parent's value across the tree (killer moves), expands at most
# `new_moves` moves the table does not hold and `old_moves` that it does, best first, and splits a
# budget of metapositions among them, so it reaches four to seven moves deep.
#
# The evaluation (4.5): material, each of our men weighed by its safety (the possible enemy men
# that may attack its square, each as likely as the game's density of its kind says -- MetaCore's,
# ext/kriegspiel_density.pxi -- halved when it is protected, the man just moved more endangered,
# a possible check blended with the king taking its checker); position (pawn advance, files no
# enemy pawn can hold, squares our men control); information (the entropy: the undesirability of
# every enemy man that may stand on a square, weighted by the square's age); and a stalemate test
# once the enemy has two men or fewer besides its king, or its pawns may be stuck. Everything is C
# on C types, without the GIL.

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memset

cdef enum:
    MX_MAX_MOVES = 320          # as MetaCore.pseudomoves
    MX_TABLE = 1 << 15          # packed moves (from | to << 6 | promotion << 12) stay below this

cdef double MX_VALUE[7]
MX_VALUE[:] = [0, 100, 300, 310, 500, 900, 0]
cdef double MX_PAWN_ADVANCE[8]      # by rank counted from our side
MX_PAWN_ADVANCE[:] = [0, 0, 3, 8, 16, 30, 55, 0]


cdef struct MxWeights:
    double alpha            # the risk coefficient: the static value's share of a node's value
    double danger           # the share of a man's value at stake when it is in the most danger
    double king_danger      # what the king's danger costs, as if it were worth this much
    double captured_piece   # an enemy piece we took (the referee does not say which)
    double control          # each square our men attack
    double open_file        # each file no enemy pawn can hold
    double free_pawn        # each of our pawns on such a file
    double entropy          # each unit of entropy (summed undesirability x age weight)
    double stalemate        # a possible enemy king with no move that is not in check (a share of
                            # them: more than any capture, as a stalemate throws the won game away)
    double hunt             # the share of the bare-king search's mating terms (section 6.3) once
                            # the enemy has two men or fewer besides its king
    double mating           # having men enough to mate (a queen, rook or pawn, or two minor pieces)
    double pawn_reserve     # each of our pawns while we have no queen or rook: the mates to come
    double king_lines       # each empty square a queen on our king's square would see, while the
                            # enemy may have a queen
    double pawn_threat      # a possible pawn attacker counts this many times its chance: a pawn
                            # surely takes (the enemy is told of its pawn tries)


cdef struct MxSearch:
    MxWeights w
    int new_moves, old_moves
    long positions                  # metapositions evaluated by the last search
    unsigned int stamp              # the table's entries of this search carry this stamp
    unsigned int seen[MX_TABLE]
    double gain[MX_TABLE]           # a move's value less its parent's, last time it was evaluated
    const MpDensity* root           # the enemy men's density at the root (the game's metaposition)
    double prior                    # 1 / the enemy men left: the chance a given one moved
    double stalemated               # the chance of a stalemate in the last mx_static's metaposition
    KsDeadline deadline             # the search's time limit, polled by mx_static


# f_E by age: how likely an unseen square is to hold what it may hold, from 1/3 for a square seen a
# move ago up towards 1; 1 for a square surely occupied.
cdef double MX_AGE_WEIGHT[256]
for _age in range(256):
    MX_AGE_WEIGHT[_age] = 1.0 if _age >= MP_SURELY_OCCUPIED_AGE else (_age + 1.0) / (_age + 3.0)


cdef struct MxDensity:      # the even spread: where the game's density has nothing to say
    double piece[7]         # by type: the chance that a square where such a man may stand holds one
    double pawn[8]          # pawns by file (the file's bound over its possible squares)


cdef void mx_density(const Meta* m, MxDensity* d) noexcept nogil:
    """How thinly each kind of enemy man is spread over the squares where it may stand: its men
    (at most those of the start; pawns, the file's upper bound) over its possible squares, at most
    1. The metaposition spreads every man each enemy move, so its possible squares soon outnumber
    the men many times over: without this every square near the enemy looks equally attacked."""
    cdef int t, f, n
    for t in range(PAWN, KING + 1):
        n = popcount(m.possible[t])
        d.piece[t] = 0.0 if n == 0 else min(1.0, m.enemy_men[t] / <double> n)
    for f in range(8):
        n = popcount(m.possible[PAWN] & (FILE_A << f))
        d.pawn[f] = 0.0 if n == 0 else min(1.0, m.pawns_max[f] / <double> n)


cdef inline double mx_chance(const MxSearch* s, const Meta* m, const MxDensity* density, int t, int sq) noexcept nogil:
    """The chance that an enemy man of type t stands on sq, where node `m` allows one: the root's
    density there, plus the even spread of its kind over its possible squares (weighed by the
    square's age) times the chance that the one man the search's enemy moves may have moved went
    there (1 / men) -- squares those moves opened have no density of their own."""
    cdef double even = density.pawn[file_of(sq)] if t == PAWN else density.piece[t]
    even *= MX_AGE_WEIGHT[m.age[sq]]
    return min(1.0, s.root.at[t][sq] + even * s.prior)


cdef double mx_danger(const MxSearch* s, const Meta* m, const MxDensity* density, int sq, u64 blockers, bint seen,
                      bint protected, double* by_pawn) noexcept nogil:
    """How endangered our man on sq is, 0-1: each square from which a possible enemy man would
    attack it adds the chance that such a man stands there (mx_chance; in full on a square surely
    occupied) and takes: a pawn surely does (the pawn tries announced to the enemy tell it a capture
    is there to try), another man half the time, unless `seen`: the enemy knows the man is there (it
    just captured, announced on its square) and will try every capture onto it; the king never
    takes a protected man. `by_pawn` gets the danger from pawns alone."""
    cdef u64 diagonal = bishop_attacks(sq, blockers), straight = rook_attacks(sq, blockers)
    cdef u64 pawns = m.possible[PAWN] & PAWN_ATTACKS[m.us][sq]
    cdef u64 attackers = pawns | (m.possible[KNIGHT] & KNIGHT_ATTACKS[sq]) \
        | ((m.possible[BISHOP] | m.possible[QUEEN]) & diagonal) \
        | ((m.possible[ROOK] | m.possible[QUEEN]) & straight) | (m.possible[KING] & KING_ATTACKS[sq])
    cdef double safe = 1.0, pawn_safe = 1.0, pawn, other
    cdef int a
    cdef u64 b
    while attackers:
        a = lsb(attackers); attackers &= attackers - 1
        b = bb(a)
        pawn = s.w.pawn_threat * mx_chance(s, m, density, PAWN, a) if pawns & b else 0.0
        other = 0.0
        if m.possible[KNIGHT] & KNIGHT_ATTACKS[sq] & b:
            other += mx_chance(s, m, density, KNIGHT, a)
        if m.possible[BISHOP] & diagonal & b:
            other += mx_chance(s, m, density, BISHOP, a)
        if m.possible[ROOK] & straight & b:
            other += mx_chance(s, m, density, ROOK, a)
        if m.possible[QUEEN] & (diagonal | straight) & b:
            other += mx_chance(s, m, density, QUEEN, a)
        if m.possible[KING] & KING_ATTACKS[sq] & b and not protected:
            other += mx_chance(s, m, density, KING, a)
        if not m.empty & b:                 # someone surely stands there
            pawn, other = (1.0, 0.0) if pawn > 0.0 and other == 0.0 else (pawn, 1.0)
        pawn_safe *= 1.0 - min(1.0, pawn)
        safe *= (1.0 - min(1.0, pawn)) * (1.0 - (1.0 if seen else 0.5) * min(1.0, other))
    by_pawn[0] = 1.0 - pawn_safe
    return 1.0 - safe


cdef double mx_entropy(const Meta* m) noexcept nogil:
    """4.5.3's chessboard entropy (a cost, >= 0 here): over every square, the undesirability of
    each enemy man that may stand there -- an enemy pawn on our second or third rank, near its
    promotion, five times any other -- times the square's age weight."""
    cdef u64 near = (RANK_1 << 8 | RANK_1 << 16) if m.us == WHITE else (RANK_8 >> 8 | RANK_8 >> 16)
    cdef double e = 0.0
    cdef int sq, t, kinds
    cdef u64 maybe = mp_maybe_enemy(m)
    while maybe:
        sq = lsb(maybe); maybe &= maybe - 1
        kinds = 0
        for t in range(PAWN, KING + 1):
            if m.possible[t] & bb(sq):
                kinds += 1
        if m.possible[PAWN] & near & bb(sq):
            kinds += 4
        e += kinds * MX_AGE_WEIGHT[m.age[sq]]
    return e


cdef double mx_stalemates(const MxSearch* s, const Meta* m, const MxDensity* density, u64 attacked) noexcept nogil:
    """4.5.4: the chance (by the king's density, mx_chance) that the enemy king stands out of check
    with no square to go to -- stalemated, unless another of its men can move. A square holding an
    unprotected man of ours is one to go to; one that may hold an enemy pawn is not. The test leans
    to stalemate, as a stalemate throws a won game away: a king counts as out of check when a man of
    its own that may stand in the line would shield it (`attacked` passes through possible men: a
    stuck pawn or a pinned piece may block the one line thought to give check), and a pawn that may
    still stand on the square beside it (a6 or a7, the king on b7) may well be stuck there."""
    cdef u64 kings = m.possible[KING], shields = m.mine | ~m.empty, checked
    cdef int k, t
    cdef double total = 0.0, stalemated = 0.0, here
    for t in range(PAWN, KING):
        shields |= m.possible[t]
    checked = men_attacks(m.ours, m.us, shields, True)
    while kings:
        k = lsb(kings); kings &= kings - 1
        here = mx_chance(s, m, density, KING, k)
        total += here
        if not checked & bb(k) and not KING_ATTACKS[k] & ~attacked & ((m.empty & ~m.possible[PAWN]) | m.mine):
            stalemated += here
    return stalemated / total if total > 0.0 else 0.0


cdef double mx_eval(const MxSearch* s, const Meta* a, int move, bint took, bint checking,
                    double* stalemated) noexcept nogil:
    """The static value of metaposition `a`, our move `move` just made into it (4.5), a capture
    when `took`, a check when `checking`; `stalemated` gets the chance that the enemy is
    stalemated there."""
    cdef const MxWeights* w = &s.w
    cdef u64 blockers = a.mine | (~a.empty & ~a.mine), attacked = men_attacks(a.ours, a.us, blockers, True), b
    cdef MxDensity density
    cdef int t, sq, moved = (move >> 6) & 63, f, rank
    cdef double value = 0.0, d, worth, stake
    cdef bint heavy = (a.ours[QUEEN] | a.ours[ROOK]) != 0, protected
    cdef int enemy
    cdef double near, stuck, by_pawn
    mx_density(a, &density)
    for t in range(PAWN, KING + 1):
        b = a.ours[t]
        while b:
            sq = lsb(b); b &= b - 1
            stake = w.danger
            protected = (attacked & bb(sq)) != 0
            if sq == moved and took:        # the capture's square is announced: the enemy will try it
                d = mx_danger(s, a, &density, sq, blockers, True, protected, &by_pawn)
                stake = 1.0
            else:
                d = mx_danger(s, a, &density, sq, blockers, False, protected, &by_pawn)
                if sq == moved:             # the enemy has not had a move to see it leave
                    d = 1.0 - (1.0 - d) * (1.0 - d)
                    by_pawn = 1.0 - (1.0 - by_pawn) * (1.0 - by_pawn)
            if sq == moved and not protected and checking:
                # In check, the king takes the checker beside it whenever it can.
                near = popcount(KING_ATTACKS[sq] & a.possible[KING]) / <double> popcount(a.possible[KING])
                d = 1.0 - (1.0 - d) * (1.0 - near)
                stake = 1.0
            if protected:
                d *= 0.5
                by_pawn *= 0.5
            if t == KING:
                value -= w.king_danger * d
                # The king's open lines: every empty square a queen on it would see from there is
                # a square an enemy queen may one day check from (the fool's mate is such a line).
                value -= w.king_lines * min(1.0, s.root.mass[QUEEN]) * popcount(queen_attacks(sq, blockers) & ~a.mine)
                continue
            worth = MX_VALUE[t]
            if t == PAWN:
                rank = rank_of(sq) if a.us == WHITE else 7 - rank_of(sq)
                worth += MX_PAWN_ADVANCE[rank]
                if a.pawns_max[file_of(sq)] == 0:
                    worth += w.free_pawn
                if not heavy:
                    worth += w.pawn_reserve
            # A pawn's capture is no gamble (the enemy is told of its pawn tries): its share of the
            # danger puts the whole man at stake.
            value += worth * (1.0 - by_pawn - stake * (d - by_pawn))
    value += 100.0 * a.captured_pawns + w.captured_piece * a.captured_pieces
    if heavy or a.ours[PAWN] or popcount(a.ours[KNIGHT] | a.ours[BISHOP]) >= 2:
        value += w.mating
    for f in range(8):
        if a.pawns_max[f] == 0:
            value += w.open_file
    value += w.control * popcount(attacked & ~a.mine)
    value -= w.entropy * mx_entropy(a)
    enemy, stuck = mp_enemy_men(a), mx_pawns_stuck(s, a, &density)
    stalemated[0] = 0.0
    if enemy <= 3:      # the end is near: hunt the king as the bare-king search does
        value += w.hunt * mx_mating(a)
    if enemy <= 3 or stuck > 0.0:     # and never stalemate it
        d = mx_stalemates(s, a, &density, attacked)
        # Where only the king may move, any possible king stalemated counts (as in chapter 6).
        d = stuck * (1.0 if d > 0.0 else 0.0) + (1.0 - stuck) * (d if enemy <= 3 else 0.0)
        value -= w.stalemate * d
        stalemated[0] = d
    return value


cdef double mx_pawns_stuck(const MxSearch* s, const Meta* a, const MxDensity* density) noexcept nogil:
    """The chance that the enemy has no man but its king that can move: that no piece is left,
    times, file by file, the chance that no pawn there is free to move (by mx_chance) -- a pawn is
    stuck when the square ahead is surely taken (ours, or surely occupied) and none of our men is
    there to take. A bare king is surely stuck."""
    cdef u64 b
    cdef int sq, f, enemy = 1 - a.us
    cdef double stuck = 1.0, here, total, free
    # No piece is left when none may stand anywhere (mp_tidy also rules them all out when the pawns
    # surely on the board are all the men left besides the king); else at least as likely as the
    # root density's expected pieces say (the metaposition keeps a type possible while a promotion
    # may have made one, long after we took every piece).
    if a.possible[KNIGHT] | a.possible[BISHOP] | a.possible[ROOK] | a.possible[QUEEN]:
        stuck = 1.0 - min(1.0, s.root.mass[KNIGHT] + s.root.mass[BISHOP] + s.root.mass[ROOK] + s.root.mass[QUEEN])
        if stuck <= 0.0:
            return 0.0
    for f in range(8):
        b = a.possible[PAWN] & (FILE_A << f)
        total = free = 0.0
        while b:
            sq = lsb(b); b &= b - 1
            here = mx_chance(s, a, density, PAWN, sq)
            total += here
            if a.empty & ~a.mine & bb(sq + 8 if enemy == WHITE else sq - 8) or PAWN_ATTACKS[enemy][sq] & a.mine:
                free += here
        # The chance of a pawn free to move on this file: its share of the file's pawns, or, where
        # the file may hold no pawn at all, just its chance (a faint possibility is no free pawn).
        stuck *= 1.0 - free / max(1.0, total)
    return stuck


cdef double mx_mating(const Meta* a) noexcept nogil:
    """The bare-king search's mating terms for our men and the squares where the enemy king may
    stand (its other men, two at most, are left out)."""
    cdef EgNode n
    cdef int t
    for t in range(PAWN, KING + 1):
        n.men[t] = a.ours[t]
    n.men[0] = 0
    n.occ, n.kings, n.walls, n.us = a.mine, a.possible[KING], 0, a.us
    return eg_mating(&n, n.kings, eg_attacks(&n, True))


cdef inline bint mx_pseudo(const Meta* m, int move, bint capture, Meta* out) noexcept nogil:
    """4.4.2's umpire for our move: legal, silent but for a capture where one is sure (a square
    surely occupied, a pawn's diagonal step, a power move) -- of a pawn if one may stand there, else
    of a piece -- and no check. Whether it predicted a capture."""
    cdef int frm = move & 63, to = (move >> 6) & 63
    out[0] = m[0]
    if not m.empty & bb(to) or (m.ours[PAWN] & bb(frm) and file_of(frm) != file_of(to)):
        capture = True
    if capture:
        mp_our_move(out, frm, to, move >> 12, -1, -1, to, m.possible[PAWN] & bb(to) != 0, 0, -1)
    else:
        mp_our_move(out, frm, to, move >> 12, -1, -1, -1, False, 0, -1)
    return capture


cdef double mx_static(MxSearch* s, const Meta* m, int move, bint capture, Meta* after) noexcept nogil:
    """The static value of our `move` from `m`, `after` set to the metaposition it predicts. The
    prediction is silent, so it places the enemy king only where the move gives no check; but where
    the king may have stood in check, the referee will say so, and the king may take the checker:
    the value blends the silent world and the checking one by their shares of the possible kings."""
    cdef Meta checked
    cdef bint took = mx_pseudo(m, move, capture, after)
    cdef u64 kings = m.possible[KING] & ~after.mine & mp_sure_checks(after)
    cdef double value = mx_eval(s, after, move, took, False, &s.stalemated), share, checked_stalemated
    s.positions += 1
    ks_passed(&s.deadline, s.positions)     # the searches see s.deadline.passed and unwind
    if kings and after.ours[KING]:
        kings &= ~KING_ATTACKS[lsb(after.ours[KING])]
    if not kings:
        return value
    share = popcount(kings) / <double> popcount(kings | after.possible[KING])
    checked = after[0]
    checked.possible[KING] = kings
    checked.empty |= kings
    if popcount(kings) == 1:
        checked.empty &= ~kings
    value = (1.0 - share) * value + share * mx_eval(s, &checked, move, took, True, &checked_stalemated)
    s.stalemated = (1.0 - share) * s.stalemated + share * checked_stalemated
    return value


cdef double mx_refused(const MxSearch* s, const Meta* m, int move) noexcept nogil:
    """The chance that the referee refuses our pawn push `move`: an enemy man on a square it needs
    (the prediction lets it through as silent)."""
    cdef int frm = move & 63, to = (move >> 6) & 63, sq, t
    cdef u64 squares
    cdef MxDensity density
    cdef double free = 1.0, here
    if not m.ours[PAWN] & bb(frm) or file_of(frm) != file_of(to):
        return 0.0
    squares = (bb(to) | BETWEEN[frm][to]) & mp_maybe_enemy(m)
    if not squares:
        return 0.0
    mx_density(m, &density)
    while squares:
        sq = lsb(squares); squares &= squares - 1
        here = 0.0
        for t in range(PAWN, KING + 1):
            if m.possible[t] & bb(sq):
                here += mx_chance(s, m, &density, t, sq)
        free *= 1.0 - min(1.0, here)
    return 1.0 - free


cdef inline void mx_meta(const Meta* m, Meta* out) noexcept nogil:
    """4.4.2's umpire for the enemy's move: no capture, no check."""
    out[0] = m[0]
    mp_their_move(out, -1, False, 0, -1)


cdef double mx_value(MxSearch* s, const Meta* m, int move, bint capture, int depth) noexcept nogil:
    """Figure 4.6: our `move` from `m` and the line of our moves after it, `depth` moves of ours in
    all (the thesis's default depth level 2: this move and the next), every one searched."""
    cdef Meta after, next_
    cdef int moves[MX_MAX_MOVES]
    cdef double values[MX_MAX_MOVES]
    cdef int count, i
    cdef double static, stalemated
    static = mx_static(s, m, move, capture, &after)
    stalemated = s.stalemated
    if depth <= 1 or s.deadline.passed:
        return static
    mx_meta(&after, &next_)
    count = mp_generate(&next_, moves, False)
    if count == 0:
        return static
    for i in range(count):
        values[i] = mx_value(s, &next_, moves[i], False, depth - 1)
        if s.deadline.passed:       # the root throws this search away
            return static
    return mx_blend(s, static, stalemated, mx_best(s, &next_, moves, values, count, static))


cdef inline double mx_blend(const MxSearch* s, double static, double stalemated, double best) noexcept nogil:
    """A line's value: alpha * its first move's static value + (1 - alpha) * the best line after it
    -- but a stalemate ends the game, so as often as the move may stalemate there is no line after
    it (unchecked, the promise of the next move outweighs the stalemate's cost)."""
    return s.w.alpha * static + (1.0 - s.w.alpha) * ((1.0 - stalemated) * best + stalemated * static)


cdef double mx_best(const MxSearch* s, const Meta* m, const int* moves, const double* values, int count,
                    double otherwise) noexcept nogil:
    """The best of our `moves` from `m`, valued `values`, below the root: a pawn push the referee
    may refuse (mx_refused) is worth its line only that often, and else what the best sure move
    is (or `otherwise` when every move may be refused). Unchecked, the search walks pawns through
    the enemy's unmoved ones to promote."""
    cdef double refused[MX_MAX_MOVES]
    cdef double sure = -1e18, best
    cdef int i
    for i in range(count):
        refused[i] = mx_refused(s, m, moves[i])
        if refused[i] == 0.0 and values[i] > sure:
            sure = values[i]
    if sure == -1e18:
        sure = otherwise
    best = sure
    for i in range(count):
        if refused[i] > 0.0:
            best = max(best, (1.0 - refused[i]) * values[i] + refused[i] * sure)
    return best


cdef void mx_sort(int* moves, double* keys, int count) noexcept nogil:
    """Best (highest key) first; insertion sort, as the lists are short."""
    cdef int i, j, m
    cdef double k
    for i in range(1, count):
        m = moves[i]; k = keys[i]; j = i - 1
        while j >= 0 and keys[j] < k:
            moves[j + 1] = moves[j]; keys[j + 1] = keys[j]; j -= 1
        moves[j + 1] = m; keys[j + 1] = k


cdef double mx_value2(MxSearch* s, const Meta* m, int move, bint capture, double budget) noexcept nogil:
    """Figure 4.7: our `move` from `m`, then the enemy's move, then the best few of our moves (by
    the killer table), the metapositions left in `budget` split among them."""
    cdef Meta after, next_, child
    cdef int moves[MX_MAX_MOVES]
    cdef int fresh[MX_MAX_MOVES]
    cdef int known[MX_MAX_MOVES]
    cdef double fresh_key[MX_MAX_MOVES]
    cdef double known_key[MX_MAX_MOVES]
    cdef double values[MX_MAX_MOVES]
    cdef int count, i, x, n_fresh = 0, n_known = 0, n_selected
    cdef double static, stalemated
    static = mx_static(s, m, move, capture, &after)
    stalemated = s.stalemated
    if budget <= 1.0 or s.deadline.passed:
        return static
    mx_meta(&after, &next_)
    count = mp_generate(&next_, moves, False)
    for i in range(count):
        x = moves[i]
        if s.seen[x] == s.stamp:
            known[n_known] = x; known_key[n_known] = s.gain[x]; n_known += 1
        else:
            s.gain[x] = mx_static(s, &next_, x, False, &child) - static
            s.seen[x] = s.stamp
            fresh[n_fresh] = x; fresh_key[n_fresh] = s.gain[x]; n_fresh += 1
    if s.deadline.passed:           # the root throws this search away
        return static
    budget -= n_fresh
    mx_sort(fresh, fresh_key, n_fresh)
    mx_sort(known, known_key, n_known)
    if n_fresh > s.new_moves:
        n_fresh = s.new_moves
    if n_known > s.old_moves:
        n_known = s.old_moves
    n_selected = n_fresh + n_known
    if n_selected == 0:
        return static
    budget /= n_selected
    for i in range(n_selected):
        moves[i] = fresh[i] if i < n_fresh else known[i - n_fresh]
        values[i] = mx_value2(s, &next_, moves[i], False, budget)
        if s.deadline.passed:
            return static
    return mx_blend(s, static, stalemated, mx_best(s, &next_, moves, values, n_selected, static))


cdef enum:
    MX_CHECK_EVERY = 32     # metapositions between two clock reads: some 0.15 ms (see ks_passed)


cdef int mx_iteration(MxSearch* s, const Meta* m, const int* moves, const bint* capture, int n, bint shallow,
                      double positions, int depth, bint must_finish, double* value) noexcept nogil:
    """One whole search of `moves` (the enhanced one sharing `positions`, or the basic one `depth`
    deep): the index of the best, its value in `value`; -1 when the deadline cut it short, unless
    `must_finish` (a search of static values only, which always ends soon)."""
    cdef int i, best = -1
    cdef double v
    s.stamp += 1            # a fresh killer table: each search is the search at its budget
    value[0] = -1e18
    for i in range(n):
        if shallow:
            v = mx_value(s, m, moves[i], capture[i], depth)
        else:
            v = mx_value2(s, m, moves[i], capture[i], positions / n)
        if s.deadline.passed and not must_finish:
            return -1
        if v > value[0]:
            value[0], best = v, i
    return best


cdef int mx_timed(MxSearch* s, const Meta* m, const int* moves, const bint* capture, int n, bint shallow,
                  long positions, int depth, double* value) noexcept nogil:
    """Iterative deepening within s.deadline: every move's static value first (it always
    finishes), then the basic search one move deeper each time up to `depth`, or the enhanced one
    with twice the metapositions each time up to `positions` (0: no limit). The best move of the
    last search that finished. An enhanced search is not begun when, at twice the last one's time,
    it would not finish: that time is left to the next try."""
    cdef int best = mx_iteration(s, m, moves, capture, n, shallow, n, 1, True, value), found
    cdef int level = 1
    cdef double budget = n, found_value, started, took
    while not s.deadline.passed:
        if shallow:
            if level >= depth:
                break
            level += 1
        else:
            if positions > 0 and budget >= positions:
                break
            budget = 2.0 * budget if positions <= 0 else min(2.0 * budget, <double> positions)
        started = ks_now()
        found = mx_iteration(s, m, moves, capture, n, shallow, budget, level, False, &found_value)
        if found < 0:
            break
        best, value[0] = found, found_value
        took = ks_now() - started
        if not shallow and ks_now() + 2.0 * took > s.deadline.at:
            break
    return best


cdef class Maximax:
    """Darkboard 1.0's search over a MetaCore (pyrope.kriegspiel.maximax.MaximaxPlayer is its face).

    best(core, moves, captures, shallow, positions, depth, seconds): the best of `moves` (packed
    from | to << 6 | promotion << 12) from `core`'s metaposition; `captures` flags the power moves
    among them, searched as captures. shallow: the basic search, `depth` moves of ours deep; else
    the enhanced search with `positions` metapositions shared among the moves. With `seconds` (a
    time limit) the search deepens iteratively until the time is up (mx_timed): `positions`, if
    not None, then caps the enhanced search. Returns (move, value), or None when `moves` is empty;
    `positions` then holds how many metapositions it evaluated.
    """
    cdef MxSearch* s

    def __cinit__(self):
        self.s = <MxSearch*> PyMem_Malloc(sizeof(MxSearch))
        if self.s == NULL:
            raise MemoryError()
        memset(self.s, 0, sizeof(MxSearch))

    def __dealloc__(self):
        PyMem_Free(self.s)

    def __init__(self, double alpha=0.5, int new_moves=5, int old_moves=3, double danger=0.6,
                 double king_danger=200.0, double captured_piece=350.0, double control=1.5,
                 double open_file=4.0, double free_pawn=15.0, double entropy=2.0, double stalemate=1500.0, double hunt=1.0,
                 double mating=500.0, double pawn_reserve=100.0, double pawn_threat=1.7, double king_lines=4.0):
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"the risk coefficient alpha must lie strictly between 0 and 1, not {alpha}")
        if new_moves < 0 or old_moves < 0 or new_moves + old_moves == 0:
            raise ValueError("new_moves and old_moves must be >= 0, one of them > 0")
        self.s.w.alpha, self.s.new_moves, self.s.old_moves = alpha, new_moves, old_moves
        self.s.w.danger, self.s.w.king_danger, self.s.w.captured_piece = danger, king_danger, captured_piece
        self.s.w.control, self.s.w.open_file, self.s.w.free_pawn = control, open_file, free_pawn
        self.s.w.entropy, self.s.w.stalemate, self.s.w.hunt = entropy, stalemate, hunt
        self.s.w.mating, self.s.w.pawn_reserve = mating, pawn_reserve
        self.s.w.pawn_threat, self.s.w.king_lines = pawn_threat, king_lines

    @property
    def positions(self):
        return self.s.positions

    @property
    def stalemated(self):
        """The chance of a stalemate the last evaluate() saw (for tests)."""
        return self.s.stalemated

    def evaluate(self, MetaCore core, int move, bint took=False):
        """The static value of `core`'s metaposition, `move` (a capture when `took`) just made
        into it (for tests)."""
        self.s.root = &core.d
        self.s.prior = 1.0 / max(1, mp_enemy_men(&core.m))
        return mx_eval(self.s, &core.m, move, took, False, &self.s.stalemated)

    def pseudo(self, MetaCore core, int move, bint capture=False):
        """A MetaCore evolved by our `move` as the umpire prediction has it (for tests)."""
        cdef MetaCore after = MetaCore.__new__(MetaCore)
        mx_pseudo(&core.m, move, capture, &after.m)
        after.d = core.d
        return after

    def best(self, MetaCore core, moves, captures, bint shallow, positions=5000, int depth=2, seconds=None):
        cdef int n = len(moves), i, best_index
        cdef int* packed
        cdef bint* capture
        cdef double best_value, limit = ks_seconds(seconds)
        cdef long budget = 0 if positions is None else positions
        if n == 0:
            return None
        if (positions is None and seconds is None) or (positions is not None and positions < 1) or depth < 1:
            raise ValueError("positions (or, with seconds, None) and depth must be >= 1")
        packed = <int*> PyMem_Malloc(n * sizeof(int))
        capture = <bint*> PyMem_Malloc(n * sizeof(bint))
        if packed == NULL or capture == NULL:
            PyMem_Free(packed); PyMem_Free(capture)
            raise MemoryError()
        try:
            for i in range(n):
                packed[i] = moves[i]
                capture[i] = bool(captures[i])
                if not 0 <= packed[i] < MX_TABLE:
                    raise ValueError(f"bad move {packed[i]}")
            self.s.positions = 0
            self.s.root = &core.d
            self.s.prior = 1.0 / max(1, mp_enemy_men(&core.m))
            with nogil:
                ks_start(&self.s.deadline, limit, MX_CHECK_EVERY)
                if limit < 0.0:
                    best_index = mx_iteration(self.s, &core.m, packed, capture, n, shallow, budget, depth,
                                              True, &best_value)
                else:
                    best_index = mx_timed(self.s, &core.m, packed, capture, n, shallow, budget, depth, &best_value)
                ks_start(&self.s.deadline, -1.0, MX_CHECK_EVERY)    # evaluate() and pseudo() keep no limit
            return packed[best_index], best_value
        finally:
            PyMem_Free(packed)
            PyMem_Free(capture)
