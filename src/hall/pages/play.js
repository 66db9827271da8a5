"use strict";
// A player's phone: their faces, lit as numbers are called, daubed by the
// house rule, and a Bingo button that queues a claim for the caller.
// What the hall sends is shown as text (el() and textContent), never as
// markup; the page's Content-Security-Policy allows no inline script.
// Two 90-ball books of six (a player's usual buy) and more; the page says
// so when it is full. Electronic packs (opened with their receipt's code)
// are counted apart: the night's cap of faces a device holds them.
// Everything can be done by keyboard and screen reader: each face is a grid
// (one tab stop; the arrow keys move within it), a live region says each
// call and "1 to go" or "bingo" in words, and focus stays where it was when
// the page redraws.
const MAX_FACES = 24;
let state = null;
// Faces added: {card, label, rows, cols, cells}; kept on the phone.
let faces = load("faces", []);
// Daubs: {game, marks: {card: [numbers]}}, for the game being played.
let daubs = load("daubs", { game: 0, marks: {} });
// Claims sent: {card: {id, status, place, reason, error}}; the latest's
// card, shown at the top whatever the scroll.
const claims = {};
let latest = null;

function load(name, fallback) {
  try { return JSON.parse(localStorage.getItem("bingomint." + name)) || fallback; } catch { return fallback; }
}
function save() {
  localStorage.setItem("bingomint.faces", JSON.stringify(faces));
  localStorage.setItem("bingomint.daubs", JSON.stringify(daubs));
}
// The phone's own settings: sound, vibration, large print, high contrast.
const prefs = load("prefs", {});
const paper = () => faces.filter(f => !f.pack);
function letterOf(n) {
  const letters = state && state.letters;
  if (labels.length || !letters || !letters.length) return "";
  return letters[Math.floor((n - 1) / (state.balls / letters.length))];
}
// The numbers that count as called: the calls, and in a wild game every
// number ending in the wild digit.
function calls() {
  const g = state && state.game;
  if (!g) return [];
  if (g.wild === null || g.wild === undefined) return g.calls;
  const wild = Array.from({ length: g.balls }, (_, i) => i + 1).filter(n => n % 10 === g.wild && !g.calls.includes(n));
  return g.calls.concat(wild);
}
function marks(card) { return daubs.marks[card] || []; }
function daub(card, n) {
  const m = new Set(marks(card));
  if (m.has(n)) m.delete(n); else m.add(n);
  daubs.marks[card] = [...m];
  save(); render();
}

// How many numbers `face` still needs for the stage played, by the calls
// (null when it can never hold it): as the hall counts it (Pattern::to_go).
function toGo(face, aim, called) {
  let numbered = 0, marked = 0;
  face.cells.forEach((n, i) => { if (n) { numbered |= 1 << i; if (called.has(n)) marked |= 1 << i; } });
  const pop = x => { let c = 0; while (x) { x &= x - 1; c++; } return c; };
  const open = numbered & ~marked;
  if (aim.any) {
    const have = pop(numbered);
    return have ? Math.max(0, Math.max(1, Math.min(aim.any, have)) - pop(numbered & marked)) : null;
  }
  let ways = aim.ways;
  if (aim.corners) {
    let m = 0;
    for (const row of [0, face.rows - 1]) {
      const cells = [];
      for (let c = 0; c < face.cols; c++) if (face.cells[row * face.cols + c]) cells.push(row * face.cols + c);
      if (cells.length) m |= (1 << cells[0]) | (1 << cells[cells.length - 1]);
    }
    ways = [m];
  }
  let best = null;
  for (const w of ways) if (w & numbered) { const d = pop(w & open); if (best === null || d < best) best = d; }
  return best;
}
// Whether the phone counts "to go": the hall marks or lights the calls
// (with manual daubing, players mark and watch their own cards).
function counting() { return !!(state && state.game && state.daub !== "manual"); }

