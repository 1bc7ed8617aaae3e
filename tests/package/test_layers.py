"""The engine apart from the lab (issue 63): the program a GUI starts loads nothing of the self-play
tooling (pyrope.selfplay: datagen, train, tune, evolve) nor of the match and job runners, and no modules of
the package import each other in a circle. The modules are read from the installed package, so
this checks what ships."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import pyrope

PACKAGE = Path(pyrope.__file__).parent
# The lab: tools that depend on the engine, never the reverse. The weights' rebuild drives datagen
# and the tuner, so it is the lab's too.
LAB = ("pyrope.selfplay", "pyrope.weights.build")
TOOLS = LAB + ("pyrope.match", "pyrope.jobs")


def module_name(path: Path) -> str:
    parts = ["pyrope", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each module's imports of the package's modules, lazy ones inside functions included."""
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = {name: set() for name in paths}
    for name, path in paths.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else [])) \
                    if node.level else (node.module or "")
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base for alias in node.names]
            else:
                continue
            graph[name] |= {target for target in targets if target in paths and target != name}
    return graph


def is_in(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def test_no_module_outside_the_lab_imports_it():
    graph = import_graph()
    assert "pyrope.selfplay.datagen" in graph and "pyrope.match.runner" in graph      # the walk found them
    offenders = sorted(f"{name} imports {target}" for name, targets in graph.items() if not is_in(name, LAB)
                       for target in targets if is_in(target, LAB))
    assert offenders == []


def test_no_import_circles():
    graph = import_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(node: str) -> None:          # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                circles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for node in graph:
        if node not in index:
            visit(node)
    assert circles == []


LOADED = """
import atexit, sys
atexit.register(lambda: sys.__stderr__.write("LOADED " + " ".join(sorted(sys.modules)) + "\\n"))
sys.argv = ["pyrope"]
from pyrope.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize("session, answer", [
    ("uci\nisready\nsetoption name EvalFile value <default>\nposition startpos moves e2e4\ngo depth 4\nisready\nquit\n",
     "bestmove"),
    ("xboard\nprotover 2\nnew\nsd 3\nusermove e2e4\nping 1\nquit\n", "pong 1"),
    ("ugi\nisready\nposition startpos\ngo depth 3\nisready\nquit\n", "bestmove"),
], ids=["uci", "xboard", "ugi"])
def test_a_gui_session_loads_no_tool(session, answer):
    result = subprocess.run([sys.executable, "-c", LOADED], input=session, capture_output=True, text=True,
                            timeout=120)
    assert answer in result.stdout, result.stdout + result.stderr
    loaded = [line for line in result.stderr.splitlines() if line.startswith("LOADED ")][-1].split()[1:]
    assert "pyrope.play.manager" in loaded
    assert [name for name in loaded if is_in(name, TOOLS)] == []
