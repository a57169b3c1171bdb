"""`plateau serve`: the club's scoreboard in the browser (aiohttp).

Fed from a broker (every table a bridge publishes) or from one local log (one table, no
broker). Pages: / (the club: every table), /table/<name> (one table, drawn per game),
/league/<game> (ratings and history). They are read-only and update themselves through a
WebSocket (/ws): the server pushes a table's state after every event, coalesced per client
(a slow phone gets the latest state, not a backlog). Writes (naming a table's players) need
the operator's token (Authorization: Bearer ...). Every string from a board reaches the page
as JSON and is put in the page as text, never as markup (static/club.js); the pages' Content
Security Policy allows no inline script besides."""

from __future__ import annotations

import asyncio
import errno
import hmac
import ipaddress
import json
import os
import secrets
import signal
import socket
import sqlite3
import sys
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from plateau import events, games
from plateau.club.blinds import Level, StructureError, clock, load
from plateau.club.control import Control
from plateau.club.league import League
from plateau.club.mqtt import (
    TABLE,
    Broker,
    Feed,
    Refused,
    decode,
    open_envelope,
    open_presence,
    open_state,
)
from plateau.club.replay import Replay
from plateau.club.state import TableState
from plateau.errors import NO_BOARD, USAGE
from plateau.events import clean
from plateau.fw.games import declaration
from plateau.logger import scan_log

STATIC = Path(__file__).parent / "static"
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def dumps(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=True)


AHEAD_WAIT_S = 2.0  # a table's state ahead of its lines: how long the lines may take to come
STALE_AFTER_S = 15.0  # a table's bridge says it is there every mqtt.HEARTBEAT_S (5 s)
HEARD_KEPT_EVERY_S = 5.0  # when each table was last heard, into the SQLite file this often