// An items game's labels (ball n at n - 1), from
// /api/labels; no labels in a game of numbers.
let labels = [];
// The cell of each face's grid that takes the focus (one tab stop a face).
const active = {};
// A face's words: "Card 201", "Ticket 4".
const faceName = face => (state && state.card.noun === "ticket" ? "Ticket " : "Card ") + face.card;
function faceView(face) {
  const called = new Set(calls());
  const rule = state ? state.daub : "manual";
  const own = new Set(marks(face.card));
  const box = el("section", "face" + (face.cols > 5 ? " wide" : ""));
  box.setAttribute("aria-label", faceName(face) + (face.pack ? `, pack ${face.pack}` : ""));
  const away = counting() ? toGo(face, state.game.aim, called) : null;
  const near = away === 0 ? el("span", "togo now", "Holds it: Bingo!") : away !== null && away <= 2 ? el("span", "togo", `${away} to go`) : "";
  const top = el("div", "top", el("span", "label", face.label + (face.pack ? ` · pack ${face.pack}` : "")), near);
  if (!face.pack) {
    const remove = el("button", "remove", "Remove");
    remove.setAttribute("aria-label", "Remove " + faceName(face));
    remove.dataset.key = "remove:" + face.card;
    remove.onclick = () => { faces = faces.filter(f => f.card !== face.card); save(); render(); };
    top.append(remove);
  }
  box.append(top);
  const t = el("table", labels.length ? "items" : "");
  const taps = rule !== "auto";
  if (taps) t.setAttribute("role", "grid");
  t.setAttribute("aria-label", faceName(face) + (taps ? ": arrow keys move, Enter marks a number" : ""));
  const letters = !labels.length && state && state.letters && state.letters.length === face.cols ? state.letters : null;
  if (letters) {
    const tr = t.insertRow();
    for (const l of letters) { const th = el("th", "head", l); th.scope = "col"; tr.append(th); }
  }
  const numbered = face.cells.map((n, i) => n ? i : -1).filter(i => i >= 0);
  if (!numbered.includes(active[face.card])) active[face.card] = numbered[0];
  for (let r = 0; r < face.rows; r++) {
    const tr = t.insertRow();
    for (let c = 0; c < face.cols; c++) {
      const i = r * face.cols + c, n = face.cells[i];
      const td = tr.insertCell();
      if (n === 0) {
        const free = !!state && state.card.free === i;
        td.className = free ? "free" : "blank";
        td.textContent = cellText(state && state.card, i, n);
        continue;
      }
      const text = labels.length ? labels[n - 1] : String(n);
      const marked = rule === "auto" ? called.has(n) : own.has(n);
      if (marked) td.className = "daubed";
      else if (rule === "assist" && called.has(n)) td.className = "glow";
      const words = (letters ? letters[c] + " " : "") + text;
      if (!taps) {
        td.textContent = text;
        td.setAttribute("aria-label", words + (marked ? ", marked" : ""));
        continue;
      }
      const b = el("button", "cell", text);
      b.setAttribute("aria-label", words + (rule === "assist" && called.has(n) && !marked ? ", called" : ""));
      b.setAttribute("aria-pressed", marked ? "true" : "false");
      b.tabIndex = active[face.card] === i ? 0 : -1;
      b.dataset.key = `cell:${face.card}:${i}`;
      b.dataset.index = i;
      // On the cell, so a tap anywhere in it (or Enter on its button) marks.
      td.onclick = () => { active[face.card] = i; daub(face.card, n); };
      td.append(b);
    }
  }
  if (taps) t.onkeydown = e => moveIn(e, face, t);
  box.append(t);
  const bingo = el("button", "bingo", "Bingo!");
  bingo.setAttribute("aria-label", "Bingo! Claim " + faceName(face));
  bingo.dataset.key = "bingo:" + face.card;
  const claim = claims[face.card];
  bingo.disabled = !(state && state.game) || (claim && claim.status === "waiting");
  bingo.onclick = () => sendClaim(face.card);
  box.append(bingo);
  if (claim) box.append(outcome(claim));
  return box;
}
// The arrow keys (and Home, End) move the focus within a face's grid.
function moveIn(e, face, t) {
  const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -face.cols, ArrowDown: face.cols };
  const from = Number(document.activeElement && document.activeElement.dataset.index);
  if (!(e.key in steps) && e.key !== "Home" && e.key !== "End") return;
  e.preventDefault();
  const numbered = face.cells.map((n, i) => n ? i : -1).filter(i => i >= 0);
  let to = e.key === "Home" ? numbered[0] : e.key === "End" ? numbered[numbered.length - 1] : from;
  if (e.key in steps) {
    for (let i = from + steps[e.key]; i >= 0 && i < face.cells.length; i += steps[e.key]) {
      const sameRow = Math.floor(i / face.cols) === Math.floor(from / face.cols);
      if (Math.abs(steps[e.key]) === 1 && !sameRow) break;
      if (face.cells[i]) { to = i; break; }
    }
  }
  active[face.card] = to;
  for (const b of t.querySelectorAll("button.cell")) b.tabIndex = Number(b.dataset.index) === to ? 0 : -1;
  const b = t.querySelector(`button.cell[data-index="${to}"]`);
  if (b) b.focus();
}
function outcome(c) {
  if (c.error) return el("div", "outcome refused", c.error);
  const text = {
    waiting: `Claim sent: number ${c.place} in the queue. The caller is checking…`,
    accepted: `BINGO! The caller accepted your claim. ${c.reason}`,
    rejected: `Not accepted: ${c.reason}`,
    closed: `Not checked: ${c.reason}`,
  }[c.status] || c.reason;
  return el("div", "outcome " + c.status, text);
}

