# Static evaluation: a tapered (middlegame/endgame) hand-crafted evaluation in centipawns from
# the side to move's point of view. Every weight lives in the one PARAMS table so that a tuner
# can read and write them all by name; the hot code is nogil C that indexes PARAMS through the
# named offsets below. Pawn-structure terms depend on pawns only and are cached in a per-thread
# PawnTable that the caller owns.

import os
import re

from libc.stdlib cimport calloc, malloc

# ---------------------------------------------------------------------------------------------
# The parameter table. "Pair" parameters take two slots, mg at the offset and eg right after it;
# the Python name list (built by _param_names below, in the same order) names every slot.
# ---------------------------------------------------------------------------------------------

cdef enum:
    P_MATERIAL = 0                          # pairs for PAWN..QUEEN
    P_PST = P_MATERIAL + 5 * 2              # pairs for PAWN..KING x 64 squares (white's view)
    P_MOB_KNIGHT = P_PST + 6 * 64 * 2       # mobility pairs by number of safe squares: 0..8
    P_MOB_BISHOP = P_MOB_KNIGHT + 9 * 2     # 0..13
    P_MOB_ROOK = P_MOB_BISHOP + 14 * 2      # 0..14
    P_MOB_QUEEN = P_MOB_ROOK + 15 * 2       # 0..27
    P_DOUBLED = P_MOB_QUEEN + 28 * 2        # a pawn with an own pawn in front of it
    P_ISOLATED = P_DOUBLED + 2
    P_BACKWARD = P_ISOLATED + 2
    P_ISLAND = P_BACKWARD + 2               # per group of adjacent files holding own pawns
    P_PHALANX = P_ISLAND + 2                # pairs by relative rank 0..7: pawn beside an own pawn
    P_SUPPORTED = P_PHALANX + 8 * 2         # by relative rank: pawn defended by an own pawn
    P_PASSED = P_SUPPORTED + 8 * 2          # by relative rank
    P_PASSED_OWN_KING = P_PASSED + 8 * 2    # x king distance to the stop square x (rank - 2)
    P_PASSED_ENEMY_KING = P_PASSED_OWN_KING + 2
    P_UNSTOPPABLE = P_PASSED_ENEMY_KING + 2  # rule of the square against a bare king (+ pawns)
    P_SHIELD = P_UNSTOPPABLE + 2            # by relative rank of own shield pawn (0 = none)
    P_STORM = P_SHIELD + 8 * 2              # by relative rank of the enemy storm pawn (0 = none)
    P_KING_DANGER = P_STORM + 8 * 2         # mg: x units^2 / 256, eg: x units / 16
    P_BISHOP_PAIR = P_KING_DANGER + 2
    P_ROOK_OPEN = P_BISHOP_PAIR + 2
    P_ROOK_SEMIOPEN = P_ROOK_OPEN + 2
    P_ROOK_SEVENTH = P_ROOK_SEMIOPEN + 2
    P_OUTPOST = P_ROOK_SEVENTH + 2          # pairs for KNIGHT, BISHOP
    P_THREAT_PAWN = P_OUTPOST + 2 * 2       # piece attacked by an enemy pawn
    P_HANGING = P_THREAT_PAWN + 2           # piece attacked and not defended
    P_THREAT_LESSER = P_HANGING + 2         # rook/queen attacked by a lesser piece
    P_TEMPO = P_THREAT_LESSER + 2
    # Single-slot parameters from here on.
    P_KING_ATTACK_WEIGHT = P_TEMPO + 2      # danger units per zone attacker: KNIGHT..QUEEN
    P_SAFE_CHECK = P_KING_ATTACK_WEIGHT + 4  # danger units for a safe check: KNIGHT..QUEEN
    P_KING_ZONE_ATTACK = P_SAFE_CHECK + 4   # danger units per attacked king-zone square
    P_SCALE_OCB = P_KING_ZONE_ATTACK + 1    # scale factors, out of 64, applied to eg
    P_SCALE_OCB_PASSER = P_SCALE_OCB + 1
    P_SCALE_OCB_PIECES = P_SCALE_OCB_PASSER + 1
    P_SCALE_MINOR_ADV = P_SCALE_OCB_PIECES + 1
    P_SCALE_KNNK = P_SCALE_MINOR_ADV + 1
    P_SCALE_WRONG_BISHOP = P_SCALE_KNNK + 1
    N_PARAMS = P_SCALE_WRONG_BISHOP + 1

cdef int PARAMS[N_PARAMS]
# Bumped whenever PARAMS change, so that pawn tables notice their cached scores are stale.
cdef int PARAMS_GENERATION = 0

# Terms reported by Board.eval_terms(); evaluate() sums them.
cdef enum:
    T_MATERIAL = 0
    T_PSQT
    T_MOBILITY
    T_PAWNS
    T_PASSED
    T_KING
    T_PIECES
    T_THREATS
    T_TEMPO
    N_TERMS

TERM_NAMES = ("material", "psqt", "mobility", "pawns", "passed", "king_safety", "pieces",
              "threats", "tempo")

cdef enum:
    MAX_PHASE = 24      # PeSTO: knight and bishop 1, rook 2, queen 4
    SCALE_NORMAL = 64

cdef struct Score:
    int mg
    int eg

cdef inline void add_param(Score* s, int index, int times) noexcept nogil:
    s.mg += PARAMS[index] * times
    s.eg += PARAMS[index + 1] * times

# Material plus piece-square value of each piece (index: piece = colour << 3 | type) on each
# square, negated for black. Derived from PARAMS by build_psq() whenever they change.
cdef Score PSQ[16][64]

