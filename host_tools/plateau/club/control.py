"""The scoreboard drives stand-alone tables (issue 30; docs/club.md, "Driving a table"): with
the operator's token, `plateau serve` starts a game with its settings at a table that is on
the club's Wi-Fi (firmware/link/uplink.py), names its seats, and sends undo, pause and resume.

Each write goes through the table's commands topic (plateau/<table>/commands, which only the
scoreboard's user may write) as the same command object `plateau send` writes to the USB
port: the same words, checked by the same checker first (plateau.fw.link.commands, the
board's own), with an id. The table's link does a command once per id and answers a command
sent again with the answer it gave (link/link.py): so the scoreboard sends it again, with the
same id, every RESEND_S while the table is online and has not answered (a broker restarted,
a connection cut: what was in flight is gone), for GIVE_UP_S at most, and the table does it
once. A page's click carries a key the page made for that one action: a click repeated (a
double click, a page that sends again) names the same write, which is not sent as a new
command.

Every write is recorded in the SQLite file (`club_commands`: who, when, the table, the
command as sent with its id, how many times it was sent, the table's answer and when), with
a row in the operator's audit (`club_audit`: the command, then the table's answer). What the
scoreboard refuses before anything is sent is recorded too, with why: a table it has never
heard from, a table that takes no commands (bridged from a laptop: its commands go by
`plateau send` at the table), a table offline, a word the scoreboard does not send or the
table's game does not take, settings or names the checker refuses. A `new` with names, once
the table has answered that it started the game, names those seats for the league and the
page (the table's other seats are freed), audited as the operator's naming; the table says
who sits where in its own log too (a `seated` event)."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from plateau import games
from plateau.club.league import check_name
from plateau.club.mqtt import TABLE, Refused, decode

WORDS = ("new", "undo", "pause", "resume")  # what the scoreboard sends a table
RESEND_S = 2.0  # the same command again (same id) while unanswered and the table online
GIVE_UP_S = 120.0  # ... for this long at most: then recorded unanswered
ANSWER_WAIT_S = 8.0  # a write's request waits this long for the table's answer
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}\Z")  # a page's key for one action
SHOWN = 20  # the latest writes /api/control lists

SCHEMA = """
create table if not exists club_commands (
    id integer primary key, at real not null, who text not null, tbl text not null,
    key text, cid text, command text not null, status text not null,
    sent integer not null default 0, answered real, why text,
    unique (tbl, key)
);
"""
# status: sent (waiting for the table), done (the table did it), refused (the table's
# answer said why not), unanswered (no answer within GIVE_UP_S: the table's log says whether
# it did it), not sent (the scoreboard refused it: why)


class Refusal(Exception):
    """A write the scoreboard will not send: the HTTP status and why, in words."""

    def __init__(self, status: int, why: str):
        super().__init__(why)
        self.status = status
        self.why = why


class Control:
    """The writes to tables: checked, recorded, sent until answered (see the module)."""

    def __init__(self, club: Any, publish: Callable[[str, bytes], object] | None = None):
        self.club = club
        self.league = club.league
        self.publish = publish  # (topic, payload) at QoS 1; None: no broker
        self.takes: dict[str, bool] = {}  # each table's presence: does it take commands
        self.pending: dict[str, dict] = {}  # command id -> the write under way
        self.waiting: dict[str, list[asyncio.Future]] = {}
        self.changed: Callable[[str], None] = lambda t: None
        self.said: Callable[[str], None] = lambda m: None
        self._nonce = secrets.token_hex(3)  # ids of this scoreboard's run: c<row>-<nonce>
        if self.league:
            self.league.db.executescript(SCHEMA)
            self._restore()

    # --- what the broker brings ------------------------------------------------------------

    def message(self, table: str, what: str, payload: bytes) -> bool:
        """A table's presence (whether it takes commands) or answers; True when it was an
        answers message (the club's fold has no use for those)."""
        if what == "presence":
            try:  # refused alike before it is parsed (size, depth): club.mqtt.decode
                d = decode(payload, "presence") if payload else {}
            except (ValueError, RecursionError):  # Refused: the club counts it
                d = {}
            if isinstance(d, dict) and d.get("online") is True:  # (its will says only false)
                self.takes[table] = d.get("commands") is True
            return False
        if what != "answers":
            return False
        try:
            d = decode(payload, "events")
        except Refused:
            return True
        if isinstance(d, dict) and d.get("type") == "answer" and isinstance(d.get("id"), str):
            w = self.pending.get(d["id"])
            if w is not None and w["table"] == table:
                why = d.get("why")
                self._answered(w, bool(d.get("ok")), why if isinstance(why, str) else None)
        return True

    # --- a write -------------------------------------------------------------------------

    def request(self, table: str, body: dict, who: str) -> tuple[dict, bool]:
        """A write from the operator: (its record, whether it is new). The same key again is
        the same write (not sent again as a new command). Refusal when the scoreboard will not
        send it (recorded with why when there is a file to record it in)."""
        if self.league is None:
            raise Refusal(
                503, "the scoreboard has no --db: its writes to tables could not be recorded"
            )
        key = body.get("key")
        if key is not None:
            if not isinstance(key, str) or not KEY.match(key):
                raise Refusal(400, "key: 8-64 letters, digits, - or _ (one per action)")
            had = self._row("where tbl = ? and key = ?", (table, key))
            if had:
                return had[0], False
        raw = {k: body[k] for k in ("cmd", "game", "settings", "names") if k in body}
        try:
            cmd = self.check(table, body)
        except Refusal as e:
            self._insert(table, key, who, raw, "not sent", e.why)
            raise
        w = self._insert(table, key, who, cmd, "sent", None)
        self.league._audit(who, "command", table, None, None, w["command"])
        self.league.db.commit()
        self.pending[w["command"]["id"]] = w
        self._send(w)
        self.changed(table)
        return w, True

    def check(self, table: str, body: dict) -> dict:
        """The command a write asks for, checked as the board checks it (and a `new`'s names
        against the seats its game has); Refusal says why not."""
        club = self.club
        if not TABLE.match(table) or not club.known(table):
            raise Refusal(404, f"no table {table} has published to this scoreboard")
        word = body.get("cmd")
        if word not in WORDS:
            shown = json.dumps(word)[:40]
            raise Refusal(400, f"the scoreboard sends a table {', '.join(WORDS)}; not {shown}")
        if self.publish is None:
            raise Refusal(409, "this scoreboard has no broker: it reaches tables through one")
        if not self.takes.get(table):
            raise Refusal(
                409,
                f"table {table} takes no commands from the scoreboard: it is bridged from a"
                " laptop (plateau send there drives it)",
            )
        live = club.liveness(table)
        if not live["live"]:
            raise Refusal(409, f"table {table} is offline: {live['why']}")
        extra = sorted(set(body) - {"cmd", "game", "settings", "names", "key", "by"})
        if extra:
            raise Refusal(400, f"{word}: unknown field {json.dumps(extra[0])[:40]}")
        from plateau.fw.link.commands import typed

        if word != "new":
            st = club.tables.get(table)
            game = st.game if st else None
            if game is None:
                raise Refusal(409, f"table {table} plays no game the scoreboard knows yet")
            try:
                typed({"cmd": word}, game)  # the game's own words (Weykick's pause)
            except ValueError as e:
                raise Refusal(400, str(e)) from None
            return {"cmd": word}
        game = body.get("game")
        settings = body.get("settings", {})
        names = body.get("names")
        if not isinstance(settings, dict):
            raise Refusal(400, "settings: {name: value}")
        taken = [k for k in settings if k in games.RESERVED]
        if taken:
            raise Refusal(400, f"settings: {taken[0]!r} is a word of the command, no setting")
        cmd: dict = {"cmd": "new", "game": game, **settings}
        if names:
            cmd["names"] = names
        try:
            out = typed(cmd)  # the game, its settings, the names' form: the board's checker
            if names:
                seats = games.find(out["game"]).seats
                if seats is None:
                    raise Refusal(400, f"{out['game']}'s seats are not named from the scoreboard")
                from plateau.fw.games.settings import check

                have = seats(out.get("settings") or check(out["game"], {}))
                for who in out["names"].values():
                    check_name(who)  # as the league keeps it (no invisible characters)
                wrong = [s for s in out["names"] if s not in have]
                if wrong:
                    raise Refusal(
                        400,
                        f"names: {out['game']} with these settings has the seats"
                        f" {', '.join(have)}, not {wrong[0]}",
                    )
        except ValueError as e:  # SettingsError: what is wrong, in words
            raise Refusal(400, str(e)) from None
        if names:
            cmd["names"] = out["names"]  # (the text form read into seats and names)
        return cmd

    # --- sending until answered -------------------------------------------------------------

    def _send(self, w: dict) -> None:
        assert self.publish is not None
        payload = json.dumps(w["command"], separators=(",", ":"), ensure_ascii=False).encode()
        self.publish(f"plateau/{w['table']}/commands", payload)
        w["sent"] += 1
        w["last"] = time.monotonic()
        self.league.db.execute(
            "update club_commands set sent = ? where id = ?", (w["sent"], w["id"])
        )
        self.league.db.commit()

    def tick(self, now: float | None = None) -> None:
        """Unanswered writes sent again (same id) every RESEND_S while their table is online
        and the broker there; given up after GIVE_UP_S."""
        mono = time.monotonic() if now is None else now
        for cid, w in list(self.pending.items()):
            if time.time() - w["at"] >= GIVE_UP_S:
                del self.pending[cid]
                self._finish(w, "unanswered", f"no answer from the table in {GIVE_UP_S:.0f} s")
                continue
            if mono - w.get("last", 0.0) < RESEND_S:
                continue
            if self.club.broker_down is None and self.club.liveness(w["table"])["live"]:
                self._send(w)

    def _answered(self, w: dict, ok: bool, why: str | None) -> None:
        cid = w["command"]["id"]
        self.pending.pop(cid, None)
        table = w["table"]
        self._finish(w, "done" if ok else "refused", None if ok else why or "refused")
        self.league._audit(
            f"table {table}", "answer", table, None, w["command"], {"ok": ok, "why": why}
        )
        names = w["command"].get("names")
        if ok and names:  # the game started: its seats named for the league and the page
            freed = {s: "" for s in self.league.seats(table) if s not in names}
            try:
                self.league.seat(table, {**freed, **names}, w["who"])
            except ValueError as e:  # (checked before it was sent: a write of an older page)
                self.said(f"table {table}: its seats not named ({e})")
        self.league.db.commit()
        self.changed(table)

    def _finish(self, w: dict, status: str, why: str | None) -> None:
        w["status"], w["why"], w["answered"] = status, why, time.time()
        self.league.db.execute(
            "update club_commands set status = ?, why = ?, answered = ? where id = ?",
            (status, why, w["answered"], w["id"]),
        )
        self.league.db.commit()
        for f in self.waiting.pop(w["command"]["id"], []):
            if not f.done():
                f.set_result(None)
        if status == "unanswered":
            self.said(f"table {w['table']} did not answer {w['command']['cmd']} ({why})")
        self.changed(w["table"])

    async def wait(self, w: dict, timeout: float = ANSWER_WAIT_S) -> dict:
        """The write once answered, or as it stands after `timeout`."""
        if w["status"] == "sent":
            f = asyncio.get_running_loop().create_future()
            self.waiting.setdefault(w["command"]["id"], []).append(f)
            try:
                await asyncio.wait_for(f, timeout)
            except TimeoutError:
                pass
        return self.shown(w)

    # --- the record -----------------------------------------------------------------------

    def _insert(self, table: str, key, who: str, cmd: dict, status: str, why) -> dict:
        db = self.league.db
        at = time.time()
        cur = db.execute(
            "insert into club_commands (at, who, tbl, key, command, status, why)"
            " values (?, ?, ?, ?, ?, ?, ?)",
            (at, who, table, key, json.dumps(cmd), status, why),
        )
        rowid = cur.lastrowid
        if status == "sent":
            cmd = {**cmd, "id": f"c{rowid}-{self._nonce}"}
            db.execute(
                "update club_commands set cid = ?, command = ? where id = ?",
                (cmd["id"], json.dumps(cmd), rowid),
            )
        db.commit()
        return {
            "id": rowid,
            "at": at,
            "who": who,
            "table": table,
            "command": cmd,
            "status": status,
            "why": why,
            "sent": 0,
            "answered": None,
        }

    def _row(self, where: str, args: tuple) -> list[dict]:
        rows = self.league.db.execute(
            "select id, at, who, tbl, command, status, why, sent, answered from club_commands "
            + where,
            args,
        ).fetchall()
        out = []
        for r in rows:
            try:
                cmd = json.loads(r[4])
            except ValueError:
                cmd = {"cmd": "?"}
            w = {
                "id": r[0],
                "at": r[1],
                "who": r[2],
                "table": r[3],
                "command": cmd,
                "status": r[5],
                "why": r[6],
                "sent": r[7],
                "answered": r[8],
            }
            cid = cmd.get("id") if isinstance(cmd, dict) else None
            out.append(self.pending.get(cid, w) if isinstance(cid, str) else w)
        return out

    def _restore(self) -> None:
        """Writes a scoreboard stopped while they were under way: sent again until answered
        (their ids are the ones the table may have done already: done once)."""
        for w in self._row("where status = 'sent'", ()):
            if isinstance(w["command"].get("id"), str):
                self.pending[w["command"]["id"]] = w

    def shown(self, w: dict) -> dict:
        return {k: w[k] for k in ("id", "at", "who", "table", "command", "status", "why",
                                  "sent", "answered")}  # fmt: skip

    def recent(self, table: str | None = None) -> list[dict]:
        where = "where tbl = ? " if table else ""
        rows = self._row(where + "order by id desc limit ?", ((table,) if table else ()) + (SHOWN,))
        return [self.shown(w) for w in rows]

    def tables(self) -> list[dict]:
        """Every table the scoreboard knows, as the operator's page drives it: online, taking
        commands, its game and the words that game takes from the scoreboard."""
        from plateau.fw.link.commands import typed

        out = []
        for t in sorted(set(self.club.tables) | set(self.takes)):
            st = self.club.tables.get(t)
            game = st.game if st else None
            words = ["new"]
            for word in WORDS[1:]:
                try:
                    if game:
                        typed({"cmd": word}, game)
                        words.append(word)
                except ValueError:
                    pass
            out.append(
                {
                    "table": t,
                    "game": game,
                    "takes": bool(self.takes.get(t)),
                    "live": self.club.liveness(t)["live"],
                    "words": words,
                }
            )
        return out

    # --- the routes (plateau serve adds them to its own) -------------------------------------

    def routes(self, server: Any) -> list:
        """The operator's writes to tables and what the page needs to make them:
        POST /api/table/T/command, GET /api/control (the tables and the latest writes),
        GET /api/games (each game's settings, for the form), GET /api/seats/G?settings=JSON."""

        async def command(request: web.Request) -> web.Response:
            server._operator(request, "drive a table")
            table = request.match_info["table"]
            body = await server._body(request)
            try:
                w, new = self.request(table, body, server._who(request, body))
            except Refusal as e:
                return web.json_response({"ok": False, "why": e.why}, status=e.status)
            shown = await self.wait(w) if w["status"] == "sent" else self.shown(w)
            return web.json_response({"ok": True, "again": not new, "write": shown})

        async def control(request: web.Request) -> web.Response:
            server._operator(request, "see the writes to tables")
            return web.json_response(
                {"tables": self.tables(), "writes": self.recent() if self.league else []}
            )

        async def game_list(request: web.Request) -> web.Response:
            return web.json_response({"games": declared()})

        async def seats(request: web.Request) -> web.Response:
            game = request.match_info["game"]
            try:
                settings = json.loads(request.query.get("settings") or "{}")
                if not isinstance(settings, dict):
                    raise ValueError("settings: {name: value}")
                from plateau.fw.games.settings import check

                s = check(game, settings)
                fn = games.find(game).seats
            except (ValueError, RecursionError) as e:
                return web.json_response({"ok": False, "why": str(e)[:200]}, status=400)
            return web.json_response({"ok": True, "seats": fn(s) if fn else []})

        return [
            web.post("/api/table/{table}/command", command),
            web.get("/api/control", control),
            web.get("/api/games", game_list),
            web.get("/api/seats/{game}", seats),
        ]


def declared() -> list[dict]:
    """Each game's settings as the operator's form shows them: name, kind, default; the
    kinds a form can hold (a whole number, a choice, text, blinds, a mode, a seat, stacks);
    Tock's position (a JSON object) is `plateau send`'s, not the page's."""
    from plateau.fw.games import declaration

    out = []
    for g in games.names():
        fields = []
        for name, kind, default in declaration(g).SETTINGS:
            k = kind[1] if kind[0] == "opt" else kind
            if k[0] == "checked":
                continue
            field: dict = {"name": name, "kind": k[0], "default": default}
            if k[0] == "int":
                field.update(lo=k[1], hi=k[2])
            elif k[0] == "choice":
                field["choices"] = list(k[1])
            elif k[0] == "text":
                field["most"] = k[1]
            elif k[0] == "mode":
                field["modes"] = [list(m) for m in k[1]]
            fields.append(field)
        out.append({"game": g, "settings": fields, "names": games.find(g).seats is not None})
    return out
