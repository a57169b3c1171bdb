"""A game's move list, and any moment of it as a link a person can share.

`/table/<table>/at/<epoch>/<line>` is the table's page drawn as it stood once line `line` of
its log `epoch` was taken: the state folded from that log's lines up to that line with the
fold the live page uses (club.state.TableState, each game's Club), beside the move list of
the game the line belongs to, every move a link to its own moment. The lines are the
scoreboard's own copy of each table's log (club_lines in the SQLite file: every line it took,
kept for every log it heard), or the log itself for `plateau serve --log`.

A log is folded once, in a worker thread (the pages stay live meanwhile), and kept folded
for the next moment asked of it (the CACHED latest logs asked for), with a copy of its state
every CHECKPOINT_EVERY lines: a moment is the copy before it and at most that many lines
folded on. The lines are the ones the scoreboard holds: lines that never reached it (a broker
lost them) are not folded in, where the live page healed itself from the table's own state.

A moment past the end of what the scoreboard holds, in a hole, of a log or table it never
heard: 404, in a sentence; a line that is not a number: 400. Never a traceback."""

from __future__ import annotations

import asyncio
import bisect
import copy
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from plateau import events
from plateau.club.mqtt import TABLE
from plateau.club.state import TableState
from plateau.events import clean, excerpt
from plateau.logger import scan_log

if TYPE_CHECKING:
    from plateau.club.server import Server

CHECKPOINT_EVERY = 128  # lines between two kept copies of a folded log's state
CACHED = 6  # logs kept folded (the latest asked for)
LINE = re.compile(r"[1-9][0-9]{0,8}\Z")  # a moment's line: 1 to 999,999,999, ASCII digits
EPOCH_MAX = 32  # a log's name, as the bridge publishes it (mqtt.open_envelope)
# a seat in a move's words until the names are put in (names may change after the fold)
MARK = "\u27e6{}\u27e7"
MARKED = re.compile("\u27e6([^\u27e6\u27e7]{1,16})\u27e7")


def seat_namer(players: dict[str, str], labels: dict[str, str]) -> Callable[[str], str]:
    """name(seat) in a table's words: its player's name (a Tock colour of a two-colour seat
    too), else its label (Tock's colour, "seat 3", "side A"), as the pages say."""

    def name(seat: str) -> str:
        seat = str(seat)
        if seat in players:
            return players[seat]
        for key, who in players.items():
            if seat in key.split("+"):
                return who
        if labels:
            return "+".join(labels.get(c, c) for c in seat.split("+"))
        return f"side {seat}" if seat in ("A", "B") else f"seat {seat}"

    return name


def named(said: str, name: Callable[[str], str]) -> str:
    """A move's words with each seat's name put in."""
    return MARKED.sub(lambda m: name(m.group(1)), said)


@dataclass
class Game:
    """One game of a log (a Tock game, a Weykick match, a Pocha match, a Hold'em table): its
    lines, its moves ((line, words with seats marked, when received)), how the fold saw it
    end (TableState.finish's record; None while under way or taken back)."""

    first: int
    last: int
    game: str | None
    moves: list[tuple[int, str, float | None]] = field(default_factory=list)
    finished: dict | None = None


class Folded:
    """One log of a table folded line by line as the live page folds it, with a copy of the
    state every CHECKPOINT_EVERY lines and each line's game."""

    def __init__(self, table: str, epoch: str) -> None:
        self.table, self.epoch = table, epoch
        self.state = TableState(table, epoch)
        self.lines: list[int] = []  # the line numbers held, in order
        self.events: list[dict] = []
        self.at: list[float | None] = []  # when the scoreboard received each
        self.starts: list[int] = []  # each line's game, by the line it starts at
        self.checkpoints: list[TableState] = []  # the state before line index k*EVERY
        self.games: dict[int, Game] = {}
        self.offset = 0  # how far a local log was read

    @property
    def last(self) -> int:
        return self.lines[-1] if self.lines else 0

    def extend(self, rows: list[tuple[int, dict, float | None]]) -> None:
        for line, ev, at in rows:
            if line <= self.last:
                continue
            i = len(self.lines)
            if i % CHECKPOINT_EVERY == 0:
                self.checkpoints.append(copy.deepcopy(self.state))
            self.lines.append(line)
            self.events.append(ev)
            self.at.append(at)
            self._fold(line, ev, at)

    def _fold(self, line: int, ev: dict, at: float | None) -> None:
        st = self.state
        withdrawn = len(st.withdrawn)
        taken = st.feed(line, ev, now=at)
        kind = ev.get("type")
        said = st.said(kind, ev, MARK.format) if taken and isinstance(kind, str) else None
        ended = st.finished[-1] if taken and st.finished else None
        if ended is not None and ended.get("last_line") != line:
            ended = None
        start = ended["first_line"] if ended else st.game_start.get("line", 1)
        if not isinstance(start, int):
            start = 1
        self.starts.append(start)
        g = self.games.get(start)
        if g is None:
            g = self.games[start] = Game(start, line, st.game)
            if said is None and st.game and kind in ("hello", "snapshot", "game"):
                said = f"{st.game}: the game begins"
        g.last = max(g.last, line)
        g.game = g.game or st.game
        if said:
            g.moves.append((line, said, at))
        if ended is not None:
            g.finished = ended
        if len(st.withdrawn) > withdrawn:  # the table took a result back: its game goes on
            back = st.withdrawn[-1][2]
            for other in self.games.values():
                if other.finished and other.finished.get("last_line") == back:
                    other.finished = None

    def index(self, line: int) -> int | None:
        """Where line `line` is among those held; None if it is not held."""
        i = bisect.bisect_left(self.lines, line)
        return i if i < len(self.lines) and self.lines[i] == line else None

    def game_of(self, i: int) -> Game:
        """The game the line at index i belongs to: the lines after a game ended and before
        the next began (a Weykick ball cleared after the last goal) are the ended game's."""
        g = self.games[self.starts[i]]
        if g.moves or g.finished:
            return g
        before = [o for o in self.games.values() if o.first < g.first and (o.moves or o.finished)]
        return max(before, key=lambda o: o.first) if before else g

    def state_at(self, i: int) -> TableState:
        """The state once the line at index i was folded in: the copy before it, folded on."""
        k = i // CHECKPOINT_EVERY
        st = copy.deepcopy(self.checkpoints[k])
        for j in range(k * CHECKPOINT_EVERY, i + 1):
            st.feed(self.lines[j], self.events[j], now=self.at[j])
        return st


