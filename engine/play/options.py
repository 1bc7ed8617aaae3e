"""Every engine option, said once: its UCI name, its CECP name, its type, default and range, what
setting it does to the session, and the words of docs/usage.md's options table (`markdown_table`).

Front-ends announce the options of a Registry and turn the text of `setoption` or `option` into a
value of the option's type, each protocol with its own words for a bad value; `Option.apply` then
sets the value on the session. Chess's registry is CHESS; Mill's (mill/options.py) is made of the
same Option class and reuses the entries both games have (HASH, MOVE_OVERHEAD, CLEAR_HASH).

A default is written here, or, where the setting belongs to a part with a module of its own (the
book, the tablebases, the time manager, the strength limit), there as a named constant read here.
The search manager and the session take their initial settings from these entries.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ..book.player import DEFAULT_DEPTH as DEFAULT_BOOK_DEPTH, DEFAULT_VARIETY, MAX_DEPTH as MAX_BOOK_DEPTH
from .strength import DEFAULT_ELO, MAX_ELO, MIN_ELO
from .tablebases import DEFAULT as TB_DEFAULT, DEFAULT_PROBE_DEPTH, DEFAULT_RULE50, MAX_PIECES
from .timeman import DEFAULT_MOVE_OVERHEAD_MS

SPIN, CHECK, COMBO, STRING, BUTTON = "spin", "check", "combo", "string", "button"


@dataclass
class Report:
    """What setting an option has to tell the user: what could not be used (the rest took
    effect) and what is worth knowing (what a path held, a smaller hash table)."""
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Option:
    name: str                       # UCI's (and UGI's) name
    kind: str                       # SPIN, CHECK, COMBO, STRING or BUTTON
    default: Any = None             # None for a button and for an option found at start
    minimum: int = 0                # a spin's range
    maximum: int = 0
    choices: tuple[str, ...] = ()   # a combo's values
    # Where the value is kept on the session (dotted), and, unless `action` is given, set.
    setting: str = ""
    action: Callable[[Any, Any], Report | None] | None = None     # (session, value): what setting does
    ends_search: bool = False       # setting it ends any search first (the manager joins its thread)
    # The default is what the engine found at start (the shipped book, net, databases), so it is
    # announced as the value now.
    found_at_start: bool = False
    cecp: str | None = None         # CECP's name (`option NAME=VALUE`, `feature option`); None: none
    cecp_kind: str = ""             # CECP's type where it differs from `kind`: file or path
    # docs/usage.md's table: the CECP command that sets it, the range's unit, what a string takes, the
    # default in words where its value alone does not say it, and what the option does.
    cecp_command: str = ""
    unit: str = ""
    values: str = ""
    default_text: str = ""
    doc: str = ""

    def read(self, session: Any) -> Any:
        """The value now (the default when the session keeps none)."""
        return operator.attrgetter(self.setting)(session) if self.setting else self.default

    def announced_default(self, session: Any) -> Any:
        return self.read(session) if self.found_at_start else self.default

    def apply(self, session: Any, value: Any) -> Report:
        """Set a value of this option's type (a range or choice already checked by the caller)."""
        if self.action is not None:
            return self.action(session, value) or Report()
        owner, _, name = self.setting.rpartition(".")
        setattr(operator.attrgetter(owner)(session) if owner else session, name, value)
        return Report()


class Registry:
    """A game's options in the order UCI announces them; `cecp_order` names those CECP announces,
    in its order (the one GUIs have always seen)."""

    def __init__(self, *options: Option, cecp_order: tuple[str, ...] = ()) -> None:
        self.options = options
        self._by_name = {option.name.lower(): option for option in options}
        self.cecp_options = tuple(self[name] for name in cecp_order)

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __getitem__(self, name: str) -> Option:
        return self._by_name[name.lower()]

    def find(self, name: str) -> Option | None:
        """The option of that UCI name, in any case."""
        return self._by_name.get(name.lower())


def hash_report(megabytes: int, granted: int) -> Report:
    return Report(notes=[f"Hash {megabytes} MB cannot be used here; using {granted} MB"] if granted < megabytes else [])


def set_threads(session: Any, threads: int) -> None:
    session.manager.set_threads(threads)


def tables_report(messages: list[str]) -> Report:
    """A tables path's messages (TablebasePlayer.load): its problems, then what was found."""
    return Report(problems=messages[:-1], notes=messages[-1:])


# Shared with Mill: both managers size their table, take Move Overhead off the clock and clear.
HASH = Option(name="Hash", kind=SPIN, default=16, minimum=1, maximum=65536, ends_search=True, unit="MB",
              action=lambda session, megabytes: hash_report(megabytes, session.manager.set_hash(megabytes)),
              cecp_command="`memory N`",
              doc="transposition table size, shared by all threads; more than the free memory falls back to the "
                  "largest power-of-two size that fits (UCI says so)")
