"use strict";
// The board for the room. What the hall sends is shown as text (el() and
// textContent), never as markup; the page's Content-Security-Policy allows
// no inline script.
let built = 0;
function letterOf(state, n) {
  if (Speech.labels.length || !state.letters || !state.letters.length) return "";
  const per = state.balls / state.letters.length;
  return state.letters[Math.floor((n - 1) / per)];
}
function build(state) {
  const grid = document.getElementById("grid");
  grid.replaceChildren();
  if (Speech.labels.length) return buildItems(state, grid);
  const letters = state.letters || [];
  const rows = letters.length ? letters.length : 9;
  const per = letters.length ? state.balls / letters.length : 10;
  grid.style.gridTemplateColumns = (letters.length ? "0.8fr " : "") + `repeat(${per}, 1fr)`;
  const size = Math.min(70 / rows, 90 / (per + 1)) * 0.55;
  grid.style.fontSize = size + "vh";
  for (let r = 0; r < rows; r++) {
    if (letters.length) {
      const h = document.createElement("div");
      h.className = "head"; h.textContent = letters[r];
      grid.appendChild(h);
    }
    for (let c = 0; c < per; c++) {
      const n = r * per + c + 1;
      if (n > state.balls) continue;
      const d = document.createElement("div");
      d.id = "n" + n; d.textContent = n;
      d.style.height = (70 / rows) + "vh";
      grid.appendChild(d);
    }
  }
  built = state.balls;
}
// An items game's board: every item's label in a grid about twice as wide
// as it is tall, lit as called.
function buildItems(state, grid) {
  const per = Math.ceil(Math.sqrt(state.balls * 2));
  const rows = Math.ceil(state.balls / per);
  grid.style.gridTemplateColumns = `repeat(${per}, 1fr)`;
  grid.style.fontSize = Math.min(70 / rows, 90 / per) * 0.2 + "vh";
  grid.classList.add("items");
  for (let n = 1; n <= state.balls; n++) {
    const d = el("div", "", Speech.name(n));
    d.id = "n" + n;
    d.style.height = (70 / rows) + "vh";
    grid.appendChild(d);
  }
  built = state.balls;
}
function render(state) {
  if (built !== state.balls) build(state);
  const g = state.game;
  const calls = g ? g.calls : [];
  const pre = g ? calls.slice(0, g.precalls) : [];
  const wild = g && g.wild !== null ? g.wild : null;
  for (let n = 1; n <= state.balls; n++) {
    const d = document.getElementById("n" + n);
    d.className = calls.includes(n) ? (n === calls[calls.length - 1] && calls.length > pre.length ? "newest" : pre.includes(n) ? "pre" : "lit")
      : wild !== null && n % 10 === wild ? "wild" : "";
  }
  info(state);
  fit();
  between(state);
  winner(state);
  Speech.follow(state);
  const last = calls[calls.length - 1];
  document.querySelector("#ball .letter").textContent = last ? letterOf(state, last) : "";
  document.querySelector("#ball .number").textContent = last ? Speech.name(last) : "–";
  document.getElementById("ball").classList.toggle("items", Speech.labels.length > 0);
  document.getElementById("last").classList.toggle("items", Speech.labels.length > 0);
  document.getElementById("last").replaceChildren(...calls.slice(-6, -1).reverse().map(n => el("span", "", Speech.name(n))));
  document.getElementById("count").textContent = g ? `${calls.length} of ${g.balls} called` : "";
  document.getElementById("game").replaceChildren(...(g ? ["Game ", el("b", "", g.game), g.name ? " · " : "", g.name ? el("b", "", g.name) : "", " · " + state.game_name] :
    [state.revealed ? `Game ${state.revealed.game} is over` : "Waiting for the first game"]));
  const left = g ? g.prizes.filter(p => !p.won_at).length : 0;
  document.getElementById("stage").replaceChildren(...(g ? ["Playing for ", el("b", "", g.concurrent ?
    `${left} prize${left === 1 ? "" : "s"} at once` : g.stage.replace(/-/g, " "))] : []));
  // Amounts are listed beside the ball; the top keeps a prize in words.
  document.getElementById("prize").textContent = g && g.prize && !g.prizes.some(p => p.amount) ? g.prize : "";
  const d = g && g.drawn;
  const pic = [];
  if (d) {
    const table = el("table");
    for (let r = 0; r < d.rows; r++) {
      const tr = table.insertRow();
      for (let c = 0; c < d.cols; c++) tr.insertCell().className = d.cells[r * d.cols + c] ? "on" : "";
    }
    pic.push(table, el("span", "", d.ways > 1 ? "for example: " + d.way + " (any of " + d.ways + ")" : d.way));
  }
  document.getElementById("drawn").replaceChildren(...pic);
  const word = state.audience === "class" ? "room word" : "room seed";
  const room = !g ? "" : g.balls_from === "blower" ? "" : g.room_seed !== null ? ` · ${word}: ${JSON.stringify(g.room_seed)} (${[...g.room_seed].length} characters)` :
    g.calls.length ? ` · no ${word}: the order rests on the ${state.audience === "class" ? "computer's" : "hall's"} seed alone` : ` · ${word}: waiting`;
  const proof = g && g.balls_from === "blower" ? "balls drawn by blower: called as drawn, no commitment" :
    g && state.audience === "class" ? `the calls were fixed before the first ball (SHA-256 ${g.commitment.slice(0, 16)}…)${room}` :
    g ? `calls committed: SHA-256 ${g.commitment}${room}` :
    state.revealed ? `game ${state.revealed.game} seed ${state.revealed.seed} (SHA-256 ${state.revealed.commitment.slice(0, 16)}…)` : "";
  document.getElementById("proof").textContent = proof;
  document.getElementById("files").textContent = state.files.map(f => f.id).join(" · ");
}
// The game's name and paper, prizes, jackpot, bonanza, wild digit and
// payouts; a recall announced to the room.
function info(state) {
  const g = state.game, parts = [];
  if (g && g.paper) {
    const sw = el("span", "paper");
    if (g.paper_colour) sw.style.background = g.paper_colour;
    parts.push(el("div", "", sw, g.paper + " paper"));
  }
  if (g && g.jackpot) parts.push(el("div", "jackpot", g.jackpot.left ? `Jackpot ${g.jackpot.prize}: ${g.jackpot.left} calls left` :
    `Jackpot gone · consolation ${g.jackpot.consolation}`));
  if (g && g.consolation) parts.push(el("div", "", "Consolation: " + g.consolation));
  if (g && g.prizes.some(p => p.amount)) parts.push(el("div", "", ...g.prizes.flatMap((p, i) =>
    [i ? " · " : "", el("span", p.won_at ? "won" : "", p.pattern.replace(/-/g, "\u00a0") + (p.amount ? "\u00a0" + p.amount : ""))])));
  if (g && g.precalls) parts.push(el("div", "", `Bonanza: ${Math.min(g.precalls, g.calls.length)} numbers called before the game (blue)`));
  if (g && g.wild_game) parts.push(el("div", "jackpot", g.wild === null ? "Wild number: the first ball's last digit" : `Wild digit ${g.wild}`));
  for (const p of (g ? g.payouts : [])) parts.push(el("div", "paid", `${p.stage.replace(/-/g, " ")}: ${p.text}`));
  document.getElementById("info").replaceChildren(...parts);
  const a = document.getElementById("announce");
  a.textContent = g && g.announcement ? g.announcement : "";
  a.hidden = !(g && g.announcement);
}
// Before and between games: the night's title and programme, what comes
// next, and where phones find the hall.
function between(state) {
  const g = state.game, n = state.night;
  $("between").hidden = !!g;
  if (g) return;
  $("nighttitle").textContent = n ? n.title : "bingo";
  const next = n && n.next ? n.games[n.next - 1] : null;
  $("nextup").textContent = n ? (next ? `Next: game ${next.number}${next.name ? ", " + next.name : ""}` : "The programme is over: thank you for playing") :
    state.revealed ? `Game ${state.revealed.game} is over` : "Waiting for the first game";
  $("programme").replaceChildren(...(n ? n.games : []).map(p => {
    const li = el("li", p.status === "played" ? "played" : next && p.number === next.number ? "next" : "",
      el("b", "", p.name || `Game ${p.number}`), " · ", p.stages.map(s => s.replace(/-/g, " ")).join(" → "));
    if (p.prize) li.append(" · ", el("span", "prize", p.prize));
    if (p.paper) {
      const sw = el("span", "paper");
      if (p.paper_colour) sw.style.background = p.paper_colour;
      li.append(" ·", sw, p.paper + " paper");
    }
    for (const s of p.specials) li.append(" · " + s);
    return li;
  }));
}
// The players' address and its QR code, fetched once.
function drawJoin(join) {
  if (!join.players.length || !join.qr.length) return;
  const n = join.qr.length, quiet = 4, size = n + 2 * quiet;
  const c = $("qr");
  c.width = c.height = size * 8;
  const ctx = c.getContext("2d");
  ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, c.width, c.height);
  ctx.fillStyle = "#000";
  join.qr.forEach((row, y) => [...row].forEach((m, x) => { if (m === "1") ctx.fillRect((x + quiet) * 8, (y + quiet) * 8, 8, 8); }));
  $("joinurl").textContent = join.players[0];
  $("join").hidden = false;
}
// The column beside the grid shrinks its ball, last calls and pattern
// drawing until everything in it shows (a game of many prizes, a jackpot,
// payouts listed), never below 40 %.
function fit() {
  const left = $("left");
  let f = 1;
  left.style.setProperty("--fit", "1");
  while (left.scrollHeight > left.clientHeight + 1 && f > 0.4) {
    f -= 0.05;
    left.style.setProperty("--fit", f.toFixed(2));
  }
}
// How long the room sees a win whole once its game is over, before the
// programme and the phones' QR code come back with the win in a strip.
const WINNER_HOLD_MS = 20000;
let winnerSeen = { key: "", at: 0 }, winnerTimer = null;
// An accepted win, for the room: the face claimed as printed, the called
// numbers marked, the winning way lit and the last ball ringed; until the
// next call or game, and between games for WINNER_HOLD_MS, then in a strip.
function winner(state) {
  const w = state.winner, box = $("winner");
  box.hidden = !w;
  if (!w) return;
  const key = JSON.stringify([w.game, w.stage, w.call, w.label]);
  if (winnerSeen.key !== key) winnerSeen = { key, at: Date.now() };
  const left = WINNER_HOLD_MS - (Date.now() - winnerSeen.at);
  box.classList.toggle("banner", !state.game && left <= 0);
  clearTimeout(winnerTimer);
  if (!state.game && left > 0) winnerTimer = setTimeout(() => winner(followHall.state), left + 50);
  const items = Speech.labels.length > 0;
  box.classList.toggle("items", items);
  box.replaceChildren(el("div", "head", "BINGO! ", w.stage.replace(/-/g, " ")),
    el("div", "who", `${w.label}${w.shared > 1 ? ` and ${w.shared - 1} more` : ""} · at call ${w.call}`),
    w.face ? faceTable(w.face, state.card, items ? n => Speech.name(n) : undefined) : "",
    w.prize ? el("div", "prize", w.prize) : "",
    w.near ? el("div", "near", w.near) : "");
}
window.addEventListener("resize", fit);
Speech.wire(document.getElementById("speak"));
fetch("/api/join").then(r => r.json()).then(drawJoin).catch(() => {});
const online = up => { document.getElementById("offline").hidden = up; };
Speech.load().finally(() => followHall(render, online));
