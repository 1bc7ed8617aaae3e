# The learned evaluation's inference: the quantised (768 K -> N) x 2 -> B net in aligned C arrays
# (K king buckets, B output buckets by material), an accumulator pair (white's and black's
# perspective) per ply, kept up to date lazily from the pieces each move changed, and the output
# layer. A perspective whose king crosses into another bucket (or, in a mirrored net, to the other
# half of the board) is refreshed from a cache of the last accumulator built in that bucket, by the
# pieces that differ since. The integer arithmetic is docs/nnue.md's, which pyrope.nnue.reference
# defines; the file itself is parsed and checked in Python (pyrope.nnue.netfile).

from libc.stdint cimport int16_t, int32_t, int64_t
from libc.string cimport memset

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef extern from "nnue_simd.h" nogil:
    int64_t nnue_crelu_dot(const int16_t* acc, const int16_t* w, int n, int16_t qa)
    int64_t nnue_screlu_dot(const int16_t* acc, const int16_t* w, int n, int16_t qa)
    void nnue_update_columns(int16_t* acc, const int16_t* below, const int16_t** added, int n_added,
                             const int16_t** removed, int n_removed, int n)
    void nnue_add_column(int16_t* acc, const int16_t* column, int n)
    void nnue_sub_column(int16_t* acc, const int16_t* column, int n)

cdef enum:
    NNUE_PIECE_INPUTS = 768     # one king bucket's inputs
    NNUE_MAX_KING_BUCKETS = 32
    NNUE_MAX_OUTPUTS = 8
    NNUE_ALIGN = 64             # a cache line: every accumulator and weight column starts on one
    NNUE_MAX_QA = 255           # keeps v^2 * w inside int32 for any int16 w (255^2 * 32768 < 2^31)
    NNUE_MAX_SCALE = 65535      # keeps out * SCALE inside int64 for every hidden size
    NNUE_MAX_CP = 20000         # evaluations stay clear of the search's tablebase and mate scores
    NNUE_BOTH = 3               # nnue_ready's bits: 1 << perspective


cdef struct Net:
    int16_t* ft_weights         # inputs x stride, feature-major: a feature's column is contiguous
    int16_t* ft_bias            # stride
    int16_t* out_weights        # 2 x stride per output bucket: the side to move's half, then the other side's
    int32_t out_bias[NNUE_MAX_OUTPUTS]
    int hidden
    int stride                  # hidden rounded up to NNUE_ALIGN bytes' worth of int16 (zero padded)
    bint screlu
    int qa, qb, scale
    int outputs                 # output buckets
    int output_bucket[33]       # by the pieces on the board: (pieces - 2) // (32 / outputs)
    int cache_slots             # refresh-cache entries a perspective: 2 per king bucket (unmirrored, mirrored)
    bint kings_move_buckets     # more than one king bucket, or mirrored: a king move can cross
    bint simd                   # nnue_simd.h's output layer is exact: crelu, or qa * |w| <= 32767
    int chunk                   # otherwise, output terms summed in int32 before widening (exact)
    int generation              # changes with every load, so positions drop accumulators of another net

cdef Net NET                    # hidden == 0: no net loaded
cdef bint NNUE_ENABLED = True   # the Use NNUE option: the net evaluates when one is loaded
cdef int NNUE_FEATURE[2][16][64]   # a piece's feature on a square from each perspective, in bucket 0
# By the square of a perspective's own king: its bucket's first input, the square flip (0, or 7 when
# the king stands on files e-h of a mirrored net) and its refresh-cache entry.
cdef int NNUE_KING_OFFSET[2][64]
cdef int NNUE_KING_FLIP[2][64]
cdef int NNUE_KING_SLOT[2][64]


cdef void init_nnue() noexcept nogil:
    cdef int persp, color, piece_type, sq
    for persp in range(2):
        for color in range(2):
            for piece_type in range(PAWN, KING + 1):
                for sq in range(64):
                    NNUE_FEATURE[persp][make_piece(color, piece_type)][sq] = \
                        (color != persp) * 384 + (piece_type - PAWN) * 64 + (sq ^ (56 * persp))