class Unknown(Exception):
    """A moment that cannot be shown: its HTTP status and the sentence that says why."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status

    def http(self) -> web.HTTPException:
        kind = {400: web.HTTPBadRequest, 404: web.HTTPNotFound}.get(
            self.status, web.HTTPInternalServerError
        )
        return kind(text=str(self))


class Moments:
    """The moments of every table's logs, for the pages (`routes`)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.club = server.club
        self.cache: OrderedDict[tuple[str, str], Folded] = OrderedDict()
        self.lock = threading.Lock()  # one fold at a time, in a worker thread

    # --- which moment ------------------------------------------------------------------------

    def where(self, request: web.Request) -> tuple[str, str, int, tuple[int, int]]:
        """(table, epoch, line, the lines held of that log) a moment's address names, or
        Unknown."""
        table = request.match_info["table"]
        epoch = request.match_info["epoch"]
        raw = request.match_info["line"]
        if not TABLE.match(table):
            raise Unknown(404, "no such table")
        if not LINE.match(raw):
            shown = clean(excerpt(raw, 24))
            raise Unknown(
                400,
                f"a moment is a line of the table's log, a number from 1 to 999999999:"
                f" not {shown!r}",
            )
        line = int(raw)
        if not self.club.known(table):
            raise Unknown(404, f"no table {table} has published to this scoreboard")
        if not 0 < len(epoch) <= EPOCH_MAX:
            raise Unknown(404, f"no such log of table {table}")
        if table not in self.club.local_logs and self.club.league is None:
            raise Unknown(
                404,
                "this scoreboard keeps no table's lines (plateau serve --db FILE keeps them):"
                " no moment to show",
            )
        held = self.held(table, epoch)
        if held is None:
            raise Unknown(404, f"the scoreboard holds no log {clean(epoch)!r} of table {table}")
        if line > held[1]:
            raise Unknown(
                404,
                f"line {line} is past the end of table {table}'s log {clean(epoch)!r}: the"
                f" scoreboard holds its lines {held[0]}-{held[1]}",
            )
        league = self.club.league
        if table not in self.club.local_logs and league and not league.has_line(table, epoch, line):
            raise Unknown(
                404,
                f"line {line} of table {table}'s log {clean(epoch)!r} never reached the"
                f" scoreboard (it holds lines {held[0]}-{held[1]}, some lost on the way)",
            )
        return table, epoch, line, held

    def held(self, table: str, epoch: str) -> tuple[int, int] | None:
        """The first and last line held of a log: a local log's as read so far, else the
        scoreboard's copy's (club_lines)."""
        local = self.club.local_logs.get(table)
        if local is not None:
            return (1, local.line) if epoch == local.epoch and local.line else None
        league = self.club.league
        if league is None:
            return None
        self.club.keep()  # the lines taken in the last 0.2 s, too
        got = league.held(table, epoch)
        return (got[0], got[1]) if got else None

    # --- folding ------------------------------------------------------------------------------

    def _rows(self, table: str, epoch: str, after: int) -> list[tuple[int, dict, Any]]:
        """The lines of a kept log past line `after` (the scoreboard's copy: read on the
        server's loop, where its SQLite connection lives)."""
        if table in self.club.local_logs or self.club.league is None:
            return []
        return self.club.league.lines(table, epoch, after)

    def _local(self, table: str, folded: Folded, upto: int) -> None:
        """A local log's lines past those folded, up to the line the live page took, as
        LocalLog reads them (worker thread)."""
        local = self.club.local_logs[table]
        rows: list[tuple[int, dict, Any]] = []
        try:
            f = open(local.path, "rb")  # noqa: SIM115
        except OSError:
            return
        with f:
            for n, end, ev, why in scan_log(f, folded.offset, folded.last, partial=False):
                if n > upto:
                    break
                folded.offset = end
                if ev is None:
                    if why is None:
                        continue
                    ev = events.bad(None, None, why, b"")
                rows.append((n, ev, None))
        folded.extend(rows)

    def _folded(self, table: str, epoch: str, after: int, rows: list, upto: int) -> Folded | None:
        """The log folded at least to `upto` (worker thread, one at a time), from `rows`, the
        lines past `after`; None when the fold kept is not as far as `after` (dropped from
        the cache meanwhile): the lines are to be read again."""
        with self.lock:
            key = (table, epoch)
            folded = self.cache.pop(key, None) or Folded(table, epoch)
            if folded.last < after:
                return None
            self.cache[key] = folded
            while len(self.cache) > CACHED:
                self.cache.popitem(last=False)
            if table in self.club.local_logs:
                self._local(table, folded, upto)
            else:
                folded.extend(rows)
            return folded

    async def moment(self, request: web.Request) -> dict:
        """A moment as its page draws it; one that cannot be folded (what the live fold
        took, folded again: not expected) is said once on stderr and answered 500 in a
        sentence, never a traceback."""
        table, epoch, line, held = self.where(request)
        try:
            return await self._moment(table, epoch, line)
        except Unknown:
            raise
        except Exception as e:  # noqa: BLE001 (the worker's boundary)
            self.club.say(f"moment {line} of table {table} not folded: {e!r}")
            raise Unknown(500, f"this moment could not be drawn: {type(e).__name__}") from e

    async def _moment(self, table: str, epoch: str, line: int) -> dict:
        folded = None
        while folded is None:
            cached = self.cache.get((table, epoch))
            after = cached.last if cached else 0
            rows = self._rows(table, epoch, after)
            folded = await asyncio.to_thread(self._folded, table, epoch, after, rows, line)
        i = folded.index(line)
        if i is None:  # (a local log's blank line)
            raise Unknown(404, f"line {line} of table {table}'s log {clean(epoch)!r} is no event")
        st, g = await asyncio.to_thread(self._at, folded, i)
        return self.shown(table, epoch, folded, i, st, g)

    def _at(self, folded: Folded, i: int) -> tuple[TableState, Game]:
        with self.lock:
            return folded.state_at(i), folded.game_of(i)

    def shown(
        self, table: str, epoch: str, folded: Folded, i: int, st: TableState, g: Game
    ) -> dict:
        from plateau.club.server import page, shown_result

        league = self.club.league
        result = None
        if league and g.finished:
            last = g.finished.get("last_line")
            for r in league.results(table=table):
                if r["epoch"] == epoch and r["lines"][1] == last:
                    result = shown_result(r)
        # the names of the game's players then: its result's, else the table's now
        players: dict[str, str] = {}
        if result is not None:
            players = {s: n for s, n in result["players"].items() if isinstance(n, str)}
        elif league:
            players = league.seats(table)
        drawn = page(st.game or g.game)
        name = seat_namer(players, drawn.get("seats") or {})
        line = folded.lines[i]
        return {
            "type": "moment",
            "table": table,
            "epoch": epoch,
            "line": line,
            "at": folded.at[i],
            "state": st.to_dict(),
            "page": drawn,
            "players": players,
            "game": {
                "game": g.game,
                "first": g.first,
                "last": g.last,
                "over": g.finished is not None,
                "result": result,
            },
            "moves": [{"line": n, "said": named(s, name), "at": at} for n, s, at in g.moves],
            "held": [folded.lines[0], folded.last],
        }

    # --- the pages ------------------------------------------------------------------------------

    async def api(self, request: web.Request) -> web.Response:
        from plateau.club.server import dumps

        try:
            body = await self.moment(request)
        except Unknown as e:
            raise e.http() from None
        return web.json_response(body, dumps=dumps)

    def routes(self) -> list[web.RouteDef]:
        shell = self.server.page("moment")

        async def page(request: web.Request) -> web.StreamResponse:
            """The page, with the status of its moment: a page that cannot be shown is
            404 or 400 and says why in the browser (its script asks the API, which says it)."""
            resp = await shell(request)
            try:
                self.where(request)
            except Unknown as e:
                resp.set_status(e.status)
            return resp

        return [
            web.get("/table/{table}/at/{epoch}/{line}", page),
            web.get("/api/table/{table}/at/{epoch}/{line}", self.api),
        ]
