# Notation: FEN in and out, square names and UCI move text for the C position. Shared by every
# module that includes the position (the chess core's Board, the Kriegspiel referee), so a position
# is read and written one way. parse_fen raises FenError, which the including module provides:
# board.pxi defines it, other extension modules import the core's, so callers catch one class.

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

PIECE_LETTERS = " PNBRQK  pnbrqk"
FILE_LETTERS = "abcdefgh"


def square_name(int sq):
    return FILE_LETTERS[file_of(sq)] + str(rank_of(sq) + 1)


cdef int parse_square(str text):
    if len(text) != 2 or text[0] not in FILE_LETTERS or text[1] not in "12345678":
        return -1
    return FILE_LETTERS.index(text[0]) + 8 * (int(text[1]) - 1)


cdef void parse_placement(Position* p, str placement) except *:
    cdef int rank, file, piece
    rows = placement.split("/")
    if len(rows) != 8:
        raise FenError(f"board field has {len(rows)} ranks, expected 8")
    for row_index, row in enumerate(rows):
        rank = 7 - row_index
        file = 0
        for ch in row:
            if ch in "12345678":
                file += int(ch)
            elif ch in "PNBRQKpnbrqk":
                if file < 8:
                    put_piece(p, PIECE_LETTERS.index(ch), 8 * rank + file)
                file += 1
            else:
                raise FenError(f"bad piece letter {ch!r} in rank {rank + 1}")
        if file != 8:
            raise FenError(f"rank {rank + 1} ({row!r}) has {file} squares, expected 8")
    for color, name in ((WHITE, "white"), (BLACK, "black")):
        kings = popcount(pieces(p, color, KING))
        if kings != 1:
            raise FenError(f"{name} has {kings} kings, expected exactly one")
    if p.by_type[PAWN] & (RANK_1 | RANK_8):
        raise FenError(f"pawn on {square_name(lsb(p.by_type[PAWN] & (RANK_1 | RANK_8)))}: "
                       "pawns cannot stand on the first or last rank")


cdef void parse_castling(Position* p, str field) except *:
    cdef int color, ksq, rook_sq, sq, right
    if field == "-":
        return
    for ch in field:
        color = WHITE if ch.isupper() else BLACK
        name = "white" if color == WHITE else "black"
        letter = ch.lower()
        if letter not in "kqabcdefgh" or not ch.isalpha():
            raise FenError(f"bad castling letter {ch!r}")
        ksq = king_square(p, color)
        if rank_of(ksq) != 7 * color:
            raise FenError(f"castling right {ch!r} but the {name} king is not on its first rank")
        rook_sq = -1
        if letter == "k":
            for sq in range(56 * color + 7, ksq, -1):
                if p.board[sq] == make_piece(color, ROOK):
                    rook_sq = sq
                    break
        elif letter == "q":
            for sq in range(56 * color, ksq):
                if p.board[sq] == make_piece(color, ROOK):
                    rook_sq = sq
                    break
        else:
            sq = 56 * color + FILE_LETTERS.index(letter)
            if sq != ksq and p.board[sq] == make_piece(color, ROOK):
                rook_sq = sq
        if rook_sq < 0:
            raise FenError(f"castling right {ch!r} but no {name} rook stands where it needs one")
        right = (WHITE_OO if rook_sq > ksq else WHITE_OOO) << (2 * color)
        if p.st.castling & right:
            raise FenError(f"castling field {field!r} gives the {name} king two rights on one side")
        set_castling_right(p, color, rook_sq)


cdef void parse_en_passant(Position* p, str field) except *:
    cdef int ep, us = p.side
    if field == "-":
        return
    ep = parse_square(field)
    if ep < 0:
        raise FenError(f"bad en-passant square {field!r}")
    pushed = ep - 8 if us == WHITE else ep + 8
    origin = ep + 8 if us == WHITE else ep - 8
    if rank_of(ep) != (5 if us == WHITE else 2) or p.board[ep] or p.board[origin] \
            or p.board[pushed] != make_piece(us ^ 1, PAWN):
        raise FenError(f"en-passant square {field} is impossible: no pawn just made a double step past it")
    # Stored only when a pawn can capture there, as Polyglot keys it.
    if PAWN_ATTACKS[us ^ 1][ep] & pieces(p, us, PAWN):
        p.st.ep = ep


