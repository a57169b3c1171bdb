"""What a table's page shows, folded from its events: one `TableState` per table.

The same fold runs in the bridge (which publishes it, retained, for late joiners), in the
scoreboard (which applies each event as it comes) and in the tests (which fold the whole log
and compare). Events arrive checked by `plateau.events` (their shape); this module reads the
fields checked there and tests the others before use. Tock is followed with the host's copy
of the rules core (`plateau.follow.TockFollower`): the board drawn is the rules' position,
and an event that does not follow is shown as such, not drawn.

A state is plain JSON (`to_dict`), rebuilt from one by `from_dict`: what the bridge publishes
is what the page receives."""

from __future__ import annotations

import copy
import time
from typing import Any

from plateau.follow import Mismatch, TockFollower
from plateau.fw.games.tock.rules import COLOURS
from plateau.logger import Repeats

FINISHED_KEPT = 8  # finished games a state carries (a scoreboard that missed some catches up)
HISTORY_KEPT = 40  # Pocha hands, Weykick goals kept in a state


def _amounts(v: Any) -> dict[str, int]:
    if not isinstance(v, dict):
        return {}
    return {str(k): n for k, n in v.items() if isinstance(n, int) and not isinstance(n, bool)}


def _texts(v: Any) -> list[str]:
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else []


