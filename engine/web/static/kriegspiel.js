// The Kriegspiel page: the board holds your own men only and offers every move they might make
// (the server's tries); a move made is sent as a try, and the referee's words are listed. At the
// end the server sends the full board and the referee's PGN, shown here.
"use strict";

const $ = (id) => document.getElementById(id);
let fresh = true;

const server = connect("/ws/kriegspiel", (message) => {
  if (message.type === "state") showState(message);
});
const board = new ChessBoard($("board"), (uci) => server.send({type: "try", text: uci}));

$("settings").addEventListener("submit", (event) => {
  event.preventDefault();
  fresh = true;
  server.send({type: "new", color: $("color").value, opponent: $("opponent").value});
});
$("px").addEventListener("click", () => server.send({type: "try", text: "px"}));
$("resign").addEventListener("click", () => server.send({type: "resign"}));
$("flip").addEventListener("click", () => board.flip());

function showState(message) {
  if (fresh) board.whiteAtBottom = message.human === "white";
  fresh = false;
  board.show({fen: message.full_fen || message.fen, legal: message.tries});
  $("log").replaceChildren(...message.log.map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
  $("log").scrollTop = $("log").scrollHeight;
  $("px").hidden = !message.pawn_tries;
  $("pgn").textContent = message.pgn || "";
  $("status").textContent = message.result ? `Game over: ${message.result} (${message.reason}); the full board`
    : message.thinking ? "The opponent is thinking..." : "Your try.";
  $("status").dataset.result = message.result || "";
}
