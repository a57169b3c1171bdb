// Plateau club: the pages of what was played, beside club.js (whose helpers they use: el,
// svg, replace, drawing, when, whenParts, momentHref, playerLink, places). As there,
// everything a board or a player's name says is put in the page as text, never as markup.
//
// - a moment (/table/<table>/at/<log>/<line>): the table's page as it stood at that line of its
//   log, drawn by the live page's drawing from the state the server folded up to it, beside the
//   game's move list, each move a link to its own moment;
// - a player (/player?name=NAME): the games, the places, the rating over time (an SVG drawn
//   here: nothing is fetched from elsewhere), head to head against every player met.
"use strict";

// --- a moment of a game ----------------------------------------------------------------------

function momentPage() {
  const main = document.getElementById("main");
  replace(main, el("p", { class: "muted" }, "loading"));
  (async () => {
    const r = await fetch("/api" + location.pathname);
    if (!r.ok) {
      status("not found", "down");
      replace(main, el("h1", {}, "No such moment"), el("p", { id: "refused" }, await r.text()));
      return;
    }
    const m = await r.json();
    status("a moment, not live", "");
    plateau.state = m.state;
    plateau.page = m.page || {};
    plateau.players = m.players || {};
    plateau.moment = m;
    document.title = m.table + " at line " + m.line + " - Plateau club";
    replace(main, momentView(m));
    // the move list scrolled to this moment's move (the page itself stays at its top)
    const list = document.getElementById("moves"), now = document.querySelector("#moves .now");
    if (list && now) list.scrollTop = Math.max(0, now.offsetTop - list.offsetTop - list.clientHeight / 2);
  })().catch((e) => { status("reconnecting", "down"); replace(main, el("p", {}, "could not load this moment")); });
}

function momentView(m) {
  const g = m.game;
  const st = m.state;
  const lines = m.moves.map((x) => x.line);
  const before = lines.filter((n) => n < m.line);
  const after = lines.filter((n) => n > m.line);
  const current = lines.filter((n) => n <= m.line).pop();
  const go = (label, line, id) => line === undefined || line === m.line
    ? el("span", { class: "muted", id: id }, label)
    : el("a", { href: momentHref(m.table, m.epoch, line), id: id }, label);
  const head = el("h1", { id: "title" }, m.table + " \u00b7 " + (st.game || g.game || "no game yet"));
  const at = el("p", { class: "muted", id: "when" }, "As it stood at line " + m.line + " of the table's log" +
    (m.at ? ", " + when(m.at) : "") + (g.over ? "" : " (the game was under way)"));
  const steps = el("p", { class: "links", id: "steps" },
    go("\u00ab start", lines[0], "first"), go("\u2039 previous", before[before.length - 1], "previous"),
    go("next \u203a", after[0], "next"), go("end \u00bb", lines[lines.length - 1], "last"),
    el("a", { href: "/table/" + encodeURIComponent(m.table) }, "the table now"));
  const parts = [head, at, steps];
  if (g.result) parts.push(resultBanner(g.result));
  parts.push(el("div", { class: "drawing", id: "drawing" }, drawing(st)));
  parts.push(el("h2", {}, "Moves" + (g.game ? " of this " + g.game + " game" : "")));
  parts.push(m.moves.length ? el("ol", { class: "moves", id: "moves" }, m.moves.map((x) => {
    const now = x.line === current;
    return el("li", { class: now ? "now" : "", "data-line": x.line, "aria-current": now ? "step" : null },
      el("a", { href: momentHref(m.table, m.epoch, x.line) }, x.said),
      x.at ? el("span", { class: "muted" }, " " + when(x.at).slice(11)) : null);
  })) : el("p", { class: "muted", id: "moves" }, "no move yet"));
  return parts;
}

function resultBanner(r) {
  const counted = r.verdict === "rated" || r.verdict === "confirmed";
  return el("div", { class: "banner " + (counted ? "winner" : "problem"), id: "result" },
    el("b", {}, "Result: "), places(r.ranking, (s) => r.names[s] || s),
    " \u00b7 " + r.verdict + (counted ? "" : ", not rated"), r.why ? el("div", { class: "muted" }, r.why) : null);
}

// --- a player's page ---------------------------------------------------------------------------

