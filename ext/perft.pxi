# Perft: count the leaf nodes of the legal move tree, the standard test of a move generator.
# Runs without the GIL; the last ply is counted in bulk from the length of the move list.

cdef u64 perft_nodes(Position* p, int depth) noexcept nogil:
    cdef Move moves[MAX_MOVES]
    cdef int n, i
    cdef u64 nodes = 0
    if depth <= 0:
        return 1
    n = generate(p, moves, GEN_ALL)
    if depth == 1:
        return n
    for i in range(n):
        do_move(p, moves[i])
        nodes += perft_nodes(p, depth - 1)
        undo_move(p, moves[i])
    return nodes