cdef void build_psq() noexcept nogil:
    cdef int c, pt, sq, sign, index
    for c in range(2):
        sign = 1 - 2 * c
        for pt in range(PAWN, KING + 1):
            for sq in range(64):
                # Black reads white's table through the vertical flip.
                index = P_PST + 2 * (64 * (pt - PAWN) + (sq ^ (56 * c)))
                PSQ[make_piece(c, pt)][sq].mg = sign * PARAMS[index]
                PSQ[make_piece(c, pt)][sq].eg = sign * PARAMS[index + 1]
                if pt != KING:
                    PSQ[make_piece(c, pt)][sq].mg += sign * PARAMS[P_MATERIAL + 2 * (pt - PAWN)]
                    PSQ[make_piece(c, pt)][sq].eg += sign * PARAMS[P_MATERIAL + 2 * (pt - PAWN) + 1]

# ---------------------------------------------------------------------------------------------
# Masks built once at import.
# ---------------------------------------------------------------------------------------------

cdef u64 FILE_BB[8]
cdef u64 RANK_BB[8]
cdef u64 ADJACENT_FILES[8]
cdef u64 FORWARD_FILE[2][64]        # squares in front of sq on its file, from colour's view
cdef u64 PAWN_ATTACK_SPAN[2][64]    # squares on adjacent files strictly in front of sq
cdef u64 PASSED_MASK[2][64]         # enemy pawns here stop a pawn on sq from being passed
cdef u64 NOT_BEHIND[2][8]           # the given rank and every rank in front of it
cdef int DISTANCE[64][64]           # king steps between two squares
cdef int MOBILITY_BASE[7]
cdef u64 DARK_SQUARES = 0xAA55AA55AA55AA55ULL

cdef void init_evaluation() noexcept nogil:
    cdef int sq, s2, f, c, df, dr
    cdef u64 ahead
    for f in range(8):
        FILE_BB[f] = FILE_A << f
        RANK_BB[f] = RANK_1 << (8 * f)
    for f in range(8):
        ADJACENT_FILES[f] = (FILE_BB[f - 1] if f > 0 else 0) | (FILE_BB[f + 1] if f < 7 else 0)
    for sq in range(64):
        for c in range(2):
            ahead = 0
            for s2 in range(64):
                if (rank_of(s2) > rank_of(sq)) if c == WHITE else (rank_of(s2) < rank_of(sq)):
                    ahead |= bb(s2)
            FORWARD_FILE[c][sq] = ahead & FILE_BB[file_of(sq)]
            PAWN_ATTACK_SPAN[c][sq] = ahead & ADJACENT_FILES[file_of(sq)]
            PASSED_MASK[c][sq] = FORWARD_FILE[c][sq] | PAWN_ATTACK_SPAN[c][sq]
        for s2 in range(64):
            df = file_of(sq) - file_of(s2)
            dr = rank_of(sq) - rank_of(s2)
            DISTANCE[sq][s2] = max(df if df > 0 else -df, dr if dr > 0 else -dr)
    for c in range(2):
        for f in range(8):
            NOT_BEHIND[c][f] = 0
            for s2 in range(8):
                if (s2 >= f) if c == WHITE else (s2 <= f):
                    NOT_BEHIND[c][f] |= RANK_BB[s2]
    MOBILITY_BASE[KNIGHT] = P_MOB_KNIGHT
    MOBILITY_BASE[BISHOP] = P_MOB_BISHOP
    MOBILITY_BASE[ROOK] = P_MOB_ROOK
    MOBILITY_BASE[QUEEN] = P_MOB_QUEEN

cdef inline int relative_rank(int color, int sq) noexcept nogil:
    return rank_of(sq) ^ (7 * color)

cdef inline u64 pawn_attacks_bb(u64 pawns, int color) noexcept nogil:
    if color == WHITE:
        return ((pawns & ~FILE_A) << 7) | ((pawns & ~FILE_H) << 9)
    return ((pawns & ~FILE_A) >> 9) | ((pawns & ~FILE_H) >> 7)

cdef inline int backmost_square(int color, u64 b) noexcept nogil:
    # The square of b nearest to colour's own back rank.
    return lsb(b) if color == WHITE else msb(b)

cdef inline u64 piece_attacks(int piece_type, int sq, u64 occ) noexcept nogil:
    if piece_type == KNIGHT:
        return KNIGHT_ATTACKS[sq]
    if piece_type == BISHOP:
        return bishop_attacks(sq, occ)
    if piece_type == ROOK:
        return rook_attacks(sq, occ)
    return queen_attacks(sq, occ)

cdef inline int non_pawn_material(Position* p, int color) noexcept nogil:
    return p.material[color] - PIECE_VALUE[PAWN] * p.count[make_piece(color, PAWN)]

# ---------------------------------------------------------------------------------------------
# Pawn hash table: one per search thread, owned by the caller. An entry is valid when its stored
# pawn bitboards equal the position's, so collisions cannot return a wrong entry.
# ---------------------------------------------------------------------------------------------

cdef struct PawnEntry:
    # Exactly one 64-byte cache line (the table is line-aligned), so a probe costs one miss.
    u64 pawns[2]
    u64 passed              # passed pawns of both sides (pawns[] tells whose)
    int mg[2]
    int eg[2]
    Score shelter[2]
    signed char shelter_ksq[2]      # king square the shelter was computed for (-1: none yet)
    unsigned char open_files[2]     # bit f set when the side has no pawn on file f
    char padding[4]

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef struct PawnTable:
    PawnEntry* entries
    u64 mask                # entries - 1 (a power of two less one)
    int generation          # PARAMS_GENERATION the entries were computed with

