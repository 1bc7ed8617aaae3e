# Darkboard 2.0's move choice (thesis 5.8, approach C) over the compiled metaposition: Monte Carlo
# tree search in which a node is never simulated but valued at once by the referee's answers it
# may bring, each weighed by its chance. The tree has three levels a move, as figure 5.8's: our try
# (chosen by UCT), the referee's answer to it (refused, silent, or a capture), and the enemy's
# move (played as the metaposition's silent enemy move, 4.4.2: what it may take of ours is the
# evaluation's danger). The chances come from the enemy men's density (the game's, at the root,
# ext/kriegspiel_density.pxi, spread by mx_chance below it) as approach B's model has them: a try
# is refused as often as a man may stand on its path (a pawn's capture, as often as its square is
# empty); it takes as often as a man may stand on its square. A refused try costs nothing -- the
# mover tries again -- so it is worth the best other try. A node's value is the maximax's
# evaluation (ext/kriegspiel_maximax.pxi, 4.5) of each answer's metaposition blended with the best
# line below it by the risk coefficient alpha, and backed up by the maximum (5.8), not the mean.
#
# Nodes and edges live in two pools sized by the budget of evaluated metapositions; the search
# stops when the budget is spent or its deadline passes (checked as the maximax's, in mx_static:
# a search ends at most one node's evaluations past it). Everything is C on C types, without the GIL.

from libc.math cimport log, sqrt

cdef enum:
    MC_MAX_CHILDREN = 2        # an edge's legal answers: silent, or a capture on its square
    MC_MAX_ROOT = 2 * MX_MAX_MOVES     # the tries a search may be given (pseudomoves, power moves)

# A search limited by time alone sizes its pools for this many metapositions a second -- some nine
# times what the search evaluates here (docs/kriegspiel.md "MCTS") -- so that the time, not a
# pool, ends it; the pools' memory is touched only as far as the search gets.
cdef double MC_TIMED_RATE = 2e6
cdef long MC_MAX_POSITIONS = 1 << 24


cdef struct McEdge:             # one of our tries from a node
    int move
    int visits
    int taken                   # visits that went down the capture's branch
    double refused              # the chance the referee refuses it
    double capture              # the chance, if legal, that it takes a man on its square
    double static[MC_MAX_CHILDREN]      # mx_static's value of each answer (silent, capture)
    double stalemated[MC_MAX_CHILDREN]  # and the chance of a stalemate there
    int child[MC_MAX_CHILDREN]          # the node after the enemy's move, -1 until visited


cdef struct McNode:             # our turn: a metaposition and our tries from it
    Meta m
    int first, count            # its edges in the edge pool
    int visits
    double value                # the best of its edges, refusals counted


cdef struct McTree:
    McNode* nodes
    McEdge* edges
    int n_nodes, n_edges, max_nodes, max_edges
    double exploration          # UCT's c, in the evaluation's units (centipawns)


cdef double mc_occupied(const MxSearch* s, const Meta* m, const MxDensity* density, int sq) noexcept nogil:
    """The chance that an enemy man stands on sq: certain where the metaposition is sure of one,
    else the density's chances of each type there."""
    cdef double here = 0.0
    cdef int t
    if m.mine & bb(sq):
        return 0.0
    if not m.empty & bb(sq):
        return 1.0
    for t in range(PAWN, KING + 1):
        if m.possible[t] & bb(sq):
            here += mx_chance(s, m, density, t, sq)
    return min(1.0, here)