cdef inline int16_t* nnue_slot(Position* p, int ply, int persp) noexcept nogil:
    return p.nnue_acc + (2 * ply + persp) * NET.stride


cdef inline size_t nnue_cache_entry_size() noexcept nogil:
    """Bytes of one refresh-cache entry: its accumulator, then the pieces it holds (a bitboard per
    piece code); a multiple of NNUE_ALIGN, as the stride is."""
    return NET.stride * sizeof(int16_t) + 16 * sizeof(u64)


cdef inline int16_t* nnue_cache_acc(Position* p, int persp, int slot) noexcept nogil:
    return <int16_t*>(<char*>p.nnue_cache + (persp * NET.cache_slots + slot) * nnue_cache_entry_size())


cdef void nnue_release(Position* p) noexcept nogil:
    free(p.nnue_acc)
    free(p.nnue_cache)
    p.nnue_acc = NULL
    p.nnue_cache = NULL
    p.nnue_slots = 0


cdef int nnue_reserve(Position* p) noexcept nogil:
    """Accumulator slots for every state the position can reach, and the refresh cache, for the
    loaded net (0, or -1 when out of memory). Slots already computed for this net are kept."""
    cdef void* memory
    cdef int i, slot, persp, used = <int>(p.st - p.states) + 1
    cdef int16_t* acc
    if p.nnue_generation != NET.generation:
        nnue_release(p)
        for i in range(used):
            p.states[i].nnue_ready = 0
        p.nnue_generation = NET.generation
    if p.nnue_cache == NULL:
        if posix_memalign(&memory, NNUE_ALIGN, 2 * NET.cache_slots * nnue_cache_entry_size()) != 0:
            return -1
        p.nnue_cache = memory
        for persp in range(2):          # every entry: the empty board's accumulator, the bias
            for slot in range(NET.cache_slots):
                acc = nnue_cache_acc(p, persp, slot)
                memcpy(acc, NET.ft_bias, NET.stride * sizeof(int16_t))
                memset(acc + NET.stride, 0, 16 * sizeof(u64))
    if p.nnue_slots >= p.capacity:
        return 0
    if posix_memalign(&memory, NNUE_ALIGN, <size_t>p.capacity * 2 * NET.stride * sizeof(int16_t)) != 0:
        return -1
    if p.nnue_acc != NULL:
        memcpy(memory, p.nnue_acc, <size_t>p.nnue_slots * 2 * NET.stride * sizeof(int16_t))
        free(p.nnue_acc)
    p.nnue_acc = <int16_t*>memory
    p.nnue_slots = p.capacity
    return 0


cdef inline const int16_t* nnue_column(int persp, int king, int piece, int sq) noexcept nogil:
    """The column a piece on a square adds from `persp`'s view, its own king on `king`."""
    return NET.ft_weights + (NNUE_KING_OFFSET[persp][king]
                             + NNUE_FEATURE[persp][piece][sq ^ NNUE_KING_FLIP[persp][king]]) * NET.stride


cdef void nnue_refresh(Position* p, int16_t* acc, int persp) noexcept nogil:
    """An accumulator from scratch: the bias plus the column of every piece on the board."""
    cdef u64 b = occupied(p)
    cdef int sq, king = king_square(p, persp)
    memcpy(acc, NET.ft_bias, NET.stride * sizeof(int16_t))
    while b:
        sq = lsb(b)
        b &= b - 1
        nnue_add_column(acc, nnue_column(persp, king, p.board[sq], sq), NET.stride)


