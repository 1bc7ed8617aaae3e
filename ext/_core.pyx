# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# Pyrope's compiled core: one extension module, so that every hot call can be inlined by the
# C compiler. Each concern lives in its own include file, in dependency order.

include "bitboard.pxi"
include "position.pxi"
include "movegen.pxi"
include "perft.pxi"
include "nnue.pxi"
include "evaluate.pxi"
include "tt.pxi"
include "worker.pxi"
include "see.pxi"
include "history.pxi"
include "movepick.pxi"
include "correction.pxi"
include "search_params.pxi"
include "search.pxi"
include "deepening.pxi"
include "notation.pxi"
include "board.pxi"
include "table_file.pxi"
include "book.pxi"
include "syzygy.pxi"
include "dtm_index.pxi"
include "dtm_probe.pxi"
include "dtm_generate.pxi"
include "search_api.pxi"

init_bitboards()
init_syzygy()
init_dtm()
init_zobrist()
init_evaluation()
init_nnue()
init_search_tables()
