// Plateau club pages. Everything a board (or a log, or a broker) says is put in the page as
// text (textContent, attribute values through setAttribute), never parsed as markup: there is
// no innerHTML in this file. The page keeps what it applied in window.plateau.applied (the
// tests read it to measure event-to-DOM latency).
"use strict";

// plateau.page: how the table's game is drawn, its host module's PAGE (plateau/games/<game>):
// one of the drawings below (DRAWINGS) or rows of its view, its seats' names, its deck. The
// page names no game: the games come from the server (data-games, each state's page).
const plateau = (window.plateau = { applied: [], state: null, players: {}, page: {} });
const GAMES = (document.body.dataset.games || "").split(",").filter((g) => g);
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SPANISH_SUITS = { O: "oros", C: "copas", E: "espadas", B: "bastos" };

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined && v !== false) e.setAttribute(k, String(v));
  }
  for (const k of kids.flat(Infinity)) { // (one level left arrays as "[object ...]" text)
    if (k === null || k === undefined || k === false) continue;
    e.appendChild(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = String(text);
  return e;
}

function replace(node, ...kids) {
  while (node.firstChild) node.removeChild(node.firstChild);
  for (const k of kids.flat(Infinity)) {
    if (k === null || k === undefined || k === false) continue;
    node.appendChild(k instanceof Node ? k : document.createTextNode(String(k)));
  }
}

function status(text, cls) {
  const s = document.getElementById("status");
  s.textContent = text;
  s.className = "status " + (cls || "");
}

function nav() {
  const n = document.getElementById("nav");
  for (const g of GAMES) {
    n.appendChild(el("a", { href: "/league/" + g }, "league: " + g));
  }
  n.appendChild(el("a", { href: "/results" }, "results"));
  n.appendChild(el("a", { href: "/tv" }, "TV"));
}

function seatName(seat) {
  // a seat's player: named for it, or for the pair it is one colour of (Tock for 2: "R+B")
  const key = Object.keys(plateau.players).find((k) => k === String(seat)) ??
    Object.keys(plateau.players).find((k) => k.split("+").includes(String(seat)));
  const who = key === undefined ? null : plateau.players[key];
  const named = plateau.page.seats; // a game whose seats have names (Tock's colours)
  const base = named ? String(seat).split("+").map((c) => named[c] || c).join("+") : "seat " + seat;
  return who ? who + " (" + base + ")" : base;
}

function cardFace(text) {
  const t = String(text);
  const suit = t.slice(-1);
  const rank = t.slice(0, -1);
  if (plateau.page.deck === "spanish") {
    return el("span", { class: "cardface", "data-card": t }, rank + " " + (SPANISH_SUITS[suit] || suit));
  }
  const red = suit === "H" || suit === "D";
  return el("span", { class: "cardface" + (red ? " red" : ""), "data-card": t }, rank + (SUITS[suit] || suit));
}

// --- live connection ---------------------------------------------------------------------------

function connect(query, onMessage) {
  let delay = 250;
  const handle = { ws: null, closed: false, close() { this.closed = true; if (this.ws) this.ws.close(); } };
  function open() {
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = handle.ws = new WebSocket(proto + location.host + "/ws" + query);
    ws.onopen = () => { delay = 250; status("live", "live"); };
    ws.onmessage = (m) => {
      let msg;
      try { msg = JSON.parse(m.data); } catch (e) { return; }
      onMessage(msg);
    };
    ws.onclose = () => {
      if (handle.closed) return;
      status("reconnecting", "down");
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    };
  }
  open();
  return handle;
}

// when a table was last heard, as a person reads it: "19:02:13, 3 min ago"
function heardText(at) {
  if (!at) return "never";
  const ago = Math.max(0, Math.round(Date.now() / 1000 - at));
  const when = new Date(at * 1000).toLocaleTimeString();
  return when + ", " + (ago < 90 ? ago + " s ago" : Math.round(ago / 60) + " min ago");
}

// what a page shows is live, or as of when the table was last heard (and why not live)
function liveness(msg) {
  if (msg.live !== false) return null;
  return el("div", { class: "banner stale", id: "not-live" },
    el("b", {}, "Not live: "), msg.why || "", " \u00b7 last heard " + heardText(msg.heard));
}

// a moment as a person reads it, in this machine's time: "2026-12-02 21:04"
function when(t) {
  if (typeof t !== "number" || !isFinite(t) || t <= 0) return "";
  const d = new Date(t * 1000), two = (n) => String(n).padStart(2, "0");
  return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + " " + two(d.getHours()) + ":" + two(d.getMinutes());
}

// the same, the date and the time each kept on one line: a narrow column wraps between them
function whenParts(t) {
  const s = when(t);
  return s ? [el("span", { class: "nobr" }, s.slice(0, 10)), " ", el("span", { class: "nobr" }, s.slice(11))] : "";
}

// the links to what was played: a moment of a table's log (its game's moves beside it), a player
function momentHref(table, epoch, line) {
  return "/table/" + encodeURIComponent(table) + "/at/" + encodeURIComponent(epoch) + "/" + line;
}
function playerLink(name) {
  return el("a", { href: "/player?name=" + encodeURIComponent(name), class: "player" }, name);
}

function applied(table, state) {
  plateau.applied.push({ table: table, line: state.line, seq: state.seq, t: Date.now() });
  if (plateau.applied.length > 20000) plateau.applied.splice(0, 10000);
}

// --- the club page -----------------------------------------------------------------------------

function clubPage() {
  const main = document.getElementById("main");
  const list = el("div", { class: "tables", id: "tables" });
  replace(main, el("h1", {}, "Tables"), list);
  const cards = {};
  connect("", (msg) => {
    if (msg.type !== "summary") return;
    const t = msg.table;
    let card = cards[t.table];
    if (!card) {
      card = cards[t.table] = el("a", { class: "tablecard", href: "/table/" + encodeURIComponent(t.table), "data-table": t.table });
      const names = Object.keys(cards).sort();
      list.insertBefore(card, cards[names[names.indexOf(t.table) + 1]] || null);
    }
    card.classList.toggle("notlive", t.live === false);
    replace(card,
      el("div", { class: "name" }, el("span", { class: "dot" + (t.online ? " on" : "") }), t.table),
      el("div", {}, t.game || "no game yet"),
      el("div", { class: "said" }, t.said || (t.game ? "under way" : "")),
      el("div", { class: "muted" }, t.events + " events" + (t.stale ? " (catching up)" : "")),
      t.live === false ? el("div", { class: "stale" }, "not live: " + (t.why || "") + "; last heard " + heardText(t.heard)) : null);
    applied(t.table, t);
  });
}

// --- a table's page ---------------------------------------------------------------------------

function tablePage() {
  const table = decodeURIComponent(location.pathname.split("/")[2] || "");
  document.title = table + " - Plateau club";
  showTable(table, document.getElementById("main"));
  setInterval(tickClock, 200);
}

// a table's page drawn into main, live; returns its connection (close() to leave it)
function showTable(table, main) {
  const head = el("h1", { id: "title" }, table);
  const body = el("div", { id: "game" }, el("p", { class: "muted" }, "waiting for the table"));
  replace(main, head, body);
  return connect("?table=" + encodeURIComponent(table), (msg) => {
    if (msg.type !== "state") return;
    const st = msg.state;
    plateau.state = st;
    plateau.page = msg.page || {};
    plateau.players = msg.players || {};
    replace(head, el("span", { class: "dot" + (msg.online ? " on" : "") }), table + " \u00b7 " + (st.game || "no game yet"));
    const parts = [];
    status(msg.live === false ? "not live" : "live", msg.live === false ? "down" : "live");
    parts.push(liveness(msg));
    if (msg.stale) parts.push(el("div", { class: "banner stale" }, "events were lost on the way: catching up from the table"));
    const verdict = lastVerdict(st, msg.results || []);
    if (verdict) parts.push(verdict);
    plateau.blinds = msg.blinds ? { clock: msg.blinds, at: Date.now() } : null;
    parts.push(el("div", { class: "drawing", id: "drawing" }, drawing(st)));
    parts.push(el("p", { class: "muted" }, st.events + " events \u00b7 boot " + (st.boot || "-") + " \u00b7 #" + st.seq));
    parts.push(el("p", { class: "links" }, st.epoch && st.line ? el("a", { href: momentHref(table, st.epoch, st.line), id: "moves-link" }, "this game's moves") : null,
      el("a", { href: "/results/table/" + encodeURIComponent(table) }, "this table's results")));
    replace(body, parts);
    applied(table, st);
  });
}

// a table's game drawn (plateau.page: the drawing its game's PAGE names), as it stands in st
function drawing(st) {
  const draw = plateau.page.rows ? (v) => rows(v, plateau.page.rows) : DRAWINGS[plateau.page.draw];
  return draw && st.game ? draw(st.view || {}) : el("p", { class: "muted" }, "no game yet");
}

// --- TV mode (/tv): the club's wall screen, each live table's page in turn ---------------------

const TV_EACH_S = 15;

function tvPage() {
  document.body.classList.add("tv");
  const main = document.getElementById("main");
  const q = new URLSearchParams(location.search);
  const each = Math.max(3, parseFloat(q.get("each")) || TV_EACH_S) * 1000;
  let shown = null, conn = null;
  async function next() {
    let tables = [];
    try { tables = (await (await fetch("/api/club")).json()).tables; } catch (e) { status("reconnecting", "down"); }
    // the live tables with a game; all of them when none is live (the page then says not live)
    const live = tables.filter((t) => t.game && t.live !== false);
    const pool = (live.length ? live : tables.filter((t) => t.game)).map((t) => t.table);
    if (!pool.length) { replace(main, el("h1", {}, "No table is playing yet")); return; }
    const i = shown === null ? 0 : (pool.indexOf(shown) + 1) % pool.length;
    if (pool[i] !== shown || !conn) {
      if (conn) conn.close();
      shown = pool[i];
      conn = showTable(shown, main);
    }
    plateau.tv = { table: shown, tables: pool };
  }
  next();
  setInterval(next, each);
  setInterval(tickClock, 200);
}

// the verdict on the game the page shows, if it ended: said when it is not rated
function lastVerdict(st, results) {
  const last = (st.finished || [])[st.finished.length - 1];
  if (!last) return null;
  const r = results.find((x) => x.epoch === st.epoch && x.lines[1] === last.last_line);
  if (!r || r.verdict === "rated" || r.verdict === "confirmed") return null;
  return el("div", { class: "banner problem", id: "verdict" },
    el("b", {}, r.verdict === "voided" ? "Result voided by the operator" : "Result disputed: not rated unless the operator confirms it"),
    r.why ? el("div", {}, r.why) : null);
}

// --- results: a table's, a night's ----------------------------------------------------------

function resultRows(results, operator) {
  return el("table", { class: "grid", id: "results" },
    el("tr", {}, el("th", {}, "#"), el("th", {}, "table"), el("th", {}, "game"), el("th", {}, "places"), el("th", {}, "verdict"), operator ? el("th", {}, "") : null),
    results.map((r) => el("tr", { "data-result": r.id, class: r.verdict },
      el("td", {}, r.id), el("td", {}, el("a", { href: "/results/table/" + encodeURIComponent(r.table) }, r.table)),
      el("td", {}, r.epoch && r.lines[1] ? el("a", { href: momentHref(r.table, r.epoch, r.lines[1]), class: "moves" }, r.game || "game") : r.game || "",
        el("div", { class: "muted" }, whenParts(r.finished))),
      el("td", {}, places(r.ranking, (s) => r.names[s] || s)),
      el("td", { class: "verdict" }, r.verdict, r.why ? el("div", { class: "muted" }, r.why) : null),
      operator ? el("td", {}, operator(r)) : null)));
}

// the places of a result, best first, each a link to its player's page: "Ana > Bob & Cy",
// with each player's rating change when given ({name: change}): "Ana +12.5 > Bob -12.5"
function places(ranking, name, change) {
  const out = [];
  ranking.forEach((g, i) => {
    if (i) out.push(" > ");
    g.forEach((s, j) => {
      if (j) out.push(" & ");
      const who = name(s), d = change ? change[who] : undefined;
      out.push(playerLink(who));
      if (typeof d === "number") out.push(el("span", { class: "muted change" }, " " + (d >= 0 ? "+" : "\u2212") + Math.abs(d)));
    });
  });
  return out;
}

function resultsPage() {
  const parts = location.pathname.split("/");
  const query = parts[2] === "table" ? "table=" + parts[3] : parts[2] === "night" ? "night=" + parts[3] : "";
  const main = document.getElementById("main");
  async function load() {
    let data;
    try { data = await (await fetch("/api/results?" + query)).json(); status("live", "live"); }
    catch (e) { status("reconnecting", "down"); return; }
    const title = data.table ? "Results: table " + data.table : "Results: the night of " + data.night;
    replace(main, el("h1", {}, title),
      el("p", { class: "muted" }, "rated: the scoreboard's replay of the table's events reached the same result;" +
        " disputed: it did not (why is said), not rated unless the operator confirms it"),
      resultRows(data.results, null));
  }
  load();
  setInterval(load, 5000);
}

// --- the operator's page: the token, players, disputed results, the audit ----------------------

function operatorPage() {
  const main = document.getElementById("main");
  const token = el("input", { type: "password", id: "token", placeholder: "operator token", autocomplete: "off" });
  token.value = sessionStorage.getItem("plateau-token") || "";
  const by = el("input", { id: "by", placeholder: "your name (for the audit)" });
  by.value = sessionStorage.getItem("plateau-by") || "";
  const said = el("p", { id: "said", class: "muted" });
  const box = el("div", { id: "operator" });
  replace(main, el("h1", {}, "Operator"),
    el("form", { class: "operator", id: "token-form" }, el("label", {}, "token ", token), el("label", {}, "name ", by)), said, box);
  const send = async (url, body) => {
    sessionStorage.setItem("plateau-token", token.value);
    sessionStorage.setItem("plateau-by", by.value);
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token.value },
      body: JSON.stringify({ ...body, by: by.value }) });
    said.textContent = r.ok ? "done" : "refused: " + (await r.text());
    load();
  };
  async function load() {
    const tables = (await (await fetch("/api/club")).json()).tables;
    const results = (await (await fetch("/api/results?night=" + new Date(Date.now() - 6 * 3600e3).toISOString().slice(0, 10))).json()).results;
    const forms = [];
    for (const t of tables) {
      const st = (await (await fetch("/api/table/" + encodeURIComponent(t.table))).json());
      const seats = (st.state.view || {}).seats || [];
      const inputs = seats.map((s) => { const i = el("input", { "data-seat": s, placeholder: "seat " + s }); i.value = (st.players || {})[s] || ""; return el("label", {}, s + " ", i); });
      const form = el("form", { class: "operator", "data-table": t.table }, el("b", {}, t.table + " "), inputs, el("button", { type: "submit" }, "name them"));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        const body = {};
        for (const i of form.querySelectorAll("input")) body[i.dataset.seat] = i.value;
        send("/api/table/" + encodeURIComponent(t.table) + "/players", { seats: body });
      });
      forms.push(form);
    }
    const decide = (r) => [r.verdict !== "confirmed" ? el("button", { "data-action": "confirm" }, "confirm") : null,
      r.verdict !== "voided" ? el("button", { "data-action": "void" }, "void") : null];
    const table = resultRows(results, decide);
    for (const b of table.querySelectorAll("button")) {
      b.addEventListener("click", () => send("/api/results/" + b.closest("tr").dataset.result + "/" + b.dataset.action, {}));
    }
    const audit = el("div", { id: "audit" });
    if (token.value) {
      const r = await fetch("/api/audit", { headers: { Authorization: "Bearer " + token.value } });
      if (r.ok) replace(audit, el("table", { class: "grid" }, el("tr", {}, ["when", "who", "what", "table", "result", "before", "after"].map((h) => el("th", {}, h))),
        (await r.json()).audit.slice(-50).reverse().map((a) => el("tr", {}, el("td", {}, new Date(a.at * 1000).toLocaleString()), el("td", {}, a.who),
          el("td", {}, a.action), el("td", {}, a.table || ""), el("td", {}, a.result ?? ""), el("td", {}, JSON.stringify(a.before)), el("td", {}, JSON.stringify(a.after))))));
    }
    replace(box, el("h2", {}, "Players"), forms, el("h2", {}, "Tonight's results"), table, el("h2", {}, "Audit"), audit);
  }
  token.addEventListener("change", load);
  load();
}