class Club:
    """Every table's state, folded from what the feed brings, and its replay (club.replay):
    results are recorded as the replay judges them, rated only when it reaches the same
    result. Tells `listeners` which table changed. Repeats are dropped (Replay.feed); a hole
    in a table's lines (the broker lost them) marks the table stale until a retained state at
    least as far comes, which heals its page (never its results). With a league, every line
    taken is kept in the SQLite file, and a restarted scoreboard replays each table from its
    copy (`restore`)."""

    def __init__(self, league: League | None = None):
        self.replays: dict[str, Replay] = {}
        self.tables: dict[str, TableState] = {}  # each table's state as its page shows it
        self.presence: dict[str, bool] = {}
        self.stale: dict[str, int] = {}  # table -> line from which its state is to be taken
        self.ahead: dict[str, tuple[TableState, float]] = {}  # a state ahead of the lines
        self.league = league
        self.listeners: list[Callable[[str], None]] = []
        self.rejected = 0  # messages that were not what a bridge sends
        self.refused: dict[str, int] = {}  # ... counted by why
        self.say: Callable[[str], None] = lambda m: None  # one line the first time of each
        self.heard: dict[str, float] = {}  # when each table last said anything (our clock)
        self._heard_kept = 0.0
        # since when the scoreboard has been without its broker (None: with it, or none)
        self.broker_down: float | None = None
        self.holes = 0
        self.recorded: set[tuple] = set()
        self.forgotten: set[tuple] = set()
        self._unkept: list[tuple] = []  # lines taken, not yet in the SQLite file
        self.local_logs: dict[str, LocalLog] = {}  # plateau serve --log: the table's log

    # --- what is recorded ----------------------------------------------------------------------

    def _record(self, table: str, recs: list[dict]) -> None:
        if not self.league:
            return
        for rec in recs:
            key = (table, rec.get("epoch"), rec.get("last_line"))
            if key not in self.recorded:
                self.recorded.add(key)
                self.keep()  # the lines it rests on, first
                # the table whose credentials published it (the topic, which the broker's
                # ACL gives each table's user alone), never what it says
                self.league.record({**rec, "table": table})

    def _withdraw(self, table: str, back: list[list]) -> None:
        """Results the table took back (its undo, replayed): no longer results."""
        for w in back:
            key = (table, w[1], w[2])
            if self.league and key not in self.forgotten:
                self.forgotten.add(key)
                self.recorded.add(key)  # never recorded again from an older state
                self.league.withdraw(*key)

    def keep(self) -> None:
        """The lines taken so far into the SQLite file (the server's loop calls it often),
        and now and then when each table was last heard."""
        if not self.league:
            return
        if self._unkept:
            rows, self._unkept = self._unkept, []
            self.league.keep_lines(rows)
        now = time.time()
        if self.heard and now - self._heard_kept >= HEARD_KEPT_EVERY_S:
            self._heard_kept = now
            self.league.heard(self.heard)

    def liveness(self, table: str, now: float | None = None) -> dict:
        """Whether what a table's page shows is live: {"live", "why" not, "heard" (when the
        table last said anything, the scoreboard's clock)}. Not live when the scoreboard lost
        its broker, the table's bridge is offline (its last will), or nothing came from it
        for STALE_AFTER_S (its bridge says it is there every 5 s)."""
        now = time.time() if now is None else now
        heard = self.heard.get(table)
        why = None
        if self.broker_down is not None:
            why = "the scoreboard cannot reach the broker"
        elif not self.presence.get(table, False):
            why = "the table's bridge is offline"
        elif heard is None or now - heard > STALE_AFTER_S:
            why = f"nothing heard from the table for more than {STALE_AFTER_S:.0f} s"
        return {"live": why is None, "why": why, "heard": heard}

    def known(self, table: str) -> bool:
        """Whether a table has published to this scoreboard (now, or ever: its SQLite file):
        only such a table's players may be named."""
        return (
            table in self.tables
            or table in self.heard
            or bool(self.league and self.league.known(table))
        )

    def restore(self) -> int:
        """Each table replayed again from the scoreboard's own copy of its lines (its latest
        log): a restarted scoreboard judges the games under way as if it had never stopped.
        Returns the lines replayed."""
        if not self.league:
            return 0
        self.heard.update(self.league.tables())  # last heard before the restart
        n = 0
        for table, (epoch, lines) in sorted(self.league.kept_lines().items()):
            for line, prev, ev in lines:
                self.event(table, epoch, line, prev, ev, copy=False)
                n += 1
        return n

    # --- what the broker brings ------------------------------------------------------------------

    def _changed(self, table: str) -> None:
        for f in self.listeners:
            f(table)

    def event(
        self, table: str, epoch: str, line: int, prev: int, ev: dict, copy: bool = True
    ) -> None:
        """Line `line` of a table's log (`prev`: the line published before it); `copy`: kept
        in the SQLite file (not a line read back from it, nor a local log's)."""
        rep = self.replays.get(table)
        if rep is None or epoch != rep.epoch:
            if prev > 0:  # another log taken up mid-way: its retained state comes next
                self.stale[table] = line
                return
            rep = self.replays[table] = Replay(table, epoch)  # a new log, from its line 1
            self.tables[table] = rep.state
            self.stale.pop(table, None)
        if prev > rep.line:  # lines between were lost on the way
            self.holes += 1
            self.stale[table] = line
            rep.missed(rep.line + 1, prev)
        taken, ended, back = rep.feed(line, ev)
        if not taken:
            return
        if copy and self.league:
            self._unkept.append((table, epoch, line, prev, ev))
        self.tables[table] = rep.state
        self._record(table, ended)
        self._withdraw(table, back)
        ahead = self.ahead.get(table)
        if ahead and ahead[0].line <= rep.line:
            del self.ahead[table]  # the lines caught up with it
        self._changed(table)

    def state(self, table: str, theirs: TableState) -> None:
        """A table's retained state: taken for its page when the page has nothing better (a
        new log, lines lost, lines that do not come); what it says ended is recorded
        disputed, never rated."""
        theirs.table = table
        rep = self.replays.get(table)
        if rep is not None and theirs.epoch == rep.epoch and theirs.line > rep.line:
            if table not in self.stale:
                self.ahead[table] = (theirs, time.monotonic())  # its lines may be on the way
                return
        if (
            rep is None
            or theirs.epoch != rep.epoch
            or (table in self.stale and theirs.line >= self.stale[table])
        ):
            self._heal(table, theirs)

    def _heal(self, table: str, theirs: TableState) -> None:
        rep = self.replays.get(table)
        if rep is None or theirs.epoch != rep.epoch:
            rep = self.replays[table] = Replay(table, theirs.epoch)
            rep.missed(1, 0)
        self._record(table, rep.heal(theirs))
        for w in theirs.withdrawn:  # taken back in lines it did not see: in doubt now
            if self.league and (table, w[1], w[2]) not in self.forgotten:
                self.league.dispute(
                    table, w[1], w[2], "the table's state says it took this result back"
                )
        self.tables[table] = rep.state
        self.stale.pop(table, None)
        self.ahead.pop(table, None)
        self._changed(table)

    def tick(self, now: float | None = None) -> None:
        """A state ahead of the lines whose lines did not come in AHEAD_WAIT_S: they were
        lost (a broker that forgot the scoreboard's session): the state heals the page."""
        now = time.monotonic() if now is None else now
        for table, (theirs, since) in list(self.ahead.items()):
            if now - since >= AHEAD_WAIT_S:
                self._heal(table, theirs)

    def message(self, table: str, what: str, payload: bytes, retained: bool = False) -> None:
        """A message from the broker (topic plateau/<table>/<what>; `retained`: the broker's
        copy, delivered as the scoreboard subscribed, not news). Anything that is not what a
        bridge sends is refused alike, whatever is wrong with it, and counted by why
        (`refused`); nothing a table publishes raises here."""
        try:
            if what == "events":
                self.event(table, *open_envelope(payload))
            elif what == "state":
                if payload:  # an empty retained message clears it
                    self.state(table, open_state(payload))
            elif what == "presence":
                d = open_presence(payload)
                self.presence[table] = d["online"]
                if table in self.tables:
                    self._changed(table)
            else:
                raise Refused("not a topic of the club's")
        except (ValueError, RecursionError) as e:  # Refused, a state's fields, the fold's
            self.rejected += 1
            why = f"{what}: {str(e)[:80] or type(e).__name__}"
            self.refused[why] = self.refused.get(why, 0) + 1
            if self.refused[why] == 1:
                self.say(f"refused a message of table {table}: {why} (counted from now on)")
            return
        if not retained:
            self.heard[table] = time.time()


