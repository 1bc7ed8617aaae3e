// What Pyrope's pages share: the WebSocket to the server (JSON messages, errors shown), the
// evaluation in words, and saving text as a file.
"use strict";

function connect(path, onMessage) {
  // A socket to the server; its messages go to onMessage, except errors, which are shown.
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "error") showError(message.message);
    else onMessage(message);
  });
  socket.addEventListener("close", () => showError("The connection to the server is closed; reload the page."));
  return {
    send(message) {
      showError("");
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
      else socket.addEventListener("open", () => socket.send(JSON.stringify(message)), {once: true});
    },
  };
}

function showError(text) {
  document.getElementById("error").textContent = text;
}

function scoreText(score) {
  // A score for White, as a person reads it: +0.35, #3, #-2
  if (score.mate !== undefined) return `#${score.mate}`;
  return `${score.cp >= 0 ? "+" : ""}${(score.cp / 100).toFixed(2)}`;
}

function download(text, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], {type: "application/x-chess-pgn"}));
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

function moveList(element, sans, firstPly, mark = () => null) {
  // `sans` as numbered moves into the <ol> `element`; mark(index, item) may decorate each
  element.replaceChildren();
  sans.forEach((san, index) => {
    const ply = firstPly + index;
    const item = document.createElement("li");
    item.className = ply % 2 ? "white-move" : "black-move";
    item.textContent = (ply % 2 ? `${(ply + 1) / 2}. ` : "") + san;
    item.dataset.ply = ply;
    mark(index, item);
    element.appendChild(item);
  });
  element.scrollTop = element.scrollHeight;
}