def _text(v: Any) -> str | None:
    return v if isinstance(v, str) else None


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
        self._follower = TockFollower()

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
        game = _text(ev.get("game"))
        if kind in ("hello", "snapshot", "game") and game and game != self.game:
            self._new_game(game, line, ev)
        elif kind == "game" and game:
            self._new_game(game, line, ev)
        fold = getattr(self, "_fold_" + (self.game or ""), None)
        if fold is not None:
            try:
                fold(kind, ev, line)
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
        self._follower = TockFollower()

    def _finish(self, result: dict, line: int) -> None:
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

    def _withdraw(self, match: object = None) -> None:
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

    # --- Tock ------------------------------------------------------------------------------

    def _fold_tock(self, kind: str, ev: dict, line: int) -> None:
        v = self.view
        f = self._follower
        try:
            f.feed(ev)
        except Mismatch as e:
            v["mismatch"] = f"event {ev.get('seq')} ({kind}) does not follow: {e}"
        if f.pos is not None:
            pos = f.pos.to_dict()
            v["position"] = pos
            v["rules"] = pos.get("rules")
            # a seat is a player: one colour, or two (2 players each play a diagonal pair)
            v["seats"] = list(
                dict.fromkeys(
                    "+".join(COLOURS[c] for c in f.pos.seat_colours(seat))
                    for seat in f.pos.colours()
                )
            )
            v["teams"] = bool(pos.get("flags", {}).get("teams")) or (
                pos.get("rules") == "toc-fr" and pos.get("players") == 4
            )
        elif kind in ("gap", "bad"):
            v["unchecked"] = "events were lost: the board is shown again at its next snapshot"
        if kind == "card":
            v["card"] = _text(ev.get("card"))
            v["card_seat"] = _text(ev.get("seat"))
        elif kind == "move":
            v["last_move"] = {k: ev.get(k) for k in ("card", "seat", "steps", "kind")}
            v["card"] = None
            v.pop("problem", None)
            v.pop("mismatch", None)
        elif kind == "discard":
            v["last_move"] = {"card": ev.get("card"), "seat": ev.get("seat"), "discard": True}
            v["card"] = None
        elif kind == "illegal":
            v["problem"] = {k: _text(ev.get(k)) for k in ("what", "why", "fix", "card")}
        elif kind == "corrected":
            v.pop("problem", None)
        elif kind == "error" and _text(ev.get("why")):
            v["error"] = {"what": _text(ev.get("what")), "why": _text(ev.get("why"))}
        elif kind == "undo":
            v["card"] = None
            v["last_move"] = None
            if v.get("winner") and "steps" in ev:  # the winning move taken back (T19)
                v["winner"] = None
                self._withdraw()
        elif kind == "win":
            seat = ev["seat"]
            v["winner"] = seat
            partner = {"R": "B", "B": "R", "G": "Y", "Y": "G"}.get(seat)
            seats = v.get("seats", [])
            first = [seat] + ([partner] if v.get("teams") and partner in seats else [])
            rest = [s for s in seats if s not in first]
            self._finish({"ranking": [first, rest] if rest else [first]}, line)

    # --- Weykick ---------------------------------------------------------------------------

    def _fold_weykick(self, kind: str, ev: dict, line: int) -> None:
        v = self.view
        v.setdefault("seats", ["A", "B"])
        settings = ev.get("settings")
        if isinstance(settings, dict):
            v["rules"] = _text(settings.get("mode"))
            v["best_of"] = settings.get("best-of")
            v["variant"] = _text(settings.get("variant"))
        elif kind == "hello" and _text(ev.get("rules")):
            v["rules"] = ev["rules"]
        if "score" in ev:
            v["score"] = _amounts(ev["score"])
        if "series" in ev:
            v["series"] = _amounts(ev["series"])
        if isinstance(ev.get("match"), int):
            if ev.get("match") != v.get("match"):
                v.pop("winner", None)
            v["match"] = ev["match"]
        for key in ("match_ms", "clock_ms", "duration_ms"):
            if isinstance(ev.get(key), int):
                v["clock_ms"] = ev[key]
                v["clock_wall"] = self.updated
        if kind in ("snapshot", "resumed", "game"):
            v["paused"] = bool(ev.get("paused"))
            v["over"] = bool(ev.get("over"))
        if kind == "goal":
            v["last_goal"] = {k: ev.get(k) for k in ("side", "goal", "match_ms", "seen_ms")}
            v["goals"] = (v.get("goals", []) + [v["last_goal"]])[-HISTORY_KEPT:]
        elif kind == "undo":
            v["last_goal"] = {"undone": _text(ev.get("side"))}
        elif kind == "pause":
            v["paused"] = True
        elif kind == "resume":
            v["paused"] = False
        elif kind == "golden_goal":
            v["golden_goal"] = True
        elif kind == "match_end":
            v["over"] = True
            v["winner"] = _text(ev.get("winner"))
            v["series_over"] = bool(ev.get("series_over"))
            w = v["winner"]
            ranking = [[w], ["B" if w == "A" else "A"]] if w in ("A", "B") else [["A", "B"]]
            result = {"ranking": ranking, "score": v.get("score", {}), "match": v.get("match")}
            if isinstance(ev.get("duration_ms"), int):
                result["duration_s"] = round(ev["duration_ms"] / 1000, 1)  # the match clock
            self._finish(result, line)
        elif kind == "withdrawn":  # undo after the result: the match goes on
            v["over"] = False
            v.pop("winner", None)
            self._withdraw(ev.get("match"))
        elif kind == "game":
            v.update(over=False, golden_goal=False, last_goal=None, goals=[])
        v["running"] = not (v.get("paused") or v.get("over"))

    # --- Texas Hold'em ---------------------------------------------------------------------

    def _fold_holdem(self, kind: str, ev: dict, line: int) -> None:
        v = self.view
        if kind == "hello":
            v["rules"] = _text(ev.get("rules"))
        if kind in ("snapshot", "game"):
            v["stacks"] = _amounts(ev.get("stacks"))
            v["board"] = _texts(ev.get("board"))
            v["button"] = _text(ev.get("button"))
        elif kind == "hand_start":
            stacks = _amounts(ev.get("stacks"))
            blinds = _amounts(ev.get("blinds"))
            if blinds:
                v["table_blinds"] = f"{min(blinds.values())}/{max(blinds.values())}"
            v.update(
                stacks=stacks,
                bets=dict(blinds),
                committed=dict(blinds),
                board=[],
                pots=[],
                hands=[],
                shown={},
                folded=[],
                street="pre-flop",
                button=_text(ev.get("button")),
                to_act=_text(ev.get("to_act")),
                last_action=None,
                hand_no=v.get("hand_no", 0) + 1,
            )
        elif kind == "action":
            seat = _text(ev.get("seat"))
            if seat:
                if isinstance(ev.get("stack"), int):
                    before = v.get("stacks", {}).get(seat, ev["stack"])
                    put = before - ev["stack"]
                    v.setdefault("stacks", {})[seat] = ev["stack"]
                    committed = v.setdefault("committed", {})
                    committed[seat] = committed.get(seat, 0) + put
                if isinstance(ev.get("bet"), int):
                    v.setdefault("bets", {})[seat] = ev["bet"]
                if ev.get("action") == "fold":
                    v.setdefault("folded", []).append(seat)
                v["last_action"] = {
                    "seat": seat,
                    "action": _text(ev.get("action")),
                    "bet": ev.get("bet"),
                }
            v["to_act"] = _text(ev.get("to_act"))
        elif kind == "street":
            v["street"] = _text(ev.get("street"))
            v["to_act"] = _text(ev.get("to_act"))
            v["bets"] = {}
        elif kind == "card":
            if "board" in ev:
                v["board"] = _texts(ev["board"])
            elif _text(ev.get("seat")) and ev.get("hole"):
                v.setdefault("shown", {}).setdefault(ev["seat"], []).append(ev["card"])
        elif kind == "show":
            v["to_act"] = None
            v["showing"] = _text(ev.get("seat"))
        elif kind == "hand":
            v.setdefault("hands", []).append(
                {
                    "seat": _text(ev.get("seat")),
                    "category": _text(ev.get("category")),
                    "best": _texts(ev.get("best")),
                }
            )
        elif kind == "pot":
            v.setdefault("pots", []).append(
                {
                    "amount": ev.get("amount"),
                    "winners": _texts(ev.get("winners")),
                    "eligible": _texts(ev.get("eligible")),
                }
            )
        elif kind == "hand_end":
            v["stacks"] = _amounts(ev.get("stacks"))
            v["to_act"] = None
            v["showing"] = None
            v["committed"], v["bets"] = {}, {}  # the pots are paid: nothing is in the middle
            alive = [s for s, n in v["stacks"].items() if n > 0]
            self._knocked_out(v, alive)
            if len(alive) == 1 and len(v["stacks"]) > 1:  # one seat has every chip
                out = v.get("out", [])
                left = [s for s in v.get("seats", []) if s not in alive and not _among(s, out)]
                ranking = [alive, *reversed(out)] + ([left] if left else [])
                self._finish({"ranking": ranking, "score": v["stacks"]}, line)
        if v.get("stacks"):
            # every seat that played this game, also those knocked out (a hand's stacks
            # name only the seats still in)
            seats = set(v.get("seats", [])) | set(v["stacks"])
            v["seats"] = sorted(seats, key=lambda s: (len(s), s))
            v.setdefault("start", dict(v["stacks"]))
        if kind == "hand_start":  # each seat's chips before its blinds: its place if out
            committed = v.get("committed", {})
            v["hand_stacks"] = {s: n + committed.get(s, 0) for s, n in v["stacks"].items()}
        v["pot"] = sum(v.get("committed", {}).values())

    @staticmethod
    def _knocked_out(v: dict, alive: list[str]) -> None:
        """The seats a hand left without chips join `out` (first out first): seats out in
        the same hand are placed by their chips as it started (more is better; equal
        shares a place)."""
        out = v.setdefault("out", [])
        new = [s for s in v["stacks"] if s not in alive and not _among(s, out)]
        before = v.get("hand_stacks", {})
        for chips in sorted({before.get(s, 0) for s in new}):
            out.append(sorted((s for s in new if before.get(s, 0) == chips), key=_seat_order))

    # --- Pocha -----------------------------------------------------------------------------

    def _fold_pocha(self, kind: str, ev: dict, line: int) -> None:
        v = self.view
        if kind == "hello":
            v["rules"] = _text(ev.get("rules"))
        if kind == "snapshot":
            for key in ("taken", "bids", "totals"):
                v[key] = _amounts(ev.get(key))
            v["hand"], v["cards"] = ev.get("hand"), ev.get("cards")
            v["dealer"], v["phase"] = _text(ev.get("dealer")), _text(ev.get("phase"))
            v["trump"] = {"suit": _text(ev.get("trump"))} if ev.get("trump") else None
        elif kind == "hand_start":
            v.update(
                hand=ev.get("hand"),
                cards=ev.get("cards"),
                dealer=_text(ev.get("dealer")),
                tiebreak=bool(ev.get("tiebreak")),
                bids={},
                taken={},
                trick=[],
                trump=None,
                phase="trump",
            )
        elif kind == "trump":
            v["trump"] = {"card": _text(ev.get("card")), "suit": _text(ev.get("suit"))}
            v["phase"] = "bids"
        elif kind == "bid":
            seat = _text(ev.get("seat"))
            if seat and isinstance(ev.get("bid"), int):
                v.setdefault("bids", {})[seat] = ev["bid"]
        elif kind == "play":
            v["phase"], v["trick"], v["leader"] = "play", [], _text(ev.get("leader"))
        elif kind == "card" and _text(ev.get("seat")):
            v.setdefault("trick", []).append({"seat": ev["seat"], "card": ev["card"]})
        elif kind == "trick":
            w = _text(ev.get("winner"))
            if w:
                taken = v.setdefault("taken", {})
                taken[w] = taken.get(w, 0) + 1
            v["last_trick"] = {"winner": w, "cards": _texts(ev.get("cards"))}
            v["trick"] = []
        elif kind == "hand_end":
            for key in ("bids", "taken", "totals"):
                v[key] = _amounts(ev.get(key))
            row = {
                "hand": ev.get("hand"),
                "scores": _amounts(ev.get("scores")),
                **{k: v[k] for k in ("bids", "taken", "totals")},
            }
            v["history"] = (v.get("history", []) + [row])[-HISTORY_KEPT:]
            v["phase"] = "scored"
        elif kind == "match_end":
            # [seat, total, place] (K10: equal totals share a place); [seat, total] before
            ranking = [
                r[:2] + [r[2] if len(r) == 3 else r[1]]
                for r in ev.get("ranking", [])
                if isinstance(r, list) and len(r) in (2, 3)
            ]
            v["ranking"] = [r[:2] for r in ranking]
            groups: list[list[str]] = []
            last = None
            for seat, _total, place in ranking:
                if groups and place == last:
                    groups[-1].append(str(seat))
                else:
                    groups.append([str(seat)])
                last = place
            self._finish({"ranking": groups, "score": v.get("totals", {})}, line)
        if v.get("totals"):
            v["seats"] = sorted(v["totals"], key=lambda s: (len(s), s))

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

    def summary(self) -> dict:
        """What the club page lists for a table."""
        v = self.view
        return {
            "table": self.table,
            "game": self.game,
            "events": self.events,
            "line": self.line,
            "seq": self.seq,
            "updated": self.updated,
            "score": v.get("score") or v.get("totals") or v.get("stacks"),
            "winner": v.get("winner"),
            "turn": (v.get("position") or {}).get("turn") or v.get("to_act"),
        }

    @classmethod
    def from_dict(cls, d: dict) -> TableState:
        """A state published by a bridge (checked: a bad one raises ValueError)."""
        if not isinstance(d, dict) or not isinstance(d.get("view"), dict):
            raise ValueError("not a table state")
        s = cls(str(d.get("table")), str(d.get("epoch", "")))
        for key, typ in (("line", int), ("seq", int), ("events", int), ("updated", float)):
            val = d.get(key, 0)
            if not isinstance(val, int | float) or isinstance(val, bool):
                raise ValueError(f"table state with a bad {key}")
            setattr(s, key, typ(val))
        s.boot = _text(d.get("boot"))
        s.game = _text(d.get("game"))
        s.view = copy.deepcopy(d["view"])  # its own: folding on must not change the caller's
        start = d.get("game_start")
        s.game_start = start if isinstance(start, dict) else {}
        s.finished = [r for r in d.get("finished", []) if isinstance(r, dict)][-FINISHED_KEPT:]
        withdrawn = d.get("withdrawn", [])
        s.withdrawn = [
            w
            for w in (withdrawn if isinstance(withdrawn, list) else [])
            if isinstance(w, list) and len(w) == 3 and isinstance(w[2], int)
        ][-FINISHED_KEPT:]
        if s.boot and s.seq:
            s._repeats.had(s.boot, s.seq)
        pos = s.view.get("position")
        if s.game == "tock" and isinstance(pos, dict):
            try:
                s._follower.start(pos)
            except Mismatch as e:
                s.view["mismatch"] = str(e)
        return s


def _among(seat: str, groups: list[list[str]]) -> bool:
    return any(seat in g for g in groups)


def _seat_order(seat: str) -> tuple[int, str]:
    return (len(seat), seat)


def fold_log(path, table: str = "table", epoch: str = "") -> TableState:
    """A whole log folded: what a page following it from the first line shows at its end."""
    from plateau.logger import read_log

    state = TableState(table, epoch)
    for n, ev, why in read_log(path):
        state.feed(n, ev if ev is not None else {"type": "bad", "why": why})
    return state