function render() {
  const g = state && state.game;
  const all = g ? g.calls : [];
  const last = all[all.length - 1];
  $("game").replaceChildren(...(g ? ["Game ", el("b", "", g.game), " · " + (g.name ? g.name + " · " : "") + state.game_name + (g.prize ? " · " + g.prize : "") + (g.wild !== null && g.wild !== undefined ? ` · wild ${g.wild}` : "")] :
    [state && state.revealed ? `Game ${state.revealed.game} is over. Waiting for the next.` : "Waiting for the first game"]));
  $("stage").textContent = g ? "Playing for " + g.stage.replace(/-/g, " ") : "";
  $("letter").textContent = last ? letterOf(last) : "";
  const name = n => labels.length ? labels[n - 1] : n;
  $("number").textContent = last ? name(last) : "–";
  $("last").replaceChildren(...all.slice(-6, -1).reverse().map(n => el("span", "", name(n))));
  $("count").textContent = g ? `${all.length} of ${g.balls} called` : "";
  // The cards nearest to winning first, as the hall counts them.
  const shown = faces.slice();
  if (counting()) {
    const called = new Set(calls());
    const away = f => { const d = toGo(f, state.game.aim, called); return d === null ? 99 : d; };
    shown.sort((a, b) => away(a) - away(b));
  }
  // The focus stays on the same control across the redraw.
  const had = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  $("faces").replaceChildren(...shown.map(faceView));
  if (had) { const again = document.querySelector(`[data-key="${had}"]`); if (again) again.focus(); }
  const rule = state ? state.daub : "manual";
  $("catchup").hidden = rule === "auto" || !faces.length || !g;
  $("rule").textContent = {
    manual: "House rule: mark your own numbers (tap a number to mark it).",
    assist: "House rule: called numbers glow; tap them to mark them.",
    auto: "House rule: called numbers are marked for you.",
  }[rule] + (state && state.daub_rule ? ` (${state.daub_rule})` : "");
  const held = paper().length;
  $("add").hidden = held >= MAX_FACES;
  $("full").hidden = held < MAX_FACES;
  $("full").textContent = `This phone holds ${MAX_FACES} paper cards, the most it follows: remove one to add another.`;
  $("cardlabel").textContent = `Add a paper card (${held} of ${MAX_FACES} on this phone): the number printed on it, or its QR text`;
  const face = faces.find(f => f.card === latest);
  const bar = face && claims[latest];
  $("claimbar").hidden = !bar;
  if (bar) {
    const view = outcome(bar);
    $("claimbar").className = view.className;
    $("claimbar").replaceChildren(el("b", "", face.label + ": "), ...view.childNodes);
  }
}

function onState(s) {
  // Faces of another night's files are not this hall's.
  faces = faces.filter(f => s.files.some(x => f.label.endsWith(" of " + x.id)));
  const game = s.game ? s.game.game : 0;
  if (game !== daubs.game) daubs = { game, marks: {} };
  state = s;
  Speech.languages = s.languages || [];
  save(); render();
  announce(s);
  Speech.follow(s);
}

// What changed, in words, for the live region (and a screen reader): each
// call, a call taken back, and a face coming to "1 to go" or holding the
// prize (where the house rule counts for the player).
let heard = null;
let near = {};
function announce(s) {
  const g = s.game;
  if (!g) { heard = null; near = {}; return; }
  const key = `${g.game}:${g.stage}`;
  const now = { key, calls: g.calls.length };
  if (!heard || heard.key !== key) near = {};
  const first = heard === null;
  const before = heard;
  heard = now;
  if (first || (before.key === key && before.calls === now.calls)) return;
  const parts = [];
  if (before.key === key && now.calls < before.calls) parts.push("The last call was taken back.");
  else if (g.calls.length) parts.push(Speech.words(s, g.calls[g.calls.length - 1]) + " called.");
  let bingo = false;
  if (counting()) {
    const called = new Set(calls());
    for (const f of faces) {
      const d = toGo(f, g.aim, called);
      if (d === 0 && near[f.card] !== 0) { parts.push(`${faceName(f)} holds it: bingo! Press its Bingo button to claim.`); bingo = true; }
      else if (d === 1 && near[f.card] !== 1) parts.push(`${faceName(f)}: 1 to go.`);
      near[f.card] = d;
    }
  }
  $("announce").textContent = parts.join(" ");
  cue(bingo);
}
// A sound and a buzz, when the player turned them on.
let audio = null;
function cue(bingo) {
  if (prefs.vibrate && navigator.vibrate) navigator.vibrate(bingo ? [300, 100, 300] : 120);
  if (!prefs.sound || !window.AudioContext) return;
  audio = audio || new AudioContext();
  const o = audio.createOscillator(), gain = audio.createGain();
  o.frequency.value = bingo ? 660 : 880;
  gain.gain.value = 0.15;
  o.connect(gain).connect(audio.destination);
  o.start();
  o.stop(audio.currentTime + (bingo ? 0.6 : 0.15));
}

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

