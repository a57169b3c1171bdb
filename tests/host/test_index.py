"""The log and its SQLite index under kill -9 (issue 15): a logger killed at seeded random
points of its work (halfway through writing a line, between the log's fsync and the index's
commit, inside the commit) and started again, many times over one game. At the end the log
holds every event once with no broken line, and the index is exactly what a rebuild from the
log gives. Kill points are counted in the logger's own operations, not in time."""

import json
import random
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import REPORT

from plateau import HARDWARE, events
from plateau.fw.sim.run import play
from plateau.games.tock.generate import generate
from plateau.index import MAX_GAMES, Index
from plateau.logger import Logger, read_log

# The child: writes the events the log does not have yet, and kills itself (SIGKILL, no
# cleanup) when its countdown of operations reaches 0, in the middle of that operation.
CHILD = r"""
import json, os, signal, sys
import plateau.index as I
import plateau.logger as L

log, db, todo, countdown = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
left = [countdown]

def tick(what):
    left[0] -= 1
    if left[0] <= 0:
        os.kill(os.getpid(), signal.SIGKILL)

real_write = os.write
def write(fd, data):  # the logger's writes to its log (os.write on its descriptor)
    left[0] -= 1
    if left[0] <= 0:  # half a line reaches the disk, then the process dies
        real_write(fd, bytes(data[: len(data) // 2]))
        os.kill(os.getpid(), signal.SIGKILL)
    return real_write(fd, data)
L.os.write = write

real_commit = I.Index.commit
def commit(self):
    tick("before commit")
    self._write_row()
    tick("row written, not committed")
    real_commit(self)
    tick("after commit")
I.Index.commit = commit
real_fsync = os.fsync
def fsync(fd):
    tick("before fsync")
    real_fsync(fd)
L.os.fsync = fsync
I.COMMIT_S = 0  # commit at every line: more kill points inside the index's work

logger = L.Logger(log, db)
evs = [json.loads(line) for line in open(todo)]
for ev in evs[logger.lines:]:
    logger.write(ev)
logger.close()
"""