cdef void parse_fen(Position* p, str fen) except *:
    fields = fen.split()
    if not 4 <= len(fields) <= 6:
        raise FenError(f"FEN has {len(fields)} fields, expected 4 to 6 "
                       "(board, side, castling, en passant[, halfmove clock, fullmove number])")
    parse_placement(p, fields[0])
    if fields[1] not in ("w", "b"):
        raise FenError(f"side to move must be 'w' or 'b', not {fields[1]!r}")
    p.side = WHITE if fields[1] == "w" else BLACK
    parse_castling(p, fields[2])
    parse_en_passant(p, fields[3])
    try:
        halfmove = int(fields[4]) if len(fields) > 4 else 0
        fullmove = int(fields[5]) if len(fields) > 5 else 1
    except ValueError:
        raise FenError("halfmove clock and fullmove number must be whole numbers") from None
    if halfmove < 0 or fullmove < 0:
        raise FenError("halfmove clock and fullmove number cannot be negative")
    if halfmove >= 1 << 30 or fullmove >= 1 << 29:
        raise FenError("halfmove clock or fullmove number too large")
    p.st.rule50 = halfmove
    p.game_ply = 2 * (max(fullmove, 1) - 1) + p.side
    if attackers_to(p, king_square(p, p.side ^ 1), occupied(p)) & p.by_color[p.side]:
        raise FenError("the side not to move is in check")
    p.st.key = compute_key(p)
    p.st.repetition_key = repetition_key(p)


cdef str castling_field(Position* p, bint shredder):
    # X-FEN (python-chess's choice): K/Q unless another rook stands further out, then the file.
    cdef int color, right, rook_sq, sq, side
    text = ""
    for color in range(2):
        for side in range(2):
            right = (WHITE_OO << side) << (2 * color)
            if not (p.st.castling & right):
                continue
            rook_sq = p.castling_rook[right]
            outer = range(rook_sq + 1, 56 * color + 8) if side == 0 else range(56 * color, rook_sq)
            if shredder or any(p.board[sq] == make_piece(color, ROOK) for sq in outer):
                letter = FILE_LETTERS[file_of(rook_sq)]
            else:
                letter = "kq"[side]
            text += letter.upper() if color == WHITE else letter
    return text or "-"


cdef str position_fen(Position* p, bint shredder):
    cdef int sq, empty
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for file in range(8):
            sq = 8 * rank + file
            if p.board[sq]:
                if empty:
                    row += str(empty)
                    empty = 0
                row += PIECE_LETTERS[p.board[sq]]
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    # Shown only when an en-passant capture is actually legal, as python-chess does.
    ep = square_name(p.st.ep) if p.st.ep != NO_SQ and repetition_key(p) == p.st.key else "-"
    return " ".join(["/".join(rows), "wb"[p.side], castling_field(p, shredder), ep,
                     str(p.st.rule50), str(p.game_ply // 2 + 1)])


cdef str move_uci(Position* p, Move m):
    cdef int frm = move_from(m), to = move_to(m)
    if m == MOVE_NONE or m == MOVE_NULL:
        return "0000"
    if move_kind(m) == CASTLING and not p.chess960 and file_of(frm) == 4 and file_of(to) in (0, 7):
        # The colour comes from the rank: the king may no longer stand on frm (move_stack).
        to = castling_king_to(WHITE if rank_of(frm) == 0 else BLACK, frm, to)
    text = square_name(frm) + square_name(to)
    if move_kind(m) == PROMOTION:
        text += "nbrq"[promotion_type(m) - KNIGHT]
    return text
