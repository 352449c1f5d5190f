// A game on the board: a GCG record opened (file picker, drag and drop, or the file given to
// `literaki serve`), stepped through turn by turn (the arrow keys, Home and End; each turn's
// position is what `show GAME --turn N --json` gives, and it lands on the board to analyse),
// each turn beside the best move and the equity lost as `analyze --json` gives them (a review
// job), and a chart of the game: the spread after each turn, the equity each player lost.
"use strict";

const game = { gcg: null, name: "", turns: 0, turn: 0, review: null, reviewJob: null, timer: null };

async function openGameBytes(bytes, name) {
  const response = await fetch(`/api/game?name=${encodeURIComponent(name)}`, {
    method: "POST", body: bytes, headers: { "content-type": "application/octet-stream", "x-literaki-client": state.client },
  });
  const answer = await response.json();
  if (response.status !== 200) { $("problems").textContent = answer.error; return false; }
  game.gcg = answer.gcg;
  game.name = answer.name;
  game.turns = answer.game.turns;
  game.review = null;
  $("game-name").textContent = `${answer.name}: ${answer.players.join(" — ")}`;
  $("game-steps").hidden = false;
  $("turns").hidden = true;
  $("chart").hidden = true;
  startReview();
  return true;
}

async function goTurn(turn) {
  // The position before `turn` (turns + 1: the end) on the board.
  if (!game.gcg) return;
  turn = Math.max(1, Math.min(turn, game.turns + 1));
  game.turn = turn;  // at once: the next key press steps on from here
  const shown = await api("/api/position", { position: game.gcg, turn });
  if (game.turn !== turn) return;  // stepped on since: that turn's answer will do
  if (shown.status !== 200) { $("problems").textContent = shown.answer.error; return; }
  const g = shown.answer.game;
  state.history.push(snapshot());
  state.future = [];
  loadPosition(shown.answer.position, g.seat);
  state.ghost = [];
  render();
  const played = g.played ? `: ${g.player} ${g.played}` : "";
  $("turn-now").textContent = g.over ? text("game_end", { turns: game.turns })
    : text("turn_of", { turn, turns: game.turns }) + played;
  $("turn-now").dataset.turn = turn;
  markTurn();
  schedule();
}

function markTurn() {
  for (const tr of document.querySelectorAll("#turns tbody tr")) {
    const now = Number(tr.dataset.turn) === game.turn;
    tr.classList.toggle("now", now);
    if (now) tr.scrollIntoView({ block: "nearest" });
  }
  for (const dot of document.querySelectorAll("#chart [data-turn]")) {
    dot.classList.toggle("now", Number(dot.dataset.turn) === game.turn);
  }
}

// ----------------------------------------------------------------------------- the review

async function startReview() {
  $("review-status").textContent = text("reviewing");
  const started = await api("/api/jobs", { kind: "analyze", game: game.gcg });
  if (started.status !== 202) { $("review-status").textContent = started.answer.error; return; }
  game.reviewJob = started.answer.id;
  game.timer = setTimeout(pollReview, POLL_MS);
}

async function pollReview() {
  if (!game.reviewJob) return;
  const seen = await api(`/api/jobs/${game.reviewJob}`);
  if (seen.status !== 200) { $("review-status").textContent = seen.answer.error; game.reviewJob = null; return; }
  const view = seen.answer;
  if (view.state === "starting" || view.state === "running") {
    $("review-status").textContent = text("reviewing_turns", { done: view.done, total: view.total });
    game.timer = setTimeout(pollReview, POLL_MS);
    return;
  }
  game.reviewJob = null;
  if (view.state !== "done") { $("review-status").textContent = view.error || text("job_cancelled"); return; }
  game.review = view.answer;
  $("review-status").textContent = text("reviewed");
  showReview();
}