MOVE_OVERHEAD = Option(name="Move Overhead", kind=SPIN, default=DEFAULT_MOVE_OVERHEAD_MS, minimum=0, maximum=5000,
                       setting="manager.move_overhead", cecp="MoveOverhead", unit="ms",
                       doc="taken off the clock (and off `movetime`) for GUI and pipe delays")
CLEAR_HASH = Option(name="Clear Hash", kind=BUTTON, action=lambda session, value: session.manager.clear(),
                    ends_search=True, cecp="ClearHash", doc="empties the transposition table")

THREADS = Option(name="Threads", kind=SPIN, default=1, minimum=1, maximum=256, ends_search=True,
                 action=lambda session, threads: set_threads(session, threads),
                 cecp_command="`cores N`", doc="search threads (Lazy SMP)")
MULTIPV = Option(name="MultiPV", kind=SPIN, default=1, minimum=1, maximum=64, setting="manager.multipv",
                 cecp="MultiPV", doc="best lines searched and shown")
ELO = Option(name="UCI_Elo", kind=SPIN, default=DEFAULT_ELO, minimum=MIN_ELO, maximum=MAX_ELO,
             setting="manager.elo", cecp="Elo",
             doc="the limit's level (every level is a limit; full strength is `UCI_LimitStrength` off)")
BOOK_DEPTH = Option(name="BookDepth", kind=SPIN, default=DEFAULT_BOOK_DEPTH, minimum=0, maximum=MAX_BOOK_DEPTH,
                    setting="manager.book.depth", cecp="BookDepth",
                    doc="the last game ply at which the book is asked (1 = White's first move)")
SYZYGY_PROBE_DEPTH = Option(name="SyzygyProbeDepth", kind=SPIN, default=DEFAULT_PROBE_DEPTH, minimum=1, maximum=100,
                            setting="manager.tablebases.probe_depth", cecp="SyzygyProbeDepth",
                            doc="the depth from which the search probes at the largest table size")
SYZYGY_PROBE_LIMIT = Option(name="SyzygyProbeLimit", kind=SPIN, default=MAX_PIECES, minimum=0, maximum=MAX_PIECES,
                            setting="manager.tablebases.probe_limit", cecp="SyzygyProbeLimit",
                            doc="the most pieces probed, in both kinds of tables")
OWN_BOOK = Option(name="OwnBook", kind=CHECK, found_at_start=True, setting="manager.book.enabled", cecp="OwnBook",
                  default_text="true when the shipped book is found",
                  doc="play openings from the book (see [docs/engine.md](engine.md#opening-book))")
BOOK_VARIETY = Option(name="BookVariety", kind=CHECK, default=DEFAULT_VARIETY, setting="manager.book.variety",
                      cecp="BookVariety", doc="on: a move drawn by weight; off: the heaviest")
SYZYGY_50_MOVE_RULE = Option(name="Syzygy50MoveRule", kind=CHECK, default=DEFAULT_RULE50,
                             setting="manager.tablebases.rule50", cecp="Syzygy50MoveRule",
                             doc="a win or loss the fifty-move count spoils is a draw")
PONDER = Option(name="Ponder", kind=CHECK, default=False, setting="manager.ponder_allowed",
                cecp_command="`hard` / `easy`",
                doc="the GUI may ponder; the time manager plans a quarter more per move")
CHESS960 = Option(name="UCI_Chess960", kind=CHECK, default=False, setting="chess960",
                  action=lambda session, enabled: session.set_chess960(enabled),
                  cecp_command="`variant fischerandom`",
                  doc="Chess960 castling; castling printed king-takes-rook (`e1h1`)")
ANALYSE_MODE = Option(name="UCI_AnalyseMode", kind=CHECK, default=False, setting="manager.analyse_mode",
                      cecp_command="`analyze` mode", doc="analysis: full strength, no book moves")
LIMIT_STRENGTH = Option(name="UCI_LimitStrength", kind=CHECK, default=False, setting="manager.limit_strength",
                        cecp="LimitStrength",
                        doc="play at `UCI_Elo` (see [docs/strength.md](strength.md#strength-limit))")
SHOW_WDL = Option(name="UCI_ShowWDL", kind=CHECK, default=False, setting="show_wdl",
                  doc="`wdl W D L` (per mille) after every score")
USE_NNUE = Option(name="Use NNUE", kind=CHECK, default=True, setting="manager.net_enabled",
                  action=lambda session, enabled: session.manager.use_net(enabled), ends_search=True, cecp="UseNNUE",
                  doc="evaluate with the `NNUEFile` net when one is loaded; off: the hand-crafted evaluation")
