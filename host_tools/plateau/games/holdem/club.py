"""Texas Hold'em on the club's page: the community cards, pots, stacks, bets and whose turn;
and, once one seat has every chip, the places for the league: the seats by when they went
out (those out in the same hand by their chips as it started)."""

from __future__ import annotations

from plateau.club.state import Fold, amounts, card, text, texts


class Club(Fold):
    def feed(self, kind: str, ev: dict, line: int) -> None:
        v = self.view
        if kind == "hello":
            v["rules"] = text(ev.get("rules"))
        if kind in ("snapshot", "game"):
            v["stacks"] = amounts(ev.get("stacks"))
            v["board"] = texts(ev.get("board"))
            v["button"] = text(ev.get("button"))
        elif kind == "hand_start":
            stacks = amounts(ev.get("stacks"))
            blinds = amounts(ev.get("blinds"))
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
                hand_over=False,
                winner=None,
                button=text(ev.get("button")),
                to_act=text(ev.get("to_act")),
                last_action=None,
                hand_no=v.get("hand_no", 0) + 1,
            )
        elif kind == "action":
            seat = text(ev.get("seat"))
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
                    "action": text(ev.get("action")),
                    "bet": ev.get("bet"),
                }
            v["to_act"] = text(ev.get("to_act"))
        elif kind == "street":
            v["street"] = text(ev.get("street"))
            v["to_act"] = text(ev.get("to_act"))
            v["bets"] = {}
        elif kind == "card":
            if "board" in ev:
                v["board"] = texts(ev["board"])
                # the street the board's cards make (a hand played out all-in deals them
                # with no street event between)
                v["street"] = STREETS.get(len(v["board"]), v.get("street"))
            elif text(ev.get("seat")) and ev.get("hole"):
                v.setdefault("shown", {}).setdefault(ev["seat"], []).append(ev["card"])
        elif kind == "show":
            v["to_act"] = None
            v["showing"] = text(ev.get("seat"))
        elif kind == "hand":
            v.setdefault("hands", []).append(
                {
                    "seat": text(ev.get("seat")),
                    "category": text(ev.get("category")),
                    "best": texts(ev.get("best")),
                }
            )
        elif kind == "pot":
            v.setdefault("pots", []).append(
                {
                    "amount": ev.get("amount"),
                    "winners": texts(ev.get("winners")),
                    "eligible": texts(ev.get("eligible")),
                }
            )
        elif kind == "hand_end":
            v["stacks"] = amounts(ev.get("stacks"))
            v["to_act"] = None
            v["showing"] = None
            v["committed"], v["bets"] = {}, {}  # the pots are paid: nothing is in the middle
            v["hand_over"] = True
            alive = [s for s, n in v["stacks"].items() if n > 0]
            _knocked_out(v, alive)
            if len(alive) == 1 and len(v["stacks"]) > 1:  # one seat has every chip
                out = v.get("out", [])
                left = [s for s in v.get("seats", []) if s not in alive and not _among(s, out)]
                ranking = [alive, *reversed(out)] + ([left] if left else [])
                v["winner"] = alive[0]
                self.table.finish({"ranking": ranking, "score": v["stacks"]}, line)
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

    def said(self, kind: str, ev: dict, name) -> str | None:
        v = self.view
        if kind == "hand_start":
            said = f"hand {v.get('hand_no')}"
            return said + (f": {name(v['button'])} on the button" if v.get("button") else "")
        if kind == "action":
            what, bet = ev["action"], ev.get("bet")
            said = f"{name(ev['seat'])} {ACTIONS.get(what, what)}"
            if isinstance(bet, int) and bet and what not in ("check", "fold"):
                said += f" ({bet} in)" if what == "allin" else f" {bet}"
            return said
        if kind == "card" and "board" in ev:
            board = texts(ev["board"])
            street = STREETS.get(len(board))
            if street in (None, "pre-flop"):
                return None  # the flop's first two cards: said with the third
            return f"{street}: {' '.join(card(c) for c in board)}"
        if kind == "hand":
            best = " ".join(card(c) for c in texts(ev.get("best")))
            return f"{name(ev['seat'])} shows {ev.get('category')}" + (f": {best}" if best else "")
        if kind == "pot":
            who = " & ".join(name(w) for w in texts(ev.get("winners")))
            return f"{who} won {ev.get('amount')}"
        if kind == "hand_end" and v.get("winner"):
            return f"{name(v['winner'])} has every chip"
        return None

    def headline(self, name) -> str | None:
        v = self.view
        if v.get("winner"):
            return f"{name(v['winner'])} has every chip, hand {v.get('hand_no', '?')}"
        if not v.get("hand_no"):
            return None
        said = f"hand {v['hand_no']}"
        pots = [p for p in v.get("pots") or [] if p.get("winners")]
        if v.get("hand_over") and pots:
            won = "; ".join(
                f"{' & '.join(name(w) for w in p['winners'])} won {p.get('amount')}" for p in pots
            )
            return f"{said}: {won}"
        said += f", {v.get('street') or 'pre-flop'}, pot {v.get('pot', 0)}"
        if v.get("to_act"):
            said += f": {name(v['to_act'])} to act"
        return said


STREETS = {0: "pre-flop", 3: "flop", 4: "turn", 5: "river"}
# an action as the move list says it (the bet after it: "raises to 12")
ACTIONS = {"allin": "goes all in", "bet": "bets", "call": "calls", "raise": "raises to",
           "check": "checks", "fold": "folds"}  # fmt: skip


def _knocked_out(v: dict, alive: list[str]) -> None:
    """The seats a hand left without chips join `out` (first out first): seats out in
    the same hand are placed by their chips as it started (more is better; equal
    shares a place)."""
    out = v.setdefault("out", [])
    new = [s for s in v["stacks"] if s not in alive and not _among(s, out)]
    before = v.get("hand_stacks", {})
    for chips in sorted({before.get(s, 0) for s in new}):
        out.append(sorted((s for s in new if before.get(s, 0) == chips), key=_seat_order))


def _among(seat: str, groups: list[list[str]]) -> bool:
    return any(seat in g for g in groups)


def _seat_order(seat: str) -> tuple[int, str]:
    return (len(seat), seat)