cdef void pawn_table_clear(PawnTable* pt) noexcept nogil:
    cdef u64 i
    for i in range(pt.mask + 1):
        # Pawns on every square never occur, so this marks the entry empty.
        pt.entries[i].pawns[0] = pt.entries[i].pawns[1] = ~0ULL
    pt.generation = PARAMS_GENERATION

cdef int pawn_table_init(PawnTable* pt, int log2_entries) noexcept nogil:
    """Allocate 2**log2_entries entries; 0 on success, -1 when out of memory."""
    cdef void* memory
    if posix_memalign(&memory, 64, (1ULL << log2_entries) * sizeof(PawnEntry)) != 0:
        pt.entries = NULL
        return -1
    pt.entries = <PawnEntry*>memory
    pt.mask = (1ULL << log2_entries) - 1
    pawn_table_clear(pt)
    return 0

cdef void pawn_table_free(PawnTable* pt) noexcept nogil:
    free(pt.entries)
    pt.entries = NULL

cdef void evaluate_pawns(PawnEntry* e, int us) noexcept nogil:
    """Structure terms of one side's pawns, its passed pawns and its pawnless files."""
    cdef int them = us ^ 1, up = 8 if us == WHITE else -8
    cdef u64 ours = e.pawns[us], theirs = e.pawns[them], b = ours, adjacent, files
    cdef int sq, r
    cdef Score s
    s.mg = s.eg = 0
    while b:
        sq = lsb(b)
        b &= b - 1
        r = relative_rank(us, sq)
        adjacent = ADJACENT_FILES[file_of(sq)]
        if FORWARD_FILE[us][sq] & ours:
            add_param(&s, P_DOUBLED, 1)
        if not (ours & adjacent):
            add_param(&s, P_ISOLATED, 1)
        elif not (ours & PAWN_ATTACK_SPAN[them][sq + up]) \
                and (PAWN_ATTACKS[us][sq + up] | bb(sq + up)) & theirs:
            # No own pawn beside or behind can ever guard it, and its advance is stopped.
            add_param(&s, P_BACKWARD, 1)
        if ours & adjacent & RANK_BB[rank_of(sq)]:
            add_param(&s, P_PHALANX + 2 * r, 1)
        if PAWN_ATTACKS[them][sq] & ours:
            add_param(&s, P_SUPPORTED + 2 * r, 1)
        if not (theirs & PASSED_MASK[us][sq]) and not (ours & FORWARD_FILE[us][sq]):
            e.passed |= bb(sq)
            add_param(&s, P_PASSED + 2 * r, 1)
    # Fold the pawns onto one rank: bit f set when file f holds a pawn.
    files = ours | (ours >> 32)
    files |= files >> 16
    files |= files >> 8
    files &= 0xFF
    add_param(&s, P_ISLAND, popcount(files & ~(files << 1)))
    e.open_files[us] = <unsigned char>(~files & 0xFF)
    e.mg[us] = s.mg
    e.eg[us] = s.eg

cdef inline u64 pawn_hash(Position* p) noexcept nogil:
    """A hash of both sides' pawns whose low bits index tables (this one, the search's pawn
    correction history)."""
    cdef u64 white = pieces(p, WHITE, PAWN), black = pieces(p, BLACK, PAWN)
    cdef u64 h = (white * 0x9E3779B97F4A7C15ULL) ^ ((black ^ (black >> 31)) * 0xC2B2AE3D27D4EB4FULL)
    # A product's low bits depend only on the factors' low bits: fold the high half down.
    return h ^ (h >> 32)

cdef PawnEntry* probe_pawns(Position* p, PawnTable* pt) noexcept nogil:
    cdef u64 white = pieces(p, WHITE, PAWN), black = pieces(p, BLACK, PAWN)
    cdef PawnEntry* e
    if pt.generation != PARAMS_GENERATION:
        pawn_table_clear(pt)
    e = &pt.entries[pawn_hash(p) & pt.mask]
    if e.pawns[WHITE] == white and e.pawns[BLACK] == black:
        return e
    e.pawns[WHITE] = white
    e.pawns[BLACK] = black
    e.shelter_ksq[WHITE] = e.shelter_ksq[BLACK] = -1
    e.passed = 0
    evaluate_pawns(e, WHITE)
    evaluate_pawns(e, BLACK)
    return e

# ---------------------------------------------------------------------------------------------
# Endgame scaling: how much of the eg score the stronger side keeps (out of 64).
# ---------------------------------------------------------------------------------------------