// --- the drawings a game's PAGE names ------------------------------------------------------------

// rows: a game's view as a table, one [label, key] a row (a game that draws nothing of its own)
function rows(v, spec) {
  const value = (x) => x === null || x === undefined ? "-" : Array.isArray(x) ? x.join(" ")
    : typeof x === "object" ? Object.entries(x).map(([k, n]) => k + " " + n).join("  ") : String(x);
  const parts = [el("table", { class: "grid", id: "view" },
    spec.map(([label, key]) => el("tr", {}, el("th", {}, label), el("td", { "data-key": key }, value(v[key])))))];
  if (v.winner) parts.push(el("div", { class: "banner winner", id: "winner" }, "Winner: " + seatName(v.winner)));
  return el("div", {}, parts);
}

// --- ring (Tock): the 72-square ring, homes, camps, pawns ----------------------------------------

const COLOURS = "RGBY";
const C = 200, RING = 150;

function ringXY(index, r) {
  const a = (-90 + index * 5) * Math.PI / 180;
  return [C + r * Math.cos(a), C + r * Math.sin(a)];
}

function squareXY(name) {
  const m = /^([RGBY])(H?)(\d+)$/.exec(name);
  if (!m) return null;
  const c = COLOURS.indexOf(m[1]);
  const k = parseInt(m[3], 10);
  if (m[2]) return ringXY(c * 18 + 15, RING - 22 - 19 * (k - 1)); // home: inward from C16 (T3)
  return ringXY(c * 18 + k - 1, RING);
}

