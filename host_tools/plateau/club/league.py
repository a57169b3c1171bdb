"""Players and the league, in the SQLite index (the same file `plateau log --db` keeps its
games in, or the scoreboard's own).

Seats get player names from the operator (the scoreboard's token, or `plateau players`).
Every finished game is recorded once (a state carries its last finished games again and
again: the row is keyed by table, log and last line): game, rules, seats, the players seated
then, the ranking, the score, the duration and the log range. Ratings are Elo, computed from
the whole history in order each time they are asked for (a few thousand games is nothing),
so a corrected name or a game recorded late changes nothing but what it should. Why Elo and
how a game of more than two counts: docs/club.md."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from itertools import combinations

from plateau.events import clean

# The games it rates: plateau.games.league(), those whose host module folds a table's page
START = 1500.0
K_NEW, K = 40.0, 20.0  # a player's first PROVISIONAL games move the rating faster
PROVISIONAL = 10
HISTORY = 50  # results shown on a league page
MAX_NAME = 40

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
"""


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

    # --- seats ------------------------------------------------------------------------------

    def seat(self, table: str, seats: dict) -> None:
        """Names seats of a table ({seat: name}; an empty name frees the seat)."""
        if not isinstance(seats, dict) or not seats or len(seats) > 16:
            raise ValueError("seats: {seat: name}, 1 to 16 of them")
        rows = []
        for seat, name in seats.items():
            if not isinstance(seat, str) or not 1 <= len(seat) <= 8 or clean(seat) != seat:
                raise ValueError(f"bad seat {seat!r}")
            rows.append((seat, None if name in ("", None) else check_name(name)))
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

    def seats(self, table: str) -> dict[str, str]:
        return dict(self.db.execute("select seat, player from club_seats where tbl = ?", (table,)))

    # --- results ----------------------------------------------------------------------------

    def record(self, rec: dict) -> bool:
        """A finished game (club.state.TableState._finish); False when already recorded: the
        same epoch and line, or the same numbered event of the board (boot and seq) ending
        it, which a log replaced by a copy of itself (a new epoch) brings again."""
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
            " boot, first_seq, last_seq, seats, players, ranking, score, duration_s, finished)"
            " values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            ),
        )
        self.db.commit()
        return cur.rowcount > 0

    def withdraw(self, table: str, epoch: str, last_line: int) -> bool:
        """A result the table took back (an undo after it): no longer a result."""
        cur = self.db.execute(
            "delete from club_results where tbl = ? and epoch = ? and last_line = ?",
            (table, epoch, last_line),
        )
        self.db.commit()
        return cur.rowcount > 0

    def results(self, game: str | None = None) -> list[dict]:
        q = (
            "select id, tbl, game, rules, first_line, last_line, boot, first_seq, last_seq, seats,"
            " players, ranking, score, duration_s, finished from club_results"
        )
        rows = self.db.execute(
            q + (" where game = ? order by id" if game else " order by id"), (game,) if game else ()
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
        history = []
        for res in self.results(game):
            who = {s: res["players"].get(s) or f"{res['table']}:{s}" for s in res["seats"]}
            groups = [[who[s] for s in g if s in who] for g in res["ranking"]]
            change = rate(groups, rating, played)
            for g_i, g in enumerate(groups):
                for p in g:
                    played[p] = played.get(p, 0) + 1
                    won[p] = won.get(p, 0) + (g_i == 0)
            history.append({**res, "names": who, "change": change})
        table = sorted(rating, key=lambda p: -rating[p])
        return {
            "game": game,
            "ratings": [
                {"player": p, "rating": round(rating[p]), "games": played[p], "wins": won[p]}
                for p in table
            ],
            "history": history[-HISTORY:][::-1],
        }

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
