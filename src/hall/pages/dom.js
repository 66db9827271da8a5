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
