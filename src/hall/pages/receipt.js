"use strict";
// A phone's receipts: each pack it holds and every transaction of it, as
// the hall logged them, to show at the door or the office.
Packs.mine().then(packs => {
  $("none").hidden = packs.length > 0;
  $("receipts").replaceChildren(...packs.map(Packs.receipt));
}).catch(e => { $("error").textContent = e.message; });
