# The learned evaluation's inference: the quantised (768 -> N) x 2 -> 1 net in aligned C arrays, an
# accumulator pair (white's and black's perspective) per ply, kept up to date lazily from the pieces
# each move changed, and the output layer. The integer arithmetic is docs/nnue.md's, which
# pyrope.nnue.reference defines; the file itself is parsed and checked in Python (pyrope.nnue.netfile).

from libc.stdint cimport int16_t, int32_t, int64_t
from libc.string cimport memset

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef extern from "nnue_simd.h" nogil:
    int64_t nnue_crelu_dot(const int16_t* acc, const int16_t* w, int n, int16_t qa)
    int64_t nnue_screlu_dot(const int16_t* acc, const int16_t* w, int n, int16_t qa)
    void nnue_update_columns(int16_t* acc, const int16_t* below, const int16_t** added, int n_added,
                             const int16_t** removed, int n_removed, int n)

cdef enum:
    NNUE_INPUTS = 768
    NNUE_ALIGN = 64             # a cache line: every accumulator and weight column starts on one
    NNUE_MAX_QA = 255           # keeps v^2 * w inside int32 for any int16 w (255^2 * 32768 < 2^31)
    NNUE_MAX_SCALE = 65535      # keeps out * SCALE inside int64 for every hidden size
    NNUE_MAX_CP = 20000         # evaluations stay clear of the search's tablebase and mate scores


cdef struct Net:
    int16_t* ft_weights         # NNUE_INPUTS x stride, feature-major: a feature's column is contiguous
    int16_t* ft_bias            # stride
    int16_t* out_weights        # 2 x stride: the side to move's half, then the other side's
    int32_t out_bias
    int hidden
    int stride                  # hidden rounded up to NNUE_ALIGN bytes' worth of int16 (zero padded)
    bint screlu
    int qa, qb, scale
    bint simd                   # nnue_simd.h's output layer is exact: crelu, or qa * |w| <= 32767
    int chunk                   # otherwise, output terms summed in int32 before widening (exact)
    int generation              # changes with every load, so positions drop accumulators of another net

cdef Net NET                    # hidden == 0: no net loaded
cdef bint NNUE_ENABLED = True   # the Use NNUE option: the net evaluates when one is loaded
cdef int NNUE_FEATURE[2][16][64]   # feature index of a piece on a square from each perspective


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


cdef void nnue_release(Position* p) noexcept nogil:
    free(p.nnue_acc)
    p.nnue_acc = NULL
    p.nnue_slots = 0


cdef int nnue_reserve(Position* p) noexcept nogil:
    """Accumulator slots for every state the position can reach, for the loaded net (0, or -1 when
    out of memory). Slots already computed for this net are kept."""
    cdef void* memory
    cdef int i, used = <int>(p.st - p.states) + 1
    if p.nnue_generation != NET.generation:
        nnue_release(p)
        for i in range(used):
            p.states[i].nnue_ready = 0
        p.nnue_generation = NET.generation
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


cdef void nnue_refresh(Position* p, int16_t* acc, int persp) noexcept nogil:
    """An accumulator from scratch: the bias plus the column of every piece on the board."""
    cdef const int16_t* column
    cdef u64 b = occupied(p)
    cdef int j, sq, stride = NET.stride
    for j in range(stride):
        acc[j] = NET.ft_bias[j]
    while b:
        sq = lsb(b)
        b &= b - 1
        column = NET.ft_weights + NNUE_FEATURE[persp][p.board[sq]][sq] * stride
        for j in range(stride):
            acc[j] += column[j]


cdef void nnue_apply(Position* p, int ply, int persp) noexcept nogil:
    """The accumulator at `ply` from the one below it and the pieces the move between them changed,
    in one pass (nnue_simd.h; int16 arithmetic wraps, so the order of additions cannot matter to an
    in-range result)."""
    cdef StateInfo* st = p.states + ply
    cdef const int16_t* added[3]
    cdef const int16_t* removed[3]
    cdef int i, n_added = 0, n_removed = 0, stride = NET.stride
    added[0] = removed[0] = NET.ft_bias      # never read when none is given; keeps the pointers defined
    for i in range(st.dirty_count):
        if st.dirty_from[i] != NO_SQ:
            removed[n_removed] = NET.ft_weights + NNUE_FEATURE[persp][st.dirty_piece[i]][st.dirty_from[i]] * stride
            n_removed += 1
        if st.dirty_to[i] != NO_SQ:
            added[n_added] = NET.ft_weights + NNUE_FEATURE[persp][st.dirty_piece[i]][st.dirty_to[i]] * stride
            n_added += 1
    nnue_update_columns(nnue_slot(p, ply, persp), nnue_slot(p, ply - 1, persp), added, n_added,
                        removed, n_removed, stride)


