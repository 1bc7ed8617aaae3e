# Mill endgame databases (included by _mill.pyx): retrograde solving of placement-free classes and
# probing. A position is (mover's stones, other's stones) with both hands empty and no removal due:
# colours are folded (the side to move is always "mover"), symmetric positions share one entry.
# Entry: 0 draw, else distance d + 1, d the turns to the game's end; d odd: the mover wins, even: loses.
# A section's entries are one byte each when all fit (files), else two (files, and while solving).
from libc.stdint cimport int32_t, uint8_t, uint16_t
from libc.stdlib cimport calloc
from libc.string cimport memset

cdef enum:
    MAXSYM = 16
    UNMOVES = 512       # un-moves of one position: 12 stones x 20 empty points bounds them
    # What the removal turns (into smaller classes) say about an entry, found before the levels run.
    LOWER_NONE = 0      # no removal turn, or all lead to the opponent's wins
    LOWER_WIN = 1       # a removal wins in ldist turns
    LOWER_DRAW = 2      # a removal leads to a draw: the entry is never lost
    LOWER_SKIP = 3      # not a canonical entry: copied from its canonical one at the end

cdef uint32_t BINOM[NPOINTS + 1][NPOINTS + 1]


cdef void init_binom() noexcept nogil:
    cdef int n, k
    for n in range(NPOINTS + 1):
        BINOM[n][0] = 1
        for k in range(1, NPOINTS + 1):
            BINOM[n][k] = 0 if n == 0 else BINOM[n - 1][k - 1] + BINOM[n - 1][k]


init_binom()

ctypedef struct SetTable:
    int32_t* canon      # colex rank of an n-stone set -> id of its orbit's least member
    uint8_t* sym        # colex rank -> the symmetry taking the set to that member
    uint32_t* sets      # id -> the canonical set
    uint16_t* stab      # id -> the symmetries fixing it (bit g)
    int32_t count

ctypedef struct DBCtx:
    Rules r
    int nsym
    uint32_t perm[MAXSYM][3][256]     # symmetry g of a point set, one byte of points at a time
    SetTable sets[NPOINTS + 1]
    const void* sect[NPOINTS + 1][NPOINTS + 1]   # attached entries by (mover, other) stone counts
    uint8_t width[NPOINTS + 1][NPOINTS + 1]      # their bytes each: 1 or 2


cdef inline uint32_t sym_apply(const DBCtx* c, int g, uint32_t x) noexcept nogil:
    return c.perm[g][0][x & 255] | c.perm[g][1][(x >> 8) & 255] | c.perm[g][2][x >> 16]


cdef inline uint32_t colex(uint32_t x) noexcept nogil:
    cdef uint32_t r = 0
    cdef int j = 1
    while x:
        r += BINOM[ctz(x)][j]
        j += 1
        x &= x - 1
    return r


cdef inline uint32_t rank_free(uint32_t s, uint32_t t) noexcept nogil:
    """Colex rank of t among the points outside s."""
    cdef uint32_t r = 0
    cdef int j = 1, p
    while t:
        p = ctz(t)
        t &= t - 1
        r += BINOM[p - popcount(s & ((1u << p) - 1))][j]
        j += 1
    return r


cdef uint32_t unrank_free(uint32_t s, uint32_t r, int k) noexcept nogil:
    cdef int free_points[NPOINTS]
    cdef int n = 0, p, j, q
    cdef uint32_t t = 0
    for p in range(NPOINTS):
        if not (s >> p) & 1:
            free_points[n] = p
            n += 1
    q = n - 1
    for j in range(k, 0, -1):
        while BINOM[q][j] > r:
            q -= 1
        r -= BINOM[q][j]
        t |= 1u << free_points[q]
        q -= 1
    return t


cdef inline uint64_t section_size(const DBCtx* c, int m, int o) noexcept nogil:
    return <uint64_t>c.sets[m].count * BINOM[NPOINTS - m][o]


