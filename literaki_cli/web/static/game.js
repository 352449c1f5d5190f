// A game on the board: a GCG record opened (file picker, drag and drop, or the file given to
// `literaki serve`), stepped through turn by turn (the arrow keys, Home and End; each turn's
// position is what `show GAME --turn N --json` gives, and it lands on the board to analyse),
// each turn beside the best move and the equity lost as `analyze --json` gives them (a review
// job), and a chart of the game: the spread after each turn, the equity each player lost.
"use strict";

const game = { gcg: null, name: "", turns: 0, turn: 0, review: null, reviewJob: null, timer: null };
const GAME_KEY = "literaki.game";

async function openGameBytes(bytes, name) {
  const response = await fetch(`/api/game?name=${encodeURIComponent(name)}`, {
    method: "POST", body: bytes, headers: { "content-type": "application/octet-stream", "x-literaki-client": state.client,
               "x-literaki-lang": state.lang },
  });
  const answer = await response.json();
  if (response.status !== 200) { $("problems").textContent = answer.error; return false; }
  game.gcg = answer.gcg;
  game.name = answer.name;
  try {  // for a reload (a link names the turn only: the record stays in this browser)
    localStorage.setItem(GAME_KEY, JSON.stringify({ gcg: answer.gcg, name: answer.name }));
  } catch (e) { /* storage off or full: a reload opens the position alone */ }
  game.turns = answer.game.turns;
  game.review = null;
  $("game-name").textContent = `${answer.name}: ${answer.players.join(" — ")}`;
  $("game-steps").hidden = false;
  $("turns").hidden = true;
  $("chart").setAttribute("hidden", "");  // an SVG element has no `hidden` property: the attribute
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
  showPlayed();
  state.ghost = [];
  render();
  const played = g.played ? `: ${g.player} ${g.played}` : "";
  $("turn-now").textContent = g.over ? text("game_end", { turns: game.turns })
    : text("turn_of", { turn, turns: game.turns }) + played;
  $("turn-now").dataset.turn = turn;
  markTurn();
  schedule();
}

function showPlayed() {
  // In a reviewed game: the move made at this turn, marked in the move list, with what it lost
  // against the best move (as `analyze` says).
  const review = game.review && game.review.turns.find((t) => t.turn === game.turn);
  const note = $("review-note");
  state.played = review && review.played && review.played.coord ? review.played : null;
  if (!review) { note.hidden = true; return; }
  const played = review.played ? `${review.played.coord || ""} ${review.played.display || review.played.word} ${review.played.score}`.trim()
    : review.kind;
  const best = review.best ? `${review.best.coord || ""} ${review.best.display || review.best.word} ${review.best.score}`.trim() : "-";
  const lost = review.analysable && review.equity_loss !== null ? review.equity_loss.toFixed(1) : "-";
  note.textContent = text("played_here", { played, lost, best });
  note.dataset.lost = lost;
  note.hidden = false;
  for (const tr of document.querySelectorAll("#moves tbody tr")) tr.classList.remove("played");
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
    tr.title = text(`method_${t.method}`) + (t.note ? `: ${t.note}` : "");  // how the turn was valued, and why
    tr.addEventListener("click", () => goTurn(t.turn));
    body.appendChild(tr);
  }
  $("turns").hidden = false;
  drawChart();
  markTurn();
  showPlayed();
  schedule();  // the move list again, the played move marked
}

