"""Tock on the club's page: the board as the rules' position (the game followed with the
host's copy of the rules core: an event that does not follow is shown as such, not drawn),
the card on the reader, the last move, a problem to put right, the winner and the ranking the
league rates (partners share a place)."""

from __future__ import annotations

from plateau.club.state import Fold, card, text
from plateau.fw.games.tock.rules import COLOURS
from plateau.games import Mismatch
from plateau.games.tock.checker import TockChecker


class Club(Fold):
    def __init__(self, table) -> None:
        super().__init__(table)
        self.checker = TockChecker()

    def feed(self, kind: str, ev: dict, line: int) -> None:
        v = self.view
        f = self.checker
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
            v["card"] = text(ev.get("card"))
            v["card_seat"] = text(ev.get("seat"))
        elif kind == "move":
            v["last_move"] = {k: ev.get(k) for k in ("card", "seat", "steps", "kind")}
            v["card"] = None
            v.pop("problem", None)
            v.pop("mismatch", None)
        elif kind == "discard":
            v["last_move"] = {"card": ev.get("card"), "seat": ev.get("seat"), "discard": True}
            v["card"] = None
        elif kind == "illegal":
            v["problem"] = {k: text(ev.get(k)) for k in ("what", "why", "fix", "card")}
        elif kind == "corrected":
            v.pop("problem", None)
        elif kind == "error" and text(ev.get("why")):
            v["error"] = {"what": text(ev.get("what")), "why": text(ev.get("why"))}
        elif kind == "undo":
            v["card"] = None
            v["last_move"] = None
            if v.get("winner") and "steps" in ev:  # the winning move taken back (T19)
                v["winner"] = None
                self.table.withdraw()
        elif kind == "win":
            seat = ev["seat"]
            v["winner"] = seat
            partner = {"R": "B", "B": "R", "G": "Y", "Y": "G"}.get(seat)
            seats = v.get("seats", [])
            first = [seat] + ([partner] if v.get("teams") and partner in seats else [])
            rest = [s for s in seats if s not in first]
            self.table.finish({"ranking": [first, rest] if rest else [first]}, line)

    def headline(self, name) -> str | None:
        v = self.view
        if v.get("winner"):
            return f"Tock: {name(v['winner'])} won"
        turn = (v.get("position") or {}).get("turn")
        if not turn:
            return None
        said = f"Tock: {'anyone' if turn == 'any' else name(turn)} to play"
        return f"{said}, {v['card']}" if v.get("card") else said

    def said(self, kind: str, ev: dict, name) -> str | None:
        if kind == "move":
            steps = ", ".join(f"{a} \u2192 {b}" for a, b in ev["steps"])
            said = f"{name(ev['seat'])} plays {card(ev['card'])}: {steps}"
            if ev.get("captures"):
                said += f", takes the pawn on {' '.join(map(str, ev['captures']))}"
            return said
        if kind == "discard":
            return f"{name(ev['seat'])} discards {card(ev['card'])} (no legal move)"
        if kind == "undo" and "steps" in ev:
            return "the last move taken back"
        if kind == "win":
            return f"{name(ev['seat'])} won"
        if kind == "illegal":
            return f"the board is wrong: {ev.get('why')}"
        return None

    def restore(self) -> None:
        pos = self.view.get("position")
        if isinstance(pos, dict):
            try:
                self.checker.start(pos)
            except Mismatch as e:
                self.view["mismatch"] = str(e)
