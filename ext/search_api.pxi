# Search: the Python face of the C search. It owns the transposition table and the workers,
# runs one search at a time (the caller's thread is the main worker, helpers get Python threads
# that drop the GIL at once), and turns the main worker's iteration results into info dicts.

import os
import threading

from libc.stdlib cimport calloc
from libc.string cimport memset

cdef enum:
    PAWN_TABLE_LOG2 = 14    # 16K entries of 64 bytes: 1 MB per search thread

TB_WIN_SCORE = VALUE_TB_WIN - 1     # a tablebase win as the root's lines show it (one ply down)


cdef int score_to_uci(int score, dict out):
    if score >= VALUE_MATE_IN_MAX_PLY:
        out["mate"] = (VALUE_MATE - score + 1) // 2
    elif score <= -VALUE_MATE_IN_MAX_PLY:
        out["mate"] = -((VALUE_MATE + score) // 2)
    else:
        out["cp"] = score
    return 0


cdef list moves_to_uci(Position* root, Move* moves, int count):
    """UCI text of a line of moves from root (castling notation depends on the position)."""
    cdef Position line
    cdef int i
    if copy_position(&line, root, count + 1) < 0:
        raise MemoryError()
    text = []
    try:
        for i in range(count):
            text.append(move_uci(&line, moves[i]))
            do_move(&line, moves[i])
    finally:
        free(line.states)
    return text


cdef class Search:
    """Threads, hash and limits of a search; `run()` blocks until it ends, `stop()` ends it early."""
    cdef SearchShared* shared
    cdef Worker** workers
    cdef int threads
    cdef int hash_mb
    cdef Board root
    cdef object info_callback
    cdef object clock
    cdef object running

    def __cinit__(self):
        self.shared = <SearchShared*>calloc(1, sizeof(SearchShared))
        self.workers = <Worker**>calloc(MAX_WORKERS, sizeof(Worker*))
        if self.shared == NULL or self.workers == NULL:
            raise MemoryError()

    def __init__(self, int threads=1, int hash_mb=16):
        self.running = threading.Lock()
        self.set_hash(hash_mb)
        self.set_threads(threads)

    def __dealloc__(self):
        cdef int i
        if self.workers != NULL:
            for i in range(MAX_WORKERS):
                if self.workers[i] != NULL:
                    free(self.workers[i].pos.states)
                    nnue_release(&self.workers[i].pos)
                    pawn_table_free(&self.workers[i].pawns)
                    free(self.workers[i])
            free(self.workers)
        if self.shared != NULL:
            free(self.shared.tt.slots)
            free(self.shared)

    @property
    def threads(self):
        return self.threads

    @property
    def hash_mb(self):
        return self.hash_mb

    def set_threads(self, int threads):
        """Use `threads` workers (1..256); returns the number in use."""
        cdef int i
        if not 1 <= threads <= MAX_WORKERS:
            raise ValueError(f"Threads must be between 1 and {MAX_WORKERS}, not {threads}")
        with self.running:
            for i in range(threads):
                if self.workers[i] == NULL:
                    self.workers[i] = <Worker*>calloc(1, sizeof(Worker))
                    if self.workers[i] == NULL:
                        threads = i
                        break
                    if pawn_table_init(&self.workers[i].pawns, PAWN_TABLE_LOG2) < 0:
                        free(self.workers[i])
                        self.workers[i] = NULL
                        threads = i
                        break
            self.threads = max(threads, 1)
        return self.threads

    def set_hash(self, int megabytes):
        """Resize the transposition table; falls back to the largest power-of-two size that can be
        allocated. Returns the size in MB actually in use."""
        cdef u64 buckets = 1
        cdef TTSlot* slots = NULL
        if megabytes < 1:
            raise ValueError(f"Hash must be at least 1 MB, not {megabytes}")
        # Untouched calloc pages cost nothing until cleared, so cap by what RAM is free now.
        available_mb = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
        megabytes = min(megabytes, max(1, available_mb * 3 // 4))
        while buckets * 2 * BUCKET_SLOTS * sizeof(TTSlot) <= (<u64>megabytes) << 20:
            buckets *= 2
        with self.running:
            while buckets >= 1024:
                slots = <TTSlot*>calloc(buckets * BUCKET_SLOTS, sizeof(TTSlot))
                if slots != NULL:
                    break
                buckets //= 2
            if slots == NULL:
                raise MemoryError("not even a 64 KB hash table could be allocated")
            free(self.shared.tt.slots)
            self.shared.tt.slots = slots
            self.shared.tt.buckets = buckets
            self.hash_mb = <int>((buckets * BUCKET_SLOTS * sizeof(TTSlot)) >> 20)
        return self.hash_mb

    def clear(self):
        """Forget everything learnt: hash table, histories (correction history too), killers (a new
        game)."""
        cdef int i
        with self.running:
            memset(self.shared.tt.slots, 0, self.shared.tt.buckets * BUCKET_SLOTS * sizeof(TTSlot))
            for i in range(MAX_WORKERS):
                if self.workers[i] != NULL:
                    memset(self.workers[i].history, 0, sizeof(self.workers[i].history))
                    memset(self.workers[i].counters, 0, sizeof(self.workers[i].counters))
                    memset(self.workers[i].continuation, 0, sizeof(self.workers[i].continuation))
                    memset(self.workers[i].pawn_correction, 0, sizeof(self.workers[i].pawn_correction))
                    memset(self.workers[i].material_correction, 0, sizeof(self.workers[i].material_correction))

    def stop(self):
        atomic_store(&self.shared.stop, 1)

    def prepare(self):
        """Forget a stop() given while no search ran. run() does not clear the stop flag when it
        starts (it does when it ends), so a stop() that comes after prepare() but before the
        searching thread gets going still ends that search at once."""
        atomic_store(&self.shared.stop, 0)

    def run(self, Board board not None, *, int depth=0, long long nodes=0, int mate=0, int multipv=1,
            searchmoves=(), info=None, clock=None, int tb_cardinality=0, int tb_probe_depth=1,
            bint tb_rule50=True):
        """Search `board` within the limits (0 means none) and return the result as a dict:
        move, ponder (None if unknown), score {cp|mate}, depth, seldepth, nodes, time_ms, pv, and
        lines: the MultiPV lines of the last completed iteration ({pv, cp|mate, ...}, best first).
        `info(lines)` is called from this thread with a list of per-line dicts at iteration ends.
        `clock` is the time manager (engine/play/timeman.py's TimeManager; None: no clock): the search
        aborts at its hard_ms, consults its deadline() from check_ms on and its iteration_done()
        after each iteration. While clock.pondering the clock waits for ponderhit().
        tb_cardinality > 0 probes the Syzygy tables loaded by Tablebases at that many pieces or
        fewer (at exactly that many from tb_probe_depth on); tb_rule50 makes cursed wins and
        blessed losses draws. The result and info dicts count the probes as tbhits."""
        cdef Move legal[MAX_MOVES]
        cdef Move wanted[MAX_MOVES]
        cdef int n, i, j, k, wanted_count = 0
        cdef Worker* w
        cdef SearchShared* s = self.shared
        if depth < 0 or nodes < 0 or mate < 0:
            raise ValueError("search limits cannot be negative")
        for text in searchmoves:
            if wanted_count < MAX_MOVES:
                wanted[wanted_count] = parse_move(&board.pos, text)
                wanted_count += 1
        with self.running:
            n = generate(&board.pos, legal, GEN_ALL)
            if wanted_count:
                k = 0
                for i in range(n):
                    for j in range(wanted_count):
                        if wanted[j] == legal[i]:
                            legal[k] = legal[i]
                            k += 1
                            break
                n = k
            if n == 0:
                return {"move": None, "ponder": None, "score": None, "depth": 0, "seldepth": 0,
                        "nodes": 0, "tbhits": 0, "time_ms": 0, "pv": [], "lines": []}
            self.root = board.copy()
            self.info_callback = info
            self.clock = clock
            s.pondering = clock is not None and clock.pondering
            s.start_ms = now_ms()
            s.clock_ms = s.start_ms
            s.timed = clock is not None
            s.hard_ms = clock.hard_ms if clock is not None else 0
            s.check_ms = clock.check_ms if clock is not None else 0
            s.node_limit = nodes
            s.poll_mask = 0 if 0 < nodes < 65536 else 2047
            s.depth_limit = min(depth, MAX_SEARCH_PLY - 8)
            s.mate_limit = mate
            s.multipv = max(1, multipv)
            s.worker_count = self.threads
            s.tb_cardinality = tb_cardinality
            s.tb_probe_depth = tb_probe_depth
            s.tb_rule50 = tb_rule50
            s.tt.generation = (s.tt.generation + 1) & 63
            for i in range(self.threads):
                w = self.workers[i]
                free(w.pos.states)
                w.pos.states = NULL
                nnue_release(&w.pos)
                # Room for the deepest ply plus the states a tablebase probe plays through.
                if copy_position(&w.pos, &board.pos, MAX_SEARCH_PLY + TB_PROBE_PLIES + 8) < 0:
                    raise MemoryError()
                s.workers[i] = w
                w.shared = s
                w.id = i
                w.nodes = 0
                w.tbhits = 0
                w.completed_depth = 0
                w.best_count = 0
                w.nmp_min_ply = 0
                w.reporter = <void*>self if i == 0 else NULL
                memset(w.frames, 0, sizeof(w.frames))
                w.root_count = n
                for k in range(n):
                    w.roots[k].move = legal[k]
                    w.roots[k].score = -VALUE_INFINITE
                    w.roots[k].previous_score = -VALUE_INFINITE
                    w.roots[k].pv[0] = legal[k]
                    w.roots[k].pv_length = 1
                    w.roots[k].seldepth = 0
                    w.roots[k].nodes = 0
                    w.roots[k].bound = BOUND_EXACT
            helpers = [threading.Thread(target=self._work, args=(i,), daemon=True) for i in range(1, self.threads)]
            for thread in helpers:
                thread.start()
            self._work(0)
            for thread in helpers:
                thread.join()
            result = self._result()
            s.stop = 0
            return result

    def _work(self, int index):
        cdef Worker* w = self.workers[index]
        with nogil:
            iterative_deepening(w)

    cdef Worker* _chosen(self):
        # The main worker's move, unless a helper completed a deeper iteration with a better score.
        cdef Worker* best = self.workers[0]
        cdef Worker* w
        cdef int i
        for i in range(1, self.threads):
            w = self.workers[i]
            if w.best_count and best.best_count and w.completed_depth > best.completed_depth \
                    and w.best[0].score > best.best[0].score:
                best = w
        return best

    cdef dict _line(self, RootMove* rm):
        line = {"pv": moves_to_uci(&self.root.pos, rm.pv, rm.pv_length), "seldepth": rm.seldepth}
        score_to_uci(rm.score if rm.score != -VALUE_INFINITE else rm.previous_score, line)
        if rm.bound == BOUND_LOWER:
            line["lowerbound"] = True
        elif rm.bound == BOUND_UPPER:
            line["upperbound"] = True
        return line

    cdef dict _result(self):
        cdef Worker* w = self._chosen()
        cdef int i
        cdef RootMove* rm = &w.best[0] if w.best_count else &w.roots[0]
        line = self._line(rm)
        elapsed = now_ms() - self.shared.start_ms
        return {"move": line["pv"][0], "ponder": line["pv"][1] if len(line["pv"]) > 1 else None,
                "score": {k: line[k] for k in ("cp", "mate") if k in line}, "depth": w.completed_depth,
                "seldepth": line["seldepth"], "nodes": total_nodes(self.shared),
                "tbhits": total_tbhits(self.shared), "time_ms": elapsed,
                "pv": line["pv"], "lines": [self._line(&w.best[i]) for i in range(w.best_count)] or [line]}

    def ponderhit(self, bint stop_now=False):
        """The expected move was played: the clock of a ponder search starts now, or, with
        stop_now (the time manager's verdict), the search ends."""
        cdef SearchShared* s = self.shared
        if not atomic_load(&s.pondering):
            return
        s.clock_ms = now_ms()
        atomic_store(&s.pondering, 0)
        if stop_now:
            atomic_store(&s.stop, 1)

    def iteration_done(self, int depth):
        """Called by the main worker, with the GIL, after each iteration: the clock's verdict."""
        cdef Worker* w = self.workers[0]
        cdef int score = w.best[0].score
        cdef int mate_plies = 0
        if score >= VALUE_MATE_IN_MAX_PLY:
            mate_plies = VALUE_MATE - score
        elif score <= -VALUE_MATE_IN_MAX_PLY:
            mate_plies = -(VALUE_MATE + score)
        stop = self.clock.iteration_done(
            depth, now_ms() - self.shared.clock_ms, w.best_move_changes,
            w.best[0].nodes / max(w.nodes, 1), w.root_count, mate_plies)
        self.shared.check_ms = self.clock.check_ms
        return stop

    def deadline(self, long long elapsed):
        """Called by the main worker, with the GIL, when the clock's check time has passed."""
        cdef Worker* w = self.workers[0]
        cdef RootMove* rm = &w.roots[w.pv_index]
        score = rm.score if rm.score != -VALUE_INFINITE else rm.previous_score
        next_check = self.clock.deadline(elapsed, w.root_move_number, w.root_failing, score)
        if next_check:
            self.shared.check_ms = next_check
        else:
            atomic_store(&self.shared.stop, 1)

    def report_current_move(self, int depth, Move move, int number):
        """Called by the main worker, with the GIL, as it starts each root move after 1 s."""
        if self.info_callback is not None:
            self.info_callback([{"depth": depth, "currmove": move_uci(&self.root.pos, move),
                                 "currmovenumber": number}])

    def report(self, int depth, int lines, bint partial):
        """Called by the main worker, with the GIL, after an iteration (or an aspiration fail)."""
        cdef Worker* w = self.workers[0]
        cdef int i
        cdef RootMove* rm
        if self.info_callback is None:
            return
        elapsed = now_ms() - self.shared.start_ms
        nodes = total_nodes(self.shared)
        common = {"depth": depth, "nodes": nodes, "tbhits": total_tbhits(self.shared), "time_ms": elapsed,
                  "nps": nodes * 1000 // max(elapsed, 1), "hashfull": tt_hashfull(&self.shared.tt)}
        infos = []
        for i in range(lines if not partial else 1):
            if partial:
                rm = &w.roots[w.pv_index]
            else:
                rm = &w.best[i]
            info = dict(common, multipv=(w.pv_index if partial else i) + 1)
            info.update(self._line(rm))
            infos.append(info)
        self.info_callback(infos)
