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