class LocalLog:
    """One table from a log on this machine, polled as it grows: replayed from its first line
    at every start (the log is here: the scoreboard keeps no copy of it), a new epoch when
    the file is replaced."""

    def __init__(self, club: Club, path: str, table: str):
        self.club, self.path, self.table = club, Path(path), table
        self.offset = self.line = self.fed = 0
        self.epoch = ""
        self.replaced = 0
        club.presence[table] = True
        club.local_logs[table] = self

    def poll(self) -> None:
        try:
            f = open(self.path, "rb")  # noqa: SIM115
        except FileNotFoundError:
            return
        with f:
            self.club.heard[self.table] = time.time()  # the log is here: read as it grows
            st = os.fstat(f.fileno())
            if (
                not self.epoch
                or st.st_size < self.offset
                or not self.epoch.startswith(f"local-{st.st_ino:x}-")
            ):  # a log (another one, or this one replaced): from its first line
                self.offset = self.line = self.fed = 0
                self.replaced += 1
                self.epoch = f"local-{st.st_ino:x}-{self.replaced}"
            for n, end, ev, why in scan_log(f, self.offset, self.line, partial=False):
                self.offset, self.line = end, n
                if ev is None:
                    if why is None:
                        continue  # a blank line: nothing to say
                    ev = events.bad(None, None, why, b"")  # as the bridge publishes it
                self.club.event(self.table, self.epoch, n, self.fed, ev, copy=False)
                self.fed = n


class Client:
    """One page's WebSocket: the tables it watches ('*': the club's list), sent latest-first
    by one writer task, so a slow page never holds the others up."""

    def __init__(self, ws: web.WebSocketResponse, watch: str):
        self.ws, self.watch = ws, watch
        self.dirty: set[str] = set()
        self.wake = asyncio.Event()

    def mark(self, table: str) -> None:
        if self.watch in ("*", table):
            self.dirty.add(table)
            self.wake.set()


