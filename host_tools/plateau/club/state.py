"""What a table's page shows, folded from its events: one `TableState` per table.

The same fold runs in the bridge (which publishes it, retained, for late joiners), in the
scoreboard (which applies each event as it comes) and in the tests (which fold the whole log
and compare). Events arrive checked by `plateau.events` (their shape); the folds read the
fields checked there and test the others before use. What is the same for every game (which
game, the finished games, how far the fold has read) is here; each game's own part of the
view is its host module's `Club`, a `Fold` (plateau/games/<game>: Tock's follows the game
with the host's copy of the rules core, so the board drawn is the rules' position, and an
event that does not follow is shown as such, not drawn). A game without one is listed with
its events counted and nothing drawn.

A state is plain JSON (`to_dict`), rebuilt from one by `from_dict`: what the bridge publishes
is what the page receives."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import Any

from plateau.events import clean
from plateau.repeats import Repeats

FINISHED_KEPT = 8  # finished games a state carries (a scoreboard that missed some catches up)
HISTORY_KEPT = 40  # Pocha hands, Weykick goals kept in a state


def amounts(v: Any) -> dict[str, int]:
    """{seat or side: a whole number} of an event's field, what else it holds dropped."""
    if not isinstance(v, dict):
        return {}
    return {str(k): n for k, n in v.items() if isinstance(n, int) and not isinstance(n, bool)}


def texts(v: Any) -> list[str]:
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else []


def text(v: Any) -> str | None:
    return v if isinstance(v, str) else None


SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
SPANISH_SUITS = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}


def card(c: Any, spanish: bool = False) -> str:
    """A card as the pages show it: 7\u2665 (7H), 10 bastos (a Spanish 10B); "?" for none."""
    if not isinstance(c, str) or not c:
        return "?"
    rank, suit = c[:-1], c[-1]
    if spanish:
        return f"{rank} {SPANISH_SUITS.get(suit, suit)}"
    return rank + SUITS.get(suit, suit)


class Fold:
    """A game's part of a table's page (its host module's `Club`): each event of its game
    folded into the table's `view` (plain JSON, drawn by the page's script), and the game's
    end told to the table (`finish`, with the ranking the league rates; `withdraw` when the
    table takes a result back). Made anew at each game's start."""

    def __init__(self, table: TableState) -> None:
        self.table = table

    @property
    def view(self) -> dict[str, Any]:
        return self.table.view

    def feed(self, kind: str, ev: dict, line: int) -> None:
        """Log line `line` holding ev (of type `kind`), an event of this game."""

    def restore(self) -> None:
        """The table's state was read back from JSON (a bridge's, `from_dict`): take the
        game up from its view."""

    def headline(self, name: Callable[[str], str]) -> str | None:
        """The game as it stands, in a few words for the club page's card ("Ann 7 - 5 Luis,
        match 2 of 3"); `name(seat)` is the seat's player, or its label. None: the card
        shows the score and the turn as they are."""
        return None

    def said(self, kind: str, ev: dict, name: Callable[[str], str]) -> str | None:
        """The event just folded in as a game's move list says it ("Ana plays 7H: R3 -> R10",
        "Luis bids 2", "goal for Ana, 3 - 2"), the view being the game as it stands after
        it; None for an event the list leaves out (a card read, a heartbeat). `name(seat)`
        as for headline. The club's move list (club.moments) links each such event to the
        page as it stood then."""
        return None


