"""The browser front-end (`pyrope serve`, the optional `web` extra): pages to play chess, Mill and
Kriegspiel against Pyrope and to review a chess game, served with Starlette and uvicorn; each game
talks to the server over a WebSocket of its own. See docs/web.md."""
