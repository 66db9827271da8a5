"use strict";
// What every page of the hall shares. What the hall or a client sent is
// shown as text: elements are made with el() and filled with text, never
// by building markup from data (the pages' Content-Security-Policy allows
// no inline script either).
const $ = id => document.getElementById(id);
// An element with a class and text (or children).
function el(tag, cls, ...content) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const c of content) e.append(c instanceof Node ? c : String(c));
  return e;
}
// Cell i of a face of the hall's cards: the free cell (its text), a blank,
// or the number's text, as the state's card shape says (no page guesses it).
function cellText(card, i, n, label) {
  if (n !== 0) return label ? label(n) : String(n);
  return card && card.free === i ? card.free_text : "";
}
// A face as judged (the console's verdict, the board's winner): numbers
// called marked, blanks apart from them, the winning way lit, the last
// number called ringed. `label` names an items game's ball.
function faceTable(face, card, label) {
  const t = el("table", "face");
  for (let r = 0; r < face.rows; r++) {
    const tr = t.insertRow();
    for (let c = 0; c < face.cols; c++) {
      const i = r * face.cols + c, n = face.cells[i];
      const td = tr.insertCell();
      const free = n === 0 && card && card.free === i;
      const cls = [n === 0 && !free ? "blank" : face.marked[i] ? "m" : ""];
      if (face.line && face.line[i] && (n !== 0 || free)) cls.push("line");
      if (face.last === i) cls.push("last");
      td.className = cls.join(" ").trim();
      td.textContent = cellText(card, i, n, label);
    }
  }
  return t;
}
// A JSON Patch (RFC 6902: add, remove, replace) applied to a copy of doc;
// null when an operation does not apply (the page then asks again).
function patched(doc, ops) {
  const unescape = k => k.replace(/~1/g, "/").replace(/~0/g, "~");
  doc = structuredClone(doc);
  for (const op of ops) {
    if (op.path === "") { if (op.op !== "replace") return null; doc = op.value; continue; }
    const keys = op.path.split("/").slice(1).map(unescape);
    const last = keys.pop();
    let at = doc;
    for (const k of keys) { if (at === null || typeof at !== "object" || !(k in at)) return null; at = at[k]; }
    if (at === null || typeof at !== "object") return null;
    if (Array.isArray(at)) {
      const i = last === "-" ? at.length : Number(last);
      if (!Number.isInteger(i) || i < 0 || i > at.length - (op.op === "add" ? 0 : 1)) return null;
      if (op.op === "add") at.splice(i, 0, op.value);
      else if (op.op === "remove") at.splice(i, 1);
      else if (op.op === "replace") at[i] = op.value;
      else return null;
    } else {
      if (op.op !== "add" && !(last in at)) return null;
      if (op.op === "add" || op.op === "replace") at[last] = op.value;
      else if (op.op === "remove") delete at[last];
      else return null;
    }
  }
  return doc;
}
// Follows the hall's live state: the stream sends it whole first, then
// each change as a numbered patch to it. A patch out of turn, or one that
// does not apply, and the page reconnects (and is sent it whole again).
// show(state) is called with each state; online(true/false) as the
// stream opens and drops. The last state stays in followHall.state.
function followHall(show, online) {
  let state = null, seq = 0;
  const open = () => {
    const es = new EventSource("/api/events");
    es.onopen = () => online(true);
    es.onerror = () => online(false);
    es.onmessage = e => {
      const m = JSON.parse(e.data);
      const next = m.state !== undefined ? m.state : m.seq === seq + 1 && state !== null ? patched(state, m.patch) : null;
      if (next === null) { es.close(); state = null; online(false); setTimeout(open, 1000); return; }
      state = next; seq = m.seq;
      followHall.state = state;
      show(state);
    };
  };
  open();
}
