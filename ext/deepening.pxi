# Iterative deepening with aspiration windows, one call per worker; Lazy SMP's helpers skip
# depths in a pattern each and share only the transposition table and the stop flag. The main
# worker reports each iteration and asks the time manager (Python, with the GIL) when to stop.

cdef void sort_roots(Worker* w, int start, int end) noexcept nogil:
    # Insertion sort of roots[start:end], stable: ties keep the previous iteration's order.
    cdef int i, j
    cdef RootMove tmp
    for i in range(start + 1, end):
        tmp = w.roots[i]
        j = i - 1
        while j >= start and w.roots[j].score < tmp.score:
            w.roots[j + 1] = w.roots[j]
            j -= 1
        w.roots[j + 1] = tmp


# Lazy SMP: helpers that all searched every depth would mostly repeat the main worker's work.
# Each helper skips some depths instead, in a pattern of its own (Stockfish 8's table: helper n
# uses entry (n - 1) mod 20 and skips depth d when (d + phase) / size is odd), so the workers
# spread over neighbouring depths and the helpers run ahead, filling the shared table with
# deeper results for the main worker. The first helper searches the even depths only.
cdef int SKIP_SIZE[20]
cdef int SKIP_PHASE[20]
SKIP_SIZE[:] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4]
SKIP_PHASE[:] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7]

cdef inline bint helper_skips(Worker* w, int depth) noexcept nogil:
    # Depth 1 is never skipped: until it completes, a worker ignores the stop flag.
    cdef int i = (w.id - 1) % 20
    return w.id > 0 and depth > 1 and ((depth + SKIP_PHASE[i]) // SKIP_SIZE[i]) % 2 == 1

cdef void iterative_deepening(Worker* w) noexcept nogil:
    cdef SearchShared* s = w.shared
    cdef int depth, alpha, beta, delta, value, i, lines
    cdef int max_depth = s.depth_limit if s.depth_limit > 0 else MAX_SEARCH_PLY - 8
    lines = s.multipv if s.multipv < w.root_count else w.root_count
    if lines > MAX_ROOT_PV:
        lines = MAX_ROOT_PV
    for depth in range(1, max_depth + 1):
        if helper_skips(w, depth):
            continue
        for i in range(w.root_count):
            w.roots[i].previous_score = w.roots[i].score
        w.best_move_changes = 0
        for w.pv_index in range(lines):
            delta = SP.aspiration_delta
            value = w.roots[w.pv_index].previous_score
            if depth >= 5 and -VALUE_MATE_IN_MAX_PLY < value < VALUE_MATE_IN_MAX_PLY:
                alpha = value - delta
                beta = value + delta
            else:
                alpha = -VALUE_INFINITE
                beta = VALUE_INFINITE
            w.root_failing = 0
            while True:
                value = search_root(w, alpha, beta, depth)
                sort_roots(w, w.pv_index, w.root_count)
                if stopped(w):
                    break
                if value <= alpha:
                    w.root_failing = -1
                    beta = (alpha + beta) // 2
                    alpha = value - delta if value - delta > -VALUE_INFINITE else -VALUE_INFINITE
                elif value >= beta:
                    w.root_failing = 1
                    beta = value + delta if value + delta < VALUE_INFINITE else VALUE_INFINITE
                else:
                    w.root_failing = 0
                    break
                if w.id == 0 and now_ms() - s.start_ms > 1000:
                    report_iteration(w, depth, lines, True)
                delta += delta // 2
            if stopped(w):
                break
            # The lines found so far are reported best first, whatever order they were found in.
            sort_roots(w, 0, w.pv_index + 1)
        if stopped(w) and depth > 1:
            break
        # Depth 1 always completes (it is never interrupted by the clock), so there is always a move.
        w.completed_depth = depth
        w.best_count = lines
        for i in range(lines):
            w.best[i] = w.roots[i]
        if w.id == 0:
            report_iteration(w, depth, lines, False)
            if s.mate_limit and w.best[0].score >= VALUE_MATE - 2 * s.mate_limit:
                break
            if s.timed and clock_says_stop(w, depth):
                break
    if w.id == 0:
        atomic_store(&s.stop, 1)


cdef void report_iteration(Worker* w, int depth, int lines, bint partial) noexcept nogil:
    with gil:
        if w.reporter != NULL:
            (<Search>w.reporter).report(depth, lines, partial)


cdef bint clock_says_stop(Worker* w, int depth) noexcept nogil:
    # The time manager's end-of-iteration rules (in Python: engine/play/timeman.py).
    with gil:
        return (<Search>w.reporter).iteration_done(depth)


cdef void consult_clock(Worker* w, long long elapsed) noexcept nogil:
    # A deadline passed during an iteration: the time manager aborts or sets the next one.
    with gil:
        (<Search>w.reporter).deadline(elapsed)


cdef void report_current_move(Worker* w, int depth, Move move, int number) noexcept nogil:
    with gil:
        if w.reporter != NULL:
            (<Search>w.reporter).report_current_move(depth, move, number)
