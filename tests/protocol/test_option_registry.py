"""The options every protocol announces, and docs/usage.md's table of them.

The announcements are pinned by a change detector: the expected lines below were taken
from the output of the build before the option registry (commit 1d2f5fd) -- GUIs remember an
engine's options by these names, types, defaults, ranges and this order, so any difference is a
change to review, not a refactor. The shipped files' paths, which depend on where Pyrope is installed, are written {net},
{book} and {mill_db}."""
from __future__ import annotations


from paths import REPOSITORY
from pyrope.book.player import DEFAULT_BOOK
from pyrope.mill.db.probe import DEFAULT_DIR as MILL_DB
from pyrope.mill.session import MillSession
from pyrope.mill.uci import MillUciFrontEnd, MillUgiFrontEnd
from pyrope.nnue.loader import DEFAULT_NET
from pyrope.play.options import CHESS, markdown_table
from pyrope.play.session import Session
from pyrope.protocol.uci import UciFrontEnd
from pyrope.protocol.ugi import UgiFrontEnd
from pyrope.protocol.xboard import XboardFrontEnd

CHESS_UCI = """\
option name Hash type spin default 16 min 1 max 65536
option name Threads type spin default 1 min 1 max 256
option name MultiPV type spin default 1 min 1 max 64
option name Move Overhead type spin default 30 min 0 max 5000
option name UCI_Elo type spin default 1600 min 1000 max 2300
option name BookDepth type spin default 256 min 0 max 1024
option name SyzygyProbeDepth type spin default 1 min 1 max 100
option name SyzygyProbeLimit type spin default 7 min 0 max 7
option name OwnBook type check default true
option name BookVariety type check default true
option name Syzygy50MoveRule type check default true
option name Ponder type check default false
option name UCI_Chess960 type check default false
option name UCI_AnalyseMode type check default false
option name UCI_LimitStrength type check default false
option name UCI_ShowWDL type check default false
option name Use NNUE type check default true
option name Clear Hash type button
option name EvalFile type string default <empty>
option name NNUEFile type string default {net}
option name BookFile type string default {book}
option name SyzygyPath type string default <empty>
option name PyropeTBPath type string default <default>"""

CHESS_CECP = """\
feature option="MultiPV -spin 1 1 64"
feature option="MoveOverhead -spin 30 0 5000"
feature option="Elo -spin 1600 1000 2300"
feature option="BookDepth -spin 256 0 1024"
feature option="SyzygyProbeDepth -spin 1 1 100"
feature option="SyzygyProbeLimit -spin 7 0 7"
feature option="LimitStrength -check 0"
feature option="OwnBook -check 1"
feature option="BookVariety -check 1"
feature option="Syzygy50MoveRule -check 1"
feature option="ClearHash -button"
feature option="EvalFile -file "
feature option="NNUEFile -file {net}"
feature option="UseNNUE -check 1"
feature option="BookFile -file {book}"
feature option="PyropeTBPath -path <default>\""""

# After `option MultiPV=3`, `option Move Overhead=120`, `option Elo=1500`, `option OwnBook=0`:
# CECP announces each spin and check at its current value.
CHESS_CECP_CHANGED = (CHESS_CECP.replace("MultiPV -spin 1", "MultiPV -spin 3")
                      .replace("MoveOverhead -spin 30", "MoveOverhead -spin 120")
                      .replace("Elo -spin 1600", "Elo -spin 1500").replace("OwnBook -check 1", "OwnBook -check 0"))

MILL = """\
option name Hash type spin default 16 min 1 max 65536
option name Move Overhead type spin default 30 min 0 max 5000
option name PiecesCount type spin default 9 min 9 max 12
option name FlyPieceCount type spin default 3 min 3 max 4
option name BoardFullAction type spin default 0 min 0 max 4
option name StalemateAction type spin default 0 min 0 max 4
option name NMoveRule type spin default 100 min 0 max 1000
option name EndgameNMoveRule type spin default 100 min 0 max 1000
option name MoveTime type spin default 1 min 0 max 60
option name HasDiagonalLines type check default false
option name MayFly type check default true
option name MayRemoveFromMillsAlways type check default false
option name MayRemoveMultiple type check default false
option name MayMoveInPlacingPhase type check default false
option name ThreefoldRepetitionRule type check default true
option name Algorithm type combo default pvs var pvs var mtdf
option name Variant type combo default nine var nine var twelve var lasker var morabaraba
option name Clear Hash type button
option name MillDBPath type string default {mill_db}"""


def announced(front_end: type, session_type: type, *commands: str) -> str:
    """The option lines `front_end` writes for `commands`, the shipped files' paths as placeholders."""
    lines: list[str] = []
    front = front_end(session_type(), lines.append)
    for command in commands:
        front.handle(command)
    front.handle("quit")
    text = "\n".join(line for line in lines if line.startswith(("option name ", 'feature option="')))
    for path, placeholder in ((DEFAULT_NET, "{net}"), (DEFAULT_BOOK, "{book}"), (MILL_DB, "{mill_db}")):
        text = text.replace(str(path), placeholder)
    return text


def test_uci_and_ugi_announce_the_options_of_the_previous_build():
    assert announced(UciFrontEnd, Session, "uci") == CHESS_UCI
    assert announced(UgiFrontEnd, Session, "ugi") == CHESS_UCI


def test_cecp_announces_the_options_of_the_previous_build_at_their_current_values():
    assert announced(XboardFrontEnd, Session, "xboard", "protover 2") == CHESS_CECP
    changed = announced(XboardFrontEnd, Session, "xboard", "option MultiPV=3", "option Move Overhead=120",
                        "option Elo=1500", "option OwnBook=0", "protover 2")
    assert changed == CHESS_CECP_CHANGED


def test_mill_announces_the_options_of_the_previous_build():
    assert announced(MillUciFrontEnd, MillSession, "uci") == MILL
    assert announced(MillUgiFrontEnd, MillSession, "ugi") == MILL


def test_the_manuals_options_table_is_the_registry_rendered():
    """docs/usage.md's table is generated: after changing an option, paste markdown_table(CHESS) in."""
    lines = (REPOSITORY / "docs" / "usage.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("| UCI name | CECP | type | default | range / values | what it does |")
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    assert "\n".join(lines[start:end]) == markdown_table(CHESS)