def page(game: str | None) -> dict:
    """How a table's page draws its game (its host module's PAGE, plateau.games), with the
    deck its cards are read from (club.js shows a Spanish card's suit by name)."""
    if game is None:
        return {}
    try:
        host = games.find(game)
        deck = declaration(game).DECK
    except ValueError:  # a game this host does not know: its events counted, nothing drawn
        return {}
    return {**host.PAGE, "deck": deck}


class Server:
    def __init__(
        self,
        club: Club,
        token: str,
        blinds: list[Level] | None = None,
        origins: list[str] | tuple[str, ...] = (),
    ):
        self.club = club
        self.token = token
        # other addresses the pages are opened at (plateau serve --origin: a proxy, a name
        # of this machine on the club's network): scheme://host[:port]
        self.origins = {o.rstrip("/").lower() for o in origins}
        self.names = {urlsplit(o).hostname or "" for o in self.origins}
        self.blinds = blinds  # Hold'em's structure, for every Hold'em table
        self._levels: dict[str, int] = {}  # the level each Hold'em table's pages were sent
        self.refused: dict[str, int] = {}  # writes refused, by why
        self._live: dict[str, bool] = {}  # what each table's pages were last told of it
        self.clients: weakref.WeakSet[Client] = weakref.WeakSet()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.control: Control | None = None  # the writes to stand-alone tables (club.control)
        club.listeners.append(self._changed)

    def _changed(self, table: str) -> None:
        for c in list(self.clients):
            c.mark(table)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers], client_max_size=64 * 1024)
        app.add_routes(
            [
                web.get("/", self.page("club")),
                web.get("/table/{table}", self.page("table")),
                web.get("/league/{game}", self.page("league")),
                web.get("/results", self.page("results")),
                web.get("/results/table/{table}", self.page("results")),
                web.get("/results/night/{night}", self.page("results")),
                web.get("/operator", self.page("operator")),
                web.get("/tv", self.page("tv")),
                *self.history(),
                web.get("/api/club", self.api_club),
                web.get("/api/table/{table}", self.api_table),
                web.get("/api/league/{game}", self.api_league),
                web.get("/api/results", self.api_results),
                web.get("/api/audit", self.api_audit),
                web.post("/api/table/{table}/players", self.api_players),
                web.post("/api/results/{result}/{action}", self.api_decide),
                *(self.control.routes(self) if self.control else ()),  # club.control
                web.get("/ws", self.websocket),
                web.get("/favicon.ico", self.no_icon),
                web.static("/static", STATIC),
            ]
        )
        return app

    def history(self) -> list[web.RouteDef]:
        """The pages of what was played: a game's moves and any moment of it (club.moments),
        each player's games and rating over time (club.careers)."""
        from plateau.club.careers import Careers
        from plateau.club.moments import Moments

        return [*Moments(self).routes(), *Careers(self).routes()]

    async def no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    def _host_ok(self, host: str) -> bool:
        """The Host a request names is one of this scoreboard's: an address, this machine's
        name, or an --origin's (a page of another site whose name was made to point here,
        DNS rebinding, names its own)."""
        name = (urlsplit(f"//{host}").hostname or "").lower()
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            pass
        own = {"localhost", socket.gethostname().lower(), socket.getfqdn().lower()}
        own |= {f"{n.split('.')[0]}.local" for n in own}
        return name in own or name in self.names

    def _origin_ok(self, origin: str, host: str) -> bool:
        """A browser's page may use the WebSocket and write only from the scoreboard's own
        pages (same origin) or an --origin."""
        o = origin.rstrip("/").lower()
        return o in self.origins or o in (f"http://{host}".lower(), f"https://{host}".lower())

    @web.middleware
    async def _headers(self, request: web.Request, handler):
        host = request.host
        if not self._host_ok(host):
            raise web.HTTPForbidden(
                text=f"this scoreboard does not answer to {host!r}: plateau serve --origin"
                " http://NAME:PORT adds a name"
            )
        origin = request.headers.get("Origin")
        if (request.method != "GET" or request.path == "/ws") and origin is not None:
            if not self._origin_ok(origin, host):
                why = f"origin {origin}"
                self.refused[why] = self.refused.get(why, 0) + 1
                raise web.HTTPForbidden(
                    text=f"a page of {origin} may not use this scoreboard (its own pages and"
                    " plateau serve --origin may)"
                )
        try:
            resp = await handler(request)
        except sqlite3.Error as e:  # a damaged database: said, not a traceback and a 500
            print(f"plateau serve: {e}", file=sys.stderr)
            resp = web.json_response({"error": str(e)}, status=503)
        resp.headers.update(HEADERS)
        return resp

    def page(self, name: str):
        """A page: the one HTML shell with its name (one of ours, never the request's)."""
        rated = ",".join(games.league())  # the league's games (names: letters, digits, _)
        html = (STATIC / "page.html").read_text().replace("{page}", name).replace("{games}", rated)

        async def handler(request: web.Request) -> web.StreamResponse:
            t = request.match_info.get("table")
            g = request.match_info.get("game")
            night = request.match_info.get("night")
            if (
                (t is not None and not TABLE.match(t))
                or (g is not None and g not in games.league())
                or (night is not None and night_bounds(night) is None)
            ):
                raise web.HTTPNotFound(text="no such table, game or night")
            return web.Response(text=html, content_type="text/html")

        return handler

    def _summaries(self) -> list[dict]:
        return [self._summaries_one(t) for t in sorted(self.club.tables)]

    async def api_club(self, request: web.Request) -> web.Response:
        """Every table, and what was refused (messages from the broker, writes), by why."""
        body = {"tables": self._summaries(), "refused": self.club.refused, "writes": self.refused}
        return web.json_response(body, dumps=dumps)

    async def api_table(self, request: web.Request) -> web.Response:
        t = request.match_info["table"]
        st = self.club.tables.get(t)
        if st is None:
            raise web.HTTPNotFound(text="no such table")
        return web.json_response(self._state_message(t), dumps=dumps)

    async def api_league(self, request: web.Request) -> web.Response:
        game = request.match_info["game"]
        if game not in games.league():
            raise web.HTTPNotFound(text="no such game")
        league = self.club.league
        body = league.standings(game) if league else {"ratings": [], "history": []}
        return web.json_response(body, dumps=dumps)

    async def api_results(self, request: web.Request) -> web.Response:
        """The results of a table, of a night (06:00 to 06:00, this machine's time), or of
        tonight, with each one's verdict and why."""
        table = request.query.get("table")
        night = request.query.get("night")
        if table is not None and not TABLE.match(table):
            raise web.HTTPNotFound(text="no such table")
        if night is None and table is None:
            night = night_of(time.time())
        bounds = night_bounds(night) if night is not None else (None, None)
        if bounds is None:
            raise web.HTTPNotFound(text="a night is YYYY-MM-DD")
        league = self.club.league
        rows = league.results(table=table, since=bounds[0], until=bounds[1]) if league else []
        return web.json_response(
            {"table": table, "night": night, "results": [shown_result(r) for r in rows]},
            dumps=dumps,
        )

    def _operator(self, request: web.Request, what: str) -> None:
        """Writes and the audit need the operator's token."""
        given = request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {self.token}".encode()):
            raise web.HTTPUnauthorized(text=f"the operator's token is needed to {what}")

    @staticmethod
    def _who(request: web.Request, body: dict) -> str:
        """Who the audit names: the name the operator gave, and where the request came from."""
        by = body.get("by") if isinstance(body, dict) else None
        name = by.strip() if isinstance(by, str) and 0 < len(by.strip()) <= 40 else "operator"
        return clean(f"{name} ({request.remote or 'unknown address'})")

    async def api_audit(self, request: web.Request) -> web.Response:
        self._operator(request, "read the audit")
        league = self.club.league
        return web.json_response({"audit": league.audit() if league else []}, dumps=dumps)

    async def api_decide(self, request: web.Request) -> web.Response:
        """An operator confirms or voids a result (`/api/results/ID/confirm`, `.../void`)."""
        self._operator(request, "confirm or void a result")
        league = self.club.league
        if league is None:
            raise web.HTTPNotFound(text="no results: the scoreboard has no --db")
        body = await self._body(request, required=False)
        try:
            result = int(request.match_info["result"])
            done = league.decide(result, request.match_info["action"], self._who(request, body))
        except LookupError as e:  # no such result
            raise web.HTTPNotFound(text=str(e)) from e
        except ValueError as e:
            raise web.HTTPBadRequest(text=str(e)) from e
        if done["table"] in self.club.tables:
            self._changed(done["table"])
        return web.json_response({"ok": True, **done})

    async def _body(self, request: web.Request, required: bool = True) -> dict:
        """A write's JSON object, refused as the broker's messages are (size, depth, not JSON:
        mqtt.decode), counted by why; an empty body is {} where none is needed."""
        raw = await request.read()  # past client_max_size: 413, from aiohttp
        if not raw and not required:
            return {}
        try:
            body = decode(raw, "write")
            if not isinstance(body, dict):
                raise Refused("not a JSON object")
        except Refused as e:
            why = f"write: {e}"
            self.refused[why] = self.refused.get(why, 0) + 1
            raise web.HTTPBadRequest(text=f"refused: {e}") from e
        return body

    async def api_players(self, request: web.Request) -> web.Response:
        self._operator(request, "name players")
        t = request.match_info["table"]
        league = self.club.league
        if not TABLE.match(t) or league is None:
            raise web.HTTPNotFound(text="no such table")
        if not self.club.known(t):
            raise web.HTTPNotFound(text=f"no table {t} has published to this scoreboard")
        body = await self._body(request)
        try:
            seats = body["seats"]
            league.seat(t, seats, self._who(request, body))
        except (ValueError, KeyError, TypeError) as e:
            raise web.HTTPBadRequest(text=f"bad players: {e}") from e
        if t in self.club.tables:
            self._changed(t)
        return web.json_response({"ok": True, "seats": league.seats(t)})

    def blind_clock(self, table: str) -> dict | None:
        """Where a Hold'em table's blind clock stands (from its game's start), if there is a
        structure."""
        st = self.club.tables.get(table)
        if not self.blinds or st is None or not page(st.game).get("blinds"):
            return None
        started = st.game_start.get("wall") or st.updated
        return clock(self.blinds, time.time() - started)

    def tick(self) -> None:
        """Pages learn of a new blind level when it comes, and of a table gone quiet (or
        back), not at the next event."""
        for t in list(self.club.tables):
            c = self.blind_clock(t)
            if c is not None and self._levels.get(t) != c["level"]:
                self._levels[t] = c["level"]
                self._changed(t)
            live = self.club.liveness(t)["live"]
            if self._live.get(t) != live:
                self._live[t] = live
                self._changed(t)

    def _state_message(self, table: str) -> dict:
        st = self.club.tables[table]
        league = self.club.league
        return {
            "blinds": self.blind_clock(table),
            "type": "state",
            "state": st.to_dict(),
            "page": page(st.game),
            "online": self.club.presence.get(table, False),
            "stale": table in self.club.stale,
            **self.club.liveness(table),
            "players": league.seats(table) if league else {},
            "results": [shown_result(r) for r in league.results(table=table)[-RESULTS_SHOWN:]]
            if league
            else [],
            "sent": time.time(),
        }

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        watch = request.query.get("table", "*")
        if watch != "*" and not TABLE.match(watch):
            raise web.HTTPNotFound(text="no such table")
        ws = web.WebSocketResponse(heartbeat=10)
        await ws.prepare(request)
        client = Client(ws, watch)
        self.clients.add(client)
        for t in self.club.tables:
            client.mark(t)
        writer = asyncio.create_task(self._write(client))
        try:
            async for msg in ws:  # pages send nothing; this notices them leave
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            writer.cancel()
            self.clients.discard(client)
        return ws

    async def _write(self, client: Client) -> None:
        while not client.ws.closed:
            await client.wake.wait()
            client.wake.clear()
            dirty, client.dirty = client.dirty, set()
            for t in sorted(dirty):
                if t not in self.club.tables:
                    continue
                if client.watch == "*":
                    msg = {"type": "summary", "sent": time.time(), "table": self._summaries_one(t)}
                else:
                    msg = self._state_message(t)
                try:
                    await client.ws.send_str(dumps(msg))
                except (ConnectionError, RuntimeError):
                    return

    def namer(self, t: str) -> Callable[[str], str]:
        """name(seat) for a table's words: its player's name, else its label (club.moments)."""
        from plateau.club.moments import seat_namer

        st = self.club.tables.get(t)
        players = self.club.league.seats(t) if self.club.league else {}
        return seat_namer(players, page(st.game if st else None).get("seats") or {})

    def _summaries_one(self, t: str) -> dict:
        st = self.club.tables[t]
        return {
            **st.summary(),
            "said": st.headline(self.namer(t)),
            "online": self.club.presence.get(t, False),
            "stale": t in self.club.stale,
            **self.club.liveness(t),
        }