cdef int scale_factor(Position* p, PawnEntry* e, int strong) noexcept nogil:
    cdef int weak = strong ^ 1
    cdef int npm_strong = non_pawn_material(p, strong), npm_weak = non_pawn_material(p, weak)
    cdef u64 strong_pawns = pieces(p, strong, PAWN), bishops = p.by_type[BISHOP]
    cdef u64 strong_bishops = pieces(p, strong, BISHOP)
    cdef int queening
    if not strong_pawns:
        # Without pawns a minor piece's worth of advantage does not win (KNK, KBK, KRKB, ...).
        if npm_strong - npm_weak <= PIECE_VALUE[BISHOP]:
            return 0 if npm_strong < PIECE_VALUE[ROOK] else PARAMS[P_SCALE_MINOR_ADV]
        # Two knights cannot force mate against a bare king.
        if (p.by_color[strong] & ~p.by_type[KING]) == pieces(p, strong, KNIGHT) \
                and npm_strong == 2 * PIECE_VALUE[KNIGHT] and not pieces(p, weak, PAWN):
            return PARAMS[P_SCALE_KNNK]
    # Bishop and rook pawns whose queening square the bishop does not cover: the defending king
    # in that corner cannot be driven out.
    if npm_strong == PIECE_VALUE[BISHOP] and strong_bishops and strong_pawns \
            and (not (strong_pawns & ~FILE_A) or not (strong_pawns & ~FILE_H)):
        queening = file_of(lsb(strong_pawns)) + (56 if strong == WHITE else 0)
        if (not (strong_bishops & DARK_SQUARES)) != (not (bb(queening) & DARK_SQUARES)) \
                and DISTANCE[king_square(p, weak)][queening] <= 1:
            return PARAMS[P_SCALE_WRONG_BISHOP]
    # Opposite-coloured bishops: hard to win even pawns up, hardest with nothing else on board.
    if p.count[make_piece(strong, BISHOP)] == 1 and p.count[make_piece(weak, BISHOP)] == 1 \
            and (bishops & DARK_SQUARES) and (bishops & ~DARK_SQUARES):
        if npm_strong == PIECE_VALUE[BISHOP] and npm_weak == PIECE_VALUE[BISHOP]:
            return PARAMS[P_SCALE_OCB] + PARAMS[P_SCALE_OCB_PASSER] * popcount(e.passed & strong_pawns)
        return PARAMS[P_SCALE_OCB_PIECES]
    return SCALE_NORMAL

# ---------------------------------------------------------------------------------------------
# The evaluation.
# ---------------------------------------------------------------------------------------------

cdef struct EvalInfo:
    Score terms[N_TERMS]        # white minus black, by term
    PawnEntry* e
    u64 occ
    u64 pawn_attacks[2]
    u64 attacked[2][7]          # [colour][piece type]; index 0 = by anything
    u64 king_zone[2]
    int attackers[2]            # pieces attacking the zone, indexed by the king's colour
    int danger[2]               # king danger units, indexed by the king's colour
    int ksq[2]


cdef inline void evaluate_pieces(EvalInfo* ei, Position* p, int us, int piece_type) noexcept nogil:
    """Mobility, king-zone attacks, outposts and rook files of one kind of piece; records its
    attacks. Called with a constant piece_type, so each call inlines to straight-line code."""
    cdef int them = us ^ 1, sign = 1 - 2 * us, sq, r, f
    cdef u64 b = pieces(p, us, piece_type), att, all_att = 0
    cdef u64 mobility_area = ~(p.by_color[us] | ei.pawn_attacks[them])
    cdef Score* pieces_term = &ei.terms[T_PIECES]
    while b:
        sq = lsb(b)
        b &= b - 1
        att = piece_attacks(piece_type, sq, ei.occ)
        all_att |= att
        add_param(&ei.terms[T_MOBILITY], MOBILITY_BASE[piece_type] + 2 * popcount(att & mobility_area), sign)
        if att & ei.king_zone[them]:
            ei.attackers[them] += 1
            ei.danger[them] += PARAMS[P_KING_ATTACK_WEIGHT + piece_type - KNIGHT] \
                + PARAMS[P_KING_ZONE_ATTACK] * popcount(att & ei.king_zone[them])
        r = relative_rank(us, sq)
        if piece_type == KNIGHT or piece_type == BISHOP:
            # Outpost: guarded by an own pawn and out of reach of every enemy pawn.
            if 3 <= r <= 5 and (ei.pawn_attacks[us] & bb(sq)) and not (PAWN_ATTACK_SPAN[us][sq] & pieces(p, them, PAWN)):
                add_param(pieces_term, P_OUTPOST + 2 * (piece_type - KNIGHT), sign)
        elif piece_type == ROOK:
            f = 1 << file_of(sq)
            if ei.e.open_files[us] & f:
                add_param(pieces_term, P_ROOK_OPEN if ei.e.open_files[them] & f else P_ROOK_SEMIOPEN, sign)
            # On the seventh it cuts off the king or eats pawns.
            if r == 6 and (relative_rank(us, ei.ksq[them]) == 7 or (pieces(p, them, PAWN) & RANK_BB[rank_of(sq)]) != 0):
                add_param(pieces_term, P_ROOK_SEVENTH, sign)
    ei.attacked[us][piece_type] = all_att
    ei.attacked[us][0] |= all_att


cdef inline void king_shelter(PawnEntry* e, Position* p, int us, int ksq) noexcept nogil:
    """Own pawns in front of the king and enemy pawns storming at it, on the king's file and its
    neighbours (pawns behind the king do not count). Depends on pawns and king square only, so
    the pawn entry keeps it until the king moves."""
    cdef int them = us ^ 1, f, r
    cdef u64 front = NOT_BEHIND[us][rank_of(ksq)], b
    cdef Score s
    s.mg = s.eg = 0
    for f in range(max(file_of(ksq) - 1, 0), min(file_of(ksq) + 1, 7) + 1):
        b = e.pawns[us] & front & FILE_BB[f]
        r = relative_rank(us, backmost_square(us, b)) if b else 0
        add_param(&s, P_SHIELD + 2 * r, 1)
        b = e.pawns[them] & front & FILE_BB[f]
        r = relative_rank(us, backmost_square(us, b)) if b else 0
        add_param(&s, P_STORM + 2 * r, 1)
    e.shelter_ksq[us] = ksq
    e.shelter[us] = s


