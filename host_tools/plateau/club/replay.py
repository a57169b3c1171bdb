"""The scoreboard's own replay of one table: what it rates a result on.

Every line of a table's events topic is taken once, in order (`line`, `prev`), folded into the
table's state (club.state: what its page shows and what ended a game) and checked with the
game's checker, the one `plateau replay` makes (each game's host module's `replay()`, a new
one at each `game` event or a game named anew, as `plateau replay` makes them). Each game the
fold sees end is judged as it ends:

- **rated** when the checker checked every line of that game from its start and, by its own
  count, reaches the same places (`result()`);
- **disputed** otherwise, with why: the rule an event breaks (the checker's Mismatch), lines
  that never reached the scoreboard (a hole, a log joined mid-way), events the board's link
  lost (`gap`), a game the checker took up on the board's word mid-way (`taken_up`), a game
  this host has no rules for, or places that differ.

A disputed result is recorded, shown with its why, and not rated until an operator confirms
it (club.league). What a table publishes as its state never makes a result rated: a state
only heals the page after lost lines, and a game ended in lines the scoreboard never received
is recorded disputed from it.

The table is the topic's (the broker's ACL gives each table's user its own topics only),
never what a message says: every record is stamped with it."""

from __future__ import annotations

from typing import Any

from plateau.club.state import TableState
from plateau.games import Mismatch

RATED, DISPUTED = "rated", "disputed"


def places(ranking: object) -> list[list[str]] | None:
    """A ranking as compared: each place's seats sorted; None if it is not groups of seats."""
    if not isinstance(ranking, list) or not all(isinstance(g, list) for g in ranking):
        return None
    if not all(isinstance(s, str) for g in ranking for s in g):
        return None
    return [sorted(g) for g in ranking]


def said(ranking: list[list[str]]) -> str:
    return " > ".join(" & ".join(g) for g in ranking) or "nobody"


class Replay:
    """One table's log (one epoch) as the scoreboard received it."""

    def __init__(self, table: str, epoch: str) -> None:
        self.table, self.epoch = table, epoch
        self.state = TableState(table, epoch)
        self.line = 0  # the last line taken
        self.game: str | None = None
        self.checker: Any = None
        # why the game under way cannot be vouched for (None: replayed whole so far)
        self.trouble: str | None = None

    # --- lines ------------------------------------------------------------------------------

    def missed(self, first: int, last: int) -> None:
        """Lines first..last never reached the scoreboard (a hole, a log joined mid-way):
        the game under way is not replayed whole."""
        if first <= last:
            what = f"line {first}" if first == last else f"lines {first}-{last}"
            self.trouble = f"{what} of the table's log did not reach the scoreboard"
            self.checker = None
        self.line = max(self.line, last)

    def feed(self, line: int, ev: dict) -> tuple[bool, list[dict], list[list]]:
        """Line `line` holding ev: (taken, the results it ended, judged; the results it took
        back). Not taken: a line already taken (a QoS-1 repeat) or a repeated numbered event."""
        st = self.state
        last = st.finished[-1]["last_line"] if st.finished else -1
        withdrawn = {tuple(w) for w in st.withdrawn}
        if line <= self.line:
            return False, [], []
        self.line = line
        if not st.feed(line, ev):  # a repeated numbered event: neither folded nor checked
            return False, [], []
        self._check(line, ev)  # before the game the fold ended is judged
        ended = [
            self.judge({**r, "table": self.table}) for r in st.finished if r["last_line"] > last
        ]
        back = [w for w in st.withdrawn if tuple(w) not in withdrawn]
        return True, ended, back

    def heal(self, theirs: TableState) -> list[dict]:
        """The table's own state taken for the page, after lines were lost (or a log joined
        mid-way): the games it says ended in lines the scoreboard did not receive, each
        recorded disputed."""
        mine = self.state
        recorded = {r["last_line"] for r in mine.finished} if mine.epoch == theirs.epoch else set()
        theirs.table = self.table
        if theirs.line > self.line:
            self.missed(self.line + 1, theirs.line)
        self.state = theirs
        self.game = theirs.game
        out = []
        for r in theirs.finished:
            if r.get("last_line") not in recorded and isinstance(r.get("last_line"), int):
                why = (
                    f"the game ended at line {r['last_line']}, which the scoreboard never received"
                )
                out.append({**r, "table": self.table, "verdict": DISPUTED, "why": why})
        return out

    # --- the check ----------------------------------------------------------------------------

    def _check(self, line: int, ev: dict) -> None:
        from plateau import games

        kind = ev.get("type")
        named = ev.get("game")
        if kind in ("game", "hello", "snapshot") and isinstance(named, str):
            if named != self.game or kind == "game":  # a game begins: a checker of its own
                self.game = named
                self.trouble = None
                try:
                    make = games.find(named).replay
                except ValueError:
                    make = None
                self.checker = make() if make else None
                if make is None:
                    self.trouble = f"this host has no rules for {named} to replay it with"
        if kind in ("gap", "bad", "retake") and self.trouble is None and self.game:
            self.trouble = (
                f"line {line}: events the board sent were lost on the way to its log"
                f" ({kind}): the game is not replayed whole"
            )
        if self.checker is None:
            return
        try:
            self.checker.feed(ev)
        except Mismatch as e:
            self.trouble = f"line {line} (event #{ev.get('seq')} {kind}) does not follow: {e}"
            self.checker = None  # what it holds now is not the game: checked no further
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            self.trouble = f"line {line} (event #{ev.get('seq')} {kind}) cannot be checked: {e!r}"
            self.checker = None

    def judge(self, rec: dict) -> dict:
        """A result the fold says the last line ended, with the replay's verdict and why."""
        why = self.trouble
        checker = self.checker
        if why is None and checker is not None:
            why = getattr(checker, "taken_up", None)
        if why is None:
            result = getattr(checker, "result", None)
            got = places(result()) if callable(result) else None
            theirs = places(rec.get("ranking"))
            if not callable(result):
                why = f"the {self.game} checker reaches no result of its own to compare"
            elif got is None:
                why = f"the replay finds no end of a game at line {rec.get('last_line')}"
            elif theirs != got:
                why = f"the table ranks {said(theirs or [])}, the replay {said(got)}"
            elif sorted(s for g in got for s in g) != sorted(rec.get("seats") or ()):
                why = f"the table's seats {rec.get('seats')} are not the replay's"
        return {**rec, "verdict": DISPUTED if why else RATED, "why": why}
