# The search's state: what the search threads share (the TT, the limits, the stop flag) and what
# each worker holds (its position, root moves, per-ply frames, histories and correction tables),
# the score constants every part of the search uses, and the main worker's polling of the limits.

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from *:
    """
    static inline int pyrope_load(int* flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }
    static inline void pyrope_store(int* flag, int value) { __atomic_store_n(flag, value, __ATOMIC_RELAXED); }
    """
    int atomic_load "pyrope_load"(int* flag) noexcept nogil
    void atomic_store "pyrope_store"(int* flag, int value) noexcept nogil

cdef class Search    # defined in search_api.pxi; the main worker reports through it

cdef enum:
    VALUE_INFINITE = 32001
    # A tablebase win found `ply` plies from the root scores VALUE_TB_WIN - ply: above any
    # evaluation, below every mate score (which the search still prefers when it sees one).
    VALUE_TB_WIN = VALUE_MATE_IN_MAX_PLY - 1
    MAX_ROOT_PV = 64
    MAX_WORKERS = 256
    HISTORY_MAX = 16384
    # Correction history (correction.pxi): entries per side to move, and entry
    # units per centipawn of correction.
    PAWN_CORRECTION_SIZE = 16384
    MATERIAL_CORRECTION_SIZE = 4096
    CORRECTION_GRAIN = 256
    # The weakest tablebase win (VALUE_TB_WIN - ply at the deepest ply): every score at or above
    # it in size is a mate or tablebase result, every evaluation lies below it.
    VALUE_DECISIVE = VALUE_TB_WIN - MAX_SEARCH_PLY

cdef inline long long now_ms() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000 + ts.tv_nsec // 1000000


cdef struct RootMove:
    Move move
    int score           # this iteration's score (-VALUE_INFINITE until searched)
    int previous_score  # the last completed iteration's, for ordering and reports
    int bound           # BOUND_EXACT, or LOWER/UPPER when it failed high/low in an aspiration window
    int seldepth
    int pv_length
    u64 nodes           # spent on this move over all iterations (the time manager's easy-move test)
    Move pv[MAX_SEARCH_PLY]

cdef struct Frame:
    Move move           # the move made from this ply
    int moved_piece
    int static_eval
    Move killers[2]
    Move excluded       # the move a singular-extension search leaves out (MOVE_NONE: none)
    int* continuation   # the continuation-history row of the move made from this ply, or NULL

cdef struct SearchShared:
    TTable tt
    int stop                # set by the GUI, the clock, a limit or the main worker
    int pondering           # no clock until ponderhit
    long long start_ms      # for info lines
    long long clock_ms      # when the clock started: the search start, or ponderhit
    long long hard_ms       # abort the search this long after clock_ms (0: none)
    long long check_ms      # consult the Python time manager this long after clock_ms (0: never)
    bint timed              # a Python time manager decides when iterations stop
    u64 node_limit          # 0: none
    u64 poll_mask           # the main worker polls the limits when nodes & poll_mask == 0
    int depth_limit
    int mate_limit          # moves; 0: none
    int multipv
    int worker_count
    int tb_cardinality      # probe the tablebases at this many pieces or fewer (0: never)
    int tb_probe_depth      # ... and, at exactly that many, only this deep or deeper
    bint tb_rule50          # cursed wins and blessed losses are draws
    void* workers[MAX_WORKERS]

cdef struct Worker:
    Position pos
    SearchShared* shared
    PawnTable pawns
    int id
    u64 nodes
    u64 tbhits
    int seldepth
    int completed_depth
    int root_count
    int pv_index
    int root_move_number    # of the root move being searched, from 1
    int root_failing        # +1 the root is failing high, -1 low, 0 neither
    int best_move_changes   # in this iteration
    int nmp_min_ply         # null move is off below this ply while verifying
    RootMove roots[MAX_MOVES]
    RootMove best[MAX_ROOT_PV]   # the lines of the last completed iteration
    int best_count
    Frame frames[MAX_SEARCH_PLY + 4]
    int history[2][64][64]
    int continuation[16][64][16][64]    # [previous piece][its to][piece][to]: follow-up quiets
    Move counters[16][64]
    short pawn_correction[2][PAWN_CORRECTION_SIZE]          # [side to move][pawn_hash]
    short material_correction[2][MATERIAL_CORRECTION_SIZE]  # [side to move][material_index]
    Move pv[MAX_SEARCH_PLY + 1][MAX_SEARCH_PLY + 1]
    int pv_length[MAX_SEARCH_PLY + 1]
    void* reporter          # the Python Search object (main worker only), called with the GIL


cdef inline u64 total_nodes(SearchShared* s) noexcept nogil:
    cdef u64 n = 0
    cdef int i
    for i in range(s.worker_count):
        n += (<Worker*>s.workers[i]).nodes
    return n

cdef inline u64 total_tbhits(SearchShared* s) noexcept nogil:
    cdef u64 n = 0
    cdef int i
    for i in range(s.worker_count):
        n += (<Worker*>s.workers[i]).tbhits
    return n

cdef inline bint stopped(Worker* w) noexcept nogil:
    # Iteration 1 is never interrupted (it takes microseconds), so there is always a scored move.
    return atomic_load(&w.shared.stop) != 0 and w.completed_depth > 0

cdef void poll_limits(Worker* w) noexcept nogil:
    # Called every 2048 nodes by the main worker (every node under a small node limit): cheap
    # enough, and well under a millisecond. Iteration 1 always completes, so there is a move;
    # the clock never aborts before iteration 2 completes, nor while pondering.
    cdef SearchShared* s = w.shared
    cdef long long elapsed
    if s.node_limit and w.completed_depth >= 1 and total_nodes(s) >= s.node_limit:
        atomic_store(&s.stop, 1)
    if w.completed_depth < 2 or atomic_load(&s.pondering):
        return
    elapsed = now_ms() - s.clock_ms
    if s.hard_ms and elapsed >= s.hard_ms:
        atomic_store(&s.stop, 1)
    elif s.check_ms and elapsed >= s.check_ms:
        consult_clock(w, elapsed)