cdef inline void evaluate_king(EvalInfo* ei, Position* p, int us) noexcept nogil:
    """Shelter, and danger from attacks on us's king zone and safe checks once the attack is
    serious (two attackers, or one with a queen on the board)."""
    cdef int them = us ^ 1, sign = 1 - 2 * us, ksq = ei.ksq[us], units
    cdef u64 safe, bishop_checks, rook_checks
    if ei.e.shelter_ksq[us] != ksq:
        king_shelter(ei.e, p, us, ksq)
    ei.terms[T_KING].mg += sign * ei.e.shelter[us].mg
    ei.terms[T_KING].eg += sign * ei.e.shelter[us].eg
    if ei.attackers[us] <= 1 - p.count[make_piece(them, QUEEN)]:
        return
    units = ei.danger[us]
    safe = ~p.by_color[them] & ~ei.attacked[us][0]
    bishop_checks = bishop_attacks(ksq, ei.occ) & safe
    rook_checks = rook_attacks(ksq, ei.occ) & safe
    if KNIGHT_ATTACKS[ksq] & safe & ei.attacked[them][KNIGHT]:
        units += PARAMS[P_SAFE_CHECK]
    if bishop_checks & ei.attacked[them][BISHOP]:
        units += PARAMS[P_SAFE_CHECK + 1]
    if rook_checks & ei.attacked[them][ROOK]:
        units += PARAMS[P_SAFE_CHECK + 2]
    if (bishop_checks | rook_checks) & ei.attacked[them][QUEEN]:
        units += PARAMS[P_SAFE_CHECK + 3]
    units = max(0, min(units, 100))
    ei.terms[T_KING].mg -= sign * (units * units * PARAMS[P_KING_DANGER] / 256)
    ei.terms[T_KING].eg -= sign * (units * PARAMS[P_KING_DANGER + 1] / 16)


cdef inline void evaluate_threats(EvalInfo* ei, Position* p, int us) noexcept nogil:
    """Threats by us against them's pieces (kings excluded)."""
    cdef int them = us ^ 1, sign = 1 - 2 * us
    cdef u64 targets = p.by_color[them] & ~p.by_type[KING]
    cdef u64 lesser = ((ei.attacked[us][KNIGHT] | ei.attacked[us][BISHOP]) & (p.by_type[ROOK] | p.by_type[QUEEN])) \
        | (ei.attacked[us][ROOK] & p.by_type[QUEEN])
    add_param(&ei.terms[T_THREATS], P_THREAT_PAWN, sign * popcount(ei.pawn_attacks[us] & targets & ~p.by_type[PAWN]))
    add_param(&ei.terms[T_THREATS], P_HANGING, sign * popcount(targets & ei.attacked[us][0] & ~ei.attacked[them][0]))
    add_param(&ei.terms[T_THREATS], P_THREAT_LESSER, sign * popcount(lesser & targets))


cdef inline void evaluate_passed(EvalInfo* ei, Position* p, int us) noexcept nogil:
    """King proximity to each passed pawn's stop square, which matters more the further the
    pawn is, and the rule of the square against a king without pieces."""
    cdef int them = us ^ 1, sign = 1 - 2 * us, sq, r, stop, queening, moves
    cdef u64 b = ei.e.passed & ei.e.pawns[us]
    cdef bint bare = not (p.by_color[them] & ~(p.by_type[PAWN] | p.by_type[KING]))
    while b:
        sq = lsb(b)
        b &= b - 1
        r = relative_rank(us, sq)
        stop = sq + (8 if us == WHITE else -8)
        if r > 2:
            add_param(&ei.terms[T_PASSED], P_PASSED_OWN_KING, sign * (r - 2) * min(DISTANCE[ei.ksq[us]][stop], 5))
            add_param(&ei.terms[T_PASSED], P_PASSED_ENEMY_KING, sign * (r - 2) * min(DISTANCE[ei.ksq[them]][stop], 5))
        if bare and not (FORWARD_FILE[us][sq] & ei.occ):
            # From its first move a pawn may step twice; the defender gains a move if on turn.
            queening = file_of(sq) + (56 if us == WHITE else 0)
            moves = 7 - r - (1 if r == 1 else 0)
            if moves < DISTANCE[ei.ksq[them]][queening] - (1 if p.side == them else 0):
                add_param(&ei.terms[T_PASSED], P_UNSTOPPABLE, sign)