function ring(v) {
  const pos = v.position || { pawns: {} };
  const moved = new Set();
  if (v.last_move && v.last_move.steps) for (const s of v.last_move.steps) for (const q of s) moved.add(q);
  const board = svg("svg", { viewBox: "-30 -30 460 460", class: "board", id: "tock-board", role: "img" });
  board.appendChild(svg("title", {}, "Tock board"));
  for (let c = 0; c < 4; c++) {
    const col = COLOURS[c];
    for (let k = 1; k <= 18; k++) {
      const [x, y] = ringXY(c * 18 + k - 1, RING);
      const name = col + k;
      const mark = k === 18 || k === 16 ? "tint-" + col : ""; // start and home entry (T3)
      board.appendChild(svg("circle", { cx: x, cy: y, r: 7.2, class: "sq " + mark + (moved.has(name) ? " moved" : ""), "data-square": name }));
      if (k === 1 || k === 16 || k === 18) {
        const [lx, ly] = ringXY(c * 18 + k - 1, RING + 16);
        board.appendChild(svg("text", { x: lx, y: ly, class: "label" }, name));
      }
    }
    for (let h = 1; h <= 4; h++) {
      const [x, y] = squareXY(col + "H" + h);
      board.appendChild(svg("circle", { cx: x, cy: y, r: 7.2, class: "sq tint-" + col + (moved.has(col + "H" + h) ? " moved" : ""), "data-square": col + "H" + h }));
    }
    const [cx, cy] = ringXY(c * 18 + 17, RING + 34); // the camp, beside the start square C18
    board.appendChild(svg("rect", { x: cx - 19, y: cy - 19, width: 38, height: 38, rx: 6, class: "tint-" + col, stroke: "#9b9280", "data-camp": col }));
  }
  const turn = pos.turn;
  for (const [col, squares] of Object.entries(pos.pawns || {})) {
    const c = COLOURS.indexOf(col);
    if (c < 0) continue;
    let inCamp = 0;
    for (const sq of squares) {
      let xy;
      if (sq === "camp") {
        const [cx, cy] = ringXY(c * 18 + 17, RING + 34);
        xy = [cx - 9 + 18 * (inCamp % 2), cy - 9 + 18 * Math.floor(inCamp / 2)];
        inCamp++;
      } else {
        xy = squareXY(sq);
      }
      if (!xy) continue;
      board.appendChild(svg("circle", { cx: xy[0], cy: xy[1], r: 6, class: "pawn fill-" + col + (moved.has(sq) ? " moved" : ""), "data-colour": col, "data-square": sq }));
    }
  }
  const side = el("div", {});
  if (v.winner) side.appendChild(el("div", { class: "banner winner", id: "winner" }, "Winner: " + seatName(v.winner)));
  else if (turn) side.appendChild(el("p", { class: "big", id: "turn" }, "Turn: " + (turn === "any" ? "anyone" : seatName(turn))));
  if (v.problem) side.appendChild(el("div", { class: "banner problem", id: "problem" },
    el("b", {}, "The board is wrong: "), v.problem.why || "", el("br"), "To fix: ", v.problem.fix || "-"));
  if (v.mismatch) side.appendChild(el("div", { class: "banner problem" }, v.mismatch));
  if (v.error) side.appendChild(el("div", { class: "muted" }, "last refusal: " + (v.error.why || "")));
  side.appendChild(el("h2", {}, "Card on the reader"));
  side.appendChild(el("div", { class: "cards", id: "card" }, v.card ? cardFace(v.card) : el("span", { class: "muted" }, "none")));
  side.appendChild(el("h2", {}, "Last move"));
  const lm = v.last_move;
  side.appendChild(el("p", { id: "last-move" }, lm ? [cardFace(lm.card), " ", seatName(lm.seat), " ",
    lm.discard ? "discarded (no legal move)" : (lm.steps || []).map((s) => s[0] + " \u2192 " + s[1]).join(", ")] : "-"));
  if (v.seats && v.seats.length) side.appendChild(el("p", { id: "players" }, v.seats.map(seatName).join(v.teams ? " & " : " v ")));
  side.appendChild(el("p", { class: "muted" }, "rules " + (pos.rules || "?") + ", " + (pos.players || "?") + " players" + (v.teams ? ", teams R+B v G+Y" : "")));
  return el("div", { class: "layout" }, el("div", {}, board), side);
}

