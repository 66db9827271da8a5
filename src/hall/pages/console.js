"use strict";
// The caller's console. Everything the hall or a client sent is shown as
// text: elements are made with el() and filled with textContent, never by
// building markup from data (the page's Content-Security-Policy allows no
// inline script either).
const key = location.hash.slice(1);
let state = null;
async function api(method, path, body) {
  const r = await fetch(path, { method, headers: { "Authorization": "Bearer " + key, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}
function shown(e) { $("error").textContent = e ? e.message || e : ""; }
function grid(face) {
  return faceTable(face, state && state.card, Speech.labels.length ? n => Speech.name(n) : undefined);
}
function setupPatterns(s) {
  const sel = $("pattern");
  if (sel.options.length) return;
  const names = s.balls === 90 ? ["stages: one line, two lines, full house"].concat(s.patterns) : s.patterns;
  for (const p of names.concat(["custom…"])) sel.add(new Option(p, p));
  const { rows, cols } = s.card;
  const t = $("mask");
  for (let r = 0; r < rows; r++) {
    const tr = t.insertRow();
    for (let c = 0; c < cols; c++) { const td = tr.insertCell(); td.onclick = () => td.classList.toggle("on"); }
  }
  sel.onchange = () => { $("maskrow").hidden = sel.value !== "custom…"; };
}
function chosen() {
  const v = $("pattern").value;
  if (v.startsWith("stages")) return { stages: ["one-line", "two-lines", "full-house"] };
  if (v === "custom…") {
    const rows = [...$("mask").rows].map(tr => [...tr.cells].map(td => td.classList.contains("on") ? "X" : ".").join(""));
    return { pattern: "mask:" + rows.join("/") };
  }
  return { pattern: v };
}
// A class's night (`--audience class`): the same game in a classroom's
// words, with no money words for a game with no prize and no hall terms.
const forClass = s => s.audience === "class";
function classWords(s) {
  const c = forClass(s);
  $("end").textContent = c ? "End the game" : "End game and reveal the seed";
  document.querySelector("#roomrow label").firstChild.textContent = c ? "Room word " : "Room seed ";
  $("roomnote").textContent = c
    ? "Before the first ball, ask someone in the class for a word or a number: it is mixed into the order, so not even the computer knew the calls in advance."
    : "Once the commitment is shown and before the first ball, ask someone in the room for a word or a number: it is mixed into the order, so not even the house knew the calls when it committed.";
  $("prize").closest("label").hidden = c;
}
function render(s) {
  state = s;
  setupPatterns(s);
  classWords(s);
  const g = s.game;
  $("title").textContent = g ? `game ${g.game}${g.name ? " (" + g.name + ")" : ""}: ${g.concurrent ? "prizes open at once" : g.stage}${g.prize ? " · " + g.prize : ""}` : "no game";
  $("files").textContent = s.files.map(f => `${f.path} (${f.id}, ${f.count})`).join(" · ");
  // While a game plays, its own settings drive the panel: no second form.
  $("newgame").hidden = !!g; $("outside").hidden = !s.night;
  $("start").disabled = !!g; $("end").disabled = !g; $("call").disabled = !g || g.calls.length === g.balls;
  renderNight(s); renderGame(s);
  Speech.follow(s);
  $("undo").disabled = !g || !g.calls.length;
  const calls = g ? g.calls : [];
  $("count").textContent = g ? `${calls.length} of ${g.balls} called` : "";
  // How near the sold cards are to each open prize at this call: a card
  // holding it means a claim should come before the next ball.
  if (g && g.counting) $("togo").replaceChildren(el("div", "small", "counting the cards…"));
  else $("togo").replaceChildren(...(g ? g.to_go : []).map(t => el("div", "",
    el("b", "", t.stage.replace(/-/g, " ") + ": "),
    t.holding ? el("span", "hold", `${t.holding} ${forClass(s) ? "" : "sold "}${s.card.noun}${t.holding === 1 ? " holds" : "s hold"} it now`) : "none holds it yet",
    ` · ${t.one} one to go · ${t.two} two to go`)));
  $("called").replaceChildren(...calls.map(n => el("span", "", Speech.labels.length ? `${n} ${Speech.name(n)}` : n)));
  const word = forClass(s) ? "room word" : "room seed";
  const room = g && g.room_seed !== null ? ` · ${word}: ${JSON.stringify(g.room_seed)}` : g && g.calls.length ? ` · no ${word}` : "";
  const check = r => (Speech.labels.length ? "bingomint calls --items LIST" : `bingomint calls --game ${s.balls}`) + ` --seed ${r.seed}` + (r.room_seed !== null ? ` --room-seed '${r.room_seed.replace(/'/g, "'\\''")}'` : "");
  $("proof").textContent = g && g.balls_from === "blower" ? "Balls from the blower: called as drawn, so there is no seed or commitment to check." :
    g && forClass(s) ? `The calls were fixed before the first ball (SHA-256 of the seed: ${g.commitment})${room}` :
    g ? `Commitment (SHA-256 of the seed): ${g.commitment}${room}` :
    s.revealed ? `Game ${s.revealed.game} seed: ${s.revealed.seed} — check it with: ${check(s.revealed)}` : "";
  const roomOpen = !!g && !g.calls.length && g.room_seed === null && g.balls_from !== "blower";
  $("roomrow").hidden = $("roomnote").hidden = !!g && g.balls_from === "blower";
  $("room").disabled = $("mix").disabled = !roomOpen;
  if (!roomOpen) $("room").value = g && g.room_seed ? g.room_seed : "";
  // One line per claim: a check followed by its acceptance (the same card
  // at the same call) shows as the acceptance alone.
  const recent = s.claims.filter((c, i) => !s.claims.slice(0, i).some(n => n.card === c.card && n.call === c.call));
  $("recent").replaceChildren(...recent.map(c => el("li", c.win ? "win" : "lose", `${c.card} at call ${c.call}: ${c.reason}`)));
  $("notice").textContent = s.notice || "";
  $("notice").hidden = !s.notice;
}
// A swatch of a paper's colour, and its name.
function paper(name, colour) {
  const sw = el("span", "swatch");
  if (colour) sw.style.background = colour;
  return el("span", "", sw, name);
}
function renderNight(s) {
  const n = s.night;
  $("nightbox").hidden = !n;
  if (!n) return;
  $("nighttitle").textContent = n.title;
  $("paid").textContent = forClass(s) && !n.games.some(g => g.prize) ? "" : "paid tonight: " + n.paid;
  // A prize typed for a game outside the programme, in the night's currency.
  $("prize").placeholder = `${n.currency}50 line`;
  $("next").disabled = !!s.game || !n.next;
  // The last game still playing is not the programme over.
  const playing = n.games.some(g => g.status === "playing");
  $("next").textContent = n.next ? `Next game: ${n.next}. ${n.games[n.next - 1].name}`
    : playing ? "The last game of the programme is playing" : "The programme is over";
  $("programme").replaceChildren(...n.games.map(g => {
    const li = el("li", g.status.replace(" ", "-"), el("b", "", g.name), " · ", g.stages.join(g.specials.includes("prizes open at once") ? " + " : " → "));
    if (g.prize) li.append(" · " + g.prize);
    if (g.paper) li.append(" · ", paper(g.paper, g.paper_colour));
    for (const sp of g.specials) li.append(" · " + sp);
    li.append(el("span", "small", " (" + g.status + ")"));
    if (g.status === "to come") {
      const b = el("button", "", "Start");
      b.disabled = !!s.game;
      b.onclick = () => act(async () => ({ state: await api("POST", "/api/games", { game: g.number }) }));
      li.append(b);
    }
    return li;
  }));
}
// The open game's rules and prizes, the blower's keypad, the prize box.
function renderGame(s) {
  const g = s.game, parts = [];
  if (g && g.announcement) parts.push(el("div", "", el("span", "announce", g.announcement)));
  if (g && (g.name || g.paper)) parts.push(el("div", "", el("b", "", g.name || ""), g.paper ? " · " : "", g.paper ? paper(g.paper + " paper", g.paper_colour) : ""));
  if (g && g.prizes.some(p => p.amount || p.won_at)) parts.push(el("div", "", (g.concurrent ? "Prizes (open at once): " : "Stages: ") +
    g.prizes.map(p => `${p.pattern}${p.amount ? " " + p.amount : ""}${p.won_at ? " (won at call " + p.won_at + ")" : ""}`).join(" · ")));
  if (g && g.jackpot) parts.push(el("div", "", `Jackpot ${g.jackpot.prize} within ${g.jackpot.within} calls: ` +
    (g.jackpot.left ? `${g.jackpot.left} calls left` : `now for the consolation, ${g.jackpot.consolation}`)));
  if (g && g.consolation) parts.push(el("div", "", "Consolation: " + g.consolation));
  if (g && g.precalls) parts.push(el("div", "", `Bonanza: ${g.precalls} precalls` + (g.calls.length < g.precalls ? ` (${g.precalls - g.calls.length} to enter before claims)` : "")));
  const noPrize = g && !g.prize && !g.prizes.some(p => p.amount);
  if (g && forClass(s) && noPrize) parts.push(el("div", "", g.share === "all-holders" ? "A win counts for every card holding it at its call, called out or not."
    : "A win counts for the cards called out at its call (a card that had it but was not called out does not count)."));
  else if (g) parts.push(el("div", "", g.share === "all-holders" ? "A prize is shared by every sold card holding it at its call, claimed or not."
    : "A prize is shared by the cards claimed for it at its call (a sleeper is not paid)."));
  if (g && g.wild_game) parts.push(el("div", "", g.wild === null ? "Wild number: the first ball's last digit" : `Wild digit ${g.wild}: every number ending in ${g.wild} counts`));
  const pays = g ? g.payouts : [];
  pays.forEach((p, i) => {
    const row = el("div", "win", `${forClass(s) && noPrize ? "Won" : "Paid"} ${p.stage} at call ${p.call}: ${p.text}`);
    // A win accepted by mistake: the last payout may be voided, with the
    // reason (logged, and shown to the room); then its calls may be recalled.
    if (i === pays.length - 1) {
      const b = el("button", "", "Void");
      b.id = "void";
      b.onclick = () => {
        const why = prompt(`Void the payout of ${p.stage}? Say why (it is logged, and shown to the room):`);
        if (why) act(async () => ({ state: await api("POST", "/api/payouts/void", { stage: p.stage, reason: why }) }));
      };
      row.append(" ", b);
    }
    parts.push(row);
  });
  // A win accepted by mistake and found after its game ended: its payout
  // (and the consolation paid with it) is taken back; the game stays ended.
  const r = !g && s.reversible;
  if (r) {
    const row = el("div", "win", `Game ${r.game}'s last payout: ${r.stage} at call ${r.call} `);
    const b = el("button", "", "Take back");
    b.id = "reverse";
    b.onclick = () => {
      const why = prompt(`Take back game ${r.game}'s payout of ${r.stage}? Say why (it is logged; the game stays ended):`);
      if (why) act(async () => ({ state: await api("POST", "/api/payouts/void", { stage: r.stage, reason: why }) }));
    };
    row.append(b);
    parts.push(row);
  }
  $("gameinfo").replaceChildren(...parts);
  const blower = !!g && g.balls_from === "blower";
  $("blower").hidden = !blower; $("rngrow").hidden = blower;
  $("blowernote").textContent = blower ? "balls from the blower: key in each ball drawn" : "";
  if (blower && $("keypad").childElementCount !== g.balls) {
    $("keypad").replaceChildren(...Array.from({ length: g.balls }, (_, i) => {
      const b = el("button", "", Speech.labels.length ? `${i + 1} ${Speech.name(i + 1)}` : i + 1);
      b.onclick = () => enterBall(i + 1);
      return b;
    }));
  }
  if (blower) [...$("keypad").children].forEach((b, i) => { const c = g.calls.includes(i + 1); b.disabled = c; b.className = c ? "called" : ""; });
  const open = g && g.concurrent ? g.prizes.filter(p => !p.won_at).map(p => p.pattern) : [];
  $("prizerow").hidden = !open.length;
  const want = ["any open prize"].concat(open);
  if ([...$("prizesel").options].map(o => o.value).join() !== want.join()) $("prizesel").replaceChildren(...want.map(p => new Option(p, p)));
  $("tradrow").hidden = s.balls !== 90;
}
function enterBall(n) { act(() => api("POST", "/api/calls", { ball: n })); }
$("enter").onclick = () => { const n = parseInt($("ballin").value, 10); $("ballin").value = ""; if (n) enterBall(n); else shown("Type the number of the ball drawn."); };
$("ballin").addEventListener("keydown", e => { if (e.key === "Enter") { e.preventDefault(); $("enter").click(); } });
$("next").onclick = () => act(async () => ({ state: await api("POST", "/api/games", {}) }));
Speech.wire($("speak"), $("trad"));
async function act(f) { try { shown(); render((await f()).state || state); } catch (e) { shown(e); } }
$("start").onclick = () => act(async () => ({ state: await api("POST", "/api/games", Object.assign(chosen(),
  { prize: $("prize").value, last_call_must_complete: $("lastcall").checked })) }));
$("end").onclick = () => { if (confirm("End the game and reveal its seed?")) act(() => api("POST", "/api/games/end")); };
$("call").onclick = () => act(() => api("POST", "/api/calls"));
$("mix").onclick = () => act(async () => ({ state: await api("POST", "/api/games/room-seed", { room_seed: $("room").value }) }));
$("undo").onclick = () => { if (confirm("Take back the last call? It stays in the log as a recall.")) act(() => api("DELETE", "/api/calls/last")); };
async function claim(accept) {
  const card = $("claim").value.trim();
  if (!card) return;
  try {
    shown();
    const body = { card, accept };
    if (!$("prizerow").hidden && $("prizesel").value !== "any open prize") body.prize = $("prizesel").value;
    const v = await api("POST", "/api/claims", body);
    const parts = [el("div", "verdict " + (v.win ? "win" : "lose"), (v.win ? "BINGO" : "NOT A WIN") + (v.label ? " · " + v.label : "")),
      el("div", "", v.reason)];
    if (v.face) parts.push(grid(v.face));
    if (accept) {
      parts.push(el("p", "", el("b", "", v.accepted ? "Win accepted." : "Not accepted.")));
      if (v.payout) parts.push(el("p", "", `${v.stage}: ${v.payout.text}`));
      if (v.near) parts.push(el("p", "", v.near));
      if (v.also_winning && v.also_winning.length) parts.push(el("p", "", "Shared with: " + v.also_winning.join(", ")));
    } else if (v.win && v.split) {
      parts.push(el("p", "", el("b", "", "Accept pays: "), v.split));
    }
    $("verdict").replaceChildren(...parts);
    $("accept").hidden = !(v.win && !accept);
    const s = await (await fetch("/api/state")).json(); render(s);
  } catch (e) {
    $("verdict").replaceChildren(el("div", "verdict lose", "NO SUCH CARD"));
    $("accept").hidden = true;
    shown(e);
  }
}
$("check").onclick = () => claim(false);
$("accept").onclick = () => claim(true);
$("claim").addEventListener("keydown", e => { if (e.key === "Enter") { e.preventDefault(); claim(false); } });
document.addEventListener("keydown", e => {
  const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
  if (e.code === "Space" && !typing && !$("call").disabled && !$("rngrow").hidden) { e.preventDefault(); $("call").click(); }
});
// Players' claims from their phones, in arrival order, each judged when it
// arrived; the caller accepts or rejects each.
let queueShown = "";
async function decide(id, accept) {
  try {
    shown();
    const v = await api("POST", "/api/claims", { queued: id, accept });
    $("verdict").replaceChildren(el("div", "verdict " + (v.accepted ? "win" : "lose"),
      (v.accepted ? "ACCEPTED" : "REJECTED") + " · claim " + id + (v.label ? " · " + v.label : "")), el("div", "", v.reason),
      el("div", "", v.payout ? `${v.stage}: ${v.payout.text}` : ""), el("div", "", v.near || ""));
    await refreshQueue();
  } catch (e) { shown(e); }
}
async function refreshQueue() {
  if (!key) return;
  try {
    const q = (await api("GET", "/api/queue")).queue;
    const text = JSON.stringify(q);
    if (text === queueShown) return;
    queueShown = text;
    $("queued").textContent = q.length ? `(${q.length} waiting)` : "(none waiting)";
    const losers = q.filter(w => !w.win).length;
    $("rejectall").hidden = losers < 2;
    $("rejectall").textContent = `Reject the ${losers} claims that are not a win`;
    $("queue").replaceChildren(...q.map(w => {
      const accept = el("button", "go", "Accept"), reject = el("button", "", "Reject");
      accept.onclick = () => decide(w.id, true);
      reject.onclick = () => decide(w.id, false);
      accept.disabled = !w.win;
      const li = el("li", w.win ? "win" : "lose",
        el("div", "", el("b", "", `#${w.id} ${w.label || w.card}`), ` · ${w.stage} at call ${w.call} · `, el("b", "", w.win ? "WINS" : "NOT A WIN")),
        el("div", "", w.reason));
      if (w.split) li.append(el("div", "", el("b", "", "Accept pays: "), w.split));
      if (w.face) li.append(grid(w.face));
      li.append(el("div", "row", accept, reject));
      return li;
    }));
  } catch (e) { /* the next turn tries again */ }
}
$("rejectall").onclick = async () => {
  try {
    shown();
    const v = await api("POST", "/api/queue/reject", {});
    $("verdict").replaceChildren(el("div", "verdict lose", `REJECTED · ${v.rejected} claims that were not a win`));
    await refreshQueue();
  } catch (e) { shown(e); }
};
setInterval(refreshQueue, 1000);
refreshQueue();
if (!key) shown("This address has no console key: use the console address the hall printed.");
Speech.load().finally(() => followHall(render, () => {}));