function showReview() {
  const body = document.querySelector("#turns tbody");
  body.innerHTML = "";
  for (const t of game.review.turns) {
    const tr = document.createElement("tr");
    tr.dataset.turn = t.turn;
    const played = t.played ? `${t.played.coord || ""} ${t.played.word} ${t.played.score}`.trim() : t.kind;
    const best = t.best ? `${t.best.coord || ""} ${t.best.word} ${t.best.score}`.trim() : "-";
    const lost = t.analysable && t.equity_loss !== null ? t.equity_loss.toFixed(1) : "-";
    [t.turn, t.player, played, t.total, best, lost].forEach((value, k) => {
      const td = document.createElement("td");
      td.textContent = value;
      if (k === 0 || k === 3 || k === 5) td.className = "num";
      tr.appendChild(td);
    });
    if (t.analysable && t.equity_loss >= 15) tr.classList.add("big-loss");
    tr.title = t.method + (t.note ? `: ${t.note}` : "");
    tr.addEventListener("click", () => goTurn(t.turn));
    body.appendChild(tr);
  }
  $("turns").hidden = false;
  drawChart();
  markTurn();
}

function drawChart() {
  // The spread (the first seat's view) after each turn as a line, the equity lost as bars below
  // the axis (a player's colour each); a dot or bar steps to its turn.
  const svg = $("chart");
  const turns = game.review.turns;
  const width = 560, height = 150, pad = 20;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.innerHTML = "";
  const spreads = turns.map((t) => t.scores[0] - t.scores[1]);
  const most = Math.max(10, ...spreads.map(Math.abs));
  const lostMost = Math.max(10, ...turns.map((t) => t.equity_loss || 0));
  const x = (i) => pad + (i + 0.5) * (width - 2 * pad) / turns.length;
  const mid = height * 0.45;
  const y = (s) => mid - s / most * (mid - 8);
  const ns = "http://www.w3.org/2000/svg";
  const add = (tag, attrs) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    svg.appendChild(el);
    return el;
  };
  add("line", { x1: pad, x2: width - pad, y1: mid, y2: mid, class: "axis" });
  turns.forEach((t, i) => {
    if (!t.equity_loss) return;
    const h = t.equity_loss / lostMost * (height - mid - 6);
    const bar = add("rect", { x: x(i) - 3, y: mid, width: 6, height: h, class: `lost seat${t.seat}`, "data-turn": t.turn });
    bar.addEventListener("click", () => goTurn(t.turn));
  });
  add("polyline", { points: spreads.map((s, i) => `${x(i)},${y(s)}`).join(" "), class: "spread" });
  turns.forEach((t, i) => {
    const dot = add("circle", { cx: x(i), cy: y(spreads[i]), r: 3.5, class: "dot", "data-turn": t.turn });
    const title = document.createElementNS(ns, "title");
    title.textContent = `${t.turn}: ${spreads[i] > 0 ? "+" : ""}${spreads[i]}`;
    dot.appendChild(title);
    dot.addEventListener("click", () => goTurn(t.turn));
  });
  svg.hidden = false;
}

// ----------------------------------------------------------------------------- opening files

function openFile(file) {
  if (!file) return;
  file.arrayBuffer().then((bytes) => openGameBytes(bytes, file.name)).then((ok) => { if (ok) goTurn(1); });
}

function stepKeys(event) {
  if (!game.gcg || event.target === $("typing") || ["INPUT", "TEXTAREA"].includes(event.target.tagName)) return;
  const to = { ArrowLeft: game.turn - 1, ArrowRight: game.turn + 1, Home: 1, End: game.turns + 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  goTurn(to);
}

state.starters = state.starters || [];
state.starters.push(async (setup) => {
  $("game-file").addEventListener("change", (event) => openFile(event.target.files[0]));
  document.addEventListener("dragover", (event) => event.preventDefault());
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    openFile(event.dataTransfer.files[0]);
  });
  document.addEventListener("keydown", stepKeys);
  $("turn-first").addEventListener("click", () => goTurn(1));
  $("turn-prev").addEventListener("click", () => goTurn(game.turn - 1));
  $("turn-next").addEventListener("click", () => goTurn(game.turn + 1));
  $("turn-last").addEventListener("click", () => goTurn(game.turns + 1));
  window.addEventListener("pagehide", () => {
    if (game.reviewJob) navigator.sendBeacon(`/api/jobs/${game.reviewJob}/cancel`);
  });
  if (setup.game) {
    const bytes = new TextEncoder().encode(setup.game.gcg);
    if (await openGameBytes(bytes, setup.game.name)) await goTurn(setup.game.turn || 1);
  }
});