// --- goals (Weykick): score, clock, series --------------------------------------------------------

function clockText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function tickClock() {
  const b = document.getElementById("blind-left");
  if (b && plateau.blinds && plateau.blinds.clock.left_s !== null) {
    b.textContent = clockText(plateau.blinds.clock.left_s * 1000 - (Date.now() - plateau.blinds.at)) + " left";
  }
  const c = document.getElementById("clock");
  const st = plateau.state;
  if (!c || !st || plateau.page.draw !== "goals") return;
  const v = st.view;
  let ms = v.clock_ms || 0;
  if (v.running && v.clock_wall) ms += Math.min(3600e3, Math.max(0, Date.now() - v.clock_wall * 1000));
  c.textContent = clockText(ms) + (v.paused ? " (paused)" : "");
}

function goals(v) {
  const sc = v.score || {};
  const series = v.series || {};
  const parts = [
    el("div", { class: "score", id: "score" }, el("span", { class: "side" }, seatName("A")), el("span", { id: "score-A" }, sc.A ?? 0),
      "\u2013", el("span", { id: "score-B" }, sc.B ?? 0), el("span", { class: "side" }, seatName("B"))),
    el("div", { class: "clock", id: "clock" }, clockText(v.clock_ms || 0)),
    el("div", { class: "series", id: "series" }, "match " + (v.match || 1) + (v.best_of ? " of best of " + v.best_of : "") +
      " \u00b7 series " + seatName("A") + " " + (series.A ?? 0) + " \u2013 " + (series.B ?? 0) + " " + seatName("B") + (v.rules ? " \u00b7 " + v.rules : "")),
  ];
  if (v.golden_goal && !v.over) parts.push(el("div", { class: "banner problem" }, "golden goal"));
  if (v.over && v.winner) parts.push(el("div", { class: "banner winner", id: "winner" }, "Match won by " + seatName(v.winner) + (v.series_over ? " \u2014 series over" : "")));
  const g = v.last_goal;
  if (g) parts.push(el("p", { id: "last-goal" }, g.undone ? "last goal taken back (side " + g.undone + ")" :
    "last goal: " + seatName(g.side) + " at " + clockText(g.match_ms || 0) + (typeof g.seen_ms === "number" ? " (ball seen " + g.seen_ms + " ms)" : "")));
  return el("div", {}, parts);
}