cdef void nnue_refresh_cached(Position* p, int16_t* acc, int persp) noexcept nogil:
    """`persp`'s accumulator for the board as it stands, from the refresh cache's entry for its
    king's bucket: that entry is moved to this board by the pieces that differ, then copied."""
    cdef int king = king_square(p, persp), color, piece_type, piece, sq
    cdef int16_t* cached = nnue_cache_acc(p, persp, NNUE_KING_SLOT[persp][king])
    cdef u64* held = <u64*>(cached + NET.stride)
    cdef u64 now, b
    for color in range(2):
        for piece_type in range(PAWN, KING + 1):
            piece = make_piece(color, piece_type)
            now = pieces(p, color, piece_type)
            b = now & ~held[piece]
            while b:
                sq = lsb(b)
                b &= b - 1
                nnue_add_column(cached, nnue_column(persp, king, piece, sq), NET.stride)
            b = held[piece] & ~now
            while b:
                sq = lsb(b)
                b &= b - 1
                nnue_sub_column(cached, nnue_column(persp, king, piece, sq), NET.stride)
            held[piece] = now
    memcpy(acc, cached, NET.stride * sizeof(int16_t))


cdef void nnue_apply(Position* p, int ply, int persp, int king) noexcept nogil:
    """The accumulator at `ply` from the one below it and the pieces the move between them changed,
    in one pass (nnue_simd.h; int16 arithmetic wraps, so the order of additions cannot matter to an
    in-range result); `persp`'s king stands in one bucket on both plies, on `king` at the last."""
    cdef StateInfo* st = p.states + ply
    cdef const int16_t* added[3]
    cdef const int16_t* removed[3]
    cdef int i, n_added = 0, n_removed = 0
    added[0] = removed[0] = NET.ft_bias      # never read when none is given; keeps the pointers defined
    for i in range(st.dirty_count):
        if st.dirty_from[i] != NO_SQ:
            removed[n_removed] = nnue_column(persp, king, st.dirty_piece[i], st.dirty_from[i])
            n_removed += 1
        if st.dirty_to[i] != NO_SQ:
            added[n_added] = nnue_column(persp, king, st.dirty_piece[i], st.dirty_to[i])
            n_added += 1
    nnue_update_columns(nnue_slot(p, ply, persp), nnue_slot(p, ply - 1, persp), added, n_added,
                        removed, n_removed, NET.stride)


cdef inline bint nnue_king_crossed(StateInfo* st, int persp) noexcept nogil:
    """Whether the move that led to `st` took `persp`'s king into another refresh-cache entry
    (another bucket, or the other half of a mirrored board): every feature then changes."""
    cdef int i, king = make_piece(persp, KING)
    for i in range(st.dirty_count):
        if st.dirty_piece[i] == king:
            return NNUE_KING_SLOT[persp][st.dirty_from[i]] != NNUE_KING_SLOT[persp][st.dirty_to[i]]
    return False


cdef void nnue_update_side(Position* p, int persp) noexcept nogil:
    """Bring `persp`'s accumulator at the current ply up to date: from the nearest ply below where
    it is computed, one move at a time, unless the pieces changed on the way outnumber those a
    refresh adds or the king changed bucket on the way (then from the refresh cache)."""
    cdef int ply = <int>(p.st - p.states), base = ply, changed = 0, pieces_on = popcount(occupied(p))
    cdef int bit = 1 << persp, king = king_square(p, persp)
    while not p.states[base].nnue_ready & bit:
        changed += p.states[base].dirty_count
        if base == 0 or changed > pieces_on or (NET.kings_move_buckets and nnue_king_crossed(p.states + base, persp)):
            nnue_refresh_cached(p, nnue_slot(p, ply, persp), persp)
            p.st.nnue_ready |= bit
            return
        base -= 1
    while base < ply:
        base += 1
        nnue_apply(p, base, persp, king)
        p.states[base].nnue_ready |= bit


