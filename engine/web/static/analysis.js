// The analysis page: a PGN (pasted, uploaded or the game just played) goes to the server as an
// "analyse" message; "progress" fills the bar; the "review" is drawn as a graph of White's
// expected score (inline SVG), the moves with their marks and better moves, and a board that
// shows the position of the move chosen in the graph or the list.
"use strict";

const $ = (id) => document.getElementById(id);
const SYMBOLS = {inaccuracy: "?!", mistake: "?", blunder: "??"};
const WIDTH = 600, HEIGHT = 160;
let review = null;

const server = connect("/ws/analysis", (message) => {
  if (message.type === "progress") {
    $("progress").max = message.total;
    $("progress").value = message.done;
  } else if (message.type === "review") {
    showReview(message);
  }
});
const board = new ChessBoard($("board"));
board.show({fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"});

function loadLastGame() {
  const pgn = localStorage.getItem("pyrope-last-game");
  if (pgn) $("pgn-input").value = pgn;
  else showError("No game has been played on this browser yet.");
}

$("load-last").addEventListener("click", loadLastGame);
$("pgn-file").addEventListener("change", () => {
  const file = $("pgn-file").files[0];
  if (file) file.text().then((text) => { $("pgn-input").value = text; });
});
$("request").addEventListener("submit", (event) => {
  event.preventDefault();
  $("progress").value = 0;
  server.send({type: "analyse", pgn: $("pgn-input").value, movetime_ms: Number($("movetime").value)});
});
$("download").addEventListener("click", () => download(review.pgn, "pyrope-analysis.pgn"));
if (location.hash === "#last") loadLastGame();

function percent(expected) {
  return `${Math.round(100 * expected)}%`;
}

function showReview(message) {
  review = message;
  $("title").textContent = `${message.white} - ${message.black} ${message.result} (${message.limit} a position)`;
  const firstPly = message.moves.length ? message.moves[0].ply : 1;
  moveList($("moves"), message.moves.map((move) => move.san + (SYMBOLS[move.verdict] || "")), firstPly,
           (index, item) => {
             const move = message.moves[index];
             if (move.verdict) item.dataset.verdict = move.verdict;
             item.addEventListener("click", () => showPosition(index + 1));
           });
  $("marks").replaceChildren(...message.moves.filter((move) => move.verdict).map((move) => {
    const item = document.createElement("li");
    const number = `${Math.ceil(move.ply / 2)}${move.white ? "." : "..."}`;
    item.textContent = `${number} ${move.san}${SYMBOLS[move.verdict]} ${move.verdict}: ` +
      `${percent(move.expected_before)} \u2192 ${percent(move.expected_after)}; ${move.best} was best`;
    item.dataset.verdict = move.verdict;
    item.dataset.san = move.san;
    item.dataset.best = move.best;
    item.addEventListener("click", () => showPosition(message.moves.indexOf(move) + 1));
    return item;
  }));
  $("summary").replaceChildren(...message.summary.slice(0, 2).map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
  $("download").disabled = false;
  showPosition(message.fens.length - 1);
}

function graphPoint(index) {
  const count = Math.max(review.white_expected.length - 1, 1);
  return [index / count * WIDTH, (1 - review.white_expected[index]) * HEIGHT];
}

function drawGraph(current) {
  // White's expected score over the game: above the middle line White is better.
  const graph = $("graph");
  const line = review.white_expected.map((_, index) => graphPoint(index).join(",")).join(" ");
  const area = `0,${HEIGHT / 2} ${line} ${WIDTH},${HEIGHT / 2}`;
  const parts = [`<polygon class="area" points="${area}"/>`,
                 `<line class="middle" x1="0" y1="${HEIGHT / 2}" x2="${WIDTH}" y2="${HEIGHT / 2}"/>`,
                 `<polyline class="curve" points="${line}"/>`,
                 `<line class="now" x1="${graphPoint(current)[0]}" y1="0" x2="${graphPoint(current)[0]}" y2="${HEIGHT}"/>`];
  review.moves.forEach((move, index) => {
    if (!move.verdict) return;
    const [x, y] = graphPoint(index + 1);
    parts.push(`<circle class="mark ${move.verdict}" cx="${x}" cy="${y}" r="5" data-index="${index + 1}"
                 data-verdict="${move.verdict}"><title>${move.san}${SYMBOLS[move.verdict]} (${move.best} was best)</title></circle>`);
  });
  graph.innerHTML = parts.join("");
  graph.onclick = (event) => {
    const box = graph.getBoundingClientRect();
    showPosition(Math.round((event.clientX - box.left) / box.width * (review.white_expected.length - 1)));
  };
}

function showPosition(index) {
  // the position after the index-th move (0: the start)
  const move = review.moves[index - 1];
  board.show({fen: review.fens[index], last: move ? move.uci : null});
  drawGraph(index);
  for (const item of $("moves").children) item.classList.toggle("current", Number(item.dataset.ply) === (move ? move.ply : -1));
  $("position-note").textContent = move
    ? `${move.san}${SYMBOLS[move.verdict] || ""}: White's expected score ${percent(review.white_expected[index])}` +
      (move.verdict ? `; ${move.best} was best` : "")
    : `start: White's expected score ${percent(review.white_expected[0])}`;
}