function drawChart() {
  // The spread (the first seat's view) after each turn as a line, the equity each player lost as
  // bars below the axis (a player's colour each), with the spread's scale on the left, the turns
  // along the bottom and a legend; a dot or a bar steps to its turn.
  const svg = $("chart");
  const turns = game.review.turns;
  const width = 560, height = 190, left = 40, right = 10, top = 24, bottom = 22;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.innerHTML = "";
  svg.removeAttribute("hidden");  // shown first, so that its texts can be measured (`svg.hidden = false` does nothing on SVG)
  const spreads = turns.map((t) => t.scores[0] - t.scores[1]);
  const most = niceCeiling(Math.max(10, ...spreads.map(Math.abs)));
  const lostMost = Math.max(10, ...turns.map((t) => t.equity_loss || 0));
  const plotBottom = height - bottom;
  const x = (i) => left + (i + 0.5) * (width - left - right) / turns.length;
  const mid = top + (plotBottom - top) * 0.5;
  const y = (s) => mid - s / most * (mid - top);
  const ns = "http://www.w3.org/2000/svg";
  const add = (tag, attrs, content) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (content !== undefined) el.textContent = content;
    svg.appendChild(el);
    return el;
  };
  // the spread's scale: -most, 0, +most, with faint grid lines
  for (const s of [most, most / 2, 0, -most / 2, -most]) {
    add("line", { x1: left, x2: width - right, y1: y(s), y2: y(s), class: s === 0 ? "axis" : "grid" });
    add("text", { x: left - 4, y: y(s) + 3, class: "tick y" }, `${s > 0 ? "+" : ""}${s}`);
  }
  add("line", { x1: left, x2: left, y1: top, y2: plotBottom, class: "axis" });
  const every = Math.max(1, Math.ceil(turns.length / 12));
  turns.forEach((t, i) => {
    if (i % every === 0 || i === turns.length - 1) add("text", { x: x(i), y: height - 6, class: "tick x" }, t.turn);
  });
  turns.forEach((t, i) => {
    if (!t.equity_loss) return;
    const h = t.equity_loss / lostMost * (plotBottom - mid - 2);
    const bar = add("rect", { x: x(i) - 3, y: mid, width: 6, height: h, class: `lost seat${t.seat}`, "data-turn": t.turn });
    const title = document.createElementNS(ns, "title");
    title.textContent = `${t.turn}: −${t.equity_loss.toFixed(1)}`;
    bar.appendChild(title);
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
  // the legend, along the top
  const legend = [["spread", text("chart_spread")], ["lost seat1", text("chart_lost", { player: 1 })],
                  ["lost seat2", text("chart_lost", { player: 2 })]];
  let at = left;
  for (const [kind, label] of legend) {
    if (kind === "spread") add("line", { x1: at, x2: at + 14, y1: 10, y2: 10, class: "spread" });
    else add("rect", { x: at + 3, y: 4, width: 8, height: 10, class: kind });
    const written = add("text", { x: at + 18, y: 14, class: "legend" }, label);
    at += 30 + (written.getComputedTextLength() || label.length * 6);
  }
}

function niceCeiling(value) {
  // The scale's end: 10, 20, 25, 50 x a power of ten, at least `value`.
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
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
  state.openGameText = async (gcg, name) => {
    const ok = await openGameBytes(new TextEncoder().encode(gcg), name);
    if (ok) await goTurn(1);
    return ok;
  };
  state.retexts = state.retexts || [];
  state.retexts.push(() => { if (game.review) drawChart(); });
  window.addEventListener("pagehide", () => {
    if (game.reviewJob) navigator.sendBeacon(`/api/jobs/${game.reviewJob}/cancel`);
  });
  state.gameTurn = () => (game.gcg ? game.turn : null);
  await reopenGame(setup, state.saved);
});

function storedGame() {
  try {
    const stored = JSON.parse(localStorage.getItem(GAME_KEY) || "null");
    return stored && typeof stored.gcg === "string" ? stored : null;
  } catch (e) { return null; }
}

async function reopenGame(setup, saved) {
  // The game the page showed before a reload (or a link of this browser), at its turn, and on
  // the board the position it showed (the turn's, or one edited from it); else the game given
  // to `literaki serve`, at the turn given.
  const record = setup.game || (saved && saved.game ? storedGame() : null);
  if (!record) return;
  const turn = (saved && saved.game) || setup.game.turn || 1;
  if (!await openGameBytes(new TextEncoder().encode(record.gcg), record.name)) return;
  await goTurn(turn);
  if (saved && saved.game && saved.cgp !== toCGP()) await openPosition(saved.cgp, saved.turn);
}