cdef inline void nnue_update(Position* p) noexcept nogil:
    cdef int ply = <int>(p.st - p.states)
    if p.st.nnue_ready == NNUE_BOTH:
        return
    # The usual case, first: the ply below is computed and the move to this one (made by the side
    # not to move now: only its king can have moved) took no king into another bucket.
    if ply > 0 and p.st.nnue_ready == 0 and p.states[ply - 1].nnue_ready == NNUE_BOTH and \
            not (NET.kings_move_buckets and nnue_king_crossed(p.st, p.side ^ 1)):
        nnue_apply(p, ply, WHITE, king_square(p, WHITE))
        nnue_apply(p, ply, BLACK, king_square(p, BLACK))
        p.st.nnue_ready = NNUE_BOTH
        return
    nnue_update_side(p, WHITE)
    nnue_update_side(p, BLACK)


cdef inline int64_t nnue_half(const int16_t* acc, const int16_t* weights) noexcept nogil:
    """One perspective's share of the output, exact: in SIMD when the net allows (nnue_simd.h),
    else int32 sums of NET.chunk terms, widened."""
    cdef int start = 0, j, end, v, qa = NET.qa
    cdef int32_t partial
    cdef int64_t total = 0
    if NET.simd:
        if NET.screlu:
            return nnue_screlu_dot(acc, weights, NET.stride, <int16_t>qa)
        return nnue_crelu_dot(acc, weights, NET.stride, <int16_t>qa)
    while start < NET.hidden:
        end = start + NET.chunk if start + NET.chunk < NET.hidden else NET.hidden
        partial = 0
        if NET.screlu:
            for j in range(start, end):
                v = acc[j] if acc[j] > 0 else 0
                v = v if v < qa else qa
                partial += v * v * weights[j]
        else:
            for j in range(start, end):
                v = acc[j] if acc[j] > 0 else 0
                v = v if v < qa else qa
                partial += v * weights[j]
        total += partial
        start = end
    return total