RESULTS_SHOWN = 8  # a table's latest results on its page
NIGHT_STARTS_H = 6  # a club night runs from 06:00 to 06:00: a game past midnight is tonight's


def night_of(t: float) -> str:
    """The night (YYYY-MM-DD, this machine's time) a moment belongs to."""
    return time.strftime("%Y-%m-%d", time.localtime(t - NIGHT_STARTS_H * 3600))


def night_bounds(night: str) -> tuple[float, float] | None:
    """(from, to) of a night as times, None if it is not YYYY-MM-DD."""
    import datetime

    try:
        day = datetime.date.fromisoformat(night)
    except (TypeError, ValueError):
        return None
    if len(night) != 10:
        return None
    start = datetime.datetime(day.year, day.month, day.day, NIGHT_STARTS_H)
    return start.timestamp(), (start + datetime.timedelta(days=1)).timestamp()


def shown_result(r: dict) -> dict:
    """A recorded result as a page shows it: the seats' names (an unnamed seat's as the
    league rates it, `table:seat`), its verdict and why."""
    names = {s: r["players"].get(s) or f"{r['table']}:{s}" for s in r["seats"]}
    keep = (
        "id",
        "table",
        "game",
        "rules",
        "ranking",
        "score",
        "verdict",
        "why",
        "lines",
        "players",
    )
    return {**{k: r[k] for k in keep}, "epoch": r.get("epoch"), "names": names,
            "finished": r["finished"], "night": night_of(r["finished"] or 0)}  # fmt: skip