cdef void mc_answers(const MxSearch* s, const Meta* m, const MxDensity* density, int move, bint power,
                     double* refused, double* capture) noexcept nogil:
    """Approach B's model of the referee's answer to our try `move` from `m`: the chance it is
    refused (a man on its path; a pawn's step onto a man, its capture onto an empty square) and,
    if legal, the chance it takes. A power move (4.3.3) takes surely."""
    cdef int frm = move & 63, to = (move >> 6) & 63, sq
    cdef double free = 1.0, there
    cdef u64 path
    there = mc_occupied(s, m, density, to)
    path = BETWEEN[frm][to] & ~m.mine
    if m.ours[KNIGHT] & bb(frm):
        path = 0
    while path:
        sq = lsb(path); path &= path - 1
        free *= 1.0 - mc_occupied(s, m, density, sq)
    if m.ours[PAWN] & bb(frm):
        if file_of(frm) == file_of(to):
            refused[0], capture[0] = 1.0 - free * (1.0 - there), 0.0
        else:
            refused[0], capture[0] = 1.0 - there, 1.0
        return
    refused[0] = 1.0 - free
    capture[0] = 1.0 if power else there


cdef int mc_new_node(McTree* t, MxSearch* s, const Meta* m, const int* moves, const bint* power,
                     int count) noexcept nogil:
    """A node for our turn at `m`, its tries `moves` (all of ours when `moves` is NULL) each valued
    by its answers' static values: the node's index, or -1 when a pool is full."""
    cdef int generated[MX_MAX_MOVES]
    cdef McNode* node
    cdef McEdge* e
    cdef Meta after
    cdef MxDensity density
    cdef int i, k
    if moves == NULL:
        count = mp_generate(m, generated, False)
        moves = generated
    if t.n_nodes >= t.max_nodes or t.n_edges + count > t.max_edges:
        return -1
    mx_density(m, &density)       # once for the node: every try's answers read it
    node = &t.nodes[t.n_nodes]
    node.m = m[0]
    node.first, node.count, node.visits = t.n_edges, count, 0
    for i in range(count):
        e = &t.edges[t.n_edges + i]
        e.move, e.visits, e.taken = moves[i], 0, 0
        mc_answers(s, m, &density, moves[i], power != NULL and power[i], &e.refused, &e.capture)
        for k in range(MC_MAX_CHILDREN):
            e.child[k] = -1
            e.static[k] = e.stalemated[k] = 0.0
        # The prediction of a silent move is a capture anyway where one is sure (mx_pseudo).
        if e.capture < 1.0:
            e.static[0] = mx_static(s, m, moves[i], False, &after)
            e.stalemated[0] = s.stalemated
        if e.capture > 0.0:
            e.static[1] = mx_static(s, m, moves[i], True, &after)
            e.stalemated[1] = s.stalemated
    t.n_edges += count
    t.n_nodes += 1
    mc_update(t, s, t.n_nodes - 1)
    return t.n_nodes - 1


cdef double mc_line(const McTree* t, const MxSearch* s, const McEdge* e, int k) noexcept nogil:
    """The value of answer k of edge e: its static value, blended with the best line below it
    once the node after the enemy's move exists (as the maximax's mx_blend)."""
    if e.child[k] < 0 or t.nodes[e.child[k]].count == 0:     # not visited, or no move after it
        return e.static[k]
    return mx_blend(s, e.static[k], e.stalemated[k], t.nodes[e.child[k]].value)


cdef inline double mc_legal(const McTree* t, const MxSearch* s, const McEdge* e) noexcept nogil:
    """An edge's value if the referee lets it through: its answers' lines by their chances."""
    return (1.0 - e.capture) * mc_line(t, s, e, 0) + e.capture * mc_line(t, s, e, 1)


cdef void mc_update(McTree* t, const MxSearch* s, int index) noexcept nogil:
    """Node `index`'s value from its edges: each edge worth its legal value as often as the
    referee lets it through, else the best other edge's legal value (the mover tries again)."""
    cdef McNode* node = &t.nodes[index]
    cdef McEdge* e
    cdef int i
    cdef double legal[MC_MAX_ROOT]
    cdef double first = -1e18, second = -1e18, other, best = -1e18, v
    for i in range(node.count):
        v = legal[i] = mc_legal(t, s, &t.edges[node.first + i])
        if v > first:
            second, first = first, v
        elif v > second:
            second = v
    for i in range(node.count):
        e = &t.edges[node.first + i]
        other = second if legal[i] == first else first
        if other == -1e18:
            other = legal[i]
        v = (1.0 - e.refused) * legal[i] + e.refused * other
        best = max(best, v)
    node.value = best


