"""The live view: what a person (or a script, with --json) sees of a table's events, one line
each, and for Tock the board after every move. Used by `plateau sim`, `plateau log`."""

from __future__ import annotations

import json

from plateau.events import clean


def show(ev: dict) -> str:
    """One event as a line a person reads: nothing of the board's text can drive the
    terminal (control characters are replaced)."""
    return clean(_show(ev))


def _show(ev: dict) -> str:
    kind = ev.get("type", "?")
    rest = {k: v for k, v in ev.items() if k not in ("type", "boot", "seq", "at")}
    num = f"#{ev['seq']:<4}" if "seq" in ev else "     "
    if kind == "heartbeat":
        return f"{num} heartbeat  board up {rest.get('up', 0) / 1000:.1f} s"
    if kind == "hello":
        return (
            f"{num} hello      table {rest.get('table')} firmware {rest.get('fw')}"
            f" boot {ev.get('boot')} game {rest.get('game')}"
        )
    if kind == "gap" and "why" in rest:
        return (
            f"      GAP        events {rest['from']}-{rest['to']} of boot {ev.get('boot')} are"
            f" gone ({rest['why']}): {rest['to'] - rest['from'] + 1} lost"
        )
    if kind == "goal" and "score" in rest:
        sc = rest["score"]
        t = rest.get("match_ms", 0) // 1000
        return (
            f"{num} GOAL       in goal {rest['goal']}: side {rest['side']} scores   "
            f"A {sc.get('A')} - {sc.get('B')} B   ({t // 60}:{t % 60:02d}, ball seen "
            f"{rest.get('seen_ms')} ms)"
        )
    if kind == "match_end" and "score" in rest:  # Weykick (Pocha's has a ranking)
        sc = rest["score"]
        return (
            f"{num} match_end  winner {rest.get('winner') or 'none (draw)'}   "
            f"A {sc.get('A')} - {sc.get('B')} B   series {json.dumps(rest.get('series'))}"
        )
    detail = " ".join(f"{k}={json.dumps(v)}" for k, v in rest.items())
    return f"{num} {kind:<10} {detail}"


def say(text: str, **kw) -> None:
    """print() for a line that holds anything a board or a log said."""
    print(clean(text), **kw)


def say_board(follower, **kw) -> None:
    """The follower's board, a line at a time (each cleaned like any other)."""
    for line in follower.board().split("\n"):
        say(line, **kw)


class View:
    """What a person (or a script, with --json) sees of the events: one line each, and for
    Tock the board after every move. Heartbeats (every 800 ms, a fifth of a game's lines)
    only when asked: a person sees the link is alive from the events, and `plateau log` counts
    them when it stops. --json prints every message, heartbeats included."""

    def __init__(self, as_json: bool, board: bool = True, heartbeats: bool = False):
        from plateau.follow import Mismatch, TockFollower

        self.as_json = as_json
        self.board = board
        self.heartbeats = heartbeats
        self.follower = TockFollower()
        self.mismatch = Mismatch
        self.game: str | None = None
        self.holdem: dict = {"board": [], "start": {}, "stacks": {}}

    def show(self, ev: dict) -> None:
        if self.as_json:
            print(json.dumps(ev), flush=True)  # ASCII only: escapes every control character
            return
        if ev.get("type") == "heartbeat" and not self.heartbeats:
            return
        print(show(ev), flush=True)
        if ev.get("type") in ("hello", "snapshot", "game") and ev.get("game"):
            self.game = ev["game"]
        if self.game == "holdem":
            if ev.get("type") in ("hand_start", "action", "card", "hand_end"):
                self._holdem(ev)
            return
        if self.game != "tock":
            return
        try:
            self.follower.feed(ev)
        except self.mismatch as e:
            say(f"      !! {e}", flush=True)
            return
        if self.board and ev.get("type") in ("move", "undo", "game", "win"):
            say_board(self.follower, flush=True)

    def _holdem(self, ev: dict) -> None:
        """Hold'em's live line: the board, the pot, whose turn, the stacks."""
        kind = ev["type"]
        h = self.holdem
        if kind == "hand_start" and "stacks" in ev:
            start = dict(ev["stacks"])
            for seat, chips in ev.get("blinds", {}).items():
                start[seat] = start.get(seat, 0) + chips
            h.update(board=[], start=start, stacks=dict(ev["stacks"]))
        elif kind == "action" and "seat" in ev and "stack" in ev:
            h["stacks"][ev["seat"]] = ev["stack"]
        elif kind == "card" and "board" in ev:
            h["board"] = ev["board"]
        elif kind == "hand_end" and "stacks" in ev:
            h["stacks"] = dict(ev["stacks"])
        else:
            return
        if not h["start"]:
            return
        pot = sum(h["start"].values()) - sum(h["stacks"].get(s, 0) for s in h["start"])
        turn = ev.get("to_act")
        say(
            f"      board {' '.join(h['board']) or '-'} | pot {pot} | "
            + (f"to act: seat {turn} | " if turn else "")
            + "stacks "
            + " ".join(f"{s}:{n}" for s, n in sorted(h["stacks"].items())),
            flush=True,
        )