// --- poker (Hold'em): community cards, pots, stacks, turn --------------------------------------

function blindClock(v) {
  const c = plateau.blinds && plateau.blinds.clock;
  if (!c) return null;
  const box = el("div", { class: "banner", id: "blind-clock" },
    el("b", {}, "Level " + c.level + ": " + c.blinds), " \u00b7 ",
    el("span", { id: "blind-left" }, c.left_s === null ? "last level" : clockText(c.left_s * 1000) + " left"),
    c.next ? " \u00b7 next " + c.next : "");
  if (c.big !== null && v.table_blinds && v.table_blinds !== c.blinds) {
    box.appendChild(el("div", { class: "banner problem" }, "the table plays " + v.table_blinds + ": raise the blinds to " + c.blinds));
  }
  return box;
}

function poker(v) {
  const parts = [blindClock(v)];
  const out = new Set((v.out || []).flat());
  if (v.winner) parts.push(el("div", { class: "banner winner", id: "winner" }, "Winner: " + seatName(v.winner) + ", every chip at the table"));
  parts.push(el("h2", {}, (v.hand_no ? "Hand " + v.hand_no + " \u00b7 " : "") + (v.street || "pre-flop") + (v.hand_over ? " \u00b7 hand over" : "")));
  parts.push(el("div", { class: "cards", id: "board" }, (v.board || []).map((c) => cardFace(c))));
  const pots = v.pots || [];
  const potText = (p) => (p.winners || []).map(seatName).join(" & ") + " won " + p.amount +
    ((p.eligible || []).length > 1 ? " (against " + p.eligible.filter((s) => !(p.winners || []).includes(s)).map(seatName).join(", ") + ")" : "");
  if (v.hand_over) {
    // the hand is paid: what each pot gave whom (the middle is empty until the next deal)
    parts.push(el("p", { class: "big", id: "pot" }, pots.length ? pots.map(potText).join("; ") : "Hand over"));
  } else {
    parts.push(el("p", { class: "big", id: "pot" }, "Pot: " + (v.pot || 0)));
    if (pots.length) parts.push(el("ul", { id: "pots" }, pots.map((p) => el("li", {}, potText(p)))));
  }
  const rows = (v.seats || []).map((s) => {
    const shown = (v.shown || {})[s] || [];
    const hand = (v.hands || []).find((h) => h.seat === s);
    const folded = (v.folded || []).includes(s);
    const stack = (v.stacks || {})[s];
    const gone = out.has(s) || stack === 0;
    const doing = gone ? "out" : folded ? "folded" : v.to_act === s ? "to act" : "";
    return el("tr", { class: (v.to_act === s ? "turn" : "") + (folded || gone ? " out" : ""), "data-seat": s },
      el("td", {}, seatName(s) + (v.button === s ? " (D)" : "")),
      el("td", { class: "stack" }, stack ?? (gone ? 0 : "-")),
      el("td", {}, (v.bets || {})[s] || ""),
      el("td", {}, doing),
      el("td", { class: "shown" }, shown.map((c) => cardFace(c)), hand ? " " + (hand.category || "") : ""));
  });
  parts.push(el("table", { class: "grid", id: "stacks" },
    el("tr", {}, el("th", {}, "player"), el("th", {}, "stack"), el("th", {}, "bet"), el("th", {}, "status"), el("th", {}, "shown")), rows));
  if (v.to_act) parts.push(el("p", { class: "big", id: "turn" }, "To act: " + seatName(v.to_act)));
  if (v.showing) parts.push(el("p", {}, seatName(v.showing) + ": lay your two cards on the reader"));
  return el("div", {}, parts);
}