EVAL_FILE = Option(name="EvalFile", kind=STRING, default="", ends_search=True, cecp="EvalFile", cecp_kind="file",
                   action=lambda session, path: session.manager.load_eval_file(path or None),
                   values="a file of `name = value` lines",
                   default_text="`<empty>`: the shipped weights (engine/weights/default.params)",
                   doc="evaluation weights (see [docs/engine.md](engine.md#evaluation))")
NNUE_FILE = Option(name="NNUEFile", kind=STRING, found_at_start=True, setting="manager.net_path", ends_search=True,
                   action=lambda session, path: session.manager.load_net(path or None),
                   cecp="NNUEFile", cecp_kind="file",
                   values="a net file of `pyrope train` ([docs/nnue.md](nnue.md)), `<empty>`: none",
                   default_text="the shipped net (`.../pyrope/nets/pyrope.nnue`)",
                   doc="the learned evaluation's net; a missing, truncated, damaged or other-architecture file is "
                       "named with its fault and the net in use stays (a broken shipped net is named after "
                       "`uciok`, or in a CECP comment, and the hand-crafted evaluation plays)")
# No search needs ending: a search reads the book once, as it starts.
BOOK_FILE = Option(name="BookFile", kind=STRING, found_at_start=True, setting="manager.book.path",
                   action=lambda session, path: session.manager.book.load(path), cecp="BookFile", cecp_kind="file",
                   values="a Polyglot `.bin`; empty: none", default_text="the shipped `pyrope.bin` (its full path)",
                   doc="the opening book")
SYZYGY_PATH = Option(name="SyzygyPath", kind=STRING, default="", ends_search=True,
                     action=lambda session, path: tables_report(session.manager.load_tablebases(path)),
                     cecp_command="`egtpath syzygy PATH`", values="directories separated by `:` (`;` on Windows)",
                     default_text="`<empty>`: none",
                     doc="Syzygy tables (see [docs/engine.md](engine.md#tablebases-syzygy))")
PYROPE_TB_PATH = Option(name="PyropeTBPath", kind=STRING, default=TB_DEFAULT, setting="manager.tablebases.own_path",
                        ends_search=True,
                        action=lambda session, path: tables_report(session.manager.load_own_tablebases(path)),
                        cecp="PyropeTBPath", cecp_kind="path", cecp_command="`egtpath pyrope PATH`",
                        values="directories as above; `<empty>`: none",
                        default_text="`<default>`: the shipped tables",
                        doc="Pyrope's own distance-to-mate tables "
                            "(see [docs/engine.md](engine.md#pyropes-own-tables-distance-to-mate))")

CHESS = Registry(
    HASH, THREADS, MULTIPV, MOVE_OVERHEAD, ELO, BOOK_DEPTH, SYZYGY_PROBE_DEPTH, SYZYGY_PROBE_LIMIT,
    OWN_BOOK, BOOK_VARIETY, SYZYGY_50_MOVE_RULE, PONDER, CHESS960, ANALYSE_MODE, LIMIT_STRENGTH, SHOW_WDL, USE_NNUE,
    CLEAR_HASH, EVAL_FILE, NNUE_FILE, BOOK_FILE, SYZYGY_PATH, PYROPE_TB_PATH,
    cecp_order=("MultiPV", "Move Overhead", "UCI_Elo", "BookDepth", "SyzygyProbeDepth", "SyzygyProbeLimit",
                "UCI_LimitStrength", "OwnBook", "BookVariety", "Syzygy50MoveRule", "Clear Hash", "EvalFile",
                "NNUEFile", "Use NNUE", "BookFile", "PyropeTBPath"))


def markdown_table(registry: Registry) -> str:
    """The options table of docs/usage.md (links relative to docs/): one row an option, in the order UCI announces them."""
    rows = ["| UCI name | CECP | type | default | range / values | what it does |", "|---|---|---|---|---|---|"]
    for option in registry:
        cecp = [f"`{option.cecp}`" + (f" ({option.cecp_kind})" if option.cecp_kind else "")] if option.cecp else []
        cecp += [option.cecp_command] if option.cecp_command else []
        if option.kind == SPIN:
            values = f"{option.minimum}-{option.maximum}" + (f" ({option.unit})" if option.unit else "")
        elif option.kind == CHECK:
            values = "true, false"
        else:
            values = option.values or ", ".join(option.choices)
        default = option.default_text or ("" if option.default is None else
                                          str(option.default).lower() if option.kind == CHECK else str(option.default))
        cells = [f"`{option.name}`", ", ".join(cecp) or "--", option.kind, default, values, option.doc]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)