cdef inline double mc_edge_value(const McTree* t, const MxSearch* s, const McNode* node, const McEdge* e) noexcept nogil:
    """An edge's value as mc_update counts it (the best other edge approximated by the node's)."""
    return (1.0 - e.refused) * mc_legal(t, s, e) + e.refused * node.value


cdef int mc_select(const McTree* t, const MxSearch* s, const McNode* node) noexcept nogil:
    """UCT among the node's edges: value plus c * sqrt(ln(visits) / edge visits); unvisited first
    in order of value."""
    cdef int i, best = -1
    cdef double score, best_score = -1e18, log_n = log(node.visits + 1.0)
    cdef const McEdge* e
    for i in range(node.count):
        e = &t.edges[node.first + i]
        if e.refused >= 1.0:
            continue
        score = mc_edge_value(t, s, node, e) + t.exploration * sqrt(log_n / (e.visits + 1.0))
        if score > best_score:
            best_score, best = score, i
    return best


cdef void mc_search(McTree* t, MxSearch* s, long budget) noexcept nogil:
    """Approach C's loop: from the root, down by UCT and the likelier answer not yet given its
    share, to an answer whose node does not exist; make it (valuing all its tries), then back up
    the values along the path. Until `budget` metapositions are evaluated or a pool is full, or
    descents keep ending where there is nothing to make (nodes without moves), or the deadline
    passes."""
    cdef int path_nodes[256]
    cdef int path_edges[256]
    cdef int path_answers[256]
    cdef int depth, index, i, k, child
    cdef long stalls = 0
    cdef McNode* node
    cdef McEdge* e
    cdef Meta after, next_
    while s.positions < budget and not s.deadline.passed:
        index, depth = 0, 0
        child = -1
        while depth < 256:
            node = &t.nodes[index]
            i = mc_select(t, s, node)
            if i < 0:
                break
            e = &t.edges[node.first + i]
            # The answer: a capture as often as its chance says, by the visits so far.
            k = 1 if e.capture >= 1.0 or (e.capture > 0.0 and e.taken < e.capture * (e.visits + 1)) else 0
            path_nodes[depth], path_edges[depth], path_answers[depth] = index, node.first + i, k
            depth += 1
            if e.child[k] >= 0:
                index = e.child[k]
                continue
            mx_pseudo(&node.m, e.move, k == 1, &after)
            mx_meta(&after, &next_)
            child = mc_new_node(t, s, &next_, NULL, NULL, 0)
            if child < 0:
                return
            e.child[k] = child
            break
        if depth == 0 or (child < 0 and stalls > budget):
            return
        stalls += child < 0
        while depth > 0:
            depth -= 1
            node = &t.nodes[path_nodes[depth]]
            e = &t.edges[path_edges[depth]]
            e.visits += 1
            node.visits += 1
            e.taken += path_answers[depth]
            mc_update(t, s, path_nodes[depth])