cdef inline int evaluate_traced(Position* p, PawnTable* pt, Score* trace, int* phase_out,
                                int* scale_out) noexcept nogil:
    """Return the score from the side to move's view; when trace is not NULL, also fill
    trace[N_TERMS] (white minus black), the phase and the scale. Inlined into evaluate() with
    trace NULL."""
    cdef EvalInfo ei
    cdef Score* terms = ei.terms
    cdef u64 b
    cdef int c, pt_, sq, i, phase, scale, mg, eg, v
    ei.e = probe_pawns(p, pt)
    ei.occ = occupied(p)
    for i in range(N_TERMS):
        terms[i].mg = terms[i].eg = 0
    for c in range(2):
        ei.ksq[c] = king_square(p, c)
        ei.king_zone[c] = KING_ATTACKS[ei.ksq[c]] | bb(ei.ksq[c])
        ei.attackers[c] = ei.danger[c] = 0
        ei.pawn_attacks[c] = pawn_attacks_bb(pieces(p, c, PAWN), c)
        ei.attacked[c][PAWN] = ei.pawn_attacks[c]
        ei.attacked[c][KING] = KING_ATTACKS[ei.ksq[c]]
        ei.attacked[c][0] = ei.pawn_attacks[c] | KING_ATTACKS[ei.ksq[c]]

    # Material and piece-square tables: one pass over the board with the combined PSQ table,
    # then material from the piece counts is split off for the report.
    b = ei.occ
    while b:
        sq = lsb(b)
        b &= b - 1
        terms[T_PSQT].mg += PSQ[p.board[sq]][sq].mg
        terms[T_PSQT].eg += PSQ[p.board[sq]][sq].eg
    for pt_ in range(PAWN, QUEEN + 1):
        add_param(&terms[T_MATERIAL], P_MATERIAL + 2 * (pt_ - PAWN),
                  p.count[make_piece(WHITE, pt_)] - p.count[make_piece(BLACK, pt_)])
    terms[T_PSQT].mg -= terms[T_MATERIAL].mg
    terms[T_PSQT].eg -= terms[T_MATERIAL].eg
    phase = 0
    for c in range(2):
        phase += p.count[make_piece(c, KNIGHT)] + p.count[make_piece(c, BISHOP)] \
            + 2 * p.count[make_piece(c, ROOK)] + 4 * p.count[make_piece(c, QUEEN)]
    if phase > MAX_PHASE:
        phase = MAX_PHASE

    terms[T_PAWNS].mg = ei.e.mg[WHITE] - ei.e.mg[BLACK]
    terms[T_PAWNS].eg = ei.e.eg[WHITE] - ei.e.eg[BLACK]

    # Every attack map must be complete before king safety and threats look at them.
    for c in range(2):
        evaluate_pieces(&ei, p, c, KNIGHT)
        evaluate_pieces(&ei, p, c, BISHOP)
        evaluate_pieces(&ei, p, c, ROOK)
        evaluate_pieces(&ei, p, c, QUEEN)
        b = pieces(p, c, BISHOP)
        if (b & DARK_SQUARES) and (b & ~DARK_SQUARES):
            add_param(&terms[T_PIECES], P_BISHOP_PAIR, 1 - 2 * c)
    for c in range(2):
        evaluate_king(&ei, p, c)
        evaluate_threats(&ei, p, c)
        evaluate_passed(&ei, p, c)
    add_param(&terms[T_TEMPO], P_TEMPO, 1 if p.side == WHITE else -1)

    mg = eg = 0
    for i in range(N_TERMS):
        mg += terms[i].mg
        eg += terms[i].eg
    scale = SCALE_NORMAL
    if eg != 0:
        scale = scale_factor(p, ei.e, WHITE if eg > 0 else BLACK)
    if trace != NULL:
        memcpy(trace, terms, sizeof(ei.terms))
        phase_out[0] = phase
        scale_out[0] = scale
    if scale == 0:
        return 0    # a known draw
    v = (mg * phase + (eg * scale / SCALE_NORMAL) * (MAX_PHASE - phase)) / MAX_PHASE
    return v if p.side == WHITE else -v


cdef int evaluate(Position* p, PawnTable* pt) noexcept nogil:
    """Centipawns from the side to move's point of view: the net's when one is in use (nnue.pxi)."""
    if nnue_active(p):
        return nnue_search_value(p)
    return evaluate_traced(p, pt, NULL, NULL, NULL)

# ---------------------------------------------------------------------------------------------
# Python side (not hot): defaults, names, parameter files, and helpers for Board.
# ---------------------------------------------------------------------------------------------

PIECE_NAMES = ("pawn", "knight", "bishop", "rook", "queen", "king")
SQUARE_NAMES = tuple(f + r for r in "12345678" for f in "abcdefgh")

# The parameter table's layout: every slot's name, in PARAMS order. The values are data, not code:
# the defaults ship as weights/default.params beside this module (with weights/provenance.json,
# the record of how they were made), so that a tuner's output replaces a file, never this source.
MOBILITY_COUNTS = (("knight", 9), ("bishop", 14), ("rook", 15), ("queen", 28))   # safe squares 0..n-1
DEFAULTS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights", "default.params")


def _param_names():
    """Every slot's name in PARAMS order. Pair parameters are named <group>_mg<suffix> and
    <group>_eg<suffix>, e.g. pst_knight_mg_e4 / pst_knight_eg_e4."""
    names = []

    def pair(group, suffix=""):
        names.extend((f"{group}_mg{suffix}", f"{group}_eg{suffix}"))

    def by_rank(group):
        for r in range(8):
            pair(group, f"_{r + 1}")

    for piece in PIECE_NAMES[:5]:
        pair(f"{piece}_value")
    for piece in PIECE_NAMES:
        for square in SQUARE_NAMES:
            pair(f"pst_{piece}", f"_{square}")
    for piece, count in MOBILITY_COUNTS:
        for n in range(count):
            pair(f"{piece}_mobility", f"_{n}")
    for group in ("doubled_pawn", "isolated_pawn", "backward_pawn", "pawn_island"):
        pair(group)
    for group in ("phalanx", "supported_pawn", "passed_pawn"):
        by_rank(group)
    for group in ("passed_own_king_distance", "passed_enemy_king_distance", "unstoppable_passer"):
        pair(group)
    # Relative rank 1 ("_1") stands for "no pawn on this file".
    by_rank("king_shield")
    by_rank("king_storm")
    for group in ("king_danger", "bishop_pair", "rook_open_file", "rook_semiopen_file", "rook_seventh",
                  "knight_outpost", "bishop_outpost", "threat_by_pawn", "hanging", "threat_by_lesser", "tempo"):
        pair(group)
    names.extend(f"king_attack_weight_{piece}" for piece in PIECE_NAMES[1:5])
    names.extend(f"safe_check_{piece}" for piece in PIECE_NAMES[1:5])
    names.extend(("king_zone_attack", "scale_opposite_bishops", "scale_opposite_bishops_per_passer",
                  "scale_opposite_bishops_with_pieces", "scale_no_pawns_minor_advantage", "scale_knnk",
                  "scale_wrong_bishop"))
    return tuple(names)


