"use strict";
// Electronic packs on a player's phone: the device's own secret (made once
// and kept here; the hall logs only a name made from it), a pack opened
// with the one-time code on its receipt, the device's packs and their
// receipts. Everything the hall sends is shown as text.
const Packs = {
  // This phone's secret: 32 hex digits, made once.
  device() {
    let d = localStorage.getItem("bingomint.device");
    if (!d || !/^[0-9a-f]{32}$/.test(d)) {
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      d = [...bytes].map(b => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem("bingomint.device", d);
    }
    return d;
  },
  async post(path, body) {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const j = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) throw new Error(j.error || r.statusText);
    return j;
  },
  // Opens the pack whose code is `code` on this phone: the pack.
  open(code) { return Packs.post("/api/packs/load", { code: code.trim(), device: Packs.device() }); },
  // This phone's packs, with their faces and receipts.
  mine() { return Packs.post("/api/packs", { device: Packs.device() }).then(r => r.packs); },
  // The games a pack plays, in words.
  games(p) { return p.games.length ? "games " + p.games.join(", ") : "every game"; },
  // A pack's receipt: its transactions, as the hall logged them.
  receipt(p) {
    const box = el("section", "receipt");
    box.setAttribute("aria-labelledby", "pack" + p.pack);
    const h = el("h2", "", `Pack ${p.pack}: ${p.product}`);
    h.id = "pack" + p.pack;
    box.append(h, el("p", "", `Faces ${p.first} to ${p.last} · plays ${Packs.games(p)}${p.void ? " · voided and refunded" : ""}`));
    const t = el("table", "txns");
    t.append(el("caption", "", `Transactions of pack ${p.pack}`));
    const head = el("tr", "", ...["Transaction", "Time (UTC)", "What", "Amount", "Faces", "Device"].map(x => {
      const th = el("th", "", x); th.scope = "col"; return th;
    }));
    t.append(head);
    for (const l of p.receipt) {
      const tr = el("tr", "", el("td", "", l.txn), el("td", "", l.time), el("td", "", l.words),
        el("td", "", l.amount || "–"), el("td", "", l.faces), el("td", "", l.device || "–"));
      tr.dataset.txn = l.txn;
      t.append(tr);
    }
    box.append(t);
    return box;
  },
};