cdef class Mcts:
    """Darkboard 2.0's search (approach C) over a MetaCore (pyrope.kriegspiel.mcts.MctsPlayer is
    its face), with the maximax's evaluation and weights.

    best(core, moves, captures, positions, seconds): the most visited of `moves` (packed as
    Maximax's) from `core`'s metaposition after a search of `positions` evaluated metapositions
    and, with `seconds`, at most that long (`positions` may then be None: time alone); `captures`
    flags the power moves among them. The root's tries are always valued, however short the time.
    Returns (move, value), or None when `moves` is empty.
    """
    cdef MxSearch* s
    cdef McTree t

    def __cinit__(self):
        self.s = <MxSearch*> PyMem_Malloc(sizeof(MxSearch))
        if self.s == NULL:
            raise MemoryError()
        memset(self.s, 0, sizeof(MxSearch))
        memset(&self.t, 0, sizeof(McTree))

    def __dealloc__(self):
        PyMem_Free(self.s)
        PyMem_Free(self.t.nodes)
        PyMem_Free(self.t.edges)

    def __init__(self, double exploration=40.0, double alpha=0.5, **weights):
        if exploration < 0.0:
            raise ValueError(f"the exploration constant must be >= 0, not {exploration}")
        self.t.exploration = exploration
        # The evaluation's weights are the maximax's (its defaults, overridden by `weights`).
        cdef Maximax weighed = Maximax(alpha=alpha, **weights)
        self.s.w = weighed.s.w

    @property
    def positions(self):
        """Metapositions the last search evaluated."""
        return self.s.positions

    @property
    def nodes(self):
        """Nodes (our turns) the last search made."""
        return self.t.n_nodes

    def best(self, MetaCore core, moves, captures, positions=5000, seconds=None):
        cdef int n = len(moves), i, best = -1
        cdef int* packed
        cdef bint* power
        cdef McEdge* e
        cdef double limit = ks_seconds(seconds)
        cdef long budget
        if n == 0:
            return None
        if (positions is None and seconds is None) or (positions is not None and positions < 1):
            raise ValueError("positions (or, with seconds, None) must be >= 1")
        budget = min(MC_MAX_POSITIONS, <long> (limit * MC_TIMED_RATE) + 1) if positions is None else positions
        if n > MC_MAX_ROOT:
            raise ValueError(f"at most {MC_MAX_ROOT} moves, not {n}")
        packed = <int*> PyMem_Malloc(n * sizeof(int))
        power = <bint*> PyMem_Malloc(n * sizeof(bint))
        if packed == NULL or power == NULL:
            PyMem_Free(packed); PyMem_Free(power)
            raise MemoryError()
        try:
            for i in range(n):
                packed[i] = moves[i]
                power[i] = bool(captures[i])
                if not 0 <= packed[i] < MX_TABLE:
                    raise ValueError(f"bad move {packed[i]}")
            self._reserve(budget, n)
            self.s.positions = 0
            self.s.root = &core.d
            self.s.prior = 1.0 / max(1, mp_enemy_men(&core.m))
            with nogil:
                ks_start(&self.s.deadline, limit, MX_CHECK_EVERY)
                mc_new_node(&self.t, self.s, &core.m, packed, power, n)
                mc_search(&self.t, self.s, budget)
                for i in range(n):
                    e = &self.t.edges[i]
                    if best < 0 or e.visits > self.t.edges[best].visits or (
                            e.visits == self.t.edges[best].visits
                            and mc_edge_value(&self.t, self.s, &self.t.nodes[0], e)
                            > mc_edge_value(&self.t, self.s, &self.t.nodes[0], &self.t.edges[best])):
                        best = i
            return packed[best], mc_edge_value(&self.t, self.s, &self.t.nodes[0], &self.t.edges[best])
        finally:
            PyMem_Free(packed)
            PyMem_Free(power)

    cdef _reserve(self, long positions, int root_moves):
        """Pools for a search of `positions` metapositions: a node costs at least one evaluation
        per try, an edge at least one."""
        cdef int nodes = <int> min(positions, 1 << 20) + 2
        cdef int edges = <int> min(positions, 1 << 22) + root_moves + MX_MAX_MOVES
        if nodes > self.t.max_nodes:
            PyMem_Free(self.t.nodes)
            self.t.nodes = NULL
            self.t.nodes = <McNode*> PyMem_Malloc(nodes * sizeof(McNode))
            self.t.max_nodes = nodes if self.t.nodes != NULL else 0
        if edges > self.t.max_edges:
            PyMem_Free(self.t.edges)
            self.t.edges = NULL
            self.t.edges = <McEdge*> PyMem_Malloc(edges * sizeof(McEdge))
            self.t.max_edges = edges if self.t.edges != NULL else 0
        if self.t.nodes == NULL or self.t.edges == NULL:
            raise MemoryError()
        self.t.n_nodes = self.t.n_edges = 0
