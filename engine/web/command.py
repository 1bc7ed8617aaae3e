"""`pyrope serve`: the browser front-end on a local address (app), until Ctrl-C."""
from __future__ import annotations

import argparse
import socket
import webbrowser

from .. import console

DEFAULT_HOST = "127.0.0.1"      # this machine only: a game server is not for the whole network unasked
DEFAULT_PORT = 8065


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Serve Pyrope's web pages: play chess against Pyrope (clock, strength levels, Chess960, its "
        "thinking shown live, PGN download), review a game (evaluation graph, mistakes and the better "
        "moves, annotated PGN), play Mill or Kriegspiel against it. Only this machine can connect unless "
        "--host says otherwise. docs/web.md describes the pages.")
    parser.epilog = ("examples:\n"
                     "  pyrope serve --open\n"
                     "  pyrope serve --port 8080 --host 0.0.0.0     (reachable from the network)")
    parser.add_argument("--port", type=console.int_range(0, 65535), default=DEFAULT_PORT,
                        help=f"the port (default {DEFAULT_PORT}; 0: any free one)")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only)")
    parser.add_argument("--open", action="store_true", help="open the pages in the default browser")


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound before uvicorn starts so that a port in use is bad input and
    port 0's free port can be printed."""
    try:
        return socket.create_server((host, port))
    except OSError as error:
        raise console.InputError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def run(args: argparse.Namespace) -> int:
    console.require(["starlette", "uvicorn", "websockets"], "web", "pyrope serve")
    import uvicorn

    from .app import make_app

    sock = listening_socket(args.host, args.port)
    host, port = sock.getsockname()[:2]
    url = f"http://{host if ':' not in host else f'[{host}]'}:{port}/"
    print(f"pyrope serve: {url} (Ctrl-C ends it)", flush=True)
    if args.open:
        webbrowser.open(url)
    server = uvicorn.Server(uvicorn.Config(make_app(), log_level="warning"))
    server.run(sockets=[sock])
    return 0
