"""Tock's rules checker: a game followed from its events with the host's copy of the rules
core, move by move. `plateau replay`, the live view and the club's page use it. Every event
is checked against the rules; the first one that does not follow is reported with why.

Events come checked by `plateau.events` (their shape); what a position holds is checked here
by the rules core. Where events are gone (a `gap`, or a `bad` event the host could not read)
nothing after can be checked until the board's next snapshot: the checker says so
(`unchecked`) and takes the game up again from that snapshot. A game taken up from a position
that is not a game's start (a snapshot of a game under way, a position set up on the board)
is the board's word: `taken_up` says where, and the club rates no result that rests on it."""

from __future__ import annotations

import threading

from plateau.fw.games.cards import CardError
from plateau.fw.games.tock.rules import COLOURS, TRACK, Card, Illegal, Position, PositionError
from plateau.games import Mismatch

# The rules core's 7 (its search, rules._SEVEN, and the hints' levels, games/tock/hints.py,
# that Position.legal_moves reads its moves off) works in buffers of its module: one per
# process, as on the board. Two threads of one process checking at once (the club's bridge
# folding its log as it publishes while its scoreboard replays what came, `plateau log
# --mqtt`'s bridge beside the live view) would read each other's levels: a 7 listed from
# another position's half-made levels ("a path of _dp that does not play", or a wrong list).
# So a checker feeds one event at a time, whichever thread it is on.
CORE = threading.RLock()


def _same_steps(a: list, b: list) -> bool:
    return sorted(map(tuple, a)) == sorted(map(tuple, b))


