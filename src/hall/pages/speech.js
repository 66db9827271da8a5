"use strict";
// Calls spoken through the browser's speech synthesis, for the console and
// the board (a switch, off by default, kept in this browser). What is
// spoken is also written to #spoken (an aria-live region), so a screen
// reader hears it and a test can read it.
const TRADITIONAL = {
  1: "Kelly's eye", 2: "One little duck", 3: "Cup of tea", 4: "Knock at the door", 5: "Man alive",
  6: "Half a dozen", 7: "Lucky seven", 8: "Garden gate", 9: "Doctor's orders", 11: "Legs eleven",
  12: "One dozen", 13: "Unlucky for some", 14: "Valentine's Day", 15: "Young and keen",
  16: "Sweet sixteen", 17: "Dancing queen", 18: "Coming of age", 19: "Goodbye teens",
  20: "One score", 21: "Key of the door", 22: "Two little ducks", 23: "Thee and me",
  24: "Two dozen", 25: "Duck and dive", 26: "Pick and mix", 27: "Gateway to heaven",
  28: "Overweight", 29: "Rise and shine", 30: "Dirty Gertie", 31: "Get up and run",
  32: "Buckle my shoe", 33: "Dirty knee", 34: "Ask for more", 35: "Jump and jive",
  36: "Three dozen", 39: "Steps", 44: "Droopy drawers", 45: "Halfway there", 48: "Four dozen",
  50: "Half a century", 52: "Deck of cards", 55: "Snakes alive", 57: "Heinz varieties",
  59: "Brighton line", 60: "Five dozen", 62: "Tickety-boo", 64: "Almost retired",
  66: "Clickety click", 69: "Either way up", 71: "Bang on the drum", 72: "Six dozen",
  73: "Queen bee", 76: "Trombones", 77: "Sunset strip", 80: "Eight and blank",
  81: "Stop and run", 84: "Seven dozen", 86: "Between the sticks", 88: "Two fat ladies",
  89: "Nearly there", 90: "Top of the shop",
};
const Speech = {
  on: localStorage.getItem("bingomint.speak") === "1",
  traditional: localStorage.getItem("bingomint.traditional") === "1",
  said: null,
  // An items game's labels (ball n at n - 1) and free text, from
  // /api/labels; no labels in a game of numbers.
  labels: [],
  free: null,
  // Fetches the labels once, before the first state is shown.
  load() {
    return fetch("/api/labels").then(r => r.json())
      .then(l => { Speech.labels = l.labels || []; Speech.free = l.free; }).catch(() => {});
  },
  // Ball n as the room reads it: its label, or its number.
  name(n) { return Speech.labels.length ? Speech.labels[n - 1] : String(n); },
  // The words for ball n: an item's label; "B 12" where the game has
  // letters; in 90-ball, optionally the traditional call before the number.
  words(state, n) {
    if (Speech.labels.length) return Speech.name(n);
    const letters = state.letters || [];
    if (letters.length) return letters[Math.floor((n - 1) / (state.balls / letters.length))] + " " + n;
    if (state.balls === 90 && Speech.traditional && TRADITIONAL[n]) return TRADITIONAL[n] + ", " + n;
    return String(n);
  },
  // The night file's languages, spoken in turn (none: the browser's own).
  languages: [],
  // Speaks `text` in each of the night's languages in turn; `plain`, if
  // given, in a language other than English (the traditional calls are
  // English).
  say(text, plain) {
    const langs = Speech.languages.length ? Speech.languages : [""];
    const said = langs.map(lang => ({ lang, text: lang && !lang.startsWith("en") && plain ? plain : text }));
    const out = document.getElementById("spoken");
    if (out) out.textContent = said.map(s => s.text + (s.lang ? ` (${s.lang})` : "")).join(" · ");
    if (window.speechSynthesis && window.SpeechSynthesisUtterance) {
      for (const s of said) {
        const u = new SpeechSynthesisUtterance(s.text);
        if (s.lang) u.lang = s.lang;
        u.rate = 0.9;
        window.speechSynthesis.speak(u);
      }
    }
  },
  // Speaks what changed since the last state: a new call or a recall.
  follow(state) {
    const g = state.game;
    const key = g ? `${g.game}:${g.calls.length}:${g.announcement || ""}` : "";
    if (Speech.said === null || !g) { Speech.said = key; return; }
    if (key === Speech.said) return;
    Speech.said = key;
    if (!Speech.on) return;
    Speech.languages = state.languages || [];
    if (g.announcement) Speech.say(g.announcement);
    else if (g.calls.length) {
      const n = g.calls[g.calls.length - 1];
      const trad = Speech.traditional;
      Speech.traditional = false;
      const plain = Speech.words(state, n);
      Speech.traditional = trad;
      Speech.say(Speech.words(state, n), plain);
    }
  },
  // Wires a checkbox (and the traditional-calls one, if any) to the switch.
  wire(box, trad) {
    box.checked = Speech.on;
    box.onchange = () => { Speech.on = box.checked; localStorage.setItem("bingomint.speak", box.checked ? "1" : "0"); };
    if (trad) {
      trad.checked = Speech.traditional;
      trad.onchange = () => { Speech.traditional = trad.checked; localStorage.setItem("bingomint.traditional", trad.checked ? "1" : "0"); };
    }
  },
};