PARAM_NAMES = _param_names()
if len(PARAM_NAMES) != N_PARAMS:
    raise ImportError(f"evaluation parameter table names {len(PARAM_NAMES)} slots, C table has {N_PARAMS}")
_PARAM_INDEX = {name: i for i, name in enumerate(PARAM_NAMES)}


_INTEGER = re.compile(r"[+-]?[0-9]+")


class ParamFileError(ValueError):
    """An evaluation parameter file that cannot be used; the message names file, line and
    parameter. The current weights are left unchanged."""


cdef void params_changed() noexcept nogil:
    """Rebuild what is derived from PARAMS and make pawn tables drop their entries."""
    global PARAMS_GENERATION
    build_psq()
    PARAMS_GENERATION += 1


cdef void _apply_params(list values):
    cdef int i
    for i in range(N_PARAMS):
        PARAMS[i] = values[i]
    params_changed()


def eval_param_names():
    """The names of all evaluation parameters, in table order."""
    return list(PARAM_NAMES)


def eval_params():
    """{name: value} for every evaluation parameter."""
    return {name: PARAMS[i] for i, name in enumerate(PARAM_NAMES)}


def default_eval_params():
    """{name: value} of the shipped defaults (weights/default.params)."""
    return dict(zip(PARAM_NAMES, _DEFAULTS))


def set_eval_params(dict values):
    """Change some or all parameters; unknown names or non-integers raise ValueError before
    anything changes."""
    current = [PARAMS[i] for i in range(N_PARAMS)]
    for name, value in values.items():
        if name not in _PARAM_INDEX:
            raise ValueError(f"unknown evaluation parameter {name!r}")
        if not isinstance(value, int) or isinstance(value, bool) or not -(1 << 20) <= value <= 1 << 20:
            raise ValueError(f"evaluation parameter {name!r} needs an integer within +-2**20, not {value!r}")
        current[_PARAM_INDEX[name]] = value
    _apply_params(current)


def save_eval_params(path):
    """Write every parameter as `name = value`, one per line."""
    with open(path, "w", encoding="utf-8") as out:
        out.write("# Pyrope evaluation parameters: name = value (centipawns; scales out of 64)\n")
        for i, name in enumerate(PARAM_NAMES):
            out.write(f"{name} = {PARAMS[i]}\n")


