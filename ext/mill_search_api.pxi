# MillSearch (included by _mill.pyx): the compiled searcher's Python face. run() copies a MillCore's
# rules, position and history, deepens iteratively without the GIL, and takes the GIL only to hand
# each finished iteration to a callback; stop() may be called from another thread meanwhile.
from libc.stdlib cimport calloc
from libc.string cimport memcpy, memset

MAX_DEPTH = MAX_PLY - 1
MATE_SCORE = MATE
MATE_THRESHOLD = MATE_BOUND
ALGORITHMS = {"pvs": ALGO_PVS, "mtdf": ALGO_MTDF}


cdef class MillSearch:
    """Searcher with its own table, killers and history. One search at a time; run() from any
    thread, stop() from another. Moves are MillCore's (from, to, removed-mask) tuples."""
    cdef SearchState* s
    cdef object callback, error
    cdef bint busy
    cdef Move best          # the last finished iteration's best move (the first ordered before)
    cdef int depth_done
    cdef object database    # the MillDBCore probed, kept alive while attached

    def __cinit__(self):
        self.s = <SearchState*>calloc(1, sizeof(SearchState))
        if not self.s:
            raise MemoryError()
        self.s.buf = <Move*>malloc(BUF_MOVES * sizeof(Move))
        self.s.order = <int*>malloc(BUF_MOVES * sizeof(int))
        if not self.s.buf or not self.s.order:
            raise MemoryError()
        self.set_weights(DEFAULT_WEIGHTS)

    def __dealloc__(self):
        if self.s:
            free(self.s.buf)
            free(self.s.order)
            free(self.s.hist)
            free(self.s.tt)
            free(self.s)

    def _idle(self):
        if self.busy:
            raise RuntimeError("The searcher is searching; stop it first.")

    def set_hash(self, int megabytes):
        """Table of the largest power-of-two entry count that fits; 0: no table."""
        cdef uint64_t entries = 1
        self._idle()
        if megabytes < 0:
            raise ValueError(f"The hash size must be 0 MB or more, not {megabytes}.")
        free(self.s.tt)
        self.s.tt = NULL
        self.s.tt_mask = 0
        if megabytes == 0:
            return
        while entries * 2 * sizeof(TTEntry) <= <uint64_t>megabytes << 20:
            entries *= 2
        self.s.tt = <TTEntry*>calloc(entries, sizeof(TTEntry))
        if not self.s.tt:
            raise MemoryError(f"No memory for a {megabytes} MB hash table.")
        self.s.tt_mask = entries - 1

    def clear(self):
        """Forget the table, killers and history (a new game)."""
        self._idle()
        if self.s.tt:
            memset(self.s.tt, 0, (self.s.tt_mask + 1) * sizeof(TTEntry))
        memset(self.s.killers, 0, sizeof(self.s.killers))
        memset(self.s.history, 0, sizeof(self.s.history))

    def set_weights(self, values):
        """Evaluation weights in WEIGHT_NAMES order."""
        self._idle()
        if len(values) != NWEIGHTS:
            raise ValueError(f"The evaluation takes {NWEIGHTS} weights, not {len(values)}.")
        for i in range(NWEIGHTS):
            self.s.w[i] = values[i]

    def set_database(self, MillDBCore database):
        """Probe database's attached sections below the root (None: none); its rules must be the
        searched game's (the caller checks)."""
        self._idle()
        self.database = database
        self.s.db = database.c if database is not None else NULL

    @property
    def tbhits(self):
        """Database probes that answered, in the current or last search."""
        return self.s.tbhits

    def stop(self):
        """End the running search at its next node, or the next one if none runs yet."""
        store_flag(&self.s.stop, 1)

    def prepare(self):
        """Forget a stop() given while no search ran (as chess's Search.prepare): call it before
        starting the search thread, so that a stop() between the two still ends that search."""
        store_flag(&self.s.stop, 0)

    def evaluate(self, MillCore core):
        """The static evaluation of core's position for the side to move."""
        return evaluate(&core.r, &core.p, self.s.w)

    def run(self, MillCore core, int depth, unsigned long long nodes, double movetime_ms,
            int algorithm, callback):
        """Search core's position; returns (move, score, completed depth, nodes, milliseconds).
        callback(depth, score, nodes, milliseconds, pv) after each finished iteration. The move is
        the last finished iteration's best, or the first ordered move if none finished."""
        cdef SearchState* s = self.s
        cdef int need = core.n + MAX_PLY + 2
        cdef int score
        self._idle()
        if game_status(&core.r, &core.p, core.hist, core.n) != ONGOING:
            raise ValueError("The game is over; there is nothing to search.")
        if s.hist_cap < need:
            free(s.hist)
            s.hist = <uint64_t*>malloc(need * sizeof(uint64_t))
            if not s.hist:
                s.hist_cap = 0
                raise MemoryError()
            s.hist_cap = need
        s.r = core.r
        s.pos = core.p
        memcpy(s.hist, core.hist, (core.n + 1) * sizeof(uint64_t))
        s.root_n = core.n
        s.nodes = 0
        s.tbhits = 0
        s.max_nodes = nodes if nodes > 0 else <unsigned long long>-1
        s.start_ms = now_ms()
        s.deadline_ms = s.start_ms + movetime_ms if movetime_ms > 0 else 1e300
        s.stopped = 0
        memset(s.killers, 0, sizeof(s.killers))
        self.callback = callback
        self.error = None
        self.busy = True
        try:
            with nogil:
                score = self.iterate(min(max(depth, 1), MAX_PLY - 1), algorithm)
        finally:
            self.busy = False
            store_flag(&s.stop, 0)
            self.callback = None
        if self.error is not None:
            raise self.error
        return ((self.best.frm, self.best.to, self.best.removed), score, self.depth_done, s.nodes,
                now_ms() - s.start_ms)

    cdef int iterate(self, int max_depth, int algorithm) noexcept nogil:
        """Deepen until max_depth, a limit or a proven game end; returns the last finished score."""
        cdef SearchState* s = self.s
        cdef int nroot, depth, v, i, score
        cdef int previous[2]
        nroot = gen_moves(&s.r, &s.pos, s.buf)
        s.used = nroot
        score_moves(s, s.buf, s.order, nroot, NO_MOVE, 0)
        for i in range(nroot):
            pick(s.buf, s.order, i, nroot)
        self.best = s.buf[0]
        self.depth_done = 0
        score = evaluate(&s.r, &s.pos, s.w)
        previous[0] = previous[1] = score
        for depth in range(1, max_depth + 1):
            if algorithm == ALGO_MTDF:
                # the score two iterations back shares this depth's parity: a closer first guess
                v = mtdf(s, depth, previous[depth & 1], nroot)
            else:
                v = aspiration(s, depth, previous[(depth - 1) & 1], nroot)
            if s.stopped:
                break
            score = v
            previous[depth & 1] = v
            self.best = s.buf[0]
            self.depth_done = depth
            with gil:
                self.report(depth, v)
            if s.stopped or (v >= MATE_BOUND or v <= -MATE_BOUND) and MATE - abs(v) <= depth:
                break   # a game end within the horizon of a full-width search: deeper cannot change it
        return score

    cdef void report(self, int depth, int score):
        """Hand a finished iteration to the callback; an exception in it stops the search."""
        cdef Move pv[MAX_PLY]
        cdef int n, i
        if self.callback is None:
            return
        n = principal_variation(self.s, pv, depth)
        try:
            self.callback(depth, score, self.s.nodes, now_ms() - self.s.start_ms,
                          [(pv[i].frm, pv[i].to, pv[i].removed) for i in range(n)])
        except BaseException as error:
            self.error = error
            self.s.stopped = 1
