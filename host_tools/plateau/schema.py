"""The index's tables (plateau/index.py writes them), and the kind of value each column the
host tools read must hold: every row read back is checked (`checked`, `check_all`), so an
index damaged inside (a disk error, a hand edit, another program) is refused in one line with
the way out, never a traceback (adversarial findings F3, ADV5-5)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from plateau import events
from plateau.repeats import seen_ok, up_to

SCHEMA = """
create table if not exists games (
    id integer primary key,
    log text not null,
    first_line integer not null,
    last_line integer not null,
    boot text,
    first_seq integer,
    last_seq integer,
    game text,
    rules text,
    players integer,
    moves integer not null default 0,
    winner text
);
create table if not exists indexed (
    log text primary key,
    offset integer not null,
    line integer not null,
    boots text not null,
    unindexed_games integer not null default 0
);
"""
# which log the index read: its first bytes and the bytes before the offset read (a log
# replaced by another file at the same path is not the one indexed). Added after the table
# was made: an index written before gets the column (and no identity, until it commits).
IDENT_COLUMN = "alter table indexed add column ident text"


class DamagedIndex(sqlite3.DatabaseError):
    """An index whose values are not of their column's kind (a disk error, a hand edit):
    refused in one line with the way out, like any other database SQLite refuses."""


def count_ok(v: object) -> bool:
    return isinstance(v, int) and 0 <= v < events.MAX_INT


def _scalar_ok(v: object) -> bool:
    return v is None or isinstance(v, str) or count_ok(v)


_KINDS: dict[str, tuple[Any, str]] = {
    "count": (count_ok, "a whole number >= 0"),
    "count?": (lambda v: v is None or count_ok(v), "a whole number >= 0 or nothing"),
    "text": (lambda v: isinstance(v, str), "text"),
    "text?": (lambda v: v is None or isinstance(v, str), "text or nothing"),
    "scalar?": (_scalar_ok, "text, a whole number or nothing"),
}
# each column the host tools read, and the kind of value it must hold
COLUMNS: dict[str, dict[str, str]] = {
    "games": {
        "id": "count",
        "log": "text",
        "first_line": "count",
        "last_line": "count",
        "boot": "text?",
        "first_seq": "count?",
        "last_seq": "count?",
        "game": "scalar?",
        "rules": "scalar?",
        "players": "count?",
        "moves": "count",
        "winner": "scalar?",
    },
    "indexed": {
        "log": "text",
        "offset": "count",
        "line": "count",
        "boots": "text",
        "unindexed_games": "count",
        "ident": "text?",
    },
}
REBUILD = "plateau index LOG --db DB --rebuild makes it again from its log"


def checked(table: str, columns: str, row: tuple) -> tuple:
    """A row read from the index, each value of its column's kind (DamagedIndex if not)."""
    for name, value in zip((c.strip() for c in columns.split(",")), row, strict=True):
        ok, kind = _KINDS[COLUMNS[table][name]]
        if not ok(value):
            shown = events.clean(events.excerpt(repr(value), 40))
            raise DamagedIndex(
                f"damaged index: {table}.{name} holds {shown}, not {kind}; {REBUILD}"
            )
    return row


def check_all(db: sqlite3.Connection) -> None:
    """Every row of the index (every log's), each value of its column's kind, each game's
    lines in order: DamagedIndex if not. Every command that opens an index (to read it or to
    write into it) calls this first, so one damaged value is refused by all of them alike, not
    only by the one that happens to read its row (a row whose `log` is not text is no log's:
    a reader that selects by log never sees it)."""
    for table, kinds in COLUMNS.items():
        have = {r[1] for r in db.execute(f"pragma table_info({table})")}
        cols = ", ".join(c for c in kinds if c in have)
        if not cols:
            continue  # no such table (yet): nothing in it to be damaged
        for row in db.execute(f"select {cols} from {table}"):
            checked(table, cols, row)
            if table == "indexed" and "boots" in have:
                boots(row[cols.split(", ").index("boots")])
            if table == "games" and row[2] > row[3]:  # first_line, last_line
                raise DamagedIndex(
                    f"damaged index: game {row[0]} starts at line {row[2]}, after its last"
                    f" line {row[3]}; {REBUILD}"
                )


def boots(text: str) -> dict[str, dict]:
    """indexed.boots: each boot's numbers seen (logger.Repeats), as JSON; an index written
    before kept the last seq of each boot only (the numbers up to it seen)."""
    try:
        boots = json.loads(text)
    except ValueError:
        boots = None
    out: dict[str, dict] = {}
    for k, v in boots.items() if isinstance(boots, dict) else [(None, None)]:
        if isinstance(k, str) and isinstance(v, int) and count_ok(v):
            out[k] = up_to(v)
        elif isinstance(k, str) and isinstance(v, dict) and seen_ok(v, count_ok):
            out[k] = v
        else:
            shown = events.clean(events.excerpt(repr(text), 40))
            raise DamagedIndex(f"damaged index: indexed.boots holds {shown}; {REBUILD}")
    return out