// --- tricks (Pocha): bids, tricks, the running scores ------------------------------------------

function played(list) {
  return (list || []).map((p) => el("span", { class: "played", "data-seat": p.seat }, seatName(p.seat) + " ", cardFace(p.card)));
}

function tricks(v) {
  const seats = v.seats || [];
  const parts = [];
  if (v.ranking) parts.push(el("div", { class: "banner winner", id: "winner" }, "Winner: " + seatName(v.ranking[0][0]) + " with " + v.ranking[0][1]));
  parts.push(el("p", { class: "big" }, "Hand " + (v.hand ?? "-") + " \u00b7 " + (v.cards ?? "?") + " cards \u00b7 dealer " + (v.dealer ? seatName(v.dealer) : "-")));
  if (v.to_play && !v.ranking) parts.push(el("p", { class: "big", id: "turn" }, (v.phase === "bids" ? "To bid: " : "To play: ") + seatName(v.to_play)));
  parts.push(el("div", { class: "cards", id: "trump" }, "Turned card: ", v.trump && v.trump.card ? cardFace(v.trump.card) : (v.trump ? SPANISH_SUITS[v.trump.suit] || "" : "-")));
  parts.push(el("table", { class: "grid", id: "bids" },
    el("tr", {}, el("th", {}, "player"), el("th", {}, "bid"), el("th", {}, "tricks"), el("th", {}, "total")),
    seats.map((s) => el("tr", { "data-seat": s, class: v.to_play === s ? "turn" : "" }, el("td", {}, seatName(s)),
      el("td", { class: "bid" }, (v.bids || {})[s] ?? ""), el("td", { class: "taken" }, (v.taken || {})[s] ?? ""),
      el("td", { class: "total" }, (v.totals || {})[s] ?? "")))));
  if (v.trick && v.trick.length) parts.push(el("div", { class: "cards", id: "trick" }, "On the table: ", played(v.trick)));
  const last = v.last_trick;
  if (last && last.played && last.played.length && !(v.trick && v.trick.length)) {
    parts.push(el("div", { class: "cards", id: "last-trick" }, "Last trick, " + (last.winner ? "won by " + seatName(last.winner) : "") + ": ", played(last.played)));
  }
  const hist = v.history || [];
  parts.push(el("h2", {}, "Scores"));
  // one column a player: the total, and the hand's score beneath (narrow enough for a phone)
  parts.push(el("table", { class: "grid narrow", id: "scores" },
    el("tr", {}, el("th", {}, "hand"), seats.map((s) => el("th", {}, seatName(s)))),
    hist.map((h) => el("tr", {}, el("td", {}, h.hand), seats.map((s) => el("td", {}, String((h.totals || {})[s] ?? ""),
      el("div", { class: "muted" }, ((h.scores || {})[s] ?? 0) >= 0 ? "+" + ((h.scores || {})[s] ?? 0) : String(h.scores[s]))))))));
  if (v.ranking) parts.push(el("div", { class: "banner", id: "final" }, "Final: " + v.ranking.map((r) => seatName(r[0]) + " " + r[1]).join(", ")));
  return el("div", {}, parts);
}