function ordinal(n) {
  const s = ["th", "st", "nd", "rd"], v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

function playerPage() {
  const main = document.getElementById("main");
  const name = new URLSearchParams(location.search).get("name") || "";
  async function load() {
    const r = await fetch("/api/player?name=" + encodeURIComponent(name));
    if (!r.ok) {
      status("not found", "down");
      replace(main, el("h1", {}, "No such player"), el("p", { id: "refused" }, await r.text()));
      return;
    }
    const p = await r.json();
    status("live", "live");
    document.title = p.player + " - Plateau club";
    const parts = [el("h1", { id: "player" }, p.player)];
    for (const g of Object.values(p.games)) parts.push(gameCareer(g));
    parts.push(el("h2", {}, "Games"));
    // three columns, for a phone: when, the game (a link to its moves), the place with the
    // rating change (or why it is not rated) and the places of all
    parts.push(el("table", { class: "grid wraps", id: "played" },
      el("tr", {}, el("th", {}, "when"), el("th", {}, "game"), el("th", {}, "result")),
      p.played.map((x) => {
        const counted = x.verdict === "rated" || x.verdict === "confirmed";
        const change = typeof x.change === "number" ? (x.change >= 0 ? "+" : "\u2212") + Math.abs(x.change) +
          (x.rating !== null ? " \u2192 " + x.rating : "") : "";
        return el("tr", { "data-result": x.id, class: x.verdict },
          el("td", { class: "when" }, whenParts(x.finished)),
          el("td", {}, x.epoch ? el("a", { href: momentHref(x.table, x.epoch, x.lines[1]), class: "moves" }, x.game) : x.game,
            el("div", { class: "muted" }, "table " + x.table + (x.rules ? ", " + x.rules : ""))),
          el("td", { class: "place" }, el("b", {}, x.place === null ? "-" : x.place === 1 ? "won" : ordinal(x.place) + " of " + x.places),
            counted ? (change ? " " + change : "") : el("div", { class: "verdict" }, x.verdict + ", not rated" + (x.why ? ": " + x.why : "")),
            el("div", { class: "muted" }, places(x.ranking, (s) => s))));
      })));
    replace(main, parts);
  }
  load().catch(() => status("reconnecting", "down"));
  setInterval(() => load().catch(() => status("reconnecting", "down")), 15000);
}

function gameCareer(g) {
  const box = el("section", { class: "career", "data-game": g.game });
  box.appendChild(el("h2", {}, g.game + " ", el("a", { href: "/league/" + encodeURIComponent(g.game), class: "muted" }, "(the league)")));
  box.appendChild(el("p", { class: "big" }, g.rating === null ? "not rated yet" : "rating " + g.rating,
    el("span", { class: "muted" }, " \u00b7 " + g.games + " rated game" + (g.games === 1 ? "" : "s") + ", " + g.wins + " won")));
  if (g.points.length) {
    box.appendChild(ratingChart(g));
    box.appendChild(el("details", {}, el("summary", {}, "rating after each game"),
      el("table", { class: "grid wraps" }, el("tr", {}, el("th", {}, "when"), el("th", {}, "rating")),
        el("tr", {}, el("td", {}, "start"), el("td", {}, g.start)),
        g.points.map((pt) => el("tr", {}, el("td", {}, when(pt.at)), el("td", {}, Math.round(pt.rating)))))));
  }
  box.appendChild(el("h3", {}, "Head to head"));
  box.appendChild(g.head_to_head.length ? el("table", { class: "grid wraps h2h" },
    el("tr", {}, el("th", {}, "against"), el("th", {}, "games"), el("th", {}, "ahead \u00b7 behind \u00b7 level")),
    g.head_to_head.map((h) => el("tr", { "data-opponent": h.opponent }, el("td", {}, playerLink(h.opponent)), el("td", {}, h.games),
      el("td", { class: "record" }, h.ahead + " \u00b7 " + h.behind + " \u00b7 " + h.level))))
    : el("p", { class: "muted" }, "no rated game against anyone yet"));
  return box;
}

// the rating after each rated game, from the league's start: a line with a dot a game, drawn
// as SVG in the page (no chart library: a club may have no internet)
function ratingChart(g) {
  const W = 320, H = 130, L = 38, R = 10, T = 10, B = 22;
  const values = [g.start, ...g.points.map((p) => p.rating)];
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const x = (i) => L + (values.length > 1 ? i * (W - L - R) / (values.length - 1) : (W - L - R) / 2);
  const y = (v) => T + (hi - v) * (H - T - B) / (hi - lo);
  const chart = svg("svg", { viewBox: "0 0 " + W + " " + H, class: "chart", role: "img", "data-points": g.points.length });
  chart.appendChild(svg("title", {}, "rating over time: " + Math.round(values[0]) + " to " + Math.round(values[values.length - 1])));
  chart.appendChild(svg("line", { x1: L, y1: y(g.start), x2: W - R, y2: y(g.start), class: "axis" }));
  chart.appendChild(svg("text", { x: L - 4, y: y(hi) + 4, class: "tick end" }, Math.round(hi)));
  chart.appendChild(svg("text", { x: L - 4, y: y(lo) + 4, class: "tick end" }, Math.round(lo)));
  chart.appendChild(svg("text", { x: L, y: H - 6, class: "tick" }, "start"));
  chart.appendChild(svg("text", { x: W - R, y: H - 6, class: "tick end" }, when(g.points[g.points.length - 1].at).slice(0, 10)));
  chart.appendChild(svg("polyline", { points: values.map((v, i) => x(i).toFixed(1) + "," + y(v).toFixed(1)).join(" "), class: "rating" }));
  values.forEach((v, i) => {
    const dot = svg("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3, class: i ? "game" : "start" });
    dot.appendChild(svg("title", {}, (i ? when(g.points[i - 1].at) : "start") + ": " + Math.round(v)));
    chart.appendChild(dot);
  });
  return chart;
}

PAGES.moment = momentPage;
PAGES.player = playerPage;
