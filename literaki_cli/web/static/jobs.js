// Look-ahead on demand: a simulation of the best moves, the exact endgame once the bag is empty.
// Each runs on the server as a job (POST /api/jobs), followed a few times a second (GET
// /api/jobs/ID: the answer so far, which is what `solve --sim --json` / `solve --endgame --json`
// print) and cancelable (POST /api/jobs/ID/cancel; also when the page is closed).
"use strict";

const job = { id: null, kind: null, timer: null, pv: [], pvStep: 0, pvBoard: null };
const POLL_MS = 300;

async function startJob(kind) {
  if (job.id) return;
  const body = { kind, position: toCGP() };
  if (kind === "sim") body.iterations = Number($("sim-iterations").value) || 1000;
  const started = await api("/api/jobs", body);
  if (started.status !== 202) {
    $("job-status").textContent = started.answer.error || `HTTP ${started.status}`;
    return;
  }
  job.id = started.answer.id;
  job.kind = kind;
  state.jobRunning = true;
  $("sim").hidden = kind !== "sim";
  $("peg").hidden = kind !== "peg";
  $("peg-summary").hidden = true;
  $("endgame").hidden = true;
  document.querySelector("#sim tbody").innerHTML = "";
  document.querySelector("#peg tbody").innerHTML = "";
  setJobButtons(true);
  showJob(started.answer);
  job.timer = setTimeout(pollJob, POLL_MS);
}

async function pollJob() {
  if (!job.id) return;
  const seen = await api(`/api/jobs/${job.id}`);
  if (!job.id) return;
  if (seen.status !== 200) { endJob(seen.answer.error); return; }
  showJob(seen.answer);
  if (seen.answer.state === "starting" || seen.answer.state === "running") {
    job.timer = setTimeout(pollJob, POLL_MS);
  } else {
    endJob(null);
  }
}

function showJob(view) {
  const bar = $("job-progress");
  bar.hidden = false;
  if (view.total) { bar.max = view.total; bar.value = view.done; } else { bar.removeAttribute("value"); }
  const how = { cancelled: text("job_cancelled"), "time cap": text("job_time_cap"), "page gone": text("job_cancelled") };
  const counted = view.total ? "" : "_plain";  // an endgame counts no iterations
  let line = text(`job_${view.state}${view.state === "running" || view.state === "done" ? counted : ""}`,
                  { done: view.done, total: view.total, seconds: view.seconds.toFixed(1) });
  const why = how[view.stopped_by];
  if (why && view.state !== "running" && !line.startsWith(why)) line += ` (${why})`;  // never "Cancelled (Cancelled)"
  if (view.error) line = view.error;
  $("job-status").textContent = line;
  $("job-status").dataset.state = view.state;
  if (view.answer && view.answer.sim) showSim(view.answer.sim);
  if (view.answer && view.answer.endgame) showEndgame(view.answer.endgame);
  if (view.answer && view.answer.peg) showPeg(view.answer.peg);
  if (view.state !== "starting" && view.state !== "running") { bar.max = 1; bar.value = 1; }
}

function endJob(message) {
  clearTimeout(job.timer);
  job.id = null;
  state.jobRunning = false;
  setJobButtons(false);
  if (message) $("job-status").textContent = message;
}

function setJobButtons(running) {
  $("sim-start").disabled = running;
  $("endgame-start").disabled = running || !endgameAllowed();
  $("peg-start").disabled = running || !pegAllowed();
  $("job-cancel").disabled = !running;
}

async function cancelJob() {
  if (!job.id) return;
  const asked = await api(`/api/jobs/${job.id}/cancel`, {});
  if (asked.status === 200) showJob(asked.answer);
}

function fillRow(tr, cells, numeric) {
  // A table row of `cells`, those whose index `numeric` accepts right-aligned.
  cells.forEach((value, k) => {
    const td = document.createElement("td");
    td.textContent = value;
    if (numeric(k)) td.className = "num";
    tr.appendChild(td);
  });
}

function pct(x) { return x === null || x === undefined ? "-" : x.toFixed(1); }

function candidateRows(selector, candidates, rank, cellsOf, numeric) {
  // A look-ahead table's rows (the simulation's, the pre-endgame's): one per candidate, best
  // first, numbered in data-`rank`, shown on the board while hovered.
  const body = document.querySelector(`${selector} tbody`);
  body.innerHTML = "";
  candidates.forEach((c, i) => {
    const tr = document.createElement("tr");
    tr.dataset[rank] = i + 1;
    fillRow(tr, cellsOf(c, i), numeric);
    tr.addEventListener("mouseenter", () => showGhost(c.coord ? placedOf(c.coord, c.word) : []));
    tr.addEventListener("mouseleave", () => showGhost([]));
    body.appendChild(tr);
  });
}