TOKEN_BYTES = 24


def load_token(path: str | None, db: str | None = None) -> tuple[str, str]:
    """(token, where it came from): --token-file, PLATEAU_TOKEN, else the file beside the
    database (DB.token: made on the first run, mode 600, the same token at every start), else
    made for this run (no --db: nothing to write). A token file others may read is refused,
    as ssh refuses such a key."""
    if path:
        return _read_token(Path(path)), path
    if os.environ.get("PLATEAU_TOKEN"):
        return os.environ["PLATEAU_TOKEN"], "PLATEAU_TOKEN"
    if db:
        beside = Path(f"{db}.token")
        try:
            fd = os.open(beside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return _read_token(beside), f"kept in {beside}"
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with os.fdopen(fd, "w") as f:
            f.write(token + "\n")
        return token, f"made and kept in {beside}"
    return secrets.token_urlsafe(TOKEN_BYTES), "made for this run: give --db to keep one"


def _read_token(path: Path) -> str:
    mode = path.stat().st_mode
    if mode & 0o077:
        raise ValueError(
            f"the token in {path} may be read by others (mode {mode & 0o777:o}): chmod 600 {path}"
        )
    token = path.read_text().strip()
    if len(token) < 12:
        raise ValueError(f"the token in {path} is shorter than 12 characters")
    return token


def serve(args) -> int:
    """`plateau serve` (arguments: club.add_serve)."""
    if bool(args.mqtt) == bool(args.log):
        print(
            "plateau serve: give --mqtt HOST:PORT (many tables) or --log FILE (one table)",
            file=sys.stderr,
        )
        return 2
    # every option file is text already (commands.text_file); what they say is checked here
    try:
        token, source = load_token(args.token_file, args.db)
        broker = Broker.parse(args.mqtt, args.user, args.password_file) if args.mqtt else None
    except (OSError, ValueError) as e:
        print(f"plateau serve: {e}", file=sys.stderr)
        return 2
    try:
        blinds = load(args.blinds) if args.blinds else None
    except (OSError, StructureError) as e:
        print(f"plateau serve: --blinds {args.blinds}: {e}", file=sys.stderr)
        return 2
    league = League(args.db) if args.db else None
    club = Club(league)
    club.say = lambda m: print(f"plateau serve: {m}", file=sys.stderr, flush=True)
    if league and args.mqtt:
        lines = club.restore()
        if lines:
            print(
                f"plateau serve: {len(club.replays)} tables replayed again from {args.db}"
                f" ({lines} lines)",
                file=sys.stderr,
            )
    server = Server(club, token, blinds, args.origin or ())
    server.control = control = Control(club)
    control.changed = server._changed
    control.said = club.say

    async def main() -> None:
        loop = asyncio.get_running_loop()
        server.loop = loop
        stopping = asyncio.Event()  # SIGTERM (systemd, a test): stop as cleanly as Ctrl-C
        loop.add_signal_handler(signal.SIGTERM, stopping.set)
        feed = None
        if broker:

            def take(table: str, what: str, payload: bytes, retained: bool) -> None:
                if not control.message(table, what, payload):  # answers: the writes'
                    club.message(table, what, payload, retained)

            def hand_over(table: str, what: str, payload: bytes, retained: bool) -> None:
                loop.call_soon_threadsafe(take, table, what, payload, retained)

            feed = Feed(
                broker,
                hand_over,
                client_id=args.client_id,
                say=lambda m: print(f"plateau serve: {m}", file=sys.stderr),
            )
            feed.start()
            control.publish = lambda topic, payload: feed.client.publish(topic, payload, qos=1)
        runner = web.AppRunner(server.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, args.host, args.port)
        try:
            await site.start()
        except OSError as e:  # a port in use, a host that is not this machine's
            await runner.cleanup()
            if feed:
                feed.stop()
            busy = getattr(e, "errno", None) == errno.EADDRINUSE
            raise Unserved(
                f"cannot listen on {args.host}:{args.port}: "
                + ("the port is in use (another plateau serve?)" if busy else str(e.strerror or e)),
                NO_BOARD if busy else USAGE,
            ) from None
        port = runner.addresses[0][1]  # the one chosen, with --port 0
        print(f"plateau serve: http://{args.host}:{port}/", flush=True)
        if source.startswith("made for this run"):  # nowhere else to find it
            print(f"plateau serve: operator token ({source}): {token}", flush=True)
        else:
            print(f"plateau serve: operator token {source} (the operator's page asks for it)")
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print(
                "plateau serve: listening beyond this machine: pages are read-only,"
                " writes need the token",
                file=sys.stderr,
            )
        local = LocalLog(club, args.log, args.table) if args.log else None
        try:
            n = 0
            while not stopping.is_set():
                if local:
                    local.poll()
                n += 1
                if n % 20 == 0:
                    club.keep()  # the lines taken, in the SQLite file every 0.2 s
                if n % 50 == 0:
                    if feed is not None:  # the pages say so when the broker is gone
                        up = feed.connected.is_set()
                        club.broker_down = None if up else club.broker_down or time.time()
                    server.tick()
                    club.tick()
                    control.tick()
                await asyncio.sleep(0.01)
        finally:
            if feed:
                feed.stop()
            club.keep()
            await runner.cleanup()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except Unserved as e:
        print(f"plateau serve: {e}", file=sys.stderr)
        return e.code
    return 0


class Unserved(Exception):
    """The scoreboard cannot listen where asked: the message and the exit code."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code
