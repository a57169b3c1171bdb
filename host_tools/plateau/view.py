"""The live view: what a person (or a script, with --json) sees of a table's events, one line
each, and what the game's host module adds: its lines (LINES) and its Live (plateau/games/
<game>: for Tock the board after every move). Used by `plateau sim`, `plateau log`."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping

from plateau.events import clean
from plateau.games import Merged


def show(ev: dict, game: object = None) -> str:
    """One event as a line a person reads, by the lines of `game` (the game it belongs to,
    when known) first: nothing of the board's text can drive the terminal (control
    characters are replaced)."""
    return clean(_show(ev, game))


def _show(ev: dict, game: object) -> str:
    kind = ev.get("type", "?")
    rest = {k: v for k, v in ev.items() if k not in ("type", "boot", "seq", "at")}
    num = f"#{ev['seq']:<4}" if "seq" in ev else "     "
    lines = _lines_of(game) if isinstance(game, str) else LINES  # (a board may say anything)
    special = lines.get(kind) if isinstance(kind, str) else None
    if special:
        try:  # a board may say anything: a shape the line does not expect falls back
            text = special(rest, ev)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            text = None
        if text is not None:
            return f"{num} {kind:<10} {text}" if not text.startswith("!") else text[1:]
    detail = " ".join(f"{k}={json.dumps(v)}" for k, v in rest.items())
    return f"{num} {kind:<10} {detail}"


def seats_line(d: dict) -> str:
    """{"1": 10, "2": -5} -> "1:10 2:-5", seats in order."""
    return " ".join(f"{k}:{v}" for k, v in sorted(d.items(), key=lambda kv: seat_key(kv[0])))


def seat_key(seat) -> tuple:
    """Seats in their order round the table: numbers by value ("2" before "10")."""
    text = str(seat)
    if text.isascii() and text.isdigit() and len(text) < 19:  # "²".isdigit(), int() refuses
        return (0, int(text), "")
    return (1, 0, text)


# A line is a function of the event's fields (all but type, boot, seq, at) and the event:
# its text, None when the event is not of the shape it reads (the fields shown as key=value
# then), or "!" first for a line that stands alone (a GAP). Every game's table sends these;
# each game's host module adds its events' lines (its LINES: plateau/games/<game>).
Line = Callable[[dict, dict], "str | None"]
LINK_LINES: dict[str, Line] = {
    "heartbeat": lambda r, ev: f"board up {r.get('up', 0) / 1000:.1f} s",
    "hello": lambda r, ev: (
        f"table {r.get('table')} firmware {r.get('fw')} boot {ev.get('boot')} game {r.get('game')}"
    ),
    "gap": lambda r, ev: (
        f"!      GAP        events {r['from']}-{r['to']} of boot {ev.get('boot')} are gone"
        f" ({r['why']}): {r['to'] - r['from'] + 1} lost"
    ),
    "retake": lambda r, ev: (
        f"!      RETAKE     boot {ev.get('boot')} from event {r['from']}: {r.get('why')}"
    ),
    "outage": lambda r, ev: (
        f"!      OUTAGE     the log could not be written for {r.get('seconds')} s"
        f" ({r.get('why')}): the {r.get('held')} events held meanwhile follow"
    ),
    # link messages a person need not see: an accepted command (a refused one is shown)
    "answer": lambda r, ev: "done" if r.get("ok") else f"refused: {r.get('why')}",
}


def _first(lines: list[Line]) -> Line:
    """One line from several games' lines for one type: the first that reads the event."""

    def line(r: dict, ev: dict) -> str | None:
        for each in lines:
            try:
                text = each(r, ev)
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                text = None
            if text is not None:
                return text
        return None

    return line


def _merged_lines(parts: list[dict[str, Line]]) -> dict[str, Line]:
    """LINK_LINES and every game's LINES as one: a type two games send (Hold'em's and
    Pocha's hand_start) tries each game's line in the registry's order."""
    every: dict[str, list[Line]] = {}
    for part in parts:
        for kind, line in part.items():
            every.setdefault(kind, []).append(line)
    return {k: v[0] if len(v) == 1 else _first(v) for k, v in every.items()}


# LINES: LINK_LINES with every game's, merged on first use (plateau.games.Merged)
LINES = Merged("LINES", LINK_LINES, _merged_lines)


@functools.lru_cache(maxsize=32)
def _lines_of(game: str) -> Mapping[str, Line]:
    """The lines for the events of `game`: its own first, then LINES (every game's); LINES
    alone for a game this host does not know."""
    from plateau import games

    try:
        own = games.find(game).LINES
    except ValueError:
        own = {}
    if not own:
        return LINES
    return {
        **LINES,
        **{k: _first([line, LINES[k]]) if k in LINES else line for k, line in own.items()},
    }


def say(text: str, **kw) -> None:
    """print() for a line that holds anything a board or a log said."""
    print(clean(text), **kw)


class View:
    """What a person (or a script, with --json) sees of the events: one line each, and what
    the game's host module draws (its Live: for Tock the board after every move).
    Heartbeats (every 800 ms, a fifth of a game's lines) only when asked: a person sees the
    link is alive from the events, and `plateau log` counts them when it stops. --json prints
    every message, heartbeats included."""

    def __init__(self, as_json: bool, draw: str = "ring", heartbeats: bool = False):
        """`draw`: the drawing style a game's Live draws its table in after each event
        (Tock's board: "ring", as the table is; "rows", a colour's 18 squares a line;
        "none")."""
        self.as_json = as_json
        self.draw = draw
        self.heartbeats = heartbeats
        self.game: str | None = None
        self.live = None  # the game's part of the view (its host module's Live), if it has one

    def show(self, ev: dict) -> None:
        if self.as_json:
            print(json.dumps(ev), flush=True)  # ASCII only: escapes every control character
            return
        kind = ev.get("type")
        if kind == "heartbeat" and not self.heartbeats:
            return
        if kind == "answer" and ev.get("ok") is True:
            return  # a command done: only a refusal is news
        print(show(ev, self.game), flush=True)
        said = ev.get("game")
        if kind in ("hello", "snapshot", "game") and said and said != self.game:
            self.game = said
            self.live = _live(said, self.draw)
        if self.live is not None:
            self.live.show(ev)


def _live(game: object, draw: str):
    """A game's part of the live view, new: its host module's Live (plateau.games)."""
    from plateau import games

    try:
        make = games.find(game).Live if isinstance(game, str) else None
    except ValueError:  # a game this host does not know: its events shown as they come
        return None
    return make(draw) if make else None