class TableState:
    """One table: which game, its view (per game), the finished games, and how far the fold
    has read (`epoch`, `line`, the last `boot`/`seq`)."""

    def __init__(self, table: str, epoch: str = ""):
        self.table = table
        self.epoch = epoch
        self.line = 0  # the last log line folded in
        self.boot: str | None = None
        self.seq = 0
        self.events = 0  # distinct events folded in
        self.repeated = 0  # lines that repeat an event already folded (dropped)
        self.game: str | None = None
        self.view: dict[str, Any] = {}
        self.game_start: dict[str, Any] = {}  # line, boot, seq, wall time of the game's start
        self.finished: list[dict] = []
        # results the table took back after announcing them (Weykick `withdrawn`, a Tock
        # win undone): (table, epoch, last_line) of each, for the league to forget
        self.withdrawn: list[list] = []
        self.updated = 0.0
        self._repeats = Repeats()
        self.fold: Fold | None = None  # the game's part of the view (its host module's Club)

    # --- folding ---------------------------------------------------------------------------

    def feed(self, line: int, ev: dict, now: float | None = None) -> bool:
        """Log line `line` holding ev. False when it was already folded in (a QoS-1
        redelivery: the same line again; or a line repeating a numbered event)."""
        if line <= self.line:
            return False
        self.line = line
        if self._repeats.seen(ev):
            self.repeated += 1
            return False
        self.events += 1
        self.updated = time.time() if now is None else now
        if "seq" in ev:
            self.boot, self.seq = ev.get("boot"), ev["seq"]
        kind = ev["type"]
        game = text(ev.get("game"))
        if kind in ("hello", "snapshot", "game") and game and game != self.game:
            self._new_game(game, line, ev)
        elif kind == "game" and game:
            self._new_game(game, line, ev)
        if self.fold is not None:
            try:
                self.fold.feed(kind, ev, line)
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
                # an event the fold did not expect where it came (after lost events, or a
                # board's new field): said on the page, never a crash of the scoreboard
                self.view["fold_error"] = f"event {ev.get('seq')} ({kind}) not shown: {e!r}"
        return True

    def _new_game(self, game: str, line: int, ev: dict) -> None:
        self.game = game
        self.view = {}
        self.game_start = {
            "line": line,
            "boot": ev.get("boot"),
            "seq": ev.get("seq"),
            "wall": self.updated,
        }
        self.fold = _fold(self)

    def finish(self, result: dict, line: int) -> None:
        """A game (a Tock game, a Weykick match, a Pocha match, a Hold'em table won) ended:
        what the league records. `ranking`: groups of seats, best first."""
        start = self.game_start
        rec = {
            "table": self.table,
            "epoch": self.epoch,
            "game": self.game,
            "rules": self.view.get("rules"),
            "first_line": start.get("line", line),
            "last_line": line,
            "boot": self.boot,
            "first_seq": start.get("seq"),
            "last_seq": self.seq,
            "seats": self.view.get("seats", []),
            # the host's clock from the game's first event to its last (the board's own,
            # where the game reports it, replaces it)
            "duration_s": round(max(0.0, self.updated - start.get("wall", self.updated)), 1),
            **result,
        }
        self.finished = (self.finished + [rec])[-FINISHED_KEPT:]
        # the next game of the same kind starts after this one
        self.game_start = {"line": line + 1, "boot": self.boot, "seq": None, "wall": self.updated}
        self._result_start = start

    def withdraw(self, match: object = None) -> None:
        """The table took its last result back (an undo after it): the game goes on, and
        the result is no longer one."""
        if not self.finished or self.finished[-1]["last_line"] < self.game_start.get("line", 0) - 1:
            return  # a result of an earlier game: not this one's
        if isinstance(match, int) and self.finished[-1].get("match") not in (None, match):
            return  # another Weykick match's (this one's result was never seen)
        rec = self.finished.pop()
        self.withdrawn = (self.withdrawn + [[rec["table"], rec["epoch"], rec["last_line"]]])[
            -FINISHED_KEPT:
        ]
        self.game_start = getattr(self, "_result_start", self.game_start)

    # --- as JSON ---------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "table": self.table,
            "epoch": self.epoch,
            "line": self.line,
            "boot": self.boot,
            "seq": self.seq,
            "events": self.events,
            "game": self.game,
            "view": self.view,
            "game_start": self.game_start,
            "finished": self.finished,
            "withdrawn": self.withdrawn,
            "updated": self.updated,
        }

    def headline(self, name: Callable[[str], str]) -> str | None:
        """Its game's headline (Fold.headline), never an error: a view is a table's word."""
        if self.fold is None:
            return None
        try:
            said = self.fold.headline(name)
        except (LookupError, TypeError, ValueError, AttributeError):
            return None
        return said if isinstance(said, str) else None

    def said(self, kind: str, ev: dict, name: Callable[[str], str]) -> str | None:
        """The event just folded in, in the move list's words (Fold.said), never an error."""
        if self.fold is None:
            return None
        try:
            said = self.fold.said(kind, ev, name)
        except (LookupError, TypeError, ValueError, AttributeError):
            return None
        return clean(said) if isinstance(said, str) else None

    def summary(self) -> dict:
        """What the club page lists for a table (of their kinds whatever a view holds: a
        table's own state may be anything)."""
        v = self.view
        pos = v.get("position")
        return {
            "table": self.table,
            "game": self.game,
            "events": self.events,
            "line": self.line,
            "seq": self.seq,
            "updated": self.updated,
            "score": amounts(v.get("score"))
            or amounts(v.get("totals"))
            or amounts(v.get("stacks")),
            "winner": text(v.get("winner")),
            "turn": (text(pos.get("turn")) if isinstance(pos, dict) else None)
            or text(v.get("to_act")),
        }

    @classmethod
    def from_dict(cls, d: object) -> TableState:
        """A state published by a bridge, checked field by field: a bad one raises ValueError
        (what a table publishes is its word, and may be anything)."""
        from plateau.events import is_count, is_text

        if not isinstance(d, dict) or not isinstance(d.get("view"), dict):
            raise ValueError("not a table state")
        epoch = d.get("epoch", "")
        if not isinstance(epoch, str) or len(epoch) > 32:
            raise ValueError("table state with a bad epoch")
        s = cls(str(d.get("table"))[:32], epoch)
        for key in ("line", "seq", "events"):
            val = d.get(key, 0)
            if not is_count(val):
                raise ValueError(f"table state with a bad {key}")
            setattr(s, key, val)
        updated = d.get("updated", 0)
        if not _number(updated):
            raise ValueError("table state with a bad updated")
        s.updated = float(updated)
        for key in ("boot", "game"):
            val = d.get(key)
            if val is not None and not (is_text(val) and len(val) <= 32):
                raise ValueError(f"table state with a bad {key}")
            setattr(s, key, val)
        s.view = copy.deepcopy(d["view"])  # its own: folding on must not change the caller's
        start = d.get("game_start", {})
        if not isinstance(start, dict) or not all(
            start.get(k) is None or is_count(start[k]) for k in ("line", "seq")
        ):
            raise ValueError("table state with a bad game_start")
        s.game_start = {
            k: start[k] for k in ("line", "boot", "seq", "wall") if k in start and _plain(start[k])
        }
        finished = d.get("finished", [])
        if not isinstance(finished, list) or not all(_record(r) for r in finished):
            raise ValueError("table state with a bad finished game")
        s.finished = [dict(r) for r in finished][-FINISHED_KEPT:]
        withdrawn = d.get("withdrawn", [])
        if not isinstance(withdrawn, list) or not all(
            isinstance(w, list) and len(w) == 3 and is_text(w[1]) and is_count(w[2])
            for w in withdrawn
        ):
            raise ValueError("table state with a bad withdrawn result")
        s.withdrawn = [list(w) for w in withdrawn][-FINISHED_KEPT:]
        if s.boot and s.seq:
            s._repeats.had(s.boot, s.seq)
        s.fold = _fold(s)
        if s.fold is not None:
            s.fold.restore()
        return s