class TockChecker:
    def __init__(self) -> None:
        self.pos: Position | None = None
        self.card: str | None = None
        self.last_move: dict | None = None
        self.winner: str | None = None
        self.events = 0
        self.boot: str | None = None
        self._new_boot = False
        self.sessions = 0
        self.unchecked: list[str] = []  # where events were gone, and what that cost
        self.taken_up: str | None = None  # the game under way rests on the board's word
        self._result: list[list[str]] | None = None  # the game the last event ended

    def start(self, position: dict, where: str = "a position set up on the board") -> None:
        try:
            pos = Position.from_dict(position)
        except PositionError as e:
            raise Mismatch(f"the game's start position is impossible: {e}") from e
        self._begin(pos)
        fresh = Position.initial(pos.players, pos.rules, pos.overrides or None)
        self.taken_up = None if pos.same_placement(fresh) else f"taken up from {where}"

    def _begin(self, pos: Position) -> None:
        self.pos = pos
        self.card = None
        self.last_move = None
        self.winner = None
        self.taken_up = None

    def feed(self, ev: dict) -> None:
        """Applies one event; raises Mismatch when it does not follow."""
        self._result = None
        try:
            with CORE:  # the rules core's buffers: one thread at a time
                self._feed(ev)
        except Illegal as e:  # the rules refuse what the event says happened
            raise Mismatch(e.why) from e

    def _feed(self, ev: dict) -> None:
        kind = ev.get("type")
        self.events += 1
        if kind == "game":
            if ev.get("game", "tock") == "tock" and isinstance(ev.get("position"), dict):
                self.start(ev["position"])
            elif ev.get("game") == "tock":
                # a switch from another game says only what it plays (Table.about): its
                # first position is the start of a game with those settings
                try:
                    self._begin(
                        Position.initial(
                            ev.get("players", 4), ev.get("rules", "classic"), ev.get("flags")
                        )
                    )
                except (PositionError, KeyError, TypeError, ValueError) as e:
                    raise Mismatch(f"a Tock game of impossible settings: {e}") from e
            else:
                self.pos = None  # another game: nothing to follow until Tock comes back
            return
        if kind == "hello":
            self._new_boot = ev.get("boot") != self.boot
            self.boot = ev.get("boot")
            return
        if kind in ("gap", "bad", "retake"):
            if self.pos is not None:
                what = (
                    f"events {ev.get('from')}-{ev.get('to')} of boot {ev.get('boot')} lost"
                    f" ({ev.get('why')})"
                    if kind == "gap"
                    else f"event {ev.get('seq')} unreadable ({ev.get('why')})"
                    if kind == "bad"
                    else f"events of boot {ev.get('boot')} taken again from {ev.get('from')}"
                    " (lines before held numbers the board never sent)"
                )
                self.unchecked.append(what + ": not checked until the board's next snapshot")
            self.pos = None
            return
        if kind == "snapshot" and ev.get("game") == "tock" and isinstance(ev.get("position"), dict):
            # joining a game under way, or a new session of a log that holds several: take
            # the board's word (a board that reset and resumed says `resumed`, checked below)
            if self.pos is None or (self._new_boot and self._differs(ev["position"])):
                self.start(ev["position"], "the board's snapshot of a game under way")
                self.sessions += 1
            self._new_boot = False
            return
        if self.pos is None:
            return  # nothing to check against yet
        pos = self.pos
        if kind == "card":
            self.card = ev["card"]
        elif kind == "discard":
            card = self._card(ev)
            if pos.has_move(card):
                raise Mismatch(f"{card} was discarded but has a legal move")
            pos.discard(card, True)  # not taken back by undo: the move before it is
            self.card = None
        elif kind == "move":
            card = self._card(ev)
            for m in pos.legal_moves(card):
                if _same_steps(m.steps(), ev["steps"]) and COLOURS[m.seat] == ev.get("seat"):
                    pos.play(m)  # kept for undo, as the board's tracker keeps it
                    self.card = None
                    self.last_move = ev
                    return
            raise Mismatch(f"no legal move of {card} for {ev.get('seat')} makes {ev['steps']}")
        elif kind == "undo":
            if "steps" in ev:
                if pos.undo() is None:
                    raise Mismatch("undo with no move to take back")
                self.winner = None  # the winning move, if it was one, is taken back
            self.card = None
        elif kind == "resumed" and isinstance(ev.get("position"), dict):
            # the board restarted and resumed its saved game: it must be the game we follow
            try:
                theirs = Position.from_dict(ev["position"])
            except PositionError as e:
                raise Mismatch(f"the board resumed an impossible position: {e}") from e
            if not theirs.same_placement(pos) or theirs.turn != pos.turn:
                raise Mismatch("the board resumed a game that is not the one logged so far")
            self.card = ev.get("card")
        elif kind == "win":
            w = pos.winner()
            if w is None or pos._seat_name(w) != ev["seat"]:
                raise Mismatch(
                    f"{ev['seat']} is said to have won, but the rules say otherwise: its home"
                    " is not full (T19)"
                )
            self.winner = ev["seat"]
            self._result = self._places(w)

    def _places(self, w: int) -> list[list[str]]:
        """The winning seat first (with its partner, T6), then every other seat."""
        pos = self.pos
        assert pos is not None
        names = [pos._seat_name(s) for s in pos.seats()]
        first = [COLOURS[c] for c in pos.team_colours(w)] if pos.teams() else [pos._seat_name(w)]
        rest = [n for n in names if n not in first]
        return [first, rest] if rest else [first]

    def result(self) -> list[list[str]] | None:
        """The places of the game the last event ended (its `win`, checked), by the rules'
        own position; None when it ended none."""
        return self._result

    # as `plateau replay` asks of each game's checker (plateau/games/tock: replay())

    def summary(self) -> list[str]:
        """What could not be checked, then the final pawns and the position as JSON."""
        if self.pos is None:
            end = "no final position to show: the game's end comes after lost events"
            return [*self.unchecked, end if self.unchecked else "no position in the log to follow"]
        return [*self.unchecked, *self.rows().split("\n"), self.pos.dumps()]

    def state(self) -> dict | None:
        return self.pos.to_dict() if self.pos else None

    def _differs(self, position: dict) -> bool:
        try:
            theirs = Position.from_dict(position)
        except PositionError:
            return True
        return self.pos is None or not theirs.same_placement(self.pos)

    def _card(self, ev: dict) -> Card:
        try:
            return Card(ev["card"])
        except (CardError, KeyError) as e:
            raise Mismatch(f"bad card in event: {e}") from e

    def rows(self) -> str:
        """The pawns as text, a colour a row: its 18 squares, home and camp."""
        pos = self.pos
        if pos is None:
            return "(no game yet)"
        lines = []
        moved = set()
        if self.last_move:
            moved = {s for step in self.last_move["steps"] for s in step}
        for c in pos.colours():
            row = []
            for k in range(18):
                s = c * 18 + k
                v = pos.cells[s]
                mark = COLOURS[v - 1] if v else "."
                name = f"{COLOURS[c]}{k + 1}"
                row.append(mark.lower() if name in moved and v else mark)
            home = "".join(COLOURS[c] if pos.cells[TRACK + 4 * c + k] else "." for k in range(4))
            lines.append(
                f"{COLOURS[c]}1-18 {''.join(row)}  home {home}  camp {pos.camp(c)}"
                + ("  waiting" if pos.waiting >> c & 1 else "")
            )
        lines.append(self.status())
        return "\n".join(lines)

    def status(self, gap: str = "  ") -> str:
        """Whose turn, the last move, the winner: the line under a drawn board."""
        assert self.pos is not None
        last = ""
        if self.last_move:
            lm = self.last_move
            steps = " ".join(f"{a}->{b}" for a, b in lm["steps"])
            last = f"{gap}last: {lm['card']} {lm['seat']} {steps}"
        won = f"{gap}WINNER {self.winner}" if self.winner else ""
        return f"turn {self.pos.to_dict()['turn']}{last}{won}"
