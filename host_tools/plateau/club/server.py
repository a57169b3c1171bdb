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
import json
import os
import secrets
import sqlite3
import sys
import time
import weakref
from collections.abc import Callable
from pathlib import Path

from aiohttp import WSMsgType, web

from plateau import games
from plateau.club.blinds import Level, StructureError, clock, load
from plateau.club.league import League
from plateau.club.mqtt import TABLE, Broker, Feed, open_envelope, open_state
from plateau.club.state import TableState
from plateau.errors import NO_BOARD, USAGE
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


class Club:
    """Every table's state, folded from what the feed brings; tells `listeners` which table
    changed. Repeats are dropped (TableState.feed); a hole in a table's lines (the broker lost
    them) marks the table stale until a retained state at least as far comes."""

    def __init__(self, league: League | None = None):
        self.tables: dict[str, TableState] = {}
        self.presence: dict[str, bool] = {}
        self.stale: dict[str, int] = {}  # table -> line from which its state is to be taken
        self.league = league
        self.listeners: list[Callable[[str], None]] = []
        self.rejected = 0  # messages that were not what a bridge sends
        self.holes = 0
        self.recorded: set[tuple] = set()
        self.forgotten: set[tuple] = set()

    def _changed(self, table: str) -> None:
        st = self.tables[table]
        if self.league:
            for rec in st.finished:
                key = (table, rec.get("epoch"), rec.get("last_line"))
                if key not in self.recorded:  # a state carries its finished games again
                    self.recorded.add(key)
                    # the table whose credentials published it (the topic, which the
                    # broker's ACL gives each table's user alone), never what it says
                    self.league.record({**rec, "table": table})
            for w in st.withdrawn:  # results the table took back
                key = (table, w[1], w[2])
                if key not in self.forgotten:
                    self.forgotten.add(key)
                    self.recorded.add(key)  # never recorded again from an older state
                    self.league.withdraw(*key)
        for f in self.listeners:
            f(table)

    def event(self, table: str, epoch: str, line: int, prev: int, ev: dict) -> None:
        st = self.tables.get(table)
        if st is None or epoch != st.epoch:
            if st is not None and prev > 0:
                return  # another log taken up mid-way: its retained state comes next
            st = self.tables[table] = TableState(table, epoch)  # a new log (or a first look)
            self.stale.pop(table, None)
        if prev > st.line:  # lines between were lost on the way
            self.holes += 1
            self.stale[table] = line
        if st.feed(line, ev):
            self._changed(table)

    def state(self, table: str, theirs: TableState) -> None:
        ours = self.tables.get(table)
        if (
            ours is None
            or theirs.epoch != ours.epoch
            or theirs.line > ours.line
            or (table in self.stale and theirs.line >= self.stale[table] - 1)
        ):
            theirs.table = table
            self.tables[table] = theirs
            self.stale.pop(table, None)
            self._changed(table)

    def message(self, table: str, what: str, payload: bytes) -> None:
        """A message from the broker (topic plateau/<table>/<what>)."""
        try:
            if what == "events":
                self.event(table, *open_envelope(payload))
            elif what == "state":
                if payload:  # an empty retained message clears it
                    self.state(table, open_state(payload))
            elif what == "presence":
                if len(payload) > 1024:
                    raise ValueError("presence too long")
                d = json.loads(payload.decode()) if payload else {}
                self.presence[table] = bool(isinstance(d, dict) and d.get("online"))
                if table in self.tables:
                    self._changed(table)
        except (ValueError, UnicodeDecodeError):
            self.rejected += 1


