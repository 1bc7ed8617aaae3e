// The Mill page: the board drawn from the lines the server sends, a turn built from the points
// clicked. A turn's points are matched against the legal turns of the state (d6, d6-d5, d6xb4:
// their points in order), so the page needs no rules: when the points clicked are a whole legal
// turn, it is sent.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
let state = null;
let clicked = [];       // the points of the turn being built

const server = connect("/ws/mill", (message) => {
  if (message.type === "state") showState(message);
  else if (message.type === "info") showThinking(message);
});

$("settings").addEventListener("submit", (event) => {
  event.preventDefault();
  server.send({type: "new", color: $("color").value, variant: $("variant").value,
               movetime_ms: Number($("movetime").value), ...($("fen").value.trim() ? {fen: $("fen").value.trim()} : {})});
});
$("resign").addEventListener("click", () => server.send({type: "resign"}));
$("takeback").addEventListener("click", () => server.send({type: "takeback"}));
$("pass").addEventListener("click", () => server.send({type: "move", turn: "pass"}));

function points(turn) {
  return turn.match(/[a-g][1-7]/g) || [];
}

function position(point) {
  // a point's place on the 7x7 grid, rank 7 at the top
  return [point.charCodeAt(0) - 97, 7 - Number(point[1])];
}

function candidates(prefix) {
  return state.legal.filter((turn) => prefix.every((point, index) => points(turn)[index] === point));
}

function choose(point) {
  let next = [...clicked, point];
  if (!candidates(next).length) next = candidates([point]).length ? [point] : [];
  const whole = candidates(next).find((turn) => points(turn).length === next.length);
  clicked = next;
  if (whole) {
    clicked = [];
    state = {...state, legal: []};      // until the server answers
    server.send({type: "move", turn: whole});
  }
  draw();
}

function svg(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

function draw() {
  const board = $("mill-board");
  board.replaceChildren();
  board.dataset.fen = state.fen;
  for (const line of state.lines) {
    const [[x1, y1], [x2, y2]] = [position(line[0]), position(line[2])];
    board.appendChild(svg("line", {x1, y1, x2, y2, class: "mill-line"}));
  }
  const next = new Set(candidates(clicked).map((turn) => points(turn)[clicked.length]));
  const allPoints = new Set(state.lines.flat());
  for (const point of allPoints) {
    const [cx, cy] = position(point);
    const stone = state.stones[point];
    const classes = ["point", stone || "empty"];
    if (clicked.includes(point)) classes.push("selected");
    if (next.has(point) && state.legal.length) classes.push("offered");
    const circle = svg("circle", {cx, cy, r: stone ? 0.36 : 0.18, class: classes.join(" "), "data-point": point});
    circle.addEventListener("click", () => state.legal.length && choose(point));
    board.appendChild(circle);
  }
}

function showState(message) {
  state = message;
  clicked = [];
  draw();
  moveList($("moves"), message.turns, 1);
  $("hands").textContent = `in hand: White ${message.in_hand.white}, Black ${message.in_hand.black}`;
  const verdict = message.database;
  $("database").textContent = !verdict ? ""
    : verdict.result === "1/2-1/2" ? "The perfect database: a draw with best play."
    : `The perfect database: ${verdict.result === "1-0" ? "White" : "Black"} wins in ${verdict.turns} turn${verdict.turns === 1 ? "" : "s"} with best play.`;
  $("database").dataset.result = verdict ? verdict.result : "";
  $("pass").hidden = !message.legal.includes("pass");
  $("status").textContent = message.result ? `Game over: ${message.result} (${message.reason})`
    : message.thinking ? "Pyrope is thinking..." : "Your turn.";
  $("status").dataset.result = message.result || "";
}

function showThinking(info) {
  $("depth").textContent = `depth ${info.depth}, ${info.nodes.toLocaleString()} nodes`;
  $("score").textContent = info.score.mate !== undefined ? `#${info.score.mate}`
    : `${info.score.stones >= 0 ? "+" : ""}${info.score.stones.toFixed(2)} stones`;
  $("pv").textContent = info.pv.join(" ");
}
