"""The web application: the pages and their static files, and one WebSocket per game (chess_game,
mill_game, kriegspiel_game) or review (analysis). Starlette (a small ASGI toolkit with WebSockets
and no other dependencies worth naming) routes; uvicorn (command.py) serves.

A socket's messages are JSON objects. Each is handed to its handler on the event loop; what the
handler sends is queued and written by a task of the socket's own, so the search and review
threads, which reach the loop through call_soon_threadsafe, never wait for a slow page. A message
that is not a JSON object, or one the handler rejects, is answered {"type": "error", "message": ...}
and changes nothing; a socket that closes ends its game or review.
"""
from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Awaitable, Callable, Protocol

from starlette.applications import Starlette
from starlette.responses import FileResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..console import sentence
from ..mill.session import MillSession
from ..play.session import Session
from .analysis import AnalysisJob
from .chess_game import ChessGame
from .engine_game import MessageError, Send
from .kriegspiel_game import KriegspielGame
from .mill_game import MillGame

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "index.html", "/chess": "chess.html", "/analysis": "analysis.html", "/mill": "mill.html",
         "/kriegspiel": "kriegspiel.html"}

log = logging.getLogger(__name__)


class Handler(Protocol):
    def handle(self, message: dict) -> None: ...

    async def close(self) -> None: ...


async def new_chess_game(send: Send, loop: asyncio.AbstractEventLoop) -> ChessGame:
    # A Session allocates its hash table and checks the net: not on the event loop.
    return ChessGame(await asyncio.to_thread(Session), send, loop)


async def new_mill_game(send: Send, loop: asyncio.AbstractEventLoop) -> MillGame:
    return MillGame(await asyncio.to_thread(MillSession), send, loop)


async def new_kriegspiel_game(send: Send, loop: asyncio.AbstractEventLoop) -> KriegspielGame:
    return KriegspielGame(send, loop)


async def new_analysis(send: Send, loop: asyncio.AbstractEventLoop) -> AnalysisJob:
    return AnalysisJob(send, loop)


def parsed(text: str | None) -> dict:
    if text is None:
        raise MessageError("messages are JSON text, not binary")
    try:
        message = json.loads(text)
    except json.JSONDecodeError as error:
        raise MessageError(f"the message is not JSON: {error}") from None
    if not isinstance(message, dict):
        raise MessageError("a message is a JSON object with a \"type\"")
    return message


async def write_all(websocket: WebSocket, outbox: asyncio.Queue) -> None:
    while True:
        await websocket.send_text(json.dumps(await outbox.get()))


def socket_endpoint(make: Callable[[Send, asyncio.AbstractEventLoop], Awaitable[Handler]]):
    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        outbox: asyncio.Queue = asyncio.Queue()
        handler = await make(outbox.put_nowait, asyncio.get_running_loop())
        writer = asyncio.create_task(write_all(websocket, outbox))
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    handler.handle(parsed(message.get("text")))
                except MessageError as error:
                    outbox.put_nowait({"type": "error", "message": sentence(error)})
                except Exception as error:      # a fault of ours: said, logged, and the server serves on
                    log.exception("a web message failed")
                    outbox.put_nowait({"type": "error", "message": f"internal error: {sentence(error)}"})
        finally:
            writer.cancel()
            await handler.close()
    return endpoint


def page(name: str):
    async def serve(request) -> FileResponse:
        return FileResponse(STATIC / name)
    return serve


def make_app() -> Starlette:
    routes = [Route(path, page(name)) for path, name in PAGES.items()]
    routes += [Mount("/static", StaticFiles(directory=STATIC), name="static"),
               WebSocketRoute("/ws/chess", socket_endpoint(new_chess_game)),
               WebSocketRoute("/ws/analysis", socket_endpoint(new_analysis)),
               WebSocketRoute("/ws/mill", socket_endpoint(new_mill_game)),
               WebSocketRoute("/ws/kriegspiel", socket_endpoint(new_kriegspiel_game))]
    return Starlette(routes=routes)
