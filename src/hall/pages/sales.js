"use strict";
// The console's sales: paper issued to the floor by serial range, returned
// unsold, a sale voided, the head count, and the night's receipts. The hall
// keeps every amount in cents; this page only writes them out. Everything
// is shown as text.
const Sales = (() => {
  // Amounts in the night's currency, as the hall writes them (£12.00).
  let currency = "";
  const cents = m => `${currency}${Math.floor(m / 100)}.${String(m % 100).padStart(2, "0")}`;
  // A late sale plays the games still to come when it was made.
  const late = x => x.games && x.games.length ? ` (late: games ${x.games.join(", ")})` : "";
  // A sale names the drawer (or seller) taking it, when one is typed.
  // An electronic product sold as packs takes no range: the hall issues
  // the next pack from the faces it keeps for electronic play.
  let packs = new Set();
  const face = () => {
    const f = { product: $("product").value };
    if (!packs.has(f.product)) { f.first = Number($("first").value); f.last = Number($("last").value); }
    if ($("drawer").value.trim()) f.drawer = $("drawer").value.trim();
    return f;
  };
  const rangeShown = () => { $("range").hidden = packs.has($("product").value); };
  // A pack issued: its code and QR code, for the player's phone.
  function packMade(p) {
    $("packmade").hidden = !p;
    if (!p) return;
    $("packcode").textContent = `Pack ${p.pack}: code ${p.code}`;
    $("packurl").textContent = p.url;
    const n = p.qr.length, quiet = 4, size = n + 2 * quiet, c = $("packqr");
    c.width = c.height = size * 6;
    const ctx = c.getContext("2d");
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, c.width, c.height); ctx.fillStyle = "#000";
    p.qr.forEach((row, y) => [...row].forEach((m, x) => { if (m === "1") ctx.fillRect((x + quiet) * 6, (y + quiet) * 6, 6, 6); }));
    c.setAttribute("aria-label", `QR code of ${p.url}`);
  }
  // A count by notes and coins, as the hall keeps it: [[2000, 4], [100, 6]].
  const notes = ds => ds && ds.length ? ` (${ds.map(([v, n]) => `${n} × ${cents(v)}`).join(", ")})` : "";
  // The cash counted as typed: an amount (104.00), or notes and coins
  // (4 x 20.00, 6 x 1.00; × or x), which the hall adds up.
  const counted = text => {
    if (!/[x×]/i.test(text)) return { amount: text };
    const parts = text.split(",").map(p => p.trim()).filter(Boolean).map(p => p.split(/\s*[x×]\s*/i));
    if (parts.some(p => p.length !== 2 || !/^\d+$/.test(p[0]))) throw new Error("write the notes and coins as 4 x 20.00, 6 x 1.00");
    return { denominations: parts.map(([n, v]) => [v, Number(n)]) };
  };
  const over = o => o === 0 ? "exact" : o > 0 ? `over ${cents(o)}` : `short ${cents(-o)}`;
  function render(r) {
    const s = r.sales;
    currency = r.currency || "";
    $("salesbox").hidden = !s.products.length;
    if (!s.products.length) return;
    const sel = $("product");
    if (!sel.options.length) for (const p of s.products) sel.add(new Option(`${p.name} · ${cents(p.price)} for ${p.faces}${p.packs ? " (electronic pack)" : ""}`, p.name));
    packs = new Set(s.products.filter(p => p.packs).map(p => p.name));
    rangeShown();
    packMade(r.pack);
    const people = r.attendance === undefined ? "" : ` · head count ${r.attendance}`;
    $("salestotal").textContent = `receipts ${cents(s.net)} (paper ${cents(s.paper)}, electronic ${cents(s.electronic)}) · ${s.faces} faces sold${people}`;
    const head = el("tr", "", ...["Sale", "Product", "Faces", "Amount", "Returned", "Net"].map(h => el("th", "", h)));
    $("saleslist").replaceChildren(head, ...s.sales.map(x => el("tr", x.void ? "void" : "",
      el("td", "", x.sale), el("td", "", x.product + late(x)), el("td", "", `${x.first}..${x.last}`), el("td", "", cents(x.amount)),
      el("td", "", x.returned.join(", ")), el("td", "", x.void ? `void: ${x.void}` : cents(x.net)))));
    const m = r.made;
    const cash = s.drawers || [];
    $("cashup").replaceChildren(...(cash.length ? [el("tr", "", ...["Drawer", "Float", "Takings", "Expected", "Counted", "Over or short", "Deposit"].map(h => el("th", "", h)))] : []),
      ...cash.map(d => el("tr", "", el("td", "", d.drawer), el("td", "", cents(d.float)), el("td", "", cents(d.takings)), el("td", "", cents(d.expected)),
        el("td", "", d.counted === undefined ? "not counted" : cents(d.counted) + notes(d.denominations)), el("td", "", d.over === undefined ? "" : over(d.over)),
        el("td", "", d.deposit === undefined ? "" : cents(d.deposit)))));
    $("salemade").textContent = !m ? "" : m.event === "cash_float" ? `drawer ${m.drawer}: float ${cents(m.amount)}` :
      m.event === "cash_count" ? `drawer ${m.drawer}: counted ${cents(m.counted)}${notes(m.denominations)}, expected ${cents(m.expected)}, ${over(m.over)}; deposit ${cents(m.deposit)}` : m.event === "sale" ? `sale ${m.sale}: ${m.units} × ${m.product}, faces ${m.first}..${m.last}, ${cents(m.amount)}${late(m)}` :
      m.event === "sale_return" ? `returned faces ${m.first}..${m.last} of sale ${m.sale}: ${cents(m.amount)} refunded` : `sale ${m.sale} voided: ${cents(m.amount)} no longer taken`;
  }
  function act(path, body) {
    api("POST", path, body).then(r => { $("saleerror").textContent = ""; render(r); })
      .catch(e => { $("saleerror").textContent = e.message; });
  }
  $("product").onchange = rangeShown;
  $("sell").onclick = () => act("/api/sales", face());
  $("giveback").onclick = () => act("/api/sales/return", face());
  $("voidbtn").onclick = () => act("/api/sales/void", { sale: Number($("voidsale").value), reason: $("voidwhy").value });
  $("floatbtn").onclick = () => act("/api/cash/float", { drawer: $("drawer").value.trim(), amount: $("cash").value.trim() });
  $("countbtn").onclick = () => {
    let body;
    try { body = { drawer: $("drawer").value.trim(), ...counted($("cash").value.trim()) }; } catch (e) { $("saleerror").textContent = e.message; return; }
    act("/api/cash/count", body);
  };
  $("peoplebtn").onclick = () => act("/api/attendance", { count: Number($("people").value) });
  api("GET", "/api/sales").then(render).catch(e => { $("saleerror").textContent = e.message; });
  return { render };
})();
