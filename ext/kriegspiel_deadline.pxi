# The Kriegspiel searches' time limit: a deadline on the monotonic clock, read only every `every`
# units of work (metapositions for the maximax and the MCTS, positions for the bare-king search),
# so that the check costs a comparison per unit and a clock read now and then. A search polls
# ks_passed where it counts its work and unwinds once it is true; it never calls Python.

from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec


cdef struct KsDeadline:
    double at           # the monotonic clock's seconds at which to stop; 0: no deadline
    long every          # work between two clock reads
    long next_check     # the work count at which to read the clock next
    bint passed         # the deadline was seen to pass: the search unwinds


cdef inline double ks_now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline void ks_start(KsDeadline* d, double seconds, long every) noexcept nogil:
    """A deadline `seconds` from now (none when seconds < 0), read every `every` units of work."""
    d.at = ks_now() + seconds if seconds >= 0.0 else 0.0
    d.every, d.next_check, d.passed = every, every, False


cdef inline bint ks_passed(KsDeadline* d, long work) noexcept nogil:
    """Whether the deadline has passed, `work` units done so far (the clock read every d.every)."""
    if d.passed or d.at == 0.0 or work < d.next_check:
        return d.passed
    d.next_check = work + d.every
    d.passed = ks_now() >= d.at
    return d.passed


cdef object ks_seconds(object seconds):
    """A search's `seconds` argument in C's terms: None (no deadline) is -1; else at least 0."""
    if seconds is None:
        return -1.0
    if seconds != seconds or seconds < 0:
        raise ValueError(f"seconds must be 0 or more (or None: no time limit), not {seconds}")
    return float(seconds)