const DRAWINGS = { ring: ring, goals: goals, poker: poker, tricks: tricks };

// --- the league ---------------------------------------------------------------------------------

function leaguePage() {
  const game = location.pathname.split("/")[2] || GAMES[0];
  const main = document.getElementById("main");
  async function load() {
    let data;
    try { data = await (await fetch("/api/league/" + encodeURIComponent(game))).json(); status("live", "live"); }
    catch (e) { status("reconnecting", "down"); return; }
    replace(main, el("h1", {}, "League: " + game),
      el("table", { class: "grid wraps", id: "ratings" },
        el("tr", {}, el("th", {}, "#"), el("th", {}, "player"), el("th", {}, "rating"), el("th", {}, "games"), el("th", {}, "won")),
        data.ratings.map((r, i) => el("tr", {}, el("td", {}, i + 1), el("td", {}, playerLink(r.player)), el("td", {}, r.rating), el("td", {}, r.games), el("td", {}, r.wins)))),
      data.ratings.length ? null : el("p", { class: "muted", id: "no-ratings" }, "no " + game + " game has been rated yet"),
      el("h2", {}, "Results"),
      // three columns, for a phone: when and where, the places with each player's change, the verdict
      el("table", { class: "grid wraps", id: "history" },
        el("tr", {}, el("th", {}, "when"), el("th", {}, "places and rating changes"), el("th", {}, "verdict")),
        data.history.map((h) => el("tr", { "data-result": h.id, class: h.verdict },
          el("td", { class: "when" }, whenParts(h.finished), el("div", { class: "muted" }, "table " + h.table + (h.rules ? ", " + h.rules : "")),
            h.epoch ? el("a", { href: momentHref(h.table, h.epoch, h.lines[1]), class: "moves" }, "moves") : null),
          el("td", { class: "places" }, places(h.ranking, (s) => h.names[s] || s, h.change)),
          el("td", { class: "verdict" }, h.verdict, h.why ? el("div", { class: "muted" }, h.why) : null)))));
  }
  load();
  setInterval(load, 5000);
}

// the pages by name; history.js adds the pages of what was played (moments, players): every
// script is run before the page is drawn
const PAGES = { club: clubPage, table: tablePage, league: leaguePage, results: resultsPage, operator: operatorPage, tv: tvPage };
document.addEventListener("DOMContentLoaded", () => { nav(); PAGES[document.body.dataset.page](); });