cdef int nnue_evaluate(Position* p) noexcept nogil:
    """Centipawns from the side to move's point of view; needs a loaded net and nnue_reserve(p)."""
    cdef int ply = <int>(p.st - p.states), us = p.side
    cdef int bucket = NET.output_bucket[popcount(occupied(p))]
    cdef const int16_t* weights = NET.out_weights + 2 * bucket * NET.stride
    cdef int64_t out
    nnue_update(p)
    out = nnue_half(nnue_slot(p, ply, us), weights) + nnue_half(nnue_slot(p, ply, us ^ 1), weights + NET.stride)
    if NET.screlu:
        out //= NET.qa          # C division (cdivision): truncates toward zero, as the reference's trunc
    out += NET.out_bias[bucket]
    return <int>(out * NET.scale // (NET.qa * NET.qb))


cdef inline bint nnue_active(Position* p) noexcept nogil:
    """Whether evaluate() asks the net: one is loaded and wanted, and the position has room for
    its accumulators (when memory runs out the hand-crafted evaluation answers)."""
    return NNUE_ENABLED and NET.hidden != 0 and nnue_reserve(p) == 0


cdef inline void nnue_follow(Position* p) noexcept nogil:
    """Compute this ply's accumulators at a node the search expands without evaluating it (its
    evaluation came from the TT, or it is in check). Its children then update from it, a move
    each; otherwise each would walk back past it and, beyond the walk's budget, refresh from the
    board: with a warm TT most interior nodes take their evaluation from it, and refreshes were
    more than half of all updates (bench with a hidden-256 net)."""
    if nnue_active(p):
        nnue_update(p)


cdef inline int nnue_search_value(Position* p) noexcept nogil:
    cdef int cp = nnue_evaluate(p)
    return cp if -NNUE_MAX_CP <= cp <= NNUE_MAX_CP else (NNUE_MAX_CP if cp > 0 else -NNUE_MAX_CP)


cdef int64_t nnue_walk(Position* p, int depth) noexcept nogil:
    """The sum of the net's evaluations at every node of the legal move tree `depth` plies below
    p, each node reached by one move from its evaluated parent as the search reaches its nodes: a
    speed probe whose work does not depend on the net's values (bench/nnue_speed.py)."""
    cdef Move moves[MAX_MOVES]
    cdef int n = generate(p, moves, GEN_ALL), i
    cdef int64_t total = 0
    for i in range(n):
        do_move(p, moves[i])
        total += nnue_evaluate(p)
        if depth > 1:
            total += nnue_walk(p, depth - 1)
        undo_move(p, moves[i])
    return total


# ---------------------------------------------------------------------------------------------
# Python side (not hot): loading a net that pyrope.nnue.netfile has read and checked.
# ---------------------------------------------------------------------------------------------

cdef int16_t* nnue_aligned(Py_ssize_t rows, int stride) except NULL:
    """Zeroed, cache-line aligned room for `rows` rows of `stride` int16 (the padding stays zero)."""
    cdef void* memory
    if posix_memalign(&memory, NNUE_ALIGN, <size_t>rows * stride * sizeof(int16_t)) != 0:
        raise MemoryError()
    memset(memory, 0, <size_t>rows * stride * sizeof(int16_t))
    return <int16_t*>memory


cdef int64_t nnue_accumulator_bound(const int16_t[:, :] ft_weights, const int16_t[:] ft_bias):
    """The largest magnitude any accumulator entry can reach: at most 32 pieces stand on the board,
    so an entry is its bias plus at most 32 of its column's weights; the bound takes the 32 largest."""
    cdef int64_t largest[32]
    cdef int64_t bound = 0, total, value
    cdef Py_ssize_t f, j, k
    for j in range(ft_weights.shape[1]):
        memset(largest, 0, sizeof(largest))            # descending: largest[31] is the smallest kept
        for f in range(ft_weights.shape[0]):
            value = abs(<int64_t>ft_weights[f, j])
            if value > largest[31]:
                k = 31
                while k > 0 and largest[k - 1] < value:
                    largest[k] = largest[k - 1]
                    k -= 1
                largest[k] = value
        total = abs(<int64_t>ft_bias[j])
        for k in range(32):
            total += largest[k]
        bound = max(bound, total)
    return bound


def nnue_load(net):
    """Use `net` (a pyrope.nnue.netfile.Net, its arrays any int16 buffers) for nnue evaluations.
    ValueError when its integers could leave the ranges the core computes in (the accumulators'
    int16, QA up to 255) or its shape is not one the core knows."""
    cdef const int16_t[:, :] ft = net.ft_weights
    cdef const int16_t[:] bias = net.ft_bias
    cdef const int16_t[:, :] out = net.out_weights
    cdef int hidden = net.hidden, stride, largest = 1, outputs = net.output_buckets
    cdef int kings = net.layout.count, inputs = NNUE_PIECE_INPUTS * net.layout.count
    cdef Py_ssize_t row, j, f
    cdef int16_t *ft_weights, *ft_bias, *out_weights
    buckets = net.layout.buckets
    if ft.shape[0] != inputs or ft.shape[1] != hidden or bias.shape[0] != hidden \
            or out.shape[0] != 2 * outputs or out.shape[1] != hidden or len(net.out_bias) != outputs:
        raise ValueError(f"the net's arrays do not have the shapes of {inputs} inputs, {hidden} hidden "
                         f"and {outputs} outputs")
    if not 1 <= kings <= NNUE_MAX_KING_BUCKETS or outputs not in (1, 2, 4, 8) or len(buckets) != 64:
        raise ValueError(f"the net's {kings} king buckets or {outputs} outputs are beyond the core's "
                         f"(1-{NNUE_MAX_KING_BUCKETS}; 1, 2, 4 or 8)")
    if not 1 <= net.qa <= NNUE_MAX_QA or not 1 <= net.qb or not 1 <= net.scale <= NNUE_MAX_SCALE \
            or net.qa * net.qb > 2 ** 31 - 1:
        raise ValueError(f"the net's QA {net.qa}, QB {net.qb}, SCALE {net.scale} are beyond the core's "
                         f"ranges (QA 1-{NNUE_MAX_QA}, SCALE 1-{NNUE_MAX_SCALE})")
    bound = nnue_accumulator_bound(ft, bias)
    if bound > 32767:
        raise ValueError(f"the net's input weights can take an accumulator to {bound}, beyond int16")
    for row in range(2 * outputs):
        for j in range(hidden):
            largest = max(largest, abs(<int>out[row, j]))
    term = net.qa * (net.qa if net.activation == "screlu" else 1) * largest
    stride = (hidden + NNUE_ALIGN // 2 - 1) // (NNUE_ALIGN // 2) * (NNUE_ALIGN // 2)     # hidden rounded up
    ft_weights = nnue_aligned(inputs, stride)
    ft_bias = nnue_aligned(1, stride)
    out_weights = nnue_aligned(2 * outputs, stride)
    for f in range(inputs):
        for j in range(hidden):
            ft_weights[f * stride + j] = ft[f, j]
    for j in range(hidden):
        ft_bias[j] = bias[j]
        for row in range(2 * outputs):
            out_weights[row * stride + j] = out[row, j]
    nnue_unload()
    NET.ft_weights, NET.ft_bias, NET.out_weights = ft_weights, ft_bias, out_weights
    for row in range(outputs):
        NET.out_bias[row] = int(net.out_bias[row])
    NET.hidden, NET.stride, NET.screlu = hidden, stride, net.activation == "screlu"
    NET.qa, NET.qb, NET.scale = net.qa, net.qb, net.scale
    NET.outputs = outputs
    for pieces in range(33):
        NET.output_bucket[pieces] = min(outputs - 1, max(0, pieces - 2) // (32 // outputs))
    NET.cache_slots = 2 * kings
    NET.kings_move_buckets = kings > 1 or net.layout.mirrored
    for persp in range(2):
        for square in range(64):
            seen = square ^ (56 * persp)
            flip = 7 if net.layout.mirrored and seen & 7 >= 4 else 0
            NNUE_KING_OFFSET[persp][square] = buckets[seen] * NNUE_PIECE_INPUTS
            NNUE_KING_FLIP[persp][square] = flip
            NNUE_KING_SLOT[persp][square] = 2 * buckets[seen] + (flip != 0)
    NET.simd = net.activation != "screlu" or net.qa * largest <= 32767
    NET.chunk = max(1, min(hidden, (2 ** 31 - 1) // term))
    NET.generation += 1


def nnue_unload():
    """Forget the loaded net, if any."""
    free(NET.ft_weights)
    free(NET.ft_bias)
    free(NET.out_weights)
    NET.ft_weights = NET.ft_bias = NET.out_weights = NULL
    NET.hidden = 0
    NET.generation += 1


def nnue_enable(bint enabled):
    """Use NNUE: evaluate with the loaded net (True) or the hand-crafted evaluation (False)."""
    global NNUE_ENABLED
    NNUE_ENABLED = enabled


def nnue_loaded():
    """The loaded net's hidden size, 0 when none is."""
    return NET.hidden


cdef int py_nnue_evaluate(Position* p) except? -1000000:
    if NET.hidden == 0:
        raise ValueError("no net is loaded (pyrope.nnue_load)")
    if nnue_reserve(p) < 0:
        raise MemoryError()
    return nnue_evaluate(p)


cdef tuple py_nnue_accumulators(Position* p, bint refresh):
    cdef void* scratch
    cdef int persp, ply = <int>(p.st - p.states)
    if NET.hidden == 0:
        raise ValueError("no net is loaded (pyrope.nnue_load)")
    if nnue_reserve(p) < 0 or posix_memalign(&scratch, NNUE_ALIGN, NET.stride * sizeof(int16_t)) != 0:
        raise MemoryError()
    result = []
    try:
        for persp in range(2):
            if refresh:
                nnue_refresh(p, <int16_t*>scratch, persp)
                result.append([(<int16_t*>scratch)[j] for j in range(NET.hidden)])
            else:
                nnue_update(p)
                result.append([nnue_slot(p, ply, persp)[j] for j in range(NET.hidden)])
    finally:
        free(scratch)
    return tuple(result)
