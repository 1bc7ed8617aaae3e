// The chessboard of Pyrope's pages: an SVG of 64 squares with Unicode pieces, drawn from a FEN.
// A person moves by clicking a piece and then its square, or by dragging it, among the legal moves
// the server sent; a pawn reaching the last rank asks which piece. The board knows no rules: what
// is legal is the server's list (UCI moves, Chess960 castling as king-takes-rook).
"use strict";

const FILES = "abcdefgh";
const GLYPHS = {k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F"};
const SVG = "http://www.w3.org/2000/svg";
const SIZE = 60;        // a square's side in SVG units

function placement(fen) {
  // square name -> FEN letter, from the FEN's first field
  const pieces = {};
  fen.split(" ")[0].split("/").forEach((row, rank) => {
    let file = 0;
    for (const letter of row) {
      if (/\d/.test(letter)) { file += Number(letter); continue; }
      pieces[FILES[file] + (8 - rank)] = letter;
      file += 1;
    }
  });
  return pieces;
}

function svgElement(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

class ChessBoard {
  // element: where the board goes; onMove(uci) is called with a legal move the person made
  // (null: a board to look at only).
  constructor(element, onMove = null) {
    this.element = element;
    this.onMove = onMove;
    this.whiteAtBottom = true;
    this.state = {fen: "8/8/8/8/8/8/8/8 w - - 0 1", legal: [], last: null, check: null};
    this.selected = null;
    this.dragging = null;       // {ghost} while a piece is dragged
    this.svg = svgElement("svg", {viewBox: `0 0 ${8 * SIZE} ${8 * SIZE}`, class: "board"});
    element.appendChild(this.svg);
    this.svg.addEventListener("pointerdown", (event) => this.pointerDown(event));
    this.svg.addEventListener("pointermove", (event) => this.pointerMove(event));
    this.svg.addEventListener("pointerup", (event) => this.pointerUp(event));
  }

  show({fen, legal = [], last = null, check = null}) {
    this.state = {fen, legal, last, check};
    this.selected = null;
    this.closePromotion();
    this.draw();
  }

  flip() {
    this.whiteAtBottom = !this.whiteAtBottom;
    this.draw();
  }

  targets(from) {
    return this.state.legal.filter((move) => move.startsWith(from)).map((move) => move.slice(2, 4));
  }

  corner(square) {
    // the top-left corner of `square` in SVG units
    const file = FILES.indexOf(square[0]), rank = Number(square[1]) - 1;
    return this.whiteAtBottom ? [file * SIZE, (7 - rank) * SIZE] : [(7 - file) * SIZE, rank * SIZE];
  }

  squareAt(event) {
    const box = this.svg.getBoundingClientRect();
    const column = Math.floor((event.clientX - box.left) / box.width * 8);
    const row = Math.floor((event.clientY - box.top) / box.height * 8);
    if (column < 0 || column > 7 || row < 0 || row > 7) return null;
    return this.whiteAtBottom ? FILES[column] + (8 - row) : FILES[7 - column] + (row + 1);
  }

  draw() {
    this.svg.replaceChildren();
    this.svg.dataset.fen = this.state.fen;
    this.svg.dataset.legal = this.state.legal.join(" ");     // the moves offered, for scripts reading the page
    const pieces = placement(this.state.fen);
    const marked = new Set([this.state.last?.slice(0, 2), this.state.last?.slice(2, 4)]);
    const targets = this.selected ? this.targets(this.selected) : [];
    for (let file = 0; file < 8; file += 1) {
      for (let rank = 1; rank <= 8; rank += 1) {
        const square = FILES[file] + rank;
        const [x, y] = this.corner(square);
        const classes = ["square", (file + rank) % 2 ? "light" : "dark"];
        if (marked.has(square)) classes.push("last");
        if (square === this.selected) classes.push("selected");
        if (square === this.state.check) classes.push("check");
        this.svg.appendChild(svgElement("rect", {x, y, width: SIZE, height: SIZE, class: classes.join(" "),
                                                 "data-square": square}));
        if (targets.includes(square)) {
          this.svg.appendChild(svgElement("circle", {cx: x + SIZE / 2, cy: y + SIZE / 2, r: pieces[square] ? 27 : 9,
                                                     class: pieces[square] ? "target capture" : "target"}));
        }
        if (pieces[square]) this.svg.appendChild(this.glyph(pieces[square], x + SIZE / 2, y + SIZE / 2, square));
      }
    }
    for (let index = 0; index < 8; index += 1) {
      const [fileX, bottomY] = this.corner(FILES[index] + (this.whiteAtBottom ? 1 : 8));
      this.svg.appendChild(svgElement("text", {x: fileX + SIZE - 3, y: bottomY + SIZE - 3, class: "coordinate",
                                               "text-anchor": "end"}, FILES[index]));
      const [leftX, rankY] = this.corner((this.whiteAtBottom ? "a" : "h") + (index + 1));
      this.svg.appendChild(svgElement("text", {x: leftX + 3, y: rankY + 13, class: "coordinate"}, String(index + 1)));
    }
  }

  glyph(letter, x, y, square) {
    const white = letter === letter.toUpperCase();
    return svgElement("text", {x, y, class: `piece ${white ? "white" : "black"}`, "data-piece": letter,
                               "data-on": square}, GLYPHS[letter.toLowerCase()]);
  }

  pointerDown(event) {
    const square = this.squareAt(event);
    if (!this.onMove || !square || this.promotion) return;
    if (this.selected && this.targets(this.selected).includes(square)) {
      this.tryMove(this.selected, square);
      return;
    }
    this.selected = this.targets(square).length ? square : null;
    this.draw();
    if (this.selected) {
      const piece = this.svg.querySelector(`[data-on="${square}"]`);
      piece.classList.add("dragged");
      this.dragging = {piece};
      this.svg.setPointerCapture(event.pointerId);
    }
  }

  pointerMove(event) {
    if (!this.dragging) return;
    const box = this.svg.getBoundingClientRect();
    this.dragging.piece.setAttribute("x", (event.clientX - box.left) / box.width * 8 * SIZE);
    this.dragging.piece.setAttribute("y", (event.clientY - box.top) / box.height * 8 * SIZE);
  }

  pointerUp(event) {
    if (!this.dragging) return;
    this.dragging = null;
    const square = this.squareAt(event);
    if (square && square !== this.selected && this.targets(this.selected).includes(square)) {
      this.tryMove(this.selected, square);
    } else {
      this.draw();      // back to its square, still selected: a click
    }
  }

  tryMove(from, to) {
    const moves = this.state.legal.filter((move) => move.startsWith(from + to));
    if (moves.length === 1) {
      this.send(moves[0]);
      return;
    }
    // Several moves between the same squares: a promotion; the person picks the piece.
    this.promotion = document.createElement("div");
    this.promotion.className = "promotion";
    const white = placement(this.state.fen)[from] === "P";
    for (const move of moves) {
      const letter = move[4];
      const button = document.createElement("button");
      button.dataset.promotion = letter;
      button.textContent = GLYPHS[letter];
      button.className = white ? "white" : "black";
      button.title = {q: "queen", r: "rook", b: "bishop", n: "knight"}[letter];
      button.addEventListener("click", () => this.send(move));
      this.promotion.appendChild(button);
    }
    this.element.appendChild(this.promotion);
  }

  closePromotion() {
    if (this.promotion) this.promotion.remove();
    this.promotion = null;
  }

  send(move) {
    this.closePromotion();
    this.selected = null;
    this.state = {...this.state, legal: []};    // until the server answers
    this.draw();
    this.onMove(move);
  }
}