cdef int build_sets(DBCtx* c, int n) noexcept nogil:
    """The canonical n-stone sets (least image under the symmetries); -1 when out of memory."""
    cdef SetTable* st = &c.sets[n]
    cdef uint32_t total = BINOM[NPOINTS][n], x, least, img, low, ripple
    cdef uint32_t rank = 0
    cdef int g, best
    cdef uint16_t fixed
    if st.canon != NULL:
        return 0
    st.canon = <int32_t*>malloc(total * sizeof(int32_t))
    st.sym = <uint8_t*>malloc(total)
    st.sets = <uint32_t*>malloc(total * sizeof(uint32_t))
    st.stab = <uint16_t*>malloc(total * sizeof(uint16_t))
    if not st.canon or not st.sym or not st.sets or not st.stab:
        return -1
    st.count = 0
    x = (1u << n) - 1
    while x < (1u << NPOINTS):       # Gosper's successor: increasing order is colex order
        least = x
        best = 0
        fixed = 1
        for g in range(1, c.nsym):
            img = sym_apply(c, g, x)
            if img < least:
                least = img
                best = g
            if img == x:
                fixed |= 1u << g
        st.sym[rank] = <uint8_t>best
        if least == x:
            st.canon[rank] = st.count
            st.sets[st.count] = x
            st.stab[st.count] = fixed
            st.count += 1
        else:
            st.canon[rank] = st.canon[colex(least)]
        rank += 1
        if n == 0:
            break
        low = x & (~x + 1)
        ripple = x + low
        x = (((ripple ^ x) >> 2) // low) | ripple
    return 0


cdef inline uint64_t canon_index(const DBCtx* c, uint32_t s, uint32_t t, int* stabilizers) noexcept nogil:
    """Index of (mover s, other t) within its section; stabilizers: symmetries fixing the position."""
    cdef const SetTable* st = &c.sets[popcount(s)]
    cdef uint32_t rs = colex(s), tc, img, first
    cdef int32_t id = st.canon[rs]
    cdef uint16_t fix = st.stab[id]
    cdef int g, n = 1
    tc = sym_apply(c, st.sym[rs], t)
    if fix != 1:
        first = tc
        for g in range(1, c.nsym):      # the least image among those that keep the set of s
            if (fix >> g) & 1:
                img = sym_apply(c, g, first)
                if img < tc:
                    tc = img
        for g in range(1, c.nsym):
            if (fix >> g) & 1 and sym_apply(c, g, tc) == tc:
                n += 1
    if stabilizers != NULL:
        stabilizers[0] = n
    return <uint64_t>id * BINOM[NPOINTS - popcount(s)][popcount(t)] + rank_free(st.sets[id], tc)


cdef inline int db_probe(const DBCtx* c, uint32_t mover, uint32_t other) noexcept nogil:
    """The entry of a placement-free position; -1 when its section is not attached."""
    cdef int m = popcount(mover), o = popcount(other)
    cdef const void* sect = c.sect[m][o]
    if sect == NULL:
        return -1
    if c.width[m][o] == 1:
        return (<const uint8_t*>sect)[canon_index(c, mover, other, NULL)]
    return (<const uint16_t*>sect)[canon_index(c, mover, other, NULL)]


cdef inline void decode(const DBCtx* c, int m, int o, uint64_t i, uint32_t* s, uint32_t* t) noexcept nogil:
    cdef uint64_t per = BINOM[NPOINTS - m][o]
    s[0] = c.sets[m].sets[i // per]
    t[0] = unrank_free(s[0], <uint32_t>(i % per), o)


ctypedef struct Solve:
    int a, b                  # the class: sections (a, b) and, when a != b, (b, a) after it
    uint64_t size0, total
    uint16_t* val
    uint8_t* cnt              # turns into the same class not yet known to lose
    uint8_t* lkind
    uint16_t* ldist


cdef inline void entry_section(const Solve* v, uint64_t e, int* m, int* o, uint64_t* i) noexcept nogil:
    if e < v.size0:
        m[0] = v.a
        o[0] = v.b
        i[0] = e
    else:
        m[0] = v.b
        o[0] = v.a
        i[0] = e - v.size0


cdef inline uint64_t class_entry(const DBCtx* c, const Solve* v, uint32_t s, uint32_t t, int* stabilizers) noexcept nogil:
    cdef uint64_t i = canon_index(c, s, t, stabilizers)
    return i if popcount(s) == v.a else v.size0 + i


cdef int solve_init(const DBCtx* c, Solve* v, uint64_t lo, uint64_t hi, Move* buf) noexcept nogil:
    """Count each entry's same-class turns and judge its removal turns; returns the largest
    distance found (the levels must run that far)."""
    cdef uint64_t e, i
    cdef int m, o, n, j, child, lw, ll, draw, same, top = 0
    cdef uint32_t s, t, own2, opp2
    cdef Pos p
    memset(&p, 0, sizeof(Pos))
    for e in range(lo, hi):
        entry_section(v, e, &m, &o, &i)
        decode(c, m, o, i, &s, &t)
        v.val[e] = 0
        v.cnt[e] = 0
        v.ldist[e] = 0
        if class_entry(c, v, s, t, NULL) != e:
            v.lkind[e] = LOWER_SKIP
            continue
        p.bb[0] = s
        p.bb[1] = t
        n = gen_moves(&c.r, &p, buf)
        lw = 0xFFFF
        ll = 0
        draw = 0
        same = 0
        for j in range(n):
            if buf[j].removed == 0:
                same += 1
                continue
            opp2 = t & ~buf[j].removed
            own2 = (s ^ (1u << buf[j].frm)) | (1u << buf[j].to)
            child = 1 if popcount(opp2) < 3 else db_probe(c, opp2, own2)   # 1: lost at once
            if child == 0:
                draw = 1
            elif child & 1:
                lw = min(lw, child)      # the child loses in child - 1: we win in child
            else:
                ll = max(ll, child)
        v.cnt[e] = <uint8_t>same
        if lw != 0xFFFF:
            v.lkind[e] = LOWER_WIN
            v.ldist[e] = <uint16_t>lw
            top = max(top, lw)
        elif draw or (n == 0 and c.r.stalemate_action != 0):
            v.lkind[e] = LOWER_DRAW
        else:
            v.lkind[e] = LOWER_NONE
            v.ldist[e] = <uint16_t>ll
            if same == 0:               # blocked (ll 0), or every turn removes into a lost class
                v.val[e] = <uint16_t>(ll + 1)
                top = max(top, ll)
    return top


cdef int unmoves(const DBCtx* c, const Solve* v, uint32_t s, uint32_t t, uint64_t* pred, int* stab) noexcept nogil:
    """Same-class predecessors of (mover s, other t): the other side's last turn slid or flew a
    stone to a point where it closed no mill. Returns their number (with repeats)."""
    cdef uint32_t empty = ~(s | t) & FULL, f = t, e, t2
    cdef int n = 0, y, x
    cdef bint flying = c.r.may_fly and popcount(t) <= c.r.fly_count
    while f:
        y = ctz(f)
        f &= f - 1
        if mills_at(&c.r, t, y):
            continue
        e = empty if flying else c.r.adj[y] & empty
        while e:
            x = ctz(e)
            e &= e - 1
            t2 = (t ^ (1u << y)) | (1u << x)
            pred[n] = class_entry(c, v, t2, s, &stab[n])
            n += 1
    return n


cdef int solve_level(const DBCtx* c, Solve* v, int k, int top) noexcept nogil:
    """Settle the entries at distance k and pass their value on to their predecessors: a loss
    makes each a win in k + 1; a win takes one turn off each one's count, and a count run out
    makes a loss. Returns the largest distance now known."""
    cdef uint64_t pred[UNMOVES]
    cdef int stab[UNMOVES]
    cdef uint64_t e, i, q
    cdef int m, o, n, j, h, u, own_stab, d
    cdef uint32_t s, t
    for e in range(v.total):
        if v.val[e] == 0 and v.lkind[e] == LOWER_WIN and v.ldist[e] == k:
            v.val[e] = <uint16_t>(k + 1)
        if v.val[e] != k + 1:
            continue
        entry_section(v, e, &m, &o, &i)
        decode(c, m, o, i, &s, &t)
        canon_index(c, s, t, &own_stab)
        n = unmoves(c, v, s, t, pred, stab)
        for j in range(n):
            q = pred[j]
            if q == <uint64_t>-1 or v.val[q] != 0:
                continue
            u = 0
            for h in range(j, n):       # the same predecessor through other un-moves
                if pred[h] == q:
                    u += 1
                    pred[h] = <uint64_t>-1
            if k % 2 == 0:
                v.val[q] = <uint16_t>(k + 2)
                top = max(top, k + 1)
                continue
            if v.lkind[q] != LOWER_NONE:   # a removal wins or draws: q is never lost
                continue
            # Turns of q into e's orbit: un-moves of e into q's orbit, scaled by the orbits' sizes.
            v.cnt[q] -= <uint8_t>(u * stab[j] // own_stab)
            if v.cnt[q] == 0:
                d = max(k + 1, v.ldist[q])
                v.val[q] = <uint16_t>(d + 1)
                top = max(top, d)
    return top


cdef void solve_finish(const DBCtx* c, Solve* v, uint64_t* counts) noexcept nogil:
    """Copy canonical entries to the others; counts: canonical positions won, drawn, lost, the
    longest win, per section (8 numbers)."""
    cdef uint64_t e, i
    cdef int m, o, sec
    cdef uint32_t s, t
    cdef uint16_t x
    memset(counts, 0, 8 * sizeof(uint64_t))
    for e in range(v.total):
        sec = 0 if e < v.size0 else 4
        x = v.val[e]
        if v.lkind[e] == LOWER_SKIP:
            entry_section(v, e, &m, &o, &i)
            decode(c, m, o, i, &s, &t)
            v.val[e] = v.val[class_entry(c, v, s, t, NULL)]
        elif x == 0:
            counts[sec + 1] += 1
        elif x % 2 == 0:
            counts[sec] += 1
            counts[sec + 3] = max(counts[sec + 3], x - 1)
        else:
            counts[sec + 2] += 1


cdef class MillDBCore:
    """Symmetries, indexing, the solver and probing for one rule set. Sections are the entries of
    (mover, other) stone counts; attach() lends one its buffer of uint16 entries."""
    cdef DBCtx* c
    cdef Solve v
    cdef object buffers        # keeps attached buffers alive

    def __cinit__(self):
        self.c = <DBCtx*>calloc(1, sizeof(DBCtx))
        if not self.c:
            raise MemoryError()
        self.buffers = {}

    def __dealloc__(self):
        cdef int n
        if self.c:
            for n in range(NPOINTS + 1):
                free(self.c.sets[n].canon)
                free(self.c.sets[n].sym)
                free(self.c.sets[n].sets)
                free(self.c.sets[n].stab)
            free(self.c)
        self.free_solve()

    def __init__(self, values, lines, symmetries):
        """values, lines: as MillCore.set_rules; symmetries: point permutations (tuples of 24),
        the identity first, each keeping the board's lines."""
        cdef MillCore core = MillCore()
        cdef int g, k, b, p
        core.set_rules(values, lines)
        self.c.r = core.r
        if not 1 <= len(symmetries) <= MAXSYM or tuple(symmetries[0]) != tuple(range(NPOINTS)):
            raise ValueError("Symmetries: 1 to 16 permutations, the identity first.")
        self.c.nsym = len(symmetries)
        for g, perm in enumerate(symmetries):
            for k in range(3):
                for b in range(256):
                    self.c.perm[g][k][b] = 0
                    for p in range(8):
                        if (b >> p) & 1:
                            self.c.perm[g][k][b] |= 1u << perm[8 * k + p]

    cdef void need(self, int n) except *:
        if build_sets(self.c, n) != 0:
            raise MemoryError()

    def section_size(self, int m, int o):
        """Entries of the section with m stones for the mover, o for the other."""
        if not (3 <= m <= 12 and 3 <= o <= 12 and m + o <= NPOINTS):
            raise ValueError(f"No section {m}-{o}: each side holds 3 to 12 stones.")
        self.need(m)
        return section_size(self.c, m, o)

    def canonical_sets(self, int n):
        """Orbits of n-stone sets under the symmetries."""
        self.need(n)
        return self.c.sets[n].count

    def attach(self, int m, int o, buffer):
        """Lend section m-o its entries (a buffer of section_size uint8 or uint16); None detaches."""
        cdef const uint16_t[::1] wide
        cdef const uint8_t[::1] narrow
        cdef const void* pointer
        cdef Py_ssize_t n
        if buffer is None:
            self.c.sect[m][o] = NULL
            self.buffers.pop((m, o), None)
            return
        size = self.section_size(m, o)
        if memoryview(buffer).itemsize == 1:
            narrow = buffer
            n, self.c.width[m][o] = narrow.shape[0], 1
            pointer = <const void*>&narrow[0]
        else:
            wide = buffer
            n, self.c.width[m][o] = wide.shape[0], 2
            pointer = <const void*>&wide[0]
        if n != size:
            raise ValueError(f"Section {m}-{o} holds {size} entries, not {n}.")
        self.c.sect[m][o] = pointer
        self.buffers[(m, o)] = buffer

    def index(self, uint32_t mover, uint32_t other):
        """Index of a position in its section (the same for its symmetric images)."""
        self.need(popcount(mover))
        return canon_index(self.c, mover, other, NULL)

    def position(self, int m, int o, uint64_t index):
        """The canonical (mover, other) sets at an index of section m-o."""
        cdef uint32_t s, t
        if index >= self.section_size(m, o):
            raise IndexError(f"Section {m}-{o} has no entry {index}.")
        decode(self.c, m, o, index, &s, &t)
        return s, t

    def probe(self, uint32_t mover, uint32_t other):
        """The attached entry of a position, or -1 (no section); see the module comment."""
        if self.c.sect[popcount(mover)][popcount(other)] == NULL:
            return -1
        return db_probe(self.c, mover, other)

    # -- solving one class: begin, init over ranges (any threads), levels, finish -------------
    cdef void free_solve(self):
        free(self.v.cnt)
        free(self.v.lkind)
        free(self.v.ldist)
        self.v.cnt = NULL
        self.v.lkind = NULL
        self.v.ldist = NULL

    def begin(self, int a, int b, buffer):
        """Solve class a-b (a >= b) into buffer (uint16, sections a-b then b-a); the sections it
        removes into (b-1 and a, a-1 and b, ...) must be attached."""
        cdef uint64_t size0 = self.section_size(a, b)
        cdef uint64_t total = size0 + (self.section_size(b, a) if a != b else 0)
        cdef uint16_t[::1] view = buffer
        if <uint64_t>view.shape[0] != total:
            raise ValueError(f"Class {a}-{b} needs {total} entries, not {view.shape[0]}.")
        self.free_solve()
        self.v.a, self.v.b, self.v.size0, self.v.total = a, b, size0, total
        self.v.val = &view[0]
        self.v.cnt = <uint8_t*>malloc(total)
        self.v.lkind = <uint8_t*>malloc(total)
        self.v.ldist = <uint16_t*>malloc(total * sizeof(uint16_t))
        if not self.v.cnt or not self.v.lkind or not self.v.ldist:
            self.free_solve()
            raise MemoryError(f"No memory to solve class {a}-{b} ({total} entries).")
        self.attach(a, b, view[:size0])
        if a != b:
            self.attach(b, a, view[size0:])
        return total

    def init_range(self, uint64_t lo, uint64_t hi):
        """First pass over entries lo..hi (disjoint ranges may run on several threads at once)."""
        cdef Move* buf = <Move*>malloc(MAX_MOVES * sizeof(Move))
        cdef int top
        if not buf:
            raise MemoryError()
        with nogil:
            top = solve_init(self.c, &self.v, lo, min(hi, self.v.total), buf)
        free(buf)
        return top

    def level(self, int k, int top):
        """Settle distance k; returns the largest distance known (run levels while k <= it)."""
        with nogil:
            top = solve_level(self.c, &self.v, k, top)
        return top

    def narrow(self, const uint16_t[::1] entries, uint8_t[::1] out):
        """Copy entries into out a byte each (for one-byte files); returns the largest entry, and
        out is of use only if that is under 256."""
        cdef Py_ssize_t i
        cdef uint16_t top = 0
        with nogil:
            for i in range(entries.shape[0]):
                out[i] = <uint8_t>entries[i]
                top = max(top, entries[i])
        return top

    def finish(self):
        """Fill the non-canonical entries; per section (won, drawn, lost, longest win) over canonical positions."""
        cdef uint64_t counts[8]
        with nogil:
            solve_finish(self.c, &self.v, counts)
        self.free_solve()
        return [tuple([counts[i] for i in range(4)]), tuple([counts[i] for i in range(4, 8)])]