def read_eval_params(path):
    """The values, in table order, of a file written by save_eval_params (`name = value` lines,
    `#` comments, every parameter exactly once). Any problem raises ParamFileError."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ParamFileError(f"{path}: cannot read evaluation parameter file: {exc}") from None
    values = {}
    for lineno, raw in enumerate(lines, 1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        name, eq, value = (part.strip() for part in text.partition("="))
        if not eq or not name or not value:
            raise ParamFileError(f"{path}:{lineno}: malformed line {raw.strip()!r}, expected 'name = value'")
        if name not in _PARAM_INDEX:
            raise ParamFileError(f"{path}:{lineno}: unknown parameter {name!r}")
        if name in values:
            raise ParamFileError(f"{path}:{lineno}: parameter {name!r} given twice (first on line {values[name][1]})")
        if not _INTEGER.fullmatch(value):
            raise ParamFileError(f"{path}:{lineno}: parameter {name!r} has non-integer value {value!r}")
        number = int(value)
        if not -(1 << 20) <= number <= 1 << 20:
            raise ParamFileError(f"{path}:{lineno}: parameter {name!r} value {number} is out of range (+-2**20)")
        values[name] = (number, lineno)
    missing = [name for name in PARAM_NAMES if name not in values]
    if missing:
        raise ParamFileError(f"{path}:{len(lines)}: parameter {missing[0]!r} is missing "
                             f"({len(missing)} parameter(s) missing by the end of the file)")
    return [values[name][0] for name in PARAM_NAMES]


def load_eval_params(path):
    """Make the weights those of a parameter file (read_eval_params); on any problem the current
    weights are kept and ParamFileError says what was wrong."""
    _apply_params(read_eval_params(path))


try:
    _DEFAULTS = tuple(read_eval_params(DEFAULTS_FILE))
except ParamFileError as exc:
    raise ImportError(f"the shipped evaluation weights cannot be used: {exc}") from None
_apply_params(list(_DEFAULTS))
if sizeof(PawnEntry) != 64:
    raise ImportError(f"PawnEntry is {sizeof(PawnEntry)} bytes; it must fill exactly one 64-byte cache line")

# One pawn table for evaluations asked for from Python (which hold the GIL, so one suffices).
cdef PawnTable PY_PAWN_TABLE
PY_PAWN_TABLE.entries = NULL

cdef PawnTable* python_pawn_table() except NULL:
    if PY_PAWN_TABLE.entries == NULL and pawn_table_init(&PY_PAWN_TABLE, 12) < 0:
        raise MemoryError()
    return &PY_PAWN_TABLE


cdef int py_evaluate(Position* p) except? -1000000:
    return evaluate(p, python_pawn_table())


cdef dict py_eval_terms(Position* p):
    cdef Score terms[N_TERMS]
    cdef int phase, scale, score, i
    score = evaluate_traced(p, python_pawn_table(), terms, &phase, &scale)
    result = {TERM_NAMES[i]: (terms[i].mg, terms[i].eg) for i in range(N_TERMS)}
    result["phase"] = phase
    result["scale"] = scale
    result["score"] = score
    return result


cdef struct PositionList:
    Position* positions
    StateInfo* states
    int count


cdef void position_list_free(PositionList* pl) noexcept:
    free(pl.positions)
    free(pl.states)
    pl.positions = NULL
    pl.states = NULL


cdef int position_list_load(PositionList* pl, list fens) except -1:
    """Parse every FEN into its own Position (FenError on a bad one; free with
    position_list_free either way)."""
    cdef int i
    pl.count = len(fens)
    pl.positions = <Position*>calloc(max(pl.count, 1), sizeof(Position))
    pl.states = <StateInfo*>calloc(max(pl.count, 1), sizeof(StateInfo))
    if pl.positions == NULL or pl.states == NULL:
        raise MemoryError()
    for i in range(pl.count):
        pl.positions[i].states = &pl.states[i]
        pl.positions[i].capacity = 1
        clear_position(&pl.positions[i])
        parse_fen(&pl.positions[i], fens[i])
    return 0


def eval_speed(list fens, int rounds=100, int log2_pawn_entries=14):
    """(evaluations, wall seconds, thread CPU seconds, sum of all scores) for `rounds` passes of
    evaluate() over the FENs, without the GIL and with a pawn table of its own, so several Python
    threads may run it at once (log2_pawn_entries=1 makes most probes miss). CPU time is the
    fairer number on a shared machine; the sum checks that threads agree."""
    from time import perf_counter, thread_time
    cdef int i, k
    cdef long long sink = 0
    cdef PositionList pl
    cdef PawnTable table
    pl.positions = NULL
    pl.states = NULL
    table.entries = NULL
    try:
        position_list_load(&pl, fens)
        if pawn_table_init(&table, log2_pawn_entries) < 0:
            raise MemoryError()
        start = perf_counter()
        cpu_start = thread_time()
        with nogil:
            for k in range(rounds):
                for i in range(pl.count):
                    sink += evaluate(&pl.positions[i], &table)
        seconds = perf_counter() - start
        cpu_seconds = thread_time() - cpu_start
    finally:
        pawn_table_free(&table)
        position_list_free(&pl)
    return pl.count * rounds, seconds, cpu_seconds, sink


# ---------------------------------------------------------------------------------------------
# For tuners: the evaluation of many positions and its sensitivity to each parameter.
# ---------------------------------------------------------------------------------------------

cdef double smooth_white_eval(Position* p, PawnTable* table) noexcept nogil:
    """evaluate() from white's view without its integer rounding, so that a one-unit change of
    a parameter shows as the exact change of the blended score."""
    cdef Score terms[N_TERMS]
    cdef int phase, scale, i, mg = 0, eg = 0
    evaluate_traced(p, table, terms, &phase, &scale)
    if scale == 0:
        return 0.0
    for i in range(N_TERMS):
        mg += terms[i].mg
        eg += terms[i].eg
    return (mg * phase + eg * (scale / <double>SCALE_NORMAL) * (MAX_PHASE - phase)) / MAX_PHASE


def eval_coefficients(list fens, indices=None):
    """Linearise the evaluation for a tuner: returns (base, rows, cols, deltas), where base[i] is
    position i's score from white's view without integer rounding, and each nonzero change of
    that score when parameter cols[k] grows by one is deltas[k] for position rows[k] (parameters
    `indices`, default all). Arrays are array.array ('d' for scores, 'i' for indices), ready
    for numpy.frombuffer. Linear terms give exact coefficients; king danger and scaling give
    the local slope, so tuners should recompute after large moves."""
    from array import array
    cdef int i, j, count
    cdef double d
    cdef PositionList pl
    cdef PawnTable table
    cdef double* base = NULL
    cdef int* hit_rows = NULL
    cdef double* hit_deltas = NULL
    wanted = range(N_PARAMS) if indices is None else [int(j) for j in indices]
    for j in wanted:
        if not 0 <= j < N_PARAMS:
            raise ValueError(f"parameter index {j} is not in 0..{N_PARAMS - 1}")
    pl.positions = NULL
    pl.states = NULL
    table.entries = NULL
    base_out, rows, cols, deltas = array("d"), array("i"), array("i"), array("d")
    try:
        position_list_load(&pl, fens)
        base = <double*>malloc(max(pl.count, 1) * sizeof(double))
        hit_rows = <int*>malloc(max(pl.count, 1) * sizeof(int))
        hit_deltas = <double*>malloc(max(pl.count, 1) * sizeof(double))
        if base == NULL or hit_rows == NULL or hit_deltas == NULL or pawn_table_init(&table, 14) < 0:
            raise MemoryError()
        with nogil:
            for i in range(pl.count):
                base[i] = smooth_white_eval(&pl.positions[i], &table)
        base_out.frombytes((<char*>base)[:pl.count * sizeof(double)])
        for j in wanted:
            count = 0
            PARAMS[j] += 1
            params_changed()
            with nogil:
                for i in range(pl.count):
                    d = smooth_white_eval(&pl.positions[i], &table) - base[i]
                    if d != 0.0:
                        hit_rows[count] = i
                        hit_deltas[count] = d
                        count += 1
            PARAMS[j] -= 1
            params_changed()
            if count:
                rows.frombytes((<char*>hit_rows)[:count * sizeof(int)])
                deltas.frombytes((<char*>hit_deltas)[:count * sizeof(double)])
                cols.extend([j] * count)
    finally:
        free(base)
        free(hit_rows)
        free(hit_deltas)
        pawn_table_free(&table)
        position_list_free(&pl)
    return base_out, rows, cols, deltas
