"""Players, results, the league, the operator's audit and the scoreboard's copy of each
table's lines, in one SQLite file (the same file `plateau log --db` keeps its games in, or the
scoreboard's own).

Seats get player names from the operator (the scoreboard's token, or `plateau players`).
Every finished game is recorded once (the row is keyed by table, log and last line, and by
the board's numbered event that ended it): game, rules, seats, the players seated then, the
ranking, the score, the duration, the log range, and its verdict: `rated` when the
scoreboard's own replay of the table's events reached the same result (club.replay),
`disputed` with why when it did not, until an operator `confirmed` or `voided` it. Only rated
and confirmed results count. Every naming, confirming and voiding is audited (`club_audit`:
who, when, what, before, after). Ratings are Elo, computed from the whole history in order
each time they are asked for (a few thousand games is nothing), so a corrected name or a game
recorded late changes nothing but what it should. Why Elo and how a game of more than two
counts: docs/club.md."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from itertools import combinations

from plateau.events import clean

# The games it rates: plateau.games.league(), those whose host module folds a table's page
START = 1500.0
K_NEW, K = 40.0, 20.0  # a player's first PROVISIONAL games move the rating faster
PROVISIONAL = 10
HISTORY = 50  # results shown on a league page
MAX_NAME = 40
COUNTED = ("rated", "confirmed")  # the verdicts a result is rated with
VERDICTS = ("rated", "disputed", "confirmed", "voided")

SCHEMA = """
create table if not exists club_seats (
    tbl text not null, seat text not null, player text not null, primary key (tbl, seat)
);
create table if not exists club_results (
    id integer primary key,
    tbl text not null, epoch text not null, game text, rules text,
    first_line integer, last_line integer not null, boot text, first_seq integer, last_seq integer,
    seats text, players text, ranking text, score text, duration_s real, finished real,
    unique (tbl, epoch, last_line)
);
create table if not exists club_audit (
    id integer primary key, at real not null, who text not null, action text not null,
    tbl text, result integer, before text, after text
);
create table if not exists club_tables (
    tbl text primary key, first real not null, heard real not null
);
create table if not exists club_lines (
    tbl text not null, epoch text not null, line integer not null, prev integer not null,
    event text not null, received real not null, primary key (tbl, epoch, line)
);
"""
# columns club_results gained after files were made: added to an older file as it is opened
LATER = (("verdict", "text not null default 'rated'"), ("why", "text"))


def _texts(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(s, str) for s in v)


# club_results' JSON columns, and what each must hold
_JSON = {
    9: ("seats", _texts, "a list of seats"),
    10: (
        "players",
        lambda v: isinstance(v, dict) and all(p is None or isinstance(p, str) for p in v.values()),
        "seats and their players",
    ),
    11: ("ranking", lambda v: isinstance(v, list) and all(_texts(g) for g in v), "groups of seats"),
    12: ("score", lambda v: True, "JSON"),
}


def _stored(row: tuple, i: int) -> object:
    """A JSON column of a club_results row, of its kind; DamagedIndex (one line, the way out)
    when not: a damaged row was a traceback, or its seats silently dropped."""
    from plateau.events import clean, excerpt
    from plateau.schema import DamagedIndex

    name, ok, kind = _JSON[i]
    try:
        value = json.loads(row[i])
        good = ok(value)
    except (ValueError, TypeError):  # not JSON, or not text at all
        good = False
    if good:
        return value
    shown = clean(excerpt(repr(row[i]), 40))
    raise DamagedIndex(
        f"damaged club result {row[0]}: club_results.{name} holds {shown}, not {kind}; delete"
        f" it (delete from club_results where id = {row[0]}) or restore the file"
    )


def check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise ValueError(f"a player's name is 1-{MAX_NAME} characters")
    if clean(name) != name:
        raise ValueError("a player's name has no control or invisible characters")
    return name.strip()


class League:
    def __init__(self, path: str | os.PathLike):
        # one thread at a time (the scoreboard's event loop; a test's feed under its lock)
        self.db = sqlite3.connect(str(path), check_same_thread=False)
        self.db.executescript(SCHEMA)
        have = {r[1] for r in self.db.execute("pragma table_info(club_results)")}
        for name, kind in LATER:
            if name not in have:
                self.db.execute(f"alter table club_results add column {name} {kind}")
        self.db.commit()

    # --- seats ------------------------------------------------------------------------------

    def seat(self, table: str, seats: dict, who: str = "operator") -> None:
        """Names seats of a table ({seat: name}; an empty name frees the seat), audited."""
        if not isinstance(seats, dict) or not seats or len(seats) > 16:
            raise ValueError("seats: {seat: name}, 1 to 16 of them")
        rows = []
        for seat, name in seats.items():
            if not isinstance(seat, str) or not 1 <= len(seat) <= 8 or clean(seat) != seat:
                raise ValueError(f"bad seat {seat!r}")
            rows.append((seat, None if name in ("", None) else check_name(name)))
        before = self.seats(table)
        with self.db:
            for seat, name in rows:
                if name is None:
                    self.db.execute(
                        "delete from club_seats where tbl = ? and seat = ?", (table, seat)
                    )
                else:
                    self.db.execute(
                        "insert or replace into club_seats values (?, ?, ?)", (table, seat, name)
                    )
            changed = [seat for seat, name in rows if before.get(seat) != name]
            if changed:
                self._audit(
                    who,
                    "name",
                    table,
                    None,
                    {s: before.get(s) for s in changed},
                    {s: name for s, name in rows if s in changed},
                )

    def seats(self, table: str) -> dict[str, str]:
        return dict(self.db.execute("select seat, player from club_seats where tbl = ?", (table,)))

    # --- results ----------------------------------------------------------------------------

    def record(self, rec: dict) -> bool:
        """A finished game (club.state.TableState.finish), with its `verdict` (rated unless
        said) and `why`; False when already recorded: the same epoch and line, or the same
        numbered event of the board (boot and seq) ending it, which a log replaced by a copy
        of itself (a new epoch) brings again. A result recorded stays as it was recorded
        (or as an operator left it): only the operator changes its verdict."""
        table = rec["table"]
        boot, last = rec.get("boot"), rec.get("last_seq")
        if boot is not None and last is not None:
            had = self.db.execute(
                "select 1 from club_results where tbl = ? and boot = ? and last_seq = ?",
                (table, boot, last),
            ).fetchone()
            if had:
                return False
        names = self.seats(table)
        seats = [s for s in rec.get("seats", []) if isinstance(s, str)]
        players = {s: names.get(s) for s in seats}
        cur = self.db.execute(
            "insert or ignore into club_results (tbl, epoch, game, rules, first_line, last_line,"
            " boot, first_seq, last_seq, seats, players, ranking, score, duration_s, finished,"
            " verdict, why) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table,
                rec.get("epoch", ""),
                rec.get("game"),
                rec.get("rules"),
                rec.get("first_line"),
                rec["last_line"],
                rec.get("boot"),
                rec.get("first_seq"),
                rec.get("last_seq"),
                json.dumps(seats),
                json.dumps(players),
                json.dumps(rec.get("ranking", [])),
                json.dumps(rec.get("score")),
                rec.get("duration_s"),
                time.time(),
                rec.get("verdict", "rated"),
                rec.get("why"),
            ),
        )
        self.db.commit()
        return cur.rowcount > 0

    def withdraw(self, table: str, epoch: str, last_line: int) -> bool:
        """A result the table took back (an undo after it, replayed by the scoreboard): no
        longer a result. Audited as the table's."""
        row = self.db.execute(
            "select id, verdict from club_results where tbl = ? and epoch = ? and last_line = ?",
            (table, epoch, last_line),
        ).fetchone()
        if row is None:
            return False
        with self.db:
            self.db.execute("delete from club_results where id = ?", (row[0],))
            self._audit(f"table {table}", "withdrawn", table, row[0], row[1], None)
        return True

    def dispute(self, table: str, epoch: str, last_line: int, why: str) -> bool:
        """A rated result put in doubt (a table's state says it took it back, in lines the
        scoreboard did not receive): disputed until an operator decides."""
        row = self.db.execute(
            "select id, verdict from club_results where tbl = ? and epoch = ? and last_line = ?",
            (table, epoch, last_line),
        ).fetchone()
        if row is None or row[1] != "rated":
            return False
        with self.db:
            self.db.execute(
                "update club_results set verdict = 'disputed', why = ? where id = ?", (why, row[0])
            )
            self._audit("the scoreboard", "disputed", table, row[0], "rated", "disputed")
        return True

    def decide(self, result: int, action: str, who: str) -> dict:
        """An operator's decision on a result: `confirm` (it counts, whatever the replay
        found) or `void` (it does not). Audited: who, when, the verdict before and after.
        LookupError for a result that is not there, ValueError for an action that is not
        one."""
        after = {"confirm": "confirmed", "void": "voided"}.get(action)
        if after is None:
            raise ValueError(f"{action!r}: confirm or void")
        if not isinstance(result, int) or isinstance(result, bool):
            raise ValueError("a result is its number")
        row = self.db.execute(
            "select tbl, verdict from club_results where id = ?", (result,)
        ).fetchone()
        if row is None:
            raise LookupError(f"no result {result}")
        with self.db:
            self.db.execute("update club_results set verdict = ? where id = ?", (after, result))
            self._audit(who, action, row[0], result, row[1], after)
        return {"id": result, "table": row[0], "before": row[1], "verdict": after}

    def _audit(self, who: str, action: str, table, result, before, after) -> None:
        self.db.execute(
            "insert into club_audit (at, who, action, tbl, result, before, after)"
            " values (?, ?, ?, ?, ?, ?, ?)",
            (time.time(), who, action, table, result, json.dumps(before), json.dumps(after)),
        )

    def audit(self, table: str | None = None) -> list[dict]:
        """Every operator's (and table's) change, oldest first."""
        rows = self.db.execute(
            "select id, at, who, action, tbl, result, before, after from club_audit"
            + (" where tbl = ?" if table else "")
            + " order by id",
            (table,) if table else (),
        )
        return [
            {
                "id": r[0],
                "at": r[1],
                "who": r[2],
                "action": r[3],
                "table": r[4],
                "result": r[5],
                "before": json.loads(r[6]) if r[6] else None,
                "after": json.loads(r[7]) if r[7] else None,
            }
            for r in rows
        ]

    # --- the tables the scoreboard has heard, and its copy of their lines ----------------------

    def heard(self, tables: dict[str, float]) -> None:
        """When each table was last heard (the scoreboard's clock), kept across restarts."""
        with self.db:
            self.db.executemany(
                "insert into club_tables values (?, ?, ?) on conflict (tbl) do update"
                " set heard = max(heard, excluded.heard)",
                [(t, at, at) for t, at in tables.items()],
            )

    def known(self, table: str) -> bool:
        """Whether a table ever published to this scoreboard (or has results or names)."""
        return any(
            self.db.execute(f"select 1 from {t} where tbl = ? limit 1", (table,)).fetchone()
            for t in ("club_tables", "club_results", "club_seats")
        )

    def tables(self) -> dict[str, float]:
        """{table: when it was last heard} of every table ever heard."""
        return dict(self.db.execute("select tbl, heard from club_tables"))

    def keep_lines(self, rows: list[tuple]) -> None:
        """(table, epoch, line, prev, event) each: what the scoreboard replayed, so that a
        restarted scoreboard replays each table again from its own copy."""
        now = time.time()
        with self.db:
            self.db.executemany(
                "insert or ignore into club_lines values (?, ?, ?, ?, ?, ?)",
                [
                    (t, e, n, p, json.dumps(ev, separators=(",", ":")), now)
                    for t, e, n, p, ev in rows
                ],
            )

    def kept_lines(self) -> dict[str, tuple[str, list[tuple[int, int, dict]]]]:
        """{table: (its latest log's epoch, [(line, prev, event), ...] in order)}."""
        out: dict = {}
        latest = self.db.execute(  # the epoch of each table's last row (SQLite's max())
            "select tbl, epoch, max(rowid) from club_lines group by tbl"
        ).fetchall()
        for table, epoch, _ in latest:
            rows = self.db.execute(
                "select line, prev, event from club_lines where tbl = ? and epoch = ?"
                " order by line",
                (table, epoch),
            )
            lines = []
            for line, prev, text in rows:
                try:
                    ev = json.loads(text)
                except ValueError:
                    continue  # a damaged copy: the replay sees a hole there
                if isinstance(ev, dict):
                    lines.append((line, prev, ev))
            out[table] = (epoch, lines)
        return out

    def held(self, table: str, epoch: str) -> tuple[int, int, int] | None:
        """(first line, last line, how many) of one log of a table the scoreboard keeps
        (club_lines); None when it keeps none of it."""
        row = self.db.execute(
            "select min(line), max(line), count(*) from club_lines where tbl = ? and epoch = ?",
            (table, epoch),
        ).fetchone()
        return None if row is None or row[2] == 0 else (row[0], row[1], row[2])

    def has_line(self, table: str, epoch: str, line: int) -> bool:
        """Whether the scoreboard keeps that line of that log."""
        return bool(
            self.db.execute(
                "select 1 from club_lines where tbl = ? and epoch = ? and line = ?",
                (table, epoch, line),
            ).fetchone()
        )

    def lines(self, table: str, epoch: str, after: int = 0) -> list[tuple[int, dict, float]]:
        """[(line, event, when the scoreboard received it), ...] of one log of a table past
        line `after`, in order (a damaged row left out: a hole there)."""
        out = []
        for line, text, received in self.db.execute(
            "select line, event, received from club_lines where tbl = ? and epoch = ?"
            " and line > ? order by line",
            (table, epoch, after),
        ):
            try:
                ev = json.loads(text)
            except ValueError:
                continue
            if isinstance(ev, dict):
                out.append((line, ev, received))
        return out

    def results(
        self,
        game: str | None = None,
        table: str | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> list[dict]:
        """Recorded results, oldest first: of one game, one table, finished between since and
        until (a night), or all."""
        q = (
            "select id, tbl, game, rules, first_line, last_line, boot, first_seq, last_seq, seats,"
            " players, ranking, score, duration_s, finished, verdict, why, epoch"
            " from club_results"
        )
        where: list[str] = []
        args: list[object] = []
        if game:
            where.append("game = ?")
            args.append(game)
        if table:
            where.append("tbl = ?")
            args.append(table)
        if since is not None:
            where.append("finished >= ? and finished < ?")
            args += [since, until]
        rows = self.db.execute(
            q + (" where " + " and ".join(where) if where else "") + " order by id", args
        )
        out = []
        for r in rows:
            out.append(
                {
                    "id": r[0],
                    "table": r[1],
                    "game": r[2],
                    "rules": r[3],
                    "lines": [r[4], r[5]],
                    "boot": r[6],
                    "seqs": [r[7], r[8]],
                    "seats": _stored(r, 9),
                    "players": _stored(r, 10),
                    "ranking": _stored(r, 11),
                    "score": _stored(r, 12),
                    "duration_s": r[13],
                    "finished": r[14],
                    "verdict": r[15],
                    "why": r[16],
                    "epoch": r[17],
                }
            )
        return out

    # --- ratings ----------------------------------------------------------------------------

    def standings(self, game: str) -> dict:
        """Elo ratings from every result of `game` in order, and the latest results with
        each player's change."""
        rating: dict[str, float] = {}
        played: dict[str, int] = {}
        won: dict[str, int] = {}
        history = list(self.rated(game, rating, played, won))
        table = sorted(rating, key=lambda p: -rating[p])
        return {
            "game": game,
            "ratings": [
                {"player": p, "rating": round(rating[p]), "games": played[p], "wins": won[p]}
                for p in table
            ],
            "history": history[-HISTORY:][::-1],
        }

    def rated(
        self,
        game: str,
        rating: dict[str, float],
        played: dict[str, int],
        won: dict[str, int],
    ) -> Iterator[dict]:
        """Every result of `game` in order, each with its players' names (`names`: a seat's
        player then, or `table:seat`) and their rating changes (`change`, none for a result
        not counted); `rating`, `played` and `won` are brought up to date as it goes (a
        player's rating after each of its games: its page's rating over time)."""
        for res in self.results(game):
            who = {s: res["players"].get(s) or f"{res['table']}:{s}" for s in res["seats"]}
            if res["verdict"] not in COUNTED:  # disputed, voided: shown, not rated
                yield {**res, "names": who, "change": {}}
                continue
            groups = [[who[s] for s in g if s in who] for g in res["ranking"]]
            change = rate(groups, rating, played)
            for g_i, g in enumerate(groups):
                for p in g:
                    played[p] = played.get(p, 0) + 1
                    won[p] = won.get(p, 0) + (g_i == 0)
            yield {**res, "names": who, "change": change}

    def close(self) -> None:
        self.db.close()


def rate(
    groups: list[list[str]], rating: dict[str, float], played: dict[str, int]
) -> dict[str, float]:
    """One result (groups of players, best first) into the ratings. A game of more than two
    counts as every pair of players from different places: a win for the better placed, each
    player's change averaged over its opponents (so a 6-seat game moves a rating about as
    much as a duel). Players sharing a place (partners, a tie) are not compared."""
    place = {p: i for i, g in enumerate(groups) for p in g}
    for p in place:
        rating.setdefault(p, START)
    delta = {p: 0.0 for p in place}
    opponents = {p: 0 for p in place}
    for a, b in combinations(place, 2):
        if place[a] == place[b]:
            continue
        expect_a = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
        score_a = 1.0 if place[a] < place[b] else 0.0
        for p, d in ((a, score_a - expect_a), (b, expect_a - score_a)):
            k = K_NEW if played.get(p, 0) < PROVISIONAL else K
            delta[p] += k * d
            opponents[p] += 1
    change = {}
    for p in place:
        if opponents[p]:
            change[p] = round(delta[p] / opponents[p], 1)
            rating[p] += delta[p] / opponents[p]
    return change
