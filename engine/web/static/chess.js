// The play page: the settings become a "new" message, the person's moves "move" messages; each
// "state" from the server redraws the board, clocks, moves and PGN, each "info" the engine's
// thinking. The page keeps no game of its own: it shows what the server says.
"use strict";

const $ = (id) => document.getElementById(id);
const LAST_GAME = "pyrope-last-game";       // localStorage: the PGN the analysis page can load
let state = null;
let clockShown = null;          // {white_ms, black_ms, running, at}: the clocks as last told

const server = connect("/ws/chess", (message) => {
  if (message.type === "state") showState(message);
  else if (message.type === "info") showThinking(message);
});
const board = new ChessBoard($("board"), (uci) => server.send({type: "move", uci}));

function newGameMessage() {
  const [kind, first, second] = $("time").value.split(" ");
  const message = {type: "new", color: $("color").value, chess960: $("chess960").checked,
                   elo: $("level").value ? Number($("level").value) : null};
  if ($("chess960").checked && $("position").value !== "") message.position = Number($("position").value);
  if ($("fen").value.trim() !== "") message.fen = $("fen").value.trim();
  if (kind === "clock") message.time = {base_s: Number(first), increment_s: Number(second)};
  else message.movetime_ms = Number(first);
  return message;
}

$("settings").addEventListener("submit", (event) => {
  event.preventDefault();
  state = null;
  server.send(newGameMessage());
});
$("takeback").addEventListener("click", () => server.send({type: "takeback"}));
$("resign").addEventListener("click", () => server.send({type: "resign"}));
$("flip").addEventListener("click", () => { board.flip(); showClocks(); });
$("download").addEventListener("click", () => download(state.pgn, "pyrope-game.pgn"));

function showState(message) {
  const fresh = state === null;
  state = message;
  if (fresh) {
    board.whiteAtBottom = message.human === "white";
    $("moves").replaceChildren();
    showThinking(null);
  }
  board.show({fen: message.fen, legal: message.legal, last: message.moves[message.moves.length - 1] || null,
              check: message.check});
  moveList($("moves"), message.sans, 1);
  $("pgn").textContent = message.pgn;
  $("download").disabled = false;
  localStorage.setItem(LAST_GAME, message.pgn);
  $("status").textContent = message.result ? `Game over: ${message.result} (${message.reason})`
    : message.thinking ? "Pyrope is thinking..." : "Your move.";
  $("status").dataset.result = message.result || "";
  clockShown = message.clock && {...message.clock, at: performance.now()};
  showClocks();
}

function showThinking(info) {
  $("depth").textContent = info ? `depth ${info.depth}/${info.seldepth}` : "";
  $("score").textContent = info ? scoreText(info.score) : "";
  $("nodes").textContent = info ? `${info.nodes.toLocaleString()} nodes, ${(info.nps / 1000).toFixed(0)} kn/s` : "";
  $("pv").textContent = info ? info.pv.join(" ") : "";
  $("eval-fill").style.height = `${100 * (info ? info.white_expected : 0.5)}%`;
}

function clockText(ms) {
  const tenths = Math.max(0, Math.floor(ms / 100));
  const minutes = Math.floor(tenths / 600), seconds = Math.floor(tenths / 10) % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}` + (tenths < 200 ? `.${tenths % 10}` : "");
}

function showClocks() {
  // The server's clocks, run on here between its messages (it alone decides a flag).
  const [top, bottom] = board.whiteAtBottom ? ["black", "white"] : ["white", "black"];
  for (const [side, element] of [[top, $("clock-top")], [bottom, $("clock-bottom")]]) {
    if (!clockShown) {
      element.textContent = "";
      continue;
    }
    const running = clockShown.running === side;
    const ms = clockShown[`${side}_ms`] - (running ? performance.now() - clockShown.at : 0);
    element.textContent = `${side === "white" ? "White" : "Black"} ${clockText(ms)}`;
    element.classList.toggle("running", running);
  }
}

setInterval(showClocks, 100);
