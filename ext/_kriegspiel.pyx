# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Kriegspiel's compiled module (pyrope._kriegspiel): the chess core's own bitboards, position, move
# generation and notation, included here so the referee's hot path inlines with them, and the
# referee on top; beside it the metaposition (a side's belief about the enemy men), the maximax
# search over metapositions and the Monte Carlo tree search on its evaluation, and the bare-king
# endgame search, which shares their move generation and check kinds; the searches poll their
# time limit (kriegspiel_deadline.pxi) in C. A bad FEN raises the core's FenError, so callers catch
# one class for both games.

from pyrope._core import FenError

# The chess core's files are compiled into this module again rather than cimported from _core:
# the move generator works on the core's Position, so a cimport would take the Position type and
# its make/unmake from _core too, and every call the referee makes into them (generate, is_legal,
# do_move, undo_move, checkers) would become a call through a function pointer that the C compiler
# cannot inline. Measured with generate and is_legal alone behind such pointers, RefereeCore.probe
# ran 0.57% more instructions (callgrind); the copy costs only build time and a larger .so.
include "bitboard.pxi"
include "position.pxi"
include "movegen.pxi"
include "notation.pxi"
include "kriegspiel_referee.pxi"
include "kriegspiel_meta.pxi"
include "kriegspiel_density.pxi"
include "kriegspiel_deadline.pxi"
include "kriegspiel_endgame.pxi"
include "kriegspiel_maximax.pxi"
include "kriegspiel_mcts.pxi"

init_bitboards()
init_zobrist()
