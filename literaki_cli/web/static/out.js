// Out of the board: the position as CGP (copied), the board as PNG or SVG (drawn by the server
// as `show --image` draws it), the moves played on the board as a GCG record; and a word check.
"use strict";

async function copyCGP() {
  const cgp = toCGP();
  $("cgp-out").value = cgp;
  $("cgp-out").select();
  let copied = false;
  try {
    await navigator.clipboard.writeText(cgp);
    copied = true;
  } catch (e) {
    copied = document.execCommand && document.execCommand("copy");
  }
  $("out-status").textContent = text(copied ? "copied" : "copy_by_hand");
}

function download(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

async function saveImage(format) {
  const response = await fetch("/api/image", {
    method: "POST", headers: { "content-type": "application/json", "x-literaki-lang": state.lang },
    body: JSON.stringify({ position: toCGP(), format, on_turn: state.onTurn, lang: state.lang }),
  });
  if (response.status !== 200) { $("out-status").textContent = (await response.json()).error; return; }
  download(await response.blob(), `plansza.${format}`);
  $("out-status").textContent = text("saved", { name: `plansza.${format}` });
}

async function saveGame() {
  if (!state.log.length) { $("out-status").textContent = text("no_moves_played"); return; }
  if (!state.logFromEmpty) { $("out-status").textContent = text("not_from_empty"); return; }
  const names = [text("player_n", { player: 1 }), text("player_n", { player: 2 })];
  const written = await api("/api/record", { variant: state.variant.name, players: names, turns: state.log });
  if (written.status !== 200) { $("out-status").textContent = written.answer.error; return; }
  download(new Blob([written.answer.gcg], { type: "text/plain;charset=utf-8" }), "partia.gcg");
  $("cgp-out").value = written.answer.gcg;
  $("out-status").textContent = text("saved", { name: "partia.gcg" });
}

let wordTimer = null;

async function checkWord() {
  const word = $("word-check").value.trim();
  if (!word) { $("word-result").textContent = ""; return; }
  const checked = await api("/api/check-word", { words: [word] });
  if (word !== $("word-check").value.trim()) return;  // typed on since
  if (checked.status !== 200) { $("word-result").textContent = checked.answer.error; return; }
  const verdict = checked.answer.words[0];
  // the reason in the page's words (the API's `detail` is the command line's English)
  const reason = verdict.reason && verdict.reason !== "not-in-list" ? text(`reason_${verdict.reason.replace(/-/g, "_")}`) : "";
  $("word-result").textContent = verdict.valid ? text("word_valid") : text("word_invalid") + (reason ? ` (${reason})` : "");
  $("word-result").dataset.reason = verdict.reason || "";
  $("word-result").dataset.valid = verdict.valid;
}

state.starters = state.starters || [];
state.starters.push(() => {
  $("copy-cgp").addEventListener("click", copyCGP);
  $("save-png").addEventListener("click", () => saveImage("png"));
  $("save-svg").addEventListener("click", () => saveImage("svg"));
  $("save-gcg").addEventListener("click", saveGame);
  $("word-check").addEventListener("input", () => { clearTimeout(wordTimer); wordTimer = setTimeout(checkWord, 150); });
});