function showSim(sim) {
  candidateRows("#sim", sim.candidates, "simRank", (c, i) => {
    const [low, high] = c.equity_ci;
    const equity = c.equity === null ? "-" : c.equity.toFixed(1) + (low === null ? "" : ` ±${((high - low) / 2).toFixed(1)}`);
    return [i + 1, c.coord || "-", c.coord ? c.display : `${text("exchange")} ${c.word.slice(1)}`, c.score,
            c.leave || "-", c.static_equity.toFixed(1), equity, pct(c.win_pct),
            c.iterations + (c.cut ? ` ${text("cut")}` : "")];
  }, (k) => k === 0 || (k >= 3 && k !== 4));
}

function showPeg(peg) {
  // The pre-endgame's table (`solve --peg`): each move judged over the splits of the unseen tiles.
  candidateRows("#peg", peg.candidates, "pegRank", (c, i) => [
    i + 1, c.coord || "-", c.coord ? c.display : text("pass"), c.score, c.static_equity.toFixed(1),
    c.win_pct.toFixed(1), c.spread.toFixed(1), `${c.splits} (${c.exact_splits})`], (k) => k === 0 || k >= 3);
  $("peg").hidden = false;
  $("peg-summary").textContent = text("peg_summary", { judged: peg.judged, considered: peg.considered,
    splits: peg.splits, all: peg.all_splits, bag: peg.bag, endgames: peg.endgames });
  $("peg-summary").hidden = false;
}

function showEndgame(endgame) {
  $("endgame").hidden = false;
  const sign = endgame.value > 0 ? "+" : "";
  $("endgame-value").textContent = text(endgame.exact ? "endgame_exact" : "endgame_inexact",
    { value: `${sign}${endgame.value}`, depth: endgame.depth, nodes: endgame.nodes.toLocaleString() });
  job.pv = endgame.pv;
  job.pvStep = 0;
  job.pvBoard = state.board.map((row) => row.slice());
  const list = $("pv");
  list.innerHTML = "";
  endgame.pv.forEach((m, i) => {
    const li = document.createElement("li");
    li.dataset.ply = i + 1;
    li.textContent = `${text("player_n", { player: m.player === 1 ? state.onTurn : 3 - state.onTurn })}: `
      + (m.coord ? `${m.coord} ${m.word} ${m.score}` : text("pass"));
    li.addEventListener("click", () => stepLine(i + 1));
    list.appendChild(li);
  });
  stepLine(0);
}

function stepLine(to) {
  // The principal variation on the board, its first `to` moves laid (shown as ghost tiles).
  job.pvStep = Math.max(0, Math.min(to, job.pv.length));
  const board = job.pvBoard.map((row) => row.slice());
  const laid = [];
  for (const m of job.pv.slice(0, job.pvStep)) {
    if (!m.coord) continue;
    for (const t of placedOf(m.coord, m.word, board)) {
      board[t.row][t.col] = { letter: t.letter.toLowerCase(), blank: t.blank };
      laid.push(t);
    }
  }
  $("pv-step").textContent = `${job.pvStep} / ${job.pv.length}`;
  for (const li of document.querySelectorAll("#pv li")) li.classList.toggle("now", Number(li.dataset.ply) === job.pvStep);
  showGhost(laid);
}

function staleLookahead() {
  // An edit: what was looked ahead is for another position now.
  if (job.id) cancelJob();
  $("sim").hidden = true;
  $("peg").hidden = true;
  $("peg-summary").hidden = true;
  $("endgame").hidden = true;
  if (job.pv.length) { job.pv = []; }
}

state.edited.push(staleLookahead);
state.starters = state.starters || [];
state.starters.push(() => {
  $("sim-start").addEventListener("click", () => startJob("sim"));
  $("endgame-start").addEventListener("click", () => startJob("endgame"));
  $("peg-start").addEventListener("click", () => startJob("peg"));
  $("job-cancel").addEventListener("click", cancelJob);
  $("pv-prev").addEventListener("click", () => stepLine(job.pvStep - 1));
  $("pv-next").addEventListener("click", () => stepLine(job.pvStep + 1));
  window.addEventListener("pagehide", () => {
    if (job.id) navigator.sendBeacon(`/api/jobs/${job.id}/cancel`);
  });
});