async function addFace(text) {
  text = text.trim();
  $("error").textContent = "";
  if (!text) return;
  if (paper().length >= MAX_FACES) { $("error").textContent = `At most ${MAX_FACES} cards on one phone.`; return; }
  try {
    const face = await post("/api/faces", { card: text });
    if (faces.some(f => f.card === face.card)) { $("error").textContent = `${face.label} is on this phone already.`; return; }
    faces.push(face);
    $("card").value = "";
    save(); render();
  } catch (e) { $("error").textContent = e.message; }
}

async function sendClaim(card) {
  try {
    latest = card;
    const face = faces.find(f => f.card === card);
    const c = await post("/api/bingo", face && face.pack ? { card, device: Packs.device() } : { card });
    claims[card] = c;
    render();
    follow(card, c.id, c.token);
  } catch (e) { claims[card] = { error: e.message }; render(); }
}
// Reads the claim's standing until the caller decides.
async function follow(card, id, token) {
  for (;;) {
    await new Promise(done => setTimeout(done, 1500));
    try {
      const r = await fetch("/api/bingo/" + id, { headers: { "Authorization": "Bearer " + token } });
      if (!r.ok) continue;
      const c = await r.json();
      claims[card] = c;
      render();
      if (c.status !== "waiting") return;
    } catch { /* offline: try again */ }
  }
}

$("catchup").onclick = () => {
  const all = calls();
  for (const f of faces) {
    const on = new Set(f.cells);
    daubs.marks[f.card] = [...new Set(marks(f.card).concat(all.filter(n => on.has(n))))];
  }
  save(); render();
};
$("add").onsubmit = e => { e.preventDefault(); addFace($("card").value); };

// A pack's faces on this phone, as the hall holds them (a voided pack's
// go); the faces added from paper stay.
function holdPacks(packs) {
  const mine = packs.filter(p => !p.void).flatMap(p => p.faces.map(f => ({ ...f, pack: p.pack })));
  faces = paper().concat(mine);
  save(); render();
}
async function openPack(code) {
  $("error").textContent = "";
  if (!code.trim()) return;
  try {
    const p = await Packs.open(code);
    $("code").value = "";
    holdPacks(await Packs.mine());
    $("announce").textContent = `Pack ${p.pack} opened: ${p.faces.length} faces, ${p.product}, plays ${Packs.games(p)}.`;
  } catch (e) { $("error").textContent = e.message; }
}
$("pack").onsubmit = e => { e.preventDefault(); openPack($("code").value); };

// The settings, kept on this phone.
Speech.wire($("speak"));
for (const name of ["sound", "vibrate", "large", "contrast"]) {
  const box = $(name);
  box.checked = !!prefs[name];
  box.onchange = () => {
    prefs[name] = box.checked;
    localStorage.setItem("bingomint.prefs", JSON.stringify(prefs));
    if (name === "large" || name === "contrast") document.body.classList.toggle(name, box.checked);
  };
}
document.body.classList.toggle("large", !!prefs.large);
document.body.classList.toggle("contrast", !!prefs.contrast);

// The camera, where the browser reads QR codes (else the QR text is typed).
if ("BarcodeDetector" in window && navigator.mediaDevices) {
  $("scan").hidden = false;
  $("scan").onclick = async () => {
    const video = $("camera");
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
      video.srcObject = stream; video.hidden = false; await video.play();
      const detector = new BarcodeDetector({ formats: ["qr_code"] });
      const stop = () => { stream.getTracks().forEach(t => t.stop()); video.hidden = true; };
      const look = async () => {
        if (video.hidden) return;
        const found = await detector.detect(video).catch(() => []);
        if (found.length) { stop(); addFace(found[0].rawValue); } else setTimeout(look, 300);
      };
      look();
    } catch (e) { $("error").textContent = "The camera cannot be used here (" + e.message + "): type the QR text instead."; }
  };
}

render();
// A pack's address carries its code (the receipt's QR code): opened once,
// and the code taken off the address.
const asked = new URLSearchParams(location.search).get("code");
if (asked) { history.replaceState(null, "", "/play"); openPack(asked); }
else Packs.mine().then(holdPacks).catch(() => {});
fetch("/api/labels").then(r => r.json()).then(l => { labels = l.labels || []; Speech.labels = labels; }).catch(() => {})
  .finally(() => followHall(onState, up => { $("offline").hidden = up; }));
