// The analysis board: a board to type on, the rack and the scores, the moves the engine finds
// (POST /api/solve, the object `solve --json` prints), the unseen tiles (POST /api/position).
// jobs.js adds the look-ahead (simulation, endgame), game.js a game record to step through,
// out.js the position and the game out (CGP, PNG, SVG, GCG) and the word check.
// No framework and no build step: the page is these files, served by the package.
"use strict";

const POLISH = /^[aąbcćdeęfghijklłmnńoóprsśtuwyzźż]$/i;
const state = {
  variant: null, texts: {}, lang: "pl", board: [], cursor: { r: -1, c: -1, dir: "across" },
  history: [], future: [], moves: [], ghost: [], generation: 0, timer: null, bag: null,
  onTurn: 1, log: [], logFromEmpty: true, edited: [], client: clientId(),
  listGeneration: 0, listPosition: null, listTotal: 0, listCount: 0, listMs: 0,
  lastMove: [], unseen: {},
};

function clientId() {
  // Who this page is, for the server's one-job-a-page bound (not a secret: any page may name itself).
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}

const $ = (id) => document.getElementById(id);
const text = (key, fields = {}) => (state.texts[key] || key).replace(/\{(\w+)\}/g, (_, k) => fields[k] ?? "");

async function api(path, body, method) {
  const response = await fetch(path, {
    method: method || (body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json", "x-literaki-client": state.client, "x-literaki-lang": state.lang },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let answer;
  try { answer = await response.json(); } catch (e) { answer = { error: `HTTP ${response.status}` }; }
  return { status: response.status, answer };
}

// ----------------------------------------------------------------------------- the board

function squareName(r, c) { return state.variant.columns_letters[c] + String(r + 1); }

function buildBoard() {
  const v = state.variant;
  const grid = $("board");
  grid.style.setProperty("--cols", v.columns);  // board.css sizes the squares to fit the width
  grid.innerHTML = "";
  grid.appendChild(cellOf("head", ""));
  for (let c = 0; c < v.columns; c++) grid.appendChild(cellOf("head", v.columns_letters[c]));
  for (let r = 0; r < v.rows; r++) {
    grid.appendChild(cellOf("head", String(r + 1)));
    for (let c = 0; c < v.columns; c++) {
      const square = v.squares[r][c];
      const cell = cellOf("cell", "");
      cell.dataset.square = squareName(r, c);
      cell.dataset.row = r;
      cell.dataset.col = c;
      cell.style.background = square.fill;
      const label = document.createElement("span");
      label.className = r === v.start[0] && c === v.start[1] ? "label start" : "label";  // the star, drawn large
      label.textContent = square.label;
      if (isDark(square.fill)) label.style.color = "#fff";  // readable on the dark squares
      cell.appendChild(label);
      cell.addEventListener("click", () => clickSquare(r, c));
      grid.appendChild(cell);
    }
  }
}

function isDark(colour) {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour || "");
  if (!hex) return false;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 110;
}

function cellOf(kind, content) {
  const div = document.createElement("div");
  div.className = kind === "head" ? "cell head" : "cell";
  div.textContent = content;
  return div;
}

function tileElement(letter, blank, ghost) {
  const tile = document.createElement("div");
  const info = state.variant.tiles[letter.toLowerCase()];
  tile.className = "tile" + (blank ? " blank" : "") + (ghost ? " ghost" : "");
  tile.textContent = blank ? letter.toLowerCase() : letter.toUpperCase();
  if (!blank && info) {
    tile.style.background = info.face;
    const value = document.createElement("sub");
    value.textContent = info.value;
    tile.appendChild(value);
  }
  return tile;
}

function render() {
  const ghosts = new Map();
  for (const t of state.ghost) ghosts.set(`${t.row},${t.col}`, t);
  for (const cell of document.querySelectorAll("#board .cell[data-square]")) {
    const r = Number(cell.dataset.row), c = Number(cell.dataset.col);
    for (const old of cell.querySelectorAll(".tile")) old.remove();
    const here = state.board[r][c];
    const ghost = ghosts.get(`${r},${c}`);
    cell.dataset.letter = here ? (here.blank ? here.letter.toLowerCase() : here.letter.toUpperCase()) : "";
    if (here) cell.appendChild(tileElement(here.letter, here.blank, false));
    else if (ghost) cell.appendChild(tileElement(ghost.letter, ghost.blank, true));
    cell.classList.toggle("last", state.lastMove.some(([lr, lc]) => lr === r && lc === c));
    const cursor = state.cursor.r === r && state.cursor.c === c;
    cell.classList.toggle("cursor", cursor);
    cell.classList.toggle("across", cursor && state.cursor.dir === "across");
    cell.classList.toggle("down", cursor && state.cursor.dir === "down");
  }
  $("on-turn").textContent = text("on_turn", { player: state.onTurn });
  renderRack();
}

function showGhost(tiles) {
  state.ghost = tiles || [];
  render();
}

function placedOf(coord, word, board = state.board) {
  // The tiles a move lays, from its GCG coordinate (8H: across from h8; H8: down) and its word
  // (the whole word, the board's letters included; lower case: a blank): every letter that
  // falls on an empty square.
  const v = state.variant;
  let m = /^(\d+)([a-z])$/i.exec(coord || "");
  let r, c, dr = 0, dc = 0;
  if (m) { r = Number(m[1]) - 1; c = v.columns_letters.indexOf(m[2].toLowerCase()); dc = 1; }
  else if ((m = /^([a-z])(\d+)$/i.exec(coord || ""))) {
    c = v.columns_letters.indexOf(m[1].toLowerCase()); r = Number(m[2]) - 1; dr = 1;
  } else return [];
  const tiles = [];
  for (const ch of [...word]) {
    if (r >= v.rows || c >= v.columns || c < 0) break;
    if (ch !== "." && !board[r][c]) {
      tiles.push({ row: r, col: c, letter: ch, blank: ch !== ch.toUpperCase() });
    }
    r += dr; c += dc;
  }
  return tiles;
}

function clickSquare(r, c) {
  $("typing").focus();
  if (state.cursor.r === r && state.cursor.c === c) {
    state.cursor.dir = state.cursor.dir === "across" ? "down" : "across";
  } else {
    state.cursor = { r, c, dir: state.cursor.dir };
  }
  render();
}

function step(sign) {
  const v = state.variant, cur = state.cursor;
  const r = cur.r + (cur.dir === "down" ? sign : 0), c = cur.c + (cur.dir === "across" ? sign : 0);
  if (r >= 0 && r < v.rows && c >= 0 && c < v.columns) { cur.r = r; cur.c = c; }
}

function placeLetters(typed) {
  // Letters arrive as text in the hidden typing field (any keyboard, layout or input method):
  // an upper-case letter (typed with Shift) is a blank standing for it.
  const letters = [...typed].filter((ch) => POLISH.test(ch));
  if (!letters.length || state.cursor.r < 0) return;
  change(() => {
    state.logFromEmpty = false;  // a tile typed by hand: no longer a game of played moves
    for (const ch of letters) {
      const blank = ch !== ch.toLowerCase() || Boolean(state.blankNext);  // Shift, or the rack's blank tapped
      state.blankNext = false;
      state.board[state.cursor.r][state.cursor.c] = { letter: ch.toLowerCase(), blank };
      step(1);
    }
  });
}

function onKey(event) {
  const cur = state.cursor;
  if (cur.r < 0 || event.metaKey || (event.ctrlKey && !event.altKey)) return;
  if (event.key === "Backspace") {
    change(() => { if (!state.board[cur.r][cur.c]) step(-1); state.board[cur.r][cur.c] = null; state.logFromEmpty = false; });
  } else if (event.key === "Delete") {
    change(() => { state.board[cur.r][cur.c] = null; state.logFromEmpty = false; });
  } else if (event.key.startsWith("Arrow")) {
    const dir = { ArrowRight: ["across", 1], ArrowLeft: ["across", -1], ArrowDown: ["down", 1], ArrowUp: ["down", -1] };
    const [d, sign] = dir[event.key];
    cur.dir = d;
    step(sign);
    render();
  } else {
    return;
  }
  event.preventDefault();
}

// ----------------------------------------------------------------------------- the rack as tiles

function renderRack() {
  // The rack's letters as tiles: a tap lays the letter on the board at the cursor (as typing it
  // does; the blank then stands for the next letter typed), a drag moves the tile along the rack.
  const holder = $("rack-tiles");
  holder.innerHTML = "";
  [...$("rack").value.trim()].forEach((ch, i) => {
    const blank = ch === "?";
    const tile = blank ? document.createElement("div") : tileElement(ch.toLowerCase(), false, false);
    if (blank) { tile.className = "tile blank"; tile.textContent = "?"; }
    tile.classList.add("rack-tile");
    tile.dataset.index = i;
    tile.setAttribute("role", "listitem");
    tile.addEventListener("pointerdown", (event) => rackPointerDown(event, i));
    holder.appendChild(tile);
  });
}

function rackPointerDown(event, from) {
  event.preventDefault();
  const start = { x: event.clientX, y: event.clientY };
  const finish = (up) => {
    document.removeEventListener("pointerup", finish);
    const moved = Math.hypot(up.clientX - start.x, up.clientY - start.y) > 8;
    if (!moved) { tapRackTile(from); return; }
    const over = document.elementsFromPoint(up.clientX, up.clientY).find((el) => el.classList.contains("rack-tile"));
    if (over) moveRackTile(from, Number(over.dataset.index));
  };
  document.addEventListener("pointerup", finish);
}

function moveRackTile(from, to) {
  if (from === to) return;
  const letters = [...$("rack").value.trim()];
  const [tile] = letters.splice(from, 1);
  letters.splice(to, 0, tile);
  state.history.push(snapshot());
  state.future = [];
  $("rack").value = letters.join("");  // the same tiles: only their order, nothing to ask again
  renderRack();
}

function tapRackTile(index) {
  const ch = [...$("rack").value.trim()][index];
  if (!ch || state.cursor.r < 0) return;
  if (ch === "?") { state.blankNext = true; $("typing").focus(); return; }  // the letter it stands for comes next
  placeLetters(ch.toLowerCase());
  $("typing").focus();
}

// ----------------------------------------------------------------------------- edits and history

function snapshot() {
  return JSON.stringify({ board: state.board, rack: $("rack").value, rack2: $("rack2").value, s0: $("score0").value,
                          s1: $("score1").value, onTurn: state.onTurn, log: state.log, logFromEmpty: state.logFromEmpty,
                          lastMove: state.lastMove });
}

function restore(saved) {
  const s = JSON.parse(saved);
  state.board = s.board;
  $("rack").value = s.rack;
  $("rack2").value = s.rack2;
  state.lastMove = s.lastMove;
  $("score0").value = s.s0;
  $("score1").value = s.s1;
  state.onTurn = s.onTurn;
  state.log = s.log;
  state.logFromEmpty = s.logFromEmpty;
}

function forgetPlayed() {
  // An edit: the position is no longer the game's, so no move of the game is marked.
  state.played = null;
  $("review-note").hidden = true;
}

function change(edit) {
  state.history.push(snapshot());
  state.future = [];
  forgetPlayed();
  edit();
  state.ghost = [];
  render();
  schedule();
}

function travel(from, to) {
  // undo: from the history to the future; redo: back
  if (!from.length) return;
  to.push(snapshot());
  restore(from.pop());
  render();
  schedule();
}

const undo = () => travel(state.history, state.future);
const redo = () => travel(state.future, state.history);

// ----------------------------------------------------------------------------- asking the engine

function toCGP() {
  const v = state.variant;
  const rows = state.board.map((row) => {
    let out = "", run = 0;
    for (const cell of row) {
      if (!cell) { run++; continue; }
      if (run) { out += run; run = 0; }
      out += cell.blank ? cell.letter.toLowerCase() : cell.letter.toUpperCase();
    }
    return out + (run ? run : "");
  });
  const rack = `${$("rack").value.trim().toUpperCase()}/${$("rack2").value.trim().toUpperCase()}`;
  const scores = `${Number($("score0").value) || 0}/${Number($("score1").value) || 0}`;
  return `${rows.join("/")} ${rack} ${scores} 0 var ${v.name};`;
}

function schedule() {
  clearTimeout(state.timer);
  for (const listener of state.edited) listener();
  state.timer = setTimeout(update, 120);
}

async function update() {
  const generation = ++state.generation;
  persist();
  try {
    await ask(generation);
  } finally {
    // A hook for tests and scripts: the number of the last edit whose answers are all shown.
    if (generation === state.generation) document.body.dataset.answered = String(generation);
  }
}

async function ask(generation) {
  const position = toCGP();
  const rack = $("rack").value.trim();
  const started = performance.now();
  const shown = await api("/api/position", { position });
  if (generation !== state.generation) return;  // an edit came since: its answer will do
  if (shown.status !== 200) {
    showProblem(shown.answer.error);
    showUnseen(null);  // what the last valid position left unseen is not this one's
    showMoves([]);
    return;
  }
  $("problems").textContent = (shown.answer.warnings || []).join("; ");
  showUnseen(shown.answer);
  $("endgame-start").disabled = state.jobRunning || !endgameAllowed();
  $("peg-start").disabled = state.jobRunning || !pegAllowed();
  if (!rack) { showMoves([]); $("status").textContent = text("no_rack"); return; }
  state.listPosition = position;
  await listMoves(generation, started);
}

// ----------------------------------------------------------------------------- the move list

const PAGE_ROWS = 50;

function moveQuery(offset) {
  // The list's filters and order as /api/moves takes them (docs/serve.md), for rows from `offset`.
  const query = { position: state.listPosition, offset, limit: PAGE_ROWS, sort: $("f-sort").value,
                  fold: $("f-fold").checked, bingos: $("f-bingos").checked };
  const pattern = $("f-pattern").value.trim(), square = $("f-square").value.trim();
  if (pattern) query.pattern = pattern;
  if (square) query.square = square;
  if ($("f-length").value) query.length = Number($("f-length").value);
  if ($("f-tiles").value) query.tiles = Number($("f-tiles").value);
  return query;
}

async function listMoves(generation, started = performance.now()) {
  // The first page of the list for the position shown and the filters set.
  const listed = ++state.listGeneration;
  const solved = await api("/api/moves", moveQuery(0));
  if (generation !== state.generation || listed !== state.listGeneration) return;  // asked again since
  if (solved.status !== 200) { showProblem(solved.answer.error); showMoves([]); return; }
  $("problems").textContent = (solved.answer.warnings || []).join("; ");
  showUnseen(solved.answer);
  state.listTotal = solved.answer.total;
  state.listCount = solved.answer.count;
  showMoves(solved.answer.rows);
  state.listMs = Math.round(performance.now() - started);
  showListStatus();
  await pinPlayed(listed);
}

async function pinPlayed(listed) {
  // In a game's review, the move made here is marked in the list; when it is not among the rows
  // shown it is put on top of them (marked, its rank kept), fetched as its own placement.
  const played = state.played;
  if (!played || document.querySelector("#moves tbody tr.played")) return;
  const group = `${played.coord} ` + [...played.word].map((ch) => (ch !== ch.toUpperCase() ? "?" : ch)).join("");
  const page = await api("/api/moves", { position: state.listPosition, fold: false, group, limit: 200 });
  if (listed !== state.listGeneration || page.status !== 200 || state.played !== played) return;
  const move = page.answer.rows.find((m) => m.word === played.word);
  if (!move) return;
  const tr = moveRow(move);
  tr.classList.add("pinned");
  document.querySelector("#moves tbody").prepend(tr);
}

function showListStatus() {
  $("status").textContent = text("rows_found", { total: state.listTotal, count: state.listCount, ms: state.listMs });
  const more = $("moves-more");
  more.hidden = state.moves.length >= state.listTotal;
  more.textContent = text("more_moves", { shown: state.moves.length, total: state.listTotal });
}

async function moreMoves() {
  // The next page, below the rows shown (asked once at a time; a new list drops it).
  if (state.loadingMore || state.moves.length >= state.listTotal) return;
  state.loadingMore = true;
  const listed = state.listGeneration;
  try {
    const page = await api("/api/moves", moveQuery(state.moves.length));
    if (listed !== state.listGeneration || page.status !== 200) return;
    showMoves(page.answer.rows, true);
    showListStatus();
  } finally {
    state.loadingMore = false;
  }
}

function refilter() {
  // A filter or the order changed: the list again from its first row (the position is the same).
  clearTimeout(state.filterTimer);
  state.filterTimer = setTimeout(async () => {
    if (!state.listPosition || !$("rack").value.trim()) return;
    const generation = state.generation;
    await listMoves(generation);
    document.body.dataset.listed = String(state.listGeneration);
  }, 150);
}

async function toggleVariants(row, move, button) {
  // A folded placement opened: its other letters for the blanks, as rows under it (and closed).
  const shown = [...document.querySelectorAll(`#moves tr.variant[data-group="${CSS.escape(move.group)}"]`)];
  if (shown.length) { shown.forEach((tr) => tr.remove()); button.setAttribute("aria-expanded", "false"); return; }
  const query = { ...moveQuery(0), fold: false, group: move.group, limit: 200 };
  const listed = state.listGeneration;
  const page = await api("/api/moves", query);
  if (listed !== state.listGeneration || page.status !== 200) return;
  let after = row;
  for (const variant of page.answer.rows.slice(1)) {
    const tr = moveRow(variant);
    tr.classList.add("variant");
    after.after(tr);
    after = tr;
  }
  button.setAttribute("aria-expanded", "true");
}

function endgameAllowed() {
  // The endgame search needs an empty bag and the mover's rack.
  return state.bag === 0 && Boolean($("rack").value.trim());
}

function pegAllowed() {
  // The pre-endgame: one or two tiles in the bag, and the mover's rack.
  return (state.bag === 1 || state.bag === 2) && Boolean($("rack").value.trim());
}

function showProblem(message) {
  $("problems").textContent = message || "";
  if (message) $("status").textContent = "";
}

function showUnseen(answer) {
  if (!answer) {
    $("unseen").textContent = text("unseen_unknown");
    $("unseen").dataset.bag = "";
    state.bag = null;
    state.unseen = {};
    return;
  }
  const tiles = Object.entries(answer.unseen).map(([t, n]) => (n > 1 ? `${t}${n}` : t)).join(" ");
  const count = Object.values(answer.unseen).reduce((a, b) => a + b, 0);
  $("unseen").textContent = text("unseen", { count, bag: answer.bag, tiles });
  $("unseen").dataset.bag = answer.bag;
  state.bag = answer.bag;
  state.unseen = answer.unseen;
}

function moveRow(m) {
  const tr = document.createElement("tr");
  tr.dataset.rank = m.rank;
  tr.dataset.group = m.group || "";
  const played = state.played;  // in a game's review: the move the player made here
  if (played && played.coord === m.coord && played.word === m.word) tr.classList.add("played");
  const cells = [m.rank, m.coord, m.display, m.score, m.leave || "-", m.equity.toFixed(1),
                 m.words.map((w) => `${w.word} ${w.score}`).join(", ")];
  cells.forEach((value, k) => {
    const td = document.createElement("td");
    td.textContent = value;
    if (k === 0 || k === 3 || k === 5) td.className = "num";
    if (k === 2 && m.variants > 1) {
      const more = document.createElement("button");
      more.className = "variants";
      more.textContent = text("variants", { n: m.variants - 1 });
      more.title = text("variants_title", { n: m.variants - 1 });
      more.setAttribute("aria-expanded", "false");
      more.addEventListener("click", (event) => { event.stopPropagation(); toggleVariants(tr, m, more); });
      td.append(" ", more);
    }
    tr.appendChild(td);
  });
  const play = document.createElement("td");
  const button = document.createElement("button");
  button.textContent = text("play");
  button.className = "play";
  button.addEventListener("click", (event) => { event.stopPropagation(); playMove(m); });
  play.appendChild(button);
  tr.appendChild(play);
  tr.addEventListener("mouseenter", () => showGhost(m.placed));
  tr.addEventListener("mouseleave", () => showGhost([]));
  tr.addEventListener("click", () => showGhost(m.placed));
  return tr;
}

function showMoves(moves, append = false) {
  // The rows of the list (a page more below the others with `append`).
  state.moves = append ? state.moves.concat(moves) : moves;
  state.ghost = [];
  const body = document.querySelector("#moves tbody");
  if (!append) {
    body.innerHTML = "";
    if (!moves.length) state.listTotal = 0;
    $("moves-more").hidden = true;
  }
  for (const m of moves) body.appendChild(moveRow(m));
  render();
}

function playMove(move) {
  // The move laid and scored for the player to move, who draws (the tiles typed later, or drawn at
  // random from the bag), and the turn passes: the other player's rack and score come up.
  change(() => {
    state.log.push({ player: state.onTurn, rack: $("rack").value.trim().toUpperCase(), move: `${move.coord} ${move.word}` });
    for (const t of move.placed) state.board[t.row][t.col] = { letter: t.letter.toLowerCase(), blank: t.blank };
    const total = (Number($("score0").value) || 0) + move.score;
    let kept = move.leave;
    if ($("draw").value === "random") kept += drawnAtRandom(move.placed.length);
    passTurn(kept, total);
    state.lastMove = move.placed.map((t) => [t.row, t.col]);
  });
}

function drawnAtRandom(count) {
  // `count` tiles (at most the bag's) drawn from the tiles the mover cannot see, less the other
  // player's rack when it is known: the bag as far as the board can tell.
  const pool = [];
  for (const [tile, n] of Object.entries(state.unseen)) for (let k = 0; k < n; k++) pool.push(tile);
  for (const ch of $("rack2").value.trim().toUpperCase()) {
    const at = pool.indexOf(ch);
    if (at >= 0) pool.splice(at, 1);
  }
  let drawn = "";
  for (let k = 0; k < Math.min(count, state.bag ?? count, pool.length); k++) {
    drawn += pool.splice(Math.floor(Math.random() * pool.length), 1)[0];
  }
  return drawn;
}

function passTurn(moverRack, moverTotal) {
  // The other player to move: the scores change places, the racks too (the one to move now is
  // the other rack as known: empty when it is not).
  $("score0").value = $("score1").value;
  $("score1").value = moverTotal;
  $("rack").value = $("rack2").value;
  $("rack2").value = moverRack.toUpperCase();
  state.onTurn = 3 - state.onTurn;
}

function swapSides() {
  change(() => {
    passTurn($("rack").value.trim(), Number($("score0").value) || 0);
    state.lastMove = [];
  });
}

// ----------------------------------------------------------------------------- keeping and sharing

const SAVED_KEY = "literaki.board";

function persist() {
  // The position in the address (a link reopens it exactly) and in the browser's storage (a
  // reload, or the page opened again without a link, starts from it).
  const saved = { cgp: toCGP(), turn: state.onTurn };
  const params = new URLSearchParams({ cgp: saved.cgp, turn: String(saved.turn) });
  const gameTurn = state.gameTurn && state.gameTurn();  // a game open: the turn it stands at, too
  if (gameTurn) { params.set("game", String(gameTurn)); saved.game = gameTurn; }
  if (location.hash !== `#${params}`) history.replaceState(null, "", `#${params}`);
  try { localStorage.setItem(SAVED_KEY, JSON.stringify(saved)); } catch (e) { /* storage off: the link still works */ }
}

function savedPosition(setup) {
  // What the page reopens: the link's position, else (when `literaki serve` was given none) the
  // last one shown in this browser.
  const params = new URLSearchParams(location.hash.slice(1));
  const gameTurn = (n) => (Number.isInteger(n) && n > 0 ? n : null);
  if (params.get("cgp")) {
    return { cgp: params.get("cgp"), turn: Number(params.get("turn")) === 2 ? 2 : 1,
             game: gameTurn(Number(params.get("game"))) };
  }
  if (setup.position || setup.game) return null;
  try {
    const saved = JSON.parse(localStorage.getItem(SAVED_KEY) || "null");
    if (saved && typeof saved.cgp === "string") {
      return { cgp: saved.cgp, turn: saved.turn === 2 ? 2 : 1, game: gameTurn(saved.game) };
    }
  } catch (e) { /* nothing saved, or storage off */ }
  return null;
}

async function readPosition(source) {
  // A position given as text (CGP, a board as text, JSON), read by the server as `show` reads
  // it; null (and the reason shown) for a bad one or one of another game.
  const shown = await api("/api/position", { position: source });
  if (shown.status !== 200) { showProblem(shown.answer.error); return null; }
  const variant = shown.answer.position.variant;
  if (variant !== state.variant.name) {
    showProblem(text("other_variant", { variant, board: state.variant.name }));
    return null;
  }
  return shown.answer.position;
}

async function openPosition(source, onTurn = 1) {
  // The position read onto the board as one edit (Undo takes it back); a bad one leaves the
  // board as it is.
  const position = await readPosition(source);
  if (position) change(() => loadPosition(position, onTurn));
  return Boolean(position);
}

function looksLikeGame(pasted) {
  return /^\s*#(player|character-encoding|variant|lexicon|title|description|id)\b/im.test(pasted)
    || /^\s*>[^:\n]+:/m.test(pasted);
}

async function openPasted(pasted) {
  pasted = (pasted || "").trim();
  if (!pasted) return;
  if (looksLikeGame(pasted) && state.openGameText) {
    if (await state.openGameText(pasted, "wklejona.gcg")) $("status").textContent = text("pasted_game");
    return;
  }
  if (await openPosition(pasted)) $("paste").value = "";
}

function onPaste(event) {
  // Ctrl+V anywhere but a field: the pasted text opens as a position or a game.
  const target = event.target;
  if (target !== $("typing") && ["INPUT", "TEXTAREA"].includes(target.tagName)) return;
  const pasted = event.clipboardData && event.clipboardData.getData("text/plain");
  if (!pasted || !pasted.trim()) return;
  event.preventDefault();
  openPasted(pasted);
}

async function share() {
  persist();
  let copied = false;
  try {
    await navigator.clipboard.writeText(location.href);
    copied = true;
  } catch (e) { /* no clipboard here (an insecure origin, a refused permission) */ }
  $("out-status").textContent = text(copied ? "link_copied" : "link_by_hand");
  $("out-status").dataset.link = location.href;
}

function historyKeys(event) {
  // Ctrl+Z / Ctrl+Y (and Ctrl+Shift+Z) take the board's edits back and forth; inside a text field
  // they stay the field's own.
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
  const target = event.target;
  if (target !== $("typing") && ["INPUT", "TEXTAREA"].includes(target.tagName)) return;
  const key = event.key.toLowerCase();
  if (key === "z" && !event.shiftKey) undo();
  else if (key === "y" || (key === "z" && event.shiftKey)) redo();
  else return;
  event.preventDefault();
}

// ----------------------------------------------------------------------------- start

function loadPosition(position, onTurn = 1) {
  const v = state.variant;
  state.board = Array.from({ length: v.rows }, () => Array(v.columns).fill(null));
  state.log = [];
  state.onTurn = onTurn;
  state.lastMove = [];
  state.logFromEmpty = !position || position.board.every((row) => /^\.*$/.test(row));
  if (!position) {
    $("rack").value = "";
    $("rack2").value = "";
    $("score0").value = 0;
    $("score1").value = 0;
    return;
  }
  position.board.forEach((row, r) => [...row].forEach((ch, c) => {
    if (ch !== ".") state.board[r][c] = { letter: ch.toLowerCase(), blank: ch !== ch.toUpperCase() };
  }));
  $("rack").value = (position.racks[0] || "").toUpperCase();
  $("rack2").value = (position.racks[1] || "").toUpperCase();
  $("score0").value = position.scores[0] || 0;
  $("score1").value = position.scores[1] || 0;
}

function applyTexts() {
  document.documentElement.lang = state.lang;
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = text(el.dataset.text);
  for (const el of document.querySelectorAll("[data-label]")) el.setAttribute("aria-label", text(el.dataset.label));
  $("paste").placeholder = text("paste_hint");
  $("lang").textContent = state.lang === "pl" ? "English" : "Polski";
  for (const redraw of state.retexts || []) redraw();
  if (state.variant) render();
}

async function setLanguage(lang) {
  state.lang = lang;
  state.texts = (await api(`/api/texts/${lang}`)).answer;
  applyTexts();
}

async function start() {
  const setup = (await api("/api/setup")).answer;
  state.variant = setup.variant;
  await setLanguage(setup.lang);
  buildBoard();
  loadPosition(setup.position);
  const saved = savedPosition(setup);
  state.saved = saved;  // a game open then is opened again at its turn (game.js), then this position
  const reopened = saved && await readPosition(saved.cgp);
  if (reopened) loadPosition(reopened, saved.turn);
  render();
  const typing = $("typing");
  typing.addEventListener("keydown", onKey);
  typing.addEventListener("input", () => { placeLetters(typing.value); typing.value = ""; });
  for (const id of ["rack", "rack2", "score0", "score1"]) {
    $(id).addEventListener("input", () => { state.history.push(snapshot()); state.future = []; forgetPlayed(); schedule(); });
  }
  $("rack").addEventListener("input", renderRack);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("swap").addEventListener("click", swapSides);
  $("clear").addEventListener("click", () => change(() => loadPosition(null)));
  $("lang").addEventListener("click", () => setLanguage(state.lang === "pl" ? "en" : "pl"));
  $("paste-open").addEventListener("click", () => openPasted($("paste").value));
  const v = state.variant;
  for (let n = 2; n <= Math.max(v.rows, v.columns); n++) $("f-length").append(new Option(String(n), String(n)));
  for (let n = 1; n <= v.rack_size; n++) $("f-tiles").append(new Option(String(n), String(n)));
  for (const id of ["f-pattern", "f-square"]) $(id).addEventListener("input", refilter);
  for (const id of ["f-length", "f-tiles", "f-bingos", "f-sort", "f-fold"]) $(id).addEventListener("change", refilter);
  $("moves-more").addEventListener("click", moreMoves);
  if (window.IntersectionObserver) {  // the next page comes as the list is scrolled to its end
    new IntersectionObserver((seen) => { if (seen.some((e) => e.isIntersecting)) moreMoves(); })
      .observe($("moves-more"));
  }
  $("share").addEventListener("click", share);
  document.addEventListener("paste", onPaste);
  document.addEventListener("keydown", historyKeys);
  for (const setUp of state.starters || []) await setUp(setup);
  document.body.dataset.ready = "true";
  schedule();
}

document.addEventListener("DOMContentLoaded", start);