def game_events() -> list[dict]:
    game = generate("classic", 2, seed=21)
    lines = game.script.split("\n")
    lines.insert(len(lines) // 3, "send new tock players=2 rules=toc-fr")  # a new game row
    lines.insert(2 * len(lines) // 3, "reset")  # a new boot
    with tempfile.TemporaryDirectory() as d:
        Path(f"{d}/g.table").write_text("\n".join(lines))
        return [
            e
            for e in play(f"{d}/g.table", str(HARDWARE), state=f"{d}/f")
            if e["type"] != "heartbeat"
        ]


def rows(db: str, log: Path) -> list[tuple]:
    with sqlite3.connect(db) as c:
        return c.execute(
            "select first_line, last_line, boot, first_seq, last_seq, game, rules, players,"
            " moves, winner from games where log = ? order by id",
            (str(log.resolve()),),
        ).fetchall()


def test_index_stays_consistent_with_the_log_through_kills_at_any_point(tmp_path):
    evs = game_events()
    todo = tmp_path / "events.jsonl"
    todo.write_text("".join(events.dump(e).decode() for e in evs))
    log, db = tmp_path / "game.jsonl", str(tmp_path / "games.sqlite")
    rng = random.Random(15)
    kills = 0
    for _ in range(200):
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(log), db, str(todo), str(rng.randrange(1, 250))],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert "Traceback" not in done.stderr, done.stderr
        if done.returncode == 0:
            break
        kills += 1
        # at every kill point the index is a true summary of a prefix of the log
        assert rows(db, log) == _prefix_rows(tmp_path, log, db)
    else:
        raise AssertionError("the logger never got to the end")
    logged = [e for _, e, _ in read_log(log)]
    assert logged == evs  # every event once, in order, no broken line
    fresh = str(tmp_path / "rebuilt.sqlite")
    Index(fresh, log).catch_up()
    assert rows(db, log) == rows(fresh, log)
    games = rows(db, log)
    assert len(games) == 2 and games[0][8] + games[1][8] == len(
        [e for e in evs if e["type"] == "move"]
    )
    REPORT.append(
        f"index: the logger killed {kills} times at random points of its work over a"
        f" {len(evs)}-event log: index = rebuild every time ({len(games)} games,"
        f" {games[0][8] + games[1][8]} moves)"
    )


def _prefix_rows(tmp: Path, log: Path, db: str) -> list[tuple]:
    """What an index of the log up to the offset the killed index committed holds."""
    with sqlite3.connect(db) as c:
        got = c.execute(
            "select offset from indexed where log = ?", (str(log.resolve()),)
        ).fetchone()
    offset = got[0] if got else 0
    cut = tmp / "prefix.jsonl"
    cut.write_bytes(log.read_bytes()[:offset])
    fresh = tmp / "prefix.sqlite"
    fresh.unlink(missing_ok=True)
    Index(str(fresh), cut).catch_up()
    return [r for r in rows(str(fresh), cut)]


def test_index_rebuild_and_its_bounds(tmp_path):
    log = tmp_path / "l.jsonl"
    lines = [{"type": "hello", "boot": "a", "at": 0, "game": "tock"}]
    lines += [{"type": "game", "game": "tock", "boot": "a", "seq": n} for n in range(1, 6)]
    lines += [{"type": "move", "boot": "a", "seq": 6, "card": "AS", "seat": "R", "steps": []}]
    lines += [{"type": "move", "boot": "a", "seq": 6, "card": "AS", "seat": "R", "steps": []}]
    log.write_bytes(b"".join(events.dump(e) for e in lines))
    ix = Index(str(tmp_path / "i.sqlite"), log)
    ix.catch_up()
    # games without a move share one row; the move written twice counts once
    assert [(r[5], r[8]) for r in rows(str(tmp_path / "i.sqlite"), log)] == [("tock", 1)]
    with open(log, "ab") as f:
        for n in range(7, 7 + 2 * (MAX_GAMES + 5), 2):
            f.write(events.dump({"type": "game", "game": "x", "boot": "a", "seq": n}))
            f.write(
                events.dump(
                    {
                        "type": "move",
                        "boot": "a",
                        "seq": n + 1,
                        "card": "AS",
                        "seat": "R",
                        "steps": [],
                    }
                )
            )
    ix.catch_up()
    assert len(rows(str(tmp_path / "i.sqlite"), log)) == MAX_GAMES and ix.unindexed > 0
    ix.rebuild()
    assert len(rows(str(tmp_path / "i.sqlite"), log)) == MAX_GAMES
    ix.close()


def test_a_second_logger_on_the_same_log_is_refused_and_a_cut_line_is_dropped(tmp_path):
    from plateau.logger import LogError

    log = tmp_path / "l.jsonl"
    log.write_bytes(
        events.dump({"type": "card", "boot": "a", "seq": 1, "card": "AS"}) + b'{"type":"ca'
    )
    first = Logger(log)
    assert log.read_bytes().endswith(b'"AS"}\n') and first.lines == 1
    try:
        Logger(log)
    except LogError as e:
        assert "another plateau log" in str(e)
    else:
        raise AssertionError("two loggers on one log")
    first.close()
    json.loads(log.read_text())


def test_index_weykick_matches_their_goals_and_a_withdrawn_result(tmp_path):
    """Issue 22 (W5): a Weykick match's plays are its goals, and a result an undo took back
    is not the match's winner (the corrected one is)."""
    log = tmp_path / "l.jsonl"
    script = tmp_path / "w.table"
    script.write_text(
        "table weykick mode=timed:1\npace 0\nball A\nwait 300\nclear A\nwait 61000\n"
        "send undo\nwait 300\nsend new\nwait 200\nball B\nwait 300\nclear B\nwait 800\n"
        "send undo\nwait 300\nsend new\nwait 200\nball A\nwait 300\nclear A\nwait 60000\n"
    )
    (tmp_path / "flash").mkdir()
    evs = play(str(script), str(HARDWARE), state=str(tmp_path / "flash"))
    log.write_bytes(b"".join(events.dump(e) for e in evs if e["type"] != "heartbeat"))
    ix = Index(str(tmp_path / "i.sqlite"), log)
    ix.catch_up()
    got = [(r[5], r[6], r[8], r[9]) for r in rows(str(tmp_path / "i.sqlite"), log)]
    ix.close()
    # match 1: B won on the clock, undo: a draw; match 1 again (after `new`: the series of
    # one is over) with one goal taken back; then B wins
    assert got == [
        ("weykick", "timed:1", 1, None),
        ("weykick", "timed:1", 1, None),
        ("weykick", "timed:1", 1, "B"),
    ], got


def _expected_holdem(session, seats):
    """One row a table of the session: (players, hands, winner: the seat left with every
    chip, None for a table still going when the script ends)."""
    rows, hands = [], 0
    for h in session.hands:
        hands += 1
        left = [s for s, c in h["stacks"].items() if c]
        if len(left) == 1:
            rows.append((seats, hands, left[0]))
            hands = 0
    if hands:
        rows.append((seats, hands, None))
    return rows


def test_index_has_a_row_for_every_game_of_every_kind_with_players_and_winner(tmp_path):
    """Findings 4 and 24: the index kept only the last of a log's Hold'em games (a row
    without a move was reused, and card games have no moves), showed `? players` for
    Hold'em and Weykick, and no winner for a Pocha game with its final ranking. Seeded
    generated games of the four kinds, played through the firmware (its Python self, as
    above), several to a log and in random order: each game one row with the game, its
    players, its plays (Tock moves, Weykick goals, card games' hands) and its winner, as the
    generator that wrote it knows them."""
    from plateau.games.holdem.generate import generate as generate_holdem
    from plateau.games.pocha.generate import generate as generate_pocha
    from plateau.games.tock.generate import generate
    from plateau.games.weykick.generate import generate as generate_weykick

    rng = random.Random(24)
    made = []
    for i in range(6):
        kind = ["tock", "holdem", "pocha", "weykick", "holdem", "pocha"][i]
        seed = rng.randrange(1000)
        if kind == "tock":
            players = rng.choice([2, 3, 4])
            g = generate("classic", players, seed)
            made.append((g.script, [("tock", players, len(g.moves), g.winner)]))
        elif kind == "holdem":
            seats = rng.choice([2, 3])
            s = generate_holdem(seats=seats, hands=rng.randint(6, 14), seed=seed, stacks=20)
            made.append((s.script, [("holdem", *r) for r in _expected_holdem(s, seats)]))
        elif kind == "pocha":
            players = rng.choice([3, 4])
            p = generate_pocha(players, 40, "short", seed)
            made.append((p.script, [("pocha", players, len(p.hands), p.ranking[0])]))
        else:
            w = generate_weykick(seed=seed, best_of=3, first_to=3)
            made.append((w.script, [("weykick", 2, None, m["winner"]) for m in w.matches]))
    rng.shuffle(made)
    log = tmp_path / "all.jsonl"
    with open(log, "wb") as f:
        for n, (text, _) in enumerate(made):
            (tmp_path / f"{n}.table").write_text(text)
            evs = play(str(tmp_path / f"{n}.table"), str(HARDWARE), state=str(tmp_path / f"s{n}"))
            for e in evs:  # each game on a board of its own (the simulator's boot is fixed)
                if e["type"] != "heartbeat":
                    f.write(events.dump(dict(e, boot=f"b{n:07x}")))
    ix = Index(str(tmp_path / "i.sqlite"), log)
    ix.catch_up()
    ix.close()
    got = [(r[5], r[7], r[8], r[9]) for r in rows(str(tmp_path / "i.sqlite"), log)]
    want = [row for _, rs in made for row in rs]
    # Weykick's goals are counted with the ones undo took back: not compared
    got = [(g, p, None if g == "weykick" else m, w) for g, p, m, w in got]
    assert got == want, (got, want)
    kinds = {g for g, *_ in want}
    REPORT.append(
        f"index: {len(made)} generated games of {len(kinds)} kinds in one log: {len(got)} rows,"
        f" {sum(1 for *_, w in got if w)} winners, every one as the generator wrote it"
    )