class LocalLog:
    """One table from a log on this machine, polled as it grows."""

    def __init__(self, club: Club, path: str, table: str):
        self.club, self.path, self.table = club, Path(path), table
        self.offset = self.line = 0
        club.presence[table] = True

    def poll(self) -> None:
        try:
            f = open(self.path, "rb")  # noqa: SIM115
        except FileNotFoundError:
            return
        with f:
            if os.fstat(f.fileno()).st_size < self.offset:  # replaced: from the start
                self.offset = self.line = 0
                self.club.tables.pop(self.table, None)
            for n, end, ev, _ in scan_log(f, self.offset, self.line, partial=False):
                self.offset, self.line = end, n
                if ev is not None:
                    self.club.event(self.table, "local", n, n - 1, ev)


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
    def __init__(self, club: Club, token: str, blinds: list[Level] | None = None):
        self.club = club
        self.token = token
        self.blinds = blinds  # Hold'em's structure, for every Hold'em table
        self._levels: dict[str, int] = {}  # the level each Hold'em table's pages were sent
        self.clients: weakref.WeakSet[Client] = weakref.WeakSet()
        self.loop: asyncio.AbstractEventLoop | None = None
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
                web.get("/api/club", self.api_club),
                web.get("/api/table/{table}", self.api_table),
                web.get("/api/league/{game}", self.api_league),
                web.post("/api/table/{table}/players", self.api_players),
                web.get("/ws", self.websocket),
                web.get("/favicon.ico", self.no_icon),
                web.static("/static", STATIC),
            ]
        )
        return app

    async def no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    @web.middleware
    async def _headers(self, request: web.Request, handler):
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
            if (t is not None and not TABLE.match(t)) or (
                g is not None and g not in games.league()
            ):
                raise web.HTTPNotFound(text="no such table or game")
            return web.Response(text=html, content_type="text/html")

        return handler

    def _summaries(self) -> list[dict]:
        club = self.club
        return [
            {**st.summary(), "online": club.presence.get(t, False), "stale": t in club.stale}
            for t, st in sorted(club.tables.items())
        ]

    async def api_club(self, request: web.Request) -> web.Response:
        return web.json_response({"tables": self._summaries()}, dumps=dumps)

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

    async def api_players(self, request: web.Request) -> web.Response:
        given = request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {self.token}".encode()):
            raise web.HTTPUnauthorized(text="the operator's token is needed to name players")
        t = request.match_info["table"]
        if not TABLE.match(t) or self.club.league is None:
            raise web.HTTPNotFound(text="no such table")
        try:
            body = await request.json()
            seats = body["seats"]
            self.club.league.seat(t, seats)
        except (ValueError, KeyError, TypeError) as e:
            raise web.HTTPBadRequest(text=f"bad players: {e}") from e
        if t in self.club.tables:
            self._changed(t)
        return web.json_response({"ok": True, "seats": self.club.league.seats(t)})

    def blind_clock(self, table: str) -> dict | None:
        """Where a Hold'em table's blind clock stands (from its game's start), if there is a
        structure."""
        st = self.club.tables.get(table)
        if not self.blinds or st is None or not page(st.game).get("blinds"):
            return None
        started = st.game_start.get("wall") or st.updated
        return clock(self.blinds, time.time() - started)

    def tick(self) -> None:
        """Pages learn of a new blind level when it comes, not at the next event."""
        for t in list(self.club.tables):
            c = self.blind_clock(t)
            if c is not None and self._levels.get(t) != c["level"]:
                self._levels[t] = c["level"]
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
            "players": league.seats(table) if league else {},
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

    def _summaries_one(self, t: str) -> dict:
        st = self.club.tables[t]
        return {
            **st.summary(),
            "online": self.club.presence.get(t, False),
            "stale": t in self.club.stale,
        }


def load_token(path: str | None) -> tuple[str, str]:
    """(token, where it came from): a file, PLATEAU_TOKEN, or made now."""
    if path:
        token = Path(path).read_text().strip()
        if len(token) < 12:
            raise ValueError(f"the token in {path} is shorter than 12 characters")
        return token, path
    if os.environ.get("PLATEAU_TOKEN"):
        return os.environ["PLATEAU_TOKEN"], "PLATEAU_TOKEN"
    return secrets.token_urlsafe(16), "made for this run"


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
        token, source = load_token(args.token_file)
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
    server = Server(club, token, blinds)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        server.loop = loop
        feed = None
        if broker:

            def hand_over(table: str, what: str, payload: bytes) -> None:
                loop.call_soon_threadsafe(club.message, table, what, payload)

            feed = Feed(
                broker,
                hand_over,
                client_id=args.client_id,
                say=lambda m: print(f"plateau serve: {m}", file=sys.stderr),
            )
            feed.start()
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
        print(f"plateau serve: operator token ({source}): {token}", flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print(
                "plateau serve: listening beyond this machine: pages are read-only,"
                " writes need the token",
                file=sys.stderr,
            )
        local = LocalLog(club, args.log, args.table) if args.log else None
        try:
            n = 0
            while True:
                if local:
                    local.poll()
                n += 1
                if n % 50 == 0:
                    server.tick()
                await asyncio.sleep(0.01)
        finally:
            if feed:
                feed.stop()
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
