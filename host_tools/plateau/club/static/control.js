// The operator's page, its part that drives stand-alone tables (club/control.py): start a game
// with its settings and its seats' names, undo, pause, resume; each table's answer is shown.
// Every action carries a key made for it here, and a click repeated with the same key names the
// same write, which the scoreboard does not send again as a new command: the start form keeps
// its key until one of its fields changes (the same game started twice from an unchanged form
// is one game); a word's button keeps its key until REPEAT_MS after the answer (a double click
// is one undo, a second press later is another). As in club.js, everything is put in the page
// as text.
"use strict";
// Run once club.js has drawn the operator's page (its DOMContentLoaded handler, registered
// first, replaces the page's main part): this part is added under it.
document.addEventListener("DOMContentLoaded", function () {
  if (document.body.dataset.page !== "operator") return;

  function make(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined && v !== false) e.setAttribute(k, String(v));
    }
    for (const k of kids.flat(Infinity)) {
      if (k === null || k === undefined || k === false) continue;
      e.appendChild(k instanceof Node ? k : document.createTextNode(String(k)));
    }
    return e;
  }
  function empty(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function key() { // 16 random bytes in hex (crypto.getRandomValues works without https too)
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }
  const REPEAT_MS = 2000;
  const token = () => (document.getElementById("token") || {}).value || "";
  const by = () => (document.getElementById("by") || {}).value || "";
  const auth = () => ({ Authorization: "Bearer " + token() });

  const box = make("section", { id: "control" }, make("h2", {}, "Tables on Wi-Fi: start a game, undo, pause, resume"));
  const list = make("div", { id: "control-tables" });
  const writes = make("div", { id: "control-writes" });
  const note = make("p", { id: "control-said", class: "muted" });
  box.append(note, list, make("h2", {}, "Writes to tables"), writes);
  document.getElementById("main").appendChild(box);

  let games = [];
  const shown = {}; // table -> its row's parts

  function what(c) {
    if (!c || typeof c !== "object") return "?";
    if (c.cmd !== "new") return String(c.cmd);
    const s = Object.entries(c).filter(([k]) => !["cmd", "id", "game", "names"].includes(k)).map(([k, v]) => k + "=" + v);
    const n = c.names ? Object.entries(c.names).map(([s2, p]) => s2 + "=" + p) : [];
    return ["new", c.game, ...s, n.length ? "names " + n.join(",") : ""].filter((x) => x).join(" ");
  }
  function said(w) {
    if (w.status === "done") return "done";
    if (w.status === "sent") return "sent (" + w.sent + "x), waiting for the table's answer";
    if (w.status === "refused") return "the table refused: " + (w.why || "");
    if (w.status === "unanswered") return "no answer: " + (w.why || "");
    return "not sent: " + (w.why || "");
  }

  async function send(table, body, el, out, keep) {
    if (!token()) { out.textContent = "give the operator's token first"; return; }
    el.dataset.key = el.dataset.key || key();
    out.textContent = table + ": " + what(body) + ": sending";
    let r;
    try {
      r = await fetch("/api/table/" + encodeURIComponent(table) + "/command", {
        method: "POST", headers: { "Content-Type": "application/json", ...auth() },
        body: JSON.stringify({ ...body, key: el.dataset.key, by: by() }) });
    } catch (e) { out.textContent = table + ": the scoreboard did not answer (" + e + "): send again"; return; }
    let d = {};
    try { d = await r.json(); } catch (e) { d = { why: r.status + " " + r.statusText }; }
    if (!r.ok || !d.ok) {
      out.textContent = table + ": refused: " + (d.why || r.status);
      out.dataset.status = "refused";
      delete el.dataset.key;
    } else {
      out.textContent = table + ": " + what(d.write.command) + ": " + said(d.write) +
        (d.again ? " (the same click again: " + (keep ? "change the form to start another game)" : "one write)") : "");
      out.dataset.status = d.write.status;
      const k = el.dataset.key;
      if (d.write.status !== "sent" && !keep) { // answered: a later press is another write
        setTimeout(() => { if (el.dataset.key === k) delete el.dataset.key; }, REPEAT_MS);
      }
    }
    load();
  }

  function field(f) {
    const name = "s-" + f.name;
    let input;
    if (f.kind === "choice") {
      input = make("select", { name, "data-setting": f.name }, f.choices.map((c) => make("option", { value: String(c) }, String(c))));
      if (f.default !== null) input.value = String(f.default);
    } else {
      input = make("input", { name, "data-setting": f.name, type: f.kind === "int" ? "number" : "text",
        min: f.kind === "int" ? f.lo : null, max: f.kind === "int" ? f.hi : null, placeholder: f.default === null ? "(none)" : "" });
      if (f.default !== null) input.value = String(f.default);
    }
    input.dataset.kind = f.kind;
    return make("label", {}, f.name + " ", input);
  }

  function settingsOf(form) {
    const g = games.find((x) => x.game === form.querySelector("[name=game]").value);
    const out = {};
    for (const i of form.querySelectorAll("[data-setting]")) {
      const v = i.value.trim();
      if (v === "") continue;
      const f = g.settings.find((x) => x.name === i.dataset.setting);
      if (f.kind === "int") out[f.name] = Number(v);
      else if (f.kind === "choice") out[f.name] = f.choices.find((c) => String(c) === v);
      else out[f.name] = v;
    }
    return out;
  }

  async function seats(form) {
    // the seats of the game and settings chosen (the server asks the game's host module);
    // an answer overtaken by a later change is dropped, and fields of the same seats stay as
    // they are (what was typed in them kept)
    const holder = form.querySelector(".names");
    const asked = (form.dataset.asked = String(Number(form.dataset.asked || 0) + 1));
    const game = form.querySelector("[name=game]").value;
    const r = await fetch("/api/seats/" + encodeURIComponent(game) + "?settings=" + encodeURIComponent(JSON.stringify(settingsOf(form))));
    const d = await r.json();
    if (form.dataset.asked !== asked) return;
    const have = Array.from(holder.querySelectorAll("input"), (i) => i.dataset.seat);
    if (d.ok && have.join(",") === d.seats.join(",")) return;
    const typed = {};
    for (const i of holder.querySelectorAll("input")) typed[i.dataset.seat] = i.value;
    empty(holder);
    if (!d.ok) { holder.append(make("span", { class: "muted" }, d.why)); return; }
    for (const s of d.seats) {
      const i = make("input", { "data-seat": s, placeholder: "player at " + s, maxlength: 16 });
      i.value = typed[s] || "";
      holder.append(make("label", {}, "seat " + s + " ", i));
    }
  }

  function startForm(table, out) {
    const pick = make("select", { name: "game" }, games.map((g) => make("option", { value: g.game }, g.game)));
    const fields = make("span", { class: "settings" });
    const names = make("span", { class: "names" });
    const button = make("button", { type: "submit", "data-word": "new" }, "start the game");
    const form = make("form", { class: "operator start", "data-table": table }, "new game ", pick, " ", fields, " names: ", names, " ", button);
    const redraw = () => {
      empty(fields);
      const g = games.find((x) => x.game === pick.value);
      for (const f of g.settings) fields.append(field(f), " ");
      seats(form);
    };
    pick.addEventListener("change", () => { delete button.dataset.key; redraw(); });
    fields.addEventListener("change", () => { delete button.dataset.key; seats(form); });
    names.addEventListener("change", () => delete button.dataset.key);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const body = { cmd: "new", game: pick.value, settings: settingsOf(form) };
      const n = {};
      for (const i of names.querySelectorAll("input")) if (i.value.trim()) n[i.dataset.seat] = i.value.trim();
      if (Object.keys(n).length) body.names = n;
      send(table, body, button, out, true);
    });
    redraw();
    return form;
  }

  function row(t) {
    const status = make("span", { class: "muted" });
    const words = make("span", { class: "words" });
    const out = make("p", { class: "said", "data-table": t.table });
    const form = t.takes ? startForm(t.table, out) : null;
    const div = make("div", { class: "control", "data-table": t.table }, make("b", {}, t.table + " "), status, " ", words, form, out);
    list.append(div);
    return { div, status, words, out };
  }

  function update(t) {
    const r = shown[t.table] || (shown[t.table] = row(t));
    r.status.textContent = (t.game || "no game yet") + ", " + (t.live ? "online" : "offline") +
      (t.takes ? "" : ": bridged from a laptop (plateau send at the table drives it)");
    const have = Array.from(r.words.querySelectorAll("button")).map((b) => b.dataset.word).join(",");
    const want = t.takes ? t.words.filter((w) => w !== "new") : [];
    if (have !== want.join(",")) {
      empty(r.words);
      for (const w of want) {
        const b = make("button", { type: "button", "data-word": w }, w);
        b.addEventListener("click", () => send(t.table, { cmd: w }, b, r.out));
        r.words.append(b, " ");
      }
    }
  }

  async function load() {
    if (!games.length) games = (await (await fetch("/api/games")).json()).games;
    if (!token()) { note.textContent = "the operator's token drives the tables"; return; }
    const r = await fetch("/api/control", { headers: auth() });
    if (!r.ok) { note.textContent = "refused: " + (await r.text()); return; }
    note.textContent = "";
    const d = await r.json();
    for (const t of d.tables) update(t);
    empty(writes);
    writes.append(make("table", { class: "grid" },
      make("tr", {}, ["when", "who", "table", "what", "id", "answer"].map((h) => make("th", {}, h))),
      d.writes.map((w) => make("tr", { "data-write": w.id, "data-status": w.status },
        make("td", {}, new Date(w.at * 1000).toLocaleTimeString()), make("td", {}, w.who), make("td", {}, w.table),
        make("td", {}, what(w.command)), make("td", {}, (w.command && w.command.id) || ""), make("td", {}, said(w))))));
  }

  document.addEventListener("change", (e) => { if (e.target && e.target.id === "token") load(); });
  load();
  setInterval(load, 2000);
});