def _number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and abs(v) < 2**53


def _plain(v: object) -> bool:
    """A number or a short text (a game start's fields)."""
    return v is None or _number(v) or (isinstance(v, str) and len(v) <= 32)


def _record(r: object) -> bool:
    """A finished game as a state carries it (TableState.finish), its fields of their kinds."""
    from plateau.events import is_count, is_text, is_texts

    if not isinstance(r, dict) or not is_count(r.get("last_line")):
        return False
    groups = r.get("ranking", [])
    return (
        is_text(r.get("epoch", ""))
        and all(r.get(k) is None or is_count(r[k]) for k in ("first_line", "first_seq", "last_seq"))
        and all(r.get(k) is None or is_text(r[k]) for k in ("game", "rules", "boot"))
        and is_texts(r.get("seats", []))
        and isinstance(groups, list)
        and all(is_texts(g) for g in groups)
        and (r.get("duration_s") is None or _number(r["duration_s"]))
    )


def board_state(d: dict) -> TableState:
    """The retained state a stand-alone table publishes (firmware/link/uplink.py: its hello
    and snapshot after the event of `line`), folded as a bridge's state would be: what a
    scoreboard that comes late starts from. ValueError when it is not one."""
    from plateau import events

    epoch, line = d.get("epoch"), d.get("line")
    hello, snap = d.get("hello"), d.get("snapshot")
    if not (isinstance(epoch, str) and 0 < len(epoch) <= 32 and isinstance(line, int)):
        raise ValueError("not a table's state")
    if not events.is_count(line):
        raise ValueError("a table's state with a bad line")
    for ev, kind in ((hello, "hello"), (snap, "snapshot")):
        if not isinstance(ev, dict) or ev.get("type") != kind or events.shape(ev):
            raise ValueError(f"a table's state with a bad {kind}")
    assert isinstance(hello, dict) and isinstance(snap, dict)
    s = TableState("", epoch)
    s.feed(1, dict(hello, boot=epoch))
    s.feed(2, dict(snap, boot=epoch))
    s.line = line  # the event it follows: a consumer that has that line keeps its own fold
    s.boot, s.seq = epoch, line // 3
    if s.seq:
        s._repeats.had(epoch, s.seq)
    return s


def _fold(state: TableState) -> Fold | None:
    """The part of the view of the state's game, new: its host module's Club (plateau.games),
    none for a game without one or one this host does not know."""
    from plateau import games

    try:
        club = games.find(state.game).Club if isinstance(state.game, str) else None
    except ValueError:
        return None
    return club(state) if club else None


def fold_log(path, table: str = "table", epoch: str = "") -> TableState:
    """A whole log folded: what a page following it from the first line shows at its end."""
    from plateau.logger import read_log

    state = TableState(table, epoch)
    for n, ev, why in read_log(path):
        state.feed(n, ev if ev is not None else {"type": "bad", "why": why})
    return state