cdef void nnue_update(Position* p) noexcept nogil:
    """Bring the current ply's accumulators up to date: from the nearest computed ply below, one
    move at a time, unless the pieces changed on the way outnumber those a refresh adds."""
    cdef int ply = <int>(p.st - p.states), base = ply, changed = 0, pieces_on = popcount(occupied(p))
    cdef int persp
    while not p.states[base].nnue_ready:
        changed += p.states[base].dirty_count
        if base == 0 or changed > pieces_on:
            for persp in range(2):
                nnue_refresh(p, nnue_slot(p, ply, persp), persp)
            p.st.nnue_ready = 1
            return
        base -= 1
    while base < ply:
        base += 1
        for persp in range(2):
            nnue_apply(p, base, persp)
        p.states[base].nnue_ready = 1


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
    cdef int64_t out
    nnue_update(p)
    out = nnue_half(nnue_slot(p, ply, us), NET.out_weights) \
        + nnue_half(nnue_slot(p, ply, us ^ 1), NET.out_weights + NET.stride)
    if NET.screlu:
        out //= NET.qa          # C division (cdivision): truncates toward zero, as the reference's trunc
    out += NET.out_bias
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
    int16, QA up to 255)."""
    cdef const int16_t[:, :] ft = net.ft_weights
    cdef const int16_t[:] bias = net.ft_bias
    cdef const int16_t[:, :] out = net.out_weights
    cdef int hidden = net.hidden, stride, largest = 1
    cdef Py_ssize_t half, j, f
    cdef int16_t *ft_weights, *ft_bias, *out_weights
    if ft.shape[0] != NNUE_INPUTS or ft.shape[1] != hidden or bias.shape[0] != hidden \
            or out.shape[0] != 2 or out.shape[1] != hidden:
        raise ValueError(f"the net's arrays do not have the shapes of {NNUE_INPUTS} inputs and {hidden} hidden")
    if not 1 <= net.qa <= NNUE_MAX_QA or not 1 <= net.qb or not 1 <= net.scale <= NNUE_MAX_SCALE \
            or net.qa * net.qb > 2 ** 31 - 1:
        raise ValueError(f"the net's QA {net.qa}, QB {net.qb}, SCALE {net.scale} are beyond the core's "
                         f"ranges (QA 1-{NNUE_MAX_QA}, SCALE 1-{NNUE_MAX_SCALE})")
    bound = nnue_accumulator_bound(ft, bias)
    if bound > 32767:
        raise ValueError(f"the net's input weights can take an accumulator to {bound}, beyond int16")
    for half in range(2):
        for j in range(hidden):
            largest = max(largest, abs(<int>out[half, j]))
    term = net.qa * (net.qa if net.activation == "screlu" else 1) * largest
    stride = (hidden + NNUE_ALIGN // 2 - 1) // (NNUE_ALIGN // 2) * (NNUE_ALIGN // 2)     # hidden rounded up
    ft_weights = nnue_aligned(NNUE_INPUTS, stride)
    ft_bias = nnue_aligned(1, stride)
    out_weights = nnue_aligned(2, stride)
    for j in range(hidden):
        for f in range(NNUE_INPUTS):
            ft_weights[f * stride + j] = ft[f, j]
        ft_bias[j] = bias[j]
        out_weights[j], out_weights[stride + j] = out[0, j], out[1, j]
    nnue_unload()
    NET.ft_weights, NET.ft_bias, NET.out_weights = ft_weights, ft_bias, out_weights
    NET.out_bias = int(net.out_bias)
    NET.hidden, NET.stride, NET.screlu = hidden, stride, net.activation == "screlu"
    NET.qa, NET.qb, NET.scale = net.qa, net.qb, net.scale
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
