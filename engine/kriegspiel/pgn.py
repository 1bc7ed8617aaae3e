"""Kriegspiel PGN (the thesis's appendix B), written and read: the referee's full game -- ordinary
PGN that any chess program reads, with `{messages : refused tries}` after each move -- and each
side's filtered game, in which that side narrates what it knows and `??` stands for the rest.
docs/kriegspiel.md ("PGN") gives the format, the codes and the disambiguation rule.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Mapping, Optional, TextIO, Union

import chess

from .._core import STARTING_FEN
from .._kriegspiel import KriegspielError
from .own import OwnBoard, chess_board
from .referee import Announcement, Check, Referee

VARIANT = "Kriegspiel"
HIDDEN = "??"

_CHECK_CODES = {Check.RANK: "CR", Check.FILE: "CF", Check.LONG_DIAGONAL: "CL",
                Check.SHORT_DIAGONAL: "CS", Check.KNIGHT: "CN"}
# P0 is never written (a missing P code says "no pawn tries", as the referee says nothing then).
_CODE = re.compile(r"X[a-h][1-8]|C[RFLSN]|P[1-9][0-9]*")
_CODES_HELP = "codes are Pn (n >= 1), CR, CF, CL, CS, CN and Xe5"
_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?",
             "Result": "*"}
# Tags written after the roster, in this order; any others follow as given.
_AFTER_ROSTER = ("Variant", "Narrator", "SetUp", "FEN")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TAG = re.compile(r'\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]')
_TOKEN = re.compile(r"\{[^}]*\}|\{[^}]*$|\d+\.(?:\.\.)?|1-0|0-1|1/2-1/2|\*|[^\s{}]+|\}")
_LINE = 79


class PgnError(ValueError):
    """A game that cannot be read: `game` is its number in the file (from 1), `ply` the half-move
    (from 1; 0 before the first move, None for its tags)."""

    def __init__(self, game: int, name: str, ply: Optional[int], reason: str) -> None:
        where = "its tags" if ply is None else "before the first move" if ply == 0 else f"ply {ply}"
        super().__init__(f"Game {game} ({name}), {where}: {reason}")
        self.game, self.ply, self.reason = game, ply, reason


def announcement_codes(announcement: Announcement) -> tuple[str, ...]:
    """Appendix B's codes for what both players hear: the capture's square, the checks (a double
    check as two codes), the pawn tries of the side to move. The game's end is the Result's."""
    codes = [f"X{chess.square_name(announcement.capture.square)}"] if announcement.capture else []
    codes += [_CHECK_CODES[check] for check in announcement.checks]
    if announcement.pawn_tries:
        codes.append(f"P{announcement.pawn_tries}")
    return tuple(codes)


@dataclass(frozen=True)
class Ply:
    """One move as the record's narrator knows it. Hidden from a filtered game's narrator (the
    opponent's moves): `san`, `move` and `refused` are None, written `??`."""
    mover: chess.Color
    san: Optional[str]
    move: Optional[str]                  # UCI, as the referee plays it
    refused: Optional[tuple[str, ...]]   # the mover's refused tries before the move, in order
    codes: tuple[str, ...]               # announcement_codes of the announcement after it


@dataclass
class KriegspielGame:
    """A Kriegspiel game record: the referee's full game (narrator None) or one side's filtered
    game. `opening` holds the codes announced before the first move."""
    headers: dict[str, str]
    opening: tuple[str, ...] = ()
    plies: list[Ply] = field(default_factory=list)
    narrator: Optional[chess.Color] = None

    @property
    def start_fen(self) -> str:
        return self.headers.get("FEN", STARTING_FEN)

    def filtered(self, color: chess.Color) -> "KriegspielGame":
        """The game as `color` narrates it: its own moves (SAN from its own men) and refused tries,
        every announcement (both sides hear them), the opponent's moves and refused tries hidden."""
        if self.narrator is not None:
            raise ValueError(f"Only a full game can be filtered, and this one is {_name(self.narrator)}'s.")
        own = OwnBoard(self.start_fen, color)
        plies = []
        for ply in self.plies:
            if ply.mover == color:
                move = chess.Move.from_uci(ply.move)
                plies.append(Ply(color, own.san(move, ply.codes, ply.san.endswith("#")), ply.move, ply.refused,
                                 ply.codes))
                own.play(move)
            else:
                own.hear(ply.codes)
                plies.append(Ply(ply.mover, None, None, None, ply.codes))
        return KriegspielGame({**self.headers, "Narrator": _name(color)}, self.opening, plies, color)

    def pgn(self) -> str:
        """The game as Kriegspiel PGN text, ending with a blank line."""
        lines = [f'[{name} "{_escape(value)}"]' for name, value in _ordered(self.headers).items()]
        tokens = ["{" + ", ".join(self.opening) + "}"] if self.opening else []
        turn, number = _turn_and_number(self.start_fen)
        for ply in self.plies:
            tokens.append(f"{number}." if turn == chess.WHITE else f"{number}...")
            tokens.append(ply.san or HIDDEN)
            refused = HIDDEN if ply.refused is None else ", ".join(ply.refused)
            tokens.append("{" + ", ".join(ply.codes) + " : " + refused + "}")
            number += turn == chess.BLACK
            turn = not turn
        tokens.append(self.headers.get("Result", "*"))
        return "\n".join(lines) + "\n\n" + "\n".join(_wrap(tokens)) + "\n\n"


def game_from_referee(referee: Referee, headers: Optional[Mapping[str, str]] = None) -> KriegspielGame:
    """The referee's full game so far. `headers` adds or overrides tags; the Result is the
    referee's when the game is over (a different one given is an error), else the one given or
    '*'. Refused tries of a turn not yet ended are not part of the record."""
    tags = {**_DEFAULTS, **(headers or {}), "Variant": VARIANT}
    if referee.outcome is not None:
        if headers and headers.get("Result", referee.outcome.result()) != referee.outcome.result():
            raise ValueError(f"The referee ended the game {referee.outcome.result()}, "
                             f"not {headers['Result']}.")
        tags["Result"] = referee.outcome.result()
    if referee.start_fen != STARTING_FEN:
        tags.update(SetUp="1", FEN=referee.start_fen)
    board = chess_board(referee.start_fen)
    plies = []
    for turn in referee.turns:
        move = chess.Move.from_uci(turn.move)
        plies.append(Ply(turn.mover, board.san(move), turn.move, turn.refused, announcement_codes(turn.announcement)))
        board.push(move)
    return KriegspielGame(tags, announcement_codes(referee.opening), plies)


# --- Reading ------------------------------------------------------------------------------------

class PgnReader:
    """Reads the Kriegspiel games of a PGN text or file: iterating gives the good games, and
    `errors` collects a PgnError (game number and ply) for each one skipped."""

    def __init__(self, source: Union[str, TextIO]) -> None:
        self.text = source if isinstance(source, str) else source.read()
        self.errors: list[PgnError] = []

    def __iter__(self) -> Iterator[KriegspielGame]:
        for number, (tag_lines, movetext) in enumerate(_split(self.text), 1):
            try:
                yield _read_game(number, tag_lines, movetext)
            except PgnError as error:
                self.errors.append(error)


def read_game(text: str) -> KriegspielGame:
    """The one game of `text`; PgnError if it cannot be read."""
    reader = PgnReader(text)
    games = list(reader)
    if reader.errors:
        raise reader.errors[0]
    if len(games) != 1:
        raise PgnError(1, "?", None, f"the text holds {len(games)} games, not one.")
    return games[0]


class _Context:
    """Who and where, for errors."""

    def __init__(self, number: int, headers: Mapping[str, str]) -> None:
        self.number = number
        self.name = (f"{headers.get('White', '?')} - {headers.get('Black', '?')}, "
                     f"round {headers.get('Round', '?')}")

    def error(self, ply: Optional[int], reason: str) -> PgnError:
        return PgnError(self.number, self.name, ply, reason)


def _split(text: str) -> Iterator[tuple[list[str], str]]:
    """Each game's tag lines and movetext: a tag line after movetext starts the next game."""
    tags: list[str] = []
    moves: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("[") and not moves:
            tags.append(line)
        elif line.startswith("["):
            yield tags, " ".join(moves)
            tags, moves = [line], []
        else:
            moves.append(line)
    if tags or moves:
        yield tags, " ".join(moves)


def _read_game(number: int, tag_lines: list[str], movetext: str) -> KriegspielGame:
    headers: dict[str, str] = {}
    for line in tag_lines:
        match = _TAG.fullmatch(line)
        if match is None:
            raise _Context(number, headers).error(None, f"{line!r} is not a tag.")
        headers[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
    context = _Context(number, headers)
    if headers.get("Result", "*") not in _RESULTS:
        raise context.error(None, f"the Result {headers['Result']!r} is none of {', '.join(_RESULTS)}.")
    tokens = _TOKEN.findall(movetext)
    opening = ()
    if tokens and tokens[0].startswith("{") and tokens[0].endswith("}"):
        opening = _codes(context, 0, tokens.pop(0)[1:-1])
    if "Narrator" in headers:
        if headers["Narrator"] not in ("White", "Black"):
            raise context.error(None, f"the Narrator {headers['Narrator']!r} is neither White nor Black.")
        narrator = chess.WHITE if headers["Narrator"] == "White" else chess.BLACK
        return _read_filtered(context, headers, opening, tokens, narrator)
    return _read_full(context, headers, opening, tokens)


def _moves(context: _Context, tokens: list[str], result: str) -> Iterator[tuple[int, str, str]]:
    """(ply, move, comment) of the movetext, move numbers skipped; checks the result token."""
    tokens = [token for token in tokens if not re.fullmatch(r"\d+\.(?:\.\.)?", token)]
    ply = 0
    while tokens:
        token = tokens.pop(0)
        if token.startswith("{") and not token.endswith("}"):
            raise context.error(ply, "a comment is never closed: the text is cut short.")
        if token in _RESULTS:
            if tokens:
                raise context.error(ply + 1, f"{token} is followed by {tokens[0]!r}; the result ends the game.")
            if token != result:
                raise context.error(ply, f"the movetext ends {token}, but the Result tag says {result}.")
            return
        ply += 1
        if token.startswith("{") or token == "}":
            raise context.error(ply, f"the comment {token!r} stands where a move should be.")
        if not tokens or tokens[0].startswith("{") and not tokens[0].endswith("}"):
            raise context.error(ply, f"the game stops at {token}: the text is cut short.")
        if not tokens or not (tokens[0].startswith("{") and tokens[0].endswith("}")):
            raise context.error(ply, f"{token} has no {{messages : refused tries}} comment after it.")
        yield ply, token, tokens.pop(0)[1:-1]
    raise context.error(ply, "the game stops here without a result: the text is cut short.")


def _codes(context: _Context, ply: int, text: str) -> tuple[str, ...]:
    codes = tuple(code.strip() for code in text.split(",")) if text.strip() else ()
    for code in codes:
        if not _CODE.fullmatch(code):
            raise context.error(ply, f"{code!r} is not a referee's code ({_CODES_HELP}).")
    return codes


def _comment(context: _Context, ply: int, text: str) -> tuple[tuple[str, ...], Optional[tuple[str, ...]]]:
    """The codes and refused tries (None for `??`) of a `{messages : refused tries}` comment."""
    if text.count(":") != 1:
        raise context.error(ply, f"the comment {{{text}}} is not {{messages : refused tries}}.")
    messages, tries = text.split(":")
    if tries.strip() == HIDDEN:
        return _codes(context, ply, messages), None
    return _codes(context, ply, messages), tuple(t.strip() for t in tries.split(",")) if tries.strip() else ()


def _read_full(context: _Context, headers: dict[str, str], opening: tuple[str, ...],
               tokens: list[str]) -> KriegspielGame:
    """Replay the game through the referee: every move, refused try and code must be its answer."""
    try:
        referee = Referee(headers.get("FEN", STARTING_FEN))
    except ValueError as error:
        raise context.error(None, f"the FEN is not a position: {error}")
    _same_codes(context, 0, opening, announcement_codes(referee.opening))
    board = chess_board(referee.start_fen)
    plies = []
    for ply, token, comment in _moves(context, tokens, headers.get("Result", "*")):
        if referee.outcome is not None:
            raise context.error(ply, f"{token} comes after the game's end ({referee.outcome.result()}).")
        try:
            move = board.parse_san(token)
        except ValueError:
            raise context.error(ply, f"{token} is not a legal move in {board.fen()}.")
        codes, refused = _comment(context, ply, comment)
        if refused is None:
            raise context.error(ply, f"{HIDDEN} hides refused tries, which a full game shows.")
        for text in refused:
            try:
                answer = referee.try_move(text)
            except KriegspielError as error:
                raise context.error(ply, f"the refused try {text!r} cannot be asked: {error}")
            if answer.legal:
                raise context.error(ply, f"the refused try {text} is legal.")
        if board.is_castling(move):
            answer = referee.try_move("O-O" if chess.square_file(move.to_square) > chess.square_file(move.from_square)
                                      else "O-O-O")
        else:
            answer = referee.try_move(move.uci())
        assert answer.legal, (board.fen(), move)   # python-chess and the referee agree on chess's rules
        _same_codes(context, ply, codes, announcement_codes(answer.announcement))
        plies.append(Ply(board.turn, board.san(move), answer.move, refused, announcement_codes(answer.announcement)))
        board.push(move)
    if referee.outcome is not None and headers.get("Result", "*") != referee.outcome.result():
        raise context.error(len(plies), f"the referee ends the game {referee.outcome.result()}, "
                                        f"but the Result says {headers.get('Result', '*')}.")
    return KriegspielGame(headers, announcement_codes(referee.opening), plies)


def _same_codes(context: _Context, ply: int, written: tuple[str, ...], announced: tuple[str, ...]) -> None:
    if sorted(written) != sorted(announced):
        raise context.error(ply, f"the record says {{{', '.join(written)}}}, "
                                 f"but the referee announces {{{', '.join(announced)}}}.")


def _read_filtered(context: _Context, headers: dict[str, str], opening: tuple[str, ...], tokens: list[str],
                   narrator: chess.Color) -> KriegspielGame:
    """Read one side's narration: its moves must be moves of its men as it knows them, and an
    opponent's capture must take one of them. The opponent's moves cannot be checked."""
    try:
        own = OwnBoard(headers.get("FEN", STARTING_FEN), narrator)
    except ValueError as error:
        raise context.error(None, f"the FEN is not a position: {error}")
    turn, _ = _turn_and_number(headers.get("FEN", STARTING_FEN))
    plies = []
    for ply, token, comment in _moves(context, tokens, headers.get("Result", "*")):
        codes, refused = _comment(context, ply, comment)
        if turn != narrator:
            if token != HIDDEN or refused is not None:
                raise context.error(ply, f"{_name(narrator)}'s record shows what only {_name(turn)} knows.")
            if not own.hear(codes):
                raise context.error(ply, f"a capture is announced where {_name(narrator)} has no man.")
            plies.append(Ply(turn, None, None, None, codes))
        else:
            if refused is None:
                raise context.error(ply, f"{_name(narrator)}'s own refused tries are hidden.")
            mate = token.endswith("#")
            found = [move for move in own.candidates() if own.san(move, codes, mate) == token]
            if not found:
                raise context.error(ply, f"{token} is not a move of {_name(narrator)}'s men (with its comment "
                                         f"{{{comment.strip()}}}).")
            _check_own_capture(context, ply, own, found[0], codes)
            plies.append(Ply(turn, token, found[0].uci(), refused, codes))
            own.play(found[0])
        turn = not turn
    return KriegspielGame(headers, opening, plies, narrator)


def _check_own_capture(context: _Context, ply: int, own: OwnBoard, move: chess.Move, codes: tuple[str, ...]) -> None:
    """A narrator's own capture is announced on its arrival square, or behind it en passant; a pawn
    moving diagonally always captures."""
    squares = [chess.parse_square(code[1:]) for code in codes if code[0] == "X"]
    pawn = own.board.piece_type_at(move.from_square) == chess.PAWN
    diagonal = chess.square_file(move.from_square) != chess.square_file(move.to_square)
    behind = move.to_square - 8 if own.color == chess.WHITE else move.to_square + 8
    if pawn and diagonal and not squares:
        raise context.error(ply, f"a pawn's capture {move.uci()} without a capture announced.")
    if squares and squares[0] != move.to_square and not (pawn and diagonal and squares[0] == behind):
        raise context.error(ply, f"a capture on {chess.square_name(squares[0])} announced after {move.uci()}.")


# --- Helpers ------------------------------------------------------------------------------------

def _name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def _turn_and_number(fen: str) -> tuple[chess.Color, int]:
    fields = fen.split()
    return fields[1] == "w", int(fields[5])


def _ordered(headers: Mapping[str, str]) -> dict[str, str]:
    order = [name for name in _ROSTER + _AFTER_ROSTER if name in headers]
    return {name: headers[name] for name in order + [name for name in headers if name not in order]}


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(tokens: list[str]) -> list[str]:
    """Movetext lines of at most _LINE characters, a comment never broken (one longer than a line
    stands alone), a move number kept with its move."""
    lines, line = [], ""
    for token in tokens:
        joined = f"{line} {token}" if line else token
        if len(joined) <= _LINE or not line or line.endswith("."):
            line = joined
        else:
            lines.append(line)
            line = token
    return lines + [line] if line else lines
